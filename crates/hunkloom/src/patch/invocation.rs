//! The shell command around a patch: models that drive Codex's `apply_patch` through a shell
//! write `apply_patch <<'EOF'` … `EOF`, and hosts that pipe such a reply on need the patch
//! inside.

/// The patch inside a shell heredoc invocation of `apply_patch` (or `applypatch`): a first
/// non-blank line `apply_patch <<DELIM`, `<<'DELIM'`, `<<"DELIM"` or `<<-DELIM` (any delimiter
/// word, spaces allowed after `<<`), and a last non-blank line that is the delimiter. `None` when
/// `text` is not such an invocation; the body is returned as it is, whatever it holds.
///
/// Codex's own lenient parser accepts only the bare wrapper (`<<'EOF'` on the first line, which
/// [`is_patch`](super::is_patch) and [`parse_patch`](super::parse_patch) take as they are); this
/// takes the command line a model writes for a shell tool.
///
/// ```
/// use hunkloom::patch::{is_patch, strip_invocation};
///
/// let reply = "apply_patch <<'PATCH'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nPATCH\n";
/// assert!(!is_patch(reply));
/// let patch = strip_invocation(reply).unwrap();
/// assert_eq!(patch, "*** Begin Patch\n*** Delete File: a\n*** End Patch\n");
/// assert!(is_patch(patch));
/// assert_eq!(strip_invocation("*** Begin Patch\n*** End Patch\n"), None);
/// ```
pub fn strip_invocation(text: &str) -> Option<&str> {
    let start = text.len() - text.trim_start().len();
    let first_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let delimiter = heredoc_delimiter(text[start..first_end].trim())?;
    let body_start = (first_end + 1).min(text.len());
    let trimmed_end = text.trim_end().len();
    let last_start = text[..trimmed_end].rfind('\n').map_or(0, |i| i + 1);
    if last_start < body_start || text[last_start..trimmed_end].trim() != delimiter {
        return None;
    }
    Some(&text[body_start..last_start])
}

/// The delimiter word of `line` when it is `apply_patch <<WORD` (or `applypatch`), `WORD` bare,
/// single- or double-quoted, after `<<` or `<<-`.
fn heredoc_delimiter(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix("apply_patch")
        .or_else(|| line.strip_prefix("applypatch"))?;
    let rest = rest.trim_start().strip_prefix("<<")?;
    let rest = rest.strip_prefix('-').unwrap_or(rest).trim_start();
    let word = match rest.as_bytes().first() {
        Some(&q @ (b'\'' | b'"')) => rest[1..].strip_suffix(q as char)?,
        _ => rest,
    };
    let valid = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    valid.then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATCH: &str = "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n";

    #[test]
    fn every_heredoc_form_gives_the_body() {
        for opener in [
            "apply_patch <<'EOF'",
            "apply_patch <<\"EOF\"",
            "apply_patch <<EOF",
            "apply_patch << 'EOF'",
            "apply_patch <<-EOF",
            "applypatch <<'EOF'",
        ] {
            let text = format!("\n{opener}\n{PATCH}EOF\n\n");
            assert_eq!(strip_invocation(&text), Some(PATCH), "{opener}");
        }
        let crlf = "apply_patch <<'END'\r\n*** Begin Patch\r\n*** End Patch\r\nEND\r\n";
        assert_eq!(
            strip_invocation(crlf),
            Some("*** Begin Patch\r\n*** End Patch\r\n")
        );
    }

    #[test]
    fn anything_else_is_not_an_invocation() {
        for text in [
            PATCH,
            "<<'EOF'\n*** Begin Patch\n*** End Patch\nEOF\n",
            "apply_patch <<'EOF'\n*** Begin Patch\n*** End Patch\n",
            "apply_patch <<'EOF'\n*** Begin Patch\n*** End Patch\nEND\n",
            "apply_patch <<'EOF\n*** Begin Patch\nEOF\n",
            "apply_patch <<\n*** Begin Patch\n\n",
            "apply_patch <<'EOF'",
            "apply_patcher <<'EOF'\nx\nEOF\n",
            "",
        ] {
            assert_eq!(strip_invocation(text), None, "{text:?}");
        }
        assert_eq!(strip_invocation("apply_patch <<'EOF'\nEOF\n"), Some(""));
    }
}

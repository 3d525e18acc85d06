//! Applying one SEARCH/REPLACE block as aider's `do_replace` does: the wrapping a model puts
//! around a section removed, then exact lines, then lines off by one common indentation, then
//! the same without a spurious leading blank line, then `...` elisions. No fuzzy matching.

use super::blocks::Fence;
use super::py;

/// A block aider cannot even look at: `strip_quoted_wrapping` indexes a section that held
/// only its file-name line (Python's `IndexError`).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct NothingLeft;

/// `strip_quoted_wrapping(text, path, fence)`: a first line ending with the file's name and
/// then a surrounding fence pair removed; a final newline ensured.
pub(crate) fn strip_wrapping(text: &str, path: &str, fence: Fence) -> Result<String, NothingLeft> {
    if text.is_empty() {
        return Ok(String::new());
    }
    let mut lines = py::splitlines(text);
    if lines
        .first()
        .is_some_and(|first| py::strip(first).ends_with(py::path_name(path)))
    {
        lines.remove(0);
    }
    let first = lines.first().ok_or(NothingLeft)?;
    if first.starts_with(fence.0) && lines.last().is_some_and(|l| l.starts_with(fence.1)) {
        lines = if lines.len() >= 2 {
            lines[1..lines.len() - 1].to_vec()
        } else {
            Vec::new()
        };
    }
    let mut out = lines.join("\n");
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

/// `prep`: the text with a final newline, and its lines.
fn prep(text: &str) -> (String, Vec<String>) {
    let mut text = text.to_owned();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    let lines = py::splitlines_keepends(&text)
        .into_iter()
        .map(str::to_owned)
        .collect();
    (text, lines)
}

/// `"".join(...)`, `None` for an empty result (aider treats an empty file as a failed edit).
fn joined(parts: &[&[String]]) -> Option<String> {
    let text: String = parts
        .iter()
        .flat_map(|p| p.iter())
        .map(String::as_str)
        .collect();
    (!text.is_empty()).then_some(text)
}

/// `replace_most_similar_chunk(whole, part, replace)`.
pub(crate) fn replace_most_similar_chunk(whole: &str, part: &str, replace: &str) -> Option<String> {
    let (whole, whole_lines) = prep(whole);
    let (part, part_lines) = prep(part);
    let (replace, replace_lines) = prep(replace);
    if let Some(done) = perfect_or_whitespace(&whole_lines, &part_lines, &replace_lines) {
        return Some(done);
    }
    if part_lines.len() > 2
        && py::strip(&part_lines[0]).is_empty()
        && let Some(done) = perfect_or_whitespace(&whole_lines, &part_lines[1..], &replace_lines)
    {
        return Some(done);
    }
    try_dotdotdots(&whole, &part, &replace)
        .ok()
        .flatten()
        .filter(|s| !s.is_empty())
}

fn perfect_or_whitespace(whole: &[String], part: &[String], replace: &[String]) -> Option<String> {
    perfect_replace(whole, part, replace)
        .or_else(|| replace_part_with_missing_leading_whitespace(whole, part, replace))
}

/// The first window of `whole` equal to `part`, replaced.
fn perfect_replace(whole: &[String], part: &[String], replace: &[String]) -> Option<String> {
    if part.len() > whole.len() {
        return None;
    }
    let i = (0..=whole.len() - part.len()).find(|&i| whole[i..i + part.len()] == *part)?;
    joined(&[&whole[..i], replace, &whole[i + part.len()..]])
}

/// The number of leading whitespace characters of `line`.
fn leading(line: &str) -> usize {
    line.chars().count() - py::lstrip(line).chars().count()
}

/// `line[n:]` in characters.
fn skip_chars(line: &str, n: usize) -> String {
    line.chars().skip(n).collect()
}

/// The first window equal to `part` but for one indentation common to its lines, replaced
/// with that indentation added to the replacement (both sections first outdented by the
/// indentation they share).
fn replace_part_with_missing_leading_whitespace(
    whole: &[String],
    part: &[String],
    replace: &[String],
) -> Option<String> {
    let indents: Vec<usize> = part
        .iter()
        .chain(replace)
        .filter(|l| !py::strip(l).is_empty())
        .map(|l| leading(l))
        .collect();
    let outdent = |lines: &[String], n: usize| -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                if py::strip(l).is_empty() {
                    l.clone()
                } else {
                    skip_chars(l, n)
                }
            })
            .collect()
    };
    let (part, replace) = match indents.iter().min() {
        Some(&n) if n > 0 => (outdent(part, n), outdent(replace, n)),
        _ => (part.to_vec(), replace.to_vec()),
    };
    let n = part.len();
    if n > whole.len() {
        return None;
    }
    for i in 0..=whole.len() - n {
        let Some(add) = match_but_for_leading_whitespace(&whole[i..i + n], &part) else {
            continue;
        };
        let replaced: Vec<String> = replace
            .iter()
            .map(|r| {
                if py::strip(r).is_empty() {
                    r.clone()
                } else {
                    format!("{add}{r}")
                }
            })
            .collect();
        return joined(&[&whole[..i], &replaced, &whole[i + n..]]);
    }
    None
}

/// The one indentation that `whole` adds to every non-blank line of `part`, if the lines
/// agree otherwise.
fn match_but_for_leading_whitespace(whole: &[String], part: &[String]) -> Option<String> {
    if !whole
        .iter()
        .zip(part)
        .all(|(w, p)| py::lstrip(w) == py::lstrip(p))
    {
        return None;
    }
    let mut added: Vec<String> = Vec::new();
    for (w, p) in whole.iter().zip(part) {
        if py::strip(w).is_empty() {
            continue;
        }
        // `w[: len(w) - len(p)]`, a negative end counting from the back as Python does.
        let (lw, lp) = (w.chars().count() as isize, p.chars().count() as isize);
        let end = lw - lp;
        let end = if end < 0 { (lw + end).max(0) } else { end } as usize;
        let prefix: String = w.chars().take(end).collect();
        if !added.contains(&prefix) {
            added.push(prefix);
        }
    }
    if added.len() == 1 { added.pop() } else { None }
}

/// `re.split(r"(^\s*\.\.\.\n)", text, flags=MULTILINE|DOTALL)`: the pieces and the `...`
/// lines between them, alternating.
fn split_dots(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut piece_start = 0;
    let mut at = 0;
    while at < text.len() {
        if at == 0 || text.as_bytes()[at - 1] == b'\n' {
            let rest = &text[at..];
            let spaces = rest.len() - rest.trim_start_matches(py::is_space).len();
            if rest[spaces..].starts_with("...\n") {
                let end = at + spaces + 4;
                pieces.push(&text[piece_start..at]);
                pieces.push(&text[at..end]);
                piece_start = end;
                at = end;
                continue;
            }
        }
        at += text[at..].chars().next().map_or(1, char::len_utf8);
    }
    pieces.push(&text[piece_start..]);
    pieces
}

/// `try_dotdotdots`: `Ok(None)` without `...` lines; each piece between them replaced where
/// it occurs exactly once; `Err` for unpaired or unmatched dots or a piece found 0 or 2+ times.
fn try_dotdotdots(whole: &str, part: &str, replace: &str) -> Result<Option<String>, ()> {
    let parts = split_dots(part);
    let replaces = split_dots(replace);
    if parts.len() != replaces.len() {
        return Err(());
    }
    if parts.len() == 1 {
        return Ok(None);
    }
    if (1..parts.len()).step_by(2).any(|i| parts[i] != replaces[i]) {
        return Err(());
    }
    let mut whole = whole.to_owned();
    for (p, r) in parts.iter().zip(&replaces).step_by(2) {
        if p.is_empty() && r.is_empty() {
            continue;
        }
        if p.is_empty() {
            if !whole.ends_with('\n') {
                whole.push('\n');
            }
            whole.push_str(r);
            continue;
        }
        if whole.matches(p).count() != 1 {
            return Err(());
        }
        whole = whole.replacen(p, r, 1);
    }
    Ok(Some(whole))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_lines_then_missing_indentation() {
        assert_eq!(
            replace_most_similar_chunk("a\nb\nc\n", "b\n", "B\n").as_deref(),
            Some("a\nB\nc\n")
        );
        assert_eq!(
            replace_most_similar_chunk("def f():\n    x = 1\n", "x = 1\n", "x = 2\n").as_deref(),
            Some("def f():\n    x = 2\n")
        );
        assert_eq!(replace_most_similar_chunk("a\n", "a\n", ""), None);
    }

    #[test]
    fn elisions_replace_each_piece_once() {
        let whole = "a\nb\nc\nd\n";
        assert_eq!(
            replace_most_similar_chunk(whole, "a\n...\nd\n", "A\n...\nD\n").as_deref(),
            Some("A\nb\nc\nD\n")
        );
        assert_eq!(split_dots("x\n  ...\ny"), ["x\n", "  ...\n", "y"]);
    }

    #[test]
    fn wrapping_is_stripped() {
        let fence = ("```", "```");
        assert_eq!(
            strip_wrapping("app.py\n```\nx\n```\n", "src/app.py", fence),
            Ok("x\n".to_owned())
        );
        assert_eq!(
            strip_wrapping("app.py\n", "app.py", fence),
            Err(NothingLeft)
        );
    }
}

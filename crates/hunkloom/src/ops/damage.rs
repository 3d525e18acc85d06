//! Damaged tool calls: what a model's tool call carries when something between the model and
//! the file broke it, caught before it reaches disk.
//!
//! - **Truncation.** A whole-file write whose text was cut off (a streamed argument that ended
//!   early, an output limit) turns a long file into its first lines. A write over an existing
//!   file that drops more than half of its lines *and* looks cut off — it ends inside a line
//!   where the file ended with a newline, or with a bracket, string or block left open — is
//!   refused ([`suspected_truncation`], error `suspected_truncation`, with both line counts). A
//!   shorter file written whole and well-formed is a deliberate rewrite and passes.
//! - **View prefixes.** Text copied from a view keeps the view's line numbers: `cat -n`'s
//!   right-aligned number and tab (`     12\t`), Claude Code's `    12→`, and the `12#a3:`
//!   line-hash form. When every line of a text carries one prefix form and the numbers run on
//!   by one, the prefixes are certainly the view's and are removed ([`strip_view_prefixes`]);
//!   when every line carries one but the numbers do not run on, nothing certain can be written
//!   and the text is refused (error `line_number_prefixes`).
//! - **Clipping notices.** A view that was cut says so (`<response clipped>`,
//!   `[... 120 lines truncated ...]`, `(file truncated)`); written into a file, the notice
//!   replaces the code it stood for. A new text with a notice the old text does not have is
//!   refused ([`clipping_notice`], error `truncation_notice`).
//! - **Replays.** A retried `str_replace` or `insert` whose result is already in the file is
//!   done, not failed: [`replayed_str_replace`] and [`replayed_insert`] recognise it, and the
//!   file layer answers it as a success that changes nothing
//!   ([`Normalization::AlreadyApplied`]).
//!
//! These are the rules of hunkloom's own operations (the file layer, the CLI, the `native`
//! text editor, the MCP server's tools); the reference profiles keep their references'
//! answers.

use crate::error::{Error, ErrorKind, Result};

use super::{Edit, Normalization};

/// How many lines `text` has (a final line without a newline counts).
fn line_count(text: &str) -> usize {
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    newlines + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// Why a text looks cut off, if it does.
fn cut_off(new: &str, old: &str) -> Option<&'static str> {
    if old.ends_with('\n') && !new.is_empty() && !new.ends_with('\n') {
        return Some("it ends inside a line where the file ended with a newline");
    }
    let fences = new
        .lines()
        .filter(|l| l.trim_start().starts_with("```"))
        .count();
    let triple_quotes: usize = new.lines().map(|l| l.matches("\"\"\"").count()).sum();
    let depth = bracket_depth(new);
    if depth > 0 && depth > bracket_depth(old) {
        Some("a bracket it opens is never closed")
    } else if fences % 2 == 1 {
        Some("a code fence it opens is never closed")
    } else if triple_quotes % 2 == 1 {
        Some("a triple-quoted string it opens is never closed")
    } else {
        None
    }
}

/// The bracket depth at the end of `text`: `(`, `[`, `{` less `)`, `]`, `}`, outside quotes
/// (a quote runs to its closing mark or the end of its line) and outside code-fence lines.
fn bracket_depth(text: &str) -> i64 {
    let mut depth = 0i64;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            continue;
        }
        let mut quote: Option<char> = None;
        let mut escaped = false;
        for c in line.chars() {
            match quote {
                Some(q) => {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == q {
                        quote = None;
                    }
                }
                None => match c {
                    '"' | '\'' | '`' => quote = Some(c),
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' => depth -= 1,
                    _ => {}
                },
            }
        }
    }
    depth
}

/// Error `suspected_truncation` if writing `new` over a file whose text is `old` drops more
/// than half of its lines and `new` looks cut off (see the module documentation); `path` names
/// the file in the message.
pub fn suspected_truncation(old: &str, new: &str, path: &str) -> Result<()> {
    let (before, after) = (line_count(old), line_count(new));
    if after * 2 >= before {
        return Ok(());
    }
    let Some(why) = cut_off(new, old) else {
        return Ok(());
    };
    Err(Error::new(
        ErrorKind::SuspectedTruncation,
        format!(
            "Refused to write {path}: the new content has {after} line(s) where the file has \
             {before}, and {why}, so the tool call looks cut off. Nothing was written. Send the \
             whole file again, or, if the shorter file is what you mean, write it complete (or \
             remove the lines with an edit)."
        ),
    ))
}

/// One form of a view's line-number prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PrefixForm {
    /// `cat -n` as the text editors print it: the number right-aligned in six columns, a tab.
    CatN,
    /// Claude Code's Read: the number right-aligned in six columns, `→`.
    Arrow,
    /// `12#a3f:`: the number, `#`, a short hexadecimal line hash, `:`.
    LineHash,
}

/// The line number and the rest of `line`, if it starts with a prefix of `form`.
fn split_prefix(line: &str, form: PrefixForm) -> Option<(u64, &str)> {
    let digits_at = line.len() - line.trim_start_matches(' ').len();
    let after_spaces = &line[digits_at..];
    let digits = after_spaces.len()
        - after_spaces
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    if digits == 0 || digits > 9 {
        return None;
    }
    let number: u64 = after_spaces[..digits].parse().ok()?;
    let rest = &after_spaces[digits..];
    match form {
        PrefixForm::CatN | PrefixForm::Arrow => {
            // Right-aligned in six columns: padding only up to the width.
            if digits_at + digits != 6.max(digits) {
                return None;
            }
            let mark = if form == PrefixForm::CatN {
                "\t"
            } else {
                "→"
            };
            rest.strip_prefix(mark).map(|r| (number, r))
        }
        PrefixForm::LineHash => {
            if digits_at != 0 {
                return None;
            }
            let hash = rest.strip_prefix('#')?;
            let len = hash.len()
                - hash
                    .trim_start_matches(|c: char| c.is_ascii_hexdigit())
                    .len();
            if !(2..=16).contains(&len) {
                return None;
            }
            hash[len..].strip_prefix(':').map(|r| (number, r))
        }
    }
}

/// What [`strip_view_prefixes`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewPrefixes {
    /// The text has no view prefixes (not on every line).
    None,
    /// Every line had one and the numbers ran on by one: the text without them.
    Stripped(String),
    /// Every line has one but the numbers do not run on: the text cannot be written certainly.
    Uncertain,
}

/// Whether every line of `text` carries a view's line-number prefix of one form, and the text
/// without them when that is certain (see the module documentation).
pub fn strip_view_prefixes(text: &str) -> ViewPrefixes {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    if lines.is_empty() {
        return ViewPrefixes::None;
    }
    for form in [PrefixForm::CatN, PrefixForm::Arrow, PrefixForm::LineHash] {
        let split: Option<Vec<(u64, &str)>> = lines.iter().map(|l| split_prefix(l, form)).collect();
        let Some(split) = split else {
            continue;
        };
        let consecutive = split.windows(2).all(|w| w[1].0 == w[0].0 + 1);
        if !consecutive {
            return ViewPrefixes::Uncertain;
        }
        return ViewPrefixes::Stripped(split.into_iter().map(|(_, rest)| rest).collect());
    }
    ViewPrefixes::None
}

/// Error `line_number_prefixes` for [`ViewPrefixes::Uncertain`]; `what` names the text.
pub fn prefixes_error(what: &str) -> Error {
    Error::new(
        ErrorKind::LineNumberPrefixes,
        format!(
            "Refused: every line of {what} starts with a line number as a file view shows it, \
             and the numbers do not run on, so they cannot be removed with certainty. Nothing \
             was written. Send the text without the view's line numbers."
        ),
    )
}

/// The clipping notices a view or a tool's output puts where it cut text: lowercase fragments
/// matched against a lowercased line.
const NOTICES: &[&str] = &[
    "<response clipped>",
    "lines truncated ...]",
    "lines truncated...]",
    "(file truncated)",
    "[... truncated ...]",
    "[truncated]",
    "<truncated>",
    "… [truncated]",
];

/// The first line of `new` with a clipping notice that `old` does not have, if any. One pass
/// over `new` in the common case (no notice in it); `old` is read only when `new` has one.
pub fn clipping_notice<'a>(old: &str, new: &'a str) -> Option<&'a str> {
    let in_new: Vec<&str> = {
        let lower = new.to_lowercase();
        NOTICES
            .iter()
            .copied()
            .filter(|notice| lower.contains(notice))
            .collect()
    };
    if in_new.is_empty() {
        return None;
    }
    let old_lower = old.to_lowercase();
    let fresh: Vec<&str> = in_new
        .into_iter()
        .filter(|notice| !old_lower.contains(notice))
        .collect();
    new.lines().find(|line| {
        let lower = line.to_lowercase();
        fresh.iter().any(|notice| lower.contains(notice))
    })
}

/// Error `truncation_notice` for the line `line` of `what`.
pub fn notice_error(what: &str, line: &str) -> Error {
    Error::new(
        ErrorKind::TruncationNotice,
        format!(
            "Refused: {what} contains a truncation notice copied from a clipped view ({:?}), \
             which would replace the code it stands for. Nothing was written. View the lines \
             in full and send the code itself.",
            line.trim()
        ),
    )
}

/// Whether `line` has a letter or digit (a line that says something, not only punctuation).
fn substantive(line: &str) -> bool {
    line.chars().any(char::is_alphanumeric)
}

/// The answer to a replayed call: `content` unchanged, no replacement, status
/// [`Normalization::AlreadyApplied`], the lines where the edit's text already is.
fn already_applied(content: &str, at: usize, len: usize) -> Edit {
    Edit {
        new_content: content.to_owned(),
        replacements: 0,
        normalizations: vec![Normalization::AlreadyApplied],
        first_edit: super::line_range(&content[..at], &content[at..at + len]),
    }
}

/// When a `str_replace` of `old` by `new` found no `old` in `content`: the already-applied
/// answer if the call is a replay — `new` has a line with a letter or digit, occurs exactly
/// once, and that occurrence holds whole lines (only whitespace before it on its first line
/// and after it on its last), so a fragment such as `2` inside `line 2` is not taken for the
/// edit; when `new` is part of `old` (the edit deletes), it must have two such lines.
pub fn replayed_str_replace(content: &str, old: &str, new: &str) -> Option<Edit> {
    let lines = new.lines().filter(|l| substantive(l)).count();
    if lines == 0 || old == new || (old.contains(new) && lines < 2) {
        return None;
    }
    let mut found = memchr::memmem::find_iter(content.as_bytes(), new.as_bytes());
    let first = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let line_start = content[..first].rfind('\n').map_or(0, |i| i + 1);
    let end = first + new.len();
    let line_end = content[end..].find('\n').map_or(content.len(), |i| end + i);
    let whole = content[line_start..first].trim().is_empty()
        && (new.ends_with('\n') || content[end..line_end].trim().is_empty());
    whole.then(|| already_applied(content, first, new.len()))
}

/// Whether an insert that turned `content` into `inserted` (`edit`, whose
/// [`first_edit`](Edit::first_edit) covers the inserted lines) is a replay: the lines that
/// follow the insertion point in `content` are already the inserted ones, and they have a line
/// with a letter or digit. The already-applied answer if so.
pub fn replayed_insert(content: &str, edit: &Edit) -> Option<Edit> {
    let range = edit.first_edit;
    let wanted: Vec<&str> = edit
        .new_content
        .lines()
        .skip(range.start.saturating_sub(1))
        .take(range.end + 1 - range.start)
        .collect();
    if !wanted.iter().any(|l| substantive(l)) {
        return None;
    }
    let skip = range.start.saturating_sub(1);
    let present: Vec<&str> = content.lines().skip(skip).take(wanted.len()).collect();
    if present != wanted {
        return None;
    }
    let at: usize = content.split_inclusive('\n').take(skip).map(str::len).sum();
    let len: usize = content
        .split_inclusive('\n')
        .skip(skip)
        .take(wanted.len())
        .map(str::len)
        .sum();
    Some(already_applied(content, at, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_off_write_that_drops_most_lines_is_refused() {
        let old: String = (0..40).map(|i| format!("line {i}\n")).collect();
        let e = suspected_truncation(&old, "line 0\nline 1\nli", "a.txt").expect_err("cut");
        assert_eq!(e.code(), "suspected_truncation");
        assert!(e.message().contains("3 line(s) where the file has 40"));
        // Open bracket.
        let code: String = "fn main() {\n".to_owned() + &"    x();\n".repeat(30) + "}\n";
        assert!(suspected_truncation(&code, "fn main() {\n    x();\n", "a.rs").is_err());
        // A short but complete file is a rewrite.
        assert!(suspected_truncation(&code, "fn main() {}\n", "a.rs").is_ok());
        // Dropping less than half is fine even if cut.
        assert!(suspected_truncation("a\nb\nc\n", "a\nb\nc", "x").is_ok());
        // A file that had no final newline: only brackets count.
        assert!(suspected_truncation(old.trim_end(), "line 0", "x").is_ok());
        // Brackets already open in the file (a fragment file) are not the new text's fault.
        let fragment = "{\n".repeat(20);
        assert!(suspected_truncation(&fragment, "{\n", "x").is_ok());
    }

    #[test]
    fn view_prefixes_are_stripped_when_certain() {
        assert_eq!(
            strip_view_prefixes("    12\tdef f():\n    13\t    return 1\n"),
            ViewPrefixes::Stripped("def f():\n    return 1\n".into())
        );
        assert_eq!(
            strip_view_prefixes("     7→x = 1\n     8→\n"),
            ViewPrefixes::Stripped("x = 1\n\n".into())
        );
        assert_eq!(
            strip_view_prefixes("3#a1:one\n4#ff:two"),
            ViewPrefixes::Stripped("one\ntwo".into())
        );
        assert_eq!(
            strip_view_prefixes("     3\tone\n     9\ttwo\n"),
            ViewPrefixes::Uncertain
        );
        // Tab-separated data with an id column is not a view.
        assert_eq!(
            strip_view_prefixes("1\tAlice\n2\tBob\n"),
            ViewPrefixes::None
        );
        assert_eq!(
            strip_view_prefixes("x = 1\n     2\ty\n"),
            ViewPrefixes::None
        );
        assert_eq!(strip_view_prefixes(""), ViewPrefixes::None);
    }

    #[test]
    fn clipping_notices_new_to_the_text_are_found() {
        assert_eq!(
            clipping_notice("a\n", "a\n[... 120 lines truncated ...]\n"),
            Some("[... 120 lines truncated ...]")
        );
        assert!(clipping_notice("x", "<response clipped><NOTE>…</NOTE>").is_some());
        assert!(
            clipping_notice(
                "// (file truncated) marker\n",
                "// (file truncated) marker\n"
            )
            .is_none()
        );
        assert!(clipping_notice("", "let truncated = true;\n").is_none());
    }

    #[test]
    fn replays_are_recognised_only_when_certain() {
        let file = "def f():\n    return 2\n";
        let edit = replayed_str_replace(file, "return 1", "return 2").expect("replay");
        assert_eq!(edit.new_content, file);
        assert_eq!(edit.replacements, 0);
        assert_eq!(edit.normalizations, vec![Normalization::AlreadyApplied]);
        assert_eq!((edit.first_edit.start, edit.first_edit.end), (2, 2));
        assert!(replayed_str_replace("}\n}\n", "x\n}", "}").is_none());
        assert!(replayed_str_replace(file, "a", ")").is_none());
        // A fragment of a line is not the edit.
        assert!(replayed_str_replace("line 1\nline 2\n", "two", "2").is_none());
        // A deletion's remainder must be two substantive lines.
        assert!(replayed_str_replace(file, "x = 1\n    return 2", "    return 2").is_none());
        let insert = |content: &str, line: usize, text: &str| {
            let edit = super::super::insert(content, line, text, super::super::Convention::After)
                .expect("insert");
            replayed_insert(content, &edit)
        };
        let again = insert("a\nnew line\nb\n", 1, "new line").expect("replay");
        assert_eq!(again.new_content, "a\nnew line\nb\n");
        assert_eq!((again.first_edit.start, again.first_edit.end), (2, 2));
        assert!(insert("a\nb\n", 1, "new line").is_none());
        assert!(insert("a\n}\nb\n", 1, "}").is_none());
    }
}

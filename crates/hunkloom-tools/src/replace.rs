//! hunkloom's own replacement of a text in a file's `\n` view: the native text editor's
//! `str_replace`, and every string-replacing tool of a toolset under native semantics (the
//! Gemini CLI's `replace`, Copilot's `replace_string_in_file`), so that each tool name refuses
//! and tolerates the same things.
//!
//! The match is the core's ([`ops::str_replace_with`] in Claude Code's mode: exact, the file's
//! line endings, curly quotes folded, the API's short tags); a text found nowhere that way is
//! then read as whole lines and placed by the native reading of patches
//! ([`hunkloom::patch::native`]: line endings, trailing whitespace, indentation re-based,
//! punctuation, blank lines, one typo), which uses exactly one place or refuses. On top of it:
//! - two places that overlap (`a\nb\na` in `a\nb\na\nb\na`) are two places: a replacement that
//!   counts occurrences one after another would silently take the first;
//! - a call whose old text is nowhere while its new text is in exactly one place (a retried
//!   call) is already done: nothing to write.

use hunkloom::ops::{self, Normalization, StrReplaceOptions, damage};
use hunkloom::patch::native::apply_body;
use hunkloom::patch::v4a::V4aMode;

use crate::file;

/// A replacement made.
#[derive(Debug)]
pub(crate) struct Replacement {
    /// The whole new `\n` view.
    pub(crate) new_content: String,
    /// How many places were replaced.
    pub(crate) replacements: usize,
    /// The 1-based first and last lines of the new view the first replacement occupies.
    pub(crate) first_line: usize,
    pub(crate) last_line: usize,
}

impl Replacement {
    fn of(edit: ops::Edit) -> Replacement {
        Replacement {
            new_content: edit.new_content,
            replacements: edit.replacements,
            first_line: edit.first_edit.start,
            last_line: edit.first_edit.end,
        }
    }
}

/// What a native replacement found to do.
#[derive(Debug)]
pub(crate) enum Replaced {
    /// The new view and where the edit went.
    Edit(Replacement),
    /// The edit is already in the file (a retried call): nothing to write.
    AlreadyThere,
}

/// Why a native replacement was refused.
#[derive(Debug)]
pub(crate) enum Refused {
    /// The old text is not in the file.
    NotFound,
    /// The old text is in several places: their 1-based first lines.
    Multiple(Vec<usize>),
    /// The old and new texts are the same.
    Unchanged,
    /// Any other refusal of the core (`file_exists` for an empty old text on content,
    /// `omission_placeholder`, …).
    Other(hunkloom::Error),
}

/// Replaces `old` with `new` (either may use `\r\n`) in `view`, the file's `\n` view;
/// `replace_all` replaces every occurrence; `path` decides the trailing-whitespace rule
/// (Markdown keeps it).
pub(crate) fn native(
    view: &str,
    old: &str,
    new: &str,
    replace_all: bool,
    path: &str,
) -> Result<Replaced, Refused> {
    let (old, new) = (file::view_of(old), file::view_of(new));
    if let Some(lines) = overlapping(view, &old) {
        return Err(Refused::Multiple(lines));
    }
    let options = StrReplaceOptions::new().replace_all(replace_all).path(path);
    match ops::str_replace_with(Some(view), &old, &new, &options) {
        // Found only with curly quotes folded, Claude Code's rule writes the new text in the
        // file's quote style, which breaks code, where quotes are syntax (a `"""` docstring
        // made `“””`): whole lines are written as the model sent them when the native reading
        // places them (the rule stays for text within a line).
        Ok(edit) if edit.normalizations.contains(&Normalization::CurlyQuotes) => {
            match as_lines(view, &old, &new) {
                Some(Ok(replacement)) => Ok(Replaced::Edit(replacement)),
                Some(Err(e)) if e.code() == "ambiguous_match" => Err(Refused::Other(e)),
                _ => Ok(Replaced::Edit(Replacement::of(edit))),
            }
        }
        Ok(edit) => Ok(Replaced::Edit(Replacement::of(edit))),
        Err(e) if e.code() == "not_found" => {
            if damage::replayed_str_replace(view, &old, &new).is_some() {
                return Ok(Replaced::AlreadyThere);
            }
            match as_lines(view, &old, &new) {
                Some(Ok(replacement)) => Ok(Replaced::Edit(replacement)),
                Some(Err(e)) if e.code() == "ambiguous_match" => Err(Refused::Other(e)),
                _ => Err(Refused::NotFound),
            }
        }
        Err(e) if e.code() == "multiple_matches" => Err(Refused::Multiple(
            e.matches()
                .unwrap_or_default()
                .iter()
                .map(hunkloom::Match::line)
                .collect(),
        )),
        Err(e) if e.code() == "old_equals_new" => Err(Refused::Unchanged),
        Err(e) => Err(Refused::Other(e)),
    }
}

/// `old` and `new` read as whole lines and placed by the native reading of patches: `None`
/// when they are not whole lines (one ends with a line ending and the other does not), else
/// the replacement or the reading's refusal (`ambiguous_match` names the places).
fn as_lines(view: &str, old: &str, new: &str) -> Option<hunkloom::Result<Replacement>> {
    let (old, new) = match (old.strip_suffix('\n'), new.strip_suffix('\n')) {
        (Some(old), Some(new)) => (old, new),
        (None, None) => (old, new),
        (Some(old), None) if new.is_empty() => (old, new),
        _ => return None,
    };
    if old.trim().is_empty() {
        return None;
    }
    let lines = |text: &str, prefix: char| -> String {
        if text.is_empty() {
            return String::new();
        }
        text.split('\n').map(|l| format!("{prefix}{l}\n")).collect()
    };
    let body = format!("@@\n{}{}", lines(old, '-'), lines(new, '+'));
    Some(apply_body(view, &body, V4aMode::Default).map(|outcome| {
        let (first_line, added) = outcome
            .chunks
            .first()
            .map_or((1, 0), |chunk| (chunk.line, chunk.added));
        Replacement {
            new_content: outcome.new_content,
            replacements: 1,
            first_line,
            last_line: first_line + added.saturating_sub(1),
        }
    }))
}

/// The 1-based lines of two occurrences of `old` in `view` that overlap, if it has such.
fn overlapping(view: &str, old: &str) -> Option<Vec<usize>> {
    if old.is_empty() {
        return None;
    }
    let first = view.find(old)?;
    let next = first + view[first..].chars().next().map_or(1, char::len_utf8);
    let second = next + view[next..].find(old)?;
    (second < first + old.len()).then(|| vec![line_at(view, first), line_at(view, second)])
}

/// The 1-based line of byte `at`.
pub(crate) fn line_at(text: &str, at: usize) -> usize {
    1 + text.as_bytes()[..at]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_text(r: Result<Replaced, Refused>) -> String {
        match r {
            Ok(Replaced::Edit(replacement)) => replacement.new_content,
            other => panic!("not an edit: {other:?}"),
        }
    }

    #[test]
    fn a_unique_text_is_replaced() {
        let got = native("a\nb\nc\n", "b", "B", false, "f.txt");
        assert_eq!(new_text(got), "a\nB\nc\n");
    }

    #[test]
    fn overlapping_places_are_two_places() {
        let got = native("a\nb\na\nb\na\n", "a\nb\na", "x", false, "f.txt");
        assert!(matches!(got, Err(Refused::Multiple(lines)) if lines == [1, 3]));
    }

    #[test]
    fn several_places_name_their_lines_and_replace_all_takes_them() {
        let got = native("x\ny\nx\n", "x", "z", false, "f.txt");
        assert!(matches!(got, Err(Refused::Multiple(lines)) if lines == [1, 3]));
        assert_eq!(
            new_text(native("x\ny\nx\n", "x", "z", true, "f.txt")),
            "z\ny\nz\n"
        );
    }

    #[test]
    fn a_retried_call_is_already_there_and_a_missing_text_is_not_found() {
        let view = "fn main() {\n    run(2);\n}\n";
        let got = native(view, "    run(1);", "    run(2);", false, "f.rs");
        assert!(matches!(got, Ok(Replaced::AlreadyThere)));
        let got = native(view, "    stop();", "    go();", false, "f.rs");
        assert!(matches!(got, Err(Refused::NotFound)));
    }

    #[test]
    fn whole_lines_keep_the_models_quotes_and_text_in_a_line_takes_the_files() {
        let view = "def f():\n    \"\"\"It can\u{2019}t \u{201C}fail\u{201D}.\"\"\"\n";
        let old = "def f():\n    \"\"\"It can't \"fail\".\"\"\"";
        let new = "def f(x):\n    \"\"\"It can't \"fail\".\"\"\"";
        let got = new_text(native(view, old, new, false, "m.py"));
        assert_eq!(got, format!("{new}\n"));
        let prose = "They say \u{201C}hi\u{201D} to all.\n";
        let got = new_text(native(prose, "say \"hi\"", "say \"bye\"", false, "a.md"));
        assert_eq!(got, "They say \u{201C}bye\u{201D} to all.\n");
    }

    #[test]
    fn whole_lines_are_placed_by_the_native_reading() {
        // Indented differently and with a non-breaking space: one place, re-indented.
        let view = "class A:\n    def f(self):\n        return 1\u{a0}+ 2\n";
        let old = "def f(self):\n    return 1 + 2";
        let new = "def f(self):\n    return 3";
        let got = new_text(native(view, old, new, false, "a.py"));
        assert_eq!(got, "class A:\n    def f(self):\n        return 3\n");
        // Two places the same way: refused, naming them.
        let twice = "    x = 1\n\ty = 2\n    x = 1\n";
        let got = native(twice, "x = 1 ", "x = 2", false, "a.py");
        assert!(matches!(got, Err(Refused::Other(e)) if e.code() == "ambiguous_match"));
    }

    #[test]
    fn crlf_texts_are_read_as_lf_and_same_texts_are_refused() {
        assert_eq!(
            new_text(native("a\nb\n", "a\r\nb", "c\r\nd", false, "f")),
            "c\nd\n"
        );
        assert!(matches!(
            native("a\n", "a", "a", false, "f"),
            Err(Refused::Unchanged)
        ));
    }
}

//! The few JavaScript string semantics the Gemini CLI's answers depend on: what `\s`,
//! `trim()` and `.` see, lengths in UTF-16 code units, and `fast-levenshtein`'s distance.

/// JavaScript's `\s` (and what `trim()` removes): its WhiteSpace and LineTerminator sets.
/// Unlike [`char::is_whitespace`] it includes U+FEFF and excludes U+0085.
pub(super) use hunkloom::text::is_js_whitespace as is_space;
/// `s.trim()`, `s.trimEnd()` and `s.trimStart()`.
pub(super) use hunkloom::text::{
    js_trim as trim, js_trim_end as trim_end, js_trim_start as trim_start,
};

/// A line terminator for JavaScript's `.` and `^` (multiline).
pub(super) fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// `s.length`: UTF-16 code units.
pub(super) fn len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// `s.replace(/\s/g, '')`.
pub(super) fn strip_spaces(s: &str) -> String {
    s.chars().filter(|&c| !is_space(c)).collect()
}

/// `text.split(/\r?\n/)`.
pub(super) use hunkloom::text::js_split_lines as split_lines;

/// The pieces of `text.match(/.*(?:\n|$)/g).slice(0, -1)`: each line with its `\n`, the last
/// one without. Like the regex, a stretch that ends at a lone `\r`, U+2028 or U+2029 is not
/// a piece at all; `complete` says whether the pieces put together give `text` back.
pub(super) struct Lines<'a> {
    /// The pieces, in order.
    pub(super) pieces: Vec<&'a str>,
    /// Whether nothing of `text` was dropped.
    pub(super) complete: bool,
}

/// Splits `text` as `text.match(/.*(?:\n|$)/g).slice(0, -1)` does (see [`Lines`]).
pub(super) fn match_lines(text: &str) -> Lines<'_> {
    let mut pieces = Vec::new();
    let mut complete = true;
    let mut start = 0;
    let bytes = text.len();
    while start < bytes {
        let rest = &text[start..];
        match rest.char_indices().find(|&(_, c)| is_line_terminator(c)) {
            None => {
                pieces.push(rest);
                break;
            }
            Some((at, '\n')) => {
                pieces.push(&rest[..=at]);
                start += at + 1;
            }
            Some((at, c)) => {
                // `.*` stops at the terminator and neither `\n` nor the end follows: every
                // start up to it fails, and matching resumes after it.
                complete = false;
                start += at + c.len_utf8();
            }
        }
    }
    Lines { pieces, complete }
}

/// `fast-levenshtein`'s `get(a, b)`: the edit distance over UTF-16 code units.
pub(super) use hunkloom::text::js_edit_distance as levenshtein;

/// Text as UTF-16 code units, for [`levenshtein`].
pub(super) fn utf16(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_as_the_regex_does() {
        let l = match_lines("a\nb\n");
        assert_eq!(l.pieces, ["a\n", "b\n"]);
        assert!(l.complete);
        assert_eq!(match_lines("a\nb").pieces, ["a\n", "b"]);
        assert!(match_lines("").pieces.is_empty());
        let lossy = match_lines("a\nb\rc\nd");
        assert_eq!(lossy.pieces, ["a\n", "c\n", "d"]);
        assert!(!lossy.complete);
    }

    #[test]
    fn whitespace_is_javascripts() {
        assert_eq!(trim("\u{feff} x \u{a0}"), "x");
        assert_eq!(trim("\u{85}x"), "\u{85}x");
        assert_eq!(len("a€😀"), 4);
    }
}

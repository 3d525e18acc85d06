//! What the model reads: `cat -n` listings, snippet windows after edits, truncation.
//!
//! A listing is a header line, then each line of the text as its number right-aligned in six
//! columns, a tab and the line, each followed by `\n`. The text is first cut at
//! [`MAX_CHARS`] characters (Unicode scalars, counted before numbering) with the profile's
//! notice appended, then (Anthropic) its tabs are expanded to 8-column stops.

use std::borrow::Cow;

use crate::profile::{Pieces, Style};

/// The most characters of a text a listing shows before the truncation notice.
pub(crate) const MAX_CHARS: usize = 16_000;

/// `text` cut at [`MAX_CHARS`] characters with `notice` appended, if it is longer.
pub(crate) fn truncate<'a>(text: &'a str, notice: &str) -> Cow<'a, str> {
    truncate_at(text, notice, MAX_CHARS)
}

/// `text` cut at `limit` characters with `notice` appended, if it is longer.
pub(crate) fn truncate_at<'a>(text: &'a str, notice: &str, limit: usize) -> Cow<'a, str> {
    match text.char_indices().nth(limit) {
        None => Cow::Borrowed(text),
        Some((at, _)) => Cow::Owned(format!("{}{notice}", &text[..at])),
    }
}

/// Python's `str.expandtabs()`: each tab becomes the spaces to the next multiple of 8 columns;
/// `\n` and `\r` start a new column count.
pub(crate) fn expand_tabs(text: &str) -> Cow<'_, str> {
    if !text.contains('\t') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut column = 0usize;
    for c in text.chars() {
        match c {
            '\t' => {
                let spaces = 8 - column % 8;
                out.extend(std::iter::repeat_n(' ', spaces));
                column += spaces;
            }
            '\n' | '\r' => {
                out.push(c);
                column = 0;
            }
            c => {
                out.push(c);
                column += 1;
            }
        }
    }
    Cow::Owned(out)
}

/// The lines a listing numbers: `text.split('\n')`, or for [`Pieces::Lines`] without the
/// empty piece after a final `\n` (an empty text has no lines then).
pub(crate) fn pieces(text: &str, how: Pieces) -> Vec<&str> {
    // One `memchr` pass (a `str::split` on a char compares each match again).
    let mut pieces: Vec<&str> = Vec::with_capacity(text.len() / 32 + 1);
    let mut start = 0;
    for newline in memchr::memchr_iter(b'\n', text.as_bytes()) {
        pieces.push(&text[start..newline]);
        start = newline + 1;
    }
    pieces.push(&text[start..]);
    if how == Pieces::Lines && pieces.last() == Some(&"") {
        pieces.pop();
    }
    pieces
}

/// How many pieces [`pieces`] with [`Pieces::Split`] gives: the `\n`s, plus one.
pub(crate) fn piece_count(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1
}

/// Pieces `from..to` of `text.split('\n')` joined with `\n` (`to` at most
/// [`piece_count`]): one slice of the text, found without listing the pieces.
pub(crate) fn piece_span(text: &str, from: usize, to: usize) -> &str {
    newline_span(text, from, to, false)
}

/// How many lines `text.split_inclusive('\n')` gives.
pub(crate) fn line_count(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count()
        + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// Lines `from..to` of `text.split_inclusive('\n')`, concatenated (`to` at most
/// [`line_count`]): one slice of the text.
pub(crate) fn line_span(text: &str, from: usize, to: usize) -> &str {
    newline_span(text, from, to, true)
}

/// The text from just after its `from`th `\n` (its start for 0) to its `to`th `\n`, with that
/// `\n` when `with_newline`; the end of the text stands for a `\n` it lacks. Empty unless
/// `from < to`.
fn newline_span(text: &str, from: usize, to: usize, with_newline: bool) -> &str {
    if from >= to {
        return "";
    }
    let mut newlines = memchr::memchr_iter(b'\n', text.as_bytes());
    let start = match from {
        0 => 0,
        _ => newlines.nth(from - 1).map_or(text.len(), |i| i + 1),
    };
    let end = newlines
        .nth(to - from - 1)
        .map_or(text.len(), |i| i + usize::from(with_newline));
    &text[start..end]
}

/// `text` as a numbered listing starting at line `first`, under the header naming
/// `description` (`{path}` or `a snippet of {path}`).
pub(crate) fn cat_n(style: &Style, text: &str, description: &str, first: usize) -> String {
    cat_n_within(style, text, description, first, MAX_CHARS)
}

/// [`cat_n`] with the text cut at `limit` characters instead of [`MAX_CHARS`] (a `view` under
/// the 20250728 tool's `max_characters`).
pub(crate) fn cat_n_within(
    style: &Style,
    text: &str,
    description: &str,
    first: usize,
    limit: usize,
) -> String {
    let text = truncate_at(text, style.truncation_notice, limit);
    let text = if style.expand_tabs {
        expand_tabs(&text).into_owned().into()
    } else {
        text
    };
    let mut out = format!("Here's the result of running `cat -n` on {description}:\n");
    let lines = pieces(&text, style.pieces);
    for (i, line) in lines.iter().enumerate() {
        out.push_str(&format!("{:6}\t{line}\n", i + first));
    }
    out
}

/// The snippet of `text` (the file after an edit) from 1-based line `first` to line `last`
/// (inclusive, cut at the end of the text), as the text a listing numbers from `first`.
///
/// With [`Style::snippet_trailing_line`], a snippet whose last line ended with `\n` in the file
/// ends with `\n` too, so the listing shows one more, empty, numbered line.
///
/// The lines are counted and cut with `memchr`, not listed.
pub(crate) fn window(style: &Style, text: &str, first: usize, last: usize) -> String {
    let n = piece_count(text);
    let from = first.saturating_sub(1).min(n);
    let to = last.min(n).max(from);
    let mut snippet = piece_span(text, from, to).to_owned();
    if style.snippet_trailing_line && to < n && to > from {
        snippet.push('\n');
    }
    snippet
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Profile;

    #[test]
    fn spans_are_the_joined_pieces_and_lines() {
        for text in ["", "a", "a\n", "\n\n", "a\r\nb\nc", "é\nü\n", "x\n\ny"] {
            let split: Vec<&str> = text.split('\n').collect();
            assert_eq!(piece_count(text), split.len());
            let inclusive: Vec<&str> = text.split_inclusive('\n').collect();
            assert_eq!(line_count(text), inclusive.len());
            for from in 0..=split.len() {
                for to in from..=split.len() {
                    assert_eq!(piece_span(text, from, to), split[from..to].join("\n"));
                }
            }
            for from in 0..=inclusive.len() {
                for to in from..=inclusive.len() {
                    assert_eq!(line_span(text, from, to), inclusive[from..to].concat());
                }
            }
        }
    }

    #[test]
    fn pieces_are_the_split_pieces() {
        for text in ["", "a", "a\n", "\n\n", "a\r\nb\nc", "é\nü\n"] {
            let split: Vec<&str> = text.split('\n').collect();
            assert_eq!(pieces(text, Pieces::Split), split);
            let mut lines = split.clone();
            if lines.last() == Some(&"") {
                lines.pop();
            }
            assert_eq!(pieces(text, Pieces::Lines), lines);
        }
    }

    #[test]
    fn windows_cut_as_the_split_lines_are_cut() {
        /// The window as a list of every line cuts it.
        fn by_split(style: &Style, text: &str, first: usize, last: usize) -> String {
            let all: Vec<&str> = text.split('\n').collect();
            let from = first.saturating_sub(1).min(all.len());
            let to = last.min(all.len()).max(from);
            let mut snippet = all[from..to].join("\n");
            if style.snippet_trailing_line && to < all.len() && to > from {
                snippet.push('\n');
            }
            snippet
        }
        for profile in [Profile::Anthropic, Profile::OpenHands, Profile::Native] {
            let style = profile.style();
            for text in ["", "a", "a\n", "a\nb", "a\nb\n", "\n\n", "a\r\nb\n\nc"] {
                for first in 0..6 {
                    for last in 0..7 {
                        assert_eq!(
                            window(style, text, first, last),
                            by_split(style, text, first, last),
                            "{profile:?} {text:?} {first}..={last}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn tabs_expand_to_eight_column_stops() {
        assert_eq!(expand_tabs("a\tb"), "a       b");
        assert_eq!(
            expand_tabs("\tx\n12345678\ty"),
            "        x\n12345678        y"
        );
        assert_eq!(expand_tabs("ab\r\tc"), "ab\r        c");
        assert!(matches!(expand_tabs("none"), Cow::Borrowed(_)));
    }

    #[test]
    fn truncation_counts_characters() {
        let long = "é".repeat(MAX_CHARS + 1);
        let cut = truncate(&long, "<N>");
        assert_eq!(cut.chars().count(), MAX_CHARS + 3);
        assert!(cut.ends_with("é<N>"));
        let exact = "é".repeat(MAX_CHARS);
        assert!(matches!(truncate(&exact, "<N>"), Cow::Borrowed(_)));
    }

    #[test]
    fn listings_number_each_piece() {
        let a = Profile::Anthropic.style();
        assert_eq!(
            cat_n(a, "x\n\ty\n", "f", 1),
            "Here's the result of running `cat -n` on f:\n     1\tx\n     2\t        y\n     3\t\n"
        );
        assert_eq!(
            cat_n(a, "", "f", 7),
            "Here's the result of running `cat -n` on f:\n     7\t\n"
        );
        let n = Profile::Native.style();
        assert_eq!(
            cat_n(n, "x\n\ty\n", "f", 1),
            "Here's the result of running `cat -n` on f:\n     1\tx\n     2\t\ty\n"
        );
    }

    #[test]
    fn windows_cut_at_the_text() {
        let a = Profile::Anthropic.style();
        let o = Profile::OpenHands.style();
        let text = "1\n2\n3\n4\n";
        assert_eq!(window(a, text, 2, 3), "2\n3");
        assert_eq!(window(o, text, 2, 3), "2\n3\n");
        assert_eq!(window(a, text, 3, 99), "3\n4\n");
        assert_eq!(window(o, text, 3, 99), "3\n4\n");
        assert_eq!(window(o, "1\n2", 1, 9), "1\n2");
    }
}

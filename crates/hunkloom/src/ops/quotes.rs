//! Curly quotes: folding them for matching, and writing new text in the file's quote style.
//!
//! Models usually type straight quotes even when the file has typographic ones (`‘ ’ “ ”`), so an
//! exact search fails. [`Folded`] matches with all four folded to `'` and `"` on both sides and
//! maps each match back to the file's own bytes; [`restyle`] then writes the new text's straight
//! quotes in the style of the text it replaces, so the file keeps its typography.

const LEFT_SINGLE: char = '\u{2018}';
const RIGHT_SINGLE: char = '\u{2019}';
const LEFT_DOUBLE: char = '\u{201C}';
const RIGHT_DOUBLE: char = '\u{201D}';

/// The straight quote a curly one folds to, if `c` is one of the four.
fn fold_char(c: char) -> Option<char> {
    match c {
        LEFT_SINGLE | RIGHT_SINGLE => Some('\''),
        LEFT_DOUBLE | RIGHT_DOUBLE => Some('"'),
        _ => None,
    }
}

/// Whether `s` has a quote that folding could relate to another (straight or curly).
pub(crate) fn has_quotes(s: &str) -> bool {
    s.chars()
        .any(|c| c == '\'' || c == '"' || fold_char(c).is_some())
}

/// `s` with curly quotes folded to straight ones.
pub(crate) fn fold(s: &str) -> String {
    s.chars().map(|c| fold_char(c).unwrap_or(c)).collect()
}

/// A text with its curly quotes folded, and the way back to the original byte offsets.
pub(crate) struct Folded {
    /// The folded text.
    pub(crate) text: String,
    /// Folded offsets at which a curly quote (3 bytes, folded to 1) stood, ascending.
    curly_at: Vec<usize>,
}

impl Folded {
    pub(crate) fn new(original: &str) -> Self {
        let mut text = String::with_capacity(original.len());
        let mut curly_at = Vec::new();
        for c in original.chars() {
            match fold_char(c) {
                Some(straight) => {
                    curly_at.push(text.len());
                    text.push(straight);
                }
                None => text.push(c),
            }
        }
        Folded { text, curly_at }
    }

    /// The original byte offset of folded offset `at` (a char boundary of the folded text).
    pub(crate) fn original_offset(&self, at: usize) -> usize {
        // Every curly quote strictly before `at` was two bytes longer in the original.
        let before = self.curly_at.partition_point(|&p| p < at);
        at + 2 * before
    }
}

/// Which quote kinds the file text being replaced spells curly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Style {
    pub(crate) double: bool,
    pub(crate) single: bool,
}

impl Style {
    pub(crate) fn of(file_text: &str) -> Self {
        let mut style = Style::default();
        for c in file_text.chars() {
            match c {
                LEFT_DOUBLE | RIGHT_DOUBLE => style.double = true,
                LEFT_SINGLE | RIGHT_SINGLE => style.single = true,
                _ => {}
            }
        }
        style
    }

    /// An index 0..4 for caching one restyled text per style.
    pub(crate) fn index(self) -> usize {
        usize::from(self.double) | usize::from(self.single) << 1
    }
}

/// Whether a quote preceded by `prev` (`None` at the start of the text) opens rather than closes.
fn opens(prev: Option<char>) -> bool {
    match prev {
        None => true,
        Some(c) => c.is_whitespace() || matches!(c, '(' | '[' | '{'),
    }
}

/// `new` with its straight quotes written curly, for the kinds `style` says the file uses.
///
/// A quote opens after whitespace, at the start of the text or after an opening bracket, and
/// closes otherwise; a single quote between two letters is an apostrophe (U+2019).
pub(crate) fn restyle(new: &str, style: Style) -> String {
    if !style.double && !style.single {
        return new.to_owned();
    }
    let mut out = String::with_capacity(new.len() + 8);
    let mut prev: Option<char> = None;
    let mut chars = new.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let styled = match c {
            '"' if style.double => {
                if opens(prev) {
                    LEFT_DOUBLE
                } else {
                    RIGHT_DOUBLE
                }
            }
            '\'' if style.single => {
                let between_letters =
                    prev.is_some_and(char::is_alphabetic) && next.is_some_and(char::is_alphabetic);
                if between_letters || !opens(prev) {
                    RIGHT_SINGLE
                } else {
                    LEFT_SINGLE
                }
            }
            other => other,
        };
        out.push(styled);
        prev = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Folding maps chars one to one, so the naive way back is by char index.
        #[test]
        fn offsets_agree_with_char_counting(s in "[a'\"\u{2018}\u{2019}\u{201C}\u{201D}é🚀]{0,24}") {
            let folded = Folded::new(&s);
            prop_assert_eq!(folded.text.chars().count(), s.chars().count());
            let original: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
            let folded_at: Vec<usize> =
                folded.text.char_indices().map(|(i, _)| i).chain([folded.text.len()]).collect();
            for (f, o) in folded_at.iter().zip(&original) {
                prop_assert_eq!(folded.original_offset(*f), *o);
            }
        }
    }

    #[test]
    fn folding_maps_back_to_original_offsets() {
        let original = "a\u{201C}b\u{201D} \u{2019}c";
        let folded = Folded::new(original);
        assert_eq!(folded.text, "a\"b\" 'c");
        for (f, o) in [
            (0, 0),
            (1, 1),
            (2, 4),
            (3, 5),
            (4, 8),
            (5, 9),
            (6, 12),
            (7, 13),
        ] {
            assert_eq!(folded.original_offset(f), o, "folded {f}");
        }
        assert_eq!(fold("\u{2018}x\u{2019}"), "'x'");
    }

    #[test]
    fn restyle_opens_closes_and_keeps_apostrophes() {
        let both = Style {
            double: true,
            single: true,
        };
        assert_eq!(
            restyle("\"it's\" ('x') [\"y\"]", both),
            "\u{201C}it\u{2019}s\u{201D} (\u{2018}x\u{2019}) [\u{201C}y\u{201D}]"
        );
        let double_only = Style {
            double: true,
            single: false,
        };
        assert_eq!(restyle("\"a\" 'b'", double_only), "\u{201C}a\u{201D} 'b'");
        assert_eq!(restyle("\"a\"", Style::default()), "\"a\"");
        assert_eq!(Style::of("\u{2018}").index(), 2);
    }
}

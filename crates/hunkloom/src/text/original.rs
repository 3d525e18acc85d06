//! [`OriginalText`]: an original text kept once and shared by every applier and cached call
//! over it, with the indexes matching and offset conversion build on first use.
//!
//! A binding that sees the same original again (an editor passes the same string on every call
//! while a diff streams) keeps one `Arc<OriginalText>` instead of copying the text per call, so
//! the line index a fuzzy tier builds and the table that converts byte offsets to UTF-16 units
//! are built once per original, not once per call.

use std::sync::OnceLock;

use super::offsets::{Position, TextOffset, measure};
use super::trimmed_lines::TrimmedLineIndex;
use crate::search::line_starts::LineCheckpoints;

/// An original text and its lazily built indexes. Cheap to share (`Arc<OriginalText>`), and
/// `Send + Sync`: the indexes are built at most once, by whichever thread first needs them.
#[derive(Debug, Default)]
pub struct OriginalText {
    text: String,
    indexes: Indexes,
}

impl OriginalText {
    /// Takes `text` (no copy when it is an owned `String`).
    pub fn new(text: impl Into<String>) -> Self {
        OriginalText {
            text: text.into(),
            indexes: Indexes::default(),
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The offset of byte `byte` (a char boundary) in every unit. After the first call builds a
    /// table (one pass over the text), each call costs O(1) for ASCII texts and at most one
    /// 4 KiB of counting otherwise.
    pub fn offset_at(&self, byte: usize) -> TextOffset {
        self.indexes.offset_at(&self.text, byte)
    }

    /// The position of byte `byte` (a char boundary, or past the end: Cline reports `length +
    /// 1` for a match on a last line without a newline, and each byte beyond counts one unit).
    /// After the first call counts the text's lines in one pass, each call counts at most one
    /// 1 KiB block of them, plus [`offset_at`](Self::offset_at).
    pub fn position_at(&self, byte: usize) -> Position {
        self.indexes.position_at(&self.text, byte)
    }

    /// [`position_at`](Self::position_at) for a byte whose 1-based line the caller already
    /// knows (a dialect that split the text into lines): no line index is built.
    pub(crate) fn position_on_line(&self, byte: usize, line: usize) -> Position {
        let at = self.offset_at(byte);
        Position {
            bytes: at.bytes,
            utf16: at.utf16,
            chars: at.chars,
            line,
        }
    }

    pub(crate) fn indexes(&self) -> &Indexes {
        &self.indexes
    }
}

/// The indexes of one original text, each built on first use. A stateless call makes a fresh
/// set over a borrowed text; an [`OriginalText`] keeps its set for every call.
#[derive(Debug, Default)]
pub(crate) struct Indexes {
    /// Cline's trimmed-line index (the fuzzy tiers).
    pub(crate) trimmed: OnceLock<TrimmedLineIndex>,
    /// Byte offset to UTF-16 and char offsets.
    offsets: OnceLock<OffsetTable>,
    /// The `\n`s before each block (line numbers): one counting pass, no entry per line, as a
    /// one-shot call over a large text that needs a few positions should not list every line.
    lines: OnceLock<LineCheckpoints>,
}

impl Indexes {
    /// The offset of byte `byte` of `text` (the text these indexes belong to).
    pub(crate) fn offset_at(&self, text: &str, byte: usize) -> TextOffset {
        self.offsets
            .get_or_init(|| OffsetTable::new(text))
            .at(text, byte)
    }

    /// The position of byte `byte` of `text` (see [`OriginalText::position_at`]).
    pub(crate) fn position_at(&self, text: &str, byte: usize) -> Position {
        let target = byte.min(text.len());
        let at = self.offset_at(text, target);
        let lines = self
            .lines
            .get_or_init(|| LineCheckpoints::new(text.as_bytes()));
        let beyond = byte - target;
        Position {
            bytes: byte,
            utf16: at.utf16 + beyond,
            chars: at.chars + beyond,
            line: lines.line_of(text.as_bytes(), target) + 1,
        }
    }
}

/// Checkpoints of a text's offsets in every unit, one per [`STRIDE`](Self::STRIDE) bytes (none
/// for an ASCII text, where every unit is the byte).
#[derive(Debug)]
pub(crate) struct OffsetTable {
    /// `checkpoints[k]` is the offset of byte `k * STRIDE`; empty when the text is ASCII.
    checkpoints: Vec<TextOffset>,
}

impl OffsetTable {
    /// Bytes between checkpoints: a conversion counts at most this many.
    pub(crate) const STRIDE: usize = 4096;

    fn new(text: &str) -> Self {
        if text.is_ascii() {
            return OffsetTable {
                checkpoints: Vec::new(),
            };
        }
        let mut at = TextOffset::default();
        let mut checkpoints = Vec::with_capacity(text.len() / Self::STRIDE + 1);
        for chunk in text.as_bytes().chunks(Self::STRIDE) {
            checkpoints.push(at);
            let c = measure(chunk);
            at = at.add(TextOffset {
                bytes: chunk.len(),
                utf16: c.utf16(),
                chars: c.chars,
            });
        }
        OffsetTable { checkpoints }
    }

    fn at(&self, text: &str, byte: usize) -> TextOffset {
        if self.checkpoints.is_empty() {
            return TextOffset {
                bytes: byte,
                utf16: byte,
                chars: byte,
            };
        }
        let k = byte / Self::STRIDE;
        let base = self.checkpoints[k.min(self.checkpoints.len() - 1)];
        let c = measure(&text.as_bytes()[base.bytes..byte]);
        base.add(TextOffset {
            bytes: byte - base.bytes,
            utf16: c.utf16(),
            chars: c.chars,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_match_counting_from_the_start_in_every_unit() {
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(["a", "é", "€", "😀", "\n"][i % 5]);
        }
        let original = OriginalText::new(text.clone());
        for byte in (0..=text.len()).filter(|&b| text.is_char_boundary(b)) {
            assert_eq!(
                original.offset_at(byte),
                TextOffset::of(&text[..byte]),
                "{byte}"
            );
        }
        let ascii = OriginalText::new("plain\ntext\n");
        assert_eq!(ascii.offset_at(6), TextOffset::of("plain\n"));
    }

    #[test]
    fn positions_match_the_cursor_including_past_the_end() {
        let text = "é\n😀 x\n\nlast";
        let original = OriginalText::new(text);
        let mut cursor = crate::text::OffsetCursor::default();
        for byte in (0..=text.len() + 1).filter(|&b| b > text.len() || text.is_char_boundary(b)) {
            assert_eq!(
                original.position_at(byte),
                cursor.position(text, byte),
                "{byte}"
            );
        }
    }

    #[test]
    fn positions_match_the_cursor_across_many_line_blocks() {
        // Lines of every length around the 1 KiB blocks the line count is kept by, some ending
        // exactly at a block's edge, multi-byte text among them, and a text ending in `\n`.
        let mut text = String::new();
        for i in 0..300 {
            text.push_str(&"x".repeat(i * 7 % 1030));
            text.push_str(["", "é", "😀"][i % 3]);
            text.push('\n');
        }
        let original = OriginalText::new(text.clone());
        let mut cursor = crate::text::OffsetCursor::default();
        for byte in (0..=text.len() + 2).filter(|&b| b > text.len() || text.is_char_boundary(b)) {
            assert_eq!(
                original.position_at(byte),
                cursor.position(&text, byte),
                "{byte}"
            );
        }
    }

    #[test]
    fn is_shared_across_threads() {
        fn check<T: Send + Sync + 'static>() {}
        check::<OriginalText>();
    }
}

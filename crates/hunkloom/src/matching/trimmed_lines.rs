//! The original file, with its lines indexed once on first use, under Cline's line contract:
//! lines as JavaScript's `split("\n")` cuts them, compared after JavaScript's `trim()`. Frozen
//! with Cline's behaviour; `native` indexes lines by its own rules (`native::loose_lines`).

use crate::text::TextOffset;
use crate::text::original::Indexes;
use crate::text::trimmed_lines::{TrimmedLineIndex, trimmed_hash};

/// The original text plus its lazily built indexes, which live as long as the caller keeps
/// them (an [`OriginalText`](crate::text::OriginalText) keeps them for every call over it).
pub(crate) struct Haystack<'a> {
    /// The original text.
    text: &'a str,
    /// Its indexes, each built on first use.
    indexes: &'a Indexes,
}

impl<'a> Haystack<'a> {
    /// `text`, indexed in `indexes` when first needed.
    pub(crate) fn new(text: &'a str, indexes: &'a Indexes) -> Self {
        Haystack { text, indexes }
    }

    /// The offset of byte `byte` of the text in every unit.
    pub(crate) fn offset_at(&self, byte: usize) -> TextOffset {
        self.indexes.offset_at(self.text, byte)
    }

    /// The original text.
    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    /// The line index, built on the first call.
    pub(crate) fn lines(&self) -> &'a TrimmedLineIndex {
        self.indexes
            .trimmed
            .get_or_init(|| TrimmedLineIndex::new(self.text))
    }
}

/// The SEARCH text split as Cline's fallbacks split it: on `\n`, minus one empty last piece.
pub(crate) struct SearchLines<'s> {
    /// The lines, without their `\n`.
    pub(crate) lines: Vec<&'s str>,
    /// The number of pieces before the empty last one was removed (the block-anchor guard
    /// counts that way).
    pub(crate) pieces: usize,
    /// The hash of each line after JavaScript `trim()`.
    pub(crate) trimmed: Vec<u64>,
}

impl<'s> SearchLines<'s> {
    /// Splits and hashes `search`.
    pub(crate) fn new(search: &'s str) -> Self {
        let mut lines: Vec<&str> = search.split('\n').collect();
        let pieces = lines.len();
        if lines.last() == Some(&"") {
            lines.pop();
        }
        let trimmed = lines.iter().map(|l| trimmed_hash(l)).collect();
        SearchLines {
            lines,
            pieces,
            trimmed,
        }
    }
}

//! The original file, with its lines indexed once on first use, under Cline's line contract:
//! lines as JavaScript's `split("\n")` cuts them, compared after JavaScript's `trim()`. Frozen
//! with Cline's behaviour; `native` indexes lines by its own rules (`native::loose_lines`).

use std::hash::Hasher;

use rustc_hash::FxHasher;

use crate::search::line_starts::line_starts;
use crate::text::TextOffset;
use crate::text::js_trim;
use crate::text::original::Indexes;

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

/// Lines of a text split on `\n` (as JavaScript's `split("\n")`, so a text ending in `\n` has an
/// empty last line), with the hash of each line after JavaScript `trim()`.
#[derive(Clone, Debug, Default)]
pub(crate) struct TrimmedLineIndex {
    /// `starts[i]` is where line `i` begins; `starts[n]` is `len + 1`, as if the text ended with
    /// one more `\n`, which is how Cline's span arithmetic treats the last line.
    starts: Vec<usize>,
    /// Hash of each line's trimmed text.
    trimmed: Vec<u64>,
}

impl TrimmedLineIndex {
    /// Indexes the lines of `text`.
    pub(crate) fn new(text: &str) -> Self {
        let mut starts = line_starts(text);
        starts.push(text.len() + 1);
        let trimmed = starts
            .windows(2)
            .map(|w| trimmed_hash(&text[w[0]..w[1] - 1]))
            .collect();
        TrimmedLineIndex { starts, trimmed }
    }

    /// The number of lines (one more than the number of `\n`).
    pub(crate) fn len(&self) -> usize {
        self.trimmed.len()
    }

    /// The text of line `i`, without its `\n`.
    pub(crate) fn line<'t>(&self, text: &'t str, i: usize) -> &'t str {
        &text[self.starts[i]..self.starts[i + 1] - 1]
    }

    /// Where line `i` starts; `start(len())` is one past the end of the text.
    pub(crate) fn start(&self, i: usize) -> usize {
        self.starts[i]
    }

    /// The hash of each line after JavaScript `trim()` (see [`trimmed_hash`]).
    pub(crate) fn trimmed_hashes(&self) -> &[u64] {
        &self.trimmed
    }

    /// The first line whose start is at or after byte `from` (`len()` if none), the line Cline's
    /// fallbacks start from.
    pub(crate) fn first_line_from(&self, from: usize) -> usize {
        self.starts[..self.len()].partition_point(|&s| s < from)
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

/// The hash of a line after JavaScript `trim()`.
pub(crate) fn trimmed_hash(line: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(js_trim(line).as_bytes());
    h.finish()
}

//! A text's lines as Cline's fuzzy tiers see them: cut as JavaScript's `split("\n")` cuts
//! them, each hashed after JavaScript's `trim()`. Kept with the original's other indexes
//! ([`Indexes`](super::original::Indexes)); read by the frozen Cline matching.

use std::hash::Hasher;

use rustc_hash::FxHasher;

use super::js_trim;
use crate::search::line_starts::line_starts;

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

/// The hash of a line after JavaScript `trim()`.
pub(crate) fn trimmed_hash(line: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(js_trim(line).as_bytes());
    h.finish()
}

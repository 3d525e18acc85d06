//! Finding a SEARCH text in the original file.
//!
//! # The Cline cascade
//!
//! [`cline_cascade`] reproduces how Cline v4.0.10 locates a SEARCH block, trying in order and
//! taking the first tier that finds anything:
//!
//! 1. **Exact** ([`exact`]): the first occurrence at or after `from` (`indexOf(search, from)`).
//!    It may start mid-line.
//! 2. **Line-trimmed** ([`line_trimmed`]): the first run of whole lines, starting on the first
//!    line whose start is at or after `from`, whose lines equal the SEARCH lines after
//!    JavaScript's `trim()`.
//! 3. **Block anchor** ([`block_anchor`]): the first run of the same number of lines whose first
//!    and last lines equal the SEARCH's first and last lines after `trim()`; middle lines are
//!    ignored. Skipped when the SEARCH text splits into fewer than 3 pieces on `\n` (counting the
//!    empty piece after its final newline, as Cline does).
//!
//! Ties are always broken by position: the earliest candidate at or after `from` wins. The fuzzy
//! tiers report spans of whole lines including each line's `\n`; on a last line without a
//! newline the span ends one past the end of the file, which Cline then slices with clamping.
//! Cline v1 adds a fourth tier itself (exact from offset 0, see `cline::v1`).
//!
//! The fuzzy tiers index the original's lines once (lazily, in a
//! [`TrimmedLineIndex`](crate::text::trimmed_lines::TrimmedLineIndex) shared by every block)
//! and search a sequence of trimmed-line hashes
//! ([`first_accepted`](crate::search::first_accepted)), so each block costs time linear in the
//! file rather than lines × SEARCH lines. Every fast matcher has a naive oracle, written the way
//! Cline's code reads, that property tests compare it with.

mod exact;
#[cfg(test)]
mod naive;
mod trimmed_lines;

pub(crate) mod block_anchor;
pub(crate) mod line_trimmed;

pub(crate) use exact::find_exact;
pub(crate) use trimmed_lines::{Haystack, SearchLines};

use crate::report::Strategy;

/// A located SEARCH text: the byte span it covers in the original and how it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) start: usize,
    /// May be one past the end of the original (see the module doc).
    pub(crate) end: usize,
    pub(crate) strategy: Strategy,
}

/// Cline's cascade for a non-empty `search`, starting at byte `from` (see the module doc).
pub(crate) fn cline_cascade(hay: &Haystack<'_>, search: &str, from: usize) -> Option<Found> {
    debug_assert!(!search.is_empty());
    if let Some(start) = find_exact(hay.text(), search, from) {
        return Some(Found {
            start,
            end: start + search.len(),
            strategy: Strategy::Exact,
        });
    }
    let lines = SearchLines::new(search);
    if let Some((start, end)) = line_trimmed::find(hay, &lines, from) {
        return Some(Found {
            start,
            end,
            strategy: Strategy::LineTrimmed,
        });
    }
    block_anchor::find(hay, &lines, from).map(|(start, end)| Found {
        start,
        end,
        strategy: Strategy::BlockAnchor,
    })
}

#[cfg(test)]
mod tests;

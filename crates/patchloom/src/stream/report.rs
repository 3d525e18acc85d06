//! What the applier reports: per-push splices, per-block reports, the final outcome.

use std::borrow::Cow;

use crate::matching::Strategy;
use crate::text::{Position, TextOffset};

/// How the preview changed in one push: one splice at `start` that removes `removed` and inserts
/// `inserted`. A UI applies it to its own copy of the preview instead of copying the preview on
/// every push. In the Cline dialects the splice is always at the tail.
///
/// The inserted text is borrowed from the applier (valid until its next call), so a push costs
/// no copy of it; [`Update::into_owned`] makes one when needed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Update<'a> {
    /// Where the splice starts in the preview before the push.
    pub start: TextOffset,
    /// The length of the text removed there.
    pub removed: TextOffset,
    /// The text inserted there.
    pub inserted: Cow<'a, str>,
    /// How many blocks have been completed by complete lines so far.
    pub blocks_completed: usize,
    /// The reports of the blocks this push completed.
    pub completed: Vec<BlockReport>,
}

impl Update<'_> {
    /// A copy that does not borrow the applier.
    pub fn into_owned(self) -> Update<'static> {
        Update {
            start: self.start,
            removed: self.removed,
            inserted: Cow::Owned(self.inserted.into_owned()),
            blocks_completed: self.blocks_completed,
            completed: self.completed,
        }
    }

    /// Whether the preview did not change.
    pub fn is_noop(&self) -> bool {
        self.removed.bytes == 0 && self.inserted.is_empty()
    }

    /// Applies the splice to a copy of the preview as it was before the push.
    ///
    /// # Panics
    /// If `preview` is not the applier's preview before this push (too short, or the splice
    /// does not fall on character boundaries).
    pub fn apply_to(&self, preview: &mut String) {
        let start = self.start.bytes;
        preview.replace_range(start..start + self.removed.bytes, &self.inserted);
    }
}

/// Whether a block was applied.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockStatus {
    /// The block's SEARCH text was found and its REPLACE text applied.
    Applied,
}

/// What happened to one SEARCH/REPLACE block.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockReport {
    /// The block's number among completed blocks, from 0, in the order they completed.
    pub index: usize,
    /// Whether it was applied.
    pub status: BlockStatus,
    /// How its SEARCH text was located.
    pub strategy: Strategy,
    /// Where the matched text starts in the original.
    pub start: Position,
    /// Where the matched text ends in the original (Cline's fuzzy tiers report one past the end
    /// of a file without a final newline).
    pub end: Position,
}

/// The result of a finished diff.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The new file content.
    pub new_content: String,
    /// One report per applied block, in completion order.
    pub blocks: Vec<BlockReport>,
    /// Cline's `matchIndices` (block starts, sorted in v1; empty in v2).
    pub match_indices: Vec<Position>,
}

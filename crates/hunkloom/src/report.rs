//! What every dialect reports: per-push splices ([`Update`]), per-block reports
//! ([`BlockReport`], how each block was found: [`Strategy`]), the final [`Outcome`]. At the
//! bottom of the engine, so the dialects, the appliers and the one-shot entry points all import
//! it downward.

use std::borrow::Cow;

use crate::error::Error;
use crate::text::{Piece, PieceText, Position, TextOffset};

/// How a block's SEARCH text was located.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Byte-for-byte (Cline: at or after the end of the previous block; `native`: anywhere,
    /// whole lines).
    Exact,
    /// Whole lines equal after trimming whitespace at both ends.
    LineTrimmed,
    /// Same line count, first and last lines equal after trimming.
    BlockAnchor,
    /// Byte-for-byte anywhere in the file, possibly before the previous block (Cline v1's last
    /// resort; such a block is applied out of order).
    ExactAnywhere,
    /// An empty SEARCH on an empty file: an insertion at offset 0.
    EmptySearchNewFile,
    /// An empty SEARCH on a non-empty file, replacing all of it (Cline v2).
    EmptySearchWholeFile,
    /// `native`: equal except for line endings.
    LineEndings,
    /// `native`: equal except for trailing whitespace.
    TrailingWhitespace,
    /// `native`: equal except for a uniform indentation change (tabs and spaces understood).
    Indentation,
    /// `native`: equal once typographic punctuation and exotic spaces are folded to ASCII.
    Punctuation,
    /// `native`: equal once read-tool line-number prefixes are removed from the SEARCH lines.
    LineNumberPrefix,
    /// `native`: equal when blank lines are ignored.
    BlankLines,
    /// `native`: one line differs by a small letter edit inside a word.
    Typo,
    /// `native`: no match; the block failed (see its error).
    Unmatched,
    /// `roo`: the window most similar to the SEARCH text after Roo's normalization, at or above
    /// the fuzzy threshold.
    Similarity,
}

crate::names!(Strategy {
    Exact => "exact",
    LineTrimmed => "line_trimmed",
    BlockAnchor => "block_anchor",
    ExactAnywhere => "exact_anywhere",
    EmptySearchNewFile => "empty_search_new_file",
    EmptySearchWholeFile => "empty_search_whole_file",
    LineEndings => "line_endings",
    TrailingWhitespace => "trailing_whitespace",
    Indentation => "indentation",
    Punctuation => "punctuation",
    LineNumberPrefix => "line_number_prefix",
    BlankLines => "blank_lines",
    Typo => "typo",
    Unmatched => "unmatched",
    Similarity => "similarity",
});

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
    /// The block was not applied (`native`): its [`BlockReport::error`] says why.
    Failed,
    /// The block's edit is already in the file, so it changed nothing (`native`): its SEARCH
    /// text is nowhere and its REPLACE text is in one place, which
    /// [`start`](BlockReport::start) and [`end`](BlockReport::end) give (a retried call).
    AlreadyApplied,
}

crate::names!(BlockStatus {
    Applied => "applied",
    Failed => "failed",
    AlreadyApplied => "already_applied",
});

/// A difference between a SEARCH text and the file that the `native` dialect tolerated.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Normalization {
    /// Line endings differed (LF, CRLF, or no newline at the end of the file).
    LineEndings,
    /// Trailing whitespace differed.
    TrailingWhitespace,
    /// Indentation differed by a uniform delta, or tabs against spaces.
    Indentation,
    /// Typographic punctuation or exotic spaces differed from their ASCII forms.
    Punctuation,
    /// The SEARCH lines carried read-tool line-number prefixes.
    LineNumberPrefixes,
    /// Blank lines differed.
    BlankLines,
    /// One line differed by a small letter edit.
    Typo,
}

crate::names!(Normalization {
    LineEndings => "line_endings",
    TrailingWhitespace => "trailing_whitespace",
    Indentation => "indentation",
    Punctuation => "punctuation",
    LineNumberPrefixes => "line_number_prefixes",
    BlankLines => "blank_lines",
    Typo => "typo",
});

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
    /// The 1-based line the matched text ends on (`start.line` when it is empty).
    pub end_line: usize,
    /// How many places the deciding tier found (`native`; more than one means a `:start_line:`
    /// hint chose; 0 for a failed block). The Cline dialects take the first match, reported as 1.
    pub candidates: usize,
    /// The indentation change from the SEARCH text to the file, in columns (`native`).
    pub indent_delta: isize,
    /// Whether the replacement was shifted by [`indent_delta`](Self::indent_delta) because it
    /// carried the SEARCH text's indentation rather than the file's (`native`).
    pub reindented: bool,
    /// Every kind of difference the match tolerated between the SEARCH text and the matched
    /// region (`native`), each once, in the order of [`Normalization`]'s variants; empty for an
    /// exact match and in the Cline dialects. Each SEARCH line is compared with its file line
    /// under every rule, so it lists more than the [`strategy`](Self::strategy) that decided:
    /// e.g. an LF, de-indented SEARCH text with trailing spaces matched in a CRLF file reports
    /// `indentation` as its strategy and `[LineEndings, TrailingWhitespace, Indentation]` here.
    pub normalizations: Vec<Normalization>,
    /// Why the block failed, when [`status`](Self::status) is [`BlockStatus::Failed`].
    pub error: Option<Error>,
}

impl BlockReport {
    /// An applied block of a Cline dialect: positions and strategy only.
    pub(crate) fn cline(
        index: usize,
        strategy: Strategy,
        start: Position,
        end: Position,
        ends_with_newline: bool,
    ) -> Self {
        let end_line = if end.bytes > start.bytes && ends_with_newline {
            end.line - 1
        } else {
            end.line
        };
        BlockReport {
            index,
            status: BlockStatus::Applied,
            strategy,
            start,
            end,
            end_line,
            candidates: 1,
            indent_delta: 0,
            reindented: false,
            normalizations: Vec::new(),
            error: None,
        }
    }
}

/// [`Update`] with the inserted text as pieces (see
/// [`StreamingApplier::push_pieces`](crate::StreamingApplier::push_pieces)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PieceUpdate<'a> {
    /// Where the splice starts in the preview before the push.
    pub start: TextOffset,
    /// The length of the text removed there.
    pub removed: TextOffset,
    /// The text inserted there, in pieces (none when nothing is inserted).
    pub inserted: Vec<Piece<'a>>,
    /// How many blocks have been completed by complete lines so far.
    pub blocks_completed: usize,
    /// The reports of the blocks this push completed.
    pub completed: Vec<BlockReport>,
}

/// [`Outcome`] with the content as pieces of the original and new text (see
/// [`StreamingApplier::finish_pieces`](crate::StreamingApplier::finish_pieces)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceOutcome {
    /// The new file content, as ranges of the original plus new text.
    pub content: PieceText,
    /// One report per block, as in [`Outcome::blocks`].
    pub blocks: Vec<BlockReport>,
    /// As in [`Outcome::match_indices`].
    pub match_indices: Vec<Position>,
}

/// The result of a finished diff.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The new file content.
    pub new_content: String,
    /// One report per block, in completion order (in `native`, failed blocks too when the
    /// policy is [`Policy::Partial`](crate::Policy::Partial)).
    pub blocks: Vec<BlockReport>,
    /// Cline's `matchIndices` (block starts, sorted in v1; empty in v2; in `native`, the starts
    /// of the applied blocks, sorted).
    pub match_indices: Vec<Position>,
}

impl Outcome {
    /// The blocks that failed (only with [`Policy::Partial`](crate::Policy::Partial)).
    pub fn failed(&self) -> impl Iterator<Item = &BlockReport> {
        self.blocks
            .iter()
            .filter(|b| b.status == BlockStatus::Failed)
    }
}

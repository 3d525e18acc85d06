//! [`ClineStream`]: a Cline dialect's diff applied as it streams, over an original it does not
//! own — what a [`StreamingApplier`](crate::StreamingApplier) in `cline-v1`/`cline-v2` runs, and
//! what the [`ResumeCache`](super::ResumeCache) keeps between Cline's calls.

use std::borrow::Cow;
use std::cell::OnceCell;

use super::Version;
use super::engine::{Engine, PushEffect};
use super::output::Output;
use super::partial_match_starts;
use super::sink::BlockRecord;
use crate::error::{Error, Result};
use crate::matching::Haystack;
use crate::policy::PreviewForm;
use crate::report::{BlockReport, Outcome, PieceOutcome, PieceUpdate, Update};
use crate::text::{OriginalText, Piece, Position, TextOffset};

/// The Cline engine with the reports of its committed blocks and, in [`PreviewForm::Pieces`],
/// the preview built once per push when asked for as one string. Every method takes the
/// original the stream was made for.
#[derive(Clone, Debug)]
pub(crate) struct ClineStream {
    engine: Engine,
    /// The preview as one string, built on first read after a push (pieces form only).
    built: OnceCell<String>,
    /// Reports of the committed blocks, made once when each completes.
    reports: Vec<BlockReport>,
}

/// A push's splice, before its inserted text is presented.
struct Splice {
    start: TextOffset,
    removed: TextOffset,
    blocks_completed: usize,
    completed: Vec<BlockReport>,
}

impl ClineStream {
    /// A stream of `version`'s diff over an original of `original_len` bytes.
    pub(crate) fn new(version: Version, original_len: usize, preview: PreviewForm) -> Self {
        ClineStream {
            engine: Engine::new(version.machine(), true, original_len, preview),
            built: OnceCell::new(),
            reports: Vec::new(),
        }
    }

    /// Feeds the next piece of the diff; the splice of the preview it caused.
    pub(crate) fn push(&mut self, original: &OriginalText, chunk: &str) -> Update<'_> {
        let splice = self.splice(original, chunk);
        let inserted = match self.engine.output() {
            Output::Text(t) => Cow::Borrowed(&t.as_str()[splice.start.bytes..]),
            Output::Pieces(p) => Cow::Owned(
                p.pieces_from(splice.start)
                    .map(|piece| piece.text(original.as_str()).to_owned())
                    .collect(),
            ),
        };
        Update {
            start: splice.start,
            removed: splice.removed,
            inserted,
            blocks_completed: splice.blocks_completed,
            completed: splice.completed,
        }
    }

    /// [`push`](Self::push) with the inserted text as pieces of the original and new text.
    pub(crate) fn push_pieces(&mut self, original: &OriginalText, chunk: &str) -> PieceUpdate<'_> {
        let splice = self.splice(original, chunk);
        let inserted = match self.engine.output() {
            Output::Text(t) => text_piece(&t.as_str()[splice.start.bytes..]),
            Output::Pieces(p) => p.pieces_from(splice.start).collect(),
        };
        PieceUpdate {
            start: splice.start,
            removed: splice.removed,
            inserted,
            blocks_completed: splice.blocks_completed,
            completed: splice.completed,
        }
    }

    /// Whether pushing `chunk` may search the original (O(chunk)).
    pub(crate) fn may_search(&self, chunk: &str) -> bool {
        self.engine.may_search(chunk)
    }

    /// Cline's partial `newContent` so far.
    pub(crate) fn preview<'a>(&'a self, original: &OriginalText) -> &'a str {
        match self.engine.output() {
            Output::Text(t) => t.as_str(),
            Output::Pieces(p) => self.built.get_or_init(|| p.to_string(original.as_str())),
        }
    }

    /// The preview as pieces of the original and new text.
    pub(crate) fn preview_pieces(&self) -> Vec<Piece<'_>> {
        match self.engine.output() {
            Output::Text(t) => text_piece(t.as_str()),
            Output::Pieces(p) => p.pieces().collect(),
        }
    }

    /// The preview's length in every unit.
    pub(crate) fn preview_len(&self) -> TextOffset {
        self.engine.preview_end()
    }

    /// The error the diff so far causes, if any.
    pub(crate) fn error(&self) -> Option<&Error> {
        self.engine.error()
    }

    /// How many blocks complete lines have completed.
    pub(crate) fn blocks_completed(&self) -> usize {
        self.engine.committed_blocks().len()
    }

    /// The reports of the blocks completed so far.
    pub(crate) fn completed_reports(&self) -> &[BlockReport] {
        &self.reports
    }

    /// Cline's `matchIndices` of a partial call (completion order; empty in v2).
    pub(crate) fn match_indices(&self, original: &OriginalText) -> Vec<Position> {
        let starts = partial_match_starts(&self.engine);
        starts
            .into_iter()
            .map(|b| original.position_at(b))
            .collect()
    }

    /// Ends the diff: Cline's final call's content, a report per block and its `matchIndices`.
    pub(crate) fn finish(self, original: &OriginalText) -> Result<Outcome> {
        let (content, blocks, match_indices) = self.finish_parts(original)?;
        Ok(Outcome {
            new_content: content.into_string(&haystack(original)),
            blocks,
            match_indices,
        })
    }

    /// [`finish`](Self::finish) with the content as pieces of the original and new text.
    pub(crate) fn finish_pieces(self, original: &OriginalText) -> Result<PieceOutcome> {
        let (content, blocks, match_indices) = self.finish_parts(original)?;
        Ok(PieceOutcome {
            content: content.into_pieces(),
            blocks,
            match_indices,
        })
    }

    fn splice(&mut self, original: &OriginalText, chunk: &str) -> Splice {
        self.built = OnceCell::new();
        let PushEffect {
            changed_from,
            old_end,
            old_committed_blocks,
        } = self.engine.push(&haystack(original), chunk);
        let committed = self.engine.committed_blocks();
        debug_assert_eq!(self.reports.len(), old_committed_blocks);
        for (i, b) in committed.iter().enumerate().skip(old_committed_blocks) {
            self.reports.push(report(original, i, b));
        }
        Splice {
            start: changed_from,
            removed: old_end.sub(changed_from),
            blocks_completed: committed.len(),
            completed: self.reports[old_committed_blocks..].to_vec(),
        }
    }

    /// The final content, the block reports and Cline's final `matchIndices`.
    fn finish_parts(
        self,
        original: &OriginalText,
    ) -> Result<(Output, Vec<BlockReport>, Vec<Position>)> {
        let finished = self.engine.finish(&haystack(original))?;
        // Committed blocks were reported as they completed; the last line may add one more.
        let mut blocks = self.reports;
        for (i, b) in finished.blocks.iter().enumerate().skip(blocks.len()) {
            blocks.push(report(original, i, b));
        }
        let match_indices = finished.order.iter().map(|&i| blocks[i].start).collect();
        Ok((finished.content, blocks, match_indices))
    }
}

/// The original with its kept indexes, as the Cline engine reads it.
fn haystack(original: &OriginalText) -> Haystack<'_> {
    Haystack::new(original.as_str(), original.indexes())
}

/// One new piece, or none for an empty text.
fn text_piece(text: &str) -> Vec<Piece<'_>> {
    if text.is_empty() {
        Vec::new()
    } else {
        vec![Piece::New(Cow::Borrowed(text))]
    }
}

fn report(original: &OriginalText, index: usize, block: &BlockRecord) -> BlockReport {
    let text = original.as_str();
    let matched = &text[block.start.min(text.len())..block.end.min(text.len())];
    BlockReport::cline(
        index,
        block.strategy,
        original.position_at(block.start),
        original.position_at(block.end),
        matched.ends_with('\n'),
    )
}

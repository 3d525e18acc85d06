//! [`StreamingApplier`]: a diff applied as it streams, with work proportional to what is pushed.

use crate::cline::engine::{Engine, PushEffect};
use crate::cline::machine::BlockRecord;
use crate::cline::{partial_match_starts, positions};
use crate::error::{Error, Result};
use crate::stream::{BlockReport, BlockStatus, Dialect, Outcome, Update};
use std::borrow::Cow;

use crate::text::{OffsetCursor, Position, TextOffset};

/// Options of a [`StreamingApplier`].
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApplierOptions {
    /// How the diff is read and applied (default: [`Dialect::ClineV1`]).
    pub dialect: Dialect,
}

impl ApplierOptions {
    /// The default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the dialect.
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = dialect;
        self
    }
}

/// Applies a diff to one original text while the diff streams in.
///
/// Push the diff in pieces of any size; after each push, [`preview`](Self::preview) is what the
/// file looks like so far and the returned [`Update`] says how it changed. Chunking never
/// changes the result: pushing the diff whole, per line, per character or at random split
/// points gives the same previews at equal prefixes and the same [`finish`](Self::finish).
///
/// In the Cline dialects, after any prefix `P` has been pushed, `preview()` equals Cline's
/// `constructNewFileContent(P, original, false)` and [`error`](Self::error) its rejection, and
/// `finish()` equals the final call.
///
/// The applier owns all its state, so it is `Send + 'static` and can be wrapped by any binding.
///
/// ```
/// use patchloom::{ApplierOptions, StreamingApplier};
///
/// let mut applier = StreamingApplier::new("a\nb\nc\n", ApplierOptions::default());
/// let mut view = String::new();
/// for chunk in ["------- SEA", "RCH\nb\n===", "====\nB", "\n+++++++ REPLACE\n"] {
///     applier.push(chunk).apply_to(&mut view);
///     assert_eq!(view, applier.preview());
/// }
/// let outcome = applier.finish()?;
/// assert_eq!(outcome.new_content, "a\nB\nc\n");
/// assert_eq!(outcome.blocks[0].start.line, 2);
/// # Ok::<(), patchloom::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct StreamingApplier {
    original: String,
    dialect: Dialect,
    engine: Engine,
    /// Converts block offsets in the original; blocks mostly arrive in order, so one pass.
    cursor: OffsetCursor,
    /// Reports of the committed blocks, made once when each completes.
    reports: Vec<BlockReport>,
}

impl StreamingApplier {
    /// An applier for `original` (taken by value to avoid a copy when the caller owns it).
    pub fn new(original: impl Into<String>, options: ApplierOptions) -> Self {
        let dialect = options.dialect;
        let original = original.into();
        let engine = Engine::new(dialect.cline_version().machine(), true, original.len());
        StreamingApplier {
            original,
            dialect,
            engine,
            cursor: OffsetCursor::default(),
            reports: Vec::new(),
        }
    }

    /// The dialect this applier reads.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The original text.
    pub fn original(&self) -> &str {
        &self.original
    }

    /// Feeds the next piece of the diff and returns how the preview changed.
    ///
    /// After an error caused by a complete line (see [`error`](Self::error)) further pushes
    /// change nothing.
    pub fn push(&mut self, chunk: &str) -> Update<'_> {
        let effect = self.engine.push(&self.original, chunk);
        self.update(effect)
    }

    fn update(&mut self, effect: PushEffect) -> Update<'_> {
        let PushEffect {
            changed_from,
            old_end,
            old_committed_blocks,
        } = effect;
        let committed = self.engine.committed_blocks();
        debug_assert_eq!(self.reports.len(), old_committed_blocks);
        for (i, b) in committed.iter().enumerate().skip(old_committed_blocks) {
            let report = report(&mut self.cursor, &self.original, i, b);
            self.reports.push(report);
        }
        Update {
            start: changed_from,
            removed: old_end.sub(changed_from),
            inserted: Cow::Borrowed(&self.engine.preview()[changed_from.bytes..]),
            blocks_completed: committed.len(),
            completed: self.reports[old_committed_blocks..].to_vec(),
        }
    }

    /// What the file looks like so far (in the Cline dialects: Cline's partial `newContent`,
    /// which ends where the streamed edits end).
    pub fn preview(&self) -> &str {
        self.engine.preview()
    }

    /// The preview's length in every unit.
    pub fn preview_len(&self) -> TextOffset {
        self.engine.preview_end()
    }

    /// The error the diff so far causes, if any. An error caused by complete lines is final;
    /// one caused only by the incomplete last line is withdrawn if that line completes
    /// differently.
    pub fn error(&self) -> Option<&Error> {
        self.engine.error()
    }

    /// How many blocks complete lines have completed.
    pub fn blocks_completed(&self) -> usize {
        self.engine.committed_blocks().len()
    }

    /// Cline's `matchIndices` for the diff so far as a partial call (completion order; empty in
    /// v2).
    pub fn match_indices(&self) -> Vec<Position> {
        positions(&self.original, &partial_match_starts(&self.engine))
    }

    /// Ends the diff: the final content and a report per block, or the error Cline's final call
    /// gives.
    pub fn finish(mut self) -> Result<Outcome> {
        let finished = self.engine.finish(&self.original)?;
        // Committed blocks were reported as they completed; the last line may add one more.
        let mut blocks = self.reports;
        for (i, b) in finished.blocks.iter().enumerate().skip(blocks.len()) {
            blocks.push(report(&mut self.cursor, &self.original, i, b));
        }
        let match_indices = finished.order.iter().map(|&i| blocks[i].start).collect();
        Ok(Outcome {
            new_content: finished.content,
            blocks,
            match_indices,
        })
    }
}

fn report(
    cursor: &mut OffsetCursor,
    original: &str,
    index: usize,
    block: &BlockRecord,
) -> BlockReport {
    BlockReport {
        index,
        status: BlockStatus::Applied,
        strategy: block.strategy,
        start: cursor.position(original, block.start),
        end: cursor.position(original, block.end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crosses_threads_and_lives_alone() {
        fn check<T: Send + 'static>() {}
        check::<StreamingApplier>();
        check::<Update>();
        check::<Outcome>();
    }
}

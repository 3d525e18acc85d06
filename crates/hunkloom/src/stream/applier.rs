//! [`StreamingApplier`]: a diff applied as it streams, with work proportional to what is pushed.

use std::sync::Arc;

use crate::cline::ClineStream;
use crate::error::{Error, Result};
use crate::native::NativeEngine;
use crate::patch::udiff::UdiffEngine;
#[cfg(doc)]
use crate::policy::PreviewForm;
use crate::report::{BlockReport, Outcome, PieceOutcome, PieceUpdate, Update};
use crate::roo::RooOptions;
use crate::stream::{ApplierOptions, Dialect};
use crate::text::{OriginalText, Piece, PieceText, Position, TextOffset};

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
/// In the `roo` dialect the applier only keeps the pushed text: Roo sorts a diff's blocks by
/// their `:start_line:` hints before applying any, so no block's effect is known before the
/// diff ends. The preview stays the original, no push reports a block, and `finish` applies
/// the whole diff as [`apply_diff`](crate::apply_diff) does; every chunking gives the same
/// result.
///
/// The applier owns all its state, so it is `Send + 'static` and can be wrapped by any binding.
///
/// ```
/// use hunkloom::{ApplierOptions, StreamingApplier};
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
/// # Ok::<(), hunkloom::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct StreamingApplier {
    original: Arc<OriginalText>,
    dialect: Dialect,
    inner: Inner,
}

/// The state of the dialect being applied.
#[derive(Clone, Debug)]
enum Inner {
    Cline(Box<ClineStream>),
    Native(Box<NativeEngine>),
    Udiff(UdiffEngine),
    Roo(Box<RooState>),
}

/// The `roo` dialect's state: the diff so far.
#[derive(Clone, Debug)]
struct RooState {
    diff: String,
    options: RooOptions,
}

impl StreamingApplier {
    /// An applier for `original` (taken by value to avoid a copy when the caller owns it).
    pub fn new(original: impl Into<String>, options: ApplierOptions) -> Self {
        Self::over(Arc::new(OriginalText::new(original)), options)
    }

    /// An applier over an original shared with other appliers (no copy; the original's indexes
    /// are built once for all of them).
    pub fn over(original: Arc<OriginalText>, options: ApplierOptions) -> Self {
        let dialect = options.streaming_dialect();
        let inner = match dialect.cline_version() {
            Some(version) => Inner::Cline(Box::new(ClineStream::new(
                version,
                original.as_str().len(),
                options.preview,
            ))),
            None if dialect == Dialect::Roo => Inner::Roo(Box::new(RooState {
                diff: String::new(),
                options: options.roo,
            })),
            None => match dialect {
                Dialect::Udiff | Dialect::UdiffStrict => Inner::Udiff(UdiffEngine::new(
                    dialect == Dialect::UdiffStrict,
                    options.recount,
                    options.policy,
                )),
                _ => Inner::Native(Box::new(NativeEngine::new(options.policy))),
            },
        };
        StreamingApplier {
            original,
            dialect,
            inner,
        }
    }

    /// The dialect this applier reads.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The original text.
    pub fn original(&self) -> &str {
        self.original.as_str()
    }

    /// The original text, shared.
    pub fn original_text(&self) -> &Arc<OriginalText> {
        &self.original
    }

    /// Feeds the next piece of the diff and returns how the preview changed.
    ///
    /// After an error caused by a complete line (see [`error`](Self::error)) further pushes
    /// change nothing.
    ///
    /// In the `native` dialect the splice may lie in the middle of the preview: while a block
    /// streams it covers only what the push changed; a push that changes several blocks gets
    /// one splice from the first change to the end of the last changed block.
    pub fn push(&mut self, chunk: &str) -> Update<'_> {
        let original = &*self.original;
        match &mut self.inner {
            Inner::Cline(stream) => stream.push(original, chunk),
            Inner::Native(engine) => engine.push(original.as_str(), chunk),
            Inner::Roo(state) => {
                state.diff.push_str(chunk);
                Update::default()
            }
            Inner::Udiff(engine) => engine.push(original, chunk),
        }
    }

    /// Whether pushing `chunk` may search the original for a SEARCH text (an
    /// over-approximation that costs O(chunk)): a binding that runs pushes on its main thread
    /// sends only these to a worker when the original is large. Always true in `native`, which
    /// locates blocks as their lines arrive.
    pub fn push_may_search(&self, chunk: &str) -> bool {
        match &self.inner {
            Inner::Cline(stream) => stream.may_search(chunk),
            Inner::Native(_) | Inner::Udiff(_) => true,
            Inner::Roo(_) => false,
        }
    }

    /// [`push`](Self::push), with the inserted text as pieces (ranges of the original and new
    /// text) instead of one string: in [`PreviewForm::Pieces`] nothing of the original is
    /// copied, which is how a binding builds the preview from slices of its own string.
    pub fn push_pieces(&mut self, chunk: &str) -> PieceUpdate<'_> {
        let original = &*self.original;
        match &mut self.inner {
            Inner::Cline(stream) => stream.push_pieces(original, chunk),
            Inner::Native(engine) => owned_pieces(engine.push(original.as_str(), chunk)),
            Inner::Udiff(engine) => owned_pieces(engine.push(original, chunk)),
            Inner::Roo(state) => {
                state.diff.push_str(chunk);
                PieceUpdate::default()
            }
        }
    }

    /// What the file looks like so far (in the Cline dialects: Cline's partial `newContent`,
    /// which ends where the streamed edits end; in `native`: the whole file with the blocks
    /// placed so far replaced, built on the first call after a push).
    pub fn preview(&self) -> &str {
        match &self.inner {
            Inner::Cline(stream) => stream.preview(&self.original),
            Inner::Native(engine) => engine.preview(self.original.as_str()),
            Inner::Roo(_) => self.original.as_str(),
            Inner::Udiff(engine) => engine.preview(&self.original),
        }
    }

    /// The preview as pieces of the original and new text (what
    /// [`push_pieces`](Self::push_pieces) splices start from): costs O(pieces), plus a copy of
    /// the placed blocks' text in `native` and of the whole preview in [`PreviewForm::Text`].
    pub fn preview_pieces(&self) -> Vec<Piece<'_>> {
        match &self.inner {
            Inner::Cline(stream) => stream.preview_pieces(),
            Inner::Native(engine) => engine.preview_pieces(self.original.as_str()),
            Inner::Roo(_) => self.original_pieces(),
            Inner::Udiff(engine) => engine.preview_pieces(&self.original),
        }
    }

    /// The preview's length in every unit.
    pub fn preview_len(&self) -> TextOffset {
        match &self.inner {
            Inner::Cline(stream) => stream.preview_len(),
            Inner::Native(engine) => engine.preview_len(self.original.as_str()),
            Inner::Roo(_) => self.original.offset_at(self.original.as_str().len()),
            Inner::Udiff(engine) => engine.preview_len(&self.original),
        }
    }

    /// The error the diff so far causes, if any. An error caused by complete lines is final;
    /// one caused only by the incomplete last line is withdrawn if that line completes
    /// differently. In `native`, the first failed block's error.
    pub fn error(&self) -> Option<&Error> {
        match &self.inner {
            Inner::Cline(stream) => stream.error(),
            Inner::Native(engine) => engine.error(),
            Inner::Roo(_) => None,
            Inner::Udiff(engine) => engine.error(),
        }
    }

    /// The reports of the blocks completed so far: what every push's
    /// [`completed`](Update::completed) gave, in order (none in `roo` and `udiff-strict`, which
    /// apply at [`finish`](Self::finish)).
    pub fn completed_blocks(&self) -> Vec<BlockReport> {
        match &self.inner {
            Inner::Cline(stream) => stream.completed_reports().to_vec(),
            Inner::Native(engine) => engine.completed_reports(),
            Inner::Roo(_) => Vec::new(),
            Inner::Udiff(engine) => engine.completed_reports(),
        }
    }

    /// How many blocks complete lines have completed.
    pub fn blocks_completed(&self) -> usize {
        match &self.inner {
            Inner::Cline(stream) => stream.blocks_completed(),
            Inner::Native(engine) => engine.blocks_completed(),
            Inner::Roo(_) => 0,
            Inner::Udiff(engine) => engine.blocks_completed(),
        }
    }

    /// Cline's `matchIndices` for the diff so far as a partial call (completion order; empty in
    /// v2; in `native`, the starts of the blocks placed so far, in file order).
    pub fn match_indices(&self) -> Vec<Position> {
        match &self.inner {
            Inner::Cline(stream) => stream.match_indices(&self.original),
            Inner::Native(engine) => engine.match_indices(),
            Inner::Roo(_) => Vec::new(),
            Inner::Udiff(engine) => engine.match_indices(&self.original),
        }
    }

    /// Ends the diff: the final content and a report per block, or the error Cline's final call
    /// gives (in `native`: the refusal, see [`apply_diff`](crate::apply_diff)).
    pub fn finish(self) -> Result<Outcome> {
        let original = &*self.original;
        // The final content and its report: ask for that memory before building it.
        crate::memory::reserve(
            crate::memory::WORKING_COPIES.saturating_mul(original.as_str().len()),
            "the final content",
        )?;
        match self.inner {
            Inner::Cline(stream) => stream.finish(original),
            Inner::Native(engine) => engine.finish(original.as_str()),
            Inner::Roo(state) => crate::roo::outcome(original, &state.diff, &state.options),
            Inner::Udiff(engine) => engine.finish(original),
        }
    }

    /// [`finish`](Self::finish), with the content as pieces of the original and new text: in
    /// [`PreviewForm::Pieces`] the content is never built as one string here.
    pub fn finish_pieces(self) -> Result<PieceOutcome> {
        let original = &*self.original;
        match self.inner {
            Inner::Cline(stream) => stream.finish_pieces(original),
            Inner::Udiff(engine) => {
                let outcome = engine.finish(original)?;
                let mut content = PieceText::default();
                content.push_new(&outcome.new_content);
                Ok(PieceOutcome {
                    content,
                    blocks: outcome.blocks,
                    match_indices: outcome.match_indices,
                })
            }
            Inner::Native(engine) => {
                let (pieces, blocks, match_indices) = engine.finish_pieces(original.as_str())?;
                let mut content = PieceText::default();
                for piece in pieces {
                    match piece {
                        Piece::Original { start, end } => content.push_original(start, end),
                        Piece::New(text) => content.push_new(&text),
                    }
                }
                Ok(PieceOutcome {
                    content,
                    blocks,
                    match_indices,
                })
            }
            Inner::Roo(state) => {
                let outcome = crate::roo::outcome(original, &state.diff, &state.options)?;
                let mut content = PieceText::default();
                content.push_new(&outcome.new_content);
                Ok(PieceOutcome {
                    content,
                    blocks: outcome.blocks,
                    match_indices: outcome.match_indices,
                })
            }
        }
    }

    /// The whole original as one piece (or none when it is empty).
    fn original_pieces(&self) -> Vec<Piece<'_>> {
        let end = self.preview_len();
        if end.bytes == 0 {
            Vec::new()
        } else {
            vec![Piece::Original {
                start: TextOffset::default(),
                end,
            }]
        }
    }
}

/// A `native` or `udiff` push's update with its inserted text as one new piece.
fn owned_pieces(update: Update<'static>) -> PieceUpdate<'static> {
    PieceUpdate {
        start: update.start,
        removed: update.removed,
        inserted: match update.inserted {
            text if text.is_empty() => Vec::new(),
            text => vec![Piece::New(text)],
        },
        blocks_completed: update.blocks_completed,
        completed: update.completed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Policy;

    #[test]
    fn a_push_may_search_only_when_a_separator_line_appears() {
        let mut applier = StreamingApplier::new("a\nb\n", ApplierOptions::default());
        assert!(!applier.push_may_search("------- SEARCH\nb\n"));
        applier.push("------- SEARCH\nb\n==");
        assert!(
            applier.push_may_search("="),
            "the last line becomes a separator"
        );
        assert!(
            applier.push_may_search("=====\nB"),
            "a complete separator line"
        );
        assert!(
            !applier.push_may_search("x"),
            "the last line stops being one"
        );
        applier.push("=====\nB\n");
        assert!(!applier.push_may_search("+++++++ REPLACE\n"));
        applier.push("+++++++ REPLACE\n");
        assert!(!applier.push_may_search("more text\n"));
    }

    #[test]
    fn completed_blocks_are_what_the_pushes_reported() {
        let original = "a\nb\nc\nd\n";
        let blocks = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n\
                      ------- SEARCH\nd\n=======\nD\n+++++++ REPLACE\n";
        let missing = "------- SEARCH\nx\n=======\nX\n+++++++ REPLACE\n";
        let hunks = "@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -3,2 +3,2 @@\n c\n-d\n+D\n";
        let cases = [
            (Dialect::ClineV1, blocks.to_owned()),
            (Dialect::ClineV2, blocks.to_owned()),
            (Dialect::Native, blocks.to_owned()),
            (Dialect::Native, format!("{blocks}{missing}")),
            (Dialect::Udiff, hunks.to_owned()),
        ];
        for (dialect, diff) in cases {
            let options = ApplierOptions::new()
                .dialect(dialect)
                .policy(Policy::Partial);
            let mut applier = StreamingApplier::new(original, options);
            let mut reported = Vec::new();
            for ch in diff.chars() {
                let update = applier.push(ch.encode_utf8(&mut [0; 4]));
                reported.extend(update.completed);
                assert_eq!(applier.completed_blocks(), reported, "{dialect} {diff:?}");
            }
            assert!(!reported.is_empty(), "{dialect}");
        }
    }

    #[test]
    fn crosses_threads_and_lives_alone() {
        fn check<T: Send + 'static>() {}
        check::<StreamingApplier>();
        check::<Update>();
        check::<Outcome>();
    }
}

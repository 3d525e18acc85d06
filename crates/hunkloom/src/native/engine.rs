//! The `native` dialect applied to a diff that arrives in pieces: the event loop.
//!
//! Complete diff lines are processed once, in order, by the [`Parser`]; its events place a
//! block when its `=======` arrives ([`tiers::locate`]), grow the placed region's replacement
//! line by line, and complete the block at its end marker. The preview is a [`PieceTable`]
//! over the original; each push ends with one splice of it (see [`pieces`](super::pieces) for
//! why a push costs O(chunk)).

use std::borrow::Cow;
use std::cell::OnceCell;

use super::applied;
use super::diagnose;
use super::file_index::FileIndex;
use super::indent::IndentMap;
use super::loose_lines::LooseLineIndex;
use super::omission::{self, OmissionCheck};
use super::overescape;
use super::parse::{Event, Parser, could_be_marker};
use super::pieces::{PieceTable, RegionId};
use super::region::Region;
use super::report::{AlreadyThere, block_report};
use super::search_text::{SearchText, Tier};
use super::tiers::{self, Located, Miss};
use crate::error::{Error, ErrorKind, Match, Result};
use crate::policy::Policy;
use crate::report::{BlockReport, Outcome, Update};
use crate::text::{OffsetCursor, Piece, Position, StreamedLines, TextOffset, Work};

/// The state of the `native` dialect over one original text (which every call borrows).
#[derive(Clone, Debug, Default)]
pub(crate) struct NativeEngine {
    /// Whether one failed block refuses the whole diff.
    policy: Policy,
    /// Turns diff lines into block events.
    parser: Parser,
    /// The incomplete last line of the diff.
    lines: StreamedLines,
    /// Every block started so far, in diff order.
    blocks: Vec<Block>,
    /// The preview: the original and the placed regions.
    pieces: PieceTable,
    /// What is learnt about the original once for every block (its lines, indexed).
    index: FileIndex,
    /// Converts byte offsets of the original into positions.
    cursor: OffsetCursor,
    /// The original's length, measured once.
    original_len: OnceCell<TextOffset>,
    /// The preview, built when asked for and dropped by the next push.
    preview: OnceCell<String>,
    /// The first failure of a completed block.
    error: Option<Error>,
    /// Blocks completed before the current push (blocks complete once each, in order, so the
    /// completed ones are `blocks[..completed]`).
    reported: usize,
    /// Blocks completed so far.
    completed: usize,
    /// Whether a line of the diff was a unified diff's hunk header (`@@ -`), to say so when the
    /// diff turns out to have no block.
    unified_hunk: bool,
}

/// One SEARCH/REPLACE block of the diff, as far as it has arrived.
#[derive(Clone, Debug, Default)]
struct Block {
    /// Its SEARCH lines, once complete.
    search: SearchText,
    /// REPLACE lines of a block that was not placed, for the "already applied?" check.
    replace: Vec<String>,
    /// Its SEARCH text arrived over-escaped and was placed unescaped: its REPLACE lines are
    /// unescaped too (see [`overescape`]).
    escaped: bool,
    /// The omission-placeholder guard over its REPLACE lines, once its SEARCH part is complete.
    omission: Option<OmissionCheck>,
    /// Where its REPLACE text already is, when it is already applied.
    applied: Option<AlreadyThere>,
    /// Where it was placed, if it was.
    region: Option<RegionId>,
    /// Why the SEARCH part failed, turned into an error when the block ends.
    miss: Option<Miss>,
    /// Why it failed, if it did.
    error: Option<Error>,
    /// Its report, once complete.
    report: Option<BlockReport>,
}

impl NativeEngine {
    /// An engine with nothing pushed yet.
    pub(crate) fn new(policy: Policy) -> Self {
        NativeEngine {
            policy,
            ..NativeEngine::default()
        }
    }

    /// A whole diff applied at once (what the `native` dialect of
    /// [`apply_diff`](crate::apply_diff) does, for the readings that build their own blocks).
    pub(crate) fn apply(diff: &str, original: &str, policy: Policy) -> Result<Outcome> {
        crate::memory::reserve(
            crate::memory::WORKING_COPIES.saturating_mul(diff.len() + original.len()),
            "applying the diff",
        )?;
        let mut engine = NativeEngine::new(policy);
        engine.push(original, diff);
        engine.finish(original)
    }

    /// Feeds the next piece of the diff; the splice of the preview it caused.
    pub(crate) fn push(&mut self, original: &str, chunk: &str) -> Update<'static> {
        self.preview.take();
        self.pieces.start_push();
        self.reported = self.completed;
        let mut lines = std::mem::take(&mut self.lines);
        lines.push(chunk, |line| self.line(original, line));
        self.lines = lines;
        self.show_tentative();
        self.update(original)
    }

    /// Ends the diff: the new content and a report per block, or the refusal.
    pub(crate) fn finish(self, original: &str) -> Result<Outcome> {
        let (new_content, blocks, match_indices) =
            self.finish_with(original, |pieces, _| pieces.materialize(original))?;
        Ok(Outcome {
            new_content,
            blocks,
            match_indices,
        })
    }

    /// [`finish`](Self::finish) with the new content as pieces of the original and new text.
    pub(crate) fn finish_pieces(
        self,
        original: &str,
    ) -> Result<(Vec<Piece<'static>>, Vec<BlockReport>, Vec<Position>)> {
        self.finish_with(original, |pieces, len| pieces.pieces(original, len))
    }

    /// Ends the diff; `content` makes the new content from the placed regions and the
    /// original's length.
    fn finish_with<T>(
        mut self,
        original: &str,
        content: impl FnOnce(&PieceTable, TextOffset) -> T,
    ) -> Result<(T, Vec<BlockReport>, Vec<Position>)> {
        let last = self.lines.take_partial();
        if !last.is_empty() {
            self.line(original, &last);
        }
        if let Some(event) = self.parser.finish() {
            self.event(original, event);
        }
        if self.blocks.is_empty() {
            return Err(Error::new(
                ErrorKind::MalformedBlock,
                if self.unified_hunk {
                    "the diff has no SEARCH/REPLACE block: it is a unified diff (`@@` hunks), \
                     which the `udiff` dialect applies; or write each change as a block: \
                     `<<<<<<< SEARCH`, the lines to replace, `=======`, their replacement, \
                     then `>>>>>>> REPLACE`"
                } else {
                    "the diff has no SEARCH/REPLACE block: write `<<<<<<< SEARCH`, the lines \
                     to replace, `=======`, their replacement, then `>>>>>>> REPLACE` (the \
                     markers `------- SEARCH` and `+++++++ REPLACE` work too)"
                },
            ));
        }
        let failures: Vec<&Error> = self
            .blocks
            .iter()
            .filter_map(|b| b.error.as_ref())
            .collect();
        if let (Some(first), Policy::AllOrNothing) = (failures.first(), self.policy) {
            let mut message: Vec<&str> = failures.iter().map(|e| e.message()).collect();
            if self.blocks.len() > 1 {
                message.push(
                    "No block was applied (all or nothing): fix the failed blocks and send all \
                     blocks again.",
                );
            }
            let error = Error::new(first.kind(), message.join("\n"));
            // The places the first failed block matched, if it was ambiguous.
            return Err(match first.matches() {
                Some(matches) => error.with_matches(matches.into()),
                None => error,
            });
        }
        let len = *self.original_len.get_or_init(|| TextOffset::of(original));
        let new_content = content(&self.pieces, len);
        let match_indices = self.pieces.shown_starts();
        let blocks = self.blocks.into_iter().filter_map(|b| b.report).collect();
        Ok((new_content, blocks, match_indices))
    }

    /// The preview: the original with every block placed so far as streamed so far.
    pub(crate) fn preview(&self, original: &str) -> &str {
        self.preview
            .get_or_init(|| self.pieces.materialize(original))
    }

    /// The preview as pieces of the original and new text, without building it.
    pub(crate) fn preview_pieces(&self, original: &str) -> Vec<Piece<'static>> {
        let len = *self.original_len.get_or_init(|| TextOffset::of(original));
        self.pieces.pieces(original, len)
    }

    /// The preview's length, without building it.
    pub(crate) fn preview_len(&self, original: &str) -> TextOffset {
        let base = *self.original_len.get_or_init(|| TextOffset::of(original));
        self.pieces.preview_len(base)
    }

    /// The first failure of a completed block.
    pub(crate) fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// The reports of the blocks completed so far.
    pub(crate) fn completed_reports(&self) -> Vec<BlockReport> {
        self.blocks[..self.completed]
            .iter()
            .filter_map(|b| b.report.clone())
            .collect()
    }

    /// The number of blocks completed so far.
    pub(crate) fn blocks_completed(&self) -> usize {
        self.completed
    }

    /// The starts of the blocks placed so far, in file order.
    pub(crate) fn match_indices(&self) -> Vec<Position> {
        self.pieces.shown_starts()
    }

    /// Feeds one complete diff line to the parser.
    fn line(&mut self, original: &str, line: &str) {
        self.unified_hunk |= line.starts_with("@@ -");
        if let Some(event) = self.parser.line(line) {
            self.event(original, event);
        }
    }

    /// Acts on one parser event.
    fn event(&mut self, original: &str, event: Event) {
        match event {
            Event::SearchReady {
                block,
                search,
                hint,
            } => self.place(original, block, search, hint),
            Event::ReplaceLine { block, line } => self.replace_line(block, line),
            Event::BlockEnd { block } => self.end_block(original, block),
            Event::Malformed { block, why } => {
                let message = diagnose::malformed(block, &why);
                self.fail(block, Error::new(ErrorKind::MalformedBlock, message));
            }
            Event::Incomplete { block, why } => {
                let message = diagnose::incomplete(block, &why);
                self.fail(block, Error::new(ErrorKind::IncompleteAtFinish, message));
            }
        }
    }

    /// Block `block` cannot be read or was cut off: it fails, showing the original again.
    fn fail(&mut self, block: usize, error: Error) {
        self.block(block);
        self.withdraw(block);
        self.blocks[block].error = Some(error);
        self.complete(block);
    }

    /// Block `block`, created (with any before it) if it has not started yet.
    fn block(&mut self, block: usize) -> &mut Block {
        if self.blocks.len() <= block {
            self.blocks.resize_with(block + 1, Block::default);
        }
        &mut self.blocks[block]
    }

    /// Matches a complete SEARCH part and, if it is placed, shows its region emptied.
    fn place(&mut self, original: &str, block: usize, search: SearchText, hint: Option<usize>) {
        let (search, located) = self.locate(original, block, search, hint);
        let located = match located {
            Some(located) => located,
            None => return,
        };
        let b = self.block(block);
        b.omission = Some(OmissionCheck::new(search.lines.iter().map(String::as_str)));
        b.search = search;
        let mut at = match located {
            Ok(at) => at,
            Err(miss) => {
                self.blocks[block].miss = Some(miss);
                return;
            }
        };
        at.first_line = self.cursor.position(original, at.start).line - 1;
        // Withdrawn regions still count, so regions never overlap in the piece table.
        if let Some(other) = self.pieces.overlapping(at.start, at.end) {
            let message = diagnose::overlapping(block, (at.first_line, at.line_count), other);
            self.blocks[block].error = Some(Error::new(ErrorKind::OverlappingBlocks, message));
            return;
        }
        let start = self.cursor.position(original, at.start);
        let end = self.cursor.position(original, at.end);
        let region = Region::new(original, at, start, end);
        self.blocks[block].region = Some(self.pieces.insert(block, region));
    }

    /// Runs the cascade for a complete SEARCH part, on its unescaped text when it arrived
    /// over-escaped and matches nothing as written (see [`overescape`]): the SEARCH text the
    /// block keeps and where it is, or `None` when the block already failed (an empty SEARCH
    /// part for a file that is not empty).
    fn locate(
        &mut self,
        original: &str,
        block: usize,
        search: SearchText,
        hint: Option<usize>,
    ) -> (SearchText, Option<Result<Located, Miss>>) {
        if search.lines.is_empty() {
            if !original.is_empty() {
                let message = diagnose::empty_search(block);
                self.block(block).error =
                    Some(Error::new(ErrorKind::EmptySearchNonEmptyFile, message));
                return (search, None);
            }
            let at = Located {
                start: 0,
                end: 0,
                first_line: 0,
                line_count: 0,
                tier: Tier::Exact,
                candidates: 1,
                hinted: false,
                indent: IndentMap::IDENTITY,
                relaxed: 0,
                search_indent: String::new(),
            };
            return (search, Some(Ok(at)));
        }
        let located = tiers::locate(original, &self.index, &search, hint);
        if located == Err(Miss::NotFound)
            && let Some(unescaped) = overescape::unescaped_search(&search)
        {
            let again = tiers::locate(original, &self.index, &unescaped, hint);
            if again != Err(Miss::NotFound) {
                self.block(block).escaped = true;
                return (unescaped, Some(again));
            }
        }
        (search, Some(located))
    }

    /// A complete REPLACE line: shown in the block's region, or kept for the diagnostics of
    /// a block that was not placed.
    fn replace_line(&mut self, block: usize, line: String) {
        if self.blocks[block].escaped {
            for line in overescape::lines(&line) {
                self.replace_one(block, line);
            }
        } else {
            self.replace_one(block, line);
        }
    }

    /// One REPLACE line as written (unescaped if the block is over-escaped).
    fn replace_one(&mut self, block: usize, line: String) {
        let b = &mut self.blocks[block];
        if let Some(check) = &mut b.omission {
            check.line(&line);
        }
        match b.region {
            None => b.replace.push(line),
            Some(id) if self.pieces.region(id).is_active() => {
                self.pieces.change(id).region.commit_line(&line);
            }
            Some(_) => {}
        }
    }

    /// The end marker: the replacement is complete, or the block's miss becomes its error.
    fn end_block(&mut self, original: &str, block: usize) {
        let check = self.blocks[block].omission.take();
        if let Some(placeholder) = check.as_ref().and_then(OmissionCheck::verdict) {
            let what = format!("block {}: the REPLACE text", block + 1);
            let error = Error::new(
                ErrorKind::OmissionPlaceholder,
                omission::message(&what, placeholder),
            );
            self.blocks[block].miss = None;
            return self.fail(block, error);
        }
        if let Some(id) = self.shown_region(block) {
            let mut change = self.pieces.change(id);
            if let Some(stable) = change.region.end_replacement() {
                change.rewrites_from(stable);
            }
        }
        if let Some(miss) = self.blocks[block].miss.take() {
            if miss == Miss::NotFound && self.already_applied(original, block) {
                return self.complete(block);
            }
            let message = self.miss_message(original, block, &miss);
            let error = match &miss {
                Miss::NotFound => Error::new(ErrorKind::SearchNotFound, message),
                Miss::TooRepetitive => Error::new(ErrorKind::AmbiguousMatch, message),
                Miss::Ambiguous { spans, .. } => {
                    let mut spans = spans.clone();
                    spans.sort_unstable();
                    Error::new(ErrorKind::AmbiguousMatch, message)
                        .with_matches(Match::all_in(original, &spans))
                }
            };
            self.blocks[block].error = Some(error);
        }
        self.complete(block);
    }

    /// Whether `block`, whose SEARCH text was not found, is already applied (see [`applied`]);
    /// records where.
    fn already_applied(&mut self, original: &str, block: usize) -> bool {
        let b = &self.blocks[block];
        let Some(at) = applied::locate(original, &self.index, &b.search, &b.replace) else {
            return false;
        };
        let start = self.cursor.position(original, at.start);
        let end = self.cursor.position(original, at.end);
        let mut at = at;
        at.first_line = start.line - 1;
        self.blocks[block].applied = Some(AlreadyThere { at, start, end });
        true
    }

    /// Why `block` was not placed, in words.
    fn miss_message(&self, original: &str, block: usize, miss: &Miss) -> String {
        match miss {
            Miss::NotFound => {
                let b = &self.blocks[block];
                let sparse = match self.index.loose.get() {
                    None => diagnose::not_found_sparse(original, block, &b.search, &b.replace),
                    Some(_) => None,
                };
                sparse.unwrap_or_else(|| {
                    let ix = self
                        .index
                        .loose
                        .get_or_init(|| LooseLineIndex::new(original));
                    diagnose::not_found(original, ix, block, &b.search, &b.replace)
                })
            }
            Miss::Ambiguous { tier, windows, .. } => diagnose::ambiguous(block, *tier, windows),
            Miss::TooRepetitive => diagnose::too_repetitive(block),
        }
    }

    /// A placed block that turned out malformed shows the original text again.
    fn withdraw(&mut self, block: usize) {
        if let Some(id) = self.shown_region(block) {
            let mut change = self.pieces.change(id);
            change.rewrites_from(TextOffset::default());
            change.region.withdraw();
        }
    }

    /// The region of `block` if it shows its replacement.
    fn shown_region(&self, block: usize) -> Option<RegionId> {
        let id = self.blocks.get(block)?.region?;
        self.pieces.region(id).is_active().then_some(id)
    }

    /// Records the report of `block`, the next block in order to complete.
    fn complete(&mut self, block: usize) {
        debug_assert_eq!(block, self.completed, "blocks complete once each, in order");
        let b = &mut self.blocks[block];
        let region = b.region.map(|id| self.pieces.region(id));
        b.report = Some(block_report(
            block,
            b.error.as_ref(),
            region,
            b.applied.as_ref(),
        ));
        if let (Some(e), None) = (&b.error, &self.error) {
            self.error = Some(e.clone());
        }
        self.completed += 1;
    }

    /// Shows the incomplete REPLACE line of the open block, unless it may become a marker.
    fn show_tentative(&mut self) {
        let Some(block) = self.parser.replacing() else {
            return;
        };
        let Some(id) = self.shown_region(block) else {
            return;
        };
        let r = self.pieces.region(id);
        let partial = self.lines.partial();
        let p = partial.strip_suffix('\r').unwrap_or(partial);
        // (An over-escaped REPLACE line shows once complete: it may hold several lines.)
        let want = if p.trim().is_empty() || could_be_marker(p) || self.blocks[block].escaped {
            Cow::Borrowed("")
        } else {
            r.render_tentative(p)
        };
        if want != r.tentative() {
            let want = want.into_owned();
            self.pieces.change(id).region.set_tentative(want);
        }
    }

    /// One splice covering everything this push changed, and the blocks it completed.
    fn update(&mut self, original: &str) -> Update<'static> {
        let splice = self.pieces.splice(original);
        let completed: Vec<BlockReport> = self.blocks[self.reported..self.completed]
            .iter()
            .filter_map(|b| b.report.clone())
            .collect();
        Work::Stream.charge(completed.len());
        let blocks_completed = self.completed;
        match splice {
            None => Update {
                start: TextOffset::default(),
                removed: TextOffset::default(),
                inserted: Cow::Borrowed(""),
                blocks_completed,
                completed,
            },
            Some(s) => Update {
                start: s.start,
                removed: s.removed,
                inserted: Cow::Owned(s.inserted),
                blocks_completed,
                completed,
            },
        }
    }
}

//! The `udiff` and `udiff-strict` dialects behind a [`StreamingApplier`](crate::StreamingApplier).
//!
//! - `udiff` streams by hunk: complete diff lines are read once ([`Reader`]); a hunk is placed
//!   as soon as the line after it shows it is complete, and the preview shows it from then on
//!   (one splice per push, covering the hunks that push placed). A hunk's placement never
//!   depends on the hunks after it, so every chunking gives the same previews at equal
//!   prefixes and the same outcome.
//! - `udiff-strict` applies at [`finish`](UdiffEngine::finish): `git apply` reads a patch as a
//!   whole (a fragment is only known to be complete by its counts, and a corrupt patch anywhere
//!   fails all of it), so its preview is the original until then.

use std::borrow::Cow;
use std::cell::OnceCell;

use super::git;
use super::place::{self, Placement};
use super::read::{self, Hunk, Reader};
use crate::error::{Error, ErrorKind, Result};
use crate::native::file_index::FileIndex;
use crate::native::search_text::normalizations;
use crate::policy::Policy;
use crate::report::Strategy;
use crate::report::{BlockReport, BlockStatus, Outcome, Update};
use crate::text::{OriginalText, Piece, Position, StreamedLines, TextOffset};

/// The state of a `udiff` or `udiff-strict` applier over one original text.
#[derive(Clone, Debug)]
pub(crate) enum UdiffEngine {
    /// `udiff-strict`: the diff so far, applied at the end.
    Strict { diff: String, recount: bool },
    /// `udiff`: hunks placed as they complete.
    Lenient(Box<Lenient>),
}

/// The `udiff` dialect's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lenient {
    policy: Policy,
    reader: Reader,
    /// The incomplete last line of the diff.
    lines: StreamedLines,
    /// What is learnt about the original once for every hunk (its lines, indexed).
    index: FileIndex,
    /// Every hunk completed, in diff order.
    hunks: Vec<Done>,
    /// The regions placed, in file order (they never overlap).
    regions: Vec<Region>,
    /// The first failure of a hunk.
    error: Option<Error>,
    /// The preview, built when asked for and dropped by the next push.
    preview: OnceCell<String>,
    /// Regions placed by the current push (so a push that placed none costs nothing more).
    fresh: usize,
    /// The first of them in file order.
    first_fresh: usize,
    /// The lengths every placed region shows and replaces, summed (the preview's length is the
    /// original's plus the one less the other).
    shown: TextOffset,
    replaced: TextOffset,
}

/// A completed hunk: its report, and its failure.
#[derive(Clone, Debug)]
struct Done {
    report: BlockReport,
    error: Option<Error>,
}

/// A placed hunk's region of the original and what the preview shows there.
#[derive(Clone, Debug)]
struct Region {
    start: usize,
    end: usize,
    old_len: TextOffset,
    text: String,
    new_len: TextOffset,
    /// Placed by the current push.
    fresh: bool,
}

impl UdiffEngine {
    /// An engine for `udiff-strict` (`strict`) or `udiff`.
    pub(crate) fn new(strict: bool, recount: bool, policy: Policy) -> Self {
        if strict {
            UdiffEngine::Strict {
                diff: String::new(),
                recount,
            }
        } else {
            UdiffEngine::Lenient(Box::new(Lenient {
                policy,
                ..Lenient::default()
            }))
        }
    }

    /// Feeds the next piece of the diff; the splice of the preview it caused.
    pub(crate) fn push(&mut self, original: &OriginalText, chunk: &str) -> Update<'static> {
        match self {
            UdiffEngine::Strict { diff, .. } => {
                diff.push_str(chunk);
                Update::default()
            }
            UdiffEngine::Lenient(l) => l.push(original, chunk),
        }
    }

    /// The preview: the original with the hunks placed so far (the original in strict).
    pub(crate) fn preview<'a>(&'a self, original: &'a OriginalText) -> &'a str {
        match self {
            UdiffEngine::Strict { .. } => original.as_str(),
            UdiffEngine::Lenient(l) => l.preview.get_or_init(|| l.materialize(original.as_str())),
        }
    }

    /// The preview as pieces of the original and new text.
    pub(crate) fn preview_pieces(&self, original: &OriginalText) -> Vec<Piece<'static>> {
        let text = original.as_str();
        let regions: &[Region] = match self {
            UdiffEngine::Strict { .. } => &[],
            UdiffEngine::Lenient(l) => &l.regions,
        };
        let mut out = Vec::with_capacity(2 * regions.len() + 1);
        let mut at = 0;
        for r in regions {
            if r.start > at {
                out.push(Piece::Original {
                    start: original.offset_at(at),
                    end: original.offset_at(r.start),
                });
            }
            if !r.text.is_empty() {
                out.push(Piece::New(Cow::Owned(r.text.clone())));
            }
            at = r.end;
        }
        if text.len() > at {
            out.push(Piece::Original {
                start: original.offset_at(at),
                end: original.offset_at(text.len()),
            });
        }
        out
    }

    /// The preview's length in every unit.
    pub(crate) fn preview_len(&self, original: &OriginalText) -> TextOffset {
        let base = original.offset_at(original.as_str().len());
        match self {
            UdiffEngine::Strict { .. } => base,
            UdiffEngine::Lenient(l) => base.add(l.shown).sub(l.replaced),
        }
    }

    /// The first failure of a completed hunk.
    pub(crate) fn error(&self) -> Option<&Error> {
        match self {
            UdiffEngine::Strict { .. } => None,
            UdiffEngine::Lenient(l) => l.error.as_ref(),
        }
    }

    /// The reports of the hunks completed so far.
    pub(crate) fn completed_reports(&self) -> Vec<BlockReport> {
        match self {
            UdiffEngine::Strict { .. } => Vec::new(),
            UdiffEngine::Lenient(l) => l.hunks.iter().map(|h| h.report.clone()).collect(),
        }
    }

    /// The number of hunks completed so far.
    pub(crate) fn blocks_completed(&self) -> usize {
        match self {
            UdiffEngine::Strict { .. } => 0,
            UdiffEngine::Lenient(l) => l.hunks.len(),
        }
    }

    /// The starts of the regions placed so far, in file order.
    pub(crate) fn match_indices(&self, original: &OriginalText) -> Vec<Position> {
        match self {
            UdiffEngine::Strict { .. } => Vec::new(),
            UdiffEngine::Lenient(l) => l
                .regions
                .iter()
                .map(|r| original.position_at(r.start))
                .collect(),
        }
    }

    /// Ends the diff: the new content, a report per hunk and the starts of the changed
    /// regions, or the refusal.
    pub(crate) fn finish(self, original: &OriginalText) -> Result<Outcome> {
        match self {
            UdiffEngine::Strict { diff, recount } => strict(&diff, original, recount),
            UdiffEngine::Lenient(mut l) => {
                l.end(original)?;
                let new_content = l.materialize(original.as_str());
                let match_indices = l
                    .regions
                    .iter()
                    .map(|r| original.position_at(r.start))
                    .collect();
                let blocks = l.hunks.into_iter().map(|h| h.report).collect();
                Ok(Outcome {
                    new_content,
                    blocks,
                    match_indices,
                })
            }
        }
    }
}

/// Applies `hunks` (all of one file, in diff order) to `original` in the `udiff` dialect, as a
/// whole diff of that file would be.
pub(crate) fn apply_hunks(original: &str, hunks: &[Hunk], policy: Policy) -> Result<Outcome> {
    let original = OriginalText::new(original);
    let mut l = Lenient {
        policy,
        ..Lenient::default()
    };
    for hunk in hunks {
        l.place(&original, hunk, false);
    }
    l.verdict()?;
    let new_content = l.materialize(original.as_str());
    let match_indices = l
        .regions
        .iter()
        .map(|r| original.position_at(r.start))
        .collect();
    Ok(Outcome {
        new_content,
        blocks: l.hunks.into_iter().map(|h| h.report).collect(),
        match_indices,
    })
}

/// `udiff-strict` over the whole diff.
fn strict(diff: &str, original: &OriginalText, recount: bool) -> Result<Outcome> {
    let (new_content, placed) = git::apply_single(diff, original.as_str(), recount)?;
    let text = original.as_str();
    let blocks = placed
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut report = BlockReport::cline(
                i,
                Strategy::Exact,
                original.position_at(p.start),
                original.position_at(p.end),
                p.end > p.start && text.as_bytes()[p.end - 1] == b'\n',
            );
            report.end_line = if p.line_count == 0 {
                report.start.line
            } else {
                p.first_line + p.line_count
            };
            report
        })
        .collect();
    let mut starts: Vec<usize> = placed.iter().map(|p| p.start).collect();
    starts.sort_unstable();
    Ok(Outcome {
        new_content,
        blocks,
        match_indices: starts
            .into_iter()
            .map(|b| original.position_at(b))
            .collect(),
    })
}

impl Lenient {
    fn push(&mut self, original: &OriginalText, chunk: &str) -> Update<'static> {
        self.preview.take();
        let before = self.hunks.len();
        let mut lines = std::mem::take(&mut self.lines);
        lines.push(chunk, |line| self.line(original, line));
        self.lines = lines;
        let completed = self.hunks[before..]
            .iter()
            .map(|h| h.report.clone())
            .collect();
        let mut update = self.splice(original);
        update.blocks_completed = self.hunks.len();
        update.completed = completed;
        update
    }

    /// Reads one complete diff line and places the hunk it completed, if any, right away (so
    /// what a hunk sees of the diff never depends on how the diff was cut).
    fn line(&mut self, original: &OriginalText, line: &str) {
        let mut done = Vec::new();
        self.reader.line(line, &mut done);
        for hunk in done {
            self.complete(original, &hunk);
        }
    }

    /// Ends the diff: the last line, the last hunk, then the verdict.
    fn end(&mut self, original: &OriginalText) -> Result<()> {
        let last = self.lines.take_partial();
        if !last.is_empty() {
            self.line(original, &last);
        }
        let mut done = Vec::new();
        self.reader.finish(&mut done);
        for hunk in done {
            self.complete(original, &hunk);
        }
        self.verdict()
    }

    /// The refusal of the diff, if a hunk failed and the policy is all or nothing (or if there
    /// was no hunk).
    fn verdict(&self) -> Result<()> {
        if self.hunks.is_empty() {
            return Err(Error::new(
                ErrorKind::InvalidPatch,
                "the diff has no hunk: write `--- a/PATH` and `+++ b/PATH`, then for each change \
                 a `@@ -N,M +N,M @@` line followed by its lines: ` ` context, `-` removed, `+` \
                 added",
            ));
        }
        let failures: Vec<&Error> = self.hunks.iter().filter_map(|h| h.error.as_ref()).collect();
        if let (Some(first), Policy::AllOrNothing) = (failures.first(), self.policy) {
            let mut message: Vec<&str> = failures.iter().map(|e| e.message()).collect();
            if self.hunks.len() > 1 {
                message.push(
                    "No hunk was applied (all or nothing): fix the failed hunks and send the \
                     whole diff again.",
                );
            }
            let error = Error::new(first.kind(), message.join("\n"));
            return Err(match first.matches() {
                Some(m) => error.with_matches(m.into()),
                None => error,
            });
        }
        Ok(())
    }

    /// Places a completed hunk and records its report.
    fn complete(&mut self, original: &OriginalText, hunk: &Hunk) {
        self.place(original, hunk, true);
    }

    /// Places `hunk`; with `one_file`, a hunk of a second file fails.
    fn place(&mut self, original: &OriginalText, hunk: &Hunk, one_file: bool) {
        let text = original.as_str();
        let placed = if one_file && hunk.file > 0 {
            let names = self
                .reader
                .files()
                .iter()
                .map(|f| f.name().unwrap_or("(unnamed)"));
            Err(git::several_files(names))
        } else {
            place::place(text, &self.index, hunk)
        };
        let placed = placed.and_then(|p| self.insert(text, hunk, p));
        let done = match placed {
            Ok(report) => Done {
                report: self.report(original, hunk, report),
                error: None,
            },
            Err(error) => {
                let mut report = failed(hunk.index);
                report.error = Some(error.clone());
                if self.error.is_none() {
                    self.error = Some(error.clone());
                }
                Done {
                    report,
                    error: Some(error),
                }
            }
        };
        self.hunks.push(done);
    }

    /// Shows a placement in the preview (unless it overlaps an earlier hunk's region).
    fn insert(&mut self, text: &str, hunk: &Hunk, placement: Placement) -> Result<Placement> {
        let Placement::Edit { at, text: new, .. } = &placement else {
            return Ok(placement);
        };
        let order = self.regions.partition_point(|r| r.start < at.start);
        let overlaps = |r: &Region| {
            at.start < r.end && r.start < at.end || at.start == at.end && r.start == at.start
        };
        let neighbours = order.saturating_sub(1)..(order + 1).min(self.regions.len());
        if self.regions[neighbours].iter().any(overlaps) {
            return Err(Error::new(
                ErrorKind::OverlappingBlocks,
                format!(
                    "{}: its lines overlap those of an earlier hunk; merge the two hunks.",
                    read::describe(hunk)
                ),
            ));
        }
        self.first_fresh = if self.fresh == 0 {
            order
        } else {
            self.first_fresh.min(order)
        };
        self.fresh += 1;
        let region = Region {
            start: at.start,
            end: at.end,
            old_len: TextOffset::of(&text[at.start..at.end]),
            new_len: TextOffset::of(new),
            text: new.clone(),
            fresh: true,
        };
        self.shown = self.shown.add(region.new_len);
        self.replaced = self.replaced.add(region.old_len);
        self.regions.insert(order, region);
        Ok(placement)
    }

    /// The report of a placed (or already applied) hunk.
    fn report(&self, original: &OriginalText, hunk: &Hunk, placement: Placement) -> BlockReport {
        let (at, status, reindented) = match placement {
            Placement::Edit { at, reindented, .. } => (at, BlockStatus::Applied, reindented),
            Placement::Applied { at } => (at, BlockStatus::AlreadyApplied, false),
        };
        let start = original.position_at(at.start);
        let end = original.position_at(at.end);
        let mut report = BlockReport::cline(hunk.index, at.tier.strategy(), start, end, false);
        report.status = status;
        report.end_line = if at.line_count == 0 {
            start.line
        } else {
            start.line + at.line_count - 1
        };
        report.candidates = at.candidates;
        report.indent_delta = at.indent.columns();
        report.reindented = reindented;
        report.normalizations = normalizations(at.relaxed);
        report
    }

    /// One splice for everything this push placed: from the first placed region's start to
    /// the last one's end, in the preview as it was before the push. The offsets before it come
    /// from the running sums less what lies from there on, so a diff whose hunks come in file
    /// order costs O(1) per hunk here.
    fn splice(&mut self, original: &OriginalText) -> Update<'static> {
        if std::mem::take(&mut self.fresh) == 0 {
            return Update::default();
        }
        let text = original.as_str();
        let first = self.first_fresh;
        // What the regions from `first` on show and replace, before this push.
        let (mut shown_after, mut replaced_after) = (TextOffset::default(), TextOffset::default());
        let mut last = first;
        for (i, r) in self.regions.iter().enumerate().skip(first) {
            if r.fresh {
                last = i;
            } else {
                shown_after = shown_after.add(r.new_len);
                replaced_after = replaced_after.add(r.old_len);
            }
        }
        let (mut shown_before, mut replaced_before) = (self.shown, self.replaced);
        for r in self.regions[first..].iter().filter(|r| r.fresh) {
            shown_before = shown_before.sub(r.new_len);
            replaced_before = replaced_before.sub(r.old_len);
        }
        // Now the sums of the regions before `first`.
        shown_before = shown_before.sub(shown_after);
        replaced_before = replaced_before.sub(replaced_after);
        let (lo, hi) = (self.regions[first].start, self.regions[last].end);
        let start = original
            .offset_at(lo)
            .add(shown_before)
            .sub(replaced_before);
        let mut removed = original.offset_at(hi).sub(original.offset_at(lo));
        let mut inserted = String::new();
        let mut at = lo;
        for r in &mut self.regions[first..=last] {
            inserted.push_str(&text[at..r.start]);
            inserted.push_str(&r.text);
            at = r.end;
            if !r.fresh {
                removed = removed.add(r.new_len).sub(r.old_len);
            }
        }
        for r in &mut self.regions[first..] {
            r.fresh = false;
        }
        Update {
            start,
            removed,
            inserted: Cow::Owned(inserted),
            blocks_completed: 0,
            completed: Vec::new(),
        }
    }

    /// The original with every placed region's text.
    fn materialize(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for r in &self.regions {
            out.push_str(&text[at..r.start]);
            out.push_str(&r.text);
            at = r.end;
        }
        out.push_str(&text[at..]);
        out
    }
}

/// The report of a failed hunk.
fn failed(index: usize) -> BlockReport {
    let mut report = BlockReport::cline(
        index,
        Strategy::Unmatched,
        Position::default(),
        Position::default(),
        false,
    );
    report.status = BlockStatus::Failed;
    report.candidates = 0;
    report.end_line = 0;
    report
}

//! The `native` dialect applied to a diff that arrives in pieces.
//!
//! Complete diff lines are processed once, in order (blocks are matched when their `=======`
//! arrives). The preview is kept as a piece table: the original plus, per placed block, its
//! region and the replacement shown so far (committed lines and the incomplete last line, if
//! it cannot still become a marker). A push records which regions it touched and how much of
//! each one's text it left alone, and reports one splice from the first change to the end of
//! the last touched region; so streaming a block in the middle of a large file costs
//! O(chunk) per push, and the preview string is only built when asked for.
//!
//! Nothing a push does walks the blocks or copies what a region already shows: each region
//! knows its place in file order, the offsets before a region are prefix sums of a Fenwick
//! tree over the regions (rebuilt when a block is placed, which costs O(blocks) once per
//! block), and a splice copies only the text after what the push left alone. A push costs
//! O(chunk + the splice + touched regions × log regions).

use std::borrow::Cow;
#[cfg(test)]
use std::cell::Cell;
use std::cell::OnceCell;

use super::diagnose;
use super::indent::IndentMap;
use super::index::FileIndex;
use super::normalize::indent_of;
use super::parse::{Event, Parser, could_be_marker};
use super::tiers::{self, Located, Miss, SearchText, Tier};
use crate::error::{Error, ErrorKind, Result};
use crate::matching::Strategy;
use crate::stream::{BlockReport, BlockStatus, Normalization, Outcome, Policy, Update};
use crate::text::tracked::TrackedText;
use crate::text::{OffsetCursor, Position, TextOffset};

/// The state of the `native` dialect over one original text (which every call borrows).
#[derive(Clone, Debug, Default)]
pub(crate) struct NativeEngine {
    policy: Policy,
    parser: Parser,
    /// The incomplete last line of the diff.
    partial: String,
    blocks: Vec<Block>,
    /// Blocks with a region, sorted by where it starts.
    regions: Vec<usize>,
    /// The regions' displayed and original lengths, summed in file order.
    sums: RegionSums,
    index: OnceCell<FileIndex>,
    cursor: OffsetCursor,
    original_len: OnceCell<TextOffset>,
    preview: OnceCell<String>,
    /// The first failure of a completed block.
    error: Option<Error>,
    /// Blocks completed before the current push (blocks complete once each, in order, so the
    /// completed ones are `blocks[..completed]`).
    reported: usize,
    completed: usize,
    touched: Vec<Touch>,
}

#[derive(Clone, Debug, Default)]
struct Block {
    search: SearchText,
    /// REPLACE lines of a block that was not placed, for the "already applied?" check.
    replace: Vec<String>,
    region: Option<Region>,
    /// Why the SEARCH part failed, turned into an error when the block ends.
    miss: Option<Miss>,
    error: Option<Error>,
    report: Option<BlockReport>,
    /// Its entry in `touched` during the current push.
    touch: Option<usize>,
}

/// A placed block: the region it replaces and the replacement shown so far.
#[derive(Clone, Debug)]
struct Region {
    at: Located,
    start: Position,
    end: Position,
    len: TextOffset,
    /// The ending of every replacement line but the last, and of the last.
    eol: &'static str,
    eol_last: &'static str,
    region_indent: String,
    /// Whether the replacement is shifted by the indentation map (decided at its first
    /// non-blank line).
    reindent: Option<bool>,
    committed: TrackedText,
    /// Bytes of the line ending after the last committed line.
    last_eol: usize,
    lines: usize,
    /// The displayed part of the incomplete REPLACE line.
    tentative: String,
    /// A region withdrawn (malformed after placement) shows the original text.
    active: bool,
    /// Its index in `regions` (file order).
    order: usize,
}

impl Region {
    fn display_len(&self) -> TextOffset {
        if self.active {
            plus(self.committed.end(), TextOffset::of(&self.tentative))
        } else {
            self.len
        }
    }

    /// Appends the displayed text from byte `keep` on to `out`, copying nothing before it.
    fn write_from(&self, original: &str, keep: usize, out: &mut String) {
        if !self.active {
            let shown = &original[self.start.bytes..self.end.bytes];
            return push(out, &shown[keep..]);
        }
        let committed = self.committed.as_str();
        match keep.checked_sub(committed.len()) {
            None => {
                push(out, &committed[keep..]);
                push(out, &self.tentative);
            }
            Some(into) => push(out, &self.tentative[into..]),
        }
    }

    /// A replacement line as written: verbatim, or shifted when the block re-indents.
    fn render<'l>(&self, line: &'l str, reindent: bool) -> Cow<'l, str> {
        if !reindent || line.trim().is_empty() {
            return Cow::Borrowed(line);
        }
        let indent = indent_of(line);
        match self.at.indent.apply(indent) {
            Cow::Borrowed(i) if i.len() == indent.len() => Cow::Borrowed(line),
            i => Cow::Owned(format!("{i}{}", &line[indent.len()..])),
        }
    }

    /// Whether a replacement whose first non-blank line is `line` carries the SEARCH text's
    /// indentation instead of the file's.
    fn wants_reindent(&self, line: &str) -> bool {
        !self.at.indent.is_identity()
            && indent_of(line) == self.at.search_indent
            && self.at.search_indent != self.region_indent
    }
}

/// A region a push changed: its displayed length before the push and how much of its display
/// (from the start) the push left alone.
#[derive(Clone, Copy, Debug)]
struct Touch {
    block: usize,
    old_len: TextOffset,
    keep: TextOffset,
}

impl NativeEngine {
    pub(crate) fn new(policy: Policy) -> Self {
        NativeEngine {
            policy,
            ..NativeEngine::default()
        }
    }

    /// Feeds the next piece of the diff; the splice of the preview it caused.
    pub(crate) fn push(&mut self, original: &str, chunk: &str) -> Update<'static> {
        self.preview.take();
        for t in self.touched.drain(..) {
            self.blocks[t.block].touch = None;
        }
        self.reported = self.completed;
        let mut rest = chunk;
        while let Some(i) = memchr::memchr(b'\n', rest.as_bytes()) {
            if self.partial.is_empty() {
                self.line(original, &rest[..i]);
            } else {
                let mut line = std::mem::take(&mut self.partial);
                line.push_str(&rest[..i]);
                self.line(original, &line);
            }
            rest = &rest[i + 1..];
        }
        self.partial.push_str(rest);
        self.show_tentative();
        self.update(original)
    }

    /// Ends the diff: the new content and a report per block, or the refusal.
    pub(crate) fn finish(mut self, original: &str) -> Result<Outcome> {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.line(original, &line);
        }
        if let Some(event) = self.parser.finish() {
            self.event(original, event);
        }
        if self.blocks.is_empty() {
            return Err(Error::new(
                ErrorKind::MalformedBlock,
                "the diff has no SEARCH/REPLACE block: write `------- SEARCH`, the lines to \
                 replace, `=======`, their replacement, then `+++++++ REPLACE`",
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
            return Err(Error::new(first.kind(), message.join("\n")));
        }
        let new_content = self.materialize(original);
        let match_indices = self
            .regions
            .iter()
            .filter_map(|&b| self.blocks[b].region.as_ref())
            .filter(|r| r.active)
            .map(|r| r.start)
            .collect();
        let blocks = self.blocks.into_iter().filter_map(|b| b.report).collect();
        Ok(Outcome {
            new_content,
            blocks,
            match_indices,
        })
    }

    pub(crate) fn preview(&self, original: &str) -> &str {
        self.preview.get_or_init(|| self.materialize(original))
    }

    pub(crate) fn preview_len(&self, original: &str) -> TextOffset {
        let base = *self.original_len.get_or_init(|| TextOffset::of(original));
        let (grown, shrunk) = self.sums.prefix(self.regions.len());
        minus(plus(base, grown), shrunk)
    }

    pub(crate) fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    pub(crate) fn blocks_completed(&self) -> usize {
        self.completed
    }

    /// The starts of the blocks placed so far, in file order.
    pub(crate) fn match_indices(&self) -> Vec<Position> {
        self.regions
            .iter()
            .filter_map(|&b| self.blocks[b].region.as_ref())
            .filter(|r| r.active)
            .map(|r| r.start)
            .collect()
    }

    fn line(&mut self, original: &str, line: &str) {
        if let Some(event) = self.parser.line(line) {
            self.event(original, event);
        }
    }

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
                self.block(block);
                self.withdraw(block);
                let message = diagnose::malformed(block, &why);
                self.blocks[block].error = Some(Error::new(ErrorKind::MalformedBlock, message));
                self.complete(block);
            }
        }
    }

    fn block(&mut self, block: usize) -> &mut Block {
        if self.blocks.len() <= block {
            self.blocks.resize_with(block + 1, Block::default);
        }
        &mut self.blocks[block]
    }

    /// Matches a complete SEARCH part and, if it is placed, shows its region emptied.
    fn place(&mut self, original: &str, block: usize, search: SearchText, hint: Option<usize>) {
        let located = if search.lines.is_empty() {
            if !original.is_empty() {
                let message = diagnose::empty_search(block);
                self.block(block).error =
                    Some(Error::new(ErrorKind::EmptySearchNonEmptyFile, message));
                return;
            }
            Ok(Located {
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
            })
        } else {
            tiers::locate(original, &self.index, &search, hint)
        };
        self.block(block).search = search;
        let mut at = match located {
            Ok(at) => at,
            Err(miss) => {
                self.blocks[block].miss = Some(miss);
                return;
            }
        };
        at.first_line = self.cursor.position(original, at.start).line - 1;
        // Withdrawn regions still count, so regions never overlap in the piece table.
        let overlapped = self.regions.iter().copied().find(|&b| {
            let r = self.blocks[b].region.as_ref().expect("region");
            at.start < r.end.bytes && r.start.bytes < at.end
                || at.start == at.end && at.start == r.start.bytes
        });
        if let Some(other) = overlapped {
            let message = diagnose::overlapping(block, (at.first_line, at.line_count), other);
            self.blocks[block].error = Some(Error::new(ErrorKind::OverlappingBlocks, message));
            return;
        }
        let mut region = self.region(original, at);
        let pos = self.regions.partition_point(|&b| {
            self.blocks[b].region.as_ref().expect("region").start < region.start
        });
        region.order = pos;
        self.regions.insert(pos, block);
        self.blocks[block].region = Some(region);
        for &b in &self.regions[pos + 1..] {
            self.blocks[b].region.as_mut().expect("region").order += 1;
        }
        let blocks = &self.blocks;
        self.sums.rebuild(self.regions.iter().map(|&b| {
            let r = blocks[b].region.as_ref().expect("region");
            (r.display_len(), r.len)
        }));
        self.touch(block);
        if let Some(r) = self.blocks[block].region.as_mut() {
            r.active = true;
        }
    }

    fn region(&mut self, original: &str, at: Located) -> Region {
        let start = self.cursor.position(original, at.start);
        let end = self.cursor.position(original, at.end);
        let text = &original[at.start..at.end];
        let eol_of = |s: &str, i: usize| {
            if i > 0 && s.as_bytes()[i - 1] == b'\r' {
                "\r\n"
            } else {
                "\n"
            }
        };
        let eol = match memchr::memchr(b'\n', text.as_bytes()) {
            Some(i) => eol_of(text, i),
            None => match memchr::memchr(b'\n', original.as_bytes()) {
                Some(i) => eol_of(original, i),
                None => "\n",
            },
        };
        let eol_last = if text.is_empty() {
            eol
        } else if text.ends_with("\r\n") {
            "\r\n"
        } else if text.ends_with('\n') {
            "\n"
        } else {
            ""
        };
        let region_indent = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .map_or("", indent_of)
            .to_owned();
        let reindent = at.indent.is_identity().then_some(false);
        Region {
            len: end.offset().sub(start.offset()),
            at,
            start,
            end,
            eol,
            eol_last,
            region_indent,
            reindent,
            committed: TrackedText::default(),
            last_eol: 0,
            lines: 0,
            tentative: String::new(),
            active: false,
            order: 0,
        }
    }

    fn replace_line(&mut self, block: usize, line: String) {
        let b = &mut self.blocks[block];
        match &b.region {
            None => return b.replace.push(line),
            Some(r) if !r.active => return,
            Some(_) => self.touch(block),
        }
        let Some(r) = self.blocks[block].region.as_mut() else {
            return;
        };
        if r.reindent.is_none() && !line.trim().is_empty() {
            r.reindent = Some(r.wants_reindent(&line));
        }
        let rendered = r.render(&line, r.reindent == Some(true)).into_owned();
        r.committed.push_str(&rendered);
        r.committed.push_str(r.eol);
        r.last_eol = r.eol.len();
        r.lines += 1;
        r.tentative.clear();
    }

    fn end_block(&mut self, original: &str, block: usize) {
        if self.blocks[block].region.as_ref().is_some_and(|r| r.active) {
            self.touch(block);
            let r = self.blocks[block].region.as_mut().expect("region");
            r.tentative.clear();
            if r.lines > 0 && r.eol_last != r.eol {
                let cut = r.committed.len() - r.last_eol;
                r.committed.truncate(cut);
                r.committed.push_str(r.eol_last);
                let kept = r.committed.end();
                let end = TextOffset::of(r.eol_last);
                let stable = minus(kept, end);
                if let Some(t) = self.touch_of(block)
                    && stable.bytes < t.keep.bytes
                {
                    t.keep = stable;
                }
            }
        }
        if let Some(miss) = self.blocks[block].miss.take() {
            let message = self.miss_message(original, block, &miss);
            let kind = match miss {
                Miss::NotFound => ErrorKind::SearchNotFound,
                Miss::Ambiguous { .. } | Miss::TooRepetitive => ErrorKind::AmbiguousMatch,
            };
            self.blocks[block].error = Some(Error::new(kind, message));
        }
        self.complete(block);
    }

    fn miss_message(&self, original: &str, block: usize, miss: &Miss) -> String {
        match miss {
            Miss::NotFound => {
                let b = &self.blocks[block];
                let sparse = match self.index.get() {
                    None => diagnose::not_found_sparse(original, block, &b.search, &b.replace),
                    Some(_) => None,
                };
                sparse.unwrap_or_else(|| {
                    let ix = self.index.get_or_init(|| FileIndex::new(original));
                    diagnose::not_found(original, ix, block, &b.search, &b.replace)
                })
            }
            Miss::Ambiguous { tier, windows } => diagnose::ambiguous(block, *tier, windows),
            Miss::TooRepetitive => diagnose::too_repetitive(block),
        }
    }

    /// A placed block that turned out malformed shows the original text again.
    fn withdraw(&mut self, block: usize) {
        if self.blocks[block].region.as_ref().is_some_and(|r| r.active) {
            self.touch(block);
            if let Some(t) = self.touch_of(block) {
                t.keep = TextOffset::default();
            }
            if let Some(r) = self.blocks[block].region.as_mut() {
                r.active = false;
            }
        }
    }

    fn complete(&mut self, block: usize) {
        debug_assert_eq!(block, self.completed, "blocks complete once each, in order");
        let b = &mut self.blocks[block];
        b.report = Some(report(block, b));
        if let (Some(e), None) = (&b.error, &self.error) {
            self.error = Some(e.clone());
        }
        self.completed += 1;
    }

    /// Records that a push changes `block`'s region (once per push, before the change).
    fn touch(&mut self, block: usize) {
        if self.blocks[block].touch.is_some() {
            return;
        }
        self.blocks[block].touch = Some(self.touched.len());
        let r = self.blocks[block].region.as_ref().expect("region");
        let keep = if r.active {
            r.committed.end()
        } else {
            TextOffset::default()
        };
        self.touched.push(Touch {
            block,
            old_len: r.display_len(),
            keep,
        });
    }

    /// Shows the incomplete REPLACE line of the open block, unless it may become a marker.
    fn show_tentative(&mut self) {
        let Some(block) = self.parser.replacing() else {
            return;
        };
        let Some(r) = self.blocks.get(block).and_then(|b| b.region.as_ref()) else {
            return;
        };
        if !r.active {
            return;
        }
        let p = self.partial.strip_suffix('\r').unwrap_or(&self.partial);
        let want = if p.trim().is_empty() || could_be_marker(p) {
            Cow::Borrowed("")
        } else {
            let reindent = r.reindent.unwrap_or_else(|| r.wants_reindent(p));
            r.render(p, reindent)
        };
        if want != r.tentative {
            let want = want.into_owned();
            self.touch(block);
            if let Some(r) = self.blocks[block].region.as_mut() {
                r.tentative = want;
            }
        }
    }

    /// What this push recorded about `block`, if it touched it.
    fn touch_of(&mut self, block: usize) -> Option<&mut Touch> {
        let i = self.blocks[block].touch?;
        Some(&mut self.touched[i])
    }

    /// One splice covering everything this push changed.
    fn update(&mut self, original: &str) -> Update<'static> {
        for t in &self.touched {
            let r = self.blocks[t.block].region.as_ref().expect("region");
            self.sums.set_shown(r.order, r.display_len());
        }
        let completed: Vec<BlockReport> = self.blocks[self.reported..self.completed]
            .iter()
            .filter_map(|b| b.report.clone())
            .collect();
        charge(completed.len());
        let blocks_completed = self.completed;
        if self.touched.is_empty() {
            return Update {
                start: TextOffset::default(),
                removed: TextOffset::default(),
                inserted: Cow::Borrowed(""),
                blocks_completed,
                completed,
            };
        }
        let order = |b: usize| self.blocks[b].region.as_ref().expect("region").order;
        let first = self
            .touched
            .iter()
            .map(|t| order(t.block))
            .min()
            .unwrap_or(0);
        let last = self
            .touched
            .iter()
            .map(|t| order(t.block))
            .max()
            .unwrap_or(0);
        let touch = |b: usize| self.blocks[b].touch.map(|i| self.touched[i]);
        let region = |i: usize| {
            self.blocks[self.regions[i]]
                .region
                .as_ref()
                .expect("region")
        };

        let (grown, shrunk) = self.sums.prefix(first);
        let f = region(first);
        let ft = touch(self.regions[first]).expect("touched");
        let start = plus(minus(plus(f.start.offset(), grown), shrunk), ft.keep);
        let mut removed = minus(ft.old_len, ft.keep);
        let mut inserted = String::new();
        f.write_from(original, ft.keep.bytes, &mut inserted);
        let mut at = f.end.bytes;
        for i in first + 1..=last {
            charge(1);
            let r = region(i);
            let gap = &original[at..r.start.bytes];
            removed = plus(removed, TextOffset::of(gap));
            push(&mut inserted, gap);
            let old = touch(self.regions[i]).map_or_else(|| r.display_len(), |t| t.old_len);
            removed = plus(removed, old);
            r.write_from(original, 0, &mut inserted);
            at = r.end.bytes;
        }
        Update {
            start,
            removed,
            inserted: Cow::Owned(inserted),
            blocks_completed,
            completed,
        }
    }

    fn materialize(&self, original: &str) -> String {
        let mut out = String::with_capacity(original.len());
        let mut at = 0;
        for &b in &self.regions {
            let r = self.blocks[b].region.as_ref().expect("region");
            out.push_str(&original[at..r.start.bytes]);
            r.write_from(original, 0, &mut out);
            at = r.end.bytes;
        }
        out.push_str(&original[at..]);
        out
    }
}

/// The report of a completed block.
fn report(index: usize, block: &Block) -> BlockReport {
    let mut report = BlockReport::cline(
        index,
        Strategy::Unmatched,
        Position::default(),
        Position::default(),
        false,
    );
    report.candidates = 0;
    if let Some(error) = &block.error {
        report.status = BlockStatus::Failed;
        report.error = Some(error.clone());
        report.end_line = 0;
        return report;
    }
    let Some(r) = &block.region else {
        return report;
    };
    let at = &r.at;
    report.strategy = if at.line_count == 0 {
        Strategy::EmptySearchNewFile
    } else {
        strategy(at.tier)
    };
    report.start = r.start;
    report.end = r.end;
    report.end_line = if at.line_count == 0 {
        r.start.line
    } else {
        at.first_line + at.line_count
    };
    report.candidates = at.candidates;
    report.indent_delta = at.indent.columns();
    report.reindented = r.reindent == Some(true);
    report.normalizations = [
        (Tier::LineEndings, Normalization::LineEndings),
        (Tier::TrailingWhitespace, Normalization::TrailingWhitespace),
        (Tier::Indentation, Normalization::Indentation),
        (Tier::Punctuation, Normalization::Punctuation),
        (Tier::LineNumberPrefix, Normalization::LineNumberPrefixes),
        (Tier::BlankLines, Normalization::BlankLines),
        (Tier::Typo, Normalization::Typo),
    ]
    .into_iter()
    .filter(|(t, _)| at.used(*t))
    .map(|(_, n)| n)
    .collect();
    report
}

fn strategy(tier: Tier) -> Strategy {
    match tier {
        Tier::Exact => Strategy::Exact,
        Tier::LineEndings => Strategy::LineEndings,
        Tier::TrailingWhitespace => Strategy::TrailingWhitespace,
        Tier::Indentation => Strategy::Indentation,
        Tier::Punctuation => Strategy::Punctuation,
        Tier::LineNumberPrefix => Strategy::LineNumberPrefix,
        Tier::BlankLines => Strategy::BlankLines,
        Tier::Typo => Strategy::Typo,
    }
}

/// Prefix sums, in file order, of the regions' displayed lengths (as of the end of the last
/// push) and original lengths: a Fenwick tree, rebuilt when a region is inserted and updated
/// in O(log regions) when a push changes what a region shows.
#[derive(Clone, Debug, Default)]
struct RegionSums {
    /// Each region's displayed length as last recorded.
    shown: Vec<TextOffset>,
    /// Node `i` (1-based) sums (displayed, original) over the `i & -i` regions ending at `i`.
    tree: Vec<(TextOffset, TextOffset)>,
}

impl RegionSums {
    /// Every region's (displayed, original) length, in file order; O(regions).
    fn rebuild(&mut self, lengths: impl Iterator<Item = (TextOffset, TextOffset)>) {
        self.shown.clear();
        self.tree.clear();
        self.tree.push(Default::default());
        for (shown, len) in lengths {
            self.shown.push(shown);
            self.tree.push((shown, len));
        }
        let n = self.shown.len();
        for i in 1..=n {
            let parent = i + (i & i.wrapping_neg());
            if parent <= n {
                let (shown, len) = self.tree[i];
                let p = &mut self.tree[parent];
                *p = (plus(p.0, shown), plus(p.1, len));
            }
        }
    }

    /// Records that region `at` now shows `shown`.
    fn set_shown(&mut self, at: usize, shown: TextOffset) {
        let old = std::mem::replace(&mut self.shown[at], shown);
        if old == shown {
            return;
        }
        let mut i = at + 1;
        while i < self.tree.len() {
            charge(1);
            // Every node above `at` includes `old`, so this never underflows.
            let node = &mut self.tree[i].0;
            *node = plus(minus(*node, old), shown);
            i += i & i.wrapping_neg();
        }
    }

    /// The total (displayed, original) length of the first `count` regions.
    fn prefix(&self, count: usize) -> (TextOffset, TextOffset) {
        let (mut shown, mut len) = (TextOffset::default(), TextOffset::default());
        let mut i = count;
        while i > 0 {
            charge(1);
            let (s, l) = self.tree[i];
            shown = plus(shown, s);
            len = plus(len, l);
            i &= i - 1;
        }
        (shown, len)
    }
}

/// Appends `s` to a splice or the preview being built.
fn push(out: &mut String, s: &str) {
    charge(s.len());
    out.push_str(s);
}

#[cfg(test)]
thread_local! {
    /// Work done on this thread since the last [`take_work`]: bytes copied into splices and
    /// previews, regions and tree nodes visited, reports cloned.
    static WORK: Cell<usize> = const { Cell::new(0) };
}

#[cfg(test)]
fn charge(n: usize) {
    WORK.with(|w| w.set(w.get() + n));
}

#[cfg(not(test))]
#[inline(always)]
fn charge(_: usize) {}

#[cfg(test)]
fn take_work() -> usize {
    WORK.with(|w| w.replace(0))
}

fn plus(a: TextOffset, b: TextOffset) -> TextOffset {
    TextOffset {
        bytes: a.bytes + b.bytes,
        utf16: a.utf16 + b.utf16,
        chars: a.chars + b.chars,
    }
}

fn minus(a: TextOffset, b: TextOffset) -> TextOffset {
    a.sub(b)
}

#[cfg(test)]
mod cost_tests {
    use super::*;

    /// `lines` distinct code-like lines.
    fn code(lines: usize) -> String {
        (0..lines)
            .map(|i| format!("    value_{i} = compute({i}) + {}\n", i % 7))
            .collect()
    }

    fn block(search: &str, replace: &str) -> String {
        format!("------- SEARCH\n{search}=======\n{replace}+++++++ REPLACE\n")
    }

    /// Pushes `diff` in 4-byte chunks (it is ASCII), checking that the splices rebuild the
    /// preview and the outcome; the most work one push did, and the total.
    fn work(original: &str, diff: &str) -> (usize, usize) {
        let mut engine = NativeEngine::new(Policy::AllOrNothing);
        let mut mirror = original.to_owned();
        let (mut max, mut total) = (0, 0);
        for piece in diff.as_bytes().chunks(4) {
            let piece = std::str::from_utf8(piece).expect("ASCII");
            take_work();
            let update = engine.push(original, piece);
            let w = take_work();
            update.apply_to(&mut mirror);
            max = max.max(w);
            total += w;
        }
        assert_eq!(mirror, engine.preview(original));
        let outcome = engine.finish(original).expect("applies");
        assert_eq!(outcome.new_content, mirror);
        (max, total)
    }

    /// A whole-file rewrite streamed token by token: a push copies the incomplete line it
    /// changes (a splice re-sends that line), never the replacement lines shown before it
    /// (which made streaming one block quadratic in its replacement).
    #[test]
    fn streaming_one_large_block_costs_what_is_pushed() {
        let rewrite = |lines: usize| {
            let original = code(lines);
            let replace: String = original.lines().map(|l| format!("{l} # new\n")).collect();
            let diff = block(&original, &replace);
            let (max, total) = work(&original, &diff);
            let longest = diff.lines().map(str::len).max().unwrap_or(0);
            assert!(max <= longest + 8, "{lines} lines: {max} > {longest} + 8");
            (max, total as f64 / diff.len() as f64)
        };
        let ((small, small_ratio), (large, large_ratio)) = (rewrite(100), rewrite(10_000));
        assert!(
            large <= small + 16,
            "the largest push grew: {small} -> {large}"
        );
        assert!(
            large_ratio <= small_ratio * 1.25,
            "work per diff byte grew: {small_ratio:.2} -> {large_ratio:.2}"
        );
    }

    /// Many blocks streamed token by token: a push visits O(log blocks) of them, not all.
    #[test]
    fn streaming_many_blocks_costs_log_blocks() {
        let spread = |blocks: usize| {
            let original = code(blocks * 50);
            let lines: Vec<&str> = original.split_inclusive('\n').collect();
            let diff: String = (0..blocks)
                .map(|k| {
                    let search = lines[k * 50 + 10..k * 50 + 14].concat();
                    block(&search, &search.replace(" = ", " := "))
                })
                .collect();
            work(&original, &diff).0
        };
        let (few, many) = (spread(8), spread(512));
        // Two Fenwick walks (a prefix sum and an update) of at most log2(512) + 1 nodes each.
        assert!(
            many <= few + 2 * 10,
            "the largest push grew: {few} -> {many}"
        );
    }

    /// The prefix sums agree with plain sums after rebuilds and updates.
    #[test]
    fn region_sums_match_plain_sums() {
        let at = |n: usize| TextOffset {
            bytes: n,
            utf16: n / 2,
            chars: n / 3,
        };
        let mut shown: Vec<TextOffset> = (0..37).map(|i| at(i * 7 % 11)).collect();
        let lens: Vec<TextOffset> = (0..37).map(|i| at(i * 5 % 13)).collect();
        let mut sums = RegionSums::default();
        sums.rebuild(shown.iter().copied().zip(lens.iter().copied()));
        for step in 0..200 {
            let i = step * 17 % shown.len();
            shown[i] = at(step * 31 % 50);
            sums.set_shown(i, shown[i]);
            for count in 0..=shown.len() {
                let plain = shown[..count]
                    .iter()
                    .zip(&lens[..count])
                    .fold(Default::default(), |(s, l), (a, b)| {
                        (plus(s, *a), plus(l, *b))
                    });
                assert_eq!(sums.prefix(count), plain);
            }
        }
    }
}

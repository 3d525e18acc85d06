//! Where a V4A section goes: the input's lines, its `@@` anchors and its context, found the way
//! the reference applier finds them (the rules are in the [module docs](super#where-a-section-goes)).
//!
//! The reference scans the file line by line for every anchor and every pass of every section,
//! which costs O(sections × lines). Here each comparison key (the line, the line without
//! trailing whitespace, the line without surrounding whitespace) gets an index, built once on
//! first use: every line's key hash with its position, sorted, so the positions with one hash
//! are a run in ascending order, found by binary search. A search then visits only the
//! positions of its rarest line. The first (lowest) position still wins, so the answer
//! is the reference's; the tests check it against a naive oracle that scans as the reference
//! does.

use std::sync::OnceLock;

use crate::search::key_index::KeyIndex;
use crate::search::line_starts::{LineCheckpoints, line_starts};
use crate::text::Work;

pub(super) use crate::text::py::{rstrip as py_rstrip, strip as py_strip};

/// How two lines are compared: the reference's three passes, strictest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Key {
    /// As they are.
    Exact,
    /// Without trailing whitespace (`rstrip()`).
    TrimEnd,
    /// Without leading and trailing whitespace (`strip()`).
    Trim,
}

impl Key {
    /// The context passes, in the order they are tried.
    const PASSES: [Key; 3] = [Key::Exact, Key::TrimEnd, Key::Trim];

    /// The text this key compares.
    pub(super) fn of(self, s: &str) -> &str {
        match self {
            Key::Exact => s,
            Key::TrimEnd => py_rstrip(s),
            Key::Trim => py_strip(s),
        }
    }

    /// The reference's score for a context found with this key.
    fn fuzz(self) -> u64 {
        match self {
            Key::Exact => 0,
            Key::TrimEnd => 1,
            Key::Trim => 100,
        }
    }

    fn slot(self) -> usize {
        self as usize
    }
}

/// The score added when an `*** End of File` context is not at the end but found further up.
pub(super) const EOF_FALLBACK_FUZZ: u64 = 10_000;

/// The input as the reference sees it: `\r\n` written `\n`, split at every `\n` (so a final
/// newline leaves an empty last line).
#[derive(Clone, Debug, Default)]
pub(super) struct Input {
    text: String,
    /// Whether the input had a `\r\n` (written `\n` in `text`).
    crlf: bool,
    /// Line to byte and back, counting one block at most: enough to place the exact lines of
    /// a few sections by substring search.
    checkpoints: LineCheckpoints,
    /// Where each line starts, built once lines are read one by one; line `i` ends one byte
    /// before `starts[i + 1]` (at its `\n`), the last one at the end of `text`.
    starts: OnceLock<Vec<usize>>,
    /// One index per [`Key`], built once direct scans have compared [`Input::scan_budget`]
    /// lines: a body of one or a few sections is placed without hashing and sorting every line
    /// of the file, and one of many sections still costs O(n log n) in all.
    index: [Option<KeyIndex>; 3],
    /// Lines compared by direct scans so far.
    scanned: usize,
}

/// Where an anchor was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AnchorFound {
    /// Equal to a line before the cursor, which stays where it is.
    BeforeCursor,
    /// On this line at or after the cursor, compared with this key.
    At(usize, Key),
    /// Nowhere it may be.
    Missing,
}

impl Input {
    pub(super) fn new(input: &str) -> Self {
        let crlf = memchr::memmem::find(input.as_bytes(), b"\r\n").is_some();
        let text = if crlf {
            input.replace("\r\n", "\n")
        } else {
            input.to_owned()
        };
        Input {
            checkpoints: LineCheckpoints::new(text.as_bytes()),
            text,
            crlf,
            starts: OnceLock::new(),
            index: Default::default(),
            scanned: 0,
        }
    }

    /// The line ending the reference joins the output with: `\r\n` when the input had one,
    /// `\n` when it had only `\n`, none for an input of one line.
    pub(super) fn newline(&self) -> Option<&'static str> {
        (self.len() > 1).then_some(if self.crlf { "\r\n" } else { "\n" })
    }

    /// How many lines direct scans may compare before the indexes are built: twice the file.
    fn scan_budget(&self) -> usize {
        2 * self.len()
    }

    /// Whether a lookup under `key` scans directly (its index is not built and the budget is
    /// not spent).
    fn scans(&self, key: Key) -> bool {
        self.index[key.slot()].is_none() && self.scanned < self.scan_budget()
    }

    /// The length of the text, in bytes.
    pub(super) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The number of lines (the reference's `len(input.split("\n"))`, at least 1).
    pub(super) fn len(&self) -> usize {
        self.checkpoints.newlines() + 1
    }

    /// Every line's start (built on first use).
    fn starts(&self) -> &[usize] {
        self.starts.get_or_init(|| line_starts(&self.text))
    }

    /// Where line `i` starts, from the line starts when they are built, else by counting.
    fn line_start(&self, i: usize) -> usize {
        match self.starts.get() {
            Some(starts) => starts[i],
            None => self.checkpoints.start_of(self.text.as_bytes(), i),
        }
    }

    /// The line byte `offset` is on.
    fn line_of(&self, offset: usize) -> usize {
        match self.starts.get() {
            Some(starts) => starts.partition_point(|&s| s <= offset) - 1,
            None => self.checkpoints.line_of(self.text.as_bytes(), offset),
        }
    }

    /// Whether the last line is empty (the input ends with a newline, or is empty).
    pub(super) fn ends_with_newline(&self) -> bool {
        self.text.is_empty() || self.text.ends_with('\n')
    }

    /// Line `i` without its `\n` (the lines are read one by one: this builds every start).
    pub(super) fn line(&self, i: usize) -> &str {
        let starts = self.starts();
        let end = starts.get(i + 1).map_or(self.text.len(), |&next| next - 1);
        &self.text[starts[i]..end]
    }

    /// Builds the index of `key` unless it is built.
    fn ensure_index(&mut self, key: Key) {
        let slot = key.slot();
        if self.index[slot].is_some() {
            return;
        }
        Work::V4a.charge(self.len());
        self.index[slot] = Some(KeyIndex::new((0..self.len()).map(|i| key.of(self.line(i)))));
    }

    /// The index of `key`, once [`ensure_index`](Self::ensure_index) built it.
    fn built(&self, key: Key) -> Option<&KeyIndex> {
        self.index[key.slot()].as_ref()
    }

    /// The text of lines `range` joined with `\n`, as one slice of the input.
    pub(super) fn lines_text(&self, range: std::ops::Range<usize>) -> &str {
        if range.is_empty() {
            return "";
        }
        let end = if range.end < self.len() {
            self.line_start(range.end) - 1
        } else {
            self.text.len()
        };
        &self.text[self.line_start(range.start)..end]
    }

    /// The first position `p` in `from..=last` where the lines `p..` are `block` (lines joined
    /// with `\n`) exactly: one substring search over the text, each hit kept only when it
    /// starts and ends at line boundaries, a rejected one resumed from the next line. Charges
    /// the lines passed, as a line-by-line scan would.
    fn first_exact(&mut self, block: &str, from: usize, last: usize) -> Option<usize> {
        if from > last || from >= self.len() {
            return None;
        }
        let bytes = self.text.as_bytes();
        let finder = memchr::memmem::Finder::new(block.as_bytes());
        let mut at = self.line_start(from);
        let found = loop {
            let Some(hit) = finder.find(&bytes[at..]).map(|off| at + off) else {
                break None;
            };
            let starts_line = hit == 0 || bytes[hit - 1] == b'\n';
            let end = hit + block.len();
            let ends_line = end == bytes.len() || bytes[end] == b'\n';
            if starts_line && ends_line {
                let p = self.line_of(hit);
                break (p <= last).then_some(p);
            }
            match memchr::memchr(b'\n', &bytes[hit..]) {
                Some(off) => at = hit + off + 1,
                None => break None,
            }
        };
        let passed = found.map_or(self.len(), |p| p + 1).saturating_sub(from);
        Work::V4a.charge(passed);
        self.scanned += passed;
        found
    }

    /// The first line at or after `from` whose `key` equals `target`.
    fn first_line(&mut self, key: Key, target: &str, from: usize) -> Option<usize> {
        if key == Key::Exact && self.scans(key) && !target.contains('\n') {
            return self.first_exact(target, from, self.len().saturating_sub(1));
        }
        if self.scans(key) {
            let found = (from..self.len()).find(|&i| {
                Work::V4a.charge(1);
                key.of(self.line(i)) == target
            });
            self.scanned += found.map_or(self.len(), |i| i + 1).saturating_sub(from);
            return found;
        }
        self.ensure_index(key);
        self.built(key)?.positions(target, from).find(|&i| {
            Work::V4a.charge(1);
            key.of(self.line(i)) == target
        })
    }

    /// Finds one `@@` anchor from `cursor`: an exact line first, then one equal once both are
    /// stripped of surrounding whitespace. Unless `forward_only`, a line before the cursor
    /// counts too (and the cursor stays).
    pub(super) fn find_anchor(
        &mut self,
        anchor: &str,
        cursor: usize,
        forward_only: bool,
    ) -> AnchorFound {
        for key in [Key::Exact, Key::Trim] {
            let target = key.of(anchor);
            let first = if forward_only {
                None
            } else {
                self.first_line(key, target, 0)
            };
            match first {
                Some(i) if i < cursor => return AnchorFound::BeforeCursor,
                // The first anywhere is at or after the cursor: it is the first from there.
                Some(i) => return AnchorFound::At(i, key),
                None if forward_only => {
                    if let Some(i) = self.first_line(key, target, cursor) {
                        return AnchorFound::At(i, key);
                    }
                }
                None => {}
            }
        }
        AnchorFound::Missing
    }

    /// Where `context` is, at or after `start`, and the reference's score for it: the first
    /// position in the first pass that finds one. With `eof`, the end of the input is tried
    /// first, then the search runs as usual but scores [`EOF_FALLBACK_FUZZ`] more; both times
    /// the empty line after a final newline is not part of the input.
    pub(super) fn find_context(
        &mut self,
        context: &[String],
        start: usize,
        eof: bool,
    ) -> Option<(usize, u64)> {
        let n = self.len();
        if !eof {
            return self.find_from(context, start, n);
        }
        let limit = if self.ends_with_newline() { n - 1 } else { n };
        let end = limit.saturating_sub(context.len());
        if let Some(found) = self.find_from(context, end, limit) {
            return Some(found);
        }
        self.find_from(context, start.min(limit), limit)
            .map(|(at, fuzz)| (at, fuzz + EOF_FALLBACK_FUZZ))
    }

    /// [`find_context`](Self::find_context) without the end-of-file rule, among the first
    /// `limit` lines.
    fn find_from(
        &mut self,
        context: &[String],
        start: usize,
        limit: usize,
    ) -> Option<(usize, u64)> {
        if context.is_empty() {
            return Some((start, 0));
        }
        Key::PASSES.into_iter().find_map(|key| {
            self.find_with(key, context, start, limit)
                .map(|at| (at, key.fuzz()))
        })
    }

    /// The first position `p >= start`, with `p + context.len() <= limit`, where every line of
    /// `context` equals the input's line `p + j` under `key`. Only the positions of the context line with the fewest candidates
    /// are visited.
    fn find_with(
        &mut self,
        key: Key,
        context: &[String],
        start: usize,
        limit: usize,
    ) -> Option<usize> {
        let k = context.len();
        if start + k > limit {
            return None;
        }
        let last = limit - k;
        if key == Key::Exact && self.scans(key) && context.iter().all(|l| !l.contains('\n')) {
            return self.first_exact(&context.join("\n"), start, last);
        }
        if self.scans(key) {
            let mut compared = 0;
            let found = (start..=last).find(|&p| {
                context.iter().enumerate().all(|(o, want)| {
                    Work::V4a.charge(1);
                    compared += 1;
                    key.of(self.line(p + o)) == key.of(want)
                })
            });
            self.scanned += compared;
            return found;
        }
        self.ensure_index(key);
        // (candidates at or after their place, line of the context)
        let mut rarest = (usize::MAX, 0);
        for (j, line) in context.iter().enumerate() {
            let count = self.built(key)?.count(key.of(line), start + j);
            Work::V4a.charge(1);
            if count < rarest.0 {
                rarest = (count, j);
            }
        }
        let j = rarest.1;
        self.built(key)?
            .positions(key.of(&context[j]), start + j)
            .map(|i| i - j)
            .take_while(|&p| p <= last)
            .find(|&p| {
                context.iter().enumerate().all(|(o, want)| {
                    Work::V4a.charge(1);
                    key.of(self.line(p + o)) == key.of(want)
                })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive oracle: the reference's scans, line by line, with nothing indexed.
    mod naive {
        use super::super::Key;
        use crate::text::py::strip;

        fn core(lines: &[&str], context: &[&str], start: usize) -> Option<(usize, u64)> {
            if context.is_empty() {
                return Some((start, 0));
            }
            for (key, fuzz) in [(Key::Exact, 0), (Key::TrimEnd, 1), (Key::Trim, 100)] {
                for i in start..lines.len() {
                    if i + context.len() <= lines.len()
                        && context
                            .iter()
                            .enumerate()
                            .all(|(o, c)| key.of(lines[i + o]) == key.of(c))
                    {
                        return Some((i, fuzz));
                    }
                }
            }
            None
        }

        pub(super) fn find_context(
            lines: &[&str],
            context: &[&str],
            start: usize,
            eof: bool,
        ) -> Option<(usize, u64)> {
            if eof {
                let lines = match lines.split_last() {
                    Some((&"", rest)) => rest,
                    _ => lines,
                };
                let end = lines.len().saturating_sub(context.len());
                if let Some(found) = core(lines, context, end) {
                    return Some(found);
                }
                let start = start.min(lines.len());
                return core(lines, context, start).map(|(i, f)| (i, f + 10_000));
            }
            core(lines, context, start)
        }

        /// `(cursor, found, fuzz)` as the reference's `_advance_cursor_to_anchor` leaves them.
        pub(super) fn anchor(
            lines: &[&str],
            anchor: &str,
            mut cursor: usize,
            forward_only: bool,
        ) -> (usize, bool, u64) {
            let mut found = false;
            let mut fuzz = 0;
            if !forward_only && lines[..cursor].contains(&anchor) {
                found = true;
            } else if let Some(i) = (cursor..lines.len()).find(|&i| lines[i] == anchor) {
                cursor = i + 1;
                found = true;
            }
            if !found {
                if !forward_only && lines[..cursor].iter().any(|l| strip(l) == strip(anchor)) {
                    found = true;
                } else if let Some(i) =
                    (cursor..lines.len()).find(|&i| strip(lines[i]) == strip(anchor))
                {
                    cursor = i + 1;
                    fuzz = 1;
                    found = true;
                }
            }
            (cursor, found, fuzz)
        }
    }

    fn anchor(input: &mut Input, anchor: &str, cursor: usize, forward: bool) -> (usize, bool, u64) {
        match input.find_anchor(anchor, cursor, forward) {
            AnchorFound::BeforeCursor => (cursor, true, 0),
            AnchorFound::At(i, key) => (i + 1, true, u64::from(key == Key::Trim)),
            AnchorFound::Missing => (cursor, false, 0),
        }
    }

    #[test]
    fn python_whitespace_includes_the_separators() {
        assert_eq!(py_strip("\u{1c} a\u{3000}\u{85}"), "a");
        assert_eq!(py_rstrip(" a \u{1f}"), " a");
        assert_eq!(py_strip("\u{200b}a"), "\u{200b}a");
    }

    #[test]
    fn lines_follow_python_split() {
        let input = Input::new("a\r\nb\rc\n");
        let lines: Vec<&str> = (0..input.len()).map(|i| input.line(i)).collect();
        assert_eq!(lines, ["a", "b\rc", ""]);
        assert_eq!(Input::new("").len(), 1);
    }

    #[test]
    fn passes_prefer_strictness_over_position() {
        let mut input = Input::new("foo \nbar\nfoo\nbar\n");
        let ctx = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            input.find_context(&ctx(&["foo", "bar"]), 0, false),
            Some((2, 0))
        );
        assert_eq!(input.find_context(&ctx(&["foo", "bar"]), 3, false), None);
        // At the end, the empty line after the final newline is not a line.
        assert_eq!(
            input.find_context(&ctx(&["foo", "bar"]), 0, true),
            Some((2, 0))
        );
        assert_eq!(input.find_context(&ctx(&["bar", ""]), 0, true), None);
        assert_eq!(
            input.find_context(&ctx(&["foo"]), 1, true),
            Some((2, EOF_FALLBACK_FUZZ))
        );
        assert_eq!(input.find_context(&[], 2, false), Some((2, 0)));
        assert_eq!(input.find_context(&[], 2, true), Some((4, 0)));
    }

    #[test]
    fn cost_stays_linear_in_the_number_of_sections() {
        // 20,000 distinct lines and 2,000 sections, each found by trimming (so the exact pass
        // fails first): the reference's scans would cost about 2,000 × 20,000 × 2 comparisons.
        let text: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
        let mut input = Input::new(&text);
        Work::V4a.take();
        let mut cursor = 0;
        for s in 0..2_000 {
            let ctx = vec![
                format!("  line {}", s * 10),
                format!("line {} ", s * 10 + 1),
            ];
            let (at, fuzz) = input.find_context(&ctx, cursor, false).unwrap();
            assert_eq!((at, fuzz), (s * 10, 100));
            cursor = at + 2;
            assert!(
                matches!(input.find_anchor(&format!("line {}", s * 10 + 5), cursor, false), AnchorFound::At(i, Key::Exact) if i == s * 10 + 5)
            );
        }
        let work = Work::V4a.take();
        assert!(work < 200_000, "{work} units of work");
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_the_naive_oracle(
            lines in proptest::collection::vec("[ ab\t]{0,3}", 1..9),
            context in proptest::collection::vec("[ ab\t]{0,3}", 0..3),
            anchor_text in "[ ab]{0,3}",
            start in 0usize..10,
            eof: bool,
            forward: bool,
        ) {
            let text = lines.join("\n");
            let mut input = Input::new(&text);
            let owned: Vec<String> = (0..input.len()).map(|i| input.line(i).to_owned()).collect();
            let l: Vec<&str> = owned.iter().map(String::as_str).collect();
            let start = start.min(l.len());
            let c: Vec<&str> = context.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(
                input.find_context(&context, start, eof),
                naive::find_context(&l, &c, start, eof)
            );
            if !py_strip(&anchor_text).is_empty() {
                proptest::prop_assert_eq!(
                    anchor(&mut input, &anchor_text, start, forward),
                    naive::anchor(&l, &anchor_text, start, forward)
                );
            }
        }
    }
}

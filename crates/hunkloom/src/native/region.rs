//! A placed block's region: the original lines it replaces and the replacement shown so far.
//!
//! The replacement grows line by line as the diff streams in: committed lines (each with the
//! region's line ending, re-indented when the block needs it) plus the displayed part of the
//! incomplete last line. This module owns how a region is displayed; where it sits in the
//! preview is the piece table's business (see [`pieces`](super::pieces)).

use std::borrow::Cow;

use super::normalize::indent_of;
use super::tiers::Located;
use crate::text::tracked::TrackedText;
use crate::text::{Position, TextOffset, Work};

/// Appends `s` to a splice or a preview being built, counting each byte copied.
pub(super) fn append(out: &mut String, s: &str) {
    Work::Stream.charge(s.len());
    out.push_str(s);
}

/// A placed block: the region of the original it replaces and the replacement shown so far.
#[derive(Clone, Debug)]
pub(super) struct Region {
    /// Where and how the SEARCH text matched.
    pub(super) at: Located,
    /// The region's start in the original.
    pub(super) start: Position,
    /// The region's end in the original.
    pub(super) end: Position,
    /// The region's length in the original.
    len: TextOffset,
    /// The ending of every replacement line but the last.
    eol: &'static str,
    /// The ending of the last replacement line (the region's last line's ending).
    eol_last: &'static str,
    /// The indentation of the region's first non-blank line.
    region_indent: String,
    /// Whether the replacement is shifted by the indentation map (decided at its first
    /// non-blank line).
    reindent: Option<bool>,
    /// The complete replacement lines, as displayed.
    committed: TrackedText,
    /// Bytes of the line ending after the last committed line.
    last_eol: usize,
    /// The number of committed lines.
    lines: usize,
    /// The displayed part of the incomplete REPLACE line.
    tentative: String,
    /// A region withdrawn (malformed after placement), or not yet shown, shows the original
    /// text.
    active: bool,
}

impl Region {
    /// The region `at` matched, spanning `start..end` of `original`, with nothing of its
    /// replacement yet and not yet shown.
    pub(super) fn new(original: &str, at: Located, start: Position, end: Position) -> Self {
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
        }
    }

    /// Whether the region shows its replacement (rather than the original text).
    pub(super) fn is_active(&self) -> bool {
        self.active
    }

    /// Shows the replacement from now on.
    pub(super) fn activate(&mut self) {
        self.active = true;
    }

    /// Shows the original text again (the block turned out malformed).
    pub(super) fn withdraw(&mut self) {
        self.active = false;
    }

    /// The region's length in the original.
    pub(super) fn original_len(&self) -> TextOffset {
        self.len
    }

    /// The length of what the region shows now.
    pub(super) fn display_len(&self) -> TextOffset {
        if self.active {
            self.committed.end().add(TextOffset::of(&self.tentative))
        } else {
            self.len
        }
    }

    /// The length of the displayed text a later append leaves alone: the committed lines of
    /// an active region, nothing of an inactive one.
    pub(super) fn stable_len(&self) -> TextOffset {
        if self.active {
            self.committed.end()
        } else {
            TextOffset::default()
        }
    }

    /// Whether the replacement was shifted by the indentation map.
    pub(super) fn reindented(&self) -> bool {
        self.reindent == Some(true)
    }

    /// The displayed part of the incomplete REPLACE line.
    pub(super) fn tentative(&self) -> &str {
        &self.tentative
    }

    /// Displays `shown` as the incomplete REPLACE line.
    pub(super) fn set_tentative(&mut self, shown: String) {
        self.tentative = shown;
    }

    /// How the incomplete REPLACE line `line` is displayed (re-indented if the block is, or
    /// would be if `line` were its first non-blank line).
    pub(super) fn render_tentative<'l>(&self, line: &'l str) -> Cow<'l, str> {
        let reindent = self.reindent.unwrap_or_else(|| self.wants_reindent(line));
        self.render(line, reindent)
    }

    /// Appends a complete REPLACE line, with the region's line ending.
    pub(super) fn commit_line(&mut self, line: &str) {
        if self.reindent.is_none() && !line.trim().is_empty() {
            self.reindent = Some(self.wants_reindent(line));
        }
        let rendered = self.render(line, self.reindent == Some(true)).into_owned();
        self.committed.push_str(&rendered);
        self.committed.push_str(self.eol);
        self.last_eol = self.eol.len();
        self.lines += 1;
        self.tentative.clear();
    }

    /// Ends the replacement: drops the incomplete line and gives the last line the region's
    /// last line ending. When that rewrote the end of the committed text, the length of the
    /// display still unchanged.
    pub(super) fn end_replacement(&mut self) -> Option<TextOffset> {
        self.tentative.clear();
        if self.lines == 0 || self.eol_last == self.eol {
            return None;
        }
        let cut = self.committed.len() - self.last_eol;
        self.committed.truncate(cut);
        self.committed.push_str(self.eol_last);
        Some(self.committed.end().sub(TextOffset::of(self.eol_last)))
    }

    /// Appends the displayed text from byte `keep` on to `out`, copying nothing before it.
    pub(super) fn write_from(&self, original: &str, keep: usize, out: &mut String) {
        if !self.active {
            let shown = &original[self.start.bytes..self.end.bytes];
            return append(out, &shown[keep..]);
        }
        let committed = self.committed.as_str();
        match keep.checked_sub(committed.len()) {
            None => {
                append(out, &committed[keep..]);
                append(out, &self.tentative);
            }
            Some(into) => append(out, &self.tentative[into..]),
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

//! The new text, built as sections are placed: runs of the input's lines and added lines,
//! joined with one line ending (the reference's `_apply_chunks`).

use std::ops::Range;

use super::locate::Input;
use crate::error::{Error, ErrorKind};
use crate::report::Update;
use crate::text::TextOffset;

/// One change of a section, placed in the input: `removed` lines at `at` become `added`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Chunk {
    /// The input line where it applies.
    pub(super) at: usize,
    /// How many lines it removes.
    pub(super) removed: usize,
    /// The lines it adds there.
    pub(super) added: Vec<String>,
}

/// A piece of the new text: a run of input lines or an added line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Input(Range<usize>),
    Added(String),
}

/// The new text so far. A chunk before the end of the previous one stops the building; the
/// reference reports that only once the whole diff is read (a later parse error wins), so the
/// error waits in [`error`](Self::error).
#[derive(Clone, Debug, Default)]
pub(super) struct Output {
    pieces: Vec<Piece>,
    /// Input lines before this one are placed.
    cursor: usize,
    error: Option<Error>,
}

impl Output {
    /// Places `chunk` (in the order sections come).
    pub(super) fn place(&mut self, chunk: Chunk, input_len: usize) {
        if self.error.is_some() {
            return;
        }
        let message = if chunk.at > input_len {
            format!(
                "applyDiff: chunk.origIndex {} > input length {input_len}",
                chunk.at
            )
        } else if self.cursor > chunk.at {
            format!(
                "applyDiff: overlapping chunk at {} (cursor {})",
                chunk.at, self.cursor
            )
        } else {
            if chunk.at > self.cursor {
                self.pieces.push(Piece::Input(self.cursor..chunk.at));
            }
            self.pieces
                .extend(chunk.added.into_iter().map(Piece::Added));
            self.cursor = chunk.at + chunk.removed;
            return;
        };
        self.error = Some(Error::new(ErrorKind::OverlappingBlocks, message));
    }

    /// The error a misplaced chunk left, if any.
    pub(super) fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// The text: the pieces, then the input's lines after the last chunk, joined with
    /// `newline`.
    pub(super) fn finish(mut self, input: &Input, newline: &str) -> String {
        let n = input.len();
        if self.cursor < n {
            self.pieces.push(Piece::Input(self.cursor..n));
        }
        let mut out = String::with_capacity(input.text_len() + input.len() + 64);
        let mut first = true;
        let mut push = |line: &str| {
            if !first {
                out.push_str(newline);
            }
            first = false;
            out.push_str(line);
        };
        for piece in &self.pieces {
            match piece {
                // The input's lines are joined with `\n` already: a run is one slice.
                Piece::Input(lines) if newline == "\n" && !lines.is_empty() => {
                    push(input.lines_text(lines.clone()));
                }
                Piece::Input(lines) => lines.clone().for_each(|i| push(input.line(i))),
                Piece::Added(line) => push(line),
            }
        }
        out
    }
}

/// What a preview of the text last showed, so the next change is one splice computed from the
/// pieces placed since, not from the whole text ([`Output::update`]).
#[derive(Clone, Debug, Default)]
pub(super) struct Shown {
    /// Pieces shown before the input's remaining lines, their line count, and the length of
    /// their text with a line ending after each line.
    pieces: usize,
    lines: usize,
    before: TextOffset,
    /// The input line the remaining lines start at.
    cursor: usize,
    /// The line ending the lines were joined with.
    newline: &'static str,
}

impl Shown {
    /// The input as it is, joined with `newline`.
    pub(super) fn new(newline: &'static str) -> Shown {
        Shown {
            newline,
            ..Shown::default()
        }
    }

    /// The text shown, as one splice from nothing: after a change of line ending, the caller
    /// replaces all of it. `input` is the input's remaining lines' source; `text` the text
    /// now, which `shown` shows from here on.
    pub(super) fn replace_all(
        &mut self,
        input: &Input,
        output: &Output,
        text: String,
        newline: &'static str,
    ) -> Update<'static> {
        let old_newline = self.newline;
        let tail = self.cursor..input.len().max(self.cursor);
        let count = self.lines + tail.len();
        let mut removed = self.before.sub(endings(old_newline, self.lines));
        for i in tail {
            removed = removed + TextOffset::of(input.line(i));
        }
        removed = removed + endings(old_newline, count.saturating_sub(1));
        // Shown anew: the pieces placed, then the input's remaining lines.
        let mut before = TextOffset::default();
        let mut lines = 0;
        for piece in &output.pieces {
            match piece {
                Piece::Input(range) => {
                    for i in range.clone() {
                        before = before + TextOffset::of(input.line(i)) + endings(newline, 1);
                        lines += 1;
                    }
                }
                Piece::Added(line) => {
                    before = before + TextOffset::of(line) + endings(newline, 1);
                    lines += 1;
                }
            }
        }
        *self = Shown {
            pieces: output.pieces.len(),
            lines,
            before,
            cursor: output.cursor,
            newline,
        };
        Update {
            removed,
            inserted: std::borrow::Cow::Owned(text),
            ..Update::default()
        }
    }

    /// For a created file: the splice that adds its lines from the `lines` shown on, joined
    /// with `newline`; `None` if the line ending changed.
    pub(super) fn created(
        &mut self,
        lines: &[String],
        newline: &'static str,
    ) -> Option<Update<'static>> {
        if self.newline != newline {
            return None;
        }
        let new: Vec<&str> = lines[self.lines..].iter().map(String::as_str).collect();
        let update = replace_lines(
            (self.lines, self.before),
            self.lines,
            std::iter::empty(),
            &new,
            newline,
        );
        for line in &new {
            self.before = self.before + TextOffset::of(line) + endings(newline, 1);
        }
        self.lines = lines.len();
        Some(update)
    }

    /// After a change of line ending in a created file: the splice that replaces all of it
    /// with `lines` joined with `newline`.
    pub(super) fn created_anew(
        &mut self,
        lines: &[String],
        newline: &'static str,
    ) -> Update<'static> {
        let removed = self.before.sub(endings(self.newline, self.lines.min(1)));
        *self = Shown::new(newline);
        let mut update = self.created(lines, newline).unwrap_or_default();
        update.removed = removed;
        update
    }
}

/// `n` line endings `newline` (ASCII: one unit each).
fn endings(newline: &str, n: usize) -> TextOffset {
    let units = newline.len() * n;
    TextOffset {
        bytes: units,
        utf16: units,
        chars: units,
    }
}

/// Lines joined with `newline`, as a list `[0, i)` of `lines` lines was shown with
/// `before` (the lines' length, a line ending after each) is replaced by `new`, where the
/// whole list had `total` lines: the splice, measured from the lines `old`.
fn replace_lines<'a>(
    before: (usize, TextOffset),
    total: usize,
    old: impl Iterator<Item = &'a str>,
    new: &[&str],
    newline: &str,
) -> Update<'static> {
    let (shown_lines, before) = before;
    let mut old_len = TextOffset::default();
    let mut old_count = 0;
    for line in old {
        old_len = old_len + TextOffset::of(line);
        old_count += 1;
    }
    let mut inserted = String::new();
    // With lines after the replaced ones, each line keeps its ending; at the end of the text
    // the ending goes before each line instead (the text does not end with one).
    let (start, removed) = if shown_lines + old_count < total {
        for line in new {
            inserted.push_str(line);
            inserted.push_str(newline);
        }
        (before, old_len + endings(newline, old_count))
    } else if shown_lines > 0 {
        for line in new {
            inserted.push_str(newline);
            inserted.push_str(line);
        }
        (
            before.sub(endings(newline, 1)),
            old_len + endings(newline, old_count),
        )
    } else {
        inserted = new.join(newline);
        (
            TextOffset::default(),
            old_len + endings(newline, old_count.saturating_sub(1)),
        )
    };
    Update {
        start,
        removed,
        inserted: std::borrow::Cow::Owned(inserted),
        ..Update::default()
    }
}

impl Output {
    /// The splice that turns the text as `shown` last showed it (joined with `newline`) into
    /// the text now, updating `shown`: the pieces placed since replace the input lines they
    /// covered. Costs those lines and pieces, not the text. `None` if the line ending changed
    /// (the whole text changes: the caller shows it anew).
    pub(super) fn update(
        &self,
        shown: &mut Shown,
        input: &Input,
        newline: &'static str,
    ) -> Option<Update<'static>> {
        if shown.newline != newline {
            return None;
        }
        let fresh = self.pieces.get(shown.pieces..).unwrap_or_default();
        let mut new: Vec<&str> = Vec::new();
        for piece in fresh {
            match piece {
                Piece::Input(lines) => new.extend(lines.clone().map(|i| input.line(i))),
                Piece::Added(line) => new.push(line),
            }
        }
        let (from, to) = (shown.cursor, self.cursor.max(shown.cursor));
        let total = shown.lines + input.len() - from;
        let update = replace_lines(
            (shown.lines, shown.before),
            total,
            (from..to).map(|i| input.line(i)),
            &new,
            newline,
        );
        shown.pieces = self.pieces.len();
        shown.cursor = to;
        shown.lines += new.len();
        for line in &new {
            shown.before = shown.before + TextOffset::of(line) + endings(newline, 1);
        }
        Some(update)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_splice_lines_and_overlaps_wait() {
        let input = Input::new("a\nb\nc\n");
        let mut out = Output::default();
        out.place(
            Chunk {
                at: 1,
                removed: 1,
                added: vec!["B".into(), "B2".into()],
            },
            input.len(),
        );
        assert!(out.error().is_none());
        assert_eq!(out.clone().finish(&input, "\r\n"), "a\r\nB\r\nB2\r\nc\r\n");
        out.place(Chunk::default(), input.len());
        assert_eq!(
            out.error().map(Error::message),
            Some("applyDiff: overlapping chunk at 0 (cursor 2)")
        );
    }
}

//! The new text, built as sections are placed: runs of the input's lines and added lines,
//! joined with one line ending (the reference's `_apply_chunks`).

use std::ops::Range;

use super::locate::Input;
use crate::error::{Error, ErrorKind};

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
        let mut out = String::new();
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
                Piece::Input(lines) => lines.clone().for_each(|i| push(input.line(i))),
                Piece::Added(line) => push(line),
            }
        }
        out
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

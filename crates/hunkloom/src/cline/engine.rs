//! Incremental evaluation of a Cline dialect over a streamed diff.
//!
//! Cline re-runs its whole line loop on every prefix. The result for a prefix depends on the
//! complete lines (each processed once here, in order, and then *committed*) and on the last,
//! incomplete line (*tentative*), whose effect is recomputed on each push and withdrawn when the
//! line completes differently. So the output buffer is always `committed output ++ tentative
//! output`, and the work per push is proportional to the pushed text:
//!
//! - A tentative content line that is written to the output (`line + "\n"`) grows in place: the
//!   `\n` is popped, the new text and a `\n` appended.
//! - A tentative marker line is evaluated on a copy of the committed state; when the line
//!   completes as the same marker, that copy becomes the committed state, so nothing is redone.
//!   A marker's effect depends only on which marker it is, so a line like `=======` that keeps
//!   growing is evaluated once.
//! - An error from a complete line is sticky (every longer prefix hits the same line); an error
//!   from the tentative line is withdrawn with it.

use super::machine::{LineKind, Machine};
use super::output::Output;
use super::sink::{BlockRecord, Sink};
use crate::blocks::{Marker, MarkerScanner};
use crate::error::{Error, Result};
use crate::matching::Haystack;
use crate::policy::PreviewForm;
use crate::text::TextOffset;

/// The effect of the incomplete last line on the output.
#[derive(Clone, Debug)]
enum Tentative {
    /// Nothing of it is in the output.
    Nothing,
    /// A content line: the output ends with `line + "\n"`.
    Emitting,
    /// A marker line, evaluated on a copy of the committed state (its output follows the
    /// committed output; on error nothing was written).
    Marker {
        marker: Marker,
        outcome: Result<Box<Machine>, Error>,
    },
}

/// What a push did to the output, for building a splice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PushEffect {
    /// The first offset of the output that changed (the end of the old output if none did).
    pub(crate) changed_from: TextOffset,
    /// The end of the output before the push.
    pub(crate) old_end: TextOffset,
    /// How many blocks were committed before the push.
    pub(crate) old_committed_blocks: usize,
}

/// The final state of a diff.
pub(crate) struct Finished {
    pub(crate) content: Output,
    pub(crate) blocks: Vec<BlockRecord>,
    /// Indices into `blocks` in Cline's `matchIndices` order.
    pub(crate) order: Vec<usize>,
}

/// A Cline dialect applied to a diff that arrives in pieces. Owns all its state except the
/// original text and its indexes, which every call borrows as a [`Haystack`] (the owner keeps
/// them).
#[derive(Clone, Debug)]
pub(crate) struct Engine {
    machine: Machine,
    /// Committed output followed by the tentative line's output (Cline's partial `newContent`).
    out: Output,
    committed_len: usize,
    /// Committed blocks followed by one the tentative line completed, if any.
    blocks: Vec<BlockRecord>,
    committed_blocks: usize,
    /// The incomplete last line and its marker scan.
    line: String,
    scanner: MarkerScanner,
    tentative: Tentative,
    /// A sticky error from a complete line.
    error: Option<Error>,
    /// Whether the partial output is built (a one-shot final v1 call never reads it).
    emit: bool,
}

impl Engine {
    /// An engine for `machine`. `build_preview` is false only for a one-shot final call in a
    /// dialect whose final content does not derive from the partial output. `expected_len` sizes
    /// the output buffer once (the preview of an edit is usually about as long as the file), so
    /// it is not copied as it grows. `form` is how the output is kept.
    pub(crate) fn new(
        machine: Machine,
        build_preview: bool,
        expected_len: usize,
        form: PreviewForm,
    ) -> Self {
        let emit = build_preview || machine.final_uses_output();
        let capacity = if emit {
            expected_len + expected_len / 8
        } else {
            0
        };
        Engine {
            machine,
            out: Output::new(form, capacity),
            committed_len: 0,
            blocks: Vec::new(),
            committed_blocks: 0,
            line: String::new(),
            scanner: MarkerScanner::default(),
            tentative: Tentative::Nothing,
            error: None,
            emit,
        }
    }

    /// Feeds the next piece of the diff.
    pub(crate) fn push(&mut self, hay: &Haystack<'_>, chunk: &str) -> PushEffect {
        let old_end = self.out.end();
        let mut effect = PushEffect {
            changed_from: old_end,
            old_end,
            old_committed_blocks: self.committed_blocks,
        };
        if self.error.is_some() {
            return effect;
        }
        let mut rest = chunk;
        while let Some(nl) = memchr::memchr(b'\n', rest.as_bytes()) {
            self.complete_line(&rest[..nl], hay, &mut effect);
            rest = &rest[nl + 1..];
            if self.error.is_some() {
                return effect;
            }
        }
        self.extend_last_line(rest, hay, &mut effect);
        effect
    }

    /// The line being streamed ended: commit its effect.
    fn complete_line(&mut self, piece: &str, hay: &Haystack<'_>, effect: &mut PushEffect) {
        self.line.push_str(piece);
        self.scanner.feed(piece);
        let kind = Machine::classify_complete(&self.scanner);
        match (
            std::mem::replace(&mut self.tentative, Tentative::Nothing),
            kind,
        ) {
            (Tentative::Emitting, LineKind::Content) => {
                self.grow_emitted_line(piece, hay, effect);
                let emits = self.machine.content(&self.line);
                debug_assert!(emits);
            }
            (Tentative::Marker { marker, outcome }, LineKind::Marker(m)) if marker == m => {
                match outcome {
                    Ok(machine) => self.machine = *machine,
                    Err(e) => self.error = Some(e),
                }
            }
            _ => {
                self.revert(hay, effect);
                self.apply(kind, hay);
            }
        }
        self.committed_len = self.out.len();
        self.committed_blocks = self.blocks.len();
        self.line.clear();
        self.scanner = MarkerScanner::default();
    }

    /// The incomplete last line grew by `piece` (possibly nothing): recompute its effect.
    fn extend_last_line(&mut self, piece: &str, hay: &Haystack<'_>, effect: &mut PushEffect) {
        self.line.push_str(piece);
        self.scanner.feed(piece);
        let kind = self.machine.classify_last(&self.scanner);
        match (&self.tentative, kind) {
            (Tentative::Emitting, LineKind::Content) => self.grow_emitted_line(piece, hay, effect),
            (Tentative::Marker { marker, .. }, LineKind::Marker(m)) if *marker == m => {}
            _ => {
                self.revert(hay, effect);
                self.tentative = self.evaluate(kind, hay, effect);
            }
        }
    }

    /// The output ends with `line + "\n"`; make it `line + piece + "\n"`.
    fn grow_emitted_line(&mut self, piece: &str, hay: &Haystack<'_>, effect: &mut PushEffect) {
        if piece.is_empty() {
            return;
        }
        self.out.truncate(self.out.len() - 1, hay);
        effect.changed_from = effect.changed_from.min(self.out.end());
        self.out.push_str(piece);
        self.out.push_str("\n");
    }

    /// Withdraws the tentative line's output and blocks.
    fn revert(&mut self, hay: &Haystack<'_>, effect: &mut PushEffect) {
        if self.out.len() > self.committed_len {
            self.out.truncate(self.committed_len, hay);
            effect.changed_from = effect.changed_from.min(self.out.end());
        }
        self.blocks.truncate(self.committed_blocks);
        self.tentative = Tentative::Nothing;
    }

    /// Processes the complete line `self.line` on the committed state.
    fn apply(&mut self, kind: LineKind, hay: &Haystack<'_>) {
        match kind {
            LineKind::Content => {
                if self.machine.content(&self.line) && self.emit {
                    self.out.push_str(&self.line);
                    self.out.push_str("\n");
                }
            }
            LineKind::Marker(marker) => {
                let mut sink = Sink {
                    out: &mut self.out,
                    blocks: &mut self.blocks,
                    emit: self.emit,
                };
                if let Err(e) = self.machine.marker(marker, hay, &mut sink) {
                    self.error = Some(e);
                }
            }
            LineKind::Dropped => {}
        }
    }

    /// The effect of the incomplete line `self.line`, without touching the committed state.
    fn evaluate(
        &mut self,
        kind: LineKind,
        hay: &Haystack<'_>,
        effect: &mut PushEffect,
    ) -> Tentative {
        match kind {
            LineKind::Content if self.emit && self.machine.emits_content() => {
                self.out.push_str(&self.line);
                self.out.push_str("\n");
                Tentative::Emitting
            }
            LineKind::Content | LineKind::Dropped => Tentative::Nothing,
            LineKind::Marker(marker) => {
                let mut machine = Box::new(self.machine.clone());
                let mut sink = Sink {
                    out: &mut self.out,
                    blocks: &mut self.blocks,
                    emit: self.emit,
                };
                let outcome = match machine.marker(marker, hay, &mut sink) {
                    Ok(()) => Ok(machine),
                    Err(e) => {
                        self.revert(hay, effect);
                        Err(e)
                    }
                };
                Tentative::Marker { marker, outcome }
            }
        }
    }

    /// Whether pushing `chunk` may locate a SEARCH text (a line of the diff, complete or the
    /// last one, reads as a separator): a cheap over-approximation, O(chunk), for a caller that
    /// schedules pushes that may search a large original off its main thread.
    pub(crate) fn may_search(&self, chunk: &str) -> bool {
        if self.error.is_some() {
            return false;
        }
        let separator = |scanner: &MarkerScanner| scanner.marker() == Some(Marker::Separator);
        let mut scanner = self.scanner;
        let mut rest = chunk;
        while let Some(nl) = memchr::memchr(b'\n', rest.as_bytes()) {
            scanner.feed(&rest[..nl]);
            if separator(&scanner) {
                return true;
            }
            scanner = MarkerScanner::default();
            rest = &rest[nl + 1..];
        }
        scanner.feed(rest);
        separator(&scanner)
    }

    /// The output so far (Cline's partial `newContent`).
    pub(crate) fn output(&self) -> &Output {
        &self.out
    }

    /// The output so far as a tracked text (its length in every unit).
    pub(crate) fn preview_end(&self) -> TextOffset {
        self.out.end()
    }

    /// The error Cline would throw for the diff so far, if any.
    pub(crate) fn error(&self) -> Option<&Error> {
        match &self.tentative {
            _ if self.error.is_some() => self.error.as_ref(),
            Tentative::Marker {
                outcome: Err(e), ..
            } => Some(e),
            _ => None,
        }
    }

    /// Every block completed so far, the tentative line's included.
    pub(crate) fn blocks(&self) -> &[BlockRecord] {
        &self.blocks
    }

    /// Blocks completed by complete lines.
    pub(crate) fn committed_blocks(&self) -> &[BlockRecord] {
        &self.blocks[..self.committed_blocks]
    }

    /// Whether partial calls report match indices (v1) or none (v2).
    pub(crate) fn reports_match_indices(&self) -> bool {
        self.machine.reports_match_indices()
    }

    /// The final call: the last line is taken as it stands, then the dialect finishes.
    pub(crate) fn finish(mut self, hay: &Haystack<'_>) -> Result<Finished> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let kind = self.machine.classify_last(&self.scanner);
        match (
            std::mem::replace(&mut self.tentative, Tentative::Nothing),
            kind,
        ) {
            (Tentative::Marker { outcome, .. }, _) => self.machine = *outcome?,
            (Tentative::Emitting, _) => {
                self.machine.content(&self.line);
            }
            (Tentative::Nothing, kind) => {
                self.apply(kind, hay);
                if let Some(e) = self.error {
                    return Err(e);
                }
            }
        }
        let form = self.out.form();
        let out = self.emit.then_some(self.out);
        let (content, order) = self.machine.finish(hay, out, form, &mut self.blocks)?;
        Ok(Finished {
            content,
            blocks: self.blocks,
            order,
        })
    }
}

//! Where the Cline dialects' line processing writes ([`Sink`]) and what a finished block
//! records ([`BlockRecord`]): below both dialects and the machine that dispatches between them.

use super::output::Output;
use crate::matching::Haystack;
use crate::report::Strategy;

/// A completed block: the span of the original it replaces (bytes; `end` may be one past the
/// end of the original, as Cline computes it) and how it was found.
#[derive(Clone, Debug)]
pub(crate) struct BlockRecord {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) strategy: Strategy,
    /// The replacement text (kept by v1, which rebuilds the file from it at the end).
    pub(crate) replacement: String,
}

/// Where line processing writes: the partial output (Cline's `result`) and completed blocks.
pub(crate) struct Sink<'o> {
    pub(crate) out: &'o mut Output,
    pub(crate) blocks: &'o mut Vec<BlockRecord>,
    /// Whether to build the partial output at all (a one-shot final v1 call discards it).
    pub(crate) emit: bool,
}

impl Sink<'_> {
    /// Writes the original from `start` to `end` (clamped as JavaScript's `slice` clamps).
    pub(crate) fn emit_original(&mut self, hay: &Haystack<'_>, start: usize, end: usize) {
        if self.emit {
            self.out.push_original(hay, start, end);
        }
    }
}

//! What the two Cline dialects share: where their output goes, what a finished block records,
//! and the dispatch between them.

use super::output::Output;
use super::sink::{BlockRecord, Sink};
use super::{v1::V1, v2::V2};
use crate::blocks::{Marker, MarkerScanner};
use crate::error::Result;
use crate::matching::Haystack;
use crate::policy::PreviewForm;

/// How a line is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineKind {
    Marker(Marker),
    Content,
    /// An incomplete last line that looks like the start of a marker: Cline drops it.
    Dropped,
}

/// The committed state of one Cline dialect.
#[derive(Clone, Debug)]
pub(crate) enum Machine {
    V1(V1),
    V2(V2),
}

impl Machine {
    /// How a complete line is treated: markers by Cline's regular expressions, else content.
    pub(crate) fn classify_complete(scanner: &MarkerScanner) -> LineKind {
        scanner.marker().map_or(LineKind::Content, LineKind::Marker)
    }

    /// How the incomplete last line is treated: if it starts like a marker and is not one it is
    /// dropped (v1 tests "is a marker" with the regular expressions, v2 with the canonical
    /// strings; a canonical string is also a regex marker).
    pub(crate) fn classify_last(&self, scanner: &MarkerScanner) -> LineKind {
        if !scanner.starts_like_marker() {
            return LineKind::Content;
        }
        let marker = match self {
            Machine::V1(_) => scanner.marker(),
            Machine::V2(_) => scanner.canonical_marker(),
        };
        marker.map_or(LineKind::Dropped, LineKind::Marker)
    }

    pub(crate) fn marker(
        &mut self,
        marker: Marker,
        hay: &Haystack<'_>,
        sink: &mut Sink<'_>,
    ) -> Result<()> {
        match self {
            Machine::V1(m) => m.marker(marker, hay, sink),
            Machine::V2(m) => m.marker(marker, hay, sink),
        }
    }

    /// Takes a content line into the state; returns whether `line + "\n"` belongs in the output.
    pub(crate) fn content(&mut self, line: &str) -> bool {
        match self {
            Machine::V1(m) => m.content(line),
            Machine::V2(m) => m.content(line),
        }
    }

    /// Whether a content line arriving now would be written to the output.
    pub(crate) fn emits_content(&self) -> bool {
        match self {
            Machine::V1(m) => m.emits_content(),
            Machine::V2(m) => m.emits_content(),
        }
    }

    /// Whether this dialect's final content is built from the partial output (v2) rather than
    /// rebuilt from the recorded blocks (v1).
    pub(crate) fn final_uses_output(&self) -> bool {
        matches!(self, Machine::V2(_))
    }

    /// The final content and the blocks in Cline's `matchIndices` order (v2 reports none).
    /// `out` is the partial output, if it was built; the content is built in `form`.
    pub(crate) fn finish(
        self,
        hay: &Haystack<'_>,
        out: Option<Output>,
        form: PreviewForm,
        blocks: &mut Vec<BlockRecord>,
    ) -> Result<(Output, Vec<usize>)> {
        match self {
            Machine::V1(m) => Ok(m.finish(hay, out, form, blocks)),
            Machine::V2(m) => m
                .finish(hay, out.unwrap_or_else(|| Output::new(form, 0)))
                .map(|s| (s, Vec::new())),
        }
    }

    /// Whether Cline reports match indices for partial calls (v1 does, in completion order).
    pub(crate) fn reports_match_indices(&self) -> bool {
        matches!(self, Machine::V1(_))
    }
}

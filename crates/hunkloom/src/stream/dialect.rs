//! Dialect names, shared by every binding.

use crate::cline::Version;

/// How a diff is read and applied.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Cline v1, byte-identical with Cline v4.0.10 (the default, for drop-in safety).
    #[default]
    ClineV1,
    /// Cline v2, byte-identical with Cline v4.0.10.
    ClineV2,
    /// What the model meant, made robust: every marker spelling, a cascade of tolerant tiers,
    /// refusal of ambiguous or stale edits (see [`apply_diff`](crate::apply_diff)).
    Native,
    /// Roo Code's `apply_diff` (`MultiSearchReplaceDiffStrategy`), byte-identical: blocks
    /// located by similarity at a fuzzy threshold, applied in `:start_line:` order, the blocks
    /// that fail reported while the others apply (see [`roo`](crate::roo); options in
    /// [`RooOptions`](crate::roo::RooOptions)). Roo sorts the blocks before applying any, so a
    /// streaming applier keeps the diff and applies it at `finish`.
    Roo,
    /// A unified diff of one file, applied as the model meant it: each hunk placed by its
    /// context and removed lines (line numbers are only hints; wrong counts, missing headers
    /// and drifted whitespace are tolerated), in exactly one place or refused with the
    /// candidates, all hunks or none. A [`StreamingApplier`](crate::StreamingApplier) places
    /// each hunk as soon as it is complete (when the next complete line shows it ends), so the
    /// preview grows hunk by hunk; each hunk is reported as a block.
    Udiff,
    /// A unified diff applied exactly as `git apply` does: the same content, or git's `error:`
    /// lines as the message (`--recount` with
    /// [`ApplyOptions::recount`](crate::ApplyOptions::recount)). git reads a patch as a whole,
    /// so a [`StreamingApplier`](crate::StreamingApplier) applies it at
    /// [`finish`](crate::StreamingApplier::finish); its preview is the original until then.
    UdiffStrict,
}

crate::names!(
    Dialect {
        ClineV1 => "cline-v1",
        ClineV2 => "cline-v2",
        Native => "native",
        Roo => "roo",
        Udiff => "udiff",
        UdiffStrict => "udiff-strict",
    },
    parse: InvalidDialect,
    "dialect"
);

impl Dialect {
    /// The Cline version this dialect reproduces, if it is a Cline dialect.
    pub(crate) fn cline_version(self) -> Option<Version> {
        match self {
            Dialect::ClineV1 => Some(Version::V1),
            Dialect::ClineV2 => Some(Version::V2),
            _ => None,
        }
    }
}

//! Tests that drive the library only through its `extern "C"` functions, the way a C host does.
//!
//! - `vectors`: every Cline conformance vector, stateless and streamed in every chunking.
//! - `boundary`: what only the C layer does: NULL arguments, UTF-8 checks and buffering,
//!   statuses and error codes, the lifecycle after finish, panics.
//! - `ops_vectors`: the tool-operation corpora (`cline-content-fixes`, `roo-insert-content`).
//! - `robustness`: the `native` robustness corpus, scored as the core's runner scores it,
//!   through `pl_apply_diff` and the streaming applier in several chunkings.
//! - `native`: what the C layer adds for the `native` dialect: `pl_apply_diff`, its options, the
//!   extended block reports, the partial policy.
//! - `ops_boundary`: the tool operations' C layer: existence flags, NULL arguments, UTF-8,
//!   statuses and error codes, out-parameters left alone.
//!
//! `ffi` and `ops_ffi` hold the small safe wrappers they use.

mod boundary;
mod ffi;
mod native;
mod ops_boundary;
mod ops_ffi;
mod ops_vectors;
mod robustness;
mod vectors;

/// The vector loader and chunkings of the core's own runner, shared so the two cannot drift.
#[path = "../../../../crates/patchloom/tests/common/mod.rs"]
mod common;

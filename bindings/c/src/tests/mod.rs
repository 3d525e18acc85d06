//! Tests that drive the library only through its `extern "C"` functions, the way a C host does.
//!
//! - `vectors`: every Cline conformance vector, stateless and streamed in every chunking.
//! - `boundary`: what only the C layer does: NULL arguments, UTF-8 checks and buffering,
//!   statuses and error codes, the lifecycle after finish, panics.
//! - `ops_vectors`: the tool-operation corpora (`cline-content-fixes`, `roo-insert-content`).
//! - `robustness`: the `native` robustness corpus, scored as the core's runner scores it,
//!   through `hl_apply_diff` and the streaming applier in several chunkings.
//! - `native`: what the C layer adds for the `native` dialect: `hl_apply_diff`, its options, the
//!   extended block reports, the partial policy.
//! - `ops_boundary`: the tool operations' C layer: existence flags, NULL arguments, UTF-8,
//!   statuses and error codes, out-parameters left alone.
//!
//! - `patch_vectors`: the `apply_patch` rows of `cline-apply-patch` through `hl_apply_patch`.
//! - `workspace`: `hl_workspace_*` on temporary directories and `hl_apply_patch`'s C layer.
//!
//! `ffi`, `ops_ffi` and `patch_ffi` hold the small safe wrappers they use; the vector loading,
//! chunkings, scoring and tallies are `hunkloom-testkit`'s, shared with the core's runners so
//! they cannot drift.

mod boundary;
mod ffi;
mod native;
mod ops_boundary;
mod ops_ffi;
mod ops_vectors;
mod patch_ffi;
mod patch_vectors;
mod robustness;
mod vectors;
mod workspace;

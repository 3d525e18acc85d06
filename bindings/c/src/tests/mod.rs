//! Tests that drive the library only through its `extern "C"` functions, the way a C host does.
//!
//! - `vectors`: every Cline conformance vector, stateless and streamed in every chunking.
//! - `boundary`: what only the C layer does: NULL arguments, UTF-8 checks and buffering,
//!   statuses and error codes, the lifecycle after finish, panics.
//!
//! `ffi` holds the small safe wrappers both use.

mod boundary;
mod ffi;
mod vectors;

/// The vector loader and chunkings of the core's own runner, shared so the two cannot drift.
#[path = "../../../../crates/patchloom/tests/common/mod.rs"]
mod common;

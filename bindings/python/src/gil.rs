//! When to release the GIL.
//!
//! Releasing and re-taking the GIL costs a few hundred nanoseconds, more than a typical streamed
//! token takes to apply, so small inputs keep it. Past this size the engine's work (copying the
//! original, matching a completed SEARCH block over the file) is long enough that other Python
//! threads should run meanwhile.

use pyo3::Python;
use pyo3::marker::Ungil;

/// Inputs of at least this many bytes (original plus pushed text) are processed without the GIL.
pub(crate) const DETACH_AT_BYTES: usize = 32 * 1024;

/// Runs `work` with the GIL released when `input_bytes` is large, else while holding it.
pub(crate) fn run<T, F>(py: Python<'_>, input_bytes: usize, work: F) -> T
where
    F: Ungil + FnOnce() -> T,
    T: Ungil,
{
    if input_bytes >= DETACH_AT_BYTES {
        py.detach(work)
    } else {
        work()
    }
}

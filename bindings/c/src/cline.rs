//! `hl_construct_new_file_content`: the drop-in for Cline's `constructNewFileContent`, through
//! the core's process-wide resume cache, and the switches of that cache
//! (`hl_resume_cache_set_capacity`, `hl_resume_cache_stats`).

use std::ffi::c_char;

use engine::cline::{CacheStats, Version, construct_new_file_content_resumed, shared_resume_cache};

use crate::args::{Out, str_arg};
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::{guard, guard_with_error};
use crate::result::hl_result;
use crate::status::hl_status;
use crate::text::CText;

/// Which of Cline's implementations to reproduce: one of the `HL_CLINE_` values.
///
/// The value `n` stands for Cline's version string `"v<n>"`, which the engine parses, so an
/// unknown value fails exactly as Cline does for that string (code `invalid_version`, message
/// `Invalid version 'v<n>' for file content constructor`).
#[allow(non_camel_case_types)]
pub type hl_cline_version = u32;

/// `"v1"`: `constructNewFileContentV1`, Cline's default.
pub const HL_CLINE_V1: hl_cline_version = 1;
/// `"v2"`: `constructNewFileContentV2`, the state-machine implementation.
pub const HL_CLINE_V2: hl_cline_version = 2;

/// The engine's version for `version`, or its `invalid_version` error.
fn engine_version(version: hl_cline_version) -> Result<Version, Failure> {
    Ok(format!("v{version}").parse::<Version>()?)
}

/// Cline v4.0.10's `constructNewFileContent(diff, original, is_final, version)`, byte for byte.
///
/// `diff` and `original` are UTF-8 texts of `diff_len` and `original_len` bytes (not
/// NUL-terminated; NULL allowed with length 0). With `is_final` false, `diff` is a prefix of a
/// streaming diff and the result is what Cline shows so far.
///
/// On success `*result` receives a new result owned by the caller, who frees it with
/// `hl_result_free`; its match indices are Cline's `matchIndices` (ask for `HL_UNIT_UTF16` to
/// get Cline's numbers).
///
/// Calls go through a process-wide resume cache: a call whose `diff` extends an earlier call's
/// `diff` for the same `original` and `version` (Cline's pattern while a diff streams) pushes
/// only the new text instead of starting over. Results are the same either way. The cache keeps
/// copies, never the caller's pointers (see `hl_resume_cache_set_capacity`); any number of
/// threads may call at once.
///
/// @return `HL_STATUS_EDIT_REJECTED` if Cline rejects the diff, or `HL_STATUS_INVALID_OPTION` if
/// `version` is not a `HL_CLINE_` value: both with `*error`, a new `hl_error` (Cline's exact
/// message) the caller frees with `hl_error_free`. `HL_STATUS_NULL_ARGUMENT` if `result` or
/// `error` is NULL or a text is NULL with a non-zero length; `HL_STATUS_INVALID_UTF8` if a text
/// is not UTF-8. `*result` is set only on success, `*error` only with the statuses that say so.
///
/// # Safety
/// `diff` and `original` must point to `diff_len` and `original_len` readable bytes (or be NULL
/// with length 0); `result` and `error` must be writable.
// The signature is Cline's four arguments as C text pairs plus the two out-parameters.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_construct_new_file_content(
    diff: *const c_char,
    diff_len: usize,
    original: *const c_char,
    original_len: usize,
    is_final: bool,
    version: hl_cline_version,
    result: *mut *mut hl_result,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result)?;
        // SAFETY: the caller passes `diff_len` readable bytes (this function's contract).
        let diff = unsafe { str_arg(diff, diff_len) }?;
        // SAFETY: the caller passes `original_len` readable bytes (this function's contract).
        let original = unsafe { str_arg(original, original_len) }?;
        let version = engine_version(version)?;
        let r = construct_new_file_content_resumed(diff, original, is_final, version)?;
        let boxed = hl_result::boxed(CText::from_string(r.new_content), r.match_indices, &[]);
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(boxed)) };
        Ok(())
    })
}

/// The counters of the resume cache behind `hl_construct_new_file_content`, as filled in by
/// `hl_resume_cache_stats`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hl_cache_stats {
    /// Calls that resumed a kept stream (pushed only the diff's new suffix), since the process
    /// started.
    pub hits: u64,
    /// Calls computed from scratch, since the process started.
    pub misses: u64,
    /// Streams kept now.
    pub entries: usize,
    /// The most streams kept at once (0: the cache is off).
    pub capacity: usize,
}

impl hl_cache_stats {
    fn new(stats: CacheStats, entries: usize, capacity: usize) -> Self {
        hl_cache_stats {
            hits: stats.hits,
            misses: stats.misses,
            entries,
            capacity,
        }
    }
}

/// Sets how many streams `hl_construct_new_file_content` keeps to resume from (default 4, one
/// per file being edited at once), for the whole process. 0 turns resuming off and frees every
/// kept stream; a smaller capacity frees the least recently used streams beyond it. Each kept
/// stream holds a copy of its original, the content so far and the diff so far; a final call
/// (`is_final` true) frees its stream. Waits for a call that is using the cache on another thread.
///
/// @return `HL_STATUS_OK` (`HL_STATUS_PANIC` only for a bug in hunkloom).
#[unsafe(no_mangle)]
pub extern "C" fn hl_resume_cache_set_capacity(capacity: usize) -> hl_status {
    guard(|| {
        shared_resume_cache().set_capacity(capacity);
        Ok(())
    })
}

/// Copies the resume cache's counters and size into `*stats` (a struct the caller owns).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if `stats` is NULL; `*stats` is written only on success.
///
/// # Safety
/// `stats` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_resume_cache_stats(stats: *mut hl_cache_stats) -> hl_status {
    guard(|| {
        let out = Out::new(stats)?;
        let value = {
            let cache = shared_resume_cache();
            hl_cache_stats::new(cache.stats(), cache.len(), cache.capacity())
        };
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(value) };
        Ok(())
    })
}

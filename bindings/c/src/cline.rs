//! `hl_construct_new_file_content`: the stateless drop-in for Cline's `constructNewFileContent`.

use std::ffi::c_char;

use engine::cline::{Version, construct_new_file_content};

use crate::args::{Out, str_arg};
use crate::error::{Failure, hl_error};
use crate::ffi_guard::guard_with_error;
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
/// streaming diff and the result is what Cline shows so far. On success `*result` receives a new
/// result owned by the caller, who frees it with `hl_result_free`; its match indices are Cline's
/// `matchIndices` (ask for `HL_UNIT_UTF16` to get Cline's numbers).
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
        let r = construct_new_file_content(diff, original, is_final, version)?;
        let matches = r.match_indices();
        let boxed = hl_result::boxed(CText::from_string(r.new_content), matches, &[]);
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(boxed)) };
        Ok(())
    })
}

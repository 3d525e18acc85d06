//! V4A per-file bodies (OpenAI's Responses-API `apply_patch` tool): `hl_apply_v4a`, applied as
//! the OpenAI Agents SDK's `apply_diff` applies it, and `hl_apply_patch_body`, the same body
//! read by the Codex patch dialect for one file.

use std::ffi::c_char;

use engine::patch::plan_patch_or_body;
use engine::patch::v4a::{self, V4aMode};

use crate::args::{Out, str_arg};
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::guard_with_error;
use crate::owned_text::hl_text;
use crate::patch::{files_arg, hl_patch_file, hl_patch_options, hl_patch_result};
use crate::status::hl_status;

/// How a V4A body is read: one of the `HL_V4A_MODE_` values.
///
/// A plain integer type rather than an enum so that any value a host passes is well-defined: an
/// unknown value fails as the engine does for an unknown mode name (status
/// `HL_STATUS_INVALID_OPTION`, code `invalid_dialect`).
#[allow(non_camel_case_types)]
pub type hl_v4a_mode = u32;

/// `update_file` (the default, 0): the body's sections change `input`.
pub const HL_V4A_MODE_DEFAULT: hl_v4a_mode = 0;
/// `create_file`: the body's `+` lines are the new file (`input` is ignored).
pub const HL_V4A_MODE_CREATE: hl_v4a_mode = 1;

/// The engine's mode, or its error for a value it has no counterpart of.
pub(crate) fn mode_of(mode: hl_v4a_mode) -> Result<V4aMode, Failure> {
    Ok(match mode {
        HL_V4A_MODE_DEFAULT => V4aMode::Default,
        HL_V4A_MODE_CREATE => V4aMode::Create,
        // The engine's own error for a name it does not know.
        other => other.to_string().parse::<V4aMode>()?,
    })
}

/// Applies a V4A body — one `create_file` / `update_file` operation of OpenAI's Responses-API
/// `apply_patch` tool, the hunks without the `*** Begin Patch` envelope — to `input` exactly as
/// the OpenAI Agents SDK's `apply_diff(input, diff, mode)` does.
///
/// `input` and `diff` are UTF-8 texts of `input_len` and `diff_len` bytes (not NUL-terminated;
/// NULL allowed with length 0; only read during the call). The reference's behaviour is kept
/// where it loses data: every line ending becomes CRLF when `input` has any CRLF, and
/// `HL_V4A_MODE_CREATE` (only `+` lines; `input` ignored) writes no final newline. On success
/// `*result` receives a new `hl_text` with the new text, owned by the caller, who frees it with
/// `hl_text_free`.
///
/// @return `HL_STATUS_EDIT_REJECTED` if the body does not apply, with `*error` holding the
/// reference's `ValueError` message exactly and the code `invalid_patch_hunk` (`Invalid Line:
/// …`, `Nothing in this section …`, `Invalid Add File Line: …`), `patch_context_not_found`
/// (`Invalid Context …`, `Invalid EOF Context …`, `Invalid Anchor …`) or `overlapping_blocks`;
/// `HL_STATUS_INVALID_OPTION` (code `invalid_dialect`, with `*error`) if `mode` is not a
/// `HL_V4A_MODE_` value. The caller frees `*error` with `hl_error_free`.
/// `HL_STATUS_NULL_ARGUMENT` if `result` or `error` is NULL or a text is NULL with a non-zero
/// length; `HL_STATUS_INVALID_UTF8` if a text is not UTF-8. `*result` is set only on success,
/// `*error` only with the statuses that say so.
///
/// # Safety
/// `input` and `diff` must point to `input_len` and `diff_len` readable bytes (or be NULL with
/// length 0); `result` and `error` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_apply_v4a(
    input: *const c_char,
    input_len: usize,
    diff: *const c_char,
    diff_len: usize,
    mode: hl_v4a_mode,
    result: *mut *mut hl_text,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result)?;
        // SAFETY: the caller passes `input_len` readable bytes (this function's contract).
        let input = unsafe { str_arg(input, input_len) }?;
        // SAFETY: the caller passes `diff_len` readable bytes (this function's contract).
        let diff = unsafe { str_arg(diff, diff_len) }?;
        let text = v4a::apply_v4a(input, diff, mode_of(mode)?)?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_text::boxed(text))) };
        Ok(())
    })
}

/// Applies a V4A body (see `hl_apply_v4a`) the way the Codex patch dialect reads it, to the one
/// file `path` among `files` held in memory: as if it were wrapped in `*** Begin Patch`,
/// `*** Update File: <path>` (`HL_V4A_MODE_CREATE`: `*** Add File: <path>`) and
/// `*** End Patch`, then planned and applied like `hl_apply_patch` (Codex's matching; every
/// updated file ends with a newline; a `*** Move to:` line in the body moves the file). With
/// `HL_PATCH_DIALECT_NATIVE` the body is read the native way instead: each section in exactly
/// one place or the body refused, the file's line endings and final-newline state kept (a
/// create refused over an existing file with other content).
///
/// `path` and `body` are UTF-8 texts of the given lengths; `files`, `options` and the result
/// are as for `hl_apply_patch`, except that `options` must select `HL_PATCH_DIALECT_CODEX`
/// (its default) or `HL_PATCH_DIALECT_NATIVE`. On success `*result` receives a new `hl_patch_result` owned by the caller,
/// who frees it with `hl_patch_result_free`.
///
/// @return `HL_STATUS_EDIT_REJECTED` if the body is malformed or does not fit the file (codes
/// `invalid_patch`, `invalid_patch_hunk`, `patch_file_not_found`, `patch_context_not_found`,
/// `duplicate_patch_path`), `HL_STATUS_INVALID_OPTION` for a `mode` or options value the engine
/// does not know, or a dialect other than Codex and native (code `invalid_dialect`;
/// `invalid_policy`); the native dialect's refusals (`ambiguous_match`, `overlapping_blocks`,
/// `patch_file_exists`, `empty_patch`) are `HL_STATUS_EDIT_REJECTED` too:
/// both with `*error`, which the caller frees with `hl_error_free`. `HL_STATUS_NULL_ARGUMENT`,
/// `HL_STATUS_INVALID_UTF8` and `HL_STATUS_OUT_OF_RANGE` as for `hl_apply_patch`. `*result` is
/// set only on success, `*error` only with the statuses that say so.
///
/// # Safety
/// `path` and `body` must point to `path_len` and `body_len` readable bytes (or be NULL with
/// length 0); `files` must point to `file_count` readable `hl_patch_file`s (or be NULL with
/// count 0), each with valid texts; `options` must be NULL or point to a `hl_patch_options`;
/// `result` and `error` must be writable.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_apply_patch_body(
    path: *const c_char,
    path_len: usize,
    body: *const c_char,
    body_len: usize,
    mode: hl_v4a_mode,
    files: *const hl_patch_file,
    file_count: usize,
    options: *const hl_patch_options,
    result: *mut *mut hl_patch_result,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result)?;
        // SAFETY: the caller passes `path_len` readable bytes (this function's contract).
        let path = unsafe { str_arg(path, path_len) }?;
        // SAFETY: the caller passes `body_len` readable bytes (this function's contract).
        let body = unsafe { str_arg(body, body_len) }?;
        // SAFETY: the caller passes `file_count` valid entries (this function's contract).
        let files = unsafe { files_arg(files, file_count) }?;
        // SAFETY: `options` is NULL or points to a hl_patch_options (this function's contract).
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        let plan = plan_patch_or_body(
            body,
            Some(path),
            mode_of(mode)?,
            &files,
            &options.to_engine()?,
        )?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_patch_result::boxed(plan, files))) };
        Ok(())
    })
}

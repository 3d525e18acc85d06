//! `hl_apply_diff`: a whole diff applied at once (the engine's [`apply_diff`]), `native` by
//! default.

use std::ffi::c_char;

use engine::apply_diff;

use crate::args::{Out, str_arg};
use crate::failure::hl_error;
use crate::ffi_guard::guard_with_error;
use crate::options::hl_apply_options;
use crate::result::hl_result;
use crate::status::hl_status;
use crate::text::CText;

/// Applies a whole SEARCH/REPLACE diff to `original`: the new content and a report per block.
///
/// `diff` and `original` are UTF-8 texts of `diff_len` and `original_len` bytes (not
/// NUL-terminated; NULL allowed with length 0). `options` may be NULL for the defaults: dialect
/// `HL_DIALECT_NATIVE`, policy `HL_POLICY_ALL_OR_NOTHING` (as does a zeroed `hl_apply_options`).
/// In `native` every block is located independently of the others, tolerating drift in line
/// endings, whitespace, indentation, punctuation, line-number prefixes, blank lines and one typo;
/// an ambiguous, stale or overlapping block is refused rather than guessed. The result is the
/// same as streaming the diff through a `hl_applier` with the same dialect and policy, in any
/// chunking.
///
/// On success `*result` receives a new result owned by the caller, who frees it with
/// `hl_result_free`: the new content, the starts of the applied blocks (`hl_result_match_*`),
/// and one `hl_block` per block (`hl_result_block`; with `HL_POLICY_PARTIAL` the failed blocks
/// too, with their code and message; `hl_result_failed_count` counts them).
///
/// @return `HL_STATUS_EDIT_REJECTED` if the diff is refused (codes `search_not_found`,
/// `ambiguous_match`, `overlapping_blocks`, `malformed_block`, ...; with the default policy any
/// failed block refuses the whole diff, and the message covers every failed block), or
/// `HL_STATUS_INVALID_OPTION` if `options` holds a value that is not a `HL_DIALECT_` /
/// `HL_POLICY_` value (codes `invalid_dialect`, `invalid_policy`): both with `*error`, a new
/// `hl_error` the caller frees with `hl_error_free`. `HL_STATUS_NULL_ARGUMENT` if `result` or
/// `error` is NULL or a text is NULL with a non-zero length; `HL_STATUS_INVALID_UTF8` if a text is
/// not UTF-8. `*result` is set only on success, `*error` only with the statuses that say so.
///
/// # Safety
/// `diff` and `original` must point to `diff_len` and `original_len` readable bytes (or be NULL
/// with length 0); `options` must be NULL or point to a `hl_apply_options`; `result` and `error`
/// must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_apply_diff(
    diff: *const c_char,
    diff_len: usize,
    original: *const c_char,
    original_len: usize,
    options: *const hl_apply_options,
    result: *mut *mut hl_result,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result)?;
        // SAFETY: the caller passes `diff_len` readable bytes (this function's contract).
        let diff = unsafe { str_arg(diff, diff_len) }?;
        // SAFETY: the caller passes `original_len` readable bytes (this function's contract).
        let original = unsafe { str_arg(original, original_len) }?;
        // SAFETY: `options` is NULL or points to a hl_apply_options (this function's contract).
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        let outcome = apply_diff(diff, original, &options.to_engine()?)?;
        let boxed = hl_result::boxed(
            CText::from_string(outcome.new_content),
            outcome.match_indices,
            &outcome.blocks,
        );
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(boxed)) };
        Ok(())
    })
}

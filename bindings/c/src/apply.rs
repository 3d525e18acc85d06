//! `pl_apply_diff`: a whole diff applied at once (the engine's [`apply_diff`]), `native` by
//! default.

use std::ffi::c_char;

use engine::apply_diff;

use crate::args::{Out, str_arg};
use crate::error::pl_error;
use crate::ffi_guard::guard_with_error;
use crate::options::pl_apply_options;
use crate::result::pl_result;
use crate::status::pl_status;
use crate::text::CText;

/// Applies a whole SEARCH/REPLACE diff to `original`: the new content and a report per block.
///
/// `diff` and `original` are UTF-8 texts of `diff_len` and `original_len` bytes (not
/// NUL-terminated; NULL allowed with length 0). `options` may be NULL for the defaults: dialect
/// `PL_DIALECT_NATIVE`, policy `PL_POLICY_ALL_OR_NOTHING` (as does a zeroed `pl_apply_options`).
/// In `native` every block is located independently of the others, tolerating drift in line
/// endings, whitespace, indentation, punctuation, line-number prefixes, blank lines and one typo;
/// an ambiguous, stale or overlapping block is refused rather than guessed. The result is the
/// same as streaming the diff through a `pl_applier` with the same dialect and policy, in any
/// chunking.
///
/// On success `*result` receives a new result owned by the caller, who frees it with
/// `pl_result_free`: the new content, the starts of the applied blocks (`pl_result_match_*`),
/// and one `pl_block` per block (`pl_result_block`; with `PL_POLICY_PARTIAL` the failed blocks
/// too, with their code and message; `pl_result_failed_count` counts them).
///
/// @return `PL_STATUS_EDIT_REJECTED` if the diff is refused (codes `search_not_found`,
/// `ambiguous_match`, `overlapping_blocks`, `malformed_block`, ...; with the default policy any
/// failed block refuses the whole diff, and the message covers every failed block), or
/// `PL_STATUS_INVALID_OPTION` if `options` holds a value that is not a `PL_DIALECT_` /
/// `PL_POLICY_` value (codes `invalid_dialect`, `invalid_policy`): both with `*error`, a new
/// `pl_error` the caller frees with `pl_error_free`. `PL_STATUS_NULL_ARGUMENT` if `result` or
/// `error` is NULL or a text is NULL with a non-zero length; `PL_STATUS_INVALID_UTF8` if a text is
/// not UTF-8. `*result` is set only on success, `*error` only with the statuses that say so.
///
/// # Safety
/// `diff` and `original` must point to `diff_len` and `original_len` readable bytes (or be NULL
/// with length 0); `options` must be NULL or point to a `pl_apply_options`; `result` and `error`
/// must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pl_apply_diff(
    diff: *const c_char,
    diff_len: usize,
    original: *const c_char,
    original_len: usize,
    options: *const pl_apply_options,
    result: *mut *mut pl_result,
    error: *mut *mut pl_error,
) -> pl_status {
    guard_with_error(error, || {
        let out = Out::new(result)?;
        // SAFETY: the caller passes `diff_len` readable bytes (this function's contract).
        let diff = unsafe { str_arg(diff, diff_len) }?;
        // SAFETY: the caller passes `original_len` readable bytes (this function's contract).
        let original = unsafe { str_arg(original, original_len) }?;
        // SAFETY: `options` is NULL or points to a pl_apply_options (this function's contract).
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        let outcome = apply_diff(diff, original, &options.to_engine()?)?;
        let boxed = pl_result::boxed(
            CText::from_string(outcome.new_content),
            outcome.match_indices,
            &outcome.blocks,
        );
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(boxed)) };
        Ok(())
    })
}

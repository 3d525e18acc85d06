//! What C reads of a [`hl_error`] (an engine error handed to C; the type and the mapping from
//! the engine's error kinds to [`hl_status`] families are in `failure`).
//!
//! The code is the engine's own [`Error::code`] (stable snake_case); the message is the engine's
//! [`Error::message`] (Cline's exact text in the Cline dialects). Nothing is re-spelled here.

use std::ffi::c_char;

use crate::args::{Out, handle};
use crate::failure::{hl_error, hl_match};
use crate::ffi_guard::{guard, guard_void};
use crate::status::hl_status;

/// The error's stable snake_case code (e.g. `search_not_found`), for programs to branch on.
///
/// On success `*code` points to NUL-terminated ASCII of `*code_len` bytes, owned by `error` and
/// valid until `hl_error_free(error)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `error` must be a live `hl_error`; `code` and `code_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_error_code(
    error: *const hl_error,
    code: *mut *const c_char,
    code_len: *mut usize,
) -> hl_status {
    guard(|| {
        let (code, code_len) = (Out::new(code)?, Out::new(code_len)?);
        // SAFETY: the caller passes a live hl_error (this function's contract).
        let e = unsafe { handle(error) }?;
        // SAFETY: both out-pointers are non-NULL and writable (this function's contract).
        unsafe {
            code.write(e.code.as_ptr());
            code_len.write(e.code.len());
        }
        Ok(())
    })
}

/// The error's message, for people and models (in the Cline dialects Cline's exact text, which
/// may be empty, and may quote the diff, so it can contain any character).
///
/// On success `*message` points to `*message_len` bytes of UTF-8 followed by a NUL, owned by
/// `error` and valid until `hl_error_free(error)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `error` must be a live `hl_error`; `message` and `message_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_error_message(
    error: *const hl_error,
    message: *mut *const c_char,
    message_len: *mut usize,
) -> hl_status {
    guard(|| {
        let (message, message_len) = (Out::new(message)?, Out::new(message_len)?);
        // SAFETY: the caller passes a live hl_error (this function's contract).
        let e = unsafe { handle(error) }?;
        // SAFETY: both out-pointers are non-NULL and writable (this function's contract).
        unsafe {
            message.write(e.message.as_ptr());
            message_len.write(e.message.len());
        }
        Ok(())
    })
}

/// How many places an ambiguous text matched (`multiple_matches`, `ambiguous_match`); 0 for
/// other errors. Read each with `hl_error_match`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `error` must be a live `hl_error`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_error_match_count(
    error: *const hl_error,
    count: *mut usize,
) -> hl_status {
    guard(|| {
        let count = Out::new(count)?;
        // SAFETY: the caller passes a live hl_error (this function's contract).
        let e = unsafe { handle(error) }?;
        // SAFETY: `count` is non-NULL and writable (this function's contract).
        unsafe { count.write(e.matches.len()) };
        Ok(())
    })
}

/// The `index`-th place (from 0, in file order) an ambiguous text matched.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index` is not below `hl_error_match_count`;
/// `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `error` must be a live `hl_error`; `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_error_match(
    error: *const hl_error,
    index: usize,
    out: *mut hl_match,
) -> hl_status {
    guard(|| {
        let out = Out::new(out)?;
        // SAFETY: the caller passes a live hl_error (this function's contract).
        let e = unsafe { handle(error) }?;
        let m = *e.matches.get(index).ok_or(hl_status::OutOfRange)?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(m) };
        Ok(())
    })
}

/// Frees an error. NULL is allowed and does nothing. Pointers obtained from it become invalid.
///
/// # Safety
/// `error` must be NULL or a `hl_error` from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_error_free(error: *mut hl_error) {
    guard_void(|| {
        if !error.is_null() {
            // SAFETY: a non-NULL `error` was made by `Box::into_raw` in `guard_with_error` and
            // is freed once (the caller's contract).
            drop(unsafe { Box::from_raw(error) });
        }
    })
}

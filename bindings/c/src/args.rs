//! Arguments coming from C: `(const char *ptr, size_t len)` texts and out-parameters.
//!
//! Texts are never assumed NUL-terminated. `ptr` may be NULL only when `len` is 0 (an empty
//! `std::string_view` or a zero-length buffer has a NULL data pointer), so `(NULL, 0)` is the
//! empty text and `(NULL, n > 0)` is a null-argument error.

use std::ffi::c_char;
use std::ptr::NonNull;

use crate::status::pl_status;

/// Borrows `len` bytes at `ptr`.
///
/// # Safety
/// If `ptr` is not NULL it must point to `len` readable bytes that stay unchanged for `'a`.
pub(crate) unsafe fn bytes_arg<'a>(ptr: *const c_char, len: usize) -> Result<&'a [u8], pl_status> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(pl_status::NullArgument);
    }
    if len > isize::MAX as usize {
        return Err(pl_status::OutOfRange);
    }
    // SAFETY: `ptr` is non-NULL, `u8` needs no alignment, `len <= isize::MAX`, and the caller
    // guarantees `len` readable bytes that are not mutated while borrowed.
    Ok(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// Borrows `len` bytes at `ptr` as UTF-8 text.
///
/// # Safety
/// As for [`bytes_arg`].
pub(crate) unsafe fn str_arg<'a>(ptr: *const c_char, len: usize) -> Result<&'a str, pl_status> {
    // SAFETY: forwarded from this function's contract.
    let bytes = unsafe { bytes_arg(ptr, len) }?;
    std::str::from_utf8(bytes).map_err(|_| pl_status::InvalidUtf8)
}

/// Borrows a text that may not exist (a file that is missing): `exists` false is `None`, and then
/// `len` must be 0 (`ptr` is not read), so a host cannot pass content and "missing" at once.
///
/// # Safety
/// As for [`bytes_arg`].
pub(crate) unsafe fn maybe_str_arg<'a>(
    ptr: *const c_char,
    len: usize,
    exists: bool,
) -> Result<Option<&'a str>, pl_status> {
    if !exists {
        return if len == 0 {
            Ok(None)
        } else {
            Err(pl_status::OutOfRange)
        };
    }
    // SAFETY: forwarded from this function's contract.
    unsafe { str_arg(ptr, len) }.map(Some)
}

/// Borrows an optional argument such as a path or a model id: the empty text (or `(NULL, 0)`)
/// is "not given". Only for arguments where the engine treats the empty text and `None` alike.
///
/// # Safety
/// As for [`bytes_arg`].
pub(crate) unsafe fn optional_str_arg<'a>(
    ptr: *const c_char,
    len: usize,
) -> Result<Option<&'a str>, pl_status> {
    // SAFETY: forwarded from this function's contract.
    let text = unsafe { str_arg(ptr, len) }?;
    Ok(Some(text).filter(|t| !t.is_empty()))
}

/// A non-NULL out-parameter, written only once the call has succeeded.
pub(crate) struct Out<T>(NonNull<T>);

impl<T> Out<T> {
    /// Checks that `ptr` is not NULL.
    pub(crate) fn new(ptr: *mut T) -> Result<Self, pl_status> {
        NonNull::new(ptr).map(Out).ok_or(pl_status::NullArgument)
    }

    /// Stores `value` without reading or dropping what was there (it may be uninitialised).
    ///
    /// # Safety
    /// The pointer must be valid for a write of one `T` (the caller's documented contract).
    pub(crate) unsafe fn write(self, value: T) {
        // SAFETY: non-NULL by construction; validity and alignment are the caller's contract.
        unsafe { self.0.as_ptr().write(value) }
    }
}

/// Borrows the handle at `ptr`.
///
/// # Safety
/// If not NULL, `ptr` must come from this library's matching `_new` function, not yet freed, and
/// not in use by another thread for `'a`.
pub(crate) unsafe fn handle<'a, T>(ptr: *const T) -> Result<&'a T, pl_status> {
    // SAFETY: the caller's contract above.
    unsafe { ptr.as_ref() }.ok_or(pl_status::NullArgument)
}

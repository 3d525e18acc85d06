//! Arguments coming from C: `(const char *ptr, size_t len)` texts and out-parameters.
//!
//! Texts are never assumed NUL-terminated. `ptr` may be NULL only when `len` is 0 (an empty
//! `std::string_view` or a zero-length buffer has a NULL data pointer), so `(NULL, 0)` is the
//! empty text and `(NULL, n > 0)` is a null-argument error.

use std::ffi::c_char;
use std::ptr::NonNull;

use crate::ffi_guard::guard;
use crate::status::hl_status;

/// Borrows `len` bytes at `ptr`.
///
/// # Safety
/// If `ptr` is not NULL it must point to `len` readable bytes that stay unchanged for `'a`.
pub(crate) unsafe fn bytes_arg<'a>(ptr: *const c_char, len: usize) -> Result<&'a [u8], hl_status> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(hl_status::NullArgument);
    }
    if len > isize::MAX as usize {
        return Err(hl_status::OutOfRange);
    }
    // SAFETY: `ptr` is non-NULL, `u8` needs no alignment, `len <= isize::MAX`, and the caller
    // guarantees `len` readable bytes that are not mutated while borrowed.
    Ok(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// Borrows `len` bytes at `ptr` as UTF-8 text.
///
/// # Safety
/// As for [`bytes_arg`].
pub(crate) unsafe fn str_arg<'a>(ptr: *const c_char, len: usize) -> Result<&'a str, hl_status> {
    // SAFETY: forwarded from this function's contract.
    let bytes = unsafe { bytes_arg(ptr, len) }?;
    std::str::from_utf8(bytes).map_err(|_| hl_status::InvalidUtf8)
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
) -> Result<Option<&'a str>, hl_status> {
    if !exists {
        return if len == 0 {
            Ok(None)
        } else {
            Err(hl_status::OutOfRange)
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
) -> Result<Option<&'a str>, hl_status> {
    // SAFETY: forwarded from this function's contract.
    let text = unsafe { str_arg(ptr, len) }?;
    Ok(Some(text).filter(|t| !t.is_empty()))
}

/// A non-NULL out-parameter, written only once the call has succeeded.
pub(crate) struct Out<T>(NonNull<T>);

impl<T> Out<T> {
    /// Checks that `ptr` is not NULL.
    pub(crate) fn new(ptr: *mut T) -> Result<Self, hl_status> {
        NonNull::new(ptr).map(Out).ok_or(hl_status::NullArgument)
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
pub(crate) unsafe fn handle<'a, T>(ptr: *const T) -> Result<&'a T, hl_status> {
    // SAFETY: the caller's contract above.
    unsafe { ptr.as_ref() }.ok_or(hl_status::NullArgument)
}

/// The body of every getter that copies one value out of a live handle: checks the pointers,
/// computes the value (`Err` for an index or unit out of range), and writes it only on success.
///
/// # Safety
/// `ptr` as for [`handle`]; `out` must be NULL or valid for a write of one `T`.
pub(crate) unsafe fn get_value<H, T>(
    ptr: *const H,
    out: *mut T,
    read: impl FnOnce(&H) -> Result<T, hl_status>,
) -> hl_status {
    guard(|| {
        let out = Out::new(out)?;
        // SAFETY: this function's contract.
        let value = read(unsafe { handle(ptr) }?)?;
        // SAFETY: non-NULL, and writable by this function's contract.
        unsafe { out.write(value) };
        Ok(())
    })
}

/// The body of every getter of a text owned by a live handle: `read` gives a pointer to
/// NUL-terminated bytes and their length (without the NUL); both are written only on success.
///
/// # Safety
/// `ptr` as for [`handle`]; `text` and `len` must be NULL or valid for one write each.
pub(crate) unsafe fn get_text<H>(
    ptr: *const H,
    text: *mut *const c_char,
    len: *mut usize,
    read: impl FnOnce(&H) -> Result<(*const c_char, usize), hl_status>,
) -> hl_status {
    guard(|| {
        let (text, len) = (Out::new(text)?, Out::new(len)?);
        // SAFETY: this function's contract.
        let (p, n) = read(unsafe { handle(ptr) }?)?;
        // SAFETY: both non-NULL, and writable by this function's contract.
        unsafe {
            text.write(p);
            len.write(n);
        }
        Ok(())
    })
}

//! [`hl_text`]: a text the library hands over on its own (the content fixes, Roo's
//! `insert_content`).

use std::ffi::c_char;

use crate::args::get_text;
use crate::ffi_guard::guard_void;
use crate::status::hl_status;
use crate::text::CText;

/// An owned text: the outcome of `hl_write`, the content fixes and `hl_insert_content`.
///
/// Owned by the caller, who frees it with `hl_text_free`. Immutable, so it may be read from
/// several threads at once.
#[derive(Debug)]
pub struct hl_text {
    text: CText,
}

impl hl_text {
    /// Takes `text` over, for C.
    pub(crate) fn boxed(text: String) -> Box<Self> {
        Box::new(hl_text {
            text: CText::from_string(text),
        })
    }
}

/// The text.
///
/// On success `*content` points to `*content_len` bytes of UTF-8 followed by a NUL (the text
/// itself may contain NUL characters: use the length), owned by `text` and valid until
/// `hl_text_free(text)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `text` must be a live `hl_text`; `content` and `content_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_content(
    text: *const hl_text,
    content: *mut *const c_char,
    content_len: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe {
        get_text(text, content, content_len, |t| {
            Ok((t.text.as_ptr(), t.text.len()))
        })
    }
}

/// Frees a text. NULL is allowed and does nothing. Pointers obtained from it become invalid.
///
/// # Safety
/// `text` must be NULL or a `hl_text` from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_free(text: *mut hl_text) {
    guard_void(|| {
        if !text.is_null() {
            // SAFETY: a non-NULL `text` was made by `Box::into_raw` in this library and is freed
            // once (the caller's contract).
            drop(unsafe { Box::from_raw(text) });
        }
    })
}

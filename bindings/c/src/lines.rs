//! Line numbers of byte offsets, the way Cline counts them.

use std::ffi::c_char;

use engine::text::line_number_from_byte_index;

use crate::args::{Out, str_arg};
use crate::ffi_guard::guard;
use crate::status::hl_status;

/// The 1-based line of byte offset `byte_index` in `text` (UTF-8, `text_len` bytes): one more
/// than the number of `\n` before it, as Cline's `getLineNumberFromCharIndex` counts. Offsets
/// past the end count the whole text; an offset need not be on a character boundary.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if `line` is NULL or `text` is NULL with a non-zero length;
/// `HL_STATUS_INVALID_UTF8` if `text` is not UTF-8. `*line` is untouched then.
///
/// # Safety
/// `text` must point to `text_len` readable bytes (or be NULL with length 0); `line` must be
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_line_number_from_byte_index(
    text: *const c_char,
    text_len: usize,
    byte_index: usize,
    line: *mut usize,
) -> hl_status {
    guard(|| {
        let out = Out::new(line)?;
        // SAFETY: the caller passes `text_len` readable bytes (this function's contract).
        let text = unsafe { str_arg(text, text_len) }?;
        let n = line_number_from_byte_index(text, byte_index);
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(n) };
        Ok(())
    })
}

//! [`hl_edit`]: the outcome of `hl_str_replace` and `hl_insert` (the engine's [`Edit`]), and
//! [`hl_line_range`].

use std::ffi::c_char;

use engine::ops::Edit;

use crate::args::{get_text, get_value};
use crate::ffi_guard::guard_void;
use crate::status::hl_status;
use crate::text::CText;

/// A 1-based, inclusive range of lines, as filled in by `hl_edit_first_line_range`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hl_line_range {
    /// The first line (1-based).
    pub start: usize,
    /// The last line (1-based, inclusive, `>= start`).
    pub end: usize,
}

/// The outcome of a successful `hl_str_replace` or `hl_insert`: the new content, how many places
/// changed, the normalisations that were needed, and the lines the first change occupies.
///
/// Owned by the caller, who frees it with `hl_edit_free`. Immutable, so it may be read from
/// several threads at once.
#[derive(Debug)]
pub struct hl_edit {
    content: CText,
    replacements: usize,
    /// The normalisations' stable names, in the engine's fixed order.
    normalizations: Vec<CText>,
    first_edit: hl_line_range,
}

impl hl_edit {
    /// A heap copy of the engine's edit for C (the content is moved, not copied).
    pub(crate) fn boxed(edit: Edit) -> Box<Self> {
        let normalizations = edit
            .normalizations
            .iter()
            .map(|n| CText::from_str(n.as_str()))
            .collect();
        Box::new(hl_edit {
            normalizations,
            replacements: edit.replacements,
            first_edit: hl_line_range {
                start: edit.first_edit.start,
                end: edit.first_edit.end,
            },
            content: CText::from_string(edit.new_content),
        })
    }
}

/// The whole text after the edit.
///
/// On success `*content` points to `*content_len` bytes of UTF-8 followed by a NUL (the content
/// itself may contain NUL characters: use the length), owned by `edit` and valid until
/// `hl_edit_free(edit)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `edit` must be a live `hl_edit`; `content` and `content_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_content(
    edit: *const hl_edit,
    content: *mut *const c_char,
    content_len: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe {
        get_text(edit, content, content_len, |e| {
            Ok((e.content.as_ptr(), e.content.len()))
        })
    }
}

/// How many places were changed: 1, or for `hl_str_replace` with `replace_all` the number of
/// occurrences replaced.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `edit` must be a live `hl_edit`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_replacements(
    edit: *const hl_edit,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(edit, count, |e| Ok(e.replacements)) }
}

/// How many normalisations the edit needed (0 when the model's text was used verbatim).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `edit` must be a live `hl_edit`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_normalization_count(
    edit: *const hl_edit,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(edit, count, |e| Ok(e.normalizations.len())) }
}

/// The stable snake_case name of normalisation `index` (from 0, in a fixed order, each at most
/// once): `trailing_whitespace`, `line_endings`, `curly_quotes`, `desanitized` or
/// `deleted_line_ending`; later versions may add names.
///
/// On success `*name` points to `*name_len` bytes of NUL-terminated ASCII, owned by `edit` and
/// valid until `hl_edit_free(edit)`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index >= hl_edit_normalization_count`;
/// `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*name` and `*name_len` are untouched then.
///
/// # Safety
/// `edit` must be a live `hl_edit`; `name` and `name_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_normalization_name(
    edit: *const hl_edit,
    index: usize,
    name: *mut *const c_char,
    name_len: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe {
        get_text(edit, name, name_len, |e| {
            let n = e.normalizations.get(index).ok_or(hl_status::OutOfRange)?;
            Ok((n.as_ptr(), n.len()))
        })
    }
}

/// Fills `*range` with the lines of the new content that the first change occupies (for a
/// deletion, `start == end` is the line where the removed text was), so a host can show a
/// snippet around it.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL; `*range` is untouched then.
///
/// # Safety
/// `edit` must be a live `hl_edit`; `range` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_first_line_range(
    edit: *const hl_edit,
    range: *mut hl_line_range,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(edit, range, |e| Ok(e.first_edit)) }
}

/// Frees an edit. NULL is allowed and does nothing. Pointers obtained from it become invalid.
///
/// # Safety
/// `edit` must be NULL or a `hl_edit` from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_free(edit: *mut hl_edit) {
    guard_void(|| {
        if !edit.is_null() {
            // SAFETY: a non-NULL `edit` was made by `Box::into_raw` in this library and is freed
            // once (the caller's contract).
            drop(unsafe { Box::from_raw(edit) });
        }
    })
}

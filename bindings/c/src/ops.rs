//! The engine's tool operations (`engine::ops`): `hl_str_replace`, `hl_insert`, and Roo's
//! `insert_content` as `hl_insert_content` / `hl_insert_content_number`.
//!
//! Argument order follows the engine's functions. A file that may not exist is a text plus a
//! `bool ..._exists` flag, so "missing" is never confused with "empty".

use std::ffi::c_char;

use engine::ops::{self, Convention, EditType, Guards, LineArg, StrReplaceOptions};

use crate::args::{Out, maybe_str_arg, optional_str_arg, str_arg};
use crate::edit::hl_edit;
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::guard_with_error;
use crate::owned_text::hl_text;
use crate::status::hl_status;

/// Which line `hl_insert` counts from: one of the `HL_INSERT_` values.
///
/// A plain integer type rather than an enum so that any value a host passes is well-defined: an
/// unknown value fails as the engine does for an unknown convention name (code
/// `invalid_convention`, message `unknown insert convention '<value>': expected one of before,
/// after`).
#[allow(non_camel_case_types)]
pub type hl_insert_convention = u32;

/// `"before"`, Roo's `insert_content` numbering: the text goes before 1-based line N; 0 (or a
/// line past the end) appends.
pub const HL_INSERT_BEFORE: hl_insert_convention = 0;
/// `"after"`, Anthropic's text editor `insert`: the text goes after line N; 0 puts it at the top;
/// a line past the end is error `invalid_line`.
pub const HL_INSERT_AFTER: hl_insert_convention = 1;

/// Whether `hl_insert_content` created the file or changed it: one of the `HL_EDIT_TYPE_` values
/// (Roo's `editType`).
#[allow(non_camel_case_types)]
pub type hl_edit_type = u32;

/// `"create"`: the file did not exist; its content is the inserted text.
pub const HL_EDIT_TYPE_CREATE: hl_edit_type = 0;
/// `"modify"`: the file existed.
pub const HL_EDIT_TYPE_MODIFY: hl_edit_type = 1;

/// The engine's convention for `convention`, or its `invalid_convention` error.
pub(crate) fn engine_convention(convention: hl_insert_convention) -> Result<Convention, Failure> {
    Ok(match convention {
        HL_INSERT_BEFORE => Convention::Before,
        HL_INSERT_AFTER => Convention::After,
        // The engine's own error for a name it does not know.
        other => other.to_string().parse::<Convention>()?,
    })
}

/// The C value of an edit type.
fn edit_type_value(edit_type: EditType) -> hl_edit_type {
    match edit_type {
        EditType::Create => HL_EDIT_TYPE_CREATE,
        EditType::Modify => HL_EDIT_TYPE_MODIFY,
        // Caught by the unit tests; becomes HL_STATUS_PANIC if it ever slipped through.
        other => unreachable!("edit type {} has no HL_EDIT_TYPE_ value", other.as_str()),
    }
}

/// Replaces `old_text` with `new_text` in a file's `content`, with Claude Code's edit-tool
/// semantics (exact match first, then with curly quotes folded, then with the API's sanitised
/// tags mapped back; the match must be unique unless `replace_all`; trailing whitespace is
/// stripped from the new text's lines unless `path` ends in `.md` or `.mdx`; deleting a text
/// that ends its line removes that line ending too).
///
/// - `content`: the file's UTF-8 text, `content_len` bytes, when `content_exists` is true. When
///   it is false the file does not exist (an empty `old_text` then creates it): `content_len`
///   must be 0 and `content` is not read. `content_exists` true with `(NULL, 0)` is an existing,
///   empty file.
/// - `old_text`, `new_text`: UTF-8 texts of `old_len` and `new_len` bytes.
/// - `path`: the file's path, only used for the Markdown rule above; `(NULL, 0)` or empty means
///   not given.
///
/// All texts need no NUL terminator and may be NULL with length 0; they are only read during the
/// call. On success `*edit` receives a new `hl_edit` owned by the caller, who frees it with
/// `hl_edit_free`.
///
/// @return `HL_STATUS_EDIT_REJECTED` with `*error`, a new `hl_error` the caller frees with
/// `hl_error_free`, carrying code `old_equals_new`, `file_exists`, `file_not_found`, `not_found`
/// or `multiple_matches` and Claude Code's message (e.g. `String to replace not found in
/// file.\nString: <old>`). `HL_STATUS_NULL_ARGUMENT` if `edit` or `error` is NULL or a text is
/// NULL with a non-zero length; `HL_STATUS_INVALID_UTF8` if a text is not UTF-8;
/// `HL_STATUS_OUT_OF_RANGE` if `content_exists` is false and `content_len` is not 0. `*edit` is
/// set only on success, `*error` only with `HL_STATUS_EDIT_REJECTED`.
///
/// # Safety
/// Each text pointer must point to its length in readable bytes (or be NULL with length 0);
/// `edit` and `error` must be writable.
// The engine's five arguments as C texts (one with its existence flag) plus two out-parameters.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_str_replace(
    content: *const c_char,
    content_len: usize,
    content_exists: bool,
    old_text: *const c_char,
    old_len: usize,
    new_text: *const c_char,
    new_len: usize,
    replace_all: bool,
    path: *const c_char,
    path_len: usize,
    edit: *mut *mut hl_edit,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(edit)?;
        // SAFETY: the caller passes `content_len` readable bytes (this function's contract).
        let content = unsafe { maybe_str_arg(content, content_len, content_exists) }?;
        // SAFETY: the caller passes `old_len` readable bytes (this function's contract).
        let old = unsafe { str_arg(old_text, old_len) }?;
        // SAFETY: the caller passes `new_len` readable bytes (this function's contract).
        let new = unsafe { str_arg(new_text, new_len) }?;
        // SAFETY: the caller passes `path_len` readable bytes (this function's contract).
        let path = unsafe { optional_str_arg(path, path_len) }?;
        let e = ops::str_replace(content, old, new, replace_all, path)?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_edit::boxed(e))) };
        Ok(())
    })
}

/// Options of `hl_str_replace_with`. Zero-initialise it (`hl_str_replace_options opts = {0};`),
/// which selects every default (what `hl_str_replace` does with `replace_all` false and no
/// path), then set the fields you need; a NULL options pointer means the same. Fields added in
/// later versions will also default at zero.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hl_str_replace_options {
    /// Replace every non-overlapping occurrence instead of requiring exactly one.
    pub replace_all: bool,
    /// The file's path (`path_len` bytes of UTF-8; `(NULL, 0)`: none), only to tell Markdown
    /// files (which keep trailing whitespace) apart.
    pub path: *const c_char,
    /// The length of `path` in bytes.
    pub path_len: usize,
    /// True: turn off the omission-placeholder guard, so a new text that stands in for lines of
    /// the old one with a placeholder line (`// ... existing code ...`) is written as given
    /// instead of refused with `omission_placeholder`.
    pub no_omission_guard: bool,
}

impl Default for hl_str_replace_options {
    fn default() -> Self {
        hl_str_replace_options {
            replace_all: false,
            path: std::ptr::null(),
            path_len: 0,
            no_omission_guard: false,
        }
    }
}

/// `hl_str_replace` with its options in a struct (`options` may be NULL: the defaults), which
/// also holds the switch of the omission-placeholder guard. Statuses, errors and ownership as
/// `hl_str_replace`.
///
/// # Safety
/// Each text pointer must point to its length in readable bytes (or be NULL with length 0), as
/// must `options->path`; `options` must be NULL or point to a readable `hl_str_replace_options`;
/// `edit` and `error` must be writable.
// The engine's texts as C texts (one with its existence flag), the options, two out-parameters.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_str_replace_with(
    content: *const c_char,
    content_len: usize,
    content_exists: bool,
    old_text: *const c_char,
    old_len: usize,
    new_text: *const c_char,
    new_len: usize,
    options: *const hl_str_replace_options,
    edit: *mut *mut hl_edit,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(edit)?;
        // SAFETY: `options` is NULL or readable (this function's contract).
        let given = unsafe { options.as_ref() }.copied().unwrap_or_default();
        // SAFETY: the caller passes `content_len` readable bytes (this function's contract).
        let content = unsafe { maybe_str_arg(content, content_len, content_exists) }?;
        // SAFETY: the caller passes `old_len` readable bytes (this function's contract).
        let old = unsafe { str_arg(old_text, old_len) }?;
        // SAFETY: the caller passes `new_len` readable bytes (this function's contract).
        let new = unsafe { str_arg(new_text, new_len) }?;
        // SAFETY: `options->path` points to `path_len` readable bytes (this function's contract).
        let path = unsafe { optional_str_arg(given.path, given.path_len) }?;
        let mut settings = StrReplaceOptions::new()
            .replace_all(given.replace_all)
            .guards(Guards::NATIVE.omission_placeholders(!given.no_omission_guard));
        if let Some(path) = path {
            settings = settings.path(path);
        }
        let e = ops::str_replace_with(content, old, new, &settings)?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_edit::boxed(e))) };
        Ok(())
    })
}

/// Inserts `text` as whole lines into `content` at `line`, counted by `convention`
/// (`HL_INSERT_BEFORE`: before 1-based line `line`, 0 or past the end appends;
/// `HL_INSERT_AFTER`: after line `line`, 0 is the top, past the end is an error). The inserted
/// lines take the file's line ending; whether the file ends with one is kept.
///
/// `content` and `text` are UTF-8 texts of `content_len` and `text_len` bytes (not
/// NUL-terminated; NULL allowed with length 0; only read during the call). On success `*edit`
/// receives a new `hl_edit` owned by the caller, who frees it with `hl_edit_free`.
///
/// @return `HL_STATUS_EDIT_REJECTED` for a line past the end with `HL_INSERT_AFTER` (code
/// `invalid_line`, message naming the valid range), or `HL_STATUS_INVALID_OPTION` if
/// `convention` is not a `HL_INSERT_` value (code `invalid_convention`): both with `*error`, a
/// new `hl_error` the caller frees with `hl_error_free`. `HL_STATUS_NULL_ARGUMENT` if `edit` or
/// `error` is NULL or a text is NULL with a non-zero length; `HL_STATUS_INVALID_UTF8` if a text
/// is not UTF-8. `*edit` is set only on success, `*error` only with the statuses that say so.
///
/// # Safety
/// `content` and `text` must point to `content_len` and `text_len` readable bytes (or be NULL
/// with length 0); `edit` and `error` must be writable.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_insert(
    content: *const c_char,
    content_len: usize,
    line: usize,
    text: *const c_char,
    text_len: usize,
    convention: hl_insert_convention,
    edit: *mut *mut hl_edit,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(edit)?;
        // SAFETY: the caller passes `content_len` readable bytes (this function's contract).
        let content = unsafe { str_arg(content, content_len) }?;
        // SAFETY: the caller passes `text_len` readable bytes (this function's contract).
        let text = unsafe { str_arg(text, text_len) }?;
        let convention = engine_convention(convention)?;
        let e = ops::insert(content, line, text, convention)?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_edit::boxed(e))) };
        Ok(())
    })
}

/// The shared body of the two `hl_insert_content` entries.
///
/// # Safety
/// As for `hl_insert_content`, for `original` and `content`.
#[allow(clippy::too_many_arguments)]
unsafe fn insert_content(
    original: *const c_char,
    original_len: usize,
    original_exists: bool,
    line: impl FnOnce() -> Result<LineArg, Failure>,
    content: *const c_char,
    content_len: usize,
    new_content: *mut *mut hl_text,
    edit_type: *mut hl_edit_type,
) -> Result<(), Failure> {
    let (out_content, out_type) = (Out::new(new_content)?, Out::new(edit_type)?);
    // SAFETY: forwarded from this function's contract.
    let original = unsafe { maybe_str_arg(original, original_len, original_exists) }?;
    // SAFETY: forwarded from this function's contract.
    let content = unsafe { str_arg(content, content_len) }?;
    let r = ops::insert_content(original, line()?, Some(content))?;
    let kind = edit_type_value(r.edit_type);
    // SAFETY: both out-pointers are non-NULL and writable (the callers' contract).
    unsafe {
        out_content.write(Box::into_raw(hl_text::boxed(r.new_content)));
        out_type.write(kind);
    }
    Ok(())
}

/// Roo Code's `insert_content(path, line, content)` tool on a file whose text is `original`,
/// byte for byte, with `line` as the XML protocol passes it: text, read like JavaScript's
/// `parseInt(line, 10)` (`"1.9"` is 1, `" 2 "` is 2, `"2abc"` is 2). For a number (Roo's native
/// protocol) use `hl_insert_content_number`.
///
/// Roo joined lines with `\n` whatever the file uses, so in a `\r\n` file its output mixes
/// endings; use `hl_insert` with `HL_INSERT_BEFORE` for the same numbering in the file's own
/// endings.
///
/// - `original`: the file's UTF-8 text, `original_len` bytes, when `original_exists` is true.
///   When it is false the file does not exist: `original_len` must be 0 and `original` is not
///   read; only lines 0 and 1 are accepted then.
/// - `line`: `line_len` bytes of UTF-8. A missing argument is passed as `(NULL, 0)`: Roo rejects
///   a missing and an empty line alike.
/// - `content`: the UTF-8 text to insert, `content_len` bytes; an omitted argument is `(NULL,
///   0)`, the empty text, as in Roo.
///
/// Texts need no NUL terminator and are only read during the call. On success `*new_content`
/// receives a new `hl_text` with the file's new text, owned by the caller, who frees it with
/// `hl_text_free`, and `*edit_type` is `HL_EDIT_TYPE_CREATE` (the file did not exist) or
/// `HL_EDIT_TYPE_MODIFY`.
///
/// @return `HL_STATUS_EDIT_REJECTED` with `*error`, a new `hl_error` the caller frees with
/// `hl_error_free`, carrying Roo's message and code `invalid_line_number` (not a number, or
/// negative) or `invalid_line_for_new_file` (a line other than 0 or 1 for a missing file).
/// `HL_STATUS_NULL_ARGUMENT` if `new_content`, `edit_type` or `error` is NULL or a text is NULL
/// with a non-zero length; `HL_STATUS_INVALID_UTF8` if a text is not UTF-8;
/// `HL_STATUS_OUT_OF_RANGE` if `original_exists` is false and `original_len` is not 0.
/// `*new_content` and `*edit_type` are set only on success, `*error` only with
/// `HL_STATUS_EDIT_REJECTED`.
///
/// # Safety
/// Each text pointer must point to its length in readable bytes (or be NULL with length 0);
/// `new_content`, `edit_type` and `error` must be writable.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_insert_content(
    original: *const c_char,
    original_len: usize,
    original_exists: bool,
    line: *const c_char,
    line_len: usize,
    content: *const c_char,
    content_len: usize,
    new_content: *mut *mut hl_text,
    edit_type: *mut hl_edit_type,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let line = || {
            // SAFETY: the caller passes `line_len` readable bytes (this function's contract).
            let text = unsafe { str_arg(line, line_len) }?;
            Ok(LineArg::Text(text.to_owned()))
        };
        // SAFETY: forwarded from this function's contract.
        unsafe {
            insert_content(
                original,
                original_len,
                original_exists,
                line,
                content,
                content_len,
                new_content,
                edit_type,
            )
        }
    })
}

/// `hl_insert_content` with `line` as Roo's native (JSON) protocol passes it: a number, used as
/// is (`1.5` behaves like 1; a negative number is `invalid_line_number`). NaN stands for a
/// missing argument, which Roo rejects with `invalid_line_number`.
///
/// Everything else, ownership included, is as for `hl_insert_content`.
///
/// # Safety
/// As for `hl_insert_content`.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_insert_content_number(
    original: *const c_char,
    original_len: usize,
    original_exists: bool,
    line: f64,
    content: *const c_char,
    content_len: usize,
    new_content: *mut *mut hl_text,
    edit_type: *mut hl_edit_type,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let line = || {
            Ok(if line.is_nan() {
                LineArg::Missing
            } else {
                LineArg::Number(line)
            })
        };
        // SAFETY: forwarded from this function's contract.
        unsafe {
            insert_content(
                original,
                original_len,
                original_exists,
                line,
                content,
                content_len,
                new_content,
                edit_type,
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_engine_convention_has_a_value() {
        for &c in Convention::ALL {
            let found = (0..16).any(|v| engine_convention(v).ok() == Some(c));
            assert!(found, "{c} has no HL_INSERT_ value");
        }
        match engine_convention(7) {
            Err(Failure::Engine(e)) => {
                assert_eq!(e.code(), "invalid_convention");
                assert_eq!(
                    e.message(),
                    "unknown insert convention '7': expected one of before, after"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_edit_type_has_a_value() {
        assert_eq!(edit_type_value(EditType::Create), HL_EDIT_TYPE_CREATE);
        assert_eq!(edit_type_value(EditType::Modify), HL_EDIT_TYPE_MODIFY);
    }
}

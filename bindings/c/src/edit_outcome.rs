//! [`hl_edit_outcome`]: what a workspace edit or undo did (the file layer's [`EditOutcome`]).

use std::ffi::c_char;
use std::ptr;

use hunkloom_fs::{EditOutcome, ExternalChange, Report};

use crate::args::{Out, get_text, get_value, handle};
use crate::edit::hl_edit;
use crate::ffi_guard::{guard, guard_void};
use crate::result::hl_result;
use crate::status::hl_status;
use crate::text::CText;

/// What a successful `hl_workspace_str_replace`, `hl_workspace_insert`, `hl_workspace_write`,
/// `hl_workspace_apply_diff` or `hl_workspace_undo` did to its file: the path, the kind of
/// change, whether the bytes on disk changed, the text the file now holds, its encoding, and the
/// operation's own report.
///
/// Owned by the caller, who frees it with `hl_edit_outcome_free`. Immutable, so it may be read
/// from several threads at once.
#[derive(Debug)]
pub struct hl_edit_outcome {
    path: CText,
    kind: CText,
    changed: bool,
    /// `None` when the file was deleted (an undo of a create).
    content: Option<CText>,
    encoding: CText,
    edit: Option<Box<hl_edit>>,
    result: Option<Box<hl_result>>,
    external: Box<[hl_external_change]>,
}

/// A region another writer changed after the file was read, around which an edit was merged.
/// Lines are 1-based; `count == 0` means lines were only removed (just before `start`),
/// `read_count == 0` that lines were only added.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hl_external_change {
    /// The first line of the region in the file as written.
    pub start: usize,
    /// How many lines it holds in the file as written.
    pub count: usize,
    /// The first line it replaced in the text that was read.
    pub read_start: usize,
    /// How many lines of the text that was read it replaced.
    pub read_count: usize,
}

impl hl_external_change {
    /// The file layer's regions, for C.
    pub(crate) fn list(changes: &[ExternalChange]) -> Box<[hl_external_change]> {
        changes
            .iter()
            .map(|c| hl_external_change {
                start: c.start,
                count: c.count,
                read_start: c.read_start,
                read_count: c.read_count,
            })
            .collect()
    }
}

impl hl_edit_outcome {
    /// The outcome for C (texts moved, not copied, where the file layer owns them).
    pub(crate) fn boxed(outcome: EditOutcome) -> Box<Self> {
        let (edit, result) = match outcome.report {
            Report::Edit(edit) => (Some(hl_edit::boxed(edit)), None),
            Report::Diff(diff) => (
                None,
                Some(hl_result::boxed(
                    CText::from_string(diff.new_content),
                    diff.match_indices,
                    &diff.blocks,
                )),
            ),
            _ => (None, None),
        };
        let external = hl_external_change::list(&outcome.external_changes);
        Box::new(hl_edit_outcome {
            external,
            path: CText::from_string(outcome.path.to_string_lossy().into_owned()),
            kind: CText::from_str(outcome.kind.as_str()),
            changed: outcome.changed,
            content: outcome.new_content.map(CText::from_string),
            encoding: CText::from_str(outcome.encoding.as_str()),
            edit,
            result,
        })
    }
}

/// The absolute path of the file written or removed (its destination, for a move), with the
/// workspace root's symlinks resolved; a path that is not UTF-8 is shown with U+FFFD in place
/// of the bytes that are not.
///
/// On success `*path` points to `*path_len` bytes of NUL-terminated UTF-8, owned by `outcome`
/// and valid until `hl_edit_outcome_free(outcome)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_edit_outcome`; `path` and `path_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_outcome_path(
    outcome: *const hl_edit_outcome,
    path: *mut *const c_char,
    path_len: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe {
        get_text(outcome, path, path_len, |o| {
            Ok((o.path.as_ptr(), o.path.len()))
        })
    }
}

/// What was done to the file, as a stable name: `create`, `update`, `delete` (an undo that
/// removed a file it had created) or `move`; later versions may add names.
///
/// On success `*kind` points to `*kind_len` bytes of NUL-terminated ASCII, owned by `outcome`
/// and valid until `hl_edit_outcome_free(outcome)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_edit_outcome`; `kind` and `kind_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_outcome_kind(
    outcome: *const hl_edit_outcome,
    kind: *mut *const c_char,
    kind_len: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe {
        get_text(outcome, kind, kind_len, |o| {
            Ok((o.kind.as_ptr(), o.kind.len()))
        })
    }
}

/// Whether the bytes on disk changed (false for an edit whose result equals the file: nothing
/// was written).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_edit_outcome`; `changed` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_outcome_changed(
    outcome: *const hl_edit_outcome,
    changed: *mut bool,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(outcome, changed, |o| Ok(o.changed)) }
}

/// How many regions other writers changed since the file was read, around which the edit was
/// merged (0 when the file was unchanged since it was read). Read each with
/// `hl_edit_outcome_external_change`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_edit_outcome`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_outcome_external_change_count(
    outcome: *const hl_edit_outcome,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(outcome, count, |o| Ok(o.external.len())) }
}

/// The `index`-th region (from 0, in file order) other writers changed since the read.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index` is not below
/// `hl_edit_outcome_external_change_count`; `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_edit_outcome`; `change` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_outcome_external_change(
    outcome: *const hl_edit_outcome,
    index: usize,
    change: *mut hl_external_change,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(outcome, change, |o| {
            o.external.get(index).copied().ok_or(hl_status::OutOfRange)
        })
    }
}

/// The decoded text the file now holds, with its own line endings (what `hl_workspace_read`
/// would return now).
///
/// On success `*exists` is false if the file no longer exists (an undo of a create), and then
/// `*content` points to an empty text; otherwise `*content` points to `*content_len` bytes of
/// UTF-8 followed by a NUL (the text may itself contain NUL characters: use the length). Owned
/// by `outcome` and valid until `hl_edit_outcome_free(outcome)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL; nothing is written then.
///
/// # Safety
/// `outcome` must be a live `hl_edit_outcome`; `content`, `content_len` and `exists` must be
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_outcome_content(
    outcome: *const hl_edit_outcome,
    content: *mut *const c_char,
    content_len: *mut usize,
    exists: *mut bool,
) -> hl_status {
    guard(|| {
        let (content, content_len) = (Out::new(content)?, Out::new(content_len)?);
        let exists = Out::new(exists)?;
        // SAFETY: the caller passes a live hl_edit_outcome (this function's contract).
        let o = unsafe { handle(outcome) }?;
        let (p, n) = o
            .content
            .as_ref()
            .map_or((c"".as_ptr(), 0), |c| (c.as_ptr(), c.len()));
        // SAFETY: the out-pointers are non-NULL and writable (this function's contract).
        unsafe {
            content.write(p);
            content_len.write(n);
            exists.write(o.content.is_some());
        }
        Ok(())
    })
}

/// The encoding the file is stored in, as a stable name: `utf-8`, `utf-8-bom`, `utf-16le`,
/// `utf-16be`, or a legacy encoding's WHATWG name such as `windows-1251` or `Shift_JIS` (a new
/// file is `utf-8`); later versions may add names.
///
/// On success `*encoding` points to `*encoding_len` bytes of NUL-terminated ASCII, owned by
/// `outcome` and valid until `hl_edit_outcome_free(outcome)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_edit_outcome`; `encoding` and `encoding_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_outcome_encoding(
    outcome: *const hl_edit_outcome,
    encoding: *mut *const c_char,
    encoding_len: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe {
        get_text(outcome, encoding, encoding_len, |o| {
            Ok((o.encoding.as_ptr(), o.encoding.len()))
        })
    }
}

/// The report of `hl_workspace_str_replace` and `hl_workspace_insert`: on success `*edit` points
/// to a `hl_edit` (replacements, normalisations, first edited lines; its content and line range
/// are in the `\n` view of the file the operation saw), or is NULL for the other operations.
/// The `hl_edit` is owned by `outcome` and valid until `hl_edit_outcome_free(outcome)`: read it
/// with the `hl_edit_` accessors, never free it.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL; `*edit` is untouched then.
///
/// # Safety
/// `outcome` must be a live `hl_edit_outcome`; `edit` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_outcome_edit(
    outcome: *const hl_edit_outcome,
    edit: *mut *const hl_edit,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(outcome, edit, |o| {
            Ok(o.edit.as_deref().map_or(ptr::null(), ptr::from_ref))
        })
    }
}

/// The report of `hl_workspace_apply_diff`: on success `*result` points to a `hl_result` (the
/// content the dialect produced, the match positions and one `hl_block` per block, in the text
/// the dialect saw: the `\n` view in `native`, the decoded text in the Cline dialects), or is
/// NULL for the other operations. The `hl_result` is owned by `outcome` and valid until
/// `hl_edit_outcome_free(outcome)`: read it with the `hl_result_` accessors, never free it.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL; `*result` is untouched then.
///
/// # Safety
/// `outcome` must be a live `hl_edit_outcome`; `result` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_outcome_result(
    outcome: *const hl_edit_outcome,
    result: *mut *const hl_result,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(outcome, result, |o| {
            Ok(o.result.as_deref().map_or(ptr::null(), ptr::from_ref))
        })
    }
}

/// Frees an outcome. NULL is allowed and does nothing. Pointers obtained from it (texts, the
/// borrowed `hl_edit` or `hl_result`) become invalid.
///
/// # Safety
/// `outcome` must be NULL or a `hl_edit_outcome` from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_edit_outcome_free(outcome: *mut hl_edit_outcome) {
    guard_void(|| {
        if !outcome.is_null() {
            // SAFETY: a non-NULL `outcome` was made by `Box::into_raw` in this library and is
            // freed once (the caller's contract).
            drop(unsafe { Box::from_raw(outcome) });
        }
    })
}

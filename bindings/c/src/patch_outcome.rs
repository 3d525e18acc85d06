//! [`hl_patch_outcome`]: what `hl_workspace_apply_patch` did to the files on disk (the file
//! layer's [`PatchOutcome`]).

use std::ffi::c_char;

use hunkloom_fs::{PatchOutcome, PatchedFile};

use crate::args::get_value;
use crate::edit_outcome::hl_external_change;
use crate::failure::hl_error;
use crate::ffi_guard::guard_void;
use crate::patch::{Warning, get_failure, hl_patch_warning};
use crate::status::hl_status;
use crate::text::CText;

/// One file `hl_workspace_apply_patch` changed, in its final state, filled in by
/// `hl_patch_outcome_file`. Every pointer is owned by the outcome and valid until
/// `hl_patch_outcome_free`; texts are UTF-8 and NUL-terminated, and an absent one is empty.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hl_patched_file {
    /// The path as the patch names it (the destination, for a move).
    pub path: *const c_char,
    /// The length of `path` in bytes.
    pub path_len: usize,
    /// Whether the file was moved here (then `moved_from` is the source as the patch names it).
    pub has_moved_from: bool,
    /// The source of a move.
    pub moved_from: *const c_char,
    /// The length of `moved_from` in bytes.
    pub moved_from_len: usize,
    /// The absolute path written or removed (a path that is not UTF-8 is shown with U+FFFD).
    pub resolved: *const c_char,
    /// The length of `resolved` in bytes.
    pub resolved_len: usize,
    /// What happened on disk, as a stable name: `create`, `update` (also an Add over an
    /// existing file), `delete` or `move` (also onto an existing file); later versions may add
    /// names.
    pub kind: *const c_char,
    /// The length of `kind` in bytes.
    pub kind_len: usize,
    /// Whether there is an `old_content` (not for a create).
    pub has_old_content: bool,
    /// The decoded text before (for a move, the source's).
    pub old_content: *const c_char,
    /// The length of `old_content` in bytes.
    pub old_content_len: usize,
    /// Whether there is a `new_content` (not for a delete).
    pub has_new_content: bool,
    /// The decoded text after.
    pub new_content: *const c_char,
    /// The length of `new_content` in bytes.
    pub new_content_len: usize,
    /// The encoding the file is written in, as a stable name (`utf-8`, `utf-8-bom`,
    /// `utf-16le`, `utf-16be`, or a legacy encoding's WHATWG name such as `windows-1251`).
    pub encoding: *const c_char,
    /// The length of `encoding` in bytes.
    pub encoding_len: usize,
    /// Whether the bytes on disk changed (false for an update to identical content).
    pub changed: bool,
}

/// A changed file as C reads it.
#[derive(Debug)]
struct File {
    path: CText,
    moved_from: Option<CText>,
    resolved: CText,
    kind: CText,
    old_content: Option<CText>,
    new_content: Option<CText>,
    encoding: CText,
    changed: bool,
    external: Box<[hl_external_change]>,
}

/// An optional text's pointer and length: the empty, NUL-terminated text when absent.
fn opt_text(text: Option<&CText>) -> (*const c_char, usize) {
    text.map_or((c"".as_ptr(), 0), |t| (t.as_ptr(), t.len()))
}

impl File {
    fn new(f: PatchedFile) -> File {
        File {
            path: CText::from_string(f.path),
            moved_from: f.moved_from.map(CText::from_string),
            resolved: CText::from_string(f.resolved.to_string_lossy().into_owned()),
            kind: CText::from_str(f.kind.as_str()),
            old_content: f.old_content.map(CText::from_string),
            new_content: f.new_content.map(CText::from_string),
            encoding: CText::from_str(f.encoding.as_str()),
            changed: f.changed,
            external: hl_external_change::list(&f.external_changes),
        }
    }

    fn to_c(&self) -> hl_patched_file {
        let (moved_from, moved_from_len) = opt_text(self.moved_from.as_ref());
        let (old_content, old_content_len) = opt_text(self.old_content.as_ref());
        let (new_content, new_content_len) = opt_text(self.new_content.as_ref());
        hl_patched_file {
            path: self.path.as_ptr(),
            path_len: self.path.len(),
            has_moved_from: self.moved_from.is_some(),
            moved_from,
            moved_from_len,
            resolved: self.resolved.as_ptr(),
            resolved_len: self.resolved.len(),
            kind: self.kind.as_ptr(),
            kind_len: self.kind.len(),
            has_old_content: self.old_content.is_some(),
            old_content,
            old_content_len,
            has_new_content: self.new_content.is_some(),
            new_content,
            new_content_len,
            encoding: self.encoding.as_ptr(),
            encoding_len: self.encoding.len(),
            changed: self.changed,
        }
    }
}

/// What `hl_workspace_apply_patch` did: each file changed (in the order the patch first names
/// it), the warnings, Cline's fuzz score and, with `HL_POLICY_PARTIAL`, the failure that
/// stopped the patch after the hunks before it were committed.
///
/// Owned by the caller, who frees it with `hl_patch_outcome_free`. Immutable, so it may be read
/// from several threads at once.
#[derive(Debug)]
pub struct hl_patch_outcome {
    files: Vec<File>,
    warnings: Vec<Warning>,
    fuzz: u64,
    failure: Option<(usize, engine::Error)>,
}

impl hl_patch_outcome {
    /// The outcome for C.
    pub(crate) fn boxed(outcome: PatchOutcome) -> Box<Self> {
        Box::new(hl_patch_outcome {
            warnings: outcome.warnings.iter().map(Warning::new).collect(),
            fuzz: outcome.fuzz,
            failure: outcome.failure.map(|f| (f.hunk, f.error)),
            files: outcome.files.into_iter().map(File::new).collect(),
        })
    }
}

/// How many files the patch changed on disk.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_patch_outcome`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_outcome_file_count(
    outcome: *const hl_patch_outcome,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(outcome, count, |o| Ok(o.files.len())) }
}

/// Fills `*file` with changed file `index` (from 0); its pointers are owned by `outcome` and
/// valid until `hl_patch_outcome_free(outcome)`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index >= hl_patch_outcome_file_count`;
/// `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*file` is untouched then.
///
/// # Safety
/// `outcome` must be a live `hl_patch_outcome`; `file` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_outcome_file(
    outcome: *const hl_patch_outcome,
    index: usize,
    file: *mut hl_patched_file,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(outcome, file, |o| {
            Ok(o.files.get(index).ok_or(hl_status::OutOfRange)?.to_c())
        })
    }
}

/// How many regions other writers changed in changed file `file` (from 0) since it was read,
/// around which the patch was merged (0 when it was unchanged since the read). Read each with
/// `hl_patch_outcome_external_change`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `file >= hl_patch_outcome_file_count`;
/// `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_patch_outcome`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_outcome_external_change_count(
    outcome: *const hl_patch_outcome,
    file: usize,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(outcome, count, |o| {
            Ok(o.files
                .get(file)
                .ok_or(hl_status::OutOfRange)?
                .external
                .len())
        })
    }
}

/// The `index`-th region (from 0, in file order) other writers changed in changed file `file`
/// since it was read.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `file` or `index` is out of range;
/// `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_patch_outcome`; `change` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_outcome_external_change(
    outcome: *const hl_patch_outcome,
    file: usize,
    index: usize,
    change: *mut hl_external_change,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(outcome, change, |o| {
            let file = o.files.get(file).ok_or(hl_status::OutOfRange)?;
            file.external
                .get(index)
                .copied()
                .ok_or(hl_status::OutOfRange)
        })
    }
}

/// How many warnings there are (chunks the Cline dialect skipped).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_patch_outcome`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_outcome_warning_count(
    outcome: *const hl_patch_outcome,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(outcome, count, |o| Ok(o.warnings.len())) }
}

/// Fills `*warning` with warning `index` (from 0); its pointers are owned by `outcome` and
/// valid until `hl_patch_outcome_free(outcome)`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index >= hl_patch_outcome_warning_count`;
/// `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*warning` is untouched then.
///
/// # Safety
/// `outcome` must be a live `hl_patch_outcome`; `warning` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_outcome_warning(
    outcome: *const hl_patch_outcome,
    index: usize,
    warning: *mut hl_patch_warning,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(outcome, warning, |o| {
            Ok(o.warnings.get(index).ok_or(hl_status::OutOfRange)?.to_c())
        })
    }
}

/// Cline's fuzz score (always 0 in the Codex dialect), as for `hl_patch_result_fuzz`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `outcome` must be a live `hl_patch_outcome`; `fuzz` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_outcome_fuzz(
    outcome: *const hl_patch_outcome,
    fuzz: *mut u64,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(outcome, fuzz, |o| Ok(o.fuzz)) }
}

/// With `HL_POLICY_PARTIAL`: the hunk that failed, after the hunks before it were committed
/// (what Codex leaves on disk). As for `hl_patch_result_failure`: on success `*failure` is a new
/// `hl_error` the caller frees with `hl_error_free` and `*hunk` its 0-based index, or NULL and 0
/// if no hunk failed.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL; nothing is written then.
///
/// # Safety
/// `outcome` must be a live `hl_patch_outcome`; `hunk` and `failure` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_outcome_failure(
    outcome: *const hl_patch_outcome,
    hunk: *mut usize,
    failure: *mut *mut hl_error,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe { get_failure(outcome, hunk, failure, |o| o.failure.as_ref()) }
}

/// Frees a patch outcome. NULL is allowed and does nothing. Pointers obtained from it become
/// invalid; errors from `hl_patch_outcome_failure` stay valid.
///
/// # Safety
/// `outcome` must be NULL or a `hl_patch_outcome` from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_outcome_free(outcome: *mut hl_patch_outcome) {
    guard_void(|| {
        if !outcome.is_null() {
            // SAFETY: a non-NULL `outcome` was made by `Box::into_raw` in this library and is
            // freed once (the caller's contract).
            drop(unsafe { Box::from_raw(outcome) });
        }
    })
}

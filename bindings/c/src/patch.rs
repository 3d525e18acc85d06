//! `hl_apply_patch`: a multi-file patch in the `*** Begin Patch` format (Codex's and Cline's
//! `apply_patch`) planned and applied in memory (the core's [`plan_patch`]), and
//! [`hl_patch_result`], what it gives.

use std::collections::BTreeMap;
use std::ffi::c_char;
use std::ptr;

use engine::patch::{self, PatchDialect, PatchOptions, Plan, plan_patch};
use engine::{Error, ErrorKind};

use crate::args::{Out, get_text, get_value, handle, str_arg};
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::{guard, guard_void, guard_with_error};
use crate::options::{hl_policy, policy};
use crate::status::hl_status;
use crate::text::CText;

/// Whose `apply_patch` a patch is read and applied like: one of the `HL_PATCH_DIALECT_` values.
///
/// A plain integer type rather than an enum so that any value a host passes is well-defined: an
/// unknown value fails as the engine does for an unknown patch dialect name (status
/// `HL_STATUS_INVALID_OPTION`, code `invalid_dialect`).
#[allow(non_camel_case_types)]
pub type hl_patch_dialect = u32;

/// OpenAI Codex's `apply_patch` (the default, 0): Codex's lenient grammar and matching cascade,
/// with every untouched line's ending kept.
pub const HL_PATCH_DIALECT_CODEX: hl_patch_dialect = 0;
/// Cline v4.0.10's `apply_patch` tool, byte for byte: its fuzz score, its warnings for chunks
/// it skips, its error messages.
pub const HL_PATCH_DIALECT_CLINE: hl_patch_dialect = 1;
/// A unified diff of any number of files (a git patch: `diff --git` and/or `---`/`+++` per
/// file; `/dev/null` adds or deletes a file, different names move it), each file's hunks placed
/// as `HL_DIALECT_UDIFF` places them.
pub const HL_PATCH_DIALECT_UDIFF: hl_patch_dialect = 2;
/// A unified diff of any number of files applied exactly as `git apply` does (`recount` for
/// `git apply --recount`); git's `error:` lines as the message.
pub const HL_PATCH_DIALECT_UDIFF_STRICT: hl_patch_dialect = 3;
/// An aider reply in its `diff` format (SEARCH/REPLACE blocks under file names, several files
/// per reply), applied as aider 0.86 applies it; its failure texts as the message. The files
/// passed are aider's chat files (a block that misses its file is tried on the others).
pub const HL_PATCH_DIALECT_AIDER: hl_patch_dialect = 4;
/// aider's `diff-fenced` format (the file name inside the fence), read as `HL_PATCH_DIALECT_AIDER`.
pub const HL_PATCH_DIALECT_AIDER_FENCED: hl_patch_dialect = 5;
/// aider's `whole` format: whole-file listings under file names.
pub const HL_PATCH_DIALECT_AIDER_WHOLE: hl_patch_dialect = 6;
/// aider's `diff` / `diff-fenced` replies without aider's guesses: each block placed by the
/// native engine in exactly one place of the file it names, or the reply refused.
pub const HL_PATCH_DIALECT_AIDER_NATIVE: hl_patch_dialect = 7;
/// The native reading of `*** Begin Patch` patches (and, with `hl_apply_patch_body`, of bare V4A
/// bodies): each section placed by its lines in exactly one place of the file (its `@@` anchors
/// or `*** End of File` choosing among several), its `+` lines re-indented as its context was
/// found, line endings and the final-newline state kept, or the patch refused.
pub const HL_PATCH_DIALECT_NATIVE: hl_patch_dialect = 8;

/// What a change of a patch does: one of the `HL_PATCH_CHANGE_` values.
#[allow(non_camel_case_types)]
pub type hl_patch_change_kind = u32;

/// `*** Add File:` — the file is created (or overwritten) with `content`.
pub const HL_PATCH_CHANGE_ADD: hl_patch_change_kind = 0;
/// `*** Update File:` — the file's content becomes `content`, and it moves to `move_to` if
/// `has_move_to`.
pub const HL_PATCH_CHANGE_UPDATE: hl_patch_change_kind = 1;
/// `*** Delete File:` — the file is removed.
pub const HL_PATCH_CHANGE_DELETE: hl_patch_change_kind = 2;

/// Options of `hl_apply_patch`. Zero-initialise it (`hl_patch_options opts = {0};`), which
/// selects every default (Codex, all or nothing), then set the fields you need; a NULL options
/// pointer means the same. Fields added in later versions will also default at zero.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hl_patch_options {
    /// A `HL_PATCH_DIALECT_` value (default, 0: `HL_PATCH_DIALECT_CODEX`).
    pub dialect: hl_patch_dialect,
    /// A `HL_POLICY_` value (default, 0: `HL_POLICY_ALL_OR_NOTHING`: any failing hunk refuses
    /// the patch; `HL_POLICY_PARTIAL` keeps the hunks before the first failure, as Codex leaves
    /// them on disk, and reports the failure with `hl_patch_result_failure`).
    pub policy: hl_policy,
    /// `HL_PATCH_DIALECT_UDIFF_STRICT` only: count each hunk's lines from its body, as
    /// `git apply --recount` does (default, false: off).
    pub recount: bool,
}

impl hl_patch_options {
    /// The engine's options, or the engine's error for a value it has no counterpart of.
    pub(crate) fn to_engine(self) -> Result<PatchOptions, Failure> {
        let dialect = match self.dialect {
            HL_PATCH_DIALECT_CODEX => PatchDialect::Codex,
            HL_PATCH_DIALECT_CLINE => PatchDialect::Cline,
            HL_PATCH_DIALECT_UDIFF => PatchDialect::Udiff,
            HL_PATCH_DIALECT_UDIFF_STRICT => PatchDialect::UdiffStrict,
            HL_PATCH_DIALECT_AIDER => PatchDialect::Aider,
            HL_PATCH_DIALECT_AIDER_FENCED => PatchDialect::AiderFenced,
            HL_PATCH_DIALECT_AIDER_WHOLE => PatchDialect::AiderWhole,
            HL_PATCH_DIALECT_AIDER_NATIVE => PatchDialect::AiderNative,
            HL_PATCH_DIALECT_NATIVE => PatchDialect::Native,
            // The engine's own error for a name it does not know.
            other => other.to_string().parse::<PatchDialect>()?,
        };
        Ok(PatchOptions::new()
            .dialect(dialect)
            .policy(policy(self.policy)?)
            .recount(self.recount))
    }
}

/// One file: a path and its content, both UTF-8 of the given lengths (not NUL-terminated when
/// passed in; NULL allowed with length 0).
///
/// In: `hl_apply_patch`'s current files. Out: filled in by `hl_patch_result_file`, pointing to
/// NUL-terminated texts owned by the result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hl_patch_file {
    /// The path, exactly as the patch names it (no normalisation: `a.txt` and `./a.txt` differ).
    pub path: *const c_char,
    /// The length of `path` in bytes.
    pub path_len: usize,
    /// The file's whole text.
    pub content: *const c_char,
    /// The length of `content` in bytes.
    pub content_len: usize,
}

/// One change of the plan, filled in by `hl_patch_result_change`. Every pointer is owned by the
/// result and valid until `hl_patch_result_free`; texts are UTF-8 and NUL-terminated.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hl_patch_change {
    /// The path the hunk names (the source of a move), as written in the patch.
    pub path: *const c_char,
    /// The length of `path` in bytes.
    pub path_len: usize,
    /// A `HL_PATCH_CHANGE_` value.
    pub kind: hl_patch_change_kind,
    /// The file's whole new content (add, update); empty for a delete.
    pub content: *const c_char,
    /// The length of `content` in bytes.
    pub content_len: usize,
    /// Whether the update moves the file (then `move_to` is its destination).
    pub has_move_to: bool,
    /// The destination of a move; empty when `has_move_to` is false.
    pub move_to: *const c_char,
    /// The length of `move_to` in bytes.
    pub move_to_len: usize,
    /// For an update, the 1-based line in the original file where each applied chunk starts
    /// (`start_line_count` of them); NULL when there are none.
    pub start_lines: *const usize,
    /// How many `start_lines` there are.
    pub start_line_count: usize,
}

/// Something the caller should know that did not stop the patch (Cline's skipped chunks),
/// filled in by `hl_patch_result_warning`. Every pointer is owned by the result and valid until
/// `hl_patch_result_free`; texts are UTF-8 and NUL-terminated.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hl_patch_warning {
    /// The file concerned.
    pub path: *const c_char,
    /// The length of `path` in bytes.
    pub path_len: usize,
    /// Whether the warning concerns one chunk (then `chunk_index` is its 0-based index).
    pub has_chunk_index: bool,
    /// The chunk's index; 0 when `has_chunk_index` is false.
    pub chunk_index: usize,
    /// What happened (Cline's exact text in the Cline dialect).
    pub message: *const c_char,
    /// The length of `message` in bytes.
    pub message_len: usize,
    /// Whether there is a `context`.
    pub has_context: bool,
    /// The chunk's context lines, cut at 200 UTF-16 code units plus `...` (Cline); empty when
    /// `has_context` is false.
    pub context: *const c_char,
    /// The length of `context` in bytes.
    pub context_len: usize,
}

/// An optional text's pointer and length: the empty, NUL-terminated text when absent.
fn opt_text(text: Option<&CText>) -> (*const c_char, usize) {
    text.map_or((c"".as_ptr(), 0), |t| (t.as_ptr(), t.len()))
}

/// A change as C reads it.
#[derive(Debug)]
struct Change {
    path: CText,
    kind: hl_patch_change_kind,
    content: Option<CText>,
    move_to: Option<CText>,
    start_lines: Vec<usize>,
}

impl Change {
    fn new(change: &patch::FileChange) -> Change {
        let (kind, content, move_to, start_lines) = match &change.kind {
            patch::ChangeKind::Add { content } => {
                (HL_PATCH_CHANGE_ADD, Some(content), None, Vec::new())
            }
            patch::ChangeKind::Update {
                new_content,
                move_to,
                start_lines,
            } => (
                HL_PATCH_CHANGE_UPDATE,
                Some(new_content),
                move_to.as_deref(),
                start_lines.clone(),
            ),
            patch::ChangeKind::Delete => (HL_PATCH_CHANGE_DELETE, None, None, Vec::new()),
            // Caught by the unit tests; becomes HL_STATUS_PANIC if it ever slipped through.
            other => unreachable!("patch change {other:?} has no HL_PATCH_CHANGE_ value"),
        };
        Change {
            path: CText::from_str(&change.path),
            kind,
            content: content.map(|c| CText::from_str(c)),
            move_to: move_to.map(CText::from_str),
            start_lines,
        }
    }

    fn to_c(&self) -> hl_patch_change {
        let (content, content_len) = opt_text(self.content.as_ref());
        let (move_to, move_to_len) = opt_text(self.move_to.as_ref());
        hl_patch_change {
            path: self.path.as_ptr(),
            path_len: self.path.len(),
            kind: self.kind,
            content,
            content_len,
            has_move_to: self.move_to.is_some(),
            move_to,
            move_to_len,
            start_lines: if self.start_lines.is_empty() {
                ptr::null()
            } else {
                self.start_lines.as_ptr()
            },
            start_line_count: self.start_lines.len(),
        }
    }
}

/// A warning as C reads it.
#[derive(Debug)]
pub(crate) struct Warning {
    path: CText,
    chunk_index: Option<usize>,
    message: CText,
    context: Option<CText>,
}

impl Warning {
    pub(crate) fn new(w: &patch::Warning) -> Warning {
        Warning {
            path: CText::from_str(&w.path),
            chunk_index: w.chunk_index,
            message: CText::from_str(&w.message),
            context: w.context.as_deref().map(CText::from_str),
        }
    }

    pub(crate) fn to_c(&self) -> hl_patch_warning {
        let (context, context_len) = opt_text(self.context.as_ref());
        hl_patch_warning {
            path: self.path.as_ptr(),
            path_len: self.path.len(),
            has_chunk_index: self.chunk_index.is_some(),
            chunk_index: self.chunk_index.unwrap_or(0),
            message: self.message.as_ptr(),
            message_len: self.message.len(),
            has_context: self.context.is_some(),
            context,
            context_len,
        }
    }
}

/// What `hl_apply_patch` gives: every file afterwards (the files passed in with the patch
/// applied), the paths it removed, the plan's changes, its warnings, Cline's fuzz score and,
/// with `HL_POLICY_PARTIAL`, the failure that stopped it.
///
/// Owned by the caller, who frees it with `hl_patch_result_free`. Immutable, so it may be read
/// from several threads at once.
#[derive(Debug)]
pub struct hl_patch_result {
    /// Sorted by path (bytewise).
    files: Vec<(CText, CText)>,
    deleted: Vec<CText>,
    changes: Vec<Change>,
    warnings: Vec<Warning>,
    fuzz: u64,
    failure: Option<(usize, engine::Error)>,
}

impl hl_patch_result {
    /// The result of `plan` applied to `files`.
    pub(crate) fn boxed(plan: Plan, mut files: BTreeMap<String, String>) -> Box<Self> {
        let deleted = plan.apply_to(&mut files);
        Box::new(hl_patch_result {
            files: files
                .into_iter()
                .map(|(p, c)| (CText::from_string(p), CText::from_string(c)))
                .collect(),
            deleted: deleted.into_iter().map(CText::from_string).collect(),
            changes: plan.changes.iter().map(Change::new).collect(),
            warnings: plan.warnings.iter().map(Warning::new).collect(),
            fuzz: plan.fuzz,
            failure: plan.failure.map(|f| (f.hunk, f.error)),
        })
    }
}

/// Reads the files passed to `hl_apply_patch`.
///
/// # Safety
/// `files` must be NULL with `count` 0, or point to `count` readable `hl_patch_file`s whose
/// texts are valid as documented.
pub(crate) unsafe fn files_arg(
    files: *const hl_patch_file,
    count: usize,
) -> Result<BTreeMap<String, String>, Failure> {
    if count == 0 {
        return Ok(BTreeMap::new());
    }
    if files.is_null() {
        return Err(hl_status::NullArgument.into());
    }
    if count > isize::MAX as usize / std::mem::size_of::<hl_patch_file>() {
        return Err(hl_status::OutOfRange.into());
    }
    // SAFETY: non-NULL, aligned and `count` readable entries (this function's contract).
    let files = unsafe { std::slice::from_raw_parts(files, count) };
    let mut map = BTreeMap::new();
    for f in files {
        // SAFETY: each entry's texts are readable (this function's contract).
        let path = unsafe { str_arg(f.path, f.path_len) }?;
        // SAFETY: as above.
        let content = unsafe { str_arg(f.content, f.content_len) }?;
        // Two contents for one path leave the file's state ambiguous: refuse rather than pick.
        if map.insert(path.to_owned(), content.to_owned()).is_some() {
            return Err(Error::with_message(
                ErrorKind::DuplicatePatchPath,
                format!("the file {path} is given twice in files"),
            )
            .into());
        }
    }
    Ok(map)
}

/// Applies a multi-file patch in the `*** Begin Patch` format (`patch_len` bytes of UTF-8) to
/// files held in memory, touching no disk: every file's new content is planned first, then the
/// changes are applied to a copy of `files`.
///
/// - `files`: the current files, `file_count` of them (NULL allowed when 0); a path not among
///   them does not exist. Paths are compared exactly as the patch writes them. A path given
///   twice is refused (`HL_STATUS_EDIT_REJECTED`, code `duplicate_patch_path`). Read only during
///   the call.
/// - `options`: NULL for the defaults (`HL_PATCH_DIALECT_CODEX`, `HL_POLICY_ALL_OR_NOTHING`), as
///   does a zeroed `hl_patch_options`.
///
/// On success `*result` receives a new `hl_patch_result` owned by the caller, who frees it with
/// `hl_patch_result_free`: the whole file set afterwards (`hl_patch_result_file`), the removed
/// paths (`hl_patch_result_deleted`), the changes (`hl_patch_result_change`), the warnings
/// (`hl_patch_result_warning`), the fuzz score (`hl_patch_result_fuzz`), and with
/// `HL_POLICY_PARTIAL` the failure that stopped the patch (`hl_patch_result_failure`).
///
/// @return `HL_STATUS_EDIT_REJECTED` if the patch is malformed or does not fit the files (codes
/// `invalid_patch`, `invalid_patch_hunk` with the line number, `empty_patch`,
/// `patch_file_not_found`, `patch_file_exists`, `patch_context_not_found`,
/// `duplicate_patch_path`, `patch_empty_content`; Cline's exact messages in the Cline dialect)
/// or `files` names a path twice (`duplicate_patch_path`, checked before the patch is read),
/// or `HL_STATUS_INVALID_OPTION` (codes `invalid_dialect`, `invalid_policy`) for an options value
/// that is not a `HL_PATCH_DIALECT_` / `HL_POLICY_` value: both with `*error`, a new `hl_error`
/// the caller frees with `hl_error_free`. `HL_STATUS_NULL_ARGUMENT` if `result` or `error` is
/// NULL, `files` is NULL with a non-zero count, or a text is NULL with a non-zero length;
/// `HL_STATUS_INVALID_UTF8` if a text is not UTF-8; `HL_STATUS_OUT_OF_RANGE` if `file_count` is
/// impossibly large. `*result` is set only on success, `*error` only with the statuses that say
/// so.
///
/// # Safety
/// `patch` must point to `patch_len` readable bytes (or be NULL with length 0); `files` must
/// point to `file_count` readable `hl_patch_file`s (or be NULL with count 0), each with valid
/// texts; `options` must be NULL or point to a `hl_patch_options`; `result` and `error` must be
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_apply_patch(
    patch: *const c_char,
    patch_len: usize,
    files: *const hl_patch_file,
    file_count: usize,
    options: *const hl_patch_options,
    result: *mut *mut hl_patch_result,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result)?;
        // SAFETY: the caller passes `patch_len` readable bytes (this function's contract).
        let patch = unsafe { str_arg(patch, patch_len) }?;
        // SAFETY: the caller passes `file_count` valid entries (this function's contract).
        let files = unsafe { files_arg(files, file_count) }?;
        // SAFETY: `options` is NULL or points to a hl_patch_options (this function's contract).
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        let plan = plan_patch(patch, &files, &options.to_engine()?)?;
        let boxed = hl_patch_result::boxed(plan, files);
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(boxed)) };
        Ok(())
    })
}

/// How many files there are after the patch (those passed in, less the removed ones, plus the
/// added ones and the destinations of moves).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `hl_patch_result`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_file_count(
    result: *const hl_patch_result,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(result, count, |r| Ok(r.files.len())) }
}

/// Fills `*file` with file `index` (from 0, in bytewise order of path) after the patch: its
/// path and whole content, NUL-terminated UTF-8 owned by `result` and valid until
/// `hl_patch_result_free(result)`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index >= hl_patch_result_file_count`;
/// `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*file` is untouched then.
///
/// # Safety
/// `result` must be a live `hl_patch_result`; `file` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_file(
    result: *const hl_patch_result,
    index: usize,
    file: *mut hl_patch_file,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(result, file, |r| {
            let (path, content) = r.files.get(index).ok_or(hl_status::OutOfRange)?;
            Ok(hl_patch_file {
                path: path.as_ptr(),
                path_len: path.len(),
                content: content.as_ptr(),
                content_len: content.len(),
            })
        })
    }
}

/// How many paths the patch removed (deleted files and the sources of moves).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `hl_patch_result`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_deleted_count(
    result: *const hl_patch_result,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(result, count, |r| Ok(r.deleted.len())) }
}

/// Removed path `index` (from 0, in the order the patch removed them).
///
/// On success `*path` points to `*path_len` bytes of NUL-terminated UTF-8, owned by `result` and
/// valid until `hl_patch_result_free(result)`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index >= hl_patch_result_deleted_count`;
/// `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*path` and `*path_len` are untouched then.
///
/// # Safety
/// `result` must be a live `hl_patch_result`; `path` and `path_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_deleted(
    result: *const hl_patch_result,
    index: usize,
    path: *mut *const c_char,
    path_len: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe {
        get_text(result, path, path_len, |r| {
            let p = r.deleted.get(index).ok_or(hl_status::OutOfRange)?;
            Ok((p.as_ptr(), p.len()))
        })
    }
}

/// How many changes the plan has: one per hunk, in patch order (Cline: one per action, in the
/// order Cline keeps them).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `hl_patch_result`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_change_count(
    result: *const hl_patch_result,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(result, count, |r| Ok(r.changes.len())) }
}

/// Fills `*change` with change `index` (from 0); its pointers are owned by `result` and valid
/// until `hl_patch_result_free(result)`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index >= hl_patch_result_change_count`;
/// `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*change` is untouched then.
///
/// # Safety
/// `result` must be a live `hl_patch_result`; `change` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_change(
    result: *const hl_patch_result,
    index: usize,
    change: *mut hl_patch_change,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(result, change, |r| {
            Ok(r.changes.get(index).ok_or(hl_status::OutOfRange)?.to_c())
        })
    }
}

/// How many warnings there are (chunks Cline skipped; none in the Codex dialect).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `hl_patch_result`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_warning_count(
    result: *const hl_patch_result,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(result, count, |r| Ok(r.warnings.len())) }
}

/// Fills `*warning` with warning `index` (from 0); its pointers are owned by `result` and valid
/// until `hl_patch_result_free(result)`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index >= hl_patch_result_warning_count`;
/// `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*warning` is untouched then.
///
/// # Safety
/// `result` must be a live `hl_patch_result`; `warning` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_warning(
    result: *const hl_patch_result,
    index: usize,
    warning: *mut hl_patch_warning,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(result, warning, |r| {
            Ok(r.warnings.get(index).ok_or(hl_status::OutOfRange)?.to_c())
        })
    }
}

/// Cline's fuzz score: 0 for exact matches; 1, 100, 1000 and 10000 per looser match. Always 0
/// in the Codex dialect.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `hl_patch_result`; `fuzz` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_fuzz(
    result: *const hl_patch_result,
    fuzz: *mut u64,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(result, fuzz, |r| Ok(r.fuzz)) }
}

/// With `HL_POLICY_PARTIAL`: the failure that stopped the patch. The changes, files and removed
/// paths are those of the hunks before it.
///
/// On success, if a hunk failed, `*hunk` is its 0-based index (Cline: of the action) and
/// `*failure` a new `hl_error` with its code and message, owned by the caller, who frees it with
/// `hl_error_free`; if none failed (always, with `HL_POLICY_ALL_OR_NOTHING`), `*failure` is
/// NULL and `*hunk` is 0.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL; nothing is written then.
///
/// # Safety
/// `result` must be a live `hl_patch_result`; `hunk` and `failure` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_failure(
    result: *const hl_patch_result,
    hunk: *mut usize,
    failure: *mut *mut hl_error,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe { get_failure(result, hunk, failure, |r| r.failure.as_ref()) }
}

/// The body of the `_failure` accessors: `*hunk` and a new `hl_error` for the failure `read`
/// finds, or 0 and NULL.
///
/// # Safety
/// `ptr` must be NULL or a live handle; `hunk` and `failure` must be NULL or writable.
pub(crate) unsafe fn get_failure<H>(
    ptr: *const H,
    hunk: *mut usize,
    failure: *mut *mut hl_error,
    read: impl FnOnce(&H) -> Option<&(usize, engine::Error)>,
) -> hl_status {
    guard(|| {
        let (hunk, failure) = (Out::new(hunk)?, Out::new(failure)?);
        // SAFETY: this function's contract.
        let h = unsafe { handle(ptr) }?;
        let (index, error) = match read(h) {
            Some((index, e)) => (*index, Box::into_raw(hl_error::boxed(e))),
            None => (0, ptr::null_mut()),
        };
        // SAFETY: both out-pointers are non-NULL and writable (this function's contract).
        unsafe {
            hunk.write(index);
            failure.write(error);
        }
        Ok(())
    })
}

/// Frees a patch result. NULL is allowed and does nothing. Pointers obtained from it (the texts
/// in filled-in structs) become invalid; errors from `hl_patch_result_failure` stay valid.
///
/// # Safety
/// `result` must be NULL or a `hl_patch_result` from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_patch_result_free(result: *mut hl_patch_result) {
    guard_void(|| {
        if !result.is_null() {
            // SAFETY: a non-NULL `result` was made by `Box::into_raw` in this library and is
            // freed once (the caller's contract).
            drop(unsafe { Box::from_raw(result) });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(dialect: hl_patch_dialect, policy: hl_policy) -> Result<PatchOptions, hl_status> {
        hl_patch_options {
            dialect,
            policy,
            recount: false,
        }
        .to_engine()
        .map_err(|f| f.status())
    }

    #[test]
    fn zeroed_options_are_the_engine_defaults() {
        assert_eq!(options(0, 0), Ok(PatchOptions::default()));
    }

    #[test]
    fn every_patch_dialect_has_a_value() {
        for &d in PatchDialect::ALL {
            let found = (0..16).any(|v| options(v, 0) == Ok(PatchOptions::new().dialect(d)));
            assert!(found, "{d} has no HL_PATCH_DIALECT_ value");
        }
        // The first value past the last dialect.
        let unknown = PatchDialect::ALL.len() as hl_patch_dialect;
        assert_eq!(options(unknown, 0), Err(hl_status::InvalidOption));
        assert_eq!(options(0, 9), Err(hl_status::InvalidOption));
        match (hl_patch_options {
            dialect: unknown + 1,
            policy: 0,
            recount: false,
        })
        .to_engine()
        {
            Err(Failure::Engine(e)) => assert_eq!(e.code(), "invalid_dialect"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_change_kind_has_a_value() {
        let plan = plan_patch(
            "*** Begin Patch\n*** Add File: n\n+x\n*** Delete File: d\n*** Update File: u\n*** Move to: m\n@@\n-a\n+b\n*** End Patch\n",
            &BTreeMap::from([("d".to_owned(), "gone\n".to_owned()), ("u".to_owned(), "a\n".to_owned())]),
            &PatchOptions::default(),
        )
        .expect("plans");
        let kinds: Vec<_> = plan.changes.iter().map(|c| Change::new(c).kind).collect();
        assert_eq!(
            kinds,
            [
                HL_PATCH_CHANGE_ADD,
                HL_PATCH_CHANGE_DELETE,
                HL_PATCH_CHANGE_UPDATE
            ]
        );
    }
}

//! [`hl_workspace`]: the file layer's [`Workspace`] for C — safe edits of real files under a
//! root (`crates/hunkloom-fs`).
//!
//! The workspace lives in a [`Shared`], the lifecycle every binding shares: many threads call
//! it at once (the file layer takes turns per file inside), and a panic retires the handle
//! (`HL_STATUS_PANIC` from then on) instead of leaving its read tracking half updated.

use std::ffi::c_char;

use engine::ops::Guards;
use hunkloom_fs::{EditOutcome, Workspace, WorkspaceOptions};
use hunkloom_handle::Shared;

use crate::args::{Out, get_text, handle, optional_str_arg, str_arg};
use crate::edit_outcome::hl_edit_outcome;
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::{guard_void, guard_with_error};
use crate::ops::{engine_convention, hl_insert_convention};
use crate::options::hl_apply_options;
use crate::options::{HL_DURABILITY_FULL, engine_durability, hl_durability};
use crate::owned_text::hl_text;
use crate::patch::hl_patch_options;
use crate::patch_outcome::hl_patch_outcome;
use crate::status::hl_status;
use crate::text::CText;

/// Options of `hl_workspace_open`. Zero-initialise it (`hl_workspace_options opts = {0};`),
/// which selects every default, then set the fields you need; a NULL options pointer means the
/// same. Fields added in later versions will also default at zero.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hl_workspace_options {
    /// The name of the ignore file at the root, in gitignore syntax (e.g. `.clineignore`):
    /// `ignore_file_len` bytes of UTF-8, only read during `hl_workspace_open`. `(NULL, 0)` or
    /// empty: the default, `.hunkloomignore`.
    pub ignore_file: *const c_char,
    /// The length of `ignore_file` in bytes.
    pub ignore_file_len: usize,
    /// True: no ignore file at all (`ignore_file` is not read).
    pub no_ignore_file: bool,
    /// Files larger than this many bytes are refused before they are read (code
    /// `file_too_large`). 0: the default, 1 GiB.
    pub max_file_size: u64,
    /// How many edits per file `hl_workspace_undo` can take back. 0: the default, 5.
    pub undo_depth: usize,
    /// True: keep no undo history (`undo_depth` is not read).
    pub no_undo: bool,
    /// Up to how many bytes of each file read are kept, so that an edit of a file that changed
    /// since can be merged around the changes. 0: the default, 4 MiB.
    pub max_kept_read: u64,
    /// True: keep no read text, so an edit of a changed file is always refused with
    /// `stale_file` (`max_kept_read` is not read).
    pub no_kept_read: bool,
    /// True: turn off the omission-placeholder guard, so a whole-file write of an existing file
    /// or a str_replace whose new text stands in for code with a placeholder line
    /// (`// ... existing code ...`) is written as given instead of refused with
    /// `omission_placeholder`.
    pub no_omission_guard: bool,
    /// How many milliseconds a call waits for its turn (another thread editing the same file,
    /// another commit in the root) before failing with `HL_STATUS_IO_ERROR`, code
    /// `lock_timeout`, having written nothing. 0: the default, 5000.
    pub lock_timeout_ms: u64,
    /// `protect_len` bytes of UTF-8 (or NULL with length 0): globs of paths that can be read
    /// but never written (`HL_STATUS_PATH_REFUSED`, code `path_protected`), one per line, in
    /// gitignore syntax relative to the root (e.g. a line `.env*` and a line `secrets/`). A
    /// line that is not a valid glob makes `hl_workspace_open` fail with code `invalid_glob`.
    pub protect: *const c_char,
    /// The length of `protect` in bytes.
    pub protect_len: usize,
    /// True: the default protected paths (anything inside `.git`, `.hg`, `.svn` or `.jj`, and
    /// the ignore file) can be written; the `protect` globs still apply.
    pub no_protect_defaults: bool,
    /// True: a file in a legacy encoding (windows-1251, Latin-1, Shift_JIS, …) is refused
    /// (`HL_STATUS_UNSUPPORTED_FILE`, code `unsupported_encoding`) instead of being read as
    /// text and written back in its encoding.
    pub no_legacy_encodings: bool,
    /// True: the damaged-call rules are off — a write that cuts a file to less than half of
    /// its lines and looks cut off (`suspected_truncation`), a view's line numbers in new text
    /// (removed when certain, else `line_number_prefixes`), clipping notices
    /// (`truncation_notice`), and replayed `str_replace`/`insert` calls answered as already
    /// applied. For a host that means a shorter file, as C has no per-call form.
    pub no_damaged_call_guard: bool,
    /// A `HL_DURABILITY_` value (default, 0: `HL_DURABILITY_FULL`, every commit flushed).
    pub durability: hl_durability,
}

impl Default for hl_workspace_options {
    fn default() -> Self {
        hl_workspace_options {
            ignore_file: std::ptr::null(),
            ignore_file_len: 0,
            no_ignore_file: false,
            max_file_size: 0,
            undo_depth: 0,
            no_undo: false,
            max_kept_read: 0,
            no_kept_read: false,
            no_omission_guard: false,
            lock_timeout_ms: 0,
            protect: std::ptr::null(),
            protect_len: 0,
            no_protect_defaults: false,
            no_legacy_encodings: false,
            no_damaged_call_guard: false,
            durability: HL_DURABILITY_FULL,
        }
    }
}

impl hl_workspace_options {
    /// The file layer's options.
    ///
    /// # Safety
    /// `ignore_file` must point to `ignore_file_len` readable bytes (or be NULL with length 0)
    /// unless `no_ignore_file` is set; `protect` to `protect_len` readable bytes (or be NULL
    /// with length 0).
    unsafe fn to_engine(self) -> Result<WorkspaceOptions, Failure> {
        let mut options = WorkspaceOptions::new();
        if self.no_ignore_file {
            options = options.ignore_file("");
        } else {
            // SAFETY: this function's contract.
            let name = unsafe { str_arg(self.ignore_file, self.ignore_file_len) }?;
            if !name.is_empty() {
                options = options.ignore_file(name);
            }
        }
        if self.max_file_size != 0 {
            options = options.max_file_size(self.max_file_size);
        }
        if self.no_undo {
            options = options.undo_depth(0);
        } else if self.undo_depth != 0 {
            options = options.undo_depth(self.undo_depth);
        }
        if self.no_kept_read {
            options = options.max_kept_read(0);
        } else if self.max_kept_read != 0 {
            options = options.max_kept_read(self.max_kept_read);
        }
        options = options.guards(
            Guards::NATIVE
                .omission_placeholders(!self.no_omission_guard)
                .damaged_calls(!self.no_damaged_call_guard),
        );
        // SAFETY: this function's contract.
        let protect = unsafe { str_arg(self.protect, self.protect_len) }?;
        options = options
            .protect(protect.lines().map(str::trim_end).filter(|l| !l.is_empty()))
            .protect_defaults(!self.no_protect_defaults)
            .legacy_encodings(!self.no_legacy_encodings)
            .durability(engine_durability(self.durability)?);
        if self.lock_timeout_ms != 0 {
            options = options.lock_timeout(std::time::Duration::from_millis(self.lock_timeout_ms));
        }
        Ok(options)
    }
}

/// A directory whose files are read and edited safely: paths stay inside the root, a file must
/// be read before it is edited and must not have changed since, encodings, byte-order marks and
/// line endings survive, every write is atomic, and the last edits of each file can be undone.
///
/// Create it with `hl_workspace_open` and release it with `hl_workspace_free`.
///
/// Threads: a workspace may be used by many threads at once (every function but
/// `hl_workspace_free`, which must never overlap anything). Calls on different files run in
/// parallel; calls editing the same file take turns (each waits up to `lock_timeout_ms`, then
/// fails with `HL_STATUS_IO_ERROR`, code `lock_timeout`). Each edit is computed on what was read
/// through this workspace when the call started and merged into the file as the calls before it
/// left it: parallel edits of different lines all land, and of two edits of the same (or
/// adjacent) lines the first lands and the second fails with `stale_file` naming the lines.
/// Two workspaces on the same root merge the same way around each other's changes.
#[derive(Debug)]
pub struct hl_workspace {
    /// The canonical root, NUL-terminated (immutable, read without the handle's lock).
    root: CText,
    pub(crate) handle: Shared<Workspace>,
}

/// Runs `body` on the workspace behind `ws` (from any number of threads at once): a panic
/// inside retires the handle (`HL_STATUS_PANIC`, then and for every later call).
///
/// # Safety
/// `ws` must be NULL or a live `hl_workspace` (not freed, and not being freed meanwhile).
unsafe fn with_workspace<R>(
    ws: *const hl_workspace,
    body: impl FnOnce(&Workspace) -> Result<R, Failure>,
) -> Result<R, Failure> {
    // SAFETY: forwarded from this function's contract.
    let w = unsafe { handle(ws) }?;
    w.handle.with(body)?
}

/// The body of every editing function: the path checked, `edit` run on the workspace, the
/// outcome written to `*outcome` only on success.
///
/// # Safety
/// `ws` as for [`with_workspace`]; `path` must point to `path_len` readable bytes (or be NULL
/// with length 0); `outcome` must be NULL or writable.
unsafe fn edit_with(
    ws: *const hl_workspace,
    path: *const c_char,
    path_len: usize,
    outcome: *mut *mut hl_edit_outcome,
    edit: impl FnOnce(&Workspace, &str) -> Result<EditOutcome, Failure>,
) -> Result<(), Failure> {
    let out = Out::new(outcome)?;
    // SAFETY: the caller passes `path_len` readable bytes (this function's contract).
    let path = unsafe { str_arg(path, path_len) }?;
    // SAFETY: forwarded from this function's contract.
    let done = unsafe { with_workspace(ws, |w| edit(w, path)) }?;
    // SAFETY: `out` is non-NULL and writable (this function's contract).
    unsafe { out.write(Box::into_raw(hl_edit_outcome::boxed(done))) };
    Ok(())
}

/// Opens the directory `root` (`root_len` bytes of UTF-8; relative to the current directory
/// unless absolute), which must exist. If a multi-file commit in it was interrupted by a crash,
/// it is completed or rolled back first.
///
/// `options` may be NULL for the defaults (ignore file `.hunkloomignore`, size limit 1 GiB, undo
/// depth 5), as does a zeroed `hl_workspace_options`. On success `*ws` receives a new workspace
/// owned by the caller, who frees it with `hl_workspace_free`.
///
/// @return `HL_STATUS_IO_ERROR` (code `io_error`, the system's message) if `root` is not an
/// accessible directory or an interrupted commit cannot be settled, with `*error`, a new
/// `hl_error` the caller frees with `hl_error_free`. `HL_STATUS_NULL_ARGUMENT` if `ws` or `error`
/// is NULL or a text is NULL with a non-zero length; `HL_STATUS_INVALID_UTF8` if `root` or
/// `options->ignore_file` is not UTF-8. `*ws` is set only on success, `*error` only with
/// `HL_STATUS_IO_ERROR`.
///
/// # Safety
/// `root` must point to `root_len` readable bytes (or be NULL with length 0); `options` must be
/// NULL or point to a `hl_workspace_options` whose `ignore_file` is valid as documented; `ws`
/// and `error` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_open(
    root: *const c_char,
    root_len: usize,
    options: *const hl_workspace_options,
    ws: *mut *mut hl_workspace,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(ws)?;
        // SAFETY: the caller passes `root_len` readable bytes (this function's contract).
        let root = unsafe { str_arg(root, root_len) }?;
        // SAFETY: `options` is NULL or points to a hl_workspace_options (this function's
        // contract).
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        // SAFETY: its `ignore_file` is valid (this function's contract).
        let options = unsafe { options.to_engine() }?;
        let workspace = Workspace::open(root, options)?;
        let handle = Box::new(hl_workspace {
            root: CText::from_string(workspace.root().to_string_lossy().into_owned()),
            handle: Shared::new("workspace", workspace),
        });
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(handle)) };
        Ok(())
    })
}

/// The workspace's root: absolute, with symlinks resolved (a root that is not UTF-8 is shown
/// with U+FFFD in place of the bytes that are not).
///
/// On success `*root` points to `*root_len` bytes of NUL-terminated UTF-8, owned by `ws` and
/// valid until `hl_workspace_free(ws)`. May be called while another thread uses `ws`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `ws` must be a live `hl_workspace`; `root` and `root_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_root(
    ws: *const hl_workspace,
    root: *mut *const c_char,
    root_len: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe { get_text(ws, root, root_len, |w| Ok((w.root.as_ptr(), w.root.len()))) }
}

/// Reads the file at `path` (`path_len` bytes of UTF-8; relative paths join the root, absolute
/// ones must lie inside it): its decoded text, line endings as they are (a byte-order mark is
/// not part of the text). Records the file's content hash, which later edits check against.
///
/// On success `*text` receives a new `hl_text` owned by the caller, who frees it with
/// `hl_text_free`.
///
/// @return with `*error`, a new `hl_error` the caller frees with `hl_error_free`:
/// `HL_STATUS_PATH_REFUSED` (codes `path_outside_root`, `unc_path`, `path_ignored`,
/// `notebook_not_supported`); `HL_STATUS_EDIT_REJECTED` (code `file_not_found`, the message
/// suggesting up to three similar paths); `HL_STATUS_UNSUPPORTED_FILE` (codes `file_too_large`,
/// `unsupported_encoding`: only UTF-8, and UTF-8 or UTF-16 with a byte-order mark, are read);
/// `HL_STATUS_IO_ERROR` (code `io_error`; code `lock_timeout` for an edit that waited past the
/// workspace's `lock_timeout_ms` for its turn). Without an error: `HL_STATUS_NULL_ARGUMENT` if a pointer
/// is NULL or `path` is NULL with a non-zero length; `HL_STATUS_INVALID_UTF8` if `path` is not
/// UTF-8; `HL_STATUS_PANIC` if the workspace is poisoned. `*text` is set only on success.
///
/// # Safety
/// `ws` must be a live workspace not used by another thread meanwhile; `path` must point to
/// `path_len` readable bytes (or be NULL with length 0); `text` and `error` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_read(
    ws: *mut hl_workspace,
    path: *const c_char,
    path_len: usize,
    text: *mut *mut hl_text,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(text)?;
        // SAFETY: the caller passes `path_len` readable bytes (this function's contract).
        let path = unsafe { str_arg(path, path_len) }?;
        // SAFETY: the caller passes a live workspace used by this thread only (this function's
        // contract).
        let read = unsafe { with_workspace(ws, |w| Ok(w.read(path)?)) }?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_text::boxed(read))) };
        Ok(())
    })
}

/// Replaces `old_text` with `new_text` in the file at `path`, with `hl_str_replace`'s semantics
/// (Claude Code's edit tool), on the file's text with `\r\n` seen as `\n` (also in `old_text` and
/// `new_text`), so a model's LF text matches a CRLF file; untouched lines keep their own endings
/// and the file keeps its encoding and byte-order mark. An empty `old_text` creates a file that
/// does not exist, without a read.
///
/// An existing file must have been read through `ws` (`hl_workspace_read`, or an earlier edit)
/// and be unchanged since. The write is atomic. All texts are UTF-8 of the given lengths (not
/// NUL-terminated; NULL allowed with length 0; only read during the call). On success `*outcome`
/// receives a new `hl_edit_outcome` (its `hl_edit_outcome_edit` is the operation's report) owned
/// by the caller, who frees it with `hl_edit_outcome_free`.
///
/// @return with `*error`, a new `hl_error` the caller frees with `hl_error_free`:
/// `HL_STATUS_STALE_FILE` (code `not_read`: the file was never read; `stale_file`: its content
/// changed since it was read — read it again), `HL_STATUS_EDIT_REJECTED` (the operation's codes:
/// `not_found`, `multiple_matches`, `old_equals_new`, `file_exists`, `file_not_found`), and the
/// path, file and I/O statuses of `hl_workspace_read`; nothing is written then. The other
/// statuses as for `hl_workspace_read`. `*outcome` is set only on success.
///
/// # Safety
/// `ws` must be a live workspace not used by another thread meanwhile; each text pointer must
/// point to its length in readable bytes (or be NULL with length 0); `outcome` and `error` must
/// be writable.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_str_replace(
    ws: *mut hl_workspace,
    path: *const c_char,
    path_len: usize,
    old_text: *const c_char,
    old_len: usize,
    new_text: *const c_char,
    new_len: usize,
    replace_all: bool,
    outcome: *mut *mut hl_edit_outcome,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        // SAFETY: the caller passes `old_len` readable bytes (this function's contract).
        let old = unsafe { str_arg(old_text, old_len) }?;
        // SAFETY: the caller passes `new_len` readable bytes (this function's contract).
        let new = unsafe { str_arg(new_text, new_len) }?;
        // SAFETY: forwarded from this function's contract.
        unsafe {
            edit_with(ws, path, path_len, outcome, |w, path| {
                Ok(w.str_replace(path, old, new, replace_all)?)
            })
        }
    })
}

/// Inserts `text` as whole lines into the file at `path` at `line`, counted by `convention`
/// (as `hl_insert`), on the file's text with `\r\n` seen as `\n`; the inserted lines take the
/// file's line ending, and the file keeps its encoding and byte-order mark.
///
/// The file must exist, have been read through `ws` and be unchanged since. The write is
/// atomic. `path` and `text` are UTF-8 of the given lengths (not NUL-terminated; NULL allowed
/// with length 0; only read during the call). On success `*outcome` receives a new
/// `hl_edit_outcome` (its `hl_edit_outcome_edit` is the operation's report) owned by the caller,
/// who frees it with `hl_edit_outcome_free`.
///
/// @return as for `hl_workspace_str_replace`, with the operation's code `invalid_line`
/// (`HL_STATUS_EDIT_REJECTED`), and `HL_STATUS_INVALID_OPTION` (code `invalid_convention`, with
/// `*error`) if `convention` is not a `HL_INSERT_` value.
///
/// # Safety
/// As for `hl_workspace_str_replace`.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_insert(
    ws: *mut hl_workspace,
    path: *const c_char,
    path_len: usize,
    line: usize,
    text: *const c_char,
    text_len: usize,
    convention: hl_insert_convention,
    outcome: *mut *mut hl_edit_outcome,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        // SAFETY: the caller passes `text_len` readable bytes (this function's contract).
        let text = unsafe { str_arg(text, text_len) }?;
        let convention = engine_convention(convention)?;
        // SAFETY: forwarded from this function's contract.
        unsafe {
            edit_with(ws, path, path_len, outcome, |w, path| {
                Ok(w.insert(path, line, text, convention)?)
            })
        }
    })
}

/// Writes `content` (`content_len` bytes of UTF-8) to the file at `path` as given (no line
/// ending or content fixes: run it through `hl_write` first for Cline's), in the file's encoding
/// with its byte-order mark. A missing file is created (UTF-8, no read needed); an existing one
/// must have been read through `ws` and be unchanged since. The write is atomic.
///
/// On success `*outcome` receives a new `hl_edit_outcome` owned by the caller, who frees it with
/// `hl_edit_outcome_free`.
///
/// @return as for `hl_workspace_str_replace` (without the operation's codes).
///
/// # Safety
/// As for `hl_workspace_str_replace`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_write(
    ws: *mut hl_workspace,
    path: *const c_char,
    path_len: usize,
    content: *const c_char,
    content_len: usize,
    outcome: *mut *mut hl_edit_outcome,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        // SAFETY: the caller passes `content_len` readable bytes (this function's contract).
        let content = unsafe { str_arg(content, content_len) }?;
        // SAFETY: forwarded from this function's contract.
        unsafe {
            edit_with(ws, path, path_len, outcome, |w, path| {
                Ok(w.write(path, content)?)
            })
        }
    })
}

/// Applies a SEARCH/REPLACE diff (`diff_len` bytes of UTF-8) to the file at `path`, as
/// `hl_apply_diff` does with the same `options` (NULL: `HL_DIALECT_NATIVE`, all or nothing). In
/// `native` the diff sees the file's text with `\r\n` as `\n` and untouched lines keep their
/// endings; the Cline dialects see the decoded text unchanged (their result is Cline's, byte for
/// byte). The file keeps its encoding and byte-order mark. A missing file gets the diff applied
/// to empty content and is created if that gives a non-empty text.
///
/// An existing file must have been read through `ws` and be unchanged since. The write is
/// atomic. On success `*outcome` receives a new `hl_edit_outcome` (its `hl_edit_outcome_result`
/// is the diff's report) owned by the caller, who frees it with `hl_edit_outcome_free`.
///
/// @return as for `hl_workspace_str_replace`, with the diff's codes (`search_not_found`,
/// `ambiguous_match`, ...: `HL_STATUS_EDIT_REJECTED`) and `HL_STATUS_INVALID_OPTION` (codes
/// `invalid_dialect`, `invalid_policy`, with `*error`) for an options value that is not a
/// `HL_DIALECT_` / `HL_POLICY_` value.
///
/// # Safety
/// As for `hl_workspace_str_replace`; `options` must be NULL or point to a `hl_apply_options`.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_apply_diff(
    ws: *mut hl_workspace,
    path: *const c_char,
    path_len: usize,
    diff: *const c_char,
    diff_len: usize,
    options: *const hl_apply_options,
    outcome: *mut *mut hl_edit_outcome,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        // SAFETY: the caller passes `diff_len` readable bytes (this function's contract).
        let diff = unsafe { str_arg(diff, diff_len) }?;
        // SAFETY: `options` is NULL or points to a hl_apply_options (this function's contract).
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        let options = options.to_engine()?;
        // SAFETY: forwarded from this function's contract.
        unsafe {
            edit_with(ws, path, path_len, outcome, |w, path| {
                Ok(w.apply_diff(path, diff, &options)?)
            })
        }
    })
}

/// Merges a lazy edit (`snippet_len` bytes of UTF-8: changed code with `// ... existing code
/// ...` markers, see `hl_apply_lazy`) into the file at `path`, all or nothing. The snippet sees
/// the file's text with `\r\n` as `\n`; untouched lines keep their endings and the file keeps
/// its encoding and byte-order mark. The language comes from `lang` (`(NULL, 0)`: from the
/// path's extension).
///
/// The file must exist, have been read through `ws` and be unchanged since. The write is
/// atomic. On success `*outcome` receives a new `hl_edit_outcome` owned by the caller, who
/// frees it with `hl_edit_outcome_free`.
///
/// @return as for `hl_workspace_str_replace`, with the lazy codes of `hl_apply_lazy`
/// (`lazy_no_anchor`, `lazy_ambiguous`, ...: `HL_STATUS_EDIT_REJECTED`; `invalid_language`:
/// `HL_STATUS_INVALID_OPTION`) and `file_not_found` for a missing file.
///
/// # Safety
/// As for `hl_workspace_str_replace`; `lang` must point to `lang_len` readable bytes (or be
/// NULL with length 0).
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_apply_lazy(
    ws: *mut hl_workspace,
    path: *const c_char,
    path_len: usize,
    snippet: *const c_char,
    snippet_len: usize,
    lang: *const c_char,
    lang_len: usize,
    outcome: *mut *mut hl_edit_outcome,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        // SAFETY: the caller passes `snippet_len` readable bytes (this function's contract).
        let snippet = unsafe { str_arg(snippet, snippet_len) }?;
        // SAFETY: the caller passes `lang_len` readable bytes (this function's contract).
        let lang = unsafe { optional_str_arg(lang, lang_len) }?;
        let language = crate::lazy::language(lang)?;
        // SAFETY: forwarded from this function's contract.
        unsafe {
            edit_with(ws, path, path_len, outcome, |w, path| {
                Ok(w.apply_lazy(path, snippet, language)?)
            })
        }
    })
}

/// Takes back the last edit of the file at `path` made through `ws` (up to the undo depth),
/// atomically: restores the content it replaced, re-creates a file it deleted, removes a file
/// it created. Afterwards the file counts as read in its restored state.
///
/// On success `*outcome` receives a new `hl_edit_outcome` owned by the caller, who frees it with
/// `hl_edit_outcome_free` (kind `delete` with no content when a created file was removed).
///
/// @return with `*error`: `HL_STATUS_EDIT_REJECTED` (code `nothing_to_undo`),
/// `HL_STATUS_STALE_FILE` (code `stale_file`: the file changed since that edit; nothing is
/// undone), and the path and I/O statuses of `hl_workspace_read`. The other statuses as for
/// `hl_workspace_read`. `*outcome` is set only on success.
///
/// # Safety
/// `ws` must be a live workspace not used by another thread meanwhile; `path` must point to
/// `path_len` readable bytes (or be NULL with length 0); `outcome` and `error` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_undo(
    ws: *mut hl_workspace,
    path: *const c_char,
    path_len: usize,
    outcome: *mut *mut hl_edit_outcome,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        // SAFETY: forwarded from this function's contract.
        unsafe { edit_with(ws, path, path_len, outcome, |w, path| Ok(w.undo(path)?)) }
    })
}

/// Applies a multi-file patch in the `*** Begin Patch` format (`patch_len` bytes of UTF-8) to
/// the files under the root, all files or none: every path is checked like any workspace path,
/// every file the patch updates or deletes must be unchanged since it was read through `ws` if
/// it was (a file never read needs no read here: the patch names the lines it expects), every
/// hunk is planned in memory first, then all files are committed atomically (a crash part-way is
/// settled by the next `hl_workspace_open`). Every file keeps its encoding, byte-order mark and
/// the endings of its untouched lines; files written count as read, and each can be taken back
/// with `hl_workspace_undo`.
///
/// `options` as for `hl_apply_patch` (NULL: `HL_PATCH_DIALECT_CODEX`, all or nothing). With
/// `HL_POLICY_PARTIAL` the hunks before a failing one are committed and the failure is reported
/// by `hl_patch_outcome_failure` (Codex's behaviour). On success `*outcome` receives a new
/// `hl_patch_outcome` owned by the caller, who frees it with `hl_patch_outcome_free`.
///
/// @return with `*error`, a new `hl_error` the caller frees with `hl_error_free`, and nothing
/// written: the patch statuses and codes of `hl_apply_patch` (a missing file's message suggests
/// similar paths); `HL_STATUS_PATH_REFUSED`, `HL_STATUS_STALE_FILE` (code `stale_file`),
/// `HL_STATUS_UNSUPPORTED_FILE`, `HL_STATUS_IO_ERROR` as for the other workspace functions;
/// `HL_STATUS_EDIT_REJECTED` with code `conflicting_changes` when two hunks name one file
/// differently. Without an
/// error: `HL_STATUS_NULL_ARGUMENT`, `HL_STATUS_INVALID_UTF8`, `HL_STATUS_PANIC` as for
/// `hl_workspace_read`. `*outcome` is set only on success.
///
/// # Safety
/// `ws` must be a live workspace not used by another thread meanwhile; `patch` must point to
/// `patch_len` readable bytes (or be NULL with length 0); `options` must be NULL or point to a
/// `hl_patch_options`; `outcome` and `error` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_apply_patch(
    ws: *mut hl_workspace,
    patch: *const c_char,
    patch_len: usize,
    options: *const hl_patch_options,
    outcome: *mut *mut hl_patch_outcome,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(outcome)?;
        // SAFETY: the caller passes `patch_len` readable bytes (this function's contract).
        let patch = unsafe { str_arg(patch, patch_len) }?;
        // SAFETY: `options` is NULL or points to a hl_patch_options (this function's contract).
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        let options = options.to_engine()?;
        // SAFETY: the caller passes a live workspace used by this thread only (this function's
        // contract).
        let done = unsafe { with_workspace(ws, |w| Ok(w.apply_patch(patch, &options)?)) }?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_patch_outcome::boxed(done))) };
        Ok(())
    })
}

/// Frees a workspace. NULL is allowed and does nothing. Files on disk are not touched; the read
/// tracking and undo history go with it. Pointers obtained from it (the root) become invalid;
/// texts, outcomes and errors it produced stay valid.
///
/// # Safety
/// `ws` must be NULL or a workspace from `hl_workspace_open` not yet freed, and not in use by
/// another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_workspace_free(ws: *mut hl_workspace) {
    guard_void(|| {
        if !ws.is_null() {
            // SAFETY: a non-NULL `ws` was made by `Box::into_raw` in `hl_workspace_open` and is
            // freed once (the caller's contract).
            drop(unsafe { Box::from_raw(ws) });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_options_are_the_defaults() {
        // SAFETY: no ignore file pointer.
        let got = unsafe { hl_workspace_options::default().to_engine() }.ok();
        assert_eq!(got, Some(WorkspaceOptions::default()));
        let opts = hl_workspace_options {
            no_ignore_file: true,
            no_undo: true,
            max_file_size: 10,
            undo_depth: 3,
            ..Default::default()
        };
        // SAFETY: no ignore file pointer is read.
        let got = unsafe { opts.to_engine() }.ok();
        assert_eq!(
            got,
            Some(
                WorkspaceOptions::new()
                    .ignore_file("")
                    .max_file_size(10)
                    .undo_depth(0)
            )
        );
    }
}

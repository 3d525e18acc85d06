//! Safe wrappers over `hl_apply_patch` and the `hl_patch_result_` accessors, as a careful C host
//! would write them: every status checked, every text checked for its NUL terminator, every
//! index past the end checked to be refused without a write, every handle freed.

use std::ffi::c_char;
use std::ptr;

use super::ffi::{CError, read_error, read_text};
use hunkloom_c::*;

/// A value no failing call may write.
const SENTINEL: usize = 0x5E5E;

/// A change read back through `hl_patch_result_change`.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct ChangeOut {
    pub(super) path: String,
    pub(super) kind: hl_patch_change_kind,
    pub(super) content: String,
    pub(super) move_to: Option<String>,
    pub(super) start_lines: Vec<usize>,
}

/// A warning read back through `hl_patch_result_warning`.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct WarningOut {
    pub(super) path: String,
    pub(super) chunk_index: Option<usize>,
    pub(super) message: String,
    pub(super) context: Option<String>,
}

/// Everything a `hl_patch_result` holds.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct PatchOut {
    pub(super) files: Vec<(String, String)>,
    pub(super) deleted: Vec<String>,
    pub(super) changes: Vec<ChangeOut>,
    pub(super) warnings: Vec<WarningOut>,
    pub(super) fuzz: u64,
    /// The failing hunk and its error (partial policy).
    pub(super) failure: Option<(usize, CError)>,
}

fn ok(status: hl_status, what: &str) -> Result<(), String> {
    match status {
        hl_status::Ok => Ok(()),
        other => Err(format!("{what} failed: {other:?}")),
    }
}

/// Reads `(ptr, len)` and, when `present` is false, checks it is the empty text.
///
/// # Safety
/// `ptr` must point to `len + 1` readable bytes.
unsafe fn read_opt(
    ptr: *const c_char,
    len: usize,
    present: bool,
) -> Result<Option<String>, String> {
    // SAFETY: the caller's contract.
    let text = unsafe { read_text(ptr, len) }?;
    if present {
        Ok(Some(text))
    } else if text.is_empty() {
        Ok(None)
    } else {
        Err(format!("absent text is {text:?}"))
    }
}

/// Reads `count` items through `get`, then checks `get(count)` is refused without a write.
fn read_items<T: Copy, R>(
    count: usize,
    blank: T,
    same: impl Fn(&T, &T) -> bool,
    get: impl Fn(usize, *mut T) -> hl_status,
    mut convert: impl FnMut(T) -> Result<R, String>,
) -> Result<Vec<R>, String> {
    let mut out = Vec::with_capacity(count);
    for i in 0..=count {
        let mut item = blank;
        let status = get(i, &mut item);
        if i == count {
            if status != hl_status::OutOfRange || !same(&item, &blank) {
                return Err(format!("item past the end gave {status:?}"));
            }
            break;
        }
        ok(status, "item accessor")?;
        out.push(convert(item)?);
    }
    Ok(out)
}

fn blank_file() -> hl_patch_file {
    hl_patch_file {
        path: SENTINEL as *const c_char,
        path_len: SENTINEL,
        content: SENTINEL as *const c_char,
        content_len: SENTINEL,
    }
}

fn blank_change() -> hl_patch_change {
    hl_patch_change {
        path: SENTINEL as *const c_char,
        path_len: SENTINEL,
        kind: 99,
        content: ptr::null(),
        content_len: SENTINEL,
        has_move_to: false,
        move_to: ptr::null(),
        move_to_len: SENTINEL,
        start_lines: ptr::null(),
        start_line_count: SENTINEL,
    }
}

fn blank_warning() -> hl_patch_warning {
    hl_patch_warning {
        path: SENTINEL as *const c_char,
        path_len: SENTINEL,
        has_chunk_index: false,
        chunk_index: SENTINEL,
        message: ptr::null(),
        message_len: SENTINEL,
        has_context: false,
        context: ptr::null(),
        context_len: SENTINEL,
    }
}

/// Reads a live `hl_patch_result` (without freeing it).
pub(super) fn read_patch_result(r: *const hl_patch_result) -> Result<PatchOut, String> {
    let (mut files_n, mut deleted_n, mut changes_n, mut warnings_n, mut fuzz) = (0, 0, 0, 0, 0);
    // SAFETY: `r` is live; the out-pointers are locals.
    unsafe {
        ok(hl_patch_result_file_count(r, &mut files_n), "file_count")?;
        ok(
            hl_patch_result_deleted_count(r, &mut deleted_n),
            "deleted_count",
        )?;
        ok(
            hl_patch_result_change_count(r, &mut changes_n),
            "change_count",
        )?;
        ok(
            hl_patch_result_warning_count(r, &mut warnings_n),
            "warning_count",
        )?;
        ok(hl_patch_result_fuzz(r, &mut fuzz), "fuzz")?;
    }
    let files = read_items(
        files_n,
        blank_file(),
        |a, b| a.path == b.path && a.path_len == b.path_len && a.content_len == b.content_len,
        // SAFETY: live result; a local out-pointer.
        |i, out| unsafe { hl_patch_result_file(r, i, out) },
        // SAFETY: the library hands out `len` bytes plus a NUL.
        |f| unsafe {
            Ok((
                read_text(f.path, f.path_len)?,
                read_text(f.content, f.content_len)?,
            ))
        },
    )?;
    let deleted = read_items(
        deleted_n,
        (SENTINEL as *const c_char, SENTINEL),
        |a, b| a == b,
        // SAFETY: live result; local out-pointers.
        |i, out: *mut (*const c_char, usize)| unsafe {
            let (p, n) = (&raw mut (*out).0, &raw mut (*out).1);
            hl_patch_result_deleted(r, i, p, n)
        },
        // SAFETY: the library hands out `len` bytes plus a NUL.
        |(p, n)| unsafe { read_text(p, n) },
    )?;
    let changes = read_items(
        changes_n,
        blank_change(),
        |a, b| a.kind == b.kind && a.path_len == b.path_len,
        // SAFETY: live result; a local out-pointer.
        |i, out| unsafe { hl_patch_result_change(r, i, out) },
        |c| {
            let start_lines = match (c.start_lines.is_null(), c.start_line_count) {
                (true, 0) => Vec::new(),
                (false, n) if n > 0 => {
                    // SAFETY: the library hands out `n` readable entries.
                    unsafe { std::slice::from_raw_parts(c.start_lines, n) }.to_vec()
                }
                other => return Err(format!("start lines {other:?}")),
            };
            // SAFETY: the library hands out `len` bytes plus a NUL for each text.
            unsafe {
                Ok(ChangeOut {
                    path: read_text(c.path, c.path_len)?,
                    kind: c.kind,
                    content: read_text(c.content, c.content_len)?,
                    move_to: read_opt(c.move_to, c.move_to_len, c.has_move_to)?,
                    start_lines,
                })
            }
        },
    )?;
    let warnings = read_items(
        warnings_n,
        blank_warning(),
        |a, b| a.path == b.path && a.chunk_index == b.chunk_index,
        // SAFETY: live result; a local out-pointer.
        |i, out| unsafe { hl_patch_result_warning(r, i, out) },
        |w| {
            if !w.has_chunk_index && w.chunk_index != 0 {
                return Err("chunk index without has_chunk_index".into());
            }
            // SAFETY: the library hands out `len` bytes plus a NUL for each text.
            unsafe {
                Ok(WarningOut {
                    path: read_text(w.path, w.path_len)?,
                    chunk_index: w.has_chunk_index.then_some(w.chunk_index),
                    message: read_text(w.message, w.message_len)?,
                    context: read_opt(w.context, w.context_len, w.has_context)?,
                })
            }
        },
    )?;
    let (mut hunk, mut failure) = (SENTINEL, ptr::null_mut());
    // SAFETY: live result; local out-pointers.
    ok(
        unsafe { hl_patch_result_failure(r, &mut hunk, &mut failure) },
        "failure",
    )?;
    let failure = if failure.is_null() {
        if hunk != 0 {
            return Err(format!("no failure but hunk {hunk}"));
        }
        None
    } else {
        let e = read_error(hl_status::Ok, failure);
        // SAFETY: handed over by hl_patch_result_failure; freed once.
        unsafe { hl_error_free(failure) };
        Some((hunk, e?))
    };
    Ok(PatchOut {
        files,
        deleted,
        changes,
        warnings,
        fuzz,
        failure,
    })
}

/// `files` as the C ABI takes them (borrowing the texts).
pub(super) fn c_files(files: &[(&str, &str)]) -> Vec<hl_patch_file> {
    files
        .iter()
        .map(|(p, c)| hl_patch_file {
            path: p.as_ptr().cast(),
            path_len: p.len(),
            content: c.as_ptr().cast(),
            content_len: c.len(),
        })
        .collect()
}

/// `hl_apply_patch` on `files` (path, content) with `options`: the result read back and freed,
/// or the error (status, code, message), checking that exactly the right out-parameter was
/// written.
pub(super) fn apply_patch(
    patch: &str,
    files: &[(&str, &str)],
    options: Option<hl_patch_options>,
) -> Result<Result<PatchOut, CError>, String> {
    let c_files = c_files(files);
    let (mut result, mut error) = (SENTINEL as *mut hl_patch_result, SENTINEL as *mut hl_error);
    let opts = options.as_ref().map_or(ptr::null(), ptr::from_ref);
    // SAFETY: every pointer is a live local of the stated length.
    let status = unsafe {
        hl_apply_patch(
            patch.as_ptr().cast(),
            patch.len(),
            if c_files.is_empty() {
                ptr::null()
            } else {
                c_files.as_ptr()
            },
            c_files.len(),
            opts,
            &mut result,
            &mut error,
        )
    };
    read_call(status, result, error)
}

/// `hl_apply_patch_body` on one body for `path` among `files`, read back as [`apply_patch`]
/// reads `hl_apply_patch`'s.
pub(super) fn apply_patch_body(
    path: &str,
    body: &str,
    mode: hl_v4a_mode,
    files: &[(&str, &str)],
    options: Option<hl_patch_options>,
) -> Result<Result<PatchOut, CError>, String> {
    let c_files = c_files(files);
    let (mut result, mut error) = (SENTINEL as *mut hl_patch_result, SENTINEL as *mut hl_error);
    let opts = options.as_ref().map_or(ptr::null(), ptr::from_ref);
    // SAFETY: every pointer is a live local of the stated length.
    let status = unsafe {
        hl_apply_patch_body(
            path.as_ptr().cast(),
            path.len(),
            body.as_ptr().cast(),
            body.len(),
            mode,
            if c_files.is_empty() {
                ptr::null()
            } else {
                c_files.as_ptr()
            },
            c_files.len(),
            opts,
            &mut result,
            &mut error,
        )
    };
    read_call(status, result, error)
}

/// A patch call's outcome from its status and out-parameters (each left at `SENTINEL` unless
/// written), checking that exactly the right one was written; the result or error freed.
fn read_call(
    status: hl_status,
    result: *mut hl_patch_result,
    error: *mut hl_error,
) -> Result<Result<PatchOut, CError>, String> {
    match status {
        hl_status::Ok => {
            if error as usize != SENTINEL {
                return Err("error written on success".into());
            }
            let read = read_patch_result(result);
            // SAFETY: handed over by the call; freed once.
            unsafe { hl_patch_result_free(result) };
            Ok(Ok(read?))
        }
        hl_status::NullArgument
        | hl_status::InvalidUtf8
        | hl_status::OutOfRange
        | hl_status::Panic => Err(format!("unexpected status {status:?}")),
        _ => {
            if result as usize != SENTINEL {
                return Err("result written on failure".into());
            }
            let read = read_error(status, error);
            // SAFETY: handed over by the call; freed once.
            unsafe { hl_error_free(error) };
            Ok(Err(read?))
        }
    }
}

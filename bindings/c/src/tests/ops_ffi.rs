//! Safe wrappers over the tool-operation and content-fix functions, as a careful C host would
//! write them: every status checked, every returned text checked for its NUL terminator, every
//! handle freed, and on failure every out-parameter checked to be untouched.

use std::ffi::{CStr, c_char};
use std::ptr;

use super::ffi::{CError, cptr, read_error, read_text};
use crate::*;

/// A value no failing call may write.
const SENTINEL: usize = 0x5E5E;

fn sentinel<T>() -> *mut T {
    SENTINEL as *mut T
}

/// A C text argument: `(ptr, len)`, `(NULL, 0)` for `None`.
fn arg(text: Option<&[u8]>) -> (*const c_char, usize) {
    text.map_or((ptr::null(), 0), |t| (cptr(t), t.len()))
}

/// What a `pl_edit` holds, read back through its accessors.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct EditOut {
    pub(super) content: String,
    pub(super) replacements: usize,
    pub(super) normalizations: Vec<String>,
    pub(super) first_lines: (usize, usize),
}

fn check(status: pl_status, what: &str) -> Result<(), String> {
    match status {
        pl_status::Ok => Ok(()),
        other => Err(format!("{what} failed: {other:?}")),
    }
}

/// Reads a live `pl_edit` (without freeing it).
fn read_edit(edit: *const pl_edit) -> Result<EditOut, String> {
    let (mut content, mut content_len) = (ptr::null(), 0);
    let (mut replacements, mut count) = (0, 0);
    let mut range = pl_line_range::default();
    // SAFETY: `edit` is a live pl_edit; the out-pointers are locals.
    unsafe {
        check(
            pl_edit_content(edit, &mut content, &mut content_len),
            "pl_edit_content",
        )?;
        check(
            pl_edit_replacements(edit, &mut replacements),
            "pl_edit_replacements",
        )?;
        check(
            pl_edit_normalization_count(edit, &mut count),
            "pl_edit_normalization_count",
        )?;
        check(
            pl_edit_first_line_range(edit, &mut range),
            "pl_edit_first_line_range",
        )?;
    }
    // SAFETY: the library hands out `content_len` bytes plus a NUL.
    let content = unsafe { read_text(content, content_len) }?;
    let mut normalizations = Vec::with_capacity(count);
    for i in 0..=count {
        let (mut name, mut name_len) = (sentinel::<c_char>().cast_const(), SENTINEL);
        // SAFETY: live edit; local out-pointers.
        let status = unsafe { pl_edit_normalization_name(edit, i, &mut name, &mut name_len) };
        if i == count {
            if status != pl_status::OutOfRange || name_len != SENTINEL {
                return Err(format!("normalization past the end gave {status:?}"));
            }
            break;
        }
        check(status, "pl_edit_normalization_name")?;
        // SAFETY: the library hands out `name_len` bytes plus a NUL.
        normalizations.push(unsafe { read_text(name, name_len) }?);
    }
    Ok(EditOut {
        content,
        replacements,
        normalizations,
        first_lines: (range.start, range.end),
    })
}

/// Reads a live `pl_text` (without freeing it).
fn read_pl_text(text: *const pl_text) -> Result<String, String> {
    let (mut content, mut len) = (ptr::null(), 0);
    // SAFETY: `text` is a live pl_text; the out-pointers are locals.
    check(
        unsafe { pl_text_content(text, &mut content, &mut len) },
        "pl_text_content",
    )?;
    // SAFETY: the library hands out `len` bytes plus a NUL.
    unsafe { read_text(content, len) }
}

/// Consumes the outcome of a call that hands out a handle or a `pl_error`: reads and frees
/// whichever the status says was written, and checks the other was left alone. Binding
/// statuses (NULL, UTF-8, range) come back as `Err(Err(status))`.
fn take<H, T>(
    status: pl_status,
    handle: *mut H,
    error: *mut pl_error,
    read: impl FnOnce(*mut H) -> Result<T, String>,
    free: unsafe extern "C" fn(*mut H),
) -> Result<Result<T, CError>, Result<pl_status, String>> {
    match status {
        pl_status::Ok => {
            if error != sentinel() {
                return Err(Err("error written on success".into()));
            }
            if handle.is_null() || handle == sentinel() {
                return Err(Err("no handle on success".into()));
            }
            let read = read(handle);
            // SAFETY: the handle came from the library and is freed once.
            unsafe { free(handle) };
            Ok(Ok(read.map_err(Err)?))
        }
        pl_status::EditRejected | pl_status::InvalidOption | pl_status::EngineError => {
            if handle != sentinel() {
                return Err(Err("handle written on failure".into()));
            }
            if error.is_null() || error == sentinel() {
                return Err(Err(format!("{status:?} without an error")));
            }
            let read = read_error(status, error);
            // SAFETY: `error` came from the library and is freed once.
            unsafe { pl_error_free(error) };
            Ok(Err(read.map_err(Err)?))
        }
        other => {
            if handle != sentinel() || error != sentinel() {
                return Err(Err(format!("{other:?} wrote an out-parameter")));
            }
            Err(Ok(other))
        }
    }
}

/// The outcome of a wrapped call: the value, an engine error, or a binding status.
pub(super) type Outcome<T> = Result<Result<T, CError>, pl_status>;

/// Turns a harness failure (a broken contract) into a panic with its description.
fn contract<T>(r: Result<Result<T, CError>, Result<pl_status, String>>) -> Outcome<T> {
    match r {
        Ok(v) => Ok(v),
        Err(Ok(status)) => Err(status),
        Err(Err(why)) => panic!("C contract broken: {why}"),
    }
}

/// `pl_str_replace` on byte texts; `content` `None` is a missing file.
pub(super) fn str_replace(
    content: Option<&[u8]>,
    old: &[u8],
    new: &[u8],
    replace_all: bool,
    path: Option<&[u8]>,
) -> Outcome<EditOut> {
    let (c, c_len) = arg(content);
    let (p, p_len) = arg(path);
    let (mut edit, mut error) = (sentinel(), sentinel());
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        pl_str_replace(
            c,
            c_len,
            content.is_some(),
            cptr(old),
            old.len(),
            cptr(new),
            new.len(),
            replace_all,
            p,
            p_len,
            &mut edit,
            &mut error,
        )
    };
    contract(take(status, edit, error, |e| read_edit(e), pl_edit_free))
}

/// `pl_insert` on byte texts.
pub(super) fn insert(
    content: &[u8],
    line: usize,
    text: &[u8],
    convention: pl_insert_convention,
) -> Outcome<EditOut> {
    let (mut edit, mut error) = (sentinel(), sentinel());
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        pl_insert(
            cptr(content),
            content.len(),
            line,
            cptr(text),
            text.len(),
            convention,
            &mut edit,
            &mut error,
        )
    };
    contract(take(status, edit, error, |e| read_edit(e), pl_edit_free))
}

/// Roo's `line` argument as a C host passes it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Line<'a> {
    /// `pl_insert_content` with the text.
    Text(&'a [u8]),
    /// `pl_insert_content` with `(NULL, 0)`.
    Missing,
    /// `pl_insert_content_number`.
    Number(f64),
}

/// `pl_insert_content` / `pl_insert_content_number`: the new content and edit type.
pub(super) fn insert_content(
    original: Option<&[u8]>,
    line: Line<'_>,
    content: Option<&[u8]>,
) -> Outcome<(String, pl_edit_type)> {
    let (o, o_len) = arg(original);
    let (c, c_len) = arg(content);
    let (mut text, mut error) = (sentinel(), sentinel());
    let mut edit_type: pl_edit_type = SENTINEL as pl_edit_type;
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        match line {
            Line::Text(_) | Line::Missing => {
                let (l, l_len) = arg(match line {
                    Line::Text(t) => Some(t),
                    _ => None,
                });
                pl_insert_content(
                    o,
                    o_len,
                    original.is_some(),
                    l,
                    l_len,
                    c,
                    c_len,
                    &mut text,
                    &mut edit_type,
                    &mut error,
                )
            }
            Line::Number(n) => pl_insert_content_number(
                o,
                o_len,
                original.is_some(),
                n,
                c,
                c_len,
                &mut text,
                &mut edit_type,
                &mut error,
            ),
        }
    };
    if status != pl_status::Ok && edit_type != SENTINEL as pl_edit_type {
        panic!("C contract broken: edit type written with {status:?}");
    }
    contract(take(
        status,
        text,
        error,
        |t| Ok((read_pl_text(t)?, edit_type)),
        pl_text_free,
    ))
}

/// `pl_write`: the content and the names of the fixes applied (through `pl_fix_name`, in flag
/// order, which is pipeline order).
pub(super) fn write(
    text: &[u8],
    path: Option<&[u8]>,
    model_id: Option<&[u8]>,
) -> Result<(String, Vec<String>), pl_status> {
    let (p, p_len) = arg(path);
    let (m, m_len) = arg(model_id);
    let mut out: *mut pl_text = sentinel();
    let mut flags: pl_fix = SENTINEL as pl_fix;
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        pl_write(
            cptr(text),
            text.len(),
            p,
            p_len,
            m,
            m_len,
            &mut out,
            &mut flags,
        )
    };
    if status != pl_status::Ok {
        assert!(
            out == sentinel() && flags == SENTINEL as pl_fix,
            "an out-parameter was written with {status:?}"
        );
        return Err(status);
    }
    let content = read_pl_text(out);
    // SAFETY: `out` came from the library and is freed once.
    unsafe { pl_text_free(out) };
    let mut names = Vec::new();
    for bit in 0..pl_fix::BITS {
        let flag = 1 << bit;
        if flags & flag != 0 {
            let name = pl_fix_name(flag);
            assert!(!name.is_null(), "flag {flag:#x} has no name");
            // SAFETY: pl_fix_name returns a static NUL-terminated string.
            let name = unsafe { CStr::from_ptr(name) };
            names.push(name.to_str().expect("ASCII").to_owned());
        }
    }
    Ok((content.expect("readable text"), names))
}

/// Which one-text fix to call.
#[derive(Clone, Copy, Debug)]
pub(super) enum OneFix {
    StripMarkdownFences,
    FixModelHtmlEscaping,
    RemoveInvalidChars,
}

/// One of the fixes that take a single text.
pub(super) fn one_fix(fix: OneFix, text: &[u8]) -> Result<String, pl_status> {
    let mut out: *mut pl_text = sentinel();
    // SAFETY: live slice; local out-pointer.
    let status = unsafe {
        let f = match fix {
            OneFix::StripMarkdownFences => pl_strip_markdown_fences,
            OneFix::FixModelHtmlEscaping => pl_fix_model_html_escaping,
            OneFix::RemoveInvalidChars => pl_remove_invalid_chars,
        };
        f(cptr(text), text.len(), &mut out)
    };
    owned_text(status, out)
}

/// `pl_apply_model_content_fixes`.
pub(super) fn apply_model_content_fixes(
    text: &[u8],
    model_id: Option<&[u8]>,
    file_path: Option<&[u8]>,
) -> Result<String, pl_status> {
    let (m, m_len) = arg(model_id);
    let (p, p_len) = arg(file_path);
    let mut out: *mut pl_text = sentinel();
    // SAFETY: live slices; local out-pointer.
    let status = unsafe {
        pl_apply_model_content_fixes(cptr(text), text.len(), m, m_len, p, p_len, &mut out)
    };
    owned_text(status, out)
}

fn owned_text(status: pl_status, out: *mut pl_text) -> Result<String, pl_status> {
    if status != pl_status::Ok {
        assert_eq!(out, sentinel(), "result written with {status:?}");
        return Err(status);
    }
    let text = read_pl_text(out);
    // SAFETY: `out` came from the library and is freed once.
    unsafe { pl_text_free(out) };
    Ok(text.expect("readable text"))
}

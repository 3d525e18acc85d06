//! Safe wrappers over the tool-operation and content-fix functions, as a careful C host would
//! write them: every status checked, every returned text checked for its NUL terminator, every
//! handle freed, and on failure every out-parameter checked to be untouched.

use std::ffi::{CStr, c_char};
use std::ptr;

use super::ffi::{CError, cptr, read_error, read_text};
use hunkloom_c::*;

/// A value no failing call may write.
const SENTINEL: usize = 0x5E5E;

fn sentinel<T>() -> *mut T {
    SENTINEL as *mut T
}

/// A C text argument: `(ptr, len)`, `(NULL, 0)` for `None`.
fn arg(text: Option<&[u8]>) -> (*const c_char, usize) {
    text.map_or((ptr::null(), 0), |t| (cptr(t), t.len()))
}

/// What a `hl_edit` holds, read back through its accessors.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct EditOut {
    pub(super) content: String,
    pub(super) replacements: usize,
    pub(super) normalizations: Vec<String>,
    pub(super) first_lines: (usize, usize),
}

fn check(status: hl_status, what: &str) -> Result<(), String> {
    match status {
        hl_status::Ok => Ok(()),
        other => Err(format!("{what} failed: {other:?}")),
    }
}

/// Reads a live `hl_edit` (without freeing it).
fn read_edit(edit: *const hl_edit) -> Result<EditOut, String> {
    let (mut content, mut content_len) = (ptr::null(), 0);
    let (mut replacements, mut count) = (0, 0);
    let mut range = hl_line_range::default();
    // SAFETY: `edit` is a live hl_edit; the out-pointers are locals.
    unsafe {
        check(
            hl_edit_content(edit, &mut content, &mut content_len),
            "hl_edit_content",
        )?;
        check(
            hl_edit_replacements(edit, &mut replacements),
            "hl_edit_replacements",
        )?;
        check(
            hl_edit_normalization_count(edit, &mut count),
            "hl_edit_normalization_count",
        )?;
        check(
            hl_edit_first_line_range(edit, &mut range),
            "hl_edit_first_line_range",
        )?;
    }
    // SAFETY: the library hands out `content_len` bytes plus a NUL.
    let content = unsafe { read_text(content, content_len) }?;
    let mut normalizations = Vec::with_capacity(count);
    for i in 0..=count {
        let (mut name, mut name_len) = (sentinel::<c_char>().cast_const(), SENTINEL);
        // SAFETY: live edit; local out-pointers.
        let status = unsafe { hl_edit_normalization_name(edit, i, &mut name, &mut name_len) };
        if i == count {
            if status != hl_status::OutOfRange || name_len != SENTINEL {
                return Err(format!("normalization past the end gave {status:?}"));
            }
            break;
        }
        check(status, "hl_edit_normalization_name")?;
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

/// Reads a live `hl_text` (without freeing it).
fn read_hl_text(text: *const hl_text) -> Result<String, String> {
    let (mut content, mut len) = (ptr::null(), 0);
    // SAFETY: `text` is a live hl_text; the out-pointers are locals.
    check(
        unsafe { hl_text_content(text, &mut content, &mut len) },
        "hl_text_content",
    )?;
    // SAFETY: the library hands out `len` bytes plus a NUL.
    unsafe { read_text(content, len) }
}

/// Consumes the outcome of a call that hands out a handle or a `hl_error`: reads and frees
/// whichever the status says was written, and checks the other was left alone. Binding
/// statuses (NULL, UTF-8, range) come back as `Err(Err(status))`.
fn take<H, T>(
    status: hl_status,
    handle: *mut H,
    error: *mut hl_error,
    read: impl FnOnce(*mut H) -> Result<T, String>,
    free: unsafe extern "C" fn(*mut H),
) -> Result<Result<T, CError>, Result<hl_status, String>> {
    match status {
        hl_status::Ok => {
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
        hl_status::EditRejected | hl_status::InvalidOption | hl_status::EngineError => {
            if handle != sentinel() {
                return Err(Err("handle written on failure".into()));
            }
            if error.is_null() || error == sentinel() {
                return Err(Err(format!("{status:?} without an error")));
            }
            let read = read_error(status, error);
            // SAFETY: `error` came from the library and is freed once.
            unsafe { hl_error_free(error) };
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
pub(super) type Outcome<T> = Result<Result<T, CError>, hl_status>;

/// Turns a harness failure (a broken contract) into a panic with its description.
fn contract<T>(r: Result<Result<T, CError>, Result<hl_status, String>>) -> Outcome<T> {
    match r {
        Ok(v) => Ok(v),
        Err(Ok(status)) => Err(status),
        Err(Err(why)) => panic!("C contract broken: {why}"),
    }
}

/// `hl_str_replace` on byte texts; `content` `None` is a missing file.
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
        hl_str_replace(
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
    contract(take(status, edit, error, |e| read_edit(e), hl_edit_free))
}

/// `hl_str_replace_with` on byte texts; `options` `None` passes NULL.
pub(super) fn str_replace_with(
    content: Option<&[u8]>,
    old: &[u8],
    new: &[u8],
    options: Option<&hl_str_replace_options>,
) -> Outcome<EditOut> {
    let (c, c_len) = arg(content);
    let (mut edit, mut error) = (sentinel(), sentinel());
    let options = options.map_or(std::ptr::null(), std::ptr::from_ref);
    // SAFETY: live slices and options; local out-pointers.
    let status = unsafe {
        hl_str_replace_with(
            c,
            c_len,
            content.is_some(),
            cptr(old),
            old.len(),
            cptr(new),
            new.len(),
            options,
            &mut edit,
            &mut error,
        )
    };
    contract(take(status, edit, error, |e| read_edit(e), hl_edit_free))
}

/// `hl_insert` on byte texts.
pub(super) fn insert(
    content: &[u8],
    line: usize,
    text: &[u8],
    convention: hl_insert_convention,
) -> Outcome<EditOut> {
    let (mut edit, mut error) = (sentinel(), sentinel());
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        hl_insert(
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
    contract(take(status, edit, error, |e| read_edit(e), hl_edit_free))
}

/// Roo's `line` argument as a C host passes it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Line<'a> {
    /// `hl_insert_content` with the text.
    Text(&'a [u8]),
    /// `hl_insert_content` with `(NULL, 0)`.
    Missing,
    /// `hl_insert_content_number`.
    Number(f64),
}

/// `hl_insert_content` / `hl_insert_content_number`: the new content and edit type.
pub(super) fn insert_content(
    original: Option<&[u8]>,
    line: Line<'_>,
    content: Option<&[u8]>,
) -> Outcome<(String, hl_edit_type)> {
    let (o, o_len) = arg(original);
    let (c, c_len) = arg(content);
    let (mut text, mut error) = (sentinel(), sentinel());
    let mut edit_type: hl_edit_type = SENTINEL as hl_edit_type;
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        match line {
            Line::Text(_) | Line::Missing => {
                let (l, l_len) = arg(match line {
                    Line::Text(t) => Some(t),
                    _ => None,
                });
                hl_insert_content(
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
            Line::Number(n) => hl_insert_content_number(
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
    if status != hl_status::Ok && edit_type != SENTINEL as hl_edit_type {
        panic!("C contract broken: edit type written with {status:?}");
    }
    contract(take(
        status,
        text,
        error,
        |t| Ok((read_hl_text(t)?, edit_type)),
        hl_text_free,
    ))
}

/// `hl_write`: the content and the names of the fixes applied (through `hl_fix_name`, in flag
/// order, which is pipeline order).
pub(super) fn write(
    text: &[u8],
    path: Option<&[u8]>,
    model_id: Option<&[u8]>,
) -> Result<(String, Vec<String>), hl_status> {
    let (p, p_len) = arg(path);
    let (m, m_len) = arg(model_id);
    let mut out: *mut hl_text = sentinel();
    let mut flags: hl_fix = SENTINEL as hl_fix;
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        hl_write(
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
    if status != hl_status::Ok {
        assert!(
            out == sentinel() && flags == SENTINEL as hl_fix,
            "an out-parameter was written with {status:?}"
        );
        return Err(status);
    }
    let content = read_hl_text(out);
    // SAFETY: `out` came from the library and is freed once.
    unsafe { hl_text_free(out) };
    let mut names = Vec::new();
    for bit in 0..hl_fix::BITS {
        let flag = 1 << bit;
        if flags & flag != 0 {
            let name = hl_fix_name(flag);
            assert!(!name.is_null(), "flag {flag:#x} has no name");
            // SAFETY: hl_fix_name returns a static NUL-terminated string.
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
pub(super) fn one_fix(fix: OneFix, text: &[u8]) -> Result<String, hl_status> {
    let mut out: *mut hl_text = sentinel();
    // SAFETY: live slice; local out-pointer.
    let status = unsafe {
        let f = match fix {
            OneFix::StripMarkdownFences => hl_strip_markdown_fences,
            OneFix::FixModelHtmlEscaping => hl_fix_model_html_escaping,
            OneFix::RemoveInvalidChars => hl_remove_invalid_chars,
        };
        f(cptr(text), text.len(), &mut out)
    };
    owned_text(status, out)
}

/// `hl_apply_model_content_fixes`.
pub(super) fn apply_model_content_fixes(
    text: &[u8],
    model_id: Option<&[u8]>,
    file_path: Option<&[u8]>,
) -> Result<String, hl_status> {
    let (m, m_len) = arg(model_id);
    let (p, p_len) = arg(file_path);
    let mut out: *mut hl_text = sentinel();
    // SAFETY: live slices; local out-pointer.
    let status = unsafe {
        hl_apply_model_content_fixes(cptr(text), text.len(), m, m_len, p, p_len, &mut out)
    };
    owned_text(status, out)
}

fn owned_text(status: hl_status, out: *mut hl_text) -> Result<String, hl_status> {
    if status != hl_status::Ok {
        assert_eq!(out, sentinel(), "result written with {status:?}");
        return Err(status);
    }
    let text = read_hl_text(out);
    // SAFETY: `out` came from the library and is freed once.
    unsafe { hl_text_free(out) };
    Ok(text.expect("readable text"))
}

/// `hl_apply_v4a` on byte texts.
pub(super) fn apply_v4a(input: &[u8], diff: &[u8], mode: hl_v4a_mode) -> Outcome<String> {
    let (mut out, mut error): (*mut hl_text, *mut hl_error) = (sentinel(), sentinel());
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        hl_apply_v4a(
            cptr(input),
            input.len(),
            cptr(diff),
            diff.len(),
            mode,
            &mut out,
            &mut error,
        )
    };
    contract(take(status, out, error, |t| read_hl_text(t), hl_text_free))
}

/// `hl_apply_lazy` on byte texts; `path` and `lang` `None` are not given.
pub(super) fn apply_lazy(
    snippet: &[u8],
    original: &[u8],
    path: Option<&[u8]>,
    lang: Option<&[u8]>,
) -> Outcome<String> {
    let (p, p_len) = arg(path);
    let (l, l_len) = arg(lang);
    let (mut text, mut error) = (sentinel(), sentinel());
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        hl_apply_lazy(
            cptr(snippet),
            snippet.len(),
            cptr(original),
            original.len(),
            p,
            p_len,
            l,
            l_len,
            &mut text,
            &mut error,
        )
    };
    contract(take(status, text, error, |t| read_hl_text(t), hl_text_free))
}

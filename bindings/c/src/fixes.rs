//! The engine's content fixes (`engine::fixes`): Cline's `write_to_file` pipeline as `hl_write`,
//! and its steps, each returning a `hl_text`.
//!
//! None of them can fail in the engine; the statuses are the binding's own (NULL, UTF-8). A
//! `path` / `model_id` argument that is `(NULL, 0)` or empty is "not given", which the engine
//! treats exactly like the empty text.

use std::ffi::{CStr, c_char};

use engine::fixes;

use crate::args::{Out, optional_str_arg, str_arg};
use crate::ffi_guard::guard;
use crate::owned_text::hl_text;
use crate::status::hl_status;

/// A set of content fixes: an OR of `HL_FIX_` flags (`hl_write` reports the fixes that changed
/// something in one). Later versions may add flags.
#[allow(non_camel_case_types)]
pub type hl_fix = u32;

/// `strip_markdown_fences`: a Markdown code fence around the whole content was removed.
pub const HL_FIX_STRIP_MARKDOWN_FENCES: hl_fix = 1;
/// `fix_model_html_escaping`: `&gt; &lt; &quot; &amp; &apos;` were unescaped (non-Claude models,
/// paths not ending in `.xml`).
pub const HL_FIX_MODEL_HTML_ESCAPING: hl_fix = 2;
/// `remove_invalid_chars`: U+FFFD characters were removed (non-Claude models).
pub const HL_FIX_REMOVE_INVALID_CHARS: hl_fix = 4;

/// Each flag with the engine's name for its fix, in pipeline order (the unit test checks both
/// against `engine::fixes::Fix::ALL`).
const FIXES: [(hl_fix, &CStr); 3] = [
    (HL_FIX_STRIP_MARKDOWN_FENCES, c"strip_markdown_fences"),
    (HL_FIX_MODEL_HTML_ESCAPING, c"fix_model_html_escaping"),
    (HL_FIX_REMOVE_INVALID_CHARS, c"remove_invalid_chars"),
];

/// The flags of the engine's fix names.
fn flags_of(names: &[&str]) -> hl_fix {
    names.iter().fold(0, |set, name| {
        let (flag, _) = FIXES
            .iter()
            .find(|(_, n)| n.to_bytes() == name.as_bytes())
            .unwrap_or_else(|| panic!("fix {name} has no HL_FIX_ flag"));
        set | flag
    })
}

/// The engine's stable name of one fix flag (e.g. `"fix_model_html_escaping"` for
/// `HL_FIX_MODEL_HTML_ESCAPING`), the name the other bindings report: static, NUL-terminated,
/// owned by the library and valid for the life of the process; do not free it. NULL if `fix`
/// is not exactly one `HL_FIX_` flag.
#[unsafe(no_mangle)]
pub extern "C" fn hl_fix_name(fix: hl_fix) -> *const c_char {
    FIXES
        .iter()
        .find(|(flag, _)| *flag == fix)
        .map_or(std::ptr::null(), |(_, name)| name.as_ptr())
}

/// Writes `text` as a new `hl_text` to `out`.
///
/// # Safety
/// `out` must be writable.
unsafe fn hand_over(out: Out<*mut hl_text>, text: String) {
    // SAFETY: forwarded from this function's contract.
    unsafe { out.write(Box::into_raw(hl_text::boxed(text))) }
}

/// Cline v4.0.10's `write_to_file` content pipeline on what a model wrote, byte for byte:
/// `hl_strip_markdown_fences`, then `hl_apply_model_content_fixes` for `model_id` and `path`.
///
/// `model_content`, `path` and `model_id` are UTF-8 texts of the given lengths (not
/// NUL-terminated; NULL allowed with length 0; only read during the call); `path` and `model_id`
/// may be `(NULL, 0)` when not known. On success `*content` receives a new `hl_text` with the
/// content to write, owned by the caller, who frees it with `hl_text_free`, and `*fixes_applied`
/// the fixes that changed something (an OR of `HL_FIX_` flags; 0 if none; `hl_fix_name` names
/// them).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if `content` or `fixes_applied` is NULL or a text is NULL
/// with a non-zero length; `HL_STATUS_INVALID_UTF8` if a text is not UTF-8. Both out-parameters
/// are untouched then.
///
/// # Safety
/// Each text pointer must point to its length in readable bytes (or be NULL with length 0);
/// `content` and `fixes_applied` must be writable.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_write(
    model_content: *const c_char,
    model_content_len: usize,
    path: *const c_char,
    path_len: usize,
    model_id: *const c_char,
    model_id_len: usize,
    content: *mut *mut hl_text,
    fixes_applied: *mut hl_fix,
) -> hl_status {
    guard(|| {
        let (out, out_fixes) = (Out::new(content)?, Out::new(fixes_applied)?);
        // SAFETY: the caller passes `model_content_len` readable bytes (this function's contract).
        let text = unsafe { str_arg(model_content, model_content_len) }?;
        // SAFETY: the caller passes `path_len` readable bytes (this function's contract).
        let path = unsafe { optional_str_arg(path, path_len) }?;
        // SAFETY: the caller passes `model_id_len` readable bytes (this function's contract).
        let model_id = unsafe { optional_str_arg(model_id, model_id_len) }?;
        let written = fixes::write(text, path, model_id);
        let flags = flags_of(&written.fixes_applied);
        // SAFETY: both out-pointers are non-NULL and writable (this function's contract).
        unsafe {
            hand_over(out, written.new_content);
            out_fixes.write(flags);
        }
        Ok(())
    })
}

/// Cline's removal of a Markdown code fence around a whole file (its `write_to_file` handler's
/// first step), byte for byte.
///
/// `text` is `text_len` bytes of UTF-8 (not NUL-terminated; NULL allowed with length 0). On
/// success `*result` receives a new `hl_text` owned by the caller, who frees it with
/// `hl_text_free`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if `result` is NULL or `text` is NULL with a non-zero
/// length; `HL_STATUS_INVALID_UTF8` if `text` is not UTF-8. `*result` is untouched then.
///
/// # Safety
/// `text` must point to `text_len` readable bytes (or be NULL with length 0); `result` must be
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_strip_markdown_fences(
    text: *const c_char,
    text_len: usize,
    result: *mut *mut hl_text,
) -> hl_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { one_text(text, text_len, result, fixes::strip_markdown_fences) }
}

/// Cline v4.0.10's `applyModelContentFixes(text, model_id, file_path)`, byte for byte: unless
/// `model_id` contains `claude` (case-sensitive), `hl_fix_model_html_escaping` (skipped when
/// `file_path` ends in `.xml`, any case) then `hl_remove_invalid_chars`.
///
/// The texts are UTF-8 of the given lengths (not NUL-terminated; NULL allowed with length 0);
/// `model_id` and `file_path` may be `(NULL, 0)` when omitted. On success `*result` receives a
/// new `hl_text` owned by the caller, who frees it with `hl_text_free`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if `result` is NULL or a text is NULL with a non-zero
/// length; `HL_STATUS_INVALID_UTF8` if a text is not UTF-8. `*result` is untouched then.
///
/// # Safety
/// Each text pointer must point to its length in readable bytes (or be NULL with length 0);
/// `result` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_apply_model_content_fixes(
    text: *const c_char,
    text_len: usize,
    model_id: *const c_char,
    model_id_len: usize,
    file_path: *const c_char,
    file_path_len: usize,
    result: *mut *mut hl_text,
) -> hl_status {
    guard(|| {
        let out = Out::new(result)?;
        // SAFETY: the caller passes `text_len` readable bytes (this function's contract).
        let text = unsafe { str_arg(text, text_len) }?;
        // SAFETY: the caller passes `model_id_len` readable bytes (this function's contract).
        let model_id = unsafe { optional_str_arg(model_id, model_id_len) }?;
        // SAFETY: the caller passes `file_path_len` readable bytes (this function's contract).
        let file_path = unsafe { optional_str_arg(file_path, file_path_len) }?;
        let fixed = fixes::apply_model_content_fixes(text, model_id, file_path);
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { hand_over(out, fixed) };
        Ok(())
    })
}

/// Cline's `fixModelHtmlEscaping`: unescapes `&gt; &lt; &quot; &amp; &apos;`, in that order,
/// whatever the model (`hl_apply_model_content_fixes` decides when it applies).
///
/// Arguments, ownership and statuses as for `hl_strip_markdown_fences`.
///
/// # Safety
/// As for `hl_strip_markdown_fences`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_fix_model_html_escaping(
    text: *const c_char,
    text_len: usize,
    result: *mut *mut hl_text,
) -> hl_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { one_text(text, text_len, result, fixes::fix_model_html_escaping) }
}

/// Cline's `removeInvalidChars`: removes every U+FFFD replacement character.
///
/// Arguments, ownership and statuses as for `hl_strip_markdown_fences`.
///
/// # Safety
/// As for `hl_strip_markdown_fences`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_remove_invalid_chars(
    text: *const c_char,
    text_len: usize,
    result: *mut *mut hl_text,
) -> hl_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { one_text(text, text_len, result, fixes::remove_invalid_chars) }
}

/// The body of the fixes that take one text: `fix(text)` as a new `hl_text` in `*result`.
///
/// # Safety
/// `text` must point to `text_len` readable bytes (or be NULL with length 0); `result` must be
/// writable.
unsafe fn one_text(
    text: *const c_char,
    text_len: usize,
    result: *mut *mut hl_text,
    fix: fn(&str) -> String,
) -> hl_status {
    guard(|| {
        let out = Out::new(result)?;
        // SAFETY: forwarded from this function's contract.
        let text = unsafe { str_arg(text, text_len) }?;
        let fixed = fix(text);
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { hand_over(out, fixed) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::fixes::Fix;

    #[test]
    fn every_engine_fix_has_a_flag_with_its_name_in_pipeline_order() {
        assert_eq!(FIXES.len(), Fix::ALL.len());
        let mut seen = 0;
        for ((flag, name), fix) in FIXES.iter().zip(Fix::ALL) {
            assert_eq!(name.to_str(), Ok(fix.as_str()));
            assert_eq!(flag.count_ones(), 1, "{name:?}");
            assert_eq!(seen & flag, 0, "{name:?} reuses a bit");
            assert!(*flag > seen, "flags follow the pipeline order");
            seen |= flag;
            // SAFETY: hl_fix_name returns NULL or a static NUL-terminated string.
            let got = unsafe { CStr::from_ptr(hl_fix_name(*flag)) };
            assert_eq!(got, *name);
            assert_eq!(flags_of(&[fix.as_str()]), *flag);
        }
        assert!(hl_fix_name(0).is_null());
        assert!(hl_fix_name(HL_FIX_STRIP_MARKDOWN_FENCES | HL_FIX_REMOVE_INVALID_CHARS).is_null());
        assert!(hl_fix_name(8).is_null());
    }
}

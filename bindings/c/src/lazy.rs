//! `hl_apply_lazy`: a snippet with `// ... existing code ...` markers merged into a file
//! without a model (the engine's `apply_lazy`), into a `hl_text`.

use std::ffi::c_char;

use engine::LazyOptions;
use engine::lazy::Language;

use crate::args::{Out, optional_str_arg, str_arg};
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::guard_with_error;
use crate::owned_text::hl_text;
use crate::status::hl_status;

/// The language named `lang` (a name such as `"python"` or an extension such as `"ts"`), if
/// given.
pub(crate) fn language(lang: Option<&str>) -> Result<Option<Language>, Failure> {
    lang.map(Language::from_name)
        .transpose()
        .map_err(Failure::from)
}

/// Merges a lazy edit into a file's text without a model: the whole new text.
///
/// `snippet` is what a model writes when it does not repeat the whole file: the changed code
/// with a few unchanged lines around each change, and marker comments (`// ... existing code
/// ...`, `# ...`, or the same as a one-line block comment) for what it leaves out; a comment
/// `// removed NAME`
/// deletes the definition NAME. Each part between markers is placed only where its first and
/// last lines occur exactly once in `original` (comparing lines exactly, then ignoring
/// indentation, then all whitespace); a part that cannot be placed for certain is refused. A
/// snippet without markers is the whole new text.
///
/// The language (which comments are markers) comes from `lang` (`python`, `typescript`, `go`,
/// `rust`, `java`, `slash_comments`, `hash_comments`, `other`, or an extension such as `py`,
/// `js`, `kt`, `sh`), else from the extension of `path`; either may be `(NULL, 0)` (not given).
/// Every text is UTF-8 of the given length, needs no NUL terminator, may be NULL with length 0,
/// and is only read during the call. On success `*content` receives a new `hl_text` with the
/// merged text, owned by the caller, who frees it with `hl_text_free`.
///
/// @return `HL_STATUS_EDIT_REJECTED` with `*error` (a new `hl_error` the caller frees with
/// `hl_error_free`) when the snippet is refused: code `lazy_no_anchor` (a part whose first or
/// last line occurs nowhere), `lazy_ambiguous` (a part that could go to several places;
/// `hl_error_match_count` / `hl_error_match` list them), `lazy_silent_deletion` (a whole
/// definition left out without a `// removed NAME` comment), `lazy_conflict` (parts out of
/// order or overlapping) or `lazy_indentation`, the message naming the part and why;
/// `HL_STATUS_INVALID_OPTION` with `*error` (code `invalid_language`) for an unknown `lang`.
/// `HL_STATUS_NULL_ARGUMENT` if `content` or `error` is NULL or a text is NULL with a non-zero
/// length; `HL_STATUS_INVALID_UTF8` if a text is not UTF-8. `*content` is set only on success,
/// `*error` only with the statuses that say so.
///
/// # Safety
/// Each text pointer must point to its length in readable bytes (or be NULL with length 0);
/// `content` and `error` must be writable.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_apply_lazy(
    snippet: *const c_char,
    snippet_len: usize,
    original: *const c_char,
    original_len: usize,
    path: *const c_char,
    path_len: usize,
    lang: *const c_char,
    lang_len: usize,
    content: *mut *mut hl_text,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(content)?;
        // SAFETY: the caller passes `snippet_len` readable bytes (this function's contract).
        let snippet = unsafe { str_arg(snippet, snippet_len) }?;
        // SAFETY: the caller passes `original_len` readable bytes (this function's contract).
        let original = unsafe { str_arg(original, original_len) }?;
        // SAFETY: the caller passes `path_len` readable bytes (this function's contract).
        let path = unsafe { optional_str_arg(path, path_len) }?;
        // SAFETY: the caller passes `lang_len` readable bytes (this function's contract).
        let lang = unsafe { optional_str_arg(lang, lang_len) }?;
        let mut options = LazyOptions::new();
        options.path = path.map(str::to_owned);
        options.language = language(lang)?;
        let merged = engine::apply_lazy(snippet, original, &options)?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_text::boxed(merged))) };
        Ok(())
    })
}

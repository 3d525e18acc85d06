//! [`hl_toolset`]: the edit tools one model family is trained on (`hunkloom_tools::Toolset`),
//! for C. Tool calls go in as their name and the JSON text of their input, results come back as
//! the JSON text `hl_text_editor_call` gives, and `hl_toolset_tools` gives the tool definitions
//! to register with the model API. Like the text editor, a toolset lives in a [`Shared`]: many
//! threads may call it, and a panic retires it.

use std::ffi::c_char;
use std::sync::Arc;

use engine::{Error, ErrorKind};
use hunkloom_handle::Shared;
use hunkloom_tools::{Semantics, Toolset, ToolsetOptions, ToolsetProfile};
use serde_json::{Value, json};

use crate::args::{Out, handle, str_arg};
use crate::failure::hl_error;
use crate::ffi_guard::{guard_void, guard_with_error};
use crate::options::{engine_durability, hl_durability};
use crate::owned_text::hl_text;
use crate::status::hl_status;
use crate::text_editor::{
    HL_REQUIRE_READ_DEFAULT, HL_REQUIRE_READ_NO, HL_REQUIRE_READ_YES, hl_require_read, to_json_text,
};

/// Options of `hl_toolset_new`. Zero-initialise it (`hl_toolset_options opts = {0};`), which
/// selects every default; a NULL options pointer means the same.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hl_toolset_options {
    /// A `HL_REQUIRE_READ_` value (default, 0: the profile's).
    pub require_read: hl_require_read,
    /// Files larger than this many bytes are refused. 0: the profile's default.
    pub max_file_size: u64,
    /// The text editor's `max_characters` (Anthropic's text_editor_20250728): the most
    /// characters of a file a `view` shows. 0: the default, 16,000.
    pub max_characters: u64,
    /// Only the tools that never write (`native`: `read_file`); the others are refused with
    /// code `read_only`. Default false.
    pub read_only: bool,
    /// A `HL_SEMANTICS_` value (default, 0: `HL_SEMANTICS_REFERENCE`).
    pub semantics: hl_semantics,
    /// A `HL_DURABILITY_` value (default, 0: `HL_DURABILITY_FULL`, every write flushed).
    pub durability: hl_durability,
}

/// Whose rules a toolset's tools follow: one of the `HL_SEMANTICS_` values.
#[allow(non_camel_case_types)]
pub type hl_semantics = u32;
/// As the profile's reference answers (0, the default).
pub const HL_SEMANTICS_REFERENCE: hl_semantics = 0;
/// hunkloom's matching and refusals behind the profile's tool names: the native text editor
/// for `anthropic` and `openhands`, the native reading of patches for `openai`, `codex` and
/// Copilot's `apply_patch`, the native text editor's replacement for the string-replacing tools
/// of `gemini`, `copilot` and `claude-code`.
pub const HL_SEMANTICS_NATIVE: hl_semantics = 1;

/// The edit tools of one model family over a root directory (see `hl_toolset_new`). Threads: as
/// `hl_text_editor`.
#[derive(Debug)]
pub struct hl_toolset {
    /// Shared with the streams it makes, which keep it alive.
    pub(crate) handle: Arc<Shared<Toolset>>,
}

/// Creates a toolset over the directory `root` (`root_len` bytes of UTF-8), which must exist,
/// answering as the profile named by `profile` (`profile_len` bytes of UTF-8: `native` —
/// hunkloom's own tools, as `hunkloom mcp` serves them — `anthropic`, `openhands`, `openai`,
/// `codex`, `gemini`, `claude-code` or `copilot`; `(NULL, 0)` or empty: `native`).
///
/// On success `*toolset` receives a new toolset the caller frees with `hl_toolset_free`.
///
/// @return with `*error`, a new `hl_error` the caller frees with `hl_error_free`:
/// `HL_STATUS_INVALID_OPTION` (code `invalid_profile`) for an unknown profile name;
/// `HL_STATUS_IO_ERROR` if `root` is not an accessible directory. Without an error:
/// `HL_STATUS_NULL_ARGUMENT`, `HL_STATUS_INVALID_UTF8`, or `HL_STATUS_OUT_OF_RANGE` for a
/// `require_read` that is not a `HL_REQUIRE_READ_` value. `*toolset` is set only on success.
///
/// # Safety
/// `root` and `profile` must point to their lengths of readable bytes (or be NULL with length
/// 0); `options` must be NULL or point to a `hl_toolset_options`; `toolset` and `error` must be
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_toolset_new(
    root: *const c_char,
    root_len: usize,
    profile: *const c_char,
    profile_len: usize,
    options: *const hl_toolset_options,
    toolset: *mut *mut hl_toolset,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(toolset)?;
        // SAFETY: the caller passes readable bytes of these lengths (this function's contract).
        let (root, profile) = unsafe { (str_arg(root, root_len)?, str_arg(profile, profile_len)?) };
        // SAFETY: NULL or a hl_toolset_options (this function's contract).
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        let profile = match profile {
            "" => ToolsetProfile::default(),
            name => name.parse::<ToolsetProfile>()?,
        };
        let mut settings = ToolsetOptions::new().profile(profile);
        settings = match options.require_read {
            HL_REQUIRE_READ_DEFAULT => settings,
            HL_REQUIRE_READ_YES => settings.require_read(true),
            HL_REQUIRE_READ_NO => settings.require_read(false),
            _ => return Err(hl_status::OutOfRange.into()),
        };
        if options.max_characters != 0 {
            settings = settings
                .max_characters(usize::try_from(options.max_characters).unwrap_or(usize::MAX));
        }
        if options.max_file_size != 0 {
            settings = settings.max_file_size(options.max_file_size);
        }
        settings = settings
            .read_only(options.read_only)
            .durability(engine_durability(options.durability)?);
        settings = settings.semantics(match options.semantics {
            HL_SEMANTICS_REFERENCE => Semantics::Reference,
            HL_SEMANTICS_NATIVE => Semantics::Native,
            _ => return Err(hl_status::OutOfRange.into()),
        });
        let boxed = Box::new(hl_toolset {
            handle: Arc::new(Shared::new("toolset", Toolset::new(root, settings)?)),
        });
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(boxed)) };
        Ok(())
    })
}

/// The profile's tool definitions as JSON text: an array of `{"name", "title" (a string or
/// null), "description", "input_schema", "read_only"}`. On success `*tools_json` receives a new `hl_text` the caller frees with
/// `hl_text_free`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL; `HL_STATUS_PANIC` if the toolset is
/// poisoned.
///
/// # Safety
/// `toolset` must be a live toolset; `tools_json` and `error` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_toolset_tools(
    toolset: *mut hl_toolset,
    tools_json: *mut *mut hl_text,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(tools_json)?;
        // SAFETY: a live toolset (this function's contract).
        let t = unsafe { handle(toolset) }?;
        let tools = t.handle.with(Toolset::tools)?;
        let array: Vec<Value> = tools
            .into_iter()
            .map(|tool| {
                json!({"name": tool.name, "title": tool.title,
                       "description": tool.description, "input_schema": tool.input_schema,
                       "read_only": tool.read_only})
            })
            .collect();
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe {
            out.write(Box::into_raw(hl_text::boxed(
                Value::Array(array).to_string(),
            )))
        };
        Ok(())
    })
}

/// Answers one call of the tool `name` (`name_len` bytes of UTF-8) whose input is the JSON
/// object text `input_json` (`input_len` bytes). Every mistake a model can make (an unknown tool
/// name too, code `unknown_tool`) is a result; on success `*result_json` receives a new `hl_text`
/// (freed with `hl_text_free`) holding the JSON object `hl_text_editor_call` documents.
///
/// @return with `*error`: `HL_STATUS_INVALID_OPTION` (code `invalid_input`) if `input_json` is
/// not a JSON object. Without an error: `HL_STATUS_NULL_ARGUMENT`, `HL_STATUS_INVALID_UTF8`,
/// `HL_STATUS_PANIC` if the toolset is poisoned. `*result_json` is set only on success.
///
/// # Safety
/// `toolset` must be a live toolset; `name` and `input_json` must point to their lengths of
/// readable bytes (or be NULL with length 0); `result_json` and `error` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_toolset_call(
    toolset: *mut hl_toolset,
    name: *const c_char,
    name_len: usize,
    input_json: *const c_char,
    input_len: usize,
    result_json: *mut *mut hl_text,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result_json)?;
        // SAFETY: readable bytes of these lengths (this function's contract).
        let (name, input) = unsafe { (str_arg(name, name_len)?, str_arg(input_json, input_len)?) };
        let input: Value = serde_json::from_str(input).map_err(|e| {
            Error::with_message(
                ErrorKind::InvalidInput,
                format!("a tool call's input is not JSON: {e}"),
            )
        })?;
        // SAFETY: a live toolset (this function's contract).
        let t = unsafe { handle(toolset) }?;
        let result = t.handle.with(|toolset| toolset.call(name, &input))??;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_text::boxed(to_json_text(&result)))) };
        Ok(())
    })
}

/// Frees a toolset. NULL is allowed and does nothing. Files on disk are not touched.
///
/// # Safety
/// `toolset` must be NULL or a toolset from `hl_toolset_new` not yet freed, and not in use by
/// another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_toolset_free(toolset: *mut hl_toolset) {
    guard_void(|| {
        if !toolset.is_null() {
            // SAFETY: made by `Box::into_raw` in `hl_toolset_new`, freed once (the contract).
            drop(unsafe { Box::from_raw(toolset) });
        }
    })
}

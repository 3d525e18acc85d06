//! [`hl_text_editor`]: the text-editor tool of `hunkloom-tools` for C. A model's tool call goes
//! in as the JSON text of its input object, and the result comes back as JSON text, so a host
//! passes through what its model API already hands it.
//!
//! The editor lives in a [`Shared`], as the workspace does: many threads call it at once (calls
//! on the same file take turns in the editor), and a panic retires the editor
//! (`HL_STATUS_PANIC` from then on).

use std::ffi::c_char;
use std::sync::Arc;

use engine::{Error, ErrorKind};
use hunkloom_handle::Shared;
use hunkloom_tools::{EditorOptions, Profile, TextEditor, ToolResult};
use serde_json::{Value, json};

use crate::args::{Out, handle, str_arg};
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::{guard_void, guard_with_error};
use crate::options::{engine_durability, hl_durability};
use crate::owned_text::hl_text;
use crate::status::hl_status;

/// Whose text-editor tool a `hl_text_editor` answers as: one of the `HL_PROFILE_` values.
///
/// A plain integer type rather than an enum so that any value a host passes is well-defined: an
/// unknown value fails as the engine does for an unknown profile name (status
/// `HL_STATUS_INVALID_OPTION`, code `invalid_profile`).
#[allow(non_camel_case_types)]
pub type hl_profile = u32;

/// 0: the default profile, `HL_PROFILE_NATIVE`.
pub const HL_PROFILE_DEFAULT: hl_profile = 0;
/// `anthropic`: Anthropic's computer-use demo editor (`EditTool20250124`, tool name
/// `str_replace_editor`): its output texts, error flags and file bytes, as the conformance
/// vectors record them.
pub const HL_PROFILE_ANTHROPIC: hl_profile = 1;
/// `openhands`: OpenHands ACI's `OHEditor` (openhands-aci 0.3.3), as the conformance vectors
/// record it.
pub const HL_PROFILE_OPENHANDS: hl_profile = 2;
/// `native`: hunkloom's own edit semantics (Claude Code's `str_replace`, lines counted as editors
/// count them, relative paths resolved in the root, a view required before an edit) with the
/// Anthropic message shapes.
pub const HL_PROFILE_NATIVE: hl_profile = 3;

/// Whether a `hl_text_editor` refuses to edit a file the model has not viewed since it last
/// changed: one of the `HL_REQUIRE_READ_` values. Any other value is `HL_STATUS_OUT_OF_RANGE`.
#[allow(non_camel_case_types)]
pub type hl_require_read = u32;

/// 0: the profile's default, on for `native`, off for `anthropic` and `openhands` (the
/// references track nothing between calls).
pub const HL_REQUIRE_READ_DEFAULT: hl_require_read = 0;
/// Edits need a view of the file first (results with codes `not_read`, `stale_file`).
pub const HL_REQUIRE_READ_YES: hl_require_read = 1;
/// Edits need no view first.
pub const HL_REQUIRE_READ_NO: hl_require_read = 2;

/// Options of `hl_text_editor_new`. Zero-initialise it (`hl_text_editor_options opts = {0};`),
/// which selects every default, then set the fields you need; a NULL options pointer means the
/// same. Fields added in later versions will also default at zero.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hl_text_editor_options {
    /// A `HL_REQUIRE_READ_` value (default, 0: the profile's).
    pub require_read: hl_require_read,
    /// Files larger than this many bytes are refused (result code `file_too_large`). 0: the
    /// profile's default, 10 MiB for `openhands` (the reference's limit), 1 GiB otherwise.
    pub max_file_size: u64,
    /// A `HL_DURABILITY_` value (default, 0: `HL_DURABILITY_FULL`, every write flushed).
    pub durability: hl_durability,
}

impl hl_text_editor_options {
    /// The editor's options for `profile`.
    fn to_engine(self, profile: Profile) -> Result<EditorOptions, Failure> {
        let mut options = EditorOptions::new()
            .profile(profile)
            .durability(engine_durability(self.durability)?);
        options = match self.require_read {
            HL_REQUIRE_READ_DEFAULT => options,
            HL_REQUIRE_READ_YES => options.require_read(true),
            HL_REQUIRE_READ_NO => options.require_read(false),
            _ => return Err(hl_status::OutOfRange.into()),
        };
        if self.max_file_size != 0 {
            options = options.max_file_size(self.max_file_size);
        }
        Ok(options)
    }
}

/// The engine's profile for `value`, or its `invalid_profile` error.
fn engine_profile(value: hl_profile) -> Result<Profile, Failure> {
    Ok(match value {
        HL_PROFILE_DEFAULT => Profile::default(),
        HL_PROFILE_ANTHROPIC => Profile::Anthropic,
        HL_PROFILE_OPENHANDS => Profile::OpenHands,
        HL_PROFILE_NATIVE => Profile::Native,
        // The engine's own error for a name it does not know.
        other => other.to_string().parse::<Profile>()?,
    })
}

/// A tool result as the JSON text `hl_text_editor_call` hands out.
pub(crate) fn to_json_text(result: &ToolResult) -> String {
    json!({
        "output": result.output,
        "is_error": result.is_error,
        "code": result.code,
        "path": result.path,
        "old_content": result.old_content,
        "new_content": result.new_content,
    })
    .to_string()
}

/// One text-editor tool over a root directory: `hl_text_editor_call` answers each tool call
/// (`view`, `create`, `str_replace`, `insert`, `undo_edit`) as the chosen profile's reference
/// does, with the workspace's safety underneath (paths kept inside the root, atomic writes, line
/// endings, byte-order marks and encodings kept, undo).
///
/// Create it with `hl_text_editor_new` and release it with `hl_text_editor_free`.
///
/// Threads: an editor may be used by many threads at once (every function but
/// `hl_text_editor_free`, which must never overlap anything). Calls on different files run in
/// parallel; calls on the same file take turns, each answered as if it came after the one
/// before (a call that waits past 5 s answers with an error result, code `lock_timeout`).
#[derive(Debug)]
pub struct hl_text_editor {
    /// Shared with the streams it makes, which keep it alive.
    pub(crate) handle: Arc<Shared<TextEditor>>,
}

/// Creates a text editor over the directory `root` (`root_len` bytes of UTF-8; relative to the
/// current directory unless absolute), which must exist, answering as `profile` (a
/// `HL_PROFILE_` value; `HL_PROFILE_DEFAULT` is `native`).
///
/// `options` may be NULL for the defaults, as may a zeroed `hl_text_editor_options`. On success
/// `*editor` receives a new editor owned by the caller, who frees it with `hl_text_editor_free`.
///
/// @return with `*error`, a new `hl_error` the caller frees with `hl_error_free`:
/// `HL_STATUS_INVALID_OPTION` (code `invalid_profile`) if `profile` is not a `HL_PROFILE_`
/// value; `HL_STATUS_IO_ERROR` (code `io_error`, the system's message) if `root` is not an
/// accessible directory. Without an error: `HL_STATUS_NULL_ARGUMENT` if `editor` or `error` is
/// NULL or `root` is NULL with a non-zero length; `HL_STATUS_INVALID_UTF8` if `root` is not
/// UTF-8; `HL_STATUS_OUT_OF_RANGE` if `options->require_read` is not a `HL_REQUIRE_READ_` value.
/// `*editor` is set only on success.
///
/// # Safety
/// `root` must point to `root_len` readable bytes (or be NULL with length 0); `options` must be
/// NULL or point to a `hl_text_editor_options`; `editor` and `error` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_editor_new(
    root: *const c_char,
    root_len: usize,
    profile: hl_profile,
    options: *const hl_text_editor_options,
    editor: *mut *mut hl_text_editor,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(editor)?;
        // SAFETY: the caller passes `root_len` readable bytes (this function's contract).
        let root = unsafe { str_arg(root, root_len) }?;
        // SAFETY: `options` is NULL or points to a hl_text_editor_options (this function's
        // contract).
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        let options = options.to_engine(engine_profile(profile)?)?;
        let text_editor = TextEditor::new(root, options)?;
        let boxed = Box::new(hl_text_editor {
            handle: Arc::new(Shared::new("text editor", text_editor)),
        });
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(boxed)) };
        Ok(())
    })
}

/// Answers one tool call. `input_json` is `input_len` bytes of UTF-8: the JSON text of the
/// call's input object, e.g. `{"command": "view", "path": "/repo/app.py"}` (not NUL-terminated;
/// only read during the call).
///
/// Every mistake a model can make (a missing or mistyped parameter, a path that does not exist
/// or lies outside the root, an `old_str` found nowhere or in several places, ...) is a result,
/// not a failure. On success `*result_json` receives a new `hl_text`, owned by the caller, who
/// frees it with `hl_text_free`, holding the JSON object
/// `{"output": string, "is_error": bool, "code": string, "path": string|null,
/// "old_content": string|null, "new_content": string|null}`: `output` is the exact text for the
/// model, `code` a stable snake_case code of the failure (`""` on success), `path` the path as
/// the output shows it, and, for an edit, the file's text before and after.
///
/// @return with `*error`, a new `hl_error` the caller frees with `hl_error_free`:
/// `HL_STATUS_INVALID_OPTION` (code `invalid_input`) if `input_json` is not JSON or not a JSON
/// object (a host's mistake). Without an error: `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL
/// or `input_json` is NULL with a non-zero length; `HL_STATUS_INVALID_UTF8` if `input_json` is
/// not UTF-8; `HL_STATUS_PANIC` if the editor is poisoned. `*result_json` is set only on
/// success.
///
/// # Safety
/// `editor` must be a live editor (not freed, and not being freed meanwhile); `input_json` must point
/// to `input_len` readable bytes (or be NULL with length 0); `result_json` and `error` must be
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_editor_call(
    editor: *mut hl_text_editor,
    input_json: *const c_char,
    input_len: usize,
    result_json: *mut *mut hl_text,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result_json)?;
        // SAFETY: the caller passes `input_len` readable bytes (this function's contract).
        let input = unsafe { str_arg(input_json, input_len) }?;
        let input: Value = serde_json::from_str(input).map_err(|e| {
            Error::with_message(
                ErrorKind::InvalidInput,
                format!("a text-editor tool call's input is not JSON: {e}"),
            )
        })?;
        // SAFETY: the caller passes a live editor used by this thread only (this function's
        // contract).
        let e = unsafe { handle(editor) }?;
        let result = e.handle.with(|text_editor| text_editor.call(&input))??;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_text::boxed(to_json_text(&result)))) };
        Ok(())
    })
}

/// The tool's definition for a model API, as JSON text: `{"name", "description",
/// "input_schema"}` (OpenAI-style APIs take `input_schema` as `parameters`), for `profile` (a
/// `HL_PROFILE_` value). `name` (`name_len` bytes of UTF-8; `(NULL, 0)` or empty: the profile's
/// own name, `str_replace_editor` for `anthropic` and `openhands`, `str_replace_based_edit_tool`
/// for `native`) renames the tool; with `HL_PROFILE_ANTHROPIC`, `str_replace_based_edit_tool`
/// (Anthropic's newest editor) offers no `undo_edit`.
///
/// On success `*schema_json` receives a new `hl_text` owned by the caller, who frees it with
/// `hl_text_free`.
///
/// @return `HL_STATUS_INVALID_OPTION` (code `invalid_profile`, with `*error`, a new `hl_error`
/// the caller frees with `hl_error_free`) if `profile` is not a `HL_PROFILE_` value;
/// `HL_STATUS_NULL_ARGUMENT` if `schema_json` or `error` is NULL or `name` is NULL with a
/// non-zero length; `HL_STATUS_INVALID_UTF8` if `name` is not UTF-8. `*schema_json` is set only
/// on success.
///
/// # Safety
/// `name` must point to `name_len` readable bytes (or be NULL with length 0); `schema_json` and
/// `error` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_editor_schema(
    profile: hl_profile,
    name: *const c_char,
    name_len: usize,
    schema_json: *mut *mut hl_text,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(schema_json)?;
        // SAFETY: the caller passes `name_len` readable bytes (this function's contract).
        let name = unsafe { str_arg(name, name_len) }?;
        let profile = engine_profile(profile)?;
        let schema = match name {
            "" => hunkloom_tools::schema(profile),
            name => hunkloom_tools::schema_named(profile, name),
        };
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_text::boxed(schema.to_string()))) };
        Ok(())
    })
}

/// Frees a text editor. NULL is allowed and does nothing. Files on disk are not touched; the
/// undo history and read tracking go with it (once the last of its streams is freed too).
/// Texts and errors it produced stay valid.
///
/// # Safety
/// `editor` must be NULL or an editor from `hl_text_editor_new` not yet freed, and not in use by
/// another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_editor_free(editor: *mut hl_text_editor) {
    guard_void(|| {
        if !editor.is_null() {
            // SAFETY: a non-NULL `editor` was made by `Box::into_raw` in `hl_text_editor_new`
            // and is freed once (the caller's contract).
            drop(unsafe { Box::from_raw(editor) });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_options_are_the_defaults() {
        for (value, profile) in [
            (HL_PROFILE_DEFAULT, Profile::Native),
            (HL_PROFILE_ANTHROPIC, Profile::Anthropic),
            (HL_PROFILE_OPENHANDS, Profile::OpenHands),
            (HL_PROFILE_NATIVE, Profile::Native),
        ] {
            let profile_got = engine_profile(value).ok();
            assert_eq!(profile_got, Some(profile));
            let got = hl_text_editor_options::default().to_engine(profile).ok();
            assert_eq!(got, Some(EditorOptions::new().profile(profile)));
        }
        let opts = hl_text_editor_options {
            require_read: HL_REQUIRE_READ_NO,
            max_file_size: 10,
            durability: crate::HL_DURABILITY_NONE,
        };
        assert_eq!(
            opts.to_engine(Profile::Native).ok(),
            Some(
                EditorOptions::new()
                    .require_read(false)
                    .max_file_size(10)
                    .durability(hunkloom_tools::Durability::None)
            )
        );
        for bad in [
            hl_text_editor_options {
                require_read: 3,
                ..Default::default()
            },
            hl_text_editor_options {
                durability: 2,
                ..Default::default()
            },
        ] {
            assert!(matches!(
                bad.to_engine(Profile::Native),
                Err(Failure::Status(hl_status::OutOfRange))
            ));
        }
        match engine_profile(4) {
            Err(Failure::Engine(e)) => assert_eq!(e.code(), "invalid_profile"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_result_is_one_json_object() {
        let mut result = ToolResult::default();
        result.output = "ok".to_owned();
        result.path = Some("/r/a".to_owned());
        result.new_content = Some("x\n".to_owned());
        let value: Value = serde_json::from_str(&to_json_text(&result)).expect("JSON");
        assert_eq!(
            value,
            json!({"output": "ok", "is_error": false, "code": "", "path": "/r/a",
                   "old_content": null, "new_content": "x\n"})
        );
    }
}

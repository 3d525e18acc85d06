//! The `TextEditor` class: a model's whole text-editor tool call (`view`, `create`,
//! `str_replace`, `insert`, `undo_edit`) answered as Anthropic's or OpenHands' editor answers
//! it, over the file layer (`hunkloom-tools`).
//!
//! The class keeps a `hunkloom_tools::TextEditor` in a [`Shared`], the lifecycle every binding
//! shares: a panic inside retires the editor. Calls are synchronous (small file reads and
//! writes on the calling thread).

use std::sync::Arc;

use hunkloom_handle::Shared;
use hunkloom_tools::{EditorOptions, Profile};
use napi::bindgen_prelude::Object;
use napi::{Env, JsValue, Unknown, ValueType};
use napi_derive::napi;

use crate::args;
use crate::edit_stream::EditStream;
use crate::errors::{self, Failure};
use crate::types::ToolResult;

/// Options of a `TextEditor`.
#[napi(object)]
pub struct TextEditorOptions {
    /// Whose tool to answer as: `"native"` (the default: hunkloom's edit semantics with
    /// Anthropic's message shapes), `"anthropic"` (Anthropic's computer-use demo editor,
    /// `str_replace_editor`) or `"openhands"` (OpenHands ACI's `OHEditor`). An unknown name
    /// throws an `Error` with `code === "invalid_profile"`.
    #[napi(ts_type = "'anthropic' | 'openhands' | 'native'")]
    pub profile: Option<String>,
    /// Whether a file must be viewed before it is edited (default: true for `native`, false
    /// for the reference profiles, which track nothing between calls).
    pub require_read: Option<bool>,
    /// The largest file the editor reads, in bytes.
    pub max_file_size: Option<f64>,
    /// Globs (gitignore syntax, relative to the root) of paths that can be viewed but never
    /// written, besides `.git` (and the other version-control directories) and the ignore file.
    pub protect: Option<Vec<String>>,
    /// Whether a write waits for the disk: `"full"` (the default: every file and directory
    /// flushed with fsync before the call returns) or `"none"` (nothing flushed: scratch trees,
    /// tests, benchmarks; a power cut may lose the last writes, never tear a file). Another name
    /// throws an `Error` with `code === "invalid_input"`.
    #[napi(ts_type = "'full' | 'none'")]
    pub durability: Option<String>,
}

/// Answers a model's text-editor tool calls on the files under one root directory, with the
/// exact results the reference tools return (`profile` `"anthropic"` or `"openhands"`, checked
/// against thousands of recorded calls) or hunkloom's own edit semantics (`"native"`), and
/// hunkloom's safety underneath: paths stay inside the root, writes are atomic, line endings,
/// BOMs, encodings and tabs are kept, `undo_edit` takes an edit back.
///
/// A model's mistake (a missing file, an `old_str` not found, a bad `view_range`, …) is a
/// `ToolResult` with `isError` set, never an exception: send `output` back as the tool result.
/// Only a host's misuse throws: an input that is not an object (`code === "invalid_input"`).
///
/// @example
/// ```ts
/// import { TextEditor } from "hunkloom"
/// const editor = new TextEditor(projectDir, { profile: "anthropic" })
/// const result = editor.call(toolUse.input) // { output, isError, code, … }
/// ```
#[napi]
pub struct TextEditor {
    /// Shared with the streams it makes.
    inner: Arc<Shared<hunkloom_tools::TextEditor>>,
}

#[napi]
impl TextEditor {
    /// An editor for the existing directory `root`.
    ///
    /// Throws `io_error` if `root` is not an accessible directory, `invalid_profile` for an
    /// unknown profile, a `TypeError` or a `RangeError` for a bad option.
    ///
    /// @param root The directory whose files the model edits.
    /// @param options `profile`, `requireRead`, `maxFileSize`.
    #[napi(
        catch_unwind,
        constructor,
        ts_args_type = "root: string, options?: TextEditorOptions"
    )]
    pub fn new(env: &Env, root: Unknown<'_>, options: Unknown<'_>) -> napi::Result<Self> {
        errors::run(env, || {
            let root = args::string(&root, "root")?;
            let options = args::Options::read(&options, "options", args::keys::TEXT_EDITOR)?;
            let mut settings = EditorOptions::new();
            if let Some(name) = options.string("profile")? {
                settings = settings.profile(name.parse::<Profile>()?);
            }
            if let Some(yes) = options.boolean("requireRead")? {
                settings = settings.require_read(yes);
            }
            if let Some(bytes) = options.integer("maxFileSize")? {
                settings = settings.max_file_size(bytes);
            }
            if let Some(globs) = options.string_array("protect")? {
                settings = settings.protect(globs);
            }
            if let Some(name) = options.string("durability")? {
                settings = settings.durability(name.parse()?);
            }
            let editor = hunkloom_tools::TextEditor::new(root, settings)?;
            Ok(TextEditor {
                inner: Arc::new(Shared::new("text editor", editor)),
            })
        })
    }

    /// Answers one tool call: `input` is the call's arguments object, as the model API gives
    /// it (`{ command: "view", path: "/repo/app.py" }`).
    #[napi(catch_unwind, ts_args_type = "input: Record<string, unknown>")]
    pub fn call(&self, env: &Env, input: Unknown<'_>) -> napi::Result<ToolResult> {
        errors::run(env, || {
            let input = json_input(env, &input)?;
            let result = self.inner.with(|editor| editor.call(&input))??;
            Ok(ToolResult::from(result))
        })
    }

    /// A stream for one tool call whose argument JSON arrives in pieces (see `EditStream`).
    #[napi(catch_unwind)]
    pub fn stream(&self, env: &Env) -> napi::Result<EditStream> {
        errors::run(env, || {
            let stream = self.inner.with(hunkloom_tools::TextEditor::stream)?;
            Ok(EditStream::new(self.inner.clone(), stream))
        })
    }

    /// The profile this editor answers as.
    #[napi(
        catch_unwind,
        getter,
        ts_return_type = "'anthropic' | 'openhands' | 'native'"
    )]
    pub fn profile(&self, env: &Env) -> napi::Result<String> {
        errors::run(env, || {
            Ok(self.inner.with(|e| e.profile().as_str().to_owned())?)
        })
    }

    /// The root directory: absolute, symlinks resolved.
    #[napi(catch_unwind, getter)]
    pub fn root(&self, env: &Env) -> napi::Result<String> {
        errors::run(env, || {
            Ok(self
                .inner
                .with(|e| e.root().to_string_lossy().into_owned())?)
        })
    }

    /// The tool's definition for a model API (`{ name, description, input_schema }`) in
    /// `profile`'s words (default `"native"`); `name` overrides the tool's name (for
    /// `"str_replace_based_edit_tool"`, `undo_edit` is left out, as that tool has none).
    #[napi(
        catch_unwind,
        ts_args_type = "profile?: 'anthropic' | 'openhands' | 'native', name?: string",
        ts_return_type = "Record<string, unknown>"
    )]
    pub fn schema<'e>(
        env: &'e Env,
        profile: Unknown<'_>,
        name: Unknown<'_>,
    ) -> napi::Result<Unknown<'e>> {
        let schema = errors::run(env, || {
            let profile = match args::optional_string(&profile, "profile")? {
                None => Profile::Native,
                Some(p) => p.parse::<Profile>()?,
            };
            Ok(match args::optional_string(&name, "name")? {
                None => hunkloom_tools::schema(profile),
                Some(n) => hunkloom_tools::schema_named(profile, &n),
            })
        })?;
        env.to_js_value(&schema)
    }
}

/// The tool call's input as JSON. Anything but a plain object is the host's misuse.
pub(crate) fn json_input(env: &Env, input: &Unknown<'_>) -> Result<serde_json::Value, Failure> {
    let is_object =
        input.get_type().ok() == Some(ValueType::Object) && !input.is_array().unwrap_or(false);
    if !is_object {
        let got = match input.get_type() {
            Ok(ValueType::Object) => "an array",
            Ok(t) => args::type_name(t),
            Err(_) => "unreadable",
        };
        return Err(Failure::Core(hunkloom::Error::with_message(
            hunkloom::ErrorKind::InvalidInput,
            format!("a text-editor tool call's input must be an object, not {got}"),
        )));
    }
    // SAFETY: checked to be an object just above.
    let object = unsafe { input.cast::<Object<'_>>() }
        .map_err(|e| Failure::ArgType(format!("cannot read \"input\": {e}")))?;
    env.from_js_value(object).map_err(|e| {
        Failure::Core(hunkloom::Error::with_message(
            hunkloom::ErrorKind::InvalidInput,
            format!("a text-editor tool call's input must be JSON data: {e}"),
        ))
    })
}

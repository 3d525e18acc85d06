//! The `Toolset` class: the edit tools one model family is trained on
//! (`hunkloom_tools::Toolset`), answered as its reference answers them, over the file layer.
//! Like `TextEditor`, it lives in a [`Shared`]: a panic inside retires it.

use std::sync::Arc;

use hunkloom_handle::Shared;
use hunkloom_tools::{ToolsetOptions as CoreOptions, ToolsetProfile};
use napi::{Env, Unknown};
use napi_derive::napi;

use crate::args;
use crate::edit_stream::EditStream;
use crate::errors;
use crate::text_editor::json_input;
use crate::types::ToolResult;

/// Options of a `Toolset`.
#[napi(object)]
pub struct ToolsetOptions {
    /// Whose tools to answer as: `"native"` (the default), `"anthropic"`, `"openhands"` (the
    /// text editor), `"openai"` (the Responses-API `apply_patch` tool as the OpenAI Agents SDK
    /// answers it) or `"codex"` (Codex CLI's freeform `apply_patch` and its `exec_command`
    /// heredocs). An unknown name throws an `Error` with `code === "invalid_profile"`.
    #[napi(
        ts_type = "'anthropic' | 'openhands' | 'native' | 'openai' | 'codex' | 'gemini' | 'claude-code' | 'copilot'"
    )]
    pub profile: Option<String>,
    /// Whether a file must be read (viewed) before it is edited (default: the profile's).
    pub require_read: Option<bool>,
    /// The largest file read, in bytes.
    pub max_file_size: Option<f64>,
    /// Globs (gitignore syntax, relative to the root) of paths that can be read but never
    /// written, besides `.git` (and the other version-control directories) and the ignore file.
    pub protect: Option<Vec<String>>,
    /// The text editor's `max_characters` (Anthropic's text_editor_20250728): the most
    /// characters of a file a `view` shows (default 16,000).
    pub max_characters: Option<f64>,
    /// Only the tools that never write (`native`: `read_file`); a call of another is refused
    /// with `code === "read_only"` (default false).
    pub read_only: Option<bool>,
    /// `"reference"` (the default) or `"native"`: hunkloom's matching and refusals behind the
    /// profile's tool names (the native text editor for `anthropic` and `openhands`, the native
    /// reading of patches for `openai`, `codex` and Copilot's `apply_patch`, the native text
    /// editor's replacement for the string-replacing tools of `gemini`, `copilot` and
    /// `claude-code`).
    #[napi(ts_type = "'reference' | 'native'")]
    pub semantics: Option<String>,
    /// Whether a write waits for the disk: `"full"` (the default: every file and directory
    /// flushed with fsync before the call returns) or `"none"` (nothing flushed: scratch trees,
    /// tests, benchmarks; a power cut may lose the last writes, never tear a file). Another name
    /// throws an `Error` with `code === "invalid_input"`.
    #[napi(ts_type = "'full' | 'none'")]
    pub durability: Option<String>,
}

/// One tool of a toolset, as a model API registers it.
#[napi(object, object_from_js = false)]
pub struct ToolDefinition {
    /// The tool's name, as the model calls it.
    pub name: String,
    /// A short human-readable title, where the profile has one.
    pub title: Option<String>,
    /// What the model is told the tool does.
    pub description: String,
    /// The JSON Schema of the tool's input (`input_schema`, as model APIs and
    /// `TextEditor.schema()` spell it).
    #[napi(js_name = "input_schema", ts_type = "Record<string, unknown>")]
    pub input_schema: serde_json::Value,
    /// Whether the tool never writes.
    pub read_only: bool,
}

/// The edit tools one model family is trained on, over the files under one root directory:
/// `tools()` gives their definitions for the model API, `call(name, input)` answers each tool
/// call with the reference's text, error flag and files (`"openai"`: checked against the
/// Agents SDK's recorded answers). Paths stay inside the root, protected paths are never
/// written, writes are atomic.
///
/// @example
/// ```ts
/// import { Toolset } from "hunkloom"
/// const tools = new Toolset(projectDir, { profile: "openai" })
/// const result = tools.call(call.name, call.input) // { output, isError, code, … }
/// ```
#[napi]
pub struct Toolset {
    /// Shared with the streams it makes.
    inner: Arc<Shared<hunkloom_tools::Toolset>>,
}

#[napi]
impl Toolset {
    /// A toolset for the existing directory `root`.
    ///
    /// Throws `io_error` if `root` is not an accessible directory, `invalid_profile` for an
    /// unknown profile, a `TypeError` or a `RangeError` for a bad option.
    ///
    /// @param root The directory whose files the model edits.
    /// @param options `profile`, `requireRead`, `maxFileSize`, `protect`, `maxCharacters`,
    /// `readOnly`, `semantics`.
    #[napi(
        catch_unwind,
        constructor,
        ts_args_type = "root: string, options?: ToolsetOptions"
    )]
    pub fn new(env: &Env, root: Unknown<'_>, options: Unknown<'_>) -> napi::Result<Self> {
        errors::run(env, || {
            let root = args::string(&root, "root")?;
            let options = args::Options::read(&options, "options", args::keys::TOOLSET)?;
            let mut settings = CoreOptions::new();
            if let Some(name) = options.string("profile")? {
                settings = settings.profile(name.parse::<ToolsetProfile>()?);
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
            if let Some(n) = options.integer("maxCharacters")? {
                settings = settings.max_characters(usize::try_from(n).unwrap_or(usize::MAX));
            }
            if let Some(yes) = options.boolean("readOnly")? {
                settings = settings.read_only(yes);
            }
            if let Some(name) = options.string("semantics")? {
                settings = settings.semantics(name.parse()?);
            }
            if let Some(name) = options.string("durability")? {
                settings = settings.durability(name.parse()?);
            }
            let toolset = hunkloom_tools::Toolset::new(root, settings)?;
            Ok(Toolset {
                inner: Arc::new(Shared::new("toolset", toolset)),
            })
        })
    }

    /// A stream for one call of the tool `name` whose argument JSON arrives in pieces (see
    /// `EditStream`): the text-editor tools have a `preview`, as have the native set's
    /// `apply_diff` (its `diff` applied by the native streaming applier as it arrives, once
    /// `path` is complete), `apply_lazy` (once complete) and `apply_patch` (its `*** Begin
    /// Patch` envelope file by file, `path` naming the file shown), the codex set's
    /// `apply_patch` (the same way), and the openai set's
    /// `apply_patch` of one operation (its V4A `diff`, each section once placed); the others
    /// run at `finish`, which
    /// returns what `call(name, JSON.parse(allPieces))` returns.
    #[napi(catch_unwind, ts_args_type = "name: string")]
    pub fn stream(&self, env: &Env, name: Unknown<'_>) -> napi::Result<EditStream> {
        errors::run(env, || {
            let name = args::string(&name, "name")?;
            let stream = self.inner.with(|t| t.stream(&name))?;
            Ok(EditStream::new(self.inner.clone(), stream))
        })
    }

    /// The profile's tool definitions, as its reference declares them.
    #[napi(catch_unwind)]
    pub fn tools(&self, env: &Env) -> napi::Result<Vec<ToolDefinition>> {
        errors::run(env, || {
            Ok(self.inner.with(|t| {
                t.tools()
                    .into_iter()
                    .map(|tool| ToolDefinition {
                        name: tool.name,
                        title: tool.title,
                        description: tool.description,
                        input_schema: tool.input_schema,
                        read_only: tool.read_only,
                    })
                    .collect()
            })?)
        })
    }

    /// Answers one call of the tool `name` with its arguments object `input`. A model's mistake
    /// (an unknown tool name too, `code === "unknown_tool"`) is a result with `isError` set.
    #[napi(
        catch_unwind,
        ts_args_type = "name: string, input: Record<string, unknown>"
    )]
    pub fn call(
        &self,
        env: &Env,
        name: Unknown<'_>,
        input: Unknown<'_>,
    ) -> napi::Result<ToolResult> {
        errors::run(env, || {
            let name = args::string(&name, "name")?;
            let input = json_input(env, &input)?;
            let result = self.inner.with(|t| t.call(&name, &input))??;
            Ok(ToolResult::from(result))
        })
    }

    /// The profile this toolset answers as.
    #[napi(
        catch_unwind,
        getter,
        ts_return_type = "'anthropic' | 'openhands' | 'native' | 'openai' | 'codex' | 'gemini' | 'claude-code' | 'copilot'"
    )]
    pub fn profile(&self, env: &Env) -> napi::Result<String> {
        errors::run(env, || {
            Ok(self.inner.with(|t| t.profile().as_str().to_owned())?)
        })
    }

    /// The root directory: absolute, symlinks resolved.
    #[napi(catch_unwind, getter)]
    pub fn root(&self, env: &Env) -> napi::Result<String> {
        errors::run(env, || {
            Ok(self
                .inner
                .with(|t| t.root().to_string_lossy().into_owned())?)
        })
    }
}

//! The `EditStream` class: one tool call applied while its argument JSON streams in, made by
//! `TextEditor.stream()` or `Toolset.stream(name)`.
//!
//! The core stream lives in a [`Handle`] (a call after `finish` throws `already_finished`, a
//! panic retires it); it reaches the editor or toolset that made it through that object's
//! shared [`Shared`] handle.

use std::sync::Arc;

use hunkloom_handle::{Handle, Shared};
use hunkloom_tools::ToolHost;
use napi::{Env, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors;
use crate::types::{ToolResult, Update};

/// One tool call applied while its arguments stream in (a text-editor call, or a toolset
/// tool's: the text-editor tools, the native `apply_diff`, `apply_lazy` and `apply_patch`
/// (file by file), the codex `apply_patch` (file by file) and the openai `apply_patch` of one
/// operation have a preview, the others run at `finish`): `push` each piece of the argument JSON as the model API
/// delivers it (Anthropic's `input_json_delta.partial_json`, OpenAI's
/// `response.function_call_arguments.delta`), split anywhere, escapes included; read
/// `preview`; then `finish` runs the call.
///
/// Each push costs the length of its piece, except the one that places the edit (a read of the
/// file) and the one that completes the arguments (the call planned as `call` runs it).
///
/// @example
/// ```ts
/// const stream = editor.stream()
/// for await (const event of events) {
///   if (event.delta?.type === "input_json_delta") view.apply(stream.push(event.delta.partial_json))
/// }
/// const result = stream.finish() // what editor.call(JSON.parse(allPieces)) returns
/// ```
#[napi]
pub struct EditStream {
    /// The editor or toolset that made the stream, which answers its call.
    host: Arc<Shared<dyn ToolHost>>,
    stream: Handle<hunkloom_tools::EditStream>,
}

impl EditStream {
    /// A stream of a call answered by `host`, `stream` made by it.
    pub(crate) fn new(host: Arc<Shared<dyn ToolHost>>, stream: hunkloom_tools::EditStream) -> Self {
        EditStream {
            host,
            stream: Handle::new("edit stream", stream),
        }
    }
}

#[napi]
impl EditStream {
    /// Takes the next piece of the call's argument JSON and returns how the preview changed
    /// (positions in UTF-16 units; applying every update in order to `""` gives the preview).
    #[napi(catch_unwind, ts_args_type = "piece: string")]
    pub fn push(&mut self, env: &Env, piece: Unknown<'_>) -> napi::Result<Update> {
        errors::run(env, || {
            let piece = args::string(&piece, "piece")?;
            Ok(self
                .stream
                .with(|s| self.host.with(|host| Update::from(s.push(host, &piece))))??)
        })
    }

    /// The target file's text with the edit applied as far as it has streamed, and exactly
    /// what the call will leave once the arguments are complete; `null` before the edit is
    /// placed, for `view` and `undo_edit`, and for a call that will fail.
    #[napi(catch_unwind, getter)]
    pub fn preview(&mut self, env: &Env) -> napi::Result<Option<String>> {
        errors::run(env, || {
            Ok(self.stream.with(|s| s.preview().map(str::to_owned))?)
        })
    }

    /// The `command` argument (an `apply_patch` operation's `type`), once its value is
    /// complete (else `null`).
    #[napi(catch_unwind, getter)]
    pub fn command(&self, env: &Env) -> napi::Result<Option<String>> {
        errors::run(env, || {
            Ok(self.stream.with(|s| s.command().map(str::to_owned))?)
        })
    }

    /// The `path` argument (an `apply_patch` operation's `path`; for a `*** Begin Patch`
    /// envelope, the file the preview shows now), once its value is complete (else `null`).
    #[napi(catch_unwind, getter)]
    pub fn path(&self, env: &Env) -> napi::Result<Option<String>> {
        errors::run(env, || {
            Ok(self.stream.with(|s| s.path().map(str::to_owned))?)
        })
    }

    /// Runs the call: what `editor.call(JSON.parse(allPieces))` returns. Text that is not a
    /// complete JSON object gives an error result with `code === "invalid_arguments"`, never
    /// an exception.
    #[napi(catch_unwind)]
    pub fn finish(&mut self, env: &Env) -> napi::Result<ToolResult> {
        errors::run(env, || {
            let result = self
                .stream
                .finish(|s| self.host.with(|host| s.finish(host)))??;
            Ok(ToolResult::from(result))
        })
    }
}

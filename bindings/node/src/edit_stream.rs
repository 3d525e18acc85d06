//! The `EditStream` class: one text-editor call applied while its argument JSON streams in,
//! made by `TextEditor.stream()`.
//!
//! The core stream lives in a [`Handle`] (a call after `finish` throws `already_finished`, a
//! panic retires it); it reaches the editor that made it through the editor's shared
//! [`Shared`] handle.

use std::sync::Arc;

use hunkloom_handle::{Handle, Shared};
use napi::{Env, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors;
use crate::text_editor::ToolResult;
use crate::types::Update;

/// One text-editor tool call applied while its arguments stream in: `push` each piece of the
/// argument JSON as the model API delivers it (Anthropic's `input_json_delta.partial_json`,
/// OpenAI's `response.function_call_arguments.delta`), split anywhere, escapes included; read
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
    editor: Arc<Shared<hunkloom_tools::TextEditor>>,
    inner: Handle<hunkloom_tools::EditStream>,
}

impl EditStream {
    pub(crate) fn new(editor: Arc<Shared<hunkloom_tools::TextEditor>>) -> Self {
        EditStream {
            editor,
            inner: Handle::new("edit stream", hunkloom_tools::EditStream::default()),
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
            let editor = &self.editor;
            let update = self
                .inner
                .with(|stream| editor.with(|ed| Update::from(stream.push(ed, &piece))))??;
            Ok(update)
        })
    }

    /// The target file's text with the edit applied as far as it has streamed, and exactly
    /// what the call will leave once the arguments are complete; `null` before the edit is
    /// placed, for `view` and `undo_edit`, and for a call that will fail.
    #[napi(catch_unwind, getter)]
    pub fn preview(&mut self, env: &Env) -> napi::Result<Option<String>> {
        errors::run(env, || {
            Ok(self
                .inner
                .with(|stream| stream.preview().map(str::to_owned))?)
        })
    }

    /// The command, once its value is complete (else `null`).
    #[napi(catch_unwind, getter)]
    pub fn command(&self, env: &Env) -> napi::Result<Option<String>> {
        errors::run(env, || {
            Ok(self
                .inner
                .with(|stream| stream.command().map(str::to_owned))?)
        })
    }

    /// The path, once its value is complete (else `null`).
    #[napi(catch_unwind, getter)]
    pub fn path(&self, env: &Env) -> napi::Result<Option<String>> {
        errors::run(env, || {
            Ok(self.inner.with(|stream| stream.path().map(str::to_owned))?)
        })
    }

    /// Runs the call: what `editor.call(JSON.parse(allPieces))` returns. Text that is not a
    /// complete JSON object gives an error result with `code === "invalid_arguments"`, never
    /// an exception.
    #[napi(catch_unwind)]
    pub fn finish(&mut self, env: &Env) -> napi::Result<ToolResult> {
        errors::run(env, || {
            let editor = &self.editor;
            let result = self
                .inner
                .finish(|stream| editor.with(|ed| stream.finish(ed)))??;
            Ok(ToolResult::from(result))
        })
    }
}

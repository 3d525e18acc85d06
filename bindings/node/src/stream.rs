//! The hidden functions behind the JavaScript drop-in (`node/lib/construct.js`): an original
//! text transcoded once and shared (`__originalNew`), and streamed diffs over it
//! (`__streamNew`, `__streamPush`, `__streamPushAsync`).
//!
//! Cline calls `constructNewFileContent` on every growing prefix of a diff with the same
//! original string. The JavaScript layer recognises that string (`===` on the same string
//! object is a pointer check) and that the diff extends the previous one, and pushes only the
//! new text here; each push answers with what changed in the result as pieces (see
//! [`pieces`](mod@crate::pieces)), so no call copies the file in or out. Not part of the public
//! API: the names start with `__` and `index.d.ts` leaves them out.

use std::sync::Arc;

use hunkloom::cline::Version;
use hunkloom::text::OriginalText;
use hunkloom::{ApplierOptions, Dialect, PreviewForm, StreamingApplier};
use hunkloom_handle::Handle;
use napi::bindgen_prelude::{AsyncTask, External};
use napi::{Env, Task, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};
use crate::pieces::{self, Extra, Reply, Wire};

/// An original text in native memory (an `External` the JavaScript layer keeps; its size is
/// reported to V8 so dropped originals are collected promptly).
pub type Original = Arc<OriginalText>;

/// One streamed diff (an `External` the JavaScript layer keeps).
pub type Stream = Arc<Handle<StreamingApplier>>;

/// Transcodes an original into native memory, once for every call and stream over it.
#[napi(js_name = "__originalNew", catch_unwind, skip_typescript)]
pub fn original_new(env: &Env, text: Unknown<'_>) -> napi::Result<External<Original>> {
    errors::run(env, || {
        let text = args::string(&text, "originalContent")?;
        let size = text.len();
        Ok(External::new_with_size_hint(
            Arc::new(OriginalText::new(text)),
            size,
        ))
    })
}

/// A stream over `original` in Cline's `version` (`"v1"` or `"v2"`).
#[napi(js_name = "__streamNew", catch_unwind, skip_typescript)]
pub fn stream_new(
    env: &Env,
    original: &External<Original>,
    version: String,
) -> napi::Result<External<Stream>> {
    errors::run(env, || {
        let dialect = match version.parse::<Version>()? {
            Version::V1 => Dialect::ClineV1,
            Version::V2 => Dialect::ClineV2,
        };
        let options = ApplierOptions::new()
            .dialect(dialect)
            .preview(PreviewForm::Pieces);
        let applier = StreamingApplier::over(Arc::clone(original), options);
        Ok(External::new(Arc::new(Handle::new("stream", applier))))
    })
}

/// Pushes the diff's new text into `stream` and answers the call (numbers: where the result
/// stops matching the previous call's, UTF-16, 0 for a final call; Cline's `matchIndices`,
/// counted; the result's pieces from there on; extra: the error of a partial call). A final
/// call finishes the stream and throws Cline's rejection.
#[napi(js_name = "__streamPush", catch_unwind, skip_typescript)]
pub fn stream_push(
    env: &Env,
    stream: &External<Stream>,
    text: String,
    is_final: bool,
    scratch: Unknown<'_>,
) -> napi::Result<Reply> {
    let (wire, extra) = call(stream, &text, is_final).map_err(|f| f.into_napi(env))?;
    Ok(wire.reply(Some(pieces::scratch(env, &scratch)?), extra))
}

/// Whether pushing `text` into `stream` may search its original (see
/// `StreamingApplier::push_may_search`): the JavaScript layer sends only those pushes to the
/// thread pool.
#[napi(js_name = "__streamMaySearch", catch_unwind, skip_typescript)]
pub fn stream_may_search(env: &Env, stream: &External<Stream>, text: String) -> napi::Result<bool> {
    stream
        .with(|applier| applier.push_may_search(&text))
        .map_err(|e| Failure::Core(e).into_napi(env))
}

/// `__streamPush` on libuv's thread pool (for heavy matching): a Promise of the same answer,
/// its numbers always in the reply.
#[napi(js_name = "__streamPushAsync", catch_unwind, skip_typescript)]
pub fn stream_push_async(
    stream: &External<Stream>,
    text: String,
    is_final: bool,
) -> AsyncTask<PushTask> {
    AsyncTask::new(PushTask {
        stream: Arc::clone(stream),
        text,
        is_final,
    })
}

/// A push run on libuv's thread pool.
pub struct PushTask {
    stream: Stream,
    text: String,
    is_final: bool,
}

impl Task for PushTask {
    type Output = Result<(Wire, Extra), Failure>;
    type JsValue = Reply;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(call(&self.stream, &self.text, self.is_final))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Reply> {
        let (wire, extra) = output.map_err(|f| f.into_napi(&env))?;
        Ok(wire.reply(None, extra))
    }
}

/// One call on a stream (the Handle catches panics and retires the stream after one).
fn call(
    stream: &Handle<StreamingApplier>,
    text: &str,
    is_final: bool,
) -> Result<(Wire, Extra), Failure> {
    if is_final {
        let outcome = stream.finish(|mut applier| {
            injected_panic();
            applier.push_pieces(text);
            applier.finish_pieces()
        })??;
        let mut wire = Wire::default();
        wire.number(0);
        wire.counted(outcome.match_indices.iter().map(|p| p.utf16));
        wire.pieces(outcome.content.pieces());
        return Ok((wire, Extra::Nothing));
    }
    Ok(stream.with(|applier| {
        injected_panic();
        let (keep, pieces) = {
            let update = applier.push_pieces(text);
            let mut pieces = Wire::default();
            pieces.pieces(update.inserted);
            (update.start.utf16, pieces)
        };
        let mut wire = Wire::default();
        wire.number(keep);
        wire.counted(applier.match_indices().iter().map(|p| p.utf16));
        wire.append(pieces);
        let extra = applier
            .error()
            .cloned()
            .map_or(Extra::Nothing, Extra::Error);
        (wire, extra)
    })?)
}

/// The test hook of `__testPanicNextConstruct` (feature `fault-injection`): a panic inside the
/// stream's handle, which retires the stream.
fn injected_panic() {
    #[cfg(feature = "fault-injection")]
    crate::test_hooks::panic_if_armed(&crate::test_hooks::PANIC_IN_NEXT_CONSTRUCT);
}

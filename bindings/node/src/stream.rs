//! The hidden functions behind the JavaScript drop-in (`node/lib/construct.js`): an original
//! text transcoded once and shared (`__originalNew`), and streamed diffs over it
//! (`__streamNew`, `__streamPush`, `__streamPushAsync`).
//!
//! Cline calls `constructNewFileContent` on every growing prefix of a diff with the same
//! original string. The JavaScript layer recognises that string (`===` on the same string
//! object is a pointer check) and that the diff extends the previous one, and pushes only the
//! new text here; each push answers with what changed in the result as pieces (see
//! [`pieces`](crate::pieces)), so no call copies the file in or out. Not part of the public
//! API: the names start with `__` and `index.d.ts` leaves them out.

use std::sync::Arc;

use hunkloom::cline::Version;
use hunkloom::text::OriginalText;
use hunkloom::{ApplierOptions, Dialect, PreviewForm, StreamingApplier};
use hunkloom_handle::Handle;
use napi::bindgen_prelude::{AsyncTask, External, Null, ToNapiValue, TypeName};
use napi::{Env, Task, Unknown, ValueType, sys};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};
use crate::pieces::Wire;

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

/// What one call of a stream answers: `numbers` holds where the result stops matching the
/// previous call's (UTF-16; 0 for a final call), Cline's `matchIndices` (counted) and the
/// result's pieces from there on; then the error of a partial call, or `null`.
pub struct Delta {
    wire: Wire,
    error: Option<hunkloom::Error>,
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

/// Pushes the diff's new text into `stream` and answers the call (see [`Delta`]). A final call
/// finishes the stream and throws Cline's rejection.
#[napi(js_name = "__streamPush", catch_unwind, skip_typescript)]
pub fn stream_push(
    env: &Env,
    stream: &External<Stream>,
    text: String,
    is_final: bool,
) -> napi::Result<Delta> {
    call(stream, &text, is_final).map_err(|f| f.into_napi(env))
}

/// `__streamPush` on libuv's thread pool (for heavy matching): a Promise of the same array.
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
    stream: Arc<Handle<StreamingApplier>>,
    text: String,
    is_final: bool,
}

impl Task for PushTask {
    type Output = Result<Delta, Failure>;
    type JsValue = Delta;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(call(&self.stream, &self.text, self.is_final))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Delta> {
        output.map_err(|f| f.into_napi(&env))
    }
}

/// One call on a stream (the Handle catches panics and retires the stream after one).
fn call(stream: &Handle<StreamingApplier>, text: &str, is_final: bool) -> Result<Delta, Failure> {
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
        return Ok(Delta { wire, error: None });
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
        Delta {
            wire,
            error: applier.error().cloned(),
        }
    })?)
}

/// The test hook of `__testPanicNextConstruct` (feature `fault-injection`): a panic inside the
/// stream's handle, which retires the stream.
fn injected_panic() {
    #[cfg(feature = "fault-injection")]
    crate::test_hooks::panic_if_armed(&crate::test_hooks::PANIC_IN_NEXT_CONSTRUCT);
}

impl TypeName for Delta {
    fn type_name() -> &'static str {
        "Array"
    }

    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ToNapiValue for Delta {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        let env = Env::from_raw(env);
        let Delta { wire, error } = val;
        let array = wire.into_array(&env, |array| match &error {
            Some(e) => array.set(2, errors::js_error(&env, e)),
            None => array.set(2, Null),
        })?;
        // SAFETY: the array belongs to `env`, the caller's environment.
        unsafe { ToNapiValue::to_napi_value(env.raw(), array) }
    }
}

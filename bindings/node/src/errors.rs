//! The one place where failures become JavaScript exceptions.
//!
//! A core [`hunkloom::Error`] becomes an `Error` whose `message` is the core's exact message (in
//! the Cline dialects, Cline's exact text) and whose `code` is the core's stable snake_case code,
//! e.g. `search_not_found`. A wrong argument type becomes a `TypeError` with
//! `code === "ERR_INVALID_ARG_TYPE"`, and a number out of range a `RangeError` with
//! `code === "ERR_OUT_OF_RANGE"`: the codes Node's own functions use.
//!
//! A Rust panic (a bug in hunkloom) must never unwind into the `extern "C"` frames of napi,
//! where it would abort the Node process. Every export is `#[napi(catch_unwind)]`, and every
//! body runs through [`run`] (or [`catch`]), or through a [`Handle`](hunkloom_handle::Handle),
//! which turn a panic into the core's `internal_error` (the code every binding uses for it).
//! The attribute is the backstop for napi's own argument and return-value conversions, where
//! a panic surfaces with napi's generic code instead.
//!
//! Both are built as JavaScript objects and handed to napi as the value to throw or to reject
//! with: napi rethrows a retained error object unchanged, on the synchronous path and as a
//! Promise rejection alike (returning an error after `env.throw_*` would surface as an uncaught
//! exception from an async task instead of a rejection).

use napi::bindgen_prelude::{JsObjectValue, Object};
use napi::{Env, JsError, JsTypeError, Unknown};
use napi_derive::napi;

/// The code of every `TypeError` this package throws for an argument of the wrong type.
pub const INVALID_ARG_TYPE: &str = "ERR_INVALID_ARG_TYPE";

/// A failure on its way to JavaScript. Owned and `Send`, so an async task can carry it from the
/// thread pool back to the main thread.
#[derive(Clone, Debug)]
pub enum Failure {
    /// The engine rejected the input.
    Core(hunkloom::Error),
    /// An argument had the wrong JavaScript type; the message says which and what it was.
    ArgType(String),
    /// A number argument was out of range (a `RangeError`); the message says which and what it
    /// was.
    OutOfRange(String),
}

impl From<hunkloom::Error> for Failure {
    fn from(e: hunkloom::Error) -> Self {
        Failure::Core(e)
    }
}

impl Failure {
    /// The JavaScript exception for this failure, as a napi error that throws (or rejects with)
    /// exactly that object.
    pub fn into_napi(self, env: &Env) -> napi::Error {
        let value = match self {
            Failure::Core(e) => js_error(env, &e),
            Failure::ArgType(message) => {
                let error = napi::Error::new(INVALID_ARG_TYPE.to_owned(), message);
                JsTypeError::from(error).into_unknown(*env)
            }
            Failure::OutOfRange(message) => return range_error(env, message),
        };
        napi::Error::from(value)
    }
}

/// A core error as a JavaScript `Error` object: the core's message, and its code as `code`; an
/// ambiguity (`ambiguous_match`, `multiple_matches`) also carries every place the text matched
/// as `matches` ([`ErrorMatch`]). What every API throws, what `StreamingApplier.error` returns,
/// and a failed block's `error`.
pub fn js_error<'env>(env: &Env, e: &hunkloom::Error) -> Unknown<'env> {
    let error = napi::Error::new(e.code().to_owned(), e.message().to_owned());
    // Memory that could not be had is a `RangeError`, as V8's own allocation failures are.
    let value = if e.kind().family() == hunkloom::ErrorFamily::OutOfMemory {
        napi::JsRangeError::from(error).into_unknown(*env)
    } else {
        JsError::from(error).into_unknown(*env)
    };
    if let Some(matches) = e.matches() {
        let matches: Vec<ErrorMatch> = matches.iter().map(ErrorMatch::from).collect();
        // SAFETY: a JavaScript `Error` is an object.
        if let Ok(mut object) = unsafe { value.cast::<Object<'_>>() } {
            // Best effort: the error stays an error without the property.
            let _ = object.set_named_property("matches", matches);
        }
    }
    value
}

/// One place an ambiguous text matched (the `matches` of an `ambiguous_match` or
/// `multiple_matches` error): JavaScript string indices into the text searched, and 1-based
/// lines.
#[napi(object, object_from_js = false)]
pub struct ErrorMatch {
    /// Where the match starts (UTF-16 index).
    pub start: u32,
    /// Where it ends, exclusive (UTF-16 index).
    pub end: u32,
    /// The line it starts on.
    pub start_line: u32,
    /// The last line it covers.
    pub last_line: u32,
}

impl From<&hunkloom::Match> for ErrorMatch {
    fn from(m: &hunkloom::Match) -> Self {
        let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        ErrorMatch {
            start: n(m.start.utf16),
            end: n(m.end.utf16),
            start_line: n(m.start.line),
            last_line: n(m.last_line),
        }
    }
}

/// Converts a core result for a synchronous binding function.
pub fn core<T>(env: &Env, result: hunkloom::Result<T>) -> napi::Result<T> {
    result.map_err(|e| Failure::Core(e).into_napi(env))
}

/// The code of every `RangeError` this package throws for a number out of range.
pub const OUT_OF_RANGE: &str = "ERR_OUT_OF_RANGE";

/// A `RangeError` with `code === "ERR_OUT_OF_RANGE"`.
pub fn range_error(env: &Env, message: String) -> napi::Error {
    let error = napi::Error::new(OUT_OF_RANGE.to_owned(), message);
    napi::Error::from(napi::JsRangeError::from(error).into_unknown(*env))
}

/// Runs `body`, turning a panic into the core's `internal_error`.
///
/// Sound to run after a panic because no state it interrupted stays reachable from
/// JavaScript: the bodies build their results from their arguments, the resume cache clears
/// itself when its lock was poisoned, and stateful objects keep their state in a
/// [`Handle`](hunkloom_handle::Handle), which retires it.
pub fn catch<T>(body: impl FnOnce() -> T) -> Result<T, Failure> {
    hunkloom_handle::catch(body).map_err(Failure::Core)
}

/// Runs a binding body: its failure, or a panic inside it, becomes the JavaScript exception.
pub fn run<T>(env: &Env, body: impl FnOnce() -> Result<T, Failure>) -> napi::Result<T> {
    catch(body)
        .and_then(|result| result)
        .map_err(|f| f.into_napi(env))
}

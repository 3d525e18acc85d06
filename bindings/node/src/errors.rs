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

use napi::{Env, JsError, JsTypeError, Unknown};

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

/// A core error as a JavaScript `Error` object: the core's message, and its code as `code`. What
/// every API throws, what `StreamingApplier.error` returns, and a failed block's `error`.
pub fn js_error<'env>(env: &Env, e: &hunkloom::Error) -> Unknown<'env> {
    let error = napi::Error::new(e.code().to_owned(), e.message().to_owned());
    JsError::from(error).into_unknown(*env)
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

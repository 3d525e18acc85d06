//! The one place where failures become JavaScript exceptions.
//!
//! A core [`patchloom::Error`] becomes an `Error` whose `message` is the core's exact message (in
//! the Cline dialects, Cline's exact text) and whose `code` is the core's stable snake_case code,
//! e.g. `search_not_found`. A wrong argument type becomes a `TypeError` with
//! `code === "ERR_INVALID_ARG_TYPE"`, and a number out of range a `RangeError` with
//! `code === "ERR_OUT_OF_RANGE"`: the codes Node's own functions use.
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
    Core(patchloom::Error),
    /// An argument had the wrong JavaScript type; the message says which and what it was.
    ArgType(String),
    /// A number argument was out of range (a `RangeError`); the message says which and what it
    /// was.
    OutOfRange(String),
}

impl From<patchloom::Error> for Failure {
    fn from(e: patchloom::Error) -> Self {
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
pub fn js_error<'env>(env: &Env, e: &patchloom::Error) -> Unknown<'env> {
    let error = napi::Error::new(e.code().to_owned(), e.message().to_owned());
    JsError::from(error).into_unknown(*env)
}

/// Converts a core result for a synchronous binding function.
pub fn core<T>(env: &Env, result: patchloom::Result<T>) -> napi::Result<T> {
    result.map_err(|e| Failure::Core(e).into_napi(env))
}

/// The code of every `RangeError` this package throws for a number out of range.
pub const OUT_OF_RANGE: &str = "ERR_OUT_OF_RANGE";

/// A `RangeError` with `code === "ERR_OUT_OF_RANGE"`.
pub fn range_error(env: &Env, message: String) -> napi::Error {
    let error = napi::Error::new(OUT_OF_RANGE.to_owned(), message);
    napi::Error::from(napi::JsRangeError::from(error).into_unknown(*env))
}

//! The panic boundary: every exported function runs its body through [`guard`] (or
//! [`guard_void`]), so a Rust panic becomes `HL_STATUS_PANIC` instead of unwinding into C
//! (which would abort the host process since Rust 1.81).
//!
//! Bodies return `Result<(), Failure>` so they can use `?`; the guard turns the failure into the
//! status, and writes the engine error to the caller's `hl_error **` when there is one.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::NonNull;

use crate::failure::{Failure, hl_error};
use crate::status::hl_status;

/// Runs `body`; a panic becomes [`hl_status::Panic`], an engine error its family's status.
///
/// `AssertUnwindSafe` is sound here because a panic never lets the host observe broken state:
/// out-parameters are written only after the body succeeded, and the applier marks itself
/// poisoned when a panic interrupts it (see `applier.rs`).
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Failure>) -> hl_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => hl_status::Ok,
        Ok(Err(failure)) => failure.status(),
        Err(_payload) => hl_status::Panic,
    }
}

/// Like [`guard`], for functions with a `hl_error **error` out-parameter: `error` must not be
/// NULL, and receives a new `hl_error` when the body fails with an engine error.
pub(crate) fn guard_with_error(
    error: *mut *mut hl_error,
    body: impl FnOnce() -> Result<(), Failure>,
) -> hl_status {
    let Some(error) = NonNull::new(error) else {
        return hl_status::NullArgument;
    };
    let mut engine_error = None;
    let status = guard(|| {
        body().inspect_err(|failure| {
            if let Failure::Engine(e) = failure {
                engine_error = Some(hl_error::boxed(e));
            }
        })
    });
    if let Some(boxed) = engine_error {
        // SAFETY: `error` is non-NULL, and the caller promises it points to writable storage
        // for one `hl_error *` (the documented contract of every function taking it).
        unsafe { error.as_ptr().write(Box::into_raw(boxed)) };
    }
    status
}

/// Runs `body` for functions that return nothing (the `_free` functions): a panic is swallowed,
/// because there is no status to report it with and unwinding into C is never an option.
pub(crate) fn guard_void(body: impl FnOnce()) {
    let _ = catch_unwind(AssertUnwindSafe(body));
}

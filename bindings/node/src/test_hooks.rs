//! A hidden export that makes the next `constructNewFileContent` panic inside its core call, as
//! a bug in the core would, so `node/test/panic.test.js` can prove that a panic in a stateless
//! call (on the JavaScript thread or on the thread pool) becomes an `Error` with
//! `code === "internal_error"` and that the Node process survives. Appliers and workspaces
//! have their own hidden `__injectPanic()` (the shared handle's hook).
//!
//! Compiled only with the `fault-injection` feature (the addon `make test-node` builds), never
//! in the published addon; `skip_typescript` keeps it out of `index.d.ts`. Internal: not API.

use std::sync::atomic::{AtomicBool, Ordering};

use napi_derive::napi;

/// Armed by `__testPanicNextConstruct`: the next `constructNewFileContent` (its work on the
/// thread pool) or `constructNewFileContentSync` panics.
pub static PANIC_IN_NEXT_CONSTRUCT: AtomicBool = AtomicBool::new(false);

/// Panics if `hook` is armed, disarming it.
pub fn panic_if_armed(hook: &AtomicBool) {
    if hook.swap(false, Ordering::SeqCst) {
        panic!("panic injected by a test hook");
    }
}

/// Makes the next `constructNewFileContent` or `constructNewFileContentSync` panic. Internal,
/// tests only.
#[napi(catch_unwind, js_name = "__testPanicNextConstruct", skip_typescript)]
pub fn test_panic_next_construct() {
    PANIC_IN_NEXT_CONSTRUCT.store(true, Ordering::SeqCst);
}

//! Hidden exports that make the next call panic inside its core call, as a bug in the core
//! would, so `node/test/panic.test.js` can prove that a panic becomes an `Error` with
//! `code === "ERR_HUNKLOOM_PANIC"` and that the Node process survives.
//!
//! Compiled only with the `test-hooks` feature (the addon `make test-node` builds), never in
//! the published addon; `skip_typescript` keeps them out of `index.d.ts`. Internal: not API.

use std::sync::atomic::{AtomicBool, Ordering};

use napi_derive::napi;

/// Armed by `__testPanicNextPush`: the next `StreamingApplier.push` panics.
pub static PANIC_IN_NEXT_PUSH: AtomicBool = AtomicBool::new(false);

/// Armed by `__testPanicNextConstruct`: the next `constructNewFileContent` (its work on the
/// thread pool) or `constructNewFileContentSync` panics.
pub static PANIC_IN_NEXT_CONSTRUCT: AtomicBool = AtomicBool::new(false);

/// Panics if `hook` is armed, disarming it.
pub fn panic_if_armed(hook: &AtomicBool) {
    if hook.swap(false, Ordering::SeqCst) {
        panic!("panic injected by a test hook");
    }
}

/// Makes the next `StreamingApplier.push` (on any applier) panic. Internal, tests only.
#[napi(catch_unwind, js_name = "__testPanicNextPush", skip_typescript)]
pub fn test_panic_next_push() {
    PANIC_IN_NEXT_PUSH.store(true, Ordering::SeqCst);
}

/// Makes the next `constructNewFileContent` or `constructNewFileContentSync` panic. Internal,
/// tests only.
#[napi(catch_unwind, js_name = "__testPanicNextConstruct", skip_typescript)]
pub fn test_panic_next_construct() {
    PANIC_IN_NEXT_CONSTRUCT.store(true, Ordering::SeqCst);
}

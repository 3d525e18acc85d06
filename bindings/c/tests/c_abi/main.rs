//! Tests that drive the library only through its `extern "C"` functions, the way a C host does.
//!
//! - `vectors`: every Cline conformance vector, stateless (the resume cache off), streamed in
//!   every chunking, and as Cline calls it (growing prefixes, the resume cache on).
//! - `resume`: the resume cache behind `hl_construct_new_file_content`: every prefix resumed and
//!   equal to the core's stateless call, capacity 0, the counters, NULL arguments.
//! - `boundary`: what only the C layer does: NULL arguments, UTF-8 checks and buffering,
//!   statuses and error codes, the lifecycle after finish, panics.
//! - `ops_vectors`: the tool-operation corpora (`cline-content-fixes`, `roo-insert-content`).
//! - `robustness`: the `native` robustness corpus, scored as the core's runner scores it,
//!   through `hl_apply_diff` and the streaming applier in several chunkings.
//! - `robustness_v2`: the second robustness corpus (already-applied edits, refusal codes), scored
//!   per mode as the core's runner scores it, through the same calls.
//! - `roo_vectors`: Roo's `apply_diff` corpora through `hl_apply_diff` with `HL_DIALECT_ROO`.
//! - `native`: what the C layer adds for the `native` dialect: `hl_apply_diff`, its options, the
//!   extended block reports, the partial policy.
//! - `ops_boundary`: the tool operations' C layer: existence flags, NULL arguments, UTF-8,
//!   statuses and error codes, out-parameters left alone.
//!
//! - `lazy`: the lazy-edit corpus through `hl_apply_lazy`, scored as the core's runner scores
//!   it, with each refusal's status and code.
//! - `patch_vectors`: the `apply_patch` rows of `cline-apply-patch` through `hl_apply_patch`.
//! - `workspace`: `hl_workspace_*` on temporary directories and `hl_apply_patch`'s C layer.
//! - `text_editor`: the text-editor corpora's main and crash sets through `hl_text_editor_*`
//!   (JSON text in and out), and that API's C layer.
//! - `udiff`: the unified-diff corpus through `hl_apply_diff` and the streaming applier in
//!   `HL_DIALECT_UDIFF_STRICT` (exact with `git apply`, `recount` too) and `HL_DIALECT_UDIFF`
//!   (scored against the intent), judged as the core's runner judges it.
//! - `v4a`: the V4A corpus through `hl_apply_v4a`.
//!
//! - `error_reference`: docs/error-codes.md's family table names the status of every code.
//!
//! `ffi`, `ops_ffi` and `patch_ffi` hold the small safe wrappers they use; the vector loading,
//! chunkings, scoring and tallies are `hunkloom-testkit`'s, shared with the core's runners so
//! they cannot drift.

mod aider;
mod boundary;
mod error_matches;
mod error_reference;
mod ffi;
mod lazy;
mod native;
mod ops_boundary;
mod ops_ffi;
mod ops_vectors;
mod patch_ffi;
mod patch_vectors;
mod resume;
mod robustness;
mod robustness_v2;
mod roo_vectors;
mod text_editor;
mod toolset;
mod udiff;
mod v4a;
mod vectors;
mod workspace;

/// Held by the tests that change the process-wide resume cache's capacity or count its hits, so
/// they never see each other's changes. Other tests may still call through the cache meanwhile:
/// their calls add to the counters, and a call that finds the cache in use on another thread is
/// computed from scratch and counted as neither hit nor miss.
fn resume_cache_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `during` while another thread is inside a call on `handle`, as a host that shares a
/// handle between threads without a lock would.
fn while_busy<T>(handle: &hunkloom_handle::Handle<T>, during: impl FnOnce()) {
    /// The handle's address, sent to the other thread (the handle outlives the scope).
    struct Shared<T>(*const hunkloom_handle::Handle<T>);
    // SAFETY: the other thread only enters and leaves one call on the handle, whose lock makes
    // that safe; the pointer stays valid for the whole scope.
    unsafe impl<T> Send for Shared<T> {}
    let entered = std::sync::Barrier::new(2);
    let proceed = std::sync::Barrier::new(2);
    let shared = Shared(handle as *const _);
    std::thread::scope(|s| {
        s.spawn(|| {
            let shared = shared;
            // SAFETY: see `Shared`.
            let handle = unsafe { &*shared.0 };
            let _ = handle.with(|_| {
                entered.wait();
                proceed.wait();
            });
        });
        entered.wait();
        during();
        proceed.wait();
    });
}

/// How a robustness runner's diff reaches the streaming applier (v1 and v2 runners alike).
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// The core runner's chunkings (character boundaries).
    Chunks(hunkloom_testkit::Chunking),
    /// Seeded random splits at any byte, so also inside characters.
    RandomBytes(u64),
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Chunks(c) => c.name(),
            Mode::RandomBytes(_) => "random-byte",
        }
    }

    fn pieces(self, diff: &str) -> Vec<&[u8]> {
        match self {
            Mode::Chunks(c) => c.split(diff).into_iter().map(str::as_bytes).collect(),
            Mode::RandomBytes(seed) => hunkloom_testkit::split_random_bytes(diff.as_bytes(), seed),
        }
    }
}

/// The streaming modes of the robustness runners.
const MODES: [Mode; 4] = [
    Mode::Chunks(hunkloom_testkit::Chunking::Whole),
    Mode::Chunks(hunkloom_testkit::Chunking::Line),
    Mode::Chunks(hunkloom_testkit::Chunking::Random(hunkloom_testkit::SEED)),
    Mode::RandomBytes(hunkloom_testkit::SEED),
];

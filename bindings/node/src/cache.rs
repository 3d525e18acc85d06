//! The process-wide resume cache behind `constructNewFileContent`.
//!
//! Cline calls `constructNewFileContent` on every growing prefix of a streamed diff; the core's
//! [`ResumeCache`] turns that into pushing only each call's new suffix. One cache serves the
//! Promise API (whose work runs on libuv's thread pool) and the sync API (on the JavaScript
//! thread), and worker threads share it too, since the addon is loaded once per process.
//!
//! Callers never wait for it: a call takes the cache with `try_lock`, and if another call holds
//! it, computes from scratch instead. Results are identical either way (the cache only saves
//! work), so the JavaScript thread never blocks behind a pool thread, and concurrent calls never
//! queue behind each other.

use std::sync::{Mutex, MutexGuard, TryLockError};

use hunkloom::cline::{ResumeCache, ResumedContent, Version, construct_new_file_content};

static CACHE: Mutex<ResumeCache> = Mutex::new(ResumeCache::new());

/// Cline's `constructNewFileContent`, resumed from a kept stream when possible.
pub fn construct(
    diff: &str,
    original: &str,
    is_final: bool,
    version: Version,
) -> hunkloom::Result<ResumedContent> {
    match CACHE.try_lock() {
        Ok(mut cache) => cache.call(diff, original, is_final, version),
        Err(TryLockError::Poisoned(_)) => lock().call(diff, original, is_final, version),
        Err(TryLockError::WouldBlock) => {
            let r = construct_new_file_content(diff, original, is_final, version)?;
            Ok(ResumedContent {
                match_indices: r.match_indices(),
                new_content: r.new_content,
            })
        }
    }
}

/// The cache, waiting for it. A cache poisoned by a panic mid-call may hold a half-updated
/// stream, so it is emptied before use.
pub fn lock() -> MutexGuard<'static, ResumeCache> {
    CACHE.lock().unwrap_or_else(|poisoned| {
        let mut cache = poisoned.into_inner();
        cache.clear();
        CACHE.clear_poison();
        cache
    })
}

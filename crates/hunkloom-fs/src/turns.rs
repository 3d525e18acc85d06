//! Per-file turns inside the process: calls that edit the same file wait for each other, calls
//! on different files do not.
//!
//! Parallel tool calls, subagents and bindings shared between threads all reach the file layer
//! at once. An edit plans against the file and then commits; two edits of one file planning at
//! the same time would make the second one's commit find the file changed under it. So an edit
//! takes the turn of every file it touches for its plan and its commit, and the next edit of
//! that file plans against the result. The table is one per process, keyed by the resolved path,
//! so every `Workspace` on a root shares it; across processes the root's commit
//! [lock](crate::lock) and the check before each commit keep the same promise.
//!
//! A call takes all its files' turns at once (a patch touches several), so two calls never hold
//! one turn each while waiting for the other's: no deadlock. A wait is bounded: past the limit
//! the call fails with `lock_timeout` and nothing is written.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hunkloom::{Error, ErrorKind, Result};

/// A table of turns by path: whoever holds a path's turn keeps every other taker of it
/// waiting. The file layer has one for the whole process; a layer above it that
/// must serialize more than one file-layer call (a tool call that reads, computes and writes)
/// keeps its own, so the two never wait for each other.
#[derive(Debug)]
pub struct Turns {
    held: Mutex<BTreeSet<PathBuf>>,
    freed: Condvar,
}

impl Default for Turns {
    fn default() -> Self {
        Turns::new()
    }
}

impl Turns {
    /// An empty table.
    pub const fn new() -> Turns {
        Turns {
            held: Mutex::new(BTreeSet::new()),
            freed: Condvar::new(),
        }
    }

    /// Waits (up to `limit`) until nobody holds the turn of any of `paths`, then takes them
    /// all at once. Past the limit: `lock_timeout` (naming `shown`), nothing taken.
    pub fn take(&self, paths: &[PathBuf], limit: Duration, shown: &Path) -> Result<Turn<'_>> {
        let wanted: BTreeSet<PathBuf> = paths.iter().cloned().collect();
        let started = Instant::now();
        let mut held = self.lock();
        loop {
            if wanted.iter().all(|p| !held.contains(p)) {
                held.extend(wanted.iter().cloned());
                return Ok(Turn {
                    table: self,
                    paths: wanted.into_iter().collect(),
                });
            }
            let waited = started.elapsed();
            if waited >= limit {
                return Err(timeout(shown, limit, "another edit of this file"));
            }
            held = self
                .freed
                .wait_timeout(held, limit - waited)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// The set; nothing panics while holding it, so a poisoned lock still holds a sound set.
    fn lock(&self) -> MutexGuard<'_, BTreeSet<PathBuf>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The turns of some paths, given back when dropped.
#[derive(Debug)]
pub struct Turn<'t> {
    table: &'t Turns,
    paths: Vec<PathBuf>,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut held = self.table.lock();
        for path in &self.paths {
            held.remove(path);
        }
        drop(held);
        self.table.freed.notify_all();
    }
}

/// The file layer's table, one per process, keyed by resolved path.
static FILES: Turns = Turns::new();

/// Takes the file layer's turns of `paths` (see [`Turns::take`]).
pub(crate) fn take(paths: &[PathBuf], limit: Duration, shown: &Path) -> Result<Turn<'static>> {
    FILES.take(paths, limit, shown)
}

/// The `lock_timeout` error: `who` held the turn of `shown` for more than `limit`.
pub(crate) fn timeout(shown: &Path, limit: Duration, who: &str) -> Error {
    Error::with_message(
        ErrorKind::LockTimeout,
        format!(
            "{who} ({}) has been running for more than {} s; this call gave up and \
             nothing was written. Try again.",
            shown.display(),
            limit.as_secs_f64()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_turn_makes_a_waiter_wait_then_time_out_and_others_pass() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        let held = take(std::slice::from_ref(&a), Duration::from_secs(1), &a).expect("a");
        // Another file is free.
        drop(take(std::slice::from_ref(&b), Duration::ZERO, &b).expect("b is free"));
        // A call needing `a` (and `b`) waits, then gives up with nothing taken.
        let e = take(&[b.clone(), a.clone()], Duration::from_millis(50), &a).expect_err("busy");
        assert_eq!(e.code(), "lock_timeout");
        assert!(
            e.message().contains("nothing was written"),
            "{}",
            e.message()
        );
        drop(take(std::slice::from_ref(&b), Duration::ZERO, &b).expect("b was not kept"));
        // A waiter is let in as soon as the turn is given back.
        std::thread::scope(|s| {
            let waiter = s.spawn(|| take(std::slice::from_ref(&a), Duration::from_secs(20), &a));
            std::thread::sleep(Duration::from_millis(20));
            drop(held);
            assert!(waiter.join().expect("waiter").is_ok());
        });
    }
}

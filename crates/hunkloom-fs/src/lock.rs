//! The root's commit lock: one committer (or recoverer) at a time per workspace root, across
//! threads, `Workspace` instances and processes.
//!
//! Every commit (and undo) holds it from the check that each file still has the content it was
//! planned against until the last rename, so two committers cannot both pass the check and
//! then overwrite each other; and [`recover`](crate::commit::recover) holds it, so a workspace
//! opening never mistakes another process's journal for the trace of a crash and rolls back a
//! commit that is still running. A committer that dies releases it with its file handles, so
//! the journal it leaves is settled by the next one to take the lock.
//!
//! On Unix the lock is an advisory lock (`flock`, through std's `File::lock`) on the root
//! directory itself, opened read-only: no file is created for it, so nothing appears in the
//! root for tools that list or compare it. (A lock file in the root could not be removed after
//! each call without a race: a waiter could lock the removed file while a newcomer locks a new
//! one.) Elsewhere a directory cannot be opened as a file, so the lock is a file in the system's
//! temporary directory, `hunkloom-locks/<hash of the root path>.lock`, which stays there. Where
//! the platform has no file locks (`Unsupported`), commits run unlocked, as before.
//!
//! A commit holds the lock for milliseconds, so a waiter that has not had it after the
//! workspace's [`lock_timeout`](crate::WorkspaceOptions::lock_timeout) is facing a stuck process
//! (a committer stopped by a debugger, a hung network file system): it gives up with
//! `lock_timeout` naming the root rather than hang its host.

use std::fs::{File, TryLockError};
use std::path::Path;
use std::time::{Duration, Instant};

use hunkloom::Result;

use crate::{errors, turns};

/// The lock, held until dropped.
#[derive(Debug)]
pub(crate) struct RootLock {
    file: Option<File>,
}

impl RootLock {
    /// Whether the lock is really held (`false` where the platform has no file locks and
    /// commits run unlocked): what lets a commit use the root's one staging name.
    pub(crate) fn held(&self) -> bool {
        self.file.is_some()
    }

    /// Waits up to `limit` for the lock of `root` (canonical) and takes it, polling with a
    /// growing pause (1 ms doubling to 50 ms): std has no timed `flock`, and a commit's hold is
    /// short enough that polling costs little.
    pub(crate) fn acquire(root: &Path, limit: Duration) -> Result<RootLock> {
        let file = open(root).map_err(|e| errors::io("lock", root, &e))?;
        let started = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(RootLock { file: Some(file) }),
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
                    return Ok(RootLock { file: None });
                }
                Err(TryLockError::Error(e)) => return Err(errors::io("lock", root, &e)),
            }
            let waited = started.elapsed();
            if waited >= limit {
                return Err(turns::timeout(root, limit, "another commit in this root"));
            }
            std::thread::sleep(pause.min(limit - waited));
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
}

#[cfg(unix)]
fn open(root: &Path) -> std::io::Result<File> {
    File::open(root)
}

#[cfg(not(unix))]
fn open(root: &Path) -> std::io::Result<File> {
    let dir = std::env::temp_dir().join("hunkloom-locks");
    std::fs::create_dir_all(&dir)?;
    let key = crate::tracking::hash(root.as_os_str().as_encoded_bytes());
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(format!("{key:032x}.lock")))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_makes_a_waiter_give_up_after_its_limit_then_free_it_is_taken() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical");
        let held = RootLock::acquire(&root, Duration::from_secs(1)).expect("first");
        let started = Instant::now();
        let err = RootLock::acquire(&root, Duration::from_millis(120)).expect_err("busy");
        assert!(started.elapsed() >= Duration::from_millis(120));
        assert_eq!(err.code(), "lock_timeout");
        assert!(
            err.message().contains("another commit"),
            "{}",
            err.message()
        );
        drop(held);
        RootLock::acquire(&root, Duration::from_millis(120)).expect("free now");
    }
}

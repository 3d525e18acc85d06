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

use std::fs::File;
use std::path::Path;

use hunkloom::Result;

use crate::errors;

/// The lock, held until dropped.
#[derive(Debug)]
pub(crate) struct RootLock {
    _file: Option<File>,
}

impl RootLock {
    /// Waits for and takes the lock of `root` (canonical).
    pub(crate) fn acquire(root: &Path) -> Result<RootLock> {
        let file = open(root).map_err(|e| errors::io("lock", root, &e))?;
        match file.lock() {
            Ok(()) => Ok(RootLock { _file: Some(file) }),
            Err(e) if e.kind() == std::io::ErrorKind::Unsupported => Ok(RootLock { _file: None }),
            Err(e) => Err(errors::io("lock", root, &e)),
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

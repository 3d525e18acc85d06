//! Atomic commits: every file of a commit ends up entirely old or entirely new.
//!
//! # One file
//!
//! The new bytes go to a temporary file in the target's directory (so the rename cannot cross
//! file systems), which is flushed (`fsync`), given the target's permissions (new files get
//! `0666` less the umask), renamed over the target, and the directory is flushed. A rename
//! replaces the directory entry atomically, so readers and crashes see the old file or the new
//! one. A path that is a symlink was resolved to its target beforehand, so the link stays.
//!
//! # Several files
//!
//! 1. The [journal](crate::journal) is written in state `prepare`, naming each target, its
//!    temporary file and its backup.
//! 2. Every temporary file is written and flushed; every existing target gets a backup (a hard
//!    link to it, or a flushed copy where links are not supported); the directories are flushed.
//! 3. The journal moves to `apply`; then each target is replaced (rename) or removed, in order.
//! 4. The directories are flushed, the journal moves to `done`, the backups and the journal are
//!    removed.
//!
//! If a step fails, the targets already replaced are restored from their backups and the
//! temporary files removed before the error is returned. If the process dies instead, the next
//! [`Workspace::open`](crate::Workspace::open) finds the journal: in `prepare` it removes the
//! temporary files and backups (no target had changed), in `apply` it restores every target
//! from its backup and removes the files it had created, in `done` it removes the backups.
//! Either way no temporary, backup or journal file remains.
//!
//! Commits, undos and recoveries in one root take turns: each holds the root's
//! [lock](crate::lock) from its checks to its end, whichever thread, `Workspace` or process it
//! runs in, and a commit first settles a journal a crashed committer left.

use std::collections::BTreeSet;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use hunkloom::Error;

use crate::errors;
use crate::journal::{self, Entry, JOURNAL, JOURNAL_TEMP, State};
use crate::reading::{RegularFile, read_regular};

/// One file operation of a commit, on a resolved absolute path.
#[derive(Clone, Debug)]
pub(crate) struct FileOp {
    /// The file.
    pub(crate) target: PathBuf,
    /// The bytes to write (`None`: remove the file).
    pub(crate) bytes: Option<Vec<u8>>,
    /// The hash the file must still have (`None`: it must not exist).
    pub(crate) expected: Option<u128>,
    /// The permissions of the file if it does not exist yet (an existing file keeps its own).
    pub(crate) permissions: Option<std::fs::Permissions>,
    /// The path as the caller gave it, for messages.
    pub(crate) shown: PathBuf,
}

/// What a target held before the commit.
#[derive(Clone, Debug)]
pub(crate) struct Prior {
    pub(crate) bytes: Vec<u8>,
    pub(crate) permissions: std::fs::Permissions,
}

/// Why a commit stopped.
#[derive(Debug)]
pub(crate) enum Stop {
    /// It failed and was rolled back (or never started); nothing changed.
    Failed(Error),
    /// A simulated crash: it stopped dead, leaving whatever was on disk for recovery.
    #[cfg_attr(not(feature = "fault-injection"), allow(dead_code))]
    Crashed,
}

impl From<Error> for Stop {
    fn from(e: Error) -> Self {
        Stop::Failed(e)
    }
}

/// How an injected fault behaves.
#[cfg(feature = "fault-injection")]
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultMode {
    /// The step fails with an `io_error`, and the commit rolls back as for a real failure.
    Error,
    /// The process "dies" after the step: the commit returns at once, without any clean-up.
    Crash,
}

/// The test-only fault point of the commit sequence (inert without the `fault-injection`
/// feature).
#[derive(Clone, Debug, Default)]
pub(crate) struct Faults {
    #[cfg(feature = "fault-injection")]
    pub(crate) plan: Option<(usize, FaultMode)>,
    #[cfg(feature = "fault-injection")]
    pub(crate) fired: bool,
    #[cfg(feature = "fault-injection")]
    steps: usize,
}

impl Faults {
    /// Starts counting the steps of a new commit.
    fn start(&mut self) {
        #[cfg(feature = "fault-injection")]
        {
            self.steps = 0;
            self.fired = false;
        }
    }

    /// Called after every step; fails or "crashes" after the planned one.
    fn step(&mut self) -> Result<(), Stop> {
        #[cfg(feature = "fault-injection")]
        {
            let step = self.steps;
            self.steps += 1;
            if let Some((at, mode)) = self.plan
                && at == step
            {
                self.plan = None;
                self.fired = true;
                return Err(match mode {
                    FaultMode::Error => Stop::Failed(errors::io(
                        "commit",
                        Path::new("(fault injection)"),
                        &std::io::Error::other(format!("injected fault after step {step}")),
                    )),
                    FaultMode::Crash => Stop::Crashed,
                });
            }
        }
        Ok(())
    }
}

/// Reads each target and checks it is as expected: the hash it must still have, or absent.
/// Returns what each held.
pub(crate) fn verify(ops: &[FileOp]) -> Result<Vec<Option<Prior>>, Error> {
    ops.iter()
        .map(|op| {
            let current = read_prior(&op.target, &op.shown)?;
            match (&current, op.expected) {
                (None, None) => Ok(None),
                (Some(_), None) => Err(errors::exists(&op.shown)),
                (None, Some(_)) => Err(errors::stale(&op.shown, "it was read (it was deleted)")),
                (Some(prior), Some(hash)) if crate::tracking::hash(&prior.bytes) != hash => {
                    Err(errors::stale(&op.shown, "it was last read"))
                }
                (Some(_), Some(_)) => Ok(current),
            }
        })
        .collect()
}

/// What is at `target` now: refused unless it is a regular file (a FIFO or device put there
/// since the plan must not hang the commit), read whole (the plan already bounded its size;
/// a file grown past that since is stale anyway, so the bound here only stops one that
/// never ends).
fn read_prior(target: &Path, shown: &Path) -> Result<Option<Prior>, Error> {
    Ok(
        read_regular(target, shown, PRIOR_LIMIT)?.map(|RegularFile { bytes, meta }| Prior {
            bytes,
            permissions: meta.permissions(),
        }),
    )
}

/// The most a commit reads back of a file it checks (the file layer's size limit is at most
/// this in practice; anything larger cannot be the file that was planned against unchanged).
const PRIOR_LIMIT: u64 = 1 << 40;

/// Commits `ops` (already verified, `priors` from [`verify`]) all or none.
pub(crate) fn commit(
    root: &Path,
    ops: &[FileOp],
    priors: &[Option<Prior>],
    faults: &mut Faults,
) -> Result<(), Stop> {
    faults.start();
    match ops {
        [] => Ok(()),
        [op] => commit_one(root, op, priors[0].as_ref().map(|p| &p.permissions), faults),
        _ => commit_many(root, ops, priors, faults),
    }
}

/// One file: temporary file, flush, rename, flush the directory (or remove and flush).
///
/// While the temporary file exists the root holds an unflushed journal in state `prepare`
/// naming it, so that if the process dies before the rename the next recovery removes it
/// (nothing else: the target is old, or already new). If the journal cannot be written (a
/// root the process may not write to) the commit goes on without it.
fn commit_one(
    root: &Path,
    op: &FileOp,
    permissions: Option<&std::fs::Permissions>,
    faults: &mut Faults,
) -> Result<(), Stop> {
    let dir = parent(&op.target);
    let Some(bytes) = &op.bytes else {
        std::fs::remove_file(&op.target).map_err(|e| errors::io("remove", &op.shown, &e))?;
        let _ = journal::sync_dir(dir);
        return match faults.step() {
            Err(Stop::Crashed) => Err(Stop::Crashed),
            _ => Ok(()),
        };
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| errors::io("create the directory of", &op.shown, &e))?;
    let temp = temp_name(&op.target, "tmp");
    let entry = Entry {
        target: op.target.clone(),
        temp: Some(temp.clone()),
        backup: None,
    };
    let journal_path = root.join(JOURNAL);
    let journaled =
        journal::write_unflushed(root, &journal::render(root, State::Prepare, &[entry])).is_ok();
    let forget = || {
        if journaled {
            let _ = std::fs::remove_file(&journal_path);
        }
    };
    let result = (|| {
        write_new(&temp, bytes, permissions.or(op.permissions.as_ref()))
            .map_err(|e| errors::io("write", &op.shown, &e))?;
        faults.step()?;
        std::fs::rename(&temp, &op.target).map_err(|e| errors::io("replace", &op.shown, &e))?;
        Ok(())
    })();
    match result {
        Ok(()) => {
            // The file is new now: what follows cannot undo that, so it cannot fail the commit.
            let _ = journal::sync_dir(dir);
            match faults.step() {
                Err(Stop::Crashed) => Err(Stop::Crashed),
                _ => {
                    forget();
                    Ok(())
                }
            }
        }
        Err(Stop::Crashed) => Err(Stop::Crashed),
        Err(stop) => {
            let _ = std::fs::remove_file(&temp);
            forget();
            Err(stop)
        }
    }
}

/// Several files, through the journal.
fn commit_many(
    root: &Path,
    ops: &[FileOp],
    priors: &[Option<Prior>],
    faults: &mut Faults,
) -> Result<(), Stop> {
    let entries: Vec<Entry> = ops
        .iter()
        .zip(priors)
        .map(|(op, prior)| Entry {
            target: op.target.clone(),
            temp: op.bytes.as_ref().map(|_| temp_name(&op.target, "tmp")),
            backup: prior.as_ref().map(|_| temp_name(&op.target, "bak")),
        })
        .collect();
    let dirs: BTreeSet<&Path> = ops.iter().map(|op| parent(&op.target)).collect();
    let journal_path = root.join(JOURNAL);
    if journal_path.exists() {
        return Err(Stop::Failed(errors::io(
            "commit in",
            root,
            &std::io::Error::other("another commit is in progress (a journal exists)"),
        )));
    }
    let io = |what: &'static str, path: &Path| {
        let path = path.to_path_buf();
        move |e: std::io::Error| Stop::Failed(errors::io(what, &path, &e))
    };

    let mut state = State::Prepare;
    let mut applied = 0;
    let result = (|| {
        journal::write(root, &journal::render(root, state, &entries))
            .map_err(io("write the commit journal in", root))?;
        faults.step()?;
        for ((op, entry), prior) in ops.iter().zip(&entries).zip(priors) {
            if let (Some(bytes), Some(temp)) = (&op.bytes, &entry.temp) {
                std::fs::create_dir_all(parent(&op.target))
                    .map_err(io("create the directory of", &op.shown))?;
                let permissions = prior.as_ref().map(|p| &p.permissions);
                write_new(temp, bytes, permissions.or(op.permissions.as_ref()))
                    .map_err(io("write", &op.shown))?;
                faults.step()?;
            }
            if let (Some(prior), Some(backup)) = (prior, &entry.backup) {
                make_backup(&op.target, backup, prior).map_err(io("back up", &op.shown))?;
                faults.step()?;
            }
        }
        for dir in &dirs {
            journal::sync_dir(dir).map_err(io("flush", dir))?;
        }
        state = State::Apply;
        journal::write(root, &journal::render(root, state, &entries))
            .map_err(io("write the commit journal in", root))?;
        faults.step()?;
        for (op, entry) in ops.iter().zip(&entries) {
            match &entry.temp {
                Some(temp) => {
                    std::fs::rename(temp, &op.target).map_err(io("replace", &op.shown))?
                }
                None => std::fs::remove_file(&op.target).map_err(io("remove", &op.shown))?,
            }
            applied += 1;
            faults.step()?;
        }
        for dir in &dirs {
            journal::sync_dir(dir).map_err(io("flush", dir))?;
        }
        state = State::Done;
        journal::write(root, &journal::render(root, state, &entries))
            .map_err(io("write the commit journal in", root))?;
        faults.step()?;
        Ok(())
    })();
    match result {
        Err(Stop::Crashed) => Err(Stop::Crashed),
        Err(Stop::Failed(e)) if state != State::Done => {
            // Roll back what was done; the entries not yet applied only lose their temp files.
            let rollback_state = if applied > 0 {
                State::Apply
            } else {
                State::Prepare
            };
            settle(root, rollback_state, &entries);
            Err(Stop::Failed(e))
        }
        // Done: the commit stands; clean up (what fails here is left for the next open).
        _ => {
            settle(root, State::Done, &entries);
            Ok(())
        }
    }
}

/// Brings a commit recorded in `entries` to a settled state, as a journal in `state` demands
/// (see the module documentation), then removes the journal. Best effort: each step is
/// idempotent, so a failure is retried by the next recovery.
pub(crate) fn settle(root: &Path, state: State, entries: &[Entry]) {
    let exists = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    let mut clean = true;
    if state == State::Apply {
        for entry in entries.iter().rev() {
            match (&entry.temp, &entry.backup) {
                (_, Some(backup)) if exists(backup) => {
                    clean &= std::fs::rename(backup, &entry.target).is_ok();
                }
                // A created file: its temporary file was renamed unless it is still there.
                (Some(temp), None) if !exists(temp) => {
                    let _ = std::fs::remove_file(&entry.target);
                }
                _ => {}
            }
        }
    }
    for entry in entries {
        // A backup that is a hard link to an unreplaced target survives the rename above
        // (rename between two links of one file does nothing), so it is removed here.
        for path in [&entry.temp, &entry.backup].into_iter().flatten() {
            if exists(path) {
                clean &= std::fs::remove_file(path).is_ok();
            }
        }
    }
    let dirs: BTreeSet<&Path> = entries.iter().map(|e| parent(&e.target)).collect();
    for dir in dirs {
        let _ = journal::sync_dir(dir);
    }
    if clean {
        let _ = std::fs::remove_file(root.join(JOURNAL));
        let _ = journal::sync_dir(root);
    }
}

/// Finishes or rolls back a commit a crash interrupted, if the root has a journal.
pub(crate) fn recover(root: &Path) -> Result<(), Error> {
    let _ = std::fs::remove_file(root.join(JOURNAL_TEMP));
    let path = root.join(JOURNAL);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(errors::io("read the commit journal", &path, &e)),
    };
    let Some((state, entries)) = journal::parse(root, &text) else {
        return Err(errors::io(
            "recover from",
            &path,
            &std::io::Error::other("the commit journal is damaged; inspect it and remove it"),
        ));
    };
    // Only files inside the root are touched, whatever the journal says.
    let inside = |p: &Path| p.starts_with(root);
    if !entries.iter().all(|e| {
        inside(&e.target)
            && e.temp.as_deref().is_none_or(inside)
            && e.backup.as_deref().is_none_or(inside)
    }) {
        return Err(errors::io(
            "recover from",
            &path,
            &std::io::Error::other("the commit journal names files outside the root"),
        ));
    }
    settle(root, state, &entries);
    if path.exists() {
        return Err(errors::io(
            "recover from",
            &path,
            &std::io::Error::other("an interrupted commit could not be settled"),
        ));
    }
    Ok(())
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A fresh, unpredictable name next to `target`: `.<name>.<random>.hunkloom-<kind>`.
fn temp_name(target: &Path, kind: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    parent(target).join(format!(".{name}.{:016x}.hunkloom-{kind}", hasher.finish()))
}

/// Creates `path` (which must not exist), writes `bytes`, flushes, and applies `permissions`.
fn write_new(
    path: &Path,
    bytes: &[u8],
    permissions: Option<&std::fs::Permissions>,
) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o666);
    }
    let mut file = options.open(path)?;
    let result = (|| {
        file.write_all(bytes)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions.clone())?;
        }
        file.sync_all()
    })();
    if result.is_err() {
        drop(file);
        let _ = std::fs::remove_file(path);
    }
    result
}

/// Keeps the old content of `target` at `backup`: a hard link, or a flushed copy.
fn make_backup(target: &Path, backup: &Path, prior: &Prior) -> std::io::Result<()> {
    match std::fs::hard_link(target, backup) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
        Err(_) => write_new(backup, &prior.bytes, Some(&prior.permissions)),
    }
}

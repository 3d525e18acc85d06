//! Atomic commits: every file of a commit ends up entirely old or entirely new.
//!
//! # One file
//!
//! The new bytes go to a temporary file, which is flushed (`fsync`), given the target's
//! permissions (new files get `0666` less the umask), renamed over the target, and the
//! directory is flushed. A rename replaces the directory entry atomically, so readers and
//! crashes see the old file or the new one. A path that is a symlink was resolved to its target
//! beforehand, so the link stays. The temporary file is made in the target's directory and
//! named at the root's [staging name](crate::staged), which the next open removes after a
//! crash; where that cannot work it is a fresh name beside the target that an unflushed
//! one-file journal records until the rename.
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
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use hunkloom::Error;

use crate::durability::Durability;
use crate::errors;
use crate::journal::{self, Entry, JOURNAL, JOURNAL_TEMP, State};
use crate::lock::RootLock;
use crate::reading::{RegularFile, read_regular};
use crate::staged;

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
    /// Another writer (an editor saving, another program) changed a target after it was
    /// verified and before it was replaced; the commit was rolled back with that change kept.
    /// The caller plans again against the file as it is now (the error is `stale_file`, for a
    /// caller that does not).
    Raced(Error),
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
    /// One-file commits take the journaled path (`Workspace::journal_single_commits`).
    #[cfg(feature = "fault-injection")]
    pub(crate) journal_single: bool,
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

    /// Whether a one-file commit may use the root's staging name (always, but in tests that
    /// cover the journaled path).
    fn staging_allowed(&self) -> bool {
        #[cfg(feature = "fault-injection")]
        if self.journal_single {
            return false;
        }
        true
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

/// Commits `ops` (already verified, `priors` from [`verify`]) all or none, flushed to the disk
/// as `durability` says, under the root's `lock`.
pub(crate) fn commit(
    root: &Path,
    ops: &[FileOp],
    priors: &[Option<Prior>],
    durability: Durability,
    faults: &mut Faults,
    lock: &RootLock,
) -> Result<(), Stop> {
    faults.start();
    match ops {
        [] => Ok(()),
        [op] => {
            let permissions = priors[0].as_ref().map(|p| &p.permissions);
            let staging = lock.held() && faults.staging_allowed();
            commit_one(root, op, permissions, durability, faults, staging)
        }
        _ => commit_many(root, ops, priors, durability, faults),
    }
}

/// One file: temporary file, flush, rename, flush the directory (or remove and flush).
///
/// With `staging` (the root's lock is really held) the temporary file is the root's
/// [staging name](crate::staged), which the next open removes if the process dies before the
/// commit ends. Otherwise (or where staging cannot work) it is a fresh name beside the target,
/// and while it exists the root holds an unflushed journal in state `prepare` naming it, so
/// that the next recovery removes it (nothing else: the target is old, or already new). If
/// the journal cannot be written (a root the process may not write to) the commit goes on
/// without it.
fn commit_one(
    root: &Path,
    op: &FileOp,
    permissions: Option<&std::fs::Permissions>,
    durability: Durability,
    faults: &mut Faults,
    staging: bool,
) -> Result<(), Stop> {
    let dir = parent(&op.target);
    let Some(bytes) = &op.bytes else {
        let removed = match staging.then(|| staged::path(root)) {
            Some(aside) => match remove(op, &aside) {
                Err(Removal::CrossesDevices) => remove_journaled(root, op),
                other => other,
            },
            None => remove_journaled(root, op),
        };
        removed.map_err(|r| r.into_stop(op))?;
        let _ = durability.flush_dir(dir);
        return match faults.step() {
            Err(Stop::Crashed) => Err(Stop::Crashed),
            _ => Ok(()),
        };
    };
    // A file that was verified to exist has its directory; a new one may need it made.
    if op.expected.is_none() {
        std::fs::create_dir_all(dir)
            .map_err(|e| errors::io("create the directory of", &op.shown, &e))?;
    }
    let permissions = permissions.or(op.permissions.as_ref());
    let write_error = |e: std::io::Error| Stop::Failed(errors::io("write", &op.shown, &e));
    let staged = match staging.then(|| staged::path(root)) {
        Some(path) => staged::write(dir, &path, bytes, permissions, durability)
            .map_err(write_error)?
            .then_some(path),
        None => None,
    };
    let (temp, journal) = match staged {
        Some(path) => (path, None),
        None => {
            let temp = temp_name(&op.target, "tmp");
            let journal = journal_one(root, op, &temp);
            if let Err(e) = write_new(&temp, bytes, permissions, durability) {
                forget(journal);
                return Err(write_error(e));
            }
            (temp, journal)
        }
    };
    let result = faults.step().and_then(|()| replace(&temp, op, bytes));
    match result {
        Ok(()) => {
            // The file is new now: what follows cannot undo that, so it cannot fail the commit.
            let _ = durability.flush_dir(dir);
            match faults.step() {
                Err(Stop::Crashed) => Err(Stop::Crashed),
                _ => {
                    forget(journal);
                    Ok(())
                }
            }
        }
        Err(Stop::Crashed) => Err(Stop::Crashed),
        Err(stop) => {
            let _ = std::fs::remove_file(&temp);
            forget(journal);
            Err(stop)
        }
    }
}

/// Writes the unflushed one-file journal naming `temp` as `op`'s temporary file: its path, or
/// `None` when it could not be written (the commit goes on without it).
fn journal_one(root: &Path, op: &FileOp, temp: &Path) -> Option<PathBuf> {
    let entry = Entry {
        target: op.target.clone(),
        temp: Some(temp.to_path_buf()),
        backup: None,
    };
    journal::write_unflushed(root, &journal::render(root, State::Prepare, &[entry]))
        .is_ok()
        .then(|| root.join(JOURNAL))
}

/// Removes the one-file journal [`journal_one`] wrote, once its temporary file is gone.
fn forget(journal: Option<PathBuf>) {
    if let Some(path) = journal {
        let _ = std::fs::remove_file(path);
    }
}

/// Removes `op.target` through a journaled temporary name beside it.
fn remove_journaled(root: &Path, op: &FileOp) -> Result<(), Removal> {
    let aside = temp_name(&op.target, "tmp");
    let journal = journal_one(root, op, &aside);
    let removed = remove(op, &aside);
    forget(journal);
    removed
}

/// Puts `temp` (holding `bytes`) in place of `op.target` without losing a change another
/// writer made after [`verify`]: what the target held must still be what `op.expected` says.
///
/// Where the system can swap two names atomically (`renameat2(RENAME_EXCHANGE)` on Linux,
/// `renameatx_np(RENAME_SWAP)` on Apple systems) the new file is swapped in and what it
/// displaced is checked afterwards: if another writer had saved meanwhile, the swap is undone
/// (keeping that writer's newest save) and the commit is [`Stop::Raced`]. No window remains in
/// which a save is overwritten unseen. A new file is put in place only if the name is still
/// free (`RENAME_NOREPLACE`). Elsewhere, or on a file system without these, the target is
/// checked again right before a plain rename: a save landing in the microseconds between that
/// check and the rename is the residual window.
fn replace(temp: &Path, op: &FileOp, bytes: &[u8]) -> Result<(), Stop> {
    let raced = || Stop::Raced(errors::stale(&op.shown, "it was last read"));
    let io = |e: std::io::Error| Stop::Failed(errors::io("replace", &op.shown, &e));
    let Some(expected) = op.expected else {
        return match swap::rename_noreplace(temp, &op.target) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Stop::Raced(errors::exists(&op.shown))),
            Err(e) => Err(io(e)),
        };
    };
    match swap::exchange(temp, &op.target) {
        Ok(true) => {
            if holds(temp, expected) {
                let _ = std::fs::remove_file(temp);
                return Ok(());
            }
            // Another writer's save was displaced: swap it back. If yet another save replaced
            // ours in the meantime, that one is the newest: it goes back in place.
            swap::exchange(temp, &op.target).map_err(io)?;
            if !holds(temp, crate::tracking::hash(bytes)) {
                swap::exchange(temp, &op.target).map_err(io)?;
            }
            let _ = std::fs::remove_file(temp);
            Err(raced())
        }
        Ok(false) => {
            if !holds(&op.target, expected) {
                return Err(raced());
            }
            std::fs::rename(temp, &op.target).map_err(io)
        }
        Err(e) => Err(io(e)),
    }
}

/// Why a removal stopped: as a commit stops, or (before anything changed) because `aside` is
/// on another file system than the target, for the caller to retry beside it.
enum Removal {
    Stop(Stop),
    CrossesDevices,
}

impl Removal {
    fn into_stop(self, op: &FileOp) -> Stop {
        match self {
            Removal::Stop(stop) => stop,
            Removal::CrossesDevices => Stop::Failed(errors::io(
                "remove",
                &op.shown,
                &std::io::Error::from(std::io::ErrorKind::CrossesDevices),
            )),
        }
    }
}

/// Removes `op.target` unless another writer changed it after [`verify`]: the file is first
/// moved `aside` (a temporary name the next recovery removes) and checked; a changed one is
/// moved back ([`Stop::Raced`]).
fn remove(op: &FileOp, aside: &Path) -> Result<(), Removal> {
    let io = |e: std::io::Error| Removal::Stop(Stop::Failed(errors::io("remove", &op.shown, &e)));
    let Some(expected) = op.expected else {
        return std::fs::remove_file(&op.target).map_err(io);
    };
    match std::fs::rename(&op.target, aside) {
        Ok(()) => {}
        Err(e) if staged::crosses_devices(&e) => return Err(Removal::CrossesDevices),
        Err(e) => return Err(io(e)),
    }
    if holds(aside, expected) {
        return std::fs::remove_file(aside).map_err(io);
    }
    // Put it back unless a newer save took the name meanwhile (then the newer one stands).
    if !swap::rename_noreplace(aside, &op.target).map_err(io)? {
        let _ = std::fs::remove_file(aside);
    }
    Err(Removal::Stop(Stop::Raced(errors::stale(
        &op.shown,
        "it was last read",
    ))))
}

/// Whether `path` is a regular file whose bytes hash to `hash` (read in pieces: a commit's
/// check of what it displaced costs no memory).
fn holds(path: &Path, hash: u128) -> bool {
    crate::reading::hash_regular(path) == Some(hash)
}

/// Atomic renames beyond `rename(2)`, where the system has them.
mod swap {
    use std::path::Path;

    /// Swaps the two names atomically: `Ok(true)`, or `Ok(false)` where the system or the
    /// file system cannot (nothing was done).
    #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
    pub(super) fn exchange(a: &Path, b: &Path) -> std::io::Result<bool> {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE) {
            Ok(()) => Ok(true),
            Err(e) if unsupported(e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    #[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
    pub(super) fn exchange(_a: &Path, _b: &Path) -> std::io::Result<bool> {
        Ok(false)
    }

    /// Renames `from` to `to` only if `to` does not exist: `Ok(false)` if it does. Where the
    /// system cannot do this atomically, the check and the rename are two steps.
    pub(super) fn rename_noreplace(from: &Path, to: &Path) -> std::io::Result<bool> {
        #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
        {
            use rustix::fs::{CWD, RenameFlags, renameat_with};
            match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
                Ok(()) => return Ok(true),
                Err(rustix::io::Errno::EXIST) => return Ok(false),
                Err(e) if unsupported(e) => {}
                Err(e) => return Err(e.into()),
            }
        }
        if std::fs::symlink_metadata(to).is_ok() {
            return Ok(false);
        }
        std::fs::rename(from, to).map(|()| true)
    }

    /// The errors of a system or file system without the flag.
    #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
    fn unsupported(e: rustix::io::Errno) -> bool {
        use rustix::io::Errno;
        e == Errno::INVAL || e == Errno::NOSYS || e == Errno::OPNOTSUPP || e == Errno::NOTSUP
    }
}

/// Several files, through the journal.
fn commit_many(
    root: &Path,
    ops: &[FileOp],
    priors: &[Option<Prior>],
    durability: Durability,
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
        journal::write(root, &journal::render(root, state, &entries), durability)
            .map_err(io("write the commit journal in", root))?;
        faults.step()?;
        for ((op, entry), prior) in ops.iter().zip(&entries).zip(priors) {
            if let (Some(bytes), Some(temp)) = (&op.bytes, &entry.temp) {
                std::fs::create_dir_all(parent(&op.target))
                    .map_err(io("create the directory of", &op.shown))?;
                let permissions = prior.as_ref().map(|p| &p.permissions);
                write_new(
                    temp,
                    bytes,
                    permissions.or(op.permissions.as_ref()),
                    durability,
                )
                .map_err(io("write", &op.shown))?;
                faults.step()?;
            }
            if let (Some(prior), Some(backup)) = (prior, &entry.backup) {
                make_backup(durability, &op.target, backup, prior)
                    .map_err(io("back up", &op.shown))?;
                faults.step()?;
            }
        }
        for dir in &dirs {
            durability.flush_dir(dir).map_err(io("flush", dir))?;
        }
        state = State::Apply;
        journal::write(root, &journal::render(root, state, &entries), durability)
            .map_err(io("write the commit journal in", root))?;
        faults.step()?;
        for (op, entry) in ops.iter().zip(&entries) {
            match (&entry.temp, &op.bytes) {
                (Some(temp), Some(bytes)) => replace(temp, op, bytes)?,
                _ => {
                    if op.expected.is_some_and(|hash| !holds(&op.target, hash)) {
                        return Err(Stop::Raced(errors::stale(&op.shown, "it was last read")));
                    }
                    std::fs::remove_file(&op.target).map_err(io("remove", &op.shown))?
                }
            }
            applied += 1;
            faults.step()?;
        }
        for dir in &dirs {
            durability.flush_dir(dir).map_err(io("flush", dir))?;
        }
        state = State::Done;
        journal::write(root, &journal::render(root, state, &entries), durability)
            .map_err(io("write the commit journal in", root))?;
        faults.step()?;
        Ok(())
    })();
    match result {
        Err(Stop::Crashed) => Err(Stop::Crashed),
        Err(stop) if state != State::Done => {
            // Roll back what was done; the entries not yet applied only lose their temp files
            // (their targets are not touched: another writer may have saved one since).
            let rollback_state = if applied > 0 {
                State::Apply
            } else {
                State::Prepare
            };
            settle(root, rollback_state, &entries[..applied], &entries);
            Err(stop)
        }
        // Done: the commit stands; clean up (what fails here is left for the next open).
        _ => {
            settle(root, State::Done, &[], &entries);
            Ok(())
        }
    }
}

/// Brings a commit recorded in `entries` to a settled state, as a journal in `state` demands
/// (see the module documentation), then removes the journal. In state `apply` the targets of
/// `applied` are restored (recovery after a crash passes every entry: it cannot know which
/// were replaced). Best effort: each step is idempotent, so a failure is retried by the next
/// recovery.
pub(crate) fn settle(root: &Path, state: State, applied: &[Entry], entries: &[Entry]) {
    let exists = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    let mut clean = true;
    if state == State::Apply {
        for entry in applied.iter().rev() {
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
    // An empty journal is a one-file commit's record whose bytes a power cut lost: nothing is
    // known to settle.
    if text.is_empty() {
        return std::fs::remove_file(&path)
            .map_err(|e| errors::io("remove the empty commit journal", &path, &e));
    }
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
    settle(root, state, &entries, &entries);
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
    durability: Durability,
) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o666);
    }
    let mut file = options.open(path)?;
    let result = durability.fill(&mut file, bytes, permissions);
    if result.is_err() {
        drop(file);
        let _ = std::fs::remove_file(path);
    }
    result
}

/// Keeps the old content of `target` at `backup`: a hard link, or a copy (flushed when
/// durable).
fn make_backup(
    durability: Durability,
    target: &Path,
    backup: &Path,
    prior: &Prior,
) -> std::io::Result<()> {
    match std::fs::hard_link(target, backup) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
        Err(_) => write_new(backup, &prior.bytes, Some(&prior.permissions), durability),
    }
}

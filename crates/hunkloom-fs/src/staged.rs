//! A one-file commit without a journal: the new content is written to a file made without a
//! name in the target's directory (`O_TMPFILE`, so it gets that directory's group, default ACL
//! and security label, as a file created there would), and given the root's one staging name,
//! `<root>/.hunkloom-staged.hunkloom-tmp`, to be swapped in from there (a rename between two
//! directories of one file system is as atomic as within one). The name is fixed and a commit
//! holds the root's lock from before the file is named until the name is gone, so a process
//! that dies mid-commit leaves at most that one name — the new content before the swap, the
//! displaced old content after it — and the next [`Workspace::open`](crate::Workspace::open)
//! removes it by name, with no journal to write and no tree to search. (The journal of a
//! one-file commit was a fifth of a small file's commit without flushes: an inode made and
//! freed per call.)
//!
//! Where that cannot work — no `O_TMPFILE` (other systems, some file systems), no `/proc` to
//! name the file through, the target on another file system than the root, a root whose lock
//! the platform does not support — [`write`] says so and the commit takes its journaled path.

use std::path::{Path, PathBuf};

use crate::durability::Durability;

/// The root's staging name (internal: the workspace refuses to touch it, like the journal).
pub(crate) const STAGED: &str = ".hunkloom-staged.hunkloom-tmp";

/// The staging path of `root`.
pub(crate) fn path(root: &Path) -> PathBuf {
    root.join(STAGED)
}

/// Removes what a commit that died left at the staging name. Call with the root's lock held:
/// no commit is then using it.
pub(crate) fn clear(root: &Path) {
    let _ = std::fs::remove_file(path(root));
}

/// Writes `bytes` (with `permissions`, flushed as `durability` says) to a file made without a
/// name in `dir` and links it at `staged`, the root's staging path: `Ok(true)`. `Ok(false)`
/// when this system or layout cannot (nothing is left behind; the caller writes a journaled
/// temporary file instead); an error when writing failed (nothing is left behind either).
/// The caller holds the root's lock, so a file already at `staged` is a dead commit's, and is
/// replaced.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn write(
    dir: &Path,
    staged: &Path,
    bytes: &[u8],
    permissions: Option<&std::fs::Permissions>,
    durability: Durability,
) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd as _;

    use rustix::fs::{AtFlags, CWD, Mode, OFlags, linkat, openat};
    use rustix::io::Errno;

    let flags = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
    let fd = match openat(CWD, dir, flags, Mode::from_raw_mode(0o666)) {
        Ok(fd) => fd,
        // No O_TMPFILE here: EOPNOTSUPP from the file system, EISDIR or EINVAL from a kernel
        // that predates it.
        Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL | Errno::NOSYS) => return Ok(false),
        Err(e) => return Err(e.into()),
    };
    // Named through /proc (linkat's AT_EMPTY_PATH needs a capability); linked before it is
    // written, so a target on another file system (EXDEV) costs no write.
    let by_fd = format!("/proc/self/fd/{}", fd.as_raw_fd());
    let link = || linkat(CWD, by_fd.as_str(), CWD, staged, AtFlags::SYMLINK_FOLLOW);
    match link() {
        Ok(()) => {}
        Err(Errno::EXIST) => {
            let _ = std::fs::remove_file(staged);
            if link().is_err() {
                return Ok(false);
            }
        }
        Err(_) => return Ok(false),
    }
    let mut file = std::fs::File::from(fd);
    let written = durability.fill(&mut file, bytes, permissions);
    if written.is_err() {
        let _ = std::fs::remove_file(staged);
    }
    written.map(|()| true)
}

/// No `O_TMPFILE` on this system: the commit takes its journaled path.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn write(
    _dir: &Path,
    _staged: &Path,
    _bytes: &[u8],
    _permissions: Option<&std::fs::Permissions>,
    _durability: Durability,
) -> std::io::Result<bool> {
    Ok(false)
}

/// Whether a rename failed because its two paths are on different file systems.
pub(crate) fn crosses_devices(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::CrossesDevices
}

#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};

    use super::*;

    #[test]
    fn the_content_is_written_unnamed_then_linked_at_the_staging_name() {
        let root = tempfile::tempdir().expect("tempdir");
        let dir = root.path().join("sub");
        std::fs::create_dir(&dir).expect("mkdir");
        let staged = path(root.path());
        // A dead commit's leftover is replaced.
        std::fs::write(&staged, "stale").expect("write");
        let mode = std::fs::Permissions::from_mode(0o640);
        let done = write(&dir, &staged, b"new\n", Some(&mode), Durability::Full);
        if !done.expect("write") {
            eprintln!("skipped: no O_TMPFILE or /proc on this file system");
            return;
        }
        assert_eq!(std::fs::read(&staged).expect("read"), b"new\n");
        let meta = std::fs::metadata(&staged).expect("metadata");
        assert_eq!(meta.mode() & 0o777, 0o640);
        assert_eq!(meta.nlink(), 1);
        assert_eq!(std::fs::read_dir(&dir).expect("list").count(), 0);
        clear(root.path());
        assert!(!staged.exists());
    }

    #[test]
    fn a_directory_on_another_file_system_is_declined_and_nothing_is_left() {
        let root = tempfile::tempdir().expect("tempdir");
        let Ok(other) = tempfile::tempdir_in("/dev/shm") else {
            eprintln!("skipped: no /dev/shm to stand for another file system");
            return;
        };
        let device = |p: &Path| std::fs::metadata(p).expect("metadata").dev();
        if device(root.path()) == device(other.path()) {
            eprintln!("skipped: /dev/shm is on the temporary directory's file system");
            return;
        }
        let staged = path(root.path());
        let done = write(other.path(), &staged, b"new\n", None, Durability::None);
        assert!(!done.expect("declined, not failed"));
        assert!(!staged.exists());
        assert_eq!(std::fs::read_dir(other.path()).expect("list").count(), 0);
    }
}

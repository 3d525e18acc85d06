//! The commit journal: which files a multi-file commit is replacing and where their temporary
//! files and backups are, so that the next [`Workspace::open`](crate::Workspace::open) after a
//! crash can finish or undo it.
//!
//! It is a small text file at `<root>/.hunkloom-journal`, replaced atomically (written to
//! `.hunkloom-journal.tmp`, flushed, renamed, directory flushed):
//!
//! ```text
//! hunkloom-journal 1
//! state prepare|apply|done
//! w <target> <temp> <backup or ->     a file written (created if it has no backup)
//! r <target> - <backup>               a file removed
//! ```
//!
//! Paths are relative to the root, as the hexadecimal bytes of the path (so any name survives).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::durability::Durability;

/// The journal's file name at the workspace root.
pub(crate) const JOURNAL: &str = ".hunkloom-journal";
/// The name it is written under before the rename.
pub(crate) const JOURNAL_TEMP: &str = ".hunkloom-journal.tmp";

/// How far a commit got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// Temporary files and backups are being made; no target has changed.
    Prepare,
    /// Targets are being replaced; recovery rolls every one back.
    Apply,
    /// Every target is replaced; recovery only removes the backups.
    Done,
}

impl State {
    fn as_str(self) -> &'static str {
        match self {
            State::Prepare => "prepare",
            State::Apply => "apply",
            State::Done => "done",
        }
    }
}

/// One file of a commit, with absolute paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The file being written or removed.
    pub(crate) target: PathBuf,
    /// The new content, ready to be renamed over `target` (`None`: `target` is removed).
    pub(crate) temp: Option<PathBuf>,
    /// The old content, kept until the commit is done (`None`: `target` did not exist).
    pub(crate) backup: Option<PathBuf>,
}

/// The journal's text.
pub(crate) fn render(root: &Path, state: State, entries: &[Entry]) -> String {
    let mut out = format!("hunkloom-journal 1\nstate {}\n", state.as_str());
    for e in entries {
        let path = |p: &Option<PathBuf>| p.as_deref().map_or("-".to_owned(), |p| hex(root, p));
        let kind = if e.temp.is_some() { 'w' } else { 'r' };
        let _ = writeln!(
            out,
            "{kind} {} {} {}",
            hex(root, &e.target),
            path(&e.temp),
            path(&e.backup)
        );
    }
    out
}

/// Parses a journal's text (`None` if it is not one).
pub(crate) fn parse(root: &Path, text: &str) -> Option<(State, Vec<Entry>)> {
    let mut lines = text.lines();
    if lines.next()? != "hunkloom-journal 1" {
        return None;
    }
    let state = match lines.next()?.strip_prefix("state ")? {
        "prepare" => State::Prepare,
        "apply" => State::Apply,
        "done" => State::Done,
        _ => return None,
    };
    let mut entries = Vec::new();
    for line in lines {
        let mut parts = line.split(' ');
        let kind = parts.next()?;
        let target = unhex(root, parts.next()?)?;
        let optional = |s: &str| {
            if s == "-" {
                Some(None)
            } else {
                unhex(root, s).map(Some)
            }
        };
        let temp = optional(parts.next()?)?;
        let backup = optional(parts.next()?)?;
        if parts.next().is_some() || (kind == "w") != temp.is_some() {
            return None;
        }
        entries.push(Entry {
            target,
            temp,
            backup,
        });
    }
    Some((state, entries))
}

/// Writes the journal atomically, and flushes it and the root directory when durable.
pub(crate) fn write(root: &Path, text: &str, durability: Durability) -> std::io::Result<()> {
    let temp = root.join(JOURNAL_TEMP);
    let mut file = std::fs::File::create(&temp)?;
    file.write_all(text.as_bytes())?;
    durability.flush_file(&file)?;
    drop(file);
    std::fs::rename(&temp, root.join(JOURNAL))?;
    durability.flush_dir(root)
}

/// Writes the journal in place, in one write, without flushing anything: the record of a
/// one-file commit, whose only job is to let the next recovery remove a temporary file a
/// process that died mid-commit left (the file itself is old or new either way, so a power cut
/// losing the record costs at most that stray file, never data). A process that dies cannot
/// leave it half written; a power cut can leave it empty, which recovery takes as no journal.
/// (No temporary name and rename: a tenth of a small file's commit.)
pub(crate) fn write_unflushed(root: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(root.join(JOURNAL), text)
}

/// Flushes a directory's entries (renames, creations, removals) to disk: the rollback and the
/// recovery always do.
pub(crate) fn sync_dir(dir: &Path) -> std::io::Result<()> {
    Durability::Full.flush_dir(dir)
}

fn hex(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let bytes = rel.as_os_str().as_encoded_bytes();
    let mut out = String::with_capacity(2 * bytes.len());
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

fn unhex(root: &Path, s: &str) -> Option<PathBuf> {
    if !s.len().is_multiple_of(2) || s.is_empty() {
        return None;
    }
    let bytes = (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    Some(root.join(os_path(bytes)?))
}

#[cfg(unix)]
fn os_path(bytes: Vec<u8>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn os_path(bytes: Vec<u8>) -> Option<PathBuf> {
    String::from_utf8(bytes).ok().map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn journal_round_trips() {
        let root = Path::new("/r");
        let entries = vec![
            Entry {
                target: root.join("a b\nc"),
                temp: Some(root.join(".a.tmp")),
                backup: None,
            },
            Entry {
                target: root.join("d/e"),
                temp: None,
                backup: Some(root.join("d/.e.bak")),
            },
        ];
        let text = render(root, State::Apply, &entries);
        assert_eq!(parse(root, &text), Some((State::Apply, entries)));
        assert_eq!(parse(root, "garbage"), None);
    }
}

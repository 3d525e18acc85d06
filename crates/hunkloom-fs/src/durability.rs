//! [`Durability`]: whether a commit waits for the disk.

use std::path::Path;

/// Whether a commit flushes what it writes to the disk before it returns.
///
/// Either way a commit is atomic (a reader or a crashed process sees every file old or every
/// file new); durability is about a power cut or an operating-system crash right after it.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Durability {
    /// Every written file, journal and directory is flushed (`fsync`) before the commit
    /// returns: a commit that returned survives a power cut. The default.
    #[default]
    Full,
    /// Nothing is flushed: the operating system writes when it will. For scratch trees, tests
    /// and benchmarks, where a power cut may lose the last commits (never tear a file).
    None,
}

hunkloom::names!(
    Durability {
        Full => "full",
        None => "none",
    },
    parse: InvalidInput,
    "durability"
);

impl Durability {
    /// Flushes `file` when durable.
    pub(crate) fn flush_file(self, file: &std::fs::File) -> std::io::Result<()> {
        match self {
            Durability::Full => file.sync_all(),
            Durability::None => Ok(()),
        }
    }

    /// Flushes a directory's entries (renames, creations, removals) when durable. A no-op where
    /// directories cannot be opened (Windows), whose renames are flushed with the file.
    pub(crate) fn flush_dir(self, dir: &Path) -> std::io::Result<()> {
        #[cfg(unix)]
        if self == Durability::Full {
            return std::fs::File::open(dir)?.sync_all();
        }
        let _ = dir;
        Ok(())
    }
}

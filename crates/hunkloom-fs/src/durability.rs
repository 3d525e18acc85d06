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

    /// Fills a commit's new `file` (made however the system allows): writes `bytes`, gives it
    /// `permissions` (an existing file's; `None`: what it was made with) and flushes it when
    /// durable.
    pub(crate) fn fill(
        self,
        file: &mut std::fs::File,
        bytes: &[u8],
        permissions: Option<&std::fs::Permissions>,
    ) -> std::io::Result<()> {
        use std::io::Write as _;
        file.write_all(bytes)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions.clone())?;
        }
        self.flush_file(file)
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

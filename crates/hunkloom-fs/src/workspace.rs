//! [`Workspace`]: the entry point — paths, reads, edits, commits and undo.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use hunkloom::lazy::{Language, LazyOptions};
use hunkloom::ops::{self, Convention, Guards, Normalization, damage};
use hunkloom::patch::v4a::{self, V4aMode};
use hunkloom::{ApplyOptions, Dialect, Error, ErrorKind, Result};

use crate::change::{Base, Change, ChangeKind, EditOutcome, Op, Report};
use crate::commit::{self, FileOp, Stop};
use crate::document::{self, Encoding, Legacy, LegacyEncoding};
use crate::durability::Durability;
use crate::errors;
use crate::ignore::IgnoreRules;
use crate::journal;
use crate::lock;
use crate::merge;
use crate::paths;
use crate::protect::Protected;
use crate::reading::{RegularFile, read_regular};
use crate::staged;
use crate::tracking::{Fingerprint, ReadRecord, Tracker};
use crate::turns::{self, Turn};
use crate::undo::{UndoEntry, UndoHistory};

/// Settings of a [`Workspace`].
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceOptions {
    /// The ignore file's name at the root, in gitignore syntax (default `.hunkloomignore`;
    /// e.g. `.clineignore`). An empty name means no ignore file.
    pub ignore_file: String,
    /// Files larger than this many bytes are refused before they are read (`file_too_large`;
    /// default 1 GiB).
    pub max_file_size: u64,
    /// How many edits per file [`Workspace::undo`] can take back (default 5; 0 keeps none).
    pub undo_depth: usize,
    /// The guards of the edits (default [`Guards::NATIVE`]): with
    /// [`Guards::omission_placeholders`], a whole-file write ([`Op::Write`]) of an existing file
    /// and a `str_replace` whose new text elides code with a placeholder line (`// ... existing
    /// code ...`) are refused with `omission_placeholder` — except that with
    /// [`Guards::lazy_merge`] such a write is merged into the file as a lazy edit when that is
    /// certain ([`Report::Lazy`]). ([`Op::SetText`], the content a
    /// multi-file patch computed, and diffs, which run the `native` dialect's own guard, are
    /// not affected.)
    pub guards: Guards,
    /// Up to how many bytes of each file read (or written) here are kept, so that an edit of a
    /// file that changed since can be merged around the changes (default 4 MiB; 0 keeps none).
    /// A `str_replace`, `insert`, diff or patch of a file that changed since it was read is
    /// then computed against the text that was read and applied to the file as it is now if
    /// the lines it changes, and the lines next to them, are unchanged there
    /// ([`EditOutcome::external_changes`] says where the file had changed); otherwise, and for
    /// a larger file (only its hash is kept), it is refused as `stale_file`.
    pub max_kept_read: u64,
    /// How long a call waits for its turn (default 5 s): for another call editing the same
    /// file in this process, or for another commit in the same root in any process. Past it
    /// the call fails with `lock_timeout` and writes nothing.
    pub lock_timeout: Duration,
    /// Globs (gitignore syntax, relative to the root, e.g. `.env*`, `secrets/**`) of paths
    /// that can be read but never written (`path_protected`), besides the defaults.
    pub protect: Vec<String>,
    /// Whether the default protected paths apply (default true): anything inside `.git`,
    /// `.hg`, `.svn` or `.jj`, and the ignore file. Setting it false is the explicit way to let
    /// edits reach them.
    pub protect_defaults: bool,
    /// Whether files in a legacy encoding (windows-125x, Latin-1, Shift_JIS, GB18030, …) are
    /// detected, edited as text and written back in their encoding (default true; see
    /// [`Encoding`]). When false they are refused as `unsupported_encoding`.
    pub legacy_encodings: bool,
    /// Whether a commit waits for the disk (default [`Durability::Full`]: every file and
    /// directory flushed before it returns; [`Durability::None`] for scratch trees and tests).
    pub durability: Durability,
}

impl Default for WorkspaceOptions {
    fn default() -> Self {
        WorkspaceOptions {
            ignore_file: ".hunkloomignore".to_owned(),
            max_file_size: 1 << 30,
            undo_depth: 5,
            guards: Guards::NATIVE,
            max_kept_read: 4 << 20,
            lock_timeout: Duration::from_secs(5),
            protect: Vec::new(),
            protect_defaults: true,
            legacy_encodings: true,
            durability: Durability::Full,
        }
    }
}

impl WorkspaceOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the ignore file's name.
    pub fn ignore_file(mut self, name: impl Into<String>) -> Self {
        self.ignore_file = name.into();
        self
    }

    /// Sets the size limit in bytes.
    pub fn max_file_size(mut self, bytes: u64) -> Self {
        self.max_file_size = bytes;
        self
    }

    /// Sets the undo depth per file.
    pub fn undo_depth(mut self, depth: usize) -> Self {
        self.undo_depth = depth;
        self
    }

    /// Sets the [`durability`](Self::durability) of commits.
    pub fn durability(mut self, durability: Durability) -> Self {
        self.durability = durability;
        self
    }

    /// Sets the guards of the edits.
    pub fn guards(mut self, guards: Guards) -> Self {
        self.guards = guards;
        self
    }

    /// Sets up to how many bytes of each file read are kept for merging (0: none).
    pub fn max_kept_read(mut self, bytes: u64) -> Self {
        self.max_kept_read = bytes;
        self
    }

    /// Sets whether legacy encodings are detected and kept (see
    /// [`legacy_encodings`](WorkspaceOptions::legacy_encodings)).
    pub fn legacy_encodings(mut self, detect: bool) -> Self {
        self.legacy_encodings = detect;
        self
    }

    /// Adds globs of protected paths (see [`protect`](WorkspaceOptions::protect)).
    pub fn protect<I, S>(mut self, globs: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.protect.extend(globs.into_iter().map(Into::into));
        self
    }

    /// Turns the default protected paths on or off (see
    /// [`protect_defaults`](WorkspaceOptions::protect_defaults)).
    pub fn protect_defaults(mut self, on: bool) -> Self {
        self.protect_defaults = on;
        self
    }

    /// Sets how long a call waits for its turn before failing with `lock_timeout`.
    pub fn lock_timeout(mut self, limit: Duration) -> Self {
        self.lock_timeout = limit;
        self
    }
}

/// A directory whose files are read and edited safely. See the [crate documentation](crate).
///
/// Owned, `Send` and `Sync`, and every method takes `&self`: one workspace serves many threads
/// at once (parallel tool calls, subagents, a binding's callers). Calls on different files run
/// in parallel; calls that edit the same file take turns (each waits up to
/// [`WorkspaceOptions::lock_timeout`], then fails with `lock_timeout`). Each edit is computed
/// on what was read here when the call started and merged into the file as the calls before it
/// left it, so parallel edits of different lines of one file all land, and of two edits of the
/// same (or adjacent) lines the first lands and the second is `stale_file`, naming the lines.
#[derive(Debug)]
pub struct Workspace {
    root: PathBuf,
    options: WorkspaceOptions,
    ignore: IgnoreRules,
    protected: Protected,
    memory: Mutex<Memory>,
    faults: Mutex<commit::Faults>,
}

/// What a workspace remembers between calls.
#[derive(Debug)]
struct Memory {
    tracker: Tracker,
    undo: UndoHistory,
    /// The legacy encoding of each file read or written here in one (see [`Legacy::Known`]).
    legacy: HashMap<PathBuf, LegacyEncoding>,
}

/// Why a commit attempt did not land.
#[derive(Debug)]
pub(crate) enum Attempt {
    /// Another writer changed a file between the plan and the commit: plan again.
    Raced(Error),
    /// Anything else: the call's answer.
    Failed(Error),
}

impl Attempt {
    /// The error to answer with when the call does not try again.
    pub(crate) fn into_error(self) -> Error {
        match self {
            Attempt::Raced(e) | Attempt::Failed(e) => e,
        }
    }
}

impl From<Error> for Attempt {
    fn from(e: Error) -> Self {
        Attempt::Failed(e)
    }
}

/// How often a call plans again when another writer keeps changing its file between its plan
/// and its commit (another process, an editor saving); past it the call is `stale_file`.
pub(crate) const RETRIES: usize = 8;

/// A file as read from disk.
#[derive(Clone, Debug)]
pub(crate) struct Loaded {
    pub(crate) encoding: Encoding,
    pub(crate) text: String,
    pub(crate) fingerprint: Fingerprint,
    pub(crate) permissions: std::fs::Permissions,
}

/// The most files the `file_not_found` suggestions look at.
const SUGGESTION_SCAN_LIMIT: usize = 20_000;

impl Workspace {
    /// Opens the directory `root` (which must exist). If a multi-file commit in it was
    /// interrupted by a crash, it is completed or rolled back first (see
    /// [Atomic commits](crate#atomic-commits)).
    ///
    /// Errors: `io_error` if `root` is not an accessible directory, or an interrupted commit
    /// cannot be settled.
    pub fn open(root: impl AsRef<Path>, options: WorkspaceOptions) -> Result<Workspace> {
        let given = root.as_ref();
        let root = std::fs::canonicalize(given).map_err(|e| errors::io("open", given, &e))?;
        if !root.is_dir() {
            return Err(errors::io(
                "open",
                given,
                &std::io::Error::other("not a directory"),
            ));
        }
        {
            let _lock = lock::RootLock::acquire(&root, options.lock_timeout)?;
            commit::recover(&root)?;
            staged::clear(&root);
        }
        let protected = Protected::new(
            &root,
            options.protect_defaults,
            &options.ignore_file,
            &options.protect,
        )?;
        Ok(Workspace {
            ignore: IgnoreRules::load(&root, &options.ignore_file),
            protected,
            memory: Mutex::new(Memory {
                tracker: Tracker::default(),
                undo: UndoHistory::new(options.undo_depth),
                legacy: HashMap::new(),
            }),
            faults: Mutex::new(commit::Faults::default()),
            root,
            options,
        })
    }

    /// The root directory (canonical: absolute, symlinks resolved).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The settings it was opened with.
    pub fn options(&self) -> &WorkspaceOptions {
        &self.options
    }

    /// The absolute path of the file `path` names (relative paths join the root), after every
    /// check a path gets: inside the root (`path_outside_root`; symlinks followed), not a UNC
    /// path (`unc_path`), not matched by the ignore file (`path_ignored`), not a notebook
    /// (`notebook_not_supported`). The file need not exist.
    pub fn resolve(&self, path: impl AsRef<Path>) -> Result<PathBuf> {
        let given = path.as_ref();
        let resolved = paths::resolve(&self.root, given)?;
        if paths::is_notebook(given) || paths::is_notebook(&resolved) {
            return Err(errors::notebook(given));
        }
        let lexical = if given.is_absolute() {
            given.to_path_buf()
        } else {
            self.root.join(given)
        };
        if self.ignore.is_ignored(&self.root, &resolved)
            || self.ignore.is_ignored(&self.root, &lexical)
            || is_internal(&resolved)
        {
            return Err(errors::ignored(given, self.ignore_name()));
        }
        Ok(resolved)
    }

    /// Reads the file: its decoded text, line endings as they are. Records its modification
    /// time, size and content hash, which [`edit`](Workspace::edit) checks against.
    ///
    /// Errors: the path checks of [`resolve`](Workspace::resolve), `file_not_found` (with up to
    /// three similar existing paths), `file_too_large`, `unsupported_encoding`, `io_error`.
    pub fn read(&self, path: impl AsRef<Path>) -> Result<String> {
        let given = path.as_ref();
        let resolved = self.resolve(given)?;
        let loaded = self
            .load(&resolved, given)?
            .ok_or_else(|| self.not_found(given))?;
        self.memory().tracker.record(
            &resolved,
            loaded.fingerprint,
            &loaded.text,
            self.options.max_kept_read,
        );
        Ok(loaded.text)
    }

    /// Reads the file like [`read`](Workspace::read) (same checks and errors) without recording
    /// it as read: for a host that shows a file's content without that counting as the model
    /// having read it, or that computes an edit itself and then plans it with
    /// [`Op::SetText`] (whose read check then still applies).
    pub fn peek(&self, path: impl AsRef<Path>) -> Result<String> {
        let given = path.as_ref();
        let resolved = self.resolve(given)?;
        let loaded = self
            .load(&resolved, given)?
            .ok_or_else(|| self.not_found(given))?;
        Ok(loaded.text)
    }

    /// Records a read of `resolved` whose text is not kept (a streamed read of a large file).
    pub(crate) fn record_read(&self, resolved: &Path, fingerprint: Fingerprint) {
        self.memory().tracker.record(resolved, fingerprint, "", 0);
    }

    /// The legacy encoding `path` was last read or written in here (see [`Encoding`]), or
    /// `None` for a file in a Unicode encoding or never read here: for a host that tells the
    /// model which encoding its edits are written in.
    pub fn legacy_encoding(&self, path: impl AsRef<Path>) -> Option<LegacyEncoding> {
        let resolved = self.resolve(path.as_ref()).ok()?;
        self.memory().legacy.get(&resolved).copied()
    }

    /// Whether `path` was read here and its content has changed since (by another program, or
    /// by a save of the user's): for a message that tells the model to read it again. False
    /// for a file never read here, unchanged, or missing.
    ///
    /// Errors: the path checks of [`resolve`](Workspace::resolve), `file_too_large`,
    /// `unsupported_encoding`, `io_error`.
    pub fn changed_since_read(&self, path: impl AsRef<Path>) -> Result<bool> {
        let given = path.as_ref();
        let resolved = self.resolve(given)?;
        let Some(seen) = self.memory().tracker.get(&resolved).map(|r| r.hash) else {
            return Ok(false);
        };
        Ok(self
            .load(&resolved, given)?
            .is_some_and(|loaded| loaded.fingerprint.hash != seen))
    }

    /// Plans `op` on `path` and commits it (see [`plan`](Workspace::plan) and
    /// [`commit`](Workspace::commit)). After it, the file counts as read in its new state.
    ///
    /// The edit is based on what was read here when the call started. It waits for the calls
    /// already editing the file, then is planned against the file as they left it (merged
    /// around their changes, see [`plan`](Workspace::plan)) and committed; if another writer
    /// (another process, an editor) changes the file between that plan and the commit, it is
    /// planned again.
    pub fn edit(&self, path: impl AsRef<Path>, op: &Op) -> Result<EditOutcome> {
        let given = path.as_ref();
        let resolved = self.resolve(given)?;
        let seen = self.memory().tracker.get(&resolved).cloned();
        let turn = turns::take(
            std::slice::from_ref(&resolved),
            self.options.lock_timeout,
            given,
        )?;
        let mut attempt = 0;
        loop {
            let change =
                self.plan_from(given, resolved.clone(), op, Seen::Recorded(seen.as_ref()))?;
            match self.commit_taken(vec![change], &turn) {
                Ok((mut done, _)) => return Ok(done.remove(0)),
                Err(Attempt::Raced(_)) if attempt < RETRIES => attempt += 1,
                Err(failed) => return Err(failed.into_error()),
            }
        }
    }

    /// [`Op::StrReplace`] on `path`.
    pub fn str_replace(
        &self,
        path: impl AsRef<Path>,
        old: &str,
        new: &str,
        replace_all: bool,
    ) -> Result<EditOutcome> {
        let op = Op::StrReplace {
            old: old.to_owned(),
            new: new.to_owned(),
            replace_all,
        };
        self.edit(path, &op)
    }

    /// [`Op::Insert`] on `path`.
    pub fn insert(
        &self,
        path: impl AsRef<Path>,
        line: usize,
        text: &str,
        convention: Convention,
    ) -> Result<EditOutcome> {
        let op = Op::Insert {
            line,
            text: text.to_owned(),
            convention,
        };
        self.edit(path, &op)
    }

    /// [`Op::Write`] on `path`: the content as given (with the guards: a write that would cut
    /// an existing file to less than half of its lines and looks cut off is refused as
    /// `suspected_truncation`).
    pub fn write(&self, path: impl AsRef<Path>, content: &str) -> Result<EditOutcome> {
        let op = Op::Write {
            content: content.to_owned(),
        };
        self.edit(path, &op)
    }

    /// [`Op::Overwrite`] on `path`: [`write`](Workspace::write) for a caller that means a
    /// shorter file, without the `suspected_truncation` check.
    pub fn overwrite(&self, path: impl AsRef<Path>, content: &str) -> Result<EditOutcome> {
        let op = Op::Overwrite {
            content: content.to_owned(),
        };
        self.edit(path, &op)
    }

    /// [`Op::V4a`] on `path`: a V4A body as the OpenAI Agents SDK applies it, updating the file
    /// ([`V4aMode::Default`]) or creating it ([`V4aMode::Create`]).
    pub fn apply_v4a(
        &self,
        path: impl AsRef<Path>,
        diff: &str,
        mode: V4aMode,
    ) -> Result<EditOutcome> {
        let op = Op::V4a {
            diff: diff.to_owned(),
            mode,
        };
        self.edit(path, &op)
    }

    /// [`Op::Diff`] on `path`.
    pub fn apply_diff(
        &self,
        path: impl AsRef<Path>,
        diff: &str,
        options: &ApplyOptions,
    ) -> Result<EditOutcome> {
        let op = Op::Diff {
            diff: diff.to_owned(),
            options: options.clone(),
        };
        self.edit(path, &op)
    }

    /// [`Op::Lazy`] on `path`: merges the lazy `snippet` into the file (the language from
    /// `language`, else from the path), or refuses it with the core's `lazy_*` codes.
    pub fn apply_lazy(
        &self,
        path: impl AsRef<Path>,
        snippet: &str,
        language: Option<Language>,
    ) -> Result<EditOutcome> {
        let op = Op::Lazy {
            snippet: snippet.to_owned(),
            language,
        };
        self.edit(path, &op)
    }

    /// Plans `op` on `path` in memory, touching nothing on disk.
    ///
    /// An existing file must have been read through this workspace (`not_read`) and must still
    /// have the content it had then (`stale_file`, by content hash) — except that a
    /// [`Op::StrReplace`], [`Op::Insert`] or [`Op::Diff`] of a file that changed since it was
    /// read (and was kept, see [`WorkspaceOptions::max_kept_read`]) is computed against the
    /// text that was read and merged into the file as it is now when the lines it changes and
    /// the lines next to them are unchanged there (the change's
    /// [`external_changes`](Change::external_changes) say where the file had changed); when
    /// they are not, it is `stale_file`, naming the lines. A missing file is created
    /// by [`Op::Write`], [`Op::SetText`], a [`Op::StrReplace`] with an empty `old`, a diff
    /// that applies to empty content, or a V4A body in create mode, without a read; any other op on it is `file_not_found`
    /// (with up to three similar existing paths). Then the op's own errors (core codes).
    pub fn plan(&self, path: impl AsRef<Path>, op: &Op) -> Result<Change> {
        let given = path.as_ref();
        let resolved = self.resolve(given)?;
        let seen = self.memory().tracker.get(&resolved).cloned();
        self.plan_from(given, resolved, op, Seen::Recorded(seen.as_ref()))
    }

    /// [`plan`](Workspace::plan) as for a call that reads the file and then edits it: the file
    /// is taken as read as it is now, and nothing is recorded. What such a call will change,
    /// for a preview while it is still arriving (the call itself reads and plans again).
    /// The errors of `plan` but `not_read` and `stale_file`.
    pub fn plan_as_read(&self, path: impl AsRef<Path>, op: &Op) -> Result<Change> {
        let given = path.as_ref();
        let resolved = self.resolve(given)?;
        self.plan_from(given, resolved, op, Seen::Now)
    }

    /// [`plan`](Workspace::plan) with `seen` as what was read here of the file (a call's
    /// snapshot, taken when it started).
    fn plan_from(
        &self,
        given: &Path,
        resolved: PathBuf,
        op: &Op,
        seen: Seen<'_>,
    ) -> Result<Change> {
        self.writable(&resolved, given)?;
        let Some(loaded) = self.load(&resolved, given)? else {
            return self.plan_create(resolved, given, op);
        };
        let mergeable = matches!(
            op,
            Op::StrReplace { .. } | Op::Insert { .. } | Op::Diff { .. } | Op::Lazy { .. }
        );
        let (text, report, external) = match read_base(seen, given, &loaded, mergeable)? {
            None => {
                let (text, report) = apply_op(&loaded.text, op, given, self.options.guards)?;
                (text, report, Vec::new())
            }
            Some(read) => {
                // An edit that does not apply to what was read is refused as before the
                // merge existed: the file changed, and the model should read it again.
                let (ours, report) = apply_op(read, op, given, self.options.guards)
                    .map_err(|_| errors::stale(given, "it was last read"))?;
                let (text, external) =
                    merge::merge(read, &ours, &loaded.text).map_err(|conflict| {
                        // The file is as this workspace last left it: another call's edit.
                        let ours = self.memory().tracker.get(&resolved).map(|r| r.hash);
                        let by = if ours == Some(loaded.fingerprint.hash) {
                            errors::Changer::AnotherEdit
                        } else {
                            errors::Changer::Elsewhere
                        };
                        errors::stale_lines(given, &conflict, by)
                    })?;
                (text, report, external)
            }
        };
        let encoding = match op {
            Op::WriteUtf8 { .. } => Encoding::Utf8,
            _ => loaded.encoding,
        };
        let bytes = document::encode(encoding, &text)
            .map_err(|c| errors::unrepresentable(given, encoding, c))?;
        Ok(Change {
            kind: ChangeKind::Update,
            path: resolved.clone(),
            shown: given.to_path_buf(),
            encoding,
            base: Some(base(resolved, given, loaded)),
            new: Some((text, bytes)),
            report,
            external,
        })
    }

    /// Plans removing `path`, which must exist and have been read (and be unchanged since).
    pub fn plan_delete(&self, path: impl AsRef<Path>) -> Result<Change> {
        let given = path.as_ref();
        let resolved = self.resolve(given)?;
        self.writable(&resolved, given)?;
        let loaded = self
            .load(&resolved, given)?
            .ok_or_else(|| self.not_found(given))?;
        self.check_read(&resolved, given, &loaded)?;
        Ok(Change {
            kind: ChangeKind::Delete,
            path: resolved.clone(),
            shown: given.to_path_buf(),
            encoding: loaded.encoding,
            base: Some(base(resolved, given, loaded)),
            new: None,
            report: Report::None,
            external: Vec::new(),
        })
    }

    /// Plans moving `from` (which must exist and have been read, and be unchanged since) to
    /// `to` (which must not exist: `file_exists`), with `op` applied to its content on the way
    /// (`None`: the content moves unchanged). The new file keeps the old one's encoding and
    /// permissions.
    pub fn plan_move(
        &self,
        from: impl AsRef<Path>,
        to: impl AsRef<Path>,
        op: Option<&Op>,
    ) -> Result<Change> {
        let (given, to_given) = (from.as_ref(), to.as_ref());
        let resolved = self.resolve(given)?;
        let destination = self.resolve(to_given)?;
        self.writable(&resolved, given)?;
        self.writable(&destination, to_given)?;
        let loaded = self
            .load(&resolved, given)?
            .ok_or_else(|| self.not_found(given))?;
        self.check_read(&resolved, given, &loaded)?;
        if destination == resolved || std::fs::symlink_metadata(&destination).is_ok() {
            return Err(errors::exists(to_given));
        }
        let (text, report) = match op {
            Some(op) => apply_op(&loaded.text, op, given, self.options.guards)?,
            None => (loaded.text.clone(), Report::None),
        };
        let bytes = document::encode(loaded.encoding, &text)
            .map_err(|c| errors::unrepresentable(given, loaded.encoding, c))?;
        Ok(Change {
            kind: ChangeKind::Move,
            path: destination,
            shown: to_given.to_path_buf(),
            encoding: loaded.encoding,
            base: Some(base(resolved, given, loaded)),
            new: Some((text, bytes)),
            report,
            external: Vec::new(),
        })
    }

    /// Commits planned changes all or none: afterwards every file is entirely old or entirely
    /// new, also if the process dies part-way (the next [`open`](Workspace::open) settles it).
    ///
    /// Each old file must still have the content it was planned against (`stale_file`), each
    /// file to create must still not exist (`file_exists`), and no path may be touched by two
    /// changes (`conflicting_changes`); nothing is written unless all of this holds. Changes to
    /// identical bytes write nothing. Afterwards each written file counts as read, in its new
    /// state, and each change can be taken back with [`undo`](Workspace::undo).
    pub fn commit(&self, changes: Vec<Change>) -> Result<Vec<EditOutcome>> {
        let turn = self.take_turns(&changes)?;
        self.commit_taken(changes, &turn)
            .map(|(outcomes, _)| outcomes)
            .map_err(Attempt::into_error)
    }

    /// Takes the turns of every file `changes` touch (see [`turns`]).
    pub(crate) fn take_turns(&self, changes: &[Change]) -> Result<Turn<'static>> {
        let paths: Vec<PathBuf> = changes
            .iter()
            .flat_map(|c| [Some(&c.path), c.base.as_ref().map(|b| &b.path)])
            .flatten()
            .cloned()
            .collect();
        let shown = changes.first().map_or(self.root.as_path(), |c| &c.shown);
        turns::take(&paths, self.options.lock_timeout, shown)
    }

    /// [`commit`](Workspace::commit), the caller holding the turns of the changes' files:
    /// [`Attempt::Raced`] when another writer changed one of them since it was planned. Besides
    /// each change's outcome, the decoded text each replaced (its base; moved, not copied).
    pub(crate) fn commit_taken(
        &self,
        changes: Vec<Change>,
        _turn: &Turn<'_>,
    ) -> std::result::Result<(Vec<EditOutcome>, Vec<Option<String>>), Attempt> {
        let mut seen = HashSet::new();
        for change in &changes {
            let paths = [Some(&change.path), change.base.as_ref().map(|b| &b.path)];
            for path in paths.into_iter().flatten().collect::<HashSet<_>>() {
                if !path.starts_with(&self.root) || !seen.insert(path.clone()) {
                    return Err(errors::conflicting(&change.shown).into());
                }
            }
        }
        // Every file the commit writes or removes, whatever planned it (a patch, an op).
        for change in &changes {
            self.writable(&change.path, &change.shown)?;
            if let Some(base) = &change.base {
                self.writable(&base.path, &base.shown)?;
            }
        }
        // Each change's bytes move to the file op that writes them (the outcome keeps the
        // text); whether a change is a no-op is decided once, before they move.
        let mut changes = changes;
        let noops: Vec<bool> = changes.iter().map(Change::is_noop).collect();
        let mut file_ops = Vec::new();
        for (change, _) in changes.iter_mut().zip(&noops).filter(|(_, noop)| !**noop) {
            let base = change.base.as_ref();
            if let Some((_, bytes)) = &mut change.new {
                let in_place = change.kind == ChangeKind::Update;
                file_ops.push(FileOp {
                    target: change.path.clone(),
                    bytes: Some(std::mem::take(bytes)),
                    expected: base.filter(|_| in_place).map(|b| b.hash),
                    permissions: base.map(|b| b.permissions.clone()),
                    shown: change.shown.clone(),
                });
            }
            if let Some(base) = base.filter(|_| change.kind != ChangeKind::Update) {
                file_ops.push(FileOp {
                    target: base.path.clone(),
                    bytes: None,
                    expected: Some(base.hash),
                    permissions: None,
                    shown: base.shown.clone(),
                });
            }
        }
        let lock = lock::RootLock::acquire(&self.root, self.options.lock_timeout)?;
        commit::recover(&self.root)?;
        // A file changed since the plan: by another process or an editor (this process's
        // calls wait for their turn), so planning again sees it.
        let priors = commit::verify(&file_ops).map_err(|e| match e.kind() {
            hunkloom::ErrorKind::StaleFile | hunkloom::ErrorKind::FileExists => Attempt::Raced(e),
            _ => Attempt::Failed(e),
        })?;
        self.run_commit(&file_ops, &priors, &lock)?;
        let mut memory = self.memory();
        for (op, prior) in file_ops.iter().zip(priors) {
            self.after_commit(&mut memory, op, prior.map(|p| (p.bytes, p.permissions)));
        }
        Ok(changes
            .into_iter()
            .zip(noops)
            .map(|(mut change, noop)| {
                let base = change.base.take().map(|b| b.text);
                (EditOutcome::of(change, !noop), base)
            })
            .unzip())
    }

    /// Takes back the last edit of `path` made through this workspace, atomically: restores
    /// the content it replaced (re-creating a deleted file, removing a created one).
    ///
    /// Errors: `nothing_to_undo`; `stale_file` if the file changed since that edit (then nothing
    /// is undone); `io_error`; `lock_timeout`.
    pub fn undo(&self, path: impl AsRef<Path>) -> Result<EditOutcome> {
        let given = path.as_ref();
        let resolved = self.resolve(given)?;
        self.writable(&resolved, given)?;
        let _turn = turns::take(
            std::slice::from_ref(&resolved),
            self.options.lock_timeout,
            given,
        )?;
        let entry = self
            .memory()
            .undo
            .last(&resolved)
            .cloned()
            .ok_or_else(|| errors::nothing_to_undo(given))?;
        let op = FileOp {
            target: resolved.clone(),
            bytes: entry.before.clone(),
            expected: entry.after,
            permissions: entry.permissions.clone(),
            shown: given.to_path_buf(),
        };
        let stale = |e: Error| match e.kind() {
            hunkloom::ErrorKind::FileExists | hunkloom::ErrorKind::StaleFile => {
                errors::stale(given, "that edit")
            }
            _ => e,
        };
        let lock = lock::RootLock::acquire(&self.root, self.options.lock_timeout)?;
        commit::recover(&self.root)?;
        let priors = commit::verify(std::slice::from_ref(&op)).map_err(stale)?;
        self.run_commit(std::slice::from_ref(&op), &priors, &lock)
            .map_err(|a| stale(a.into_error()))?;
        drop(lock);
        let mut memory = self.memory();
        memory.undo.pop(&resolved);
        let (kind, new_content, encoding) = match &entry.before {
            Some(bytes) => {
                let rule = match memory.legacy.get(&resolved) {
                    Some(&known) => Legacy::Known(known),
                    None => Legacy::Detect,
                };
                let (encoding, text) = document::decode(bytes, rule).unwrap_or_default();
                memory.tracker.record(
                    &resolved,
                    Fingerprint::of(bytes, modified(&resolved)),
                    &text,
                    self.options.max_kept_read,
                );
                let kind = if entry.after.is_some() {
                    ChangeKind::Update
                } else {
                    ChangeKind::Create
                };
                (kind, Some(text), encoding)
            }
            None => {
                memory.tracker.forget(&resolved);
                (ChangeKind::Delete, None, Encoding::Utf8)
            }
        };
        Ok(EditOutcome {
            path: resolved,
            kind,
            changed: true,
            new_content,
            encoding,
            report: Report::None,
            external_changes: Vec::new(),
        })
    }

    /// Test-only: makes the next commit fail (`FaultMode::Error`) or stop dead
    /// (`FaultMode::Crash`) after its step number `after_step` (0-based).
    #[cfg(feature = "fault-injection")]
    #[doc(hidden)]
    pub fn inject_fault(&self, after_step: usize, mode: commit::FaultMode) {
        let mut faults = self.faults();
        faults.plan = Some((after_step, mode));
        faults.fired = false;
    }

    /// Test-only: one-file commits take the journaled path even where the root's staging name
    /// works (what they do on other systems and file systems), so tests cover both.
    #[cfg(feature = "fault-injection")]
    #[doc(hidden)]
    pub fn journal_single_commits(&self) {
        self.faults().journal_single = true;
    }

    /// Test-only: whether the last commit hit the injected fault.
    #[cfg(feature = "fault-injection")]
    #[doc(hidden)]
    pub fn fault_fired(&self) -> bool {
        self.faults().fired
    }

    fn faults(&self) -> MutexGuard<'_, commit::Faults> {
        self.faults.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn run_commit(
        &self,
        ops: &[FileOp],
        priors: &[Option<commit::Prior>],
        lock: &lock::RootLock,
    ) -> std::result::Result<(), Attempt> {
        let durability = self.options.durability;
        let mut faults = self.faults();
        match commit::commit(&self.root, ops, priors, durability, &mut faults, lock) {
            Ok(()) => Ok(()),
            Err(Stop::Failed(e)) => Err(Attempt::Failed(e)),
            Err(Stop::Raced(e)) => Err(Attempt::Raced(e)),
            Err(Stop::Crashed) => Err(Attempt::Failed(errors::io(
                "commit in",
                &self.root,
                &std::io::Error::other("simulated crash (fault injection)"),
            ))),
        }
    }

    /// Updates read tracking and undo history after `op` was committed.
    fn after_commit(
        &self,
        memory: &mut Memory,
        op: &FileOp,
        prior: Option<(Vec<u8>, std::fs::Permissions)>,
    ) {
        let mut after = None;
        match &op.bytes {
            Some(bytes) => {
                let keep = self.options.max_kept_read;
                let rule = match memory.legacy.get(&op.target) {
                    Some(&known) => Legacy::Known(known),
                    None => Legacy::Refuse,
                };
                let text = if bytes.len() as u64 <= keep {
                    document::decode_borrowed(bytes, rule)
                } else {
                    None
                };
                let fingerprint = Fingerprint::of(bytes, modified(&op.target));
                after = Some(fingerprint.hash);
                memory.tracker.record(
                    &op.target,
                    fingerprint,
                    text.as_deref().unwrap_or_default(),
                    if text.is_some() { keep } else { 0 },
                );
            }
            None => memory.tracker.forget(&op.target),
        }
        let (before, permissions) = match prior {
            Some((bytes, permissions)) => (Some(bytes), Some(permissions)),
            None => (None, None),
        };
        memory.undo.push(
            &op.target,
            UndoEntry {
                before,
                permissions,
                after,
            },
        );
    }

    fn plan_create(&self, resolved: PathBuf, given: &Path, op: &Op) -> Result<Change> {
        let (text, report) = match op {
            Op::Write { content }
            | Op::Overwrite { content }
            | Op::WriteUtf8 { content }
            | Op::Restore { content } => (content.clone(), Report::None),
            Op::SetText { text } => (document::normalize(text).into_owned(), Report::None),
            Op::StrReplace {
                old,
                new,
                replace_all,
            } if old.is_empty() => {
                let edit = ops::str_replace(
                    None,
                    "",
                    &document::normalize(new),
                    *replace_all,
                    shown(given).as_deref(),
                )?;
                (edit.new_content.clone(), Report::Edit(edit))
            }
            Op::Diff { diff, options } => match hunkloom::apply_diff(diff, "", options) {
                Ok(outcome) if !outcome.new_content.is_empty() => {
                    (outcome.new_content.clone(), Report::Diff(outcome))
                }
                _ => return Err(self.not_found(given)),
            },
            Op::V4a {
                diff,
                mode: V4aMode::Create,
            } => {
                let outcome = v4a::apply_v4a_outcome("", diff, V4aMode::Create)?;
                (outcome.new_content.clone(), Report::V4a(outcome))
            }
            _ => return Err(self.not_found(given)),
        };
        let bytes = text.as_bytes().to_vec();
        Ok(Change {
            kind: ChangeKind::Create,
            path: resolved,
            shown: given.to_path_buf(),
            encoding: Encoding::Utf8,
            base: None,
            new: Some((text, bytes)),
            report,
            external: Vec::new(),
        })
    }

    /// Reads and decodes the file (`None` if it does not exist), size limit first.
    pub(crate) fn load(&self, resolved: &Path, given: &Path) -> Result<Option<Loaded>> {
        // A FIFO, socket, device or directory is refused on the opened handle (see
        // [`reading`](crate::reading)): reading it could block forever or never end.
        let Some(RegularFile { bytes, meta }) =
            read_regular(resolved, given, self.options.max_file_size)?
        else {
            return Ok(None);
        };
        let fingerprint = Fingerprint::of(&bytes, meta.modified().ok());
        // Plain UTF-8 (the usual file) becomes the text without a copy. Other Unicode next,
        // without the workspace's lock (parallel calls would contend for it); the memory of
        // legacy encodings only for a file in none.
        let decoded = match document::decode_plain_utf8(bytes) {
            Ok(text) => Some((Encoding::Utf8, text)),
            Err(bytes) => match document::decode(&bytes, Legacy::Refuse) {
                Some(decoded) => Some(decoded),
                None if self.options.legacy_encodings => {
                    document::decode(&bytes, self.legacy_rule(resolved))
                }
                None => None,
            },
        };
        let (encoding, text) = decoded.ok_or_else(|| errors::unsupported_encoding(given))?;
        if let Encoding::Legacy(legacy) = encoding {
            self.memory().legacy.insert(resolved.to_path_buf(), legacy);
        }
        Ok(Some(Loaded {
            encoding,
            text,
            fingerprint,
            permissions: meta.permissions(),
        }))
    }

    /// `not_read` or `stale_file` unless the file was read here and is unchanged since.
    fn check_read(&self, resolved: &Path, given: &Path, loaded: &Loaded) -> Result<()> {
        read_base(
            Seen::Recorded(self.memory().tracker.get(resolved)),
            given,
            loaded,
            false,
        )
        .map(drop)
    }

    /// The rule of [`plan_patch`](Workspace::plan_patch), with `reads` as what was read here:
    /// a file never read here, or unchanged since it was read, passes (`None`); one that
    /// changed since gives the text that was read, to plan against and merge, if it was kept,
    /// and is `stale_file` otherwise.
    pub(crate) fn patch_base(
        &self,
        reads: &Tracker,
        resolved: &Path,
        given: &Path,
        loaded: &Loaded,
    ) -> Result<Option<String>> {
        match reads.get(resolved) {
            Some(read) if read.hash != loaded.fingerprint.hash => match &read.text {
                Some(text) => Ok(Some(text.to_string())),
                None => Err(errors::stale(given, "it was last read")),
            },
            _ => Ok(None),
        }
    }

    /// A snapshot of what was read here (cheap: the texts are shared).
    pub(crate) fn reads(&self) -> Tracker {
        self.memory().tracker.clone()
    }

    /// What the workspace remembers; nothing panics while holding it, so a poisoned lock
    /// still holds sound records.
    /// How `resolved` is decoded if it is in no Unicode encoding.
    fn legacy_rule(&self, resolved: &Path) -> Legacy {
        if !self.options.legacy_encodings {
            return Legacy::Refuse;
        }
        match self.memory().legacy.get(resolved) {
            Some(&known) => Legacy::Known(known),
            None => Legacy::Detect,
        }
    }

    fn memory(&self) -> MutexGuard<'_, Memory> {
        self.memory.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `path_protected` unless `resolved` may be written (see [`protect`](crate::protect)).
    pub(crate) fn writable(&self, resolved: &Path, given: &Path) -> Result<()> {
        self.protected.check(&self.root, resolved, given)
    }

    fn ignore_name(&self) -> &str {
        &self.options.ignore_file
    }

    /// `file_not_found` for `given`, with up to three similar existing files.
    pub(crate) fn not_found(&self, given: &Path) -> Error {
        errors::not_found(given, &self.similar_paths(given))
    }

    /// Up to three existing files whose paths are close to `given` (root-relative, `/`).
    pub(crate) fn similar_paths(&self, given: &Path) -> Vec<String> {
        let lexical = if given.is_absolute() {
            given.to_path_buf()
        } else {
            self.root.join(given)
        };
        let wanted = paths::relative(&self.root, &lexical);
        let mut walker = ::ignore::WalkBuilder::new(&self.root);
        walker
            .standard_filters(false)
            .filter_entry(|e| e.file_name() != ".git");
        if !self.options.ignore_file.is_empty() {
            walker.add_custom_ignore_filename(&self.options.ignore_file);
        }
        let mut found: Vec<(usize, String)> = walker
            .build()
            .filter_map(std::result::Result::ok)
            .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
            .take(SUGGESTION_SCAN_LIMIT)
            .filter(|e| !is_internal(e.path()))
            .filter_map(|e| {
                let rel = paths::relative(&self.root, e.path());
                paths::closeness(&wanted, &rel).map(|score| (score, rel))
            })
            .collect();
        found.sort();
        found.into_iter().take(3).map(|(_, p)| p).collect()
    }
}

/// For an op that can be merged (`mergeable`): `not_read` unless the file was read here
/// (`seen`); `None` if it is unchanged since; the text that was read if it changed and that
/// text was kept; `stale_file` otherwise. For any other op: `not_read` or `stale_file` unless
/// it is unchanged since.
fn read_base<'a>(
    seen: Seen<'a>,
    given: &Path,
    loaded: &Loaded,
    mergeable: bool,
) -> Result<Option<&'a str>> {
    let seen = match seen {
        Seen::Now => return Ok(None),
        Seen::Recorded(seen) => seen,
    };
    match seen {
        None => Err(errors::not_read(given)),
        Some(read) if read.hash == loaded.fingerprint.hash => Ok(None),
        Some(ReadRecord {
            text: Some(text), ..
        }) if mergeable => Ok(Some(text)),
        Some(_) => Err(errors::stale(given, "it was last read")),
    }
}

/// What a plan takes as read of the file.
#[derive(Clone, Copy, Debug)]
enum Seen<'a> {
    /// What this workspace recorded (`None`: never read here).
    Recorded(Option<&'a ReadRecord>),
    /// The file as it is now (a call that reads it first).
    Now,
}

/// The `Base` of a change from a loaded file.
pub(crate) fn base(resolved: PathBuf, given: &Path, loaded: Loaded) -> Base {
    Base {
        path: resolved,
        shown: given.to_path_buf(),
        text: loaded.text,
        hash: loaded.fingerprint.hash,
        permissions: loaded.permissions,
    }
}

/// Applies `op` to a file's decoded `text` under `guards`: the new decoded text and the report.
fn apply_op(text: &str, op: &Op, given: &Path, guards: Guards) -> Result<(String, Report)> {
    let path = shown(given);
    let in_view = |f: &dyn Fn(&str) -> Result<(String, Report)>| {
        let (view, report) = f(&document::normalize(text))?;
        Ok((document::restore_endings(text, view), report))
    };
    match op {
        Op::WriteUtf8 { content } | Op::Restore { content } => Ok((content.clone(), Report::None)),
        Op::Write { content } | Op::Overwrite { content } => {
            let shown_path = path.as_deref().unwrap_or("the file");
            let (content, _) = guards.screen(text, content, "the new content")?;
            if guards.damaged_calls && matches!(op, Op::Write { .. }) {
                damage::suspected_truncation(
                    &document::normalize(text),
                    &document::normalize(&content),
                    shown_path,
                )?;
            }
            match guards.guard_write(text, &content, path.as_deref())? {
                std::borrow::Cow::Borrowed(_) => Ok((content.into_owned(), Report::None)),
                std::borrow::Cow::Owned(merged) => Ok((merged, Report::Lazy)),
            }
        }
        Op::Lazy { snippet, language } => in_view(&|view| {
            let mut options = LazyOptions::new();
            options.path.clone_from(&path);
            options.language = *language;
            let merged = hunkloom::apply_lazy(&document::normalize(snippet), view, &options)?;
            Ok((merged, Report::Lazy))
        }),
        Op::SetText { text: new } => {
            in_view(&|_| Ok((document::normalize(new).into_owned(), Report::None)))
        }
        Op::StrReplace {
            old,
            new,
            replace_all,
        } => in_view(&|view| {
            let (old, new) = (document::normalize(old), document::normalize(new));
            let (new, stripped) = guards.screen(&old, &new, "new_string")?;
            let mut options = ops::StrReplaceOptions::new()
                .replace_all(*replace_all)
                .guards(guards);
            options.path.clone_from(&path);
            let mut edit = match ops::str_replace_with(Some(view), &old, &new, &options) {
                Ok(edit) => edit,
                Err(e) if e.kind() == ErrorKind::NotFound && guards.damaged_calls => {
                    damage::replayed_str_replace(view, &old, &new).ok_or(e)?
                }
                Err(e) => return Err(e),
            };
            if stripped {
                edit.normalizations.push(Normalization::ViewPrefixes);
            }
            Ok((edit.new_content.clone(), Report::Edit(edit)))
        }),
        Op::Insert {
            line,
            text: lines,
            convention,
        } => in_view(&|view| {
            let lines = document::normalize(lines);
            let (lines, stripped) = guards.screen(view, &lines, "the inserted text")?;
            let mut edit = ops::insert(view, *line, &lines, *convention)?;
            if guards.damaged_calls
                && let Some(replay) = damage::replayed_insert(view, &edit)
            {
                edit = replay;
            } else if stripped {
                edit.normalizations.push(Normalization::ViewPrefixes);
            }
            Ok((edit.new_content.clone(), Report::Edit(edit)))
        }),
        Op::Diff { diff, options } if options.one_shot_dialect() == Dialect::Native => {
            in_view(&|view| {
                let outcome = hunkloom::apply_diff(diff, view, options)?;
                Ok((outcome.new_content.clone(), Report::Diff(outcome)))
            })
        }
        Op::Diff { diff, options } => {
            let outcome = hunkloom::apply_diff(diff, text, options)?;
            Ok((outcome.new_content.clone(), Report::Diff(outcome)))
        }
        Op::V4a {
            mode: V4aMode::Create,
            ..
        } => Err(errors::exists(given)),
        Op::V4a { diff, mode } => {
            let outcome = v4a::apply_v4a_outcome(text, diff, *mode)?;
            Ok((outcome.new_content.clone(), Report::V4a(outcome)))
        }
    }
}

/// The path as a string for the core's path-dependent rules (Markdown, `.xml`).
fn shown(given: &Path) -> Option<String> {
    given.to_str().map(str::to_owned)
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Whether `path` is one of the commit machinery's own files (journal, temporary, backup).
fn is_internal(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    name == journal::JOURNAL
        || name == journal::JOURNAL_TEMP
        || (name.starts_with('.')
            && (name.ends_with(".hunkloom-tmp") || name.ends_with(".hunkloom-bak")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workspace_crosses_threads() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Workspace>();
        check::<Change>();
        check::<EditOutcome>();
        check::<Op>();
        check::<WorkspaceOptions>();
    }
}

//! The public vocabulary of edits: [`Op`] (what to do to one file), [`Change`] (an edit planned
//! in memory, ready to commit) and [`EditOutcome`] (what a committed change did).

use std::path::{Path, PathBuf};

use hunkloom::lazy::Language;
use hunkloom::ops::{Convention, Edit};
use hunkloom::patch::v4a::{V4aMode, V4aOutcome};
use hunkloom::{ApplyOptions, Outcome};

use crate::document::Encoding;
use crate::merge::ExternalChange;

/// An edit of one file: any of the core's operations.
///
/// Owned data only, so a binding builds one from its arguments and hands it over.
///
/// | op | sees | writes |
/// |---|---|---|
/// | [`StrReplace`](Op::StrReplace), [`Insert`](Op::Insert), [`SetText`](Op::SetText) | the `\n` view | lines restored to the file's endings |
/// | [`Diff`](Op::Diff) in [`Dialect::Native`](hunkloom::Dialect::Native) | the `\n` view | lines restored to the file's endings |
/// | [`Diff`](Op::Diff) in a Cline dialect | the decoded text unchanged | the result as is (Cline's bytes) |
/// | [`V4a`](Op::V4a) | the decoded text unchanged | the result as is (the reference's bytes) |
/// | [`Write`](Op::Write) | — | the content as given |
/// | [`Lazy`](Op::Lazy) | the `\n` view | lines restored to the file's endings |
/// | [`Write`](Op::Write) | — | the content as given (or, when the omission guard refuses it, merged as a lazy edit when that is certain) |
/// | [`Restore`](Op::Restore) | — | the content as given, no guards (an undo) |
///
/// The `\n` view is the decoded text with every `\r\n` written `\n`; `\r\n` in an op's own text
/// is read as `\n` there too. Every op keeps the file's encoding and BOM (new files are UTF-8
/// without a BOM).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// [`hunkloom::ops::str_replace`]: Claude Code's edit. An empty `old` creates a file that
    /// does not exist (or is empty).
    StrReplace {
        /// The text to replace.
        old: String,
        /// The replacement.
        new: String,
        /// Replace every occurrence instead of requiring exactly one.
        replace_all: bool,
    },
    /// [`hunkloom::ops::insert`]: whole lines at `line`, counted by `convention`.
    Insert {
        /// The line number (its meaning depends on `convention`).
        line: usize,
        /// The lines to insert.
        text: String,
        /// Before or after `line`.
        convention: Convention,
    },
    /// The whole new content, written as given (to clean up a model's content first, run it
    /// through [`hunkloom::fixes::write`]). Creates a file that does not exist.
    Write {
        /// The new content.
        content: String,
    },
    /// [`Op::Write`] that the caller means even if it shrinks the file: no
    /// `suspected_truncation` check (the write of a deliberately shorter file that looks cut
    /// off, e.g. one without its final newline). Every other rule of a write applies.
    Overwrite {
        /// The new content.
        content: String,
    },
    /// The whole new content as plain UTF-8 bytes, whatever the file's encoding was: a
    /// leading U+FEFF is the BOM, and none means no BOM (for the reference toolsets that treat
    /// a file as UTF-8 text in which a BOM is an ordinary character). No guards run.
    WriteUtf8 {
        /// The new content.
        content: String,
    },
    /// A SEARCH/REPLACE diff in any dialect ([`hunkloom::apply_diff`]). On a missing file it
    /// is applied to empty content and creates the file if that succeeds.
    Diff {
        /// The diff.
        diff: String,
        /// Dialect and failure policy.
        options: ApplyOptions,
    },
    /// A V4A body ([`hunkloom::patch::v4a`]), applied byte for byte as the OpenAI Agents SDK
    /// applies it (line endings normalized as it does). In [`V4aMode::Default`] the file must
    /// exist; [`V4aMode::Create`] creates a file that does not exist and refuses one that does
    /// (`file_exists`).
    V4a {
        /// The body.
        diff: String,
        /// Update an existing file, or create a new one.
        mode: V4aMode,
    },
    /// A lazy edit ([`hunkloom::apply_lazy`]): the changed code with `// ... existing code
    /// ...` markers for the rest, merged into the file where every part of it is placed
    /// without guessing, or refused (`lazy_no_anchor`, `lazy_ambiguous`, ...). The language
    /// comes from `language`, else from the path's extension.
    Lazy {
        /// What the model wrote.
        snippet: String,
        /// The file's language (default: from its path).
        language: Option<Language>,
    },
    /// The whole new content as a `\n` view (typically the `\n` view of [`read`] with changes
    /// made by the caller, e.g. a multi-file patch): lines equal to the old ones keep their own
    /// endings, changed lines get the endings of the lines they replace.
    ///
    /// [`read`]: crate::Workspace::read
    SetText {
        /// The new content, `\n` view.
        text: String,
    },
    /// The whole content of an earlier version of the file, written as given in the file's
    /// encoding (an undo): no guards run, since the text was checked when it was first written
    /// and is restored byte for byte.
    Restore {
        /// The earlier content, decoded.
        content: String,
    },
}

/// What an op reported.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A `str_replace` or `insert`: the core's report (its positions are in the `\n` view).
    Edit(Edit),
    /// A diff: the core's report per block (positions in the text the dialect saw).
    Diff(Outcome),
    /// A V4A body: the core's report per section (lines of the text as it was).
    V4a(V4aOutcome),
    /// A lazy edit merged into the file: an [`Op::Lazy`], or an [`Op::Write`] whose
    /// markers were merged instead of written.
    Lazy,
    /// A write, a `SetText`, a delete, a move without an op, or an undo.
    None,
}

/// What a change does to its file.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeKind {
    /// Creates a file that does not exist.
    Create,
    /// Replaces the content of an existing file.
    Update,
    /// Removes an existing file.
    Delete,
    /// Moves an existing file to a path that does not exist (with its content possibly edited).
    Move,
}

impl ChangeKind {
    /// A stable name: `"create"`, `"update"`, `"delete"` or `"move"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Create => "create",
            ChangeKind::Update => "update",
            ChangeKind::Delete => "delete",
            ChangeKind::Move => "move",
        }
    }
}

/// The old file of a change: what must still be on disk when it commits.
#[derive(Clone, Debug)]
pub(crate) struct Base {
    /// The resolved path.
    pub(crate) path: PathBuf,
    /// The path as given.
    pub(crate) shown: PathBuf,
    /// The decoded text.
    pub(crate) text: String,
    /// Its bytes' hash.
    pub(crate) hash: u128,
    /// Its permissions (a move carries them to the new path).
    pub(crate) permissions: std::fs::Permissions,
}

/// One file change planned in memory by [`Workspace::plan`](crate::Workspace::plan),
/// [`plan_delete`](crate::Workspace::plan_delete) or [`plan_move`](crate::Workspace::plan_move),
/// and carried out by [`Workspace::commit`](crate::Workspace::commit).
///
/// Planning checks everything that can be checked without writing (path, ignore file, read
/// and staleness, encoding, size, the op itself) and touches nothing on disk, so a multi-file
/// patch plans every file first and commits only if all of them planned. Committing checks
/// again that each old file still has the content it was planned against.
#[derive(Clone, Debug)]
pub struct Change {
    pub(crate) kind: ChangeKind,
    /// The resolved path written or removed.
    pub(crate) path: PathBuf,
    /// The path as given (the destination for a move).
    pub(crate) shown: PathBuf,
    /// The old file (none for a create).
    pub(crate) base: Option<Base>,
    /// The new text and bytes (none for a delete).
    pub(crate) new: Option<(String, Vec<u8>)>,
    pub(crate) encoding: Encoding,
    pub(crate) report: Report,
    /// Where the file changed on disk since it was read, if the op was merged around that.
    pub(crate) external: Vec<ExternalChange>,
}

impl Change {
    /// What the change does.
    pub fn kind(&self) -> ChangeKind {
        self.kind
    }

    /// The resolved, absolute path the change writes (its destination, for a move) or removes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// For a move, the resolved path of the file being moved.
    pub fn moved_from(&self) -> Option<&Path> {
        match self.kind {
            ChangeKind::Move => self.base.as_ref().map(|b| b.path.as_path()),
            _ => None,
        }
    }

    /// The decoded text of the old file (none for a create).
    pub fn old_text(&self) -> Option<&str> {
        self.base.as_ref().map(|b| b.text.as_str())
    }

    /// The decoded text the change writes (none for a delete).
    pub fn new_text(&self) -> Option<&str> {
        self.new.as_ref().map(|(text, _)| text.as_str())
    }

    /// The encoding the text is written in.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// What the op reported.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The regions another writer changed since the file was read, around which the op was
    /// merged (see [`EditOutcome::external_changes`]); empty if the file was unchanged.
    pub fn external_changes(&self) -> &[ExternalChange] {
        &self.external
    }

    /// Whether committing would change nothing on disk (an update to identical bytes).
    pub fn is_noop(&self) -> bool {
        self.kind == ChangeKind::Update
            && self
                .new
                .as_ref()
                .map(|(_, bytes)| crate::tracking::hash(bytes))
                == self.base.as_ref().map(|b| b.hash)
    }
}

/// What a committed change did.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditOutcome {
    /// The resolved, absolute path written or removed (the destination, for a move).
    pub path: PathBuf,
    /// What was done.
    pub kind: ChangeKind,
    /// Whether the bytes on disk changed (false for an update to identical content).
    pub changed: bool,
    /// The decoded text the file now holds (none if it was deleted).
    pub new_content: Option<String>,
    /// The encoding the file is in.
    pub encoding: Encoding,
    /// What the op reported. After a merge around external changes, the positions of an
    /// [`Edit`] or a diff [`Outcome`] are in the text that was read, not in the file as written.
    pub report: Report,
    /// Where the file had changed on disk since it was read here, when the edit was merged
    /// around those changes (staleness by region: a `str_replace`, `insert`, diff or patch of a
    /// file that changed since it was read is computed against the text that was read and
    /// applied to the current file if the lines it changes, and the lines next to them, are
    /// unchanged on disk; otherwise it is refused as `stale_file`). Each region gives its lines
    /// in the file as written and in the text that was read. Empty when the file was unchanged
    /// since it was read (the usual case).
    pub external_changes: Vec<ExternalChange>,
}

impl EditOutcome {
    /// The outcome of `change`, committed; `changed`: whether its bytes differ from the file's
    /// (not [`Change::is_noop`], which the commit decided already).
    pub(crate) fn of(change: Change, changed: bool) -> EditOutcome {
        EditOutcome {
            changed,
            path: change.path,
            kind: change.kind,
            new_content: change.new.map(|(text, _)| text),
            encoding: change.encoding,
            report: change.report,
            external_changes: change.external,
        }
    }
}

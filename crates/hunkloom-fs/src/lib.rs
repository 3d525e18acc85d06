//! The file layer of hunkloom: edits a language model asks for, made safely on real files.
//!
//! The core crate ([`hunkloom`]) turns text into text. This crate adds what the Claude Code
//! edit tool and Cline's write handler do around it, in one place every binding and the CLI
//! share:
//!
//! - **Paths stay inside a root.** Relative paths join the [`Workspace`] root; absolute paths
//!   must lie inside it; `..` escapes, symlinks leading outside (`path_outside_root`) and UNC
//!   paths (`unc_path`) are refused, and so are paths matched by the ignore file in gitignore
//!   syntax (`.hunkloomignore` by default; `path_ignored`) and Jupyter notebooks
//!   (`notebook_not_supported`).
//! - **Read before edit.** [`Workspace::read`] records each file's modification time, size and
//!   content hash; an edit of an existing file that was not read (`not_read`), or whose content
//!   changed since (`stale_file`, by content hash: a touch alone is fine, a change within one
//!   timestamp tick is caught), is refused. Creating a file needs no read. A missing file is
//!   `file_not_found`, with up to three similar existing paths suggested.
//! - **Staleness by region.** The text read is kept (up to
//!   [`WorkspaceOptions::max_kept_read`] bytes per file, 4 MiB by default; hash only beyond
//!   it). A `str_replace`, `insert`, diff or patch of a file that changed since it was read is
//!   computed against the text that was read and merged into the file as it is now when the
//!   lines it changes, and the lines next to them, are unchanged there (a line-level three-way
//!   merge); [`EditOutcome::external_changes`] then says where the file had changed. When they
//!   touch, it is `stale_file`, and the message names the lines. Whole-file writes, deletes
//!   and moves of a changed file are refused as before. (The line diffs have a deadline of one
//!   second each; past it they settle for coarser regions, which can only turn a merge into a
//!   refusal.)
//! - **Bytes survive.** UTF-8, UTF-8 with a BOM and UTF-16 LE/BE with a BOM are decoded and
//!   written back in the same encoding with the same BOM; any other file is refused
//!   (`unsupported_encoding`) and never rewritten. The tool operations and the `native` dialect
//!   see the text with `\r\n` written `\n` (so a model's LF text matches a CRLF file); the
//!   result is written with every untouched line's own ending and changed lines in the ending
//!   of the lines they replace. The Cline dialects and V4A bodies see the decoded text
//!   unchanged, so their results stay byte-identical with Cline and with the OpenAI Agents
//!   SDK. Files above a size limit (1 GiB by default) are
//!   refused before they are read (`file_too_large`).
//! - **Commits are atomic,** also across files: see [Atomic commits](#atomic-commits).
//! - **Many callers at once:** see [Many callers at once](#many-callers-at-once).
//! - **Undo.** [`Workspace::undo`] takes back a file's last edits (5 by default), refused if
//!   the file changed since.
//!
//! Every error is the core's [`Error`] with a stable [`code`](Error::code) (the codes above,
//! `io_error` with the system's message, `nothing_to_undo`, `conflicting_changes`, and the
//! operations' own codes).
//!
//! # Overview
//!
//! - [`Workspace`]: [`open`](Workspace::open) a root, then [`read`](Workspace::read) and
//!   [`edit`](Workspace::edit) (or [`str_replace`](Workspace::str_replace),
//!   [`insert`](Workspace::insert), [`write`](Workspace::write),
//!   [`apply_diff`](Workspace::apply_diff), [`apply_v4a`](Workspace::apply_v4a)),
//!   [`undo`](Workspace::undo), and
//!   [`apply_patch`](Workspace::apply_patch) for a multi-file patch.
//! - [`Op`]: one edit of one file, as owned data.
//! - [`Change`]: an edit planned in memory ([`Workspace::plan`], [`plan_delete`][pd],
//!   [`plan_move`][pm]); several are committed all or none by [`Workspace::commit`].
//! - [`EditOutcome`]: what a committed change did.
//!
//! [pd]: Workspace::plan_delete
//! [pm]: Workspace::plan_move
//!
//! # Example: read, edit, refuse a stale edit, undo
//!
//! ```
//! use hunkloom_fs::{Workspace, WorkspaceOptions};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("app.py"), "def greet():\r\n    print('hi')\r\n")?;
//! let ws = Workspace::open(dir.path(), WorkspaceOptions::new())?;
//!
//! // An edit of a file the model never read is refused.
//! let err = ws.str_replace("app.py", "'hi'", "'hello'", false).unwrap_err();
//! assert_eq!(err.code(), "not_read");
//!
//! // The model's text has LF endings; the file keeps its CRLF.
//! ws.read("app.py")?;
//! ws.str_replace("app.py", "def greet():\n    print('hi')", "def greet():\n    print('hello')", false)?;
//! assert_eq!(std::fs::read(dir.path().join("app.py"))?, b"def greet():\r\n    print('hello')\r\n");
//!
//! // Someone else changes the file: the next edit is refused until it is read again.
//! std::fs::write(dir.path().join("app.py"), "def greet():\r\n    print('hey')\r\n")?;
//! let err = ws.str_replace("app.py", "'hey'", "'yo'", false).unwrap_err();
//! assert_eq!(err.code(), "stale_file");
//!
//! // Paths cannot leave the root.
//! assert_eq!(ws.read("../etc/passwd").unwrap_err().code(), "path_outside_root");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Example: a multi-file change, all or none
//!
//! ```
//! use hunkloom_fs::{ChangeKind, Op, Workspace, WorkspaceOptions};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("a.txt"), "one\n")?;
//! std::fs::write(dir.path().join("old.txt"), "moved\n")?;
//! let ws = Workspace::open(dir.path(), WorkspaceOptions::new())?;
//! ws.read("a.txt")?;
//! ws.read("old.txt")?;
//!
//! let changes = vec![
//!     ws.plan("a.txt", &Op::SetText { text: "ONE\n".into() })?,
//!     ws.plan("b.txt", &Op::Write { content: "new file\n".into() })?,
//!     ws.plan_move("old.txt", "new.txt", None)?,
//! ];
//! assert_eq!(changes[1].kind(), ChangeKind::Create);
//! let done = ws.commit(changes)?;
//! assert_eq!(done.len(), 3);
//! assert_eq!(std::fs::read_to_string(dir.path().join("new.txt"))?, "moved\n");
//! assert!(!dir.path().join("old.txt").exists());
//!
//! ws.undo("new.txt")?;
//! ws.undo("old.txt")?;
//! assert_eq!(std::fs::read_to_string(dir.path().join("old.txt"))?, "moved\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Multi-file patches
//!
//! [`Workspace::apply_patch`] applies a patch in the `*** Begin Patch` format (Codex's and
//! Cline's `apply_patch`, see [`hunkloom::patch`]), or a unified diff of any number of files
//! (a git patch; [`PatchDialect::Udiff`](hunkloom::patch::PatchDialect::Udiff) or
//! [`UdiffStrict`](hunkloom::patch::PatchDialect::UdiffStrict)), to the files under the root,
//! all files or none; [`Workspace::plan_patch`] plans it without writing (for a preview).
//!
//! 1. **Paths.** Every path of the hunks that are applied — each hunk's path and each
//!    `*** Move to:` — gets the checks of [`Workspace::resolve`] (`path_outside_root`,
//!    `unc_path`, `path_ignored`, `notebook_not_supported`). A refusal refuses the whole
//!    patch, whatever the policy.
//! 2. **Reading.** The core planner ([`hunkloom::patch::plan_patch`]) reads each file it
//!    updates or deletes through the workspace: decoded from UTF-8, UTF-8 with a BOM or UTF-16
//!    with a BOM (`unsupported_encoding` otherwise), with the size limit (`file_too_large`).
//!    A missing file is the core's `patch_file_not_found`, with up to three similar existing
//!    paths suggested.
//! 3. **Read before edit.** A patch is written from files the model saw, but not necessarily
//!    through this workspace (Codex's tool has no read step). So a file that *was* read here
//!    must still have the content it had then (`stale_file`, by content hash; this refuses the
//!    whole patch), and a file never read here is accepted as it is on disk. The commit then
//!    checks again that every file still has the content the patch was planned against.
//! 4. **Planning** happens in memory, in the patch's dialect, with its policy; nothing is
//!    written before every hunk has planned (or, with [`Policy::Partial`], up to the first
//!    failing hunk).
//! 5. **Committing**: the plan's net effect on each file becomes one [`Change`], and all of
//!    them are committed all or none by [`Workspace::commit`] (journal, crash recovery).
//!
//! ## Bytes
//!
//! The Codex dialect is given each file's decoded text unchanged: the core keeps every
//! untouched line's own ending (`\r\n`, `\n`, even a lone `\r`) and gives new lines the ending
//! of the lines around them, and that text is written back exactly, in the file's encoding with
//! its BOM — so untouched bytes survive by construction. The Cline dialect reads files with
//! `\r\n` turned into `\n`, as Cline does; its result is written back like [`Op::SetText`], so
//! untouched lines get their own endings back (Cline itself would leave a CRLF file with LF
//! lines). The unified-diff dialects, like Codex's, get each file's decoded text unchanged
//! (`udiff-strict` then matches line endings byte for byte, as `git apply` does). Content of
//! `*** Add File:` (or of a unified diff's `--- /dev/null` file) is written as the patch gives it; a new file is UTF-8
//! without a BOM, an overwritten one keeps its encoding, and a moved one keeps its source's.
//!
//! ## Net changes
//!
//! A patch may name a file more than once (an Add followed by an Update, say); only its final
//! state is committed, as one change per file: created, updated, deleted, or moved (a move
//! keeps the source's permissions; a move over an existing file replaces that file's content,
//! as Codex does). Two different spellings of one file (`a.txt` and `./a.txt`) in one patch
//! are refused (`conflicting_changes`), since the planner would treat them as two files.
//!
//! [`Policy::Partial`]: hunkloom::Policy::Partial
//!
//! # Atomic commits
//!
//! One file: the new bytes go to a temporary file, which is flushed (`fsync`), given the file's
//! permissions (new files: `0666` less the umask), renamed over the file, and the directory is
//! flushed. On Linux the temporary file is made without a name in the file's directory
//! (`O_TMPFILE`) and named `<root>/.hunkloom-staged.hunkloom-tmp` just before the swap, so a
//! process that dies mid-commit leaves at most that one name, which the next [`Workspace::open`]
//! removes; elsewhere it is `.<name>.<random>.hunkloom-tmp` beside the file, recorded by an
//! unflushed journal until the rename. A path that is a symlink resolves to its target (inside
//! the root), so the target is edited and the link kept.
//!
//! Several files: a journal (`<root>/.hunkloom-journal`) first names every target, its
//! temporary file and its backup (a hard link to the old file, or a copy); then all temporary
//! files and backups are written and flushed; then the targets are replaced one by one; then
//! the backups and the journal are removed. A failure part-way restores the targets already
//! replaced from their backups. A crash part-way leaves the journal, and the next
//! [`Workspace::open`] on that root rolls the commit back (or, if every target was already
//! replaced, finishes it). Either way every file is entirely old or entirely new, and no
//! temporary, backup or journal file is left.
//!
//! # Many callers at once
//!
//! One [`Workspace`] serves many threads (every method takes `&self`): parallel tool calls,
//! subagents, a binding's callers. Nothing is refused for being concurrent:
//!
//! - **Turns per file.** Calls on different files run in parallel; an edit, patch or undo takes
//!   the turn of every file it touches (a table per process, shared by every `Workspace`,
//!   taken all at once so two calls cannot deadlock) for its plan and its commit, so the next
//!   edit of the file plans against what the previous one left. A call that waits longer than
//!   [`WorkspaceOptions::lock_timeout`] (5 s) fails with `lock_timeout`, having written nothing.
//! - **Each edit from its caller's read.** An edit is computed on what was read here when the
//!   call started, and merged into the file as the calls before it left it (the staleness
//!   merge above): parallel edits of different lines all land, in any order; of two edits of
//!   the same (or adjacent) lines the first lands and the second is `stale_file`, whose
//!   message names the lines and says another edit changed them.
//! - **One commit at a time per root, across processes.** Every commit, undo and recovery holds
//!   a lock on the root (on Unix an advisory lock on the root directory itself, so no lock file
//!   appears in it) from its last check to its end. A file another process (or the user's
//!   editor) changed between an edit's plan and its commit is planned again against the new
//!   content (a patch or edit; a change committed with [`Workspace::commit`] is refused as
//!   `stale_file`), so subagents in separate processes merge around each other too; a crashed
//!   committer's journal is settled by whoever takes the lock next.
//! - **Never over an unseen save.** An editor saving between a commit's check and its rename
//!   must not be overwritten. On Linux and Apple systems each file of a commit is swapped in
//!   atomically (`renameat2(RENAME_EXCHANGE)`, `renameatx_np(RENAME_SWAP)`) and what it
//!   displaced is checked: a save that landed meanwhile is swapped back at once (a newer save
//!   is kept), the files of the commit already replaced are restored, and the edit is planned
//!   again around the save; a new file is put in place only if the name is still free
//!   (`RENAME_NOREPLACE`). So no window remains in which a save is lost; a reader in the
//!   microseconds between such a swap and its swap-back sees the edit's file without that
//!   save. A file a commit deletes is checked right before it is removed. Where the system or
//!   the file system cannot swap, each target is checked again right before a plain rename;
//!   a save in the microseconds between that check and the rename is the remaining window
//!   there.
//!
//! Once a call has returned, no journal, lock, temporary or backup file is left in the root.

#![forbid(unsafe_code)]

mod change;
mod commit;
mod document;
mod durability;
mod errors;
mod ignore;
mod journal;
mod lock;
mod merge;
mod patch;
mod paths;
mod protect;
mod ranged;
mod reading;
mod staged;
mod tracking;
mod turns;
mod undo;
mod workspace;

pub use change::{Change, ChangeKind, EditOutcome, Op, Report};
#[cfg(feature = "fault-injection")]
#[doc(hidden)]
pub use commit::FaultMode;
pub use document::{Encoding, LegacyEncoding};
pub use durability::Durability;
pub use hunkloom::{Error, ErrorKind, Result};
pub use merge::ExternalChange;
pub use patch::{PatchOutcome, PatchPlan, PatchedFile};
pub use ranged::LineWindow;
pub use reading::read_edit_input;
pub use turns::{Turn, Turns};
pub use workspace::{Workspace, WorkspaceOptions};

//! Multi-file patches (`*** Begin Patch`, Codex's and Cline's `apply_patch`) on real files:
//! [`Workspace::plan_patch`] and [`Workspace::apply_patch`].
//!
//! The rules are in the [crate documentation](crate#multi-file-patches).

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hunkloom::patch::{self, FileSource, HunkFailure, PatchDialect, PatchOptions, Warning};
use hunkloom::{Error, ErrorKind, Result};

use crate::change::{Change, ChangeKind, EditOutcome, Report};
use crate::document::{self, Encoding};
use crate::errors;
use crate::merge::{self, ExternalChange};
use crate::tracking::Tracker;
use crate::workspace::{Loaded, Workspace, base};

/// One file a patch changes, in its final state.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchedFile {
    /// The path as the patch names it (the destination, for a move).
    pub path: String,
    /// For a move, the source path as the patch names it.
    pub moved_from: Option<String>,
    /// The resolved, absolute path written or removed (the destination, for a move).
    pub resolved: PathBuf,
    /// What happens to the file on disk: [`Create`](ChangeKind::Create) (an Add of a file that
    /// does not exist), [`Update`](ChangeKind::Update) (also an Add over an existing file),
    /// [`Delete`](ChangeKind::Delete) or [`Move`](ChangeKind::Move) (also onto an existing
    /// file, which is replaced).
    pub kind: ChangeKind,
    /// The decoded text before: the file's, or for a move the source's (none for a create).
    pub old_content: Option<String>,
    /// The decoded text after (none for a delete).
    pub new_content: Option<String>,
    /// The encoding the file is written in (its old one, if it had one).
    pub encoding: Encoding,
    /// Whether the bytes on disk change (false for an update to identical content).
    pub changed: bool,
    /// Where the file had changed on disk since it was read here, when its hunks were planned
    /// against the text that was read and merged around those changes (see
    /// [`EditOutcome::external_changes`](crate::EditOutcome::external_changes)); empty when
    /// the file was unchanged (or never read here).
    pub external_changes: Vec<ExternalChange>,
}

/// A patch planned against the files on disk by [`Workspace::plan_patch`]: nothing written
/// yet.
#[non_exhaustive]
#[derive(Clone, Debug)]
pub struct PatchPlan {
    /// Each file changed, in the order the patch first names it.
    pub files: Vec<PatchedFile>,
    /// Things that did not stop the plan (the Cline dialect's skipped chunks).
    pub warnings: Vec<Warning>,
    /// The Cline dialect's fuzz score (always 0 in the Codex dialect).
    pub fuzz: u64,
    /// With [`Policy::Partial`](hunkloom::Policy::Partial): the hunk that failed; `files`
    /// holds the effect of the hunks before it.
    pub failure: Option<HunkFailure>,
    changes: Vec<Change>,
    /// Where each of `files`' texts are among `changes` while they are not filled in yet
    /// (empty once they are).
    texts: Vec<TextSources>,
}

impl PatchPlan {
    /// The changes to commit, one per file on disk (a move over an existing file is two: that
    /// file's update and the source's removal).
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }
}

/// What [`Workspace::apply_patch`] did.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchOutcome {
    /// Each file changed, in the order the patch first names it.
    pub files: Vec<PatchedFile>,
    /// Things that did not stop the patch (the Cline dialect's skipped chunks).
    pub warnings: Vec<Warning>,
    /// The Cline dialect's fuzz score (always 0 in the Codex dialect).
    pub fuzz: u64,
    /// With [`Policy::Partial`](hunkloom::Policy::Partial): the hunk that failed, after the
    /// hunks before it were committed (what Codex leaves on disk). Always `None` with the
    /// default all-or-nothing policy, which returns the error and writes nothing.
    pub failure: Option<HunkFailure>,
}

impl Workspace {
    /// Plans a multi-file patch against the files on disk, touching nothing: every path
    /// checked, every file read and decoded, every hunk planned in `options.dialect` with
    /// `options.policy`. See [Multi-file patches](crate#multi-file-patches) for the rules.
    ///
    /// Errors: the path checks of [`resolve`](Workspace::resolve) for any path the patch
    /// names; `stale_file` for a file read here that changed since; `conflicting_changes`;
    /// `unsupported_encoding`, `file_too_large`, `io_error` (e.g. deleting a directory); and,
    /// with the default all-or-nothing policy, the core's patch errors (`invalid_patch`,
    /// `invalid_patch_hunk`, `empty_patch`, `patch_file_not_found`, `patch_context_not_found`,
    /// …). With [`Policy::Partial`](hunkloom::Policy::Partial), a hunk's failure (a patch
    /// error, or a file that cannot be read) is returned in [`PatchPlan::failure`] instead.
    pub fn plan_patch(&self, patch: &str, options: &PatchOptions) -> Result<PatchPlan> {
        let mut plan = self.plan_patch_from(patch, options, &self.reads())?;
        TextSources::copy(
            &mut plan.files,
            &std::mem::take(&mut plan.texts),
            &plan.changes,
        );
        Ok(plan)
    }

    /// [`plan_patch`](Workspace::plan_patch) with `reads` as what was read here (a call's
    /// snapshot, taken when it started), the files' texts not filled in yet (see
    /// [`TextSources`]).
    fn plan_patch_from(
        &self,
        patch: &str,
        options: &PatchOptions,
        reads: &Tracker,
    ) -> Result<PatchPlan> {
        let source = Source {
            workspace: self,
            reads,
            loaded: RefCell::new(HashMap::new()),
            bases: RefCell::new(HashMap::new()),
            changed_since: RefCell::new(Vec::new()),
            refusal: RefCell::new(None),
            missing: RefCell::new(Vec::new()),
        };
        let planned = patch::plan_patch(patch, &source, options);
        if let Some(refusal) = source.refusal.take() {
            return Err(refusal);
        }
        // A patch that does not plan against the text read of a file that changed since is
        // refused as before merging existed: the model should read the file again.
        let changed_since = source.changed_since.take();
        if let Some(first) = changed_since.first()
            && (planned.is_err() || planned.as_ref().is_ok_and(|p| p.failure.is_some()))
        {
            return Err(errors::stale(Path::new(first), "it was last read"));
        }
        let missing = source.missing.take();
        if let Err(e) = &planned
            && matches!(
                e.kind(),
                ErrorKind::PatchContextNotFound | ErrorKind::PatchFileExists
            )
            && options.dialect == PatchDialect::Codex
            && self.options().guards.damaged_calls
            && let Some(files) = self.replayed_patch(patch)
        {
            return Ok(PatchPlan {
                files,
                warnings: Vec::new(),
                fuzz: 0,
                failure: None,
                changes: Vec::new(),
                texts: Vec::new(),
            });
        }
        let mut plan = planned.map_err(|e| self.suggest(e, &missing))?;
        if let Some(failure) = &mut plan.failure {
            failure.error = self.suggest(failure.error.clone(), &missing);
        }
        let mut net = Net {
            workspace: self,
            reads,
            loaded: source.loaded.into_inner(),
            bases: source.bases.into_inner(),
            slots: Vec::new(),
            index: HashMap::new(),
        };
        for change in std::mem::take(&mut plan.changes) {
            net.record(change, options.dialect)?;
        }
        let (files, changes, texts) = net.finish()?;
        Ok(PatchPlan {
            files,
            warnings: plan.warnings,
            fuzz: plan.fuzz,
            failure: plan.failure,
            changes,
            texts,
        })
    }

    /// Plans a multi-file patch ([`plan_patch`](Workspace::plan_patch)) and commits every
    /// file all or none ([`commit`](Workspace::commit)): afterwards each file is entirely old
    /// or entirely new, also after a crash. Every file keeps its encoding, its BOM and the
    /// endings of its untouched lines. Files written count as read, in their new state, and
    /// each can be taken back with [`undo`](Workspace::undo).
    ///
    /// With the default all-or-nothing policy any failure writes nothing and is returned.
    /// With [`Policy::Partial`](hunkloom::Policy::Partial) the hunks before a failing one are
    /// committed (still all or none among themselves) and the failure is reported in
    /// [`PatchOutcome::failure`] — Codex's behaviour.
    ///
    /// ```
    /// use hunkloom::patch::PatchOptions;
    /// use hunkloom_fs::{ChangeKind, Workspace, WorkspaceOptions};
    ///
    /// let dir = tempfile::tempdir()?;
    /// std::fs::write(dir.path().join("app.py"), "def greet():\r\n    print('hi')\r\n")?;
    /// let ws = Workspace::open(dir.path(), WorkspaceOptions::new())?;
    /// let patch = "*** Begin Patch\n\
    ///              *** Update File: app.py\n\
    ///              @@ def greet():\n\
    ///              -    print('hi')\n\
    ///              +    print('hello')\n\
    ///              *** Add File: notes.md\n\
    ///              +greeting changed\n\
    ///              *** End Patch\n";
    /// let outcome = ws.apply_patch(patch, &PatchOptions::new())?;
    /// assert_eq!(outcome.files[0].kind, ChangeKind::Update);
    /// assert_eq!(outcome.files[1].kind, ChangeKind::Create);
    /// // The CRLF file keeps its line endings.
    /// assert_eq!(
    ///     std::fs::read(dir.path().join("app.py"))?,
    ///     b"def greet():\r\n    print('hello')\r\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// Calls from several threads may run at once: a patch waits for the edits of the files it
    /// touches (see [`Workspace`]), and a file another writer changed between the plan and the
    /// commit is planned again against the reads the call started from.
    pub fn apply_patch(&self, patch: &str, options: &PatchOptions) -> Result<PatchOutcome> {
        let reads = self.reads();
        let mut attempt = 0;
        loop {
            let PatchPlan {
                mut files,
                warnings,
                fuzz,
                failure,
                changes,
                texts,
            } = self.plan_patch_from(patch, options, &reads)?;
            let turn = self.take_turns(&changes)?;
            match self.commit_taken(changes, &turn) {
                Ok((mut outcomes, mut bases)) => {
                    TextSources::take(&mut files, &texts, &mut outcomes, &mut bases);
                    return Ok(PatchOutcome {
                        files,
                        warnings,
                        fuzz,
                        failure,
                    });
                }
                Err(crate::workspace::Attempt::Raced(_)) if attempt < crate::workspace::RETRIES => {
                    attempt += 1;
                }
                Err(attempt) => return Err(attempt.into_error()),
            }
        }
    }

    /// A patch that did not apply because it already had (a retried call): every update's
    /// chunks have their new lines in its file (for a move: in the destination, the source
    /// being gone) and not their old ones, every add names a file with exactly its content,
    /// and each chunk says something (a line with a letter or digit). The files, unchanged, if
    /// so; a patch that deletes a file is never taken for a replay.
    fn replayed_patch(&self, text: &str) -> Option<Vec<PatchedFile>> {
        let parsed = patch::parse_patch(text).ok()?;
        let mut files = Vec::new();
        for hunk in &parsed.hunks {
            let (shown, moved_from) = match hunk {
                patch::Hunk::Update {
                    move_to: Some(to), ..
                } => {
                    let source = Path::new(hunk.path());
                    if self
                        .load(&self.resolve(source).ok()?, source)
                        .ok()?
                        .is_some()
                    {
                        return None;
                    }
                    (to.as_str(), Some(hunk.path().to_owned()))
                }
                _ => (hunk.path(), None),
            };
            let given = Path::new(shown);
            let resolved = self.resolve(given).ok()?;
            let loaded = self.load(&resolved, given).ok()??;
            let view = document::normalize(&loaded.text);
            match hunk {
                patch::Hunk::Update { chunks, .. } => {
                    let lines: Vec<&str> = view.lines().collect();
                    let every_chunk_in = chunks.iter().all(|chunk| {
                        let old: Vec<&str> = chunk.old_lines().collect();
                        let new: Vec<&str> = chunk.new_lines().collect();
                        old != new
                            && new.iter().any(|l| l.chars().any(char::is_alphanumeric))
                            && holds(&lines, &new)
                            && !holds(&lines, &old)
                    });
                    if chunks.is_empty() || !every_chunk_in {
                        return None;
                    }
                }
                patch::Hunk::Add { contents, .. } if *contents == view => {}
                _ => return None,
            }
            files.push(PatchedFile {
                path: shown.to_owned(),
                moved_from,
                resolved,
                kind: ChangeKind::Update,
                old_content: Some(loaded.text.clone()),
                new_content: Some(loaded.text),
                encoding: loaded.encoding,
                changed: false,
                external_changes: Vec::new(),
            });
        }
        (!files.is_empty()).then_some(files)
    }

    /// Adds suggestions of similar paths to a `patch_file_not_found` error.
    fn suggest(&self, error: Error, missing: &[String]) -> Error {
        if error.kind() != ErrorKind::PatchFileNotFound {
            return error;
        }
        let Some(path) = missing.iter().rev().find(|p| error.message().contains(*p)) else {
            return error;
        };
        let similar = self.similar_paths(Path::new(path));
        if similar.is_empty() {
            return error;
        }
        Error::with_message(
            error.kind(),
            format!("{} Did you mean {}?", error.message(), similar.join(", ")),
        )
    }
}

/// Whether an error refuses the whole patch, whatever the policy.
fn is_refusal(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::PathOutsideRoot
            | ErrorKind::UncPath
            | ErrorKind::PathIgnored
            | ErrorKind::NotebookNotSupported
            | ErrorKind::PathProtected
            | ErrorKind::StaleFile
    )
}

/// The planner's view of the files: read through the workspace, each once.
struct Source<'w> {
    workspace: &'w Workspace,
    /// What was read here when the call started.
    reads: &'w Tracker,
    /// Each file read, by resolved path (`None`: it does not exist).
    loaded: RefCell<HashMap<PathBuf, Option<Loaded>>>,
    /// For each file read here that changed since: the text that was read, which the hunks
    /// are planned against.
    bases: RefCell<HashMap<PathBuf, String>>,
    /// The paths (as the patch names them) of the files in `bases`.
    changed_since: RefCell<Vec<String>>,
    /// The first refusal met, which refuses the whole patch.
    refusal: RefCell<Option<Error>>,
    /// The paths found missing, for suggestions.
    missing: RefCell<Vec<String>>,
}

impl Source<'_> {
    fn load(&self, path: &str) -> Result<Option<String>> {
        let given = Path::new(path);
        let resolved = self.workspace.resolve(given)?;
        if let Some(base) = self.bases.borrow().get(&resolved) {
            return Ok(Some(base.clone()));
        }
        if let Some(file) = self.loaded.borrow().get(&resolved) {
            return Ok(file.as_ref().map(|f| f.text.clone()));
        }
        let file = self.workspace.load(&resolved, given)?;
        let mut text = file.as_ref().map(|f| f.text.clone());
        if let Some(loaded) = &file
            && let Some(base) = self
                .workspace
                .patch_base(self.reads, &resolved, given, loaded)?
        {
            text = Some(base.clone());
            self.bases.borrow_mut().insert(resolved.clone(), base);
            self.changed_since.borrow_mut().push(path.to_owned());
        }
        self.loaded.borrow_mut().insert(resolved, file);
        Ok(text)
    }
}

impl FileSource for Source<'_> {
    fn read(&self, path: &str) -> Result<Option<Cow<'_, str>>> {
        match self.load(path) {
            Ok(Some(text)) => Ok(Some(Cow::Owned(text))),
            Ok(None) => {
                self.missing.borrow_mut().push(path.to_owned());
                Ok(None)
            }
            Err(e) => {
                if is_refusal(e.kind()) {
                    self.refusal.borrow_mut().get_or_insert_with(|| e.clone());
                }
                Err(e)
            }
        }
    }
}

/// One file the plan touches: what it held on disk, and what the plan leaves in it.
struct Slot {
    given: String,
    resolved: PathBuf,
    original: Option<Loaded>,
    /// The text that was read here, if the file changed since: the plan is merged into the
    /// file as it is now.
    read_base: Option<String>,
    /// Whether an Add or a Delete replaced the file's content as a whole (never merged).
    overwritten: bool,
    current: Content,
    /// The file whose content this one holds after a move (possibly through others).
    moved_from: Option<usize>,
}

/// What a slot's file holds so far in the plan.
enum Content {
    /// What was read: `read_base` if the file changed since it was read here, else the
    /// original (held once, not copied, until a change replaces it).
    AsRead,
    /// A text the plan wrote, and its encoding.
    Written(String, Encoding),
    /// No file.
    Gone,
}

impl Content {
    fn exists(&self) -> bool {
        !matches!(self, Content::Gone)
    }
}

impl Slot {
    /// The text the file holds so far in the plan (empty when there is none).
    fn text(&self) -> &str {
        match &self.current {
            Content::Written(text, _) => text,
            Content::AsRead => self
                .read_base
                .as_deref()
                .or(self.original.as_ref().map(|f| f.text.as_str()))
                .unwrap_or(""),
            Content::Gone => "",
        }
    }
}

/// The plan's net effect, file by file.
struct Net<'w> {
    workspace: &'w Workspace,
    reads: &'w Tracker,
    loaded: HashMap<PathBuf, Option<Loaded>>,
    bases: HashMap<PathBuf, String>,
    slots: Vec<Slot>,
    index: HashMap<PathBuf, usize>,
}

impl Net<'_> {
    /// The slot of `given`, checking its path and reading it on first sight.
    fn slot(&mut self, given: &str) -> Result<usize> {
        let shown = Path::new(given);
        let resolved = self.workspace.resolve(shown)?;
        self.workspace.writable(&resolved, shown)?;
        if let Some(&i) = self.index.get(&resolved) {
            if self.slots[i].given != given {
                return Err(errors::conflicting(shown));
            }
            return Ok(i);
        }
        let (original, read_base) = match self.loaded.remove(&resolved) {
            Some(file) => (file, self.bases.remove(&resolved)),
            None => {
                let file = self.workspace.load(&resolved, shown)?;
                let read_base = match &file {
                    Some(loaded) => self
                        .workspace
                        .patch_base(self.reads, &resolved, shown, loaded)?,
                    None => None,
                };
                (file, read_base)
            }
        };
        let current = match original {
            Some(_) => Content::AsRead,
            None => Content::Gone,
        };
        self.index.insert(resolved.clone(), self.slots.len());
        self.slots.push(Slot {
            given: given.to_owned(),
            resolved,
            original,
            read_base,
            overwritten: false,
            current,
            moved_from: None,
        });
        Ok(self.slots.len() - 1)
    }

    /// The encoding new content of slot `i` is written in.
    fn encoding(&self, i: usize) -> Encoding {
        let slot = &self.slots[i];
        match &slot.current {
            Content::Written(_, encoding) => Some(*encoding),
            _ => None,
        }
        .or(slot.original.as_ref().map(|f| f.encoding))
        .unwrap_or_default()
    }

    /// Records one planned change (its new content moves into the slot).
    fn record(&mut self, change: patch::FileChange, dialect: PatchDialect) -> Result<()> {
        let src = self.slot(&change.path)?;
        match change.kind {
            patch::ChangeKind::Add { content } => {
                let encoding = self.encoding(src);
                self.slots[src].current = Content::Written(content, encoding);
                self.slots[src].moved_from = None;
                self.slots[src].overwritten = true;
            }
            patch::ChangeKind::Delete => {
                self.slots[src].current = Content::Gone;
                self.slots[src].moved_from = None;
                self.slots[src].overwritten = true;
            }
            patch::ChangeKind::Update {
                new_content,
                move_to,
                ..
            } => {
                let encoding = self.encoding(src);
                // Cline and aider give the file's text with `\n` line breaks (aider reads in
                // universal-newline mode): the file keeps its own line endings.
                let text = match dialect {
                    PatchDialect::Cline
                    | PatchDialect::Aider
                    | PatchDialect::AiderFenced
                    | PatchDialect::AiderWhole => {
                        document::restore_endings(self.slots[src].text(), new_content)
                    }
                    _ => new_content,
                };
                let dst = match &move_to {
                    Some(to) => self.slot(to)?,
                    None => src,
                };
                if dst != src {
                    let origin = self.slots[src].moved_from.unwrap_or(src);
                    self.slots[src].current = Content::Gone;
                    self.slots[src].moved_from = None;
                    self.slots[dst].moved_from = Some(origin);
                }
                self.slots[dst].current = Content::Written(text, encoding);
            }
            _ => {
                return Err(Error::with_message(
                    ErrorKind::InvalidPatchHunk,
                    format!("{}: a change this version cannot apply", change.path),
                ));
            }
        }
        Ok(())
    }

    /// One change per file (in the order files were first named), the report, and where the
    /// report's texts are among the changes.
    fn finish(mut self) -> Result<(Vec<PatchedFile>, Vec<Change>, Vec<TextSources>)> {
        let slots = &self.slots;
        // A file that ends up holding another's content, where that one existed and is gone,
        // is a move of it.
        let mut source_of = vec![None; slots.len()];
        let mut paired = vec![false; slots.len()];
        for (i, slot) in slots.iter().enumerate() {
            if let (true, Some(s)) = (slot.current.exists(), slot.moved_from)
                && s != i
                && !paired[s]
                && slots[s].original.is_some()
                && !slots[s].current.exists()
            {
                source_of[i] = Some(s);
                paired[s] = true;
            }
        }
        let mut files = Vec::new();
        let mut changes = Vec::new();
        let mut texts = Vec::new();
        for i in 0..self.slots.len() {
            if paired[i] {
                continue;
            }
            // The texts move into the changes instead of being copied: each slot is finished
            // once, and a paired source only by the slot it moved to.
            let current = match std::mem::replace(&mut self.slots[i].current, Content::AsRead) {
                Content::AsRead => Some((self.slots[i].text().to_owned(), self.encoding(i))),
                Content::Written(text, encoding) => Some((text, encoding)),
                Content::Gone => None,
            };
            let original = self.slots[i].original.take();
            let moved = source_of[i].and_then(|s| Some((s, self.slots[s].original.take()?)));
            let from = moved.map(|(s, loaded)| (&self.slots[s], loaded));
            let (changes_here, file) = file_changes(&self.slots[i], original, current, from)?;
            if let Some((file, at)) = file {
                let offset = |local: Option<usize>| local.map(|l| l + changes.len());
                texts.push(TextSources {
                    old: offset(at.old),
                    new: offset(at.new),
                });
                files.push(file);
            }
            changes.extend(changes_here);
        }
        Ok((files, changes, texts))
    }
}

/// A file's changes, and its report with where the report's texts are among them (none for
/// a file that neither existed nor exists).
type FileChanges = (Vec<Change>, Option<(PatchedFile, TextSources)>);

/// The changes committing `slot`'s final state takes (`original`: what it held on disk,
/// `current`: what the plan leaves in it, `from`: the source of a move into it and what that
/// held), its report (whose texts [`TextSources`] fills), and where the report's texts are
/// among the changes (indexes local to them).
///
/// A file that changed on disk since it was read here was planned against the text that was
/// read: a plain update of it is merged into the file as it is now (`stale_file` if the
/// changes touch); deleting, moving or overwriting it is `stale_file`.
fn file_changes(
    slot: &Slot,
    original: Option<Loaded>,
    current: Option<(String, Encoding)>,
    from: Option<(&Slot, Loaded)>,
) -> Result<FileChanges> {
    let given = Path::new(&slot.given);
    let plain_update =
        original.is_some() && current.is_some() && from.is_none() && !slot.overwritten;
    if slot.read_base.is_some() && !plain_update {
        return Err(errors::stale(given, "it was last read"));
    }
    if let Some((src, _)) = &from
        && src.read_base.is_some()
    {
        return Err(errors::stale(Path::new(&src.given), "it was last read"));
    }
    let mut external = Vec::new();
    let new = match (current, &slot.read_base, &original) {
        (Some((text, encoding)), Some(read), Some(disk)) => {
            let (merged, around) = merge::merge(read, &text, &disk.text).map_err(|conflict| {
                errors::stale_lines(given, &conflict, errors::Changer::Elsewhere)
            })?;
            external = around;
            let bytes = document::encode(encoding, &merged)
                .map_err(|c| errors::unrepresentable(given, encoding, c))?;
            Some((merged, bytes, encoding))
        }
        (Some((text, encoding)), _, _) => {
            let bytes = document::encode(encoding, &text)
                .map_err(|c| errors::unrepresentable(given, encoding, c))?;
            Some((text, bytes, encoding))
        }
        (None, _, _) => None,
    };
    let moved_from = from.as_ref().map(|(s, _)| s.given.clone());
    let change = |kind, at: &Slot, encoding, base, new| Change {
        kind,
        path: at.resolved.clone(),
        shown: PathBuf::from(&at.given),
        encoding,
        base,
        new,
        report: Report::None,
        external: Vec::new(),
    };
    let based =
        |at: &Slot, loaded: Loaded| Some(base(at.resolved.clone(), Path::new(&at.given), loaded));
    let mut changes = Vec::new();
    // Where the report's old text is: the base of the first change, or of the second for a
    // move over an existing file (the source's); its new text is the first change's.
    let mut old_at = Some(0);
    let kind = match (original, new, from) {
        (None, None, _) => return Ok((Vec::new(), None)),
        (Some(old), None, _) => {
            changes.push(change(
                ChangeKind::Delete,
                slot,
                old.encoding,
                based(slot, old),
                None,
            ));
            ChangeKind::Delete
        }
        (None, Some((text, bytes, encoding)), Some((src, old))) => {
            let base = based(src, old);
            changes.push(change(
                ChangeKind::Move,
                slot,
                encoding,
                base,
                Some((text, bytes)),
            ));
            ChangeKind::Move
        }
        (None, Some((text, bytes, encoding)), None) => {
            old_at = None;
            changes.push(change(
                ChangeKind::Create,
                slot,
                encoding,
                None,
                Some((text, bytes)),
            ));
            ChangeKind::Create
        }
        (Some(old), Some((text, bytes, encoding)), from) => {
            let base = based(slot, old);
            changes.push(change(
                ChangeKind::Update,
                slot,
                encoding,
                base,
                Some((text, bytes)),
            ));
            match from {
                // A move over an existing file: that file is updated, the source removed.
                Some((src, src_old)) => {
                    let encoding = src_old.encoding;
                    changes.push(change(
                        ChangeKind::Delete,
                        src,
                        encoding,
                        based(src, src_old),
                        None,
                    ));
                    old_at = Some(1);
                    ChangeKind::Move
                }
                None => ChangeKind::Update,
            }
        }
    };
    let main = &changes[0];
    let report = PatchedFile {
        path: slot.given.clone(),
        moved_from,
        resolved: slot.resolved.clone(),
        kind,
        old_content: None,
        new_content: None,
        encoding: main.encoding(),
        changed: kind != ChangeKind::Update || !main.is_noop(),
        external_changes: external.clone(),
    };
    let texts = TextSources {
        old: old_at,
        new: main.new.is_some().then_some(0),
    };
    changes[0].external = external;
    Ok((changes, Some((report, texts))))
}

/// Where a [`PatchedFile`]'s texts are among a plan's changes: its old text is the base of
/// change `old`, its new text the new text of change `new`. The report is filled from them
/// when the plan is returned (copies) or after the commit (moved: a patch applied to a large
/// file does not copy it for its report).
#[derive(Clone, Copy, Debug)]
struct TextSources {
    old: Option<usize>,
    new: Option<usize>,
}

impl TextSources {
    /// `files`' texts copied from `changes`.
    fn copy(files: &mut [PatchedFile], sources: &[TextSources], changes: &[Change]) {
        for (file, at) in files.iter_mut().zip(sources) {
            file.old_content = at
                .old
                .and_then(|i| changes[i].base.as_ref())
                .map(|b| b.text.clone());
            file.new_content = at
                .new
                .and_then(|i| changes[i].new_text())
                .map(str::to_owned);
        }
    }

    /// `files`' texts moved from what the commit of the plan's changes gave back: each
    /// change's committed outcome and its base text.
    fn take(
        files: &mut [PatchedFile],
        sources: &[TextSources],
        outcomes: &mut [EditOutcome],
        bases: &mut [Option<String>],
    ) {
        for (file, at) in files.iter_mut().zip(sources) {
            file.old_content = at.old.and_then(|i| bases[i].take());
            file.new_content = at.new.and_then(|i| outcomes[i].new_content.take());
        }
    }
}

/// Whether `lines` holds `run` as consecutive lines.
fn holds(lines: &[&str], run: &[&str]) -> bool {
    !run.is_empty() && lines.windows(run.len()).any(|w| w == run)
}

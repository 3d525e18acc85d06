//! Planning: a patch and the current files in, every file's new content out, nothing written.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use super::lines::{self, Item, Replacement};
use super::model::{Hunk, LineKind, Patch, UpdateChunk};
use super::seek::Haystack;
use crate::error::{Error, ErrorKind, Result};
use crate::policy::Policy;

/// Where planning reads the current files from.
///
/// Implemented for maps from path to content (`BTreeMap`, `HashMap`) and for closures
/// `Fn(&str) -> Option<String>`. A file layer implements it to read (decode, check) files; its
/// errors stop planning and are returned as they are.
pub trait FileSource {
    /// The content of the file at `path`, or `None` if there is no file there.
    fn read(&self, path: &str) -> Result<Option<Cow<'_, str>>>;

    /// Every path the source holds, if it can list them (the maps do; a closure or a
    /// directory cannot). The aider dialects need it: aider tries a block that misses its
    /// file on the other files of the chat.
    fn paths(&self) -> Option<Vec<String>> {
        None
    }
}

impl<S: std::hash::BuildHasher> FileSource for HashMap<String, String, S> {
    fn read(&self, path: &str) -> Result<Option<Cow<'_, str>>> {
        Ok(self.get(path).map(|s| Cow::Borrowed(s.as_str())))
    }

    fn paths(&self) -> Option<Vec<String>> {
        Some(self.keys().cloned().collect())
    }
}

impl FileSource for BTreeMap<String, String> {
    fn read(&self, path: &str) -> Result<Option<Cow<'_, str>>> {
        Ok(self.get(path).map(|s| Cow::Borrowed(s.as_str())))
    }

    fn paths(&self) -> Option<Vec<String>> {
        Some(self.keys().cloned().collect())
    }
}

impl<F: Fn(&str) -> Option<String>> FileSource for F {
    fn read(&self, path: &str) -> Result<Option<Cow<'_, str>>> {
        Ok(self(path).map(Cow::Owned))
    }
}

/// Every file change a patch makes, computed in memory, ready to commit all or none.
///
/// The plan owns its data (it is `Send + Sync + 'static`). Commit [`changes`](Self::changes) in
/// order: each was computed from the files as the changes before it left them, so a path may
/// appear twice only when the patch names it twice (an Add followed by an Update, say).
/// [`apply_to`](Self::apply_to) does exactly that to an in-memory map.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// One change per hunk, in patch order (Cline: per action, in the order it keeps them).
    pub changes: Vec<FileChange>,
    /// Things the caller should know that did not stop the plan (Cline's skipped chunks).
    pub warnings: Vec<Warning>,
    /// Cline's fuzz score (0 for exact matches; 1, 100, 1000 and 10000 per looser match);
    /// always 0 in the Codex dialect.
    pub fuzz: u64,
    /// With [`Policy::Partial`]: the failure that stopped planning; `changes` holds the hunks
    /// before it. Always `None` with [`Policy::AllOrNothing`], which returns the error instead.
    pub failure: Option<HunkFailure>,
}

impl Plan {
    /// Applies the changes, in order, to an in-memory map of files; returns the paths removed
    /// (deleted files and the sources of moves), in order.
    pub fn apply_to(&self, files: &mut BTreeMap<String, String>) -> Vec<String> {
        let mut removed = Vec::new();
        for change in &self.changes {
            match &change.kind {
                ChangeKind::Add { content } => {
                    files.insert(change.path.clone(), content.clone());
                }
                ChangeKind::Delete => {
                    files.remove(&change.path);
                    removed.push(change.path.clone());
                }
                ChangeKind::Update {
                    new_content,
                    move_to,
                    ..
                } => match move_to {
                    Some(dest) if *dest != change.path => {
                        files.remove(&change.path);
                        removed.push(change.path.clone());
                        files.insert(dest.clone(), new_content.clone());
                    }
                    _ => {
                        files.insert(change.path.clone(), new_content.clone());
                    }
                },
            }
        }
        removed
    }
}

/// One file's change.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    /// The path the hunk names (the source of a move), as written in the patch.
    pub path: String,
    /// What happens to it.
    pub kind: ChangeKind,
}

/// What happens to a file.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// Create the file (overwriting one that exists) with `content`.
    Add {
        /// The whole new content.
        content: String,
    },
    /// Replace the file's content, and move it to `move_to` if given (overwriting a file
    /// there; the source is removed).
    Update {
        /// The whole new content.
        new_content: String,
        /// The destination of a move.
        move_to: Option<String>,
        /// The 1-based line, in the original file, where each applied chunk starts.
        start_lines: Vec<usize>,
    },
    /// Remove the file.
    Delete,
}

impl ChangeKind {
    /// Every kind's name, in declaration order (the kinds carry data, so there is no list of
    /// values).
    pub const ALL_NAMES: &'static [&'static str] = &["add", "update", "delete"];

    /// The stable name: `"add"`, `"update"` (also a move) or `"delete"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            ChangeKind::Add { .. } => "add",
            ChangeKind::Update { .. } => "update",
            ChangeKind::Delete => "delete",
        }
    }
}

/// A note about a change that did not stop the plan.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The file concerned.
    pub path: String,
    /// The index of the chunk concerned, if one is.
    pub chunk_index: Option<usize>,
    /// What happened (Cline's exact text in the Cline dialect).
    pub message: String,
    /// The chunk's context lines, cut at 200 UTF-16 code units plus `...` (Cline).
    pub context: Option<String>,
}

/// The hunk that stopped a [`Policy::Partial`] plan.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HunkFailure {
    /// The 0-based index of the hunk (Cline: of the action).
    pub hunk: usize,
    /// Why it failed.
    pub error: Error,
}

/// The files as earlier hunks left them, over the source (every patch dialect's planner plans
/// each hunk against it). It holds the planned changes themselves: a later hunk reads a file's
/// new content from its change, so no content is copied to be seen again.
pub(crate) struct Overlay<'s, S: ?Sized> {
    source: &'s S,
    /// The changes so far, in order.
    changes: Vec<FileChange>,
    /// Each path a change wrote or removed: the change whose content it has now, or `None`.
    written: HashMap<String, Option<usize>>,
}

impl<'s, S: FileSource + ?Sized> Overlay<'s, S> {
    /// Nothing written yet over `source`.
    pub(crate) fn new(source: &'s S) -> Self {
        Overlay {
            source,
            changes: Vec::new(),
            written: HashMap::new(),
        }
    }

    /// The file at `path` as the hunks so far left it.
    pub(crate) fn read(&self, path: &str) -> Result<Option<Cow<'_, str>>> {
        match self.written.get(path) {
            Some(Some(i)) => Ok(match &self.changes[*i].kind {
                ChangeKind::Add { content } => Some(Cow::Borrowed(content.as_str())),
                ChangeKind::Update { new_content, .. } => Some(Cow::Borrowed(new_content.as_str())),
                ChangeKind::Delete => None,
            }),
            Some(None) => Ok(None),
            None => self.source.read(path),
        }
    }

    /// Adds `change`, which later hunks then see.
    pub(crate) fn record(&mut self, change: FileChange) {
        let i = self.changes.len();
        let written = &mut self.written;
        match &change.kind {
            ChangeKind::Add { .. } => {
                written.insert(change.path.clone(), Some(i));
            }
            ChangeKind::Delete => {
                written.insert(change.path.clone(), None);
            }
            ChangeKind::Update { move_to, .. } => match move_to {
                Some(dest) if *dest != change.path => {
                    written.insert(change.path.clone(), None);
                    written.insert(dest.clone(), Some(i));
                }
                _ => {
                    written.insert(change.path.clone(), Some(i));
                }
            },
        }
        self.changes.push(change);
    }

    /// The changes recorded, in order.
    pub(crate) fn into_changes(self) -> Vec<FileChange> {
        self.changes
    }
}

/// Plans a parsed patch in the Codex dialect against `files` (see the [module docs](super)).
pub fn plan<S: FileSource + ?Sized>(patch: &Patch, files: &S, policy: Policy) -> Result<Plan> {
    if patch.hunks.is_empty() {
        return Err(Error::new(
            ErrorKind::EmptyPatch,
            "No files were modified: the patch has no hunks",
        ));
    }
    let mut overlay = Overlay::new(files);
    let mut plan = Plan::default();
    for (index, hunk) in patch.hunks.iter().enumerate() {
        match plan_hunk(hunk, &overlay) {
            Ok(change) => overlay.record(change),
            Err(error) => match policy {
                Policy::Partial => {
                    plan.failure = Some(HunkFailure { hunk: index, error });
                    break;
                }
                _ => return Err(error),
            },
        }
    }
    plan.changes = overlay.into_changes();
    Ok(plan)
}

fn plan_hunk<S: FileSource + ?Sized>(hunk: &Hunk, files: &Overlay<'_, S>) -> Result<FileChange> {
    let kind = match hunk {
        Hunk::Add { contents, .. } => ChangeKind::Add {
            content: contents.clone(),
        },
        Hunk::Delete { path, .. } => {
            if files.read(path)?.is_none() {
                return Err(Error::new(
                    ErrorKind::PatchFileNotFound,
                    format!("Failed to delete file {path}: no such file"),
                ));
            }
            ChangeKind::Delete
        }
        Hunk::Update {
            path,
            move_to,
            chunks,
            ..
        } => {
            let Some(content) = files.read(path)? else {
                return Err(Error::new(
                    ErrorKind::PatchFileNotFound,
                    format!("Failed to read file to update {path}: no such file"),
                ));
            };
            let (new_content, start_lines) = apply_chunks(&content, chunks, path)?;
            ChangeKind::Update {
                new_content,
                move_to: move_to.clone(),
                start_lines,
            }
        }
    };
    Ok(FileChange {
        path: hunk.path().to_string(),
        kind,
    })
}

/// Applies an update's chunks to `content`; returns the new content and each chunk's 1-based
/// start line.
pub(super) fn apply_chunks(
    content: &str,
    chunks: &[UpdateChunk],
    path: &str,
) -> Result<(String, Vec<usize>)> {
    let lines = lines::split(content);
    let hay = Haystack::new(&lines);
    let mut replacements: Vec<Replacement<'_>> = Vec::with_capacity(chunks.len());
    let mut line_index = 0;
    for chunk in chunks {
        if let Some(ctx) = &chunk.context {
            match hay.seek(&[ctx.as_str()], line_index, false) {
                Some(i) => line_index = i + 1,
                None => {
                    return Err(Error::new(
                        ErrorKind::PatchContextNotFound,
                        format!("Failed to find context '{ctx}' in {path}"),
                    ));
                }
            }
        }
        let old: Vec<&str> = chunk.old_lines().collect();
        if old.is_empty() {
            // Codex appends a chunk without old lines at the end of the file.
            let items = chunk.new_lines().map(Item::New).collect();
            replacements.push(Replacement {
                start: hay.len(),
                old_len: 0,
                items,
            });
            continue;
        }
        let mut old_len = old.len();
        let mut new_len = chunk.new_lines().count();
        let mut found = hay.seek(&old, line_index, chunk.end_of_file);
        if found.is_none() && old.last() == Some(&"") {
            // The trailing empty line stands for the file's final newline.
            old_len -= 1;
            if chunk.new_lines().last() == Some("") {
                new_len -= 1;
            }
            found = hay.seek(&old[..old_len], line_index, chunk.end_of_file);
        }
        let Some(start) = found else {
            return Err(Error::new(
                ErrorKind::PatchContextNotFound,
                format!(
                    "Failed to find expected lines in {path}:\n{}",
                    old.join("\n")
                ),
            ));
        };
        replacements.push(Replacement {
            start,
            old_len,
            items: items_of(chunk, start, old_len, new_len),
        });
        line_index = start + old_len;
    }
    let start_lines = replacements.iter().map(|r| r.start + 1).collect();
    replacements.sort_by_key(|r| r.start);
    Ok((lines::rebuild(&lines, &replacements), start_lines))
}

/// The rebuilt lines of a matched chunk: context lines stay the file's own lines (text and
/// ending), removed lines go, added lines come in. Only the first `old_len` old lines and
/// `new_len` new lines count (see the retry above).
fn items_of(chunk: &UpdateChunk, start: usize, old_len: usize, new_len: usize) -> Vec<Item<'_>> {
    let (mut o, mut n) = (0, 0);
    let mut items = Vec::with_capacity(new_len);
    for line in &chunk.lines {
        let in_old = line.kind != LineKind::Add && o < old_len;
        let in_new = line.kind != LineKind::Remove && n < new_len;
        match (in_old, in_new) {
            (true, true) => items.push(Item::Kept(start + o)),
            (false, true) => items.push(Item::New(&line.text)),
            _ => {}
        }
        o += usize::from(line.kind != LineKind::Add);
        n += usize::from(line.kind != LineKind::Remove);
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patch::parse_patch;

    fn run(
        patch: &str,
        files: &[(&str, &str)],
        policy: Policy,
    ) -> Result<BTreeMap<String, String>> {
        let mut map: BTreeMap<String, String> = files
            .iter()
            .map(|(p, c)| (p.to_string(), c.to_string()))
            .collect();
        let plan = plan(&parse_patch(patch)?, &map, policy)?;
        plan.apply_to(&mut map);
        Ok(map)
    }

    fn wrap(body: &str) -> String {
        format!("*** Begin Patch\n{body}\n*** End Patch\n")
    }

    #[test]
    fn chunks_apply_in_order_with_context() {
        let out = run(
            &wrap("*** Update File: f\n@@\n a\n-b\n+B\n@@\n c\n d\n-e\n+E\n@@\n f\n+g\n*** End of File"),
            &[("f", "a\nb\nc\nd\ne\nf\n")],
            Policy::AllOrNothing,
        )
        .unwrap();
        assert_eq!(out["f"], "a\nB\nc\nd\nE\nf\ng\n");
    }

    #[test]
    fn context_line_narrows_and_unicode_dashes_fold() {
        let out = run(
            &wrap("*** Update File: f\n@@ def two():\n-    pass\n+    return 2"),
            &[("f", "def one():\n    pass\ndef two():\n    pass\n")],
            Policy::AllOrNothing,
        )
        .unwrap();
        assert_eq!(out["f"], "def one():\n    pass\ndef two():\n    return 2\n");
        let out = run(
            &wrap("*** Update File: u\n@@\n-import x  # a - b top-level\n+import x"),
            &[("u", "import x  # a \u{2013} b top\u{2011}level\n")],
            Policy::AllOrNothing,
        )
        .unwrap();
        assert_eq!(out["u"], "import x\n");
    }

    #[test]
    fn later_hunks_see_earlier_ones_and_partial_keeps_them() {
        let out = run(
            &wrap("*** Add File: a\n+one\n*** Update File: a\n@@\n-one\n+two"),
            &[],
            Policy::AllOrNothing,
        )
        .unwrap();
        assert_eq!(out["a"], "two\n");
        let p = wrap("*** Add File: a\n+x\n*** Update File: missing\n@@\n-old\n+new");
        let e = run(&p, &[], Policy::AllOrNothing).unwrap_err();
        assert_eq!(e.code(), "patch_file_not_found");
        let plan = plan(&parse_patch(&p).unwrap(), &BTreeMap::new(), Policy::Partial).unwrap();
        assert_eq!(plan.changes.len(), 1);
        assert_eq!(plan.failure.as_ref().map(|f| f.hunk), Some(1));
    }

    #[test]
    fn errors_have_stable_codes() {
        let e = run(
            &wrap("*** Update File: f\n@@\n-zzz\n+y"),
            &[("f", "a\n")],
            Policy::AllOrNothing,
        )
        .unwrap_err();
        assert_eq!(e.code(), "patch_context_not_found");
        assert_eq!(e.message(), "Failed to find expected lines in f:\nzzz");
        let e = run(
            &wrap("*** Update File: f\n@@ nope\n-a\n+y"),
            &[("f", "a\n")],
            Policy::AllOrNothing,
        )
        .unwrap_err();
        assert_eq!(e.message(), "Failed to find context 'nope' in f");
        let e = run(&wrap("*** Delete File: g"), &[], Policy::AllOrNothing).unwrap_err();
        assert_eq!(e.code(), "patch_file_not_found");
        let e = run("*** Begin Patch\n*** End Patch\n", &[], Policy::Partial).unwrap_err();
        assert_eq!(e.code(), "empty_patch");
    }

    #[test]
    fn trailing_empty_line_is_retried_without() {
        let out = run(
            &wrap("*** Update File: f\n@@\n-a\n+b\n "),
            &[("f", "a")],
            Policy::AllOrNothing,
        )
        .unwrap();
        assert_eq!(out["f"], "b\n");
    }

    #[test]
    fn closures_are_file_sources_and_moves_remove_the_source() {
        let src = |p: &str| (p == "old").then(|| "x\r\n".to_string());
        let p = parse_patch(&wrap("*** Update File: old\n*** Move to: new\n@@\n-x\n+y")).unwrap();
        let plan = plan(&p, &src, Policy::AllOrNothing).unwrap();
        let mut files = BTreeMap::from([("old".to_string(), "x\r\n".to_string())]);
        assert_eq!(plan.apply_to(&mut files), ["old"]);
        assert_eq!(
            files,
            BTreeMap::from([("new".to_string(), "y\r\n".to_string())])
        );
    }
}

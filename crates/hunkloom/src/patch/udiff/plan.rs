//! Multi-file unified diffs (git patches) planned in memory: every file's new content, nothing
//! written, so the file layer commits all of them or none.
//!
//! Each file section (`diff --git` and/or `---`/`+++`) is one change: `--- /dev/null` creates
//! the file, `+++ /dev/null` deletes it (its hunks must remove all of it), different names
//! move it, and otherwise its hunks update it. A later section for the same path sees what the
//! earlier ones left. In `udiff` a section's hunks apply as in [`apply_diff`](crate::apply_diff);
//! in `udiff-strict`, as `git apply` applies the patch (always all or nothing).

use super::engine::apply_hunks;
use super::git::{self, FilePatch};
use super::read::{FileNames, Hunk, Reader};
use crate::error::{Error, ErrorKind, Result};
use crate::patch::plan::{ChangeKind, FileChange, FileSource, HunkFailure, Overlay, Plan};
use crate::policy::Policy;

/// Plans a unified diff of any number of files in the `udiff` dialect.
pub(crate) fn plan_lenient<S: FileSource + ?Sized>(
    text: &str,
    files: &S,
    policy: Policy,
) -> Result<Plan> {
    let mut reader = Reader::default();
    let mut hunks = Vec::new();
    for line in text.split_inclusive('\n') {
        reader.line(line.strip_suffix('\n').unwrap_or(line), &mut hunks);
    }
    reader.finish(&mut hunks);
    if hunks.is_empty() {
        return Err(Error::new(
            ErrorKind::EmptyPatch,
            "the diff has no hunk: write `--- a/PATH` and `+++ b/PATH`, then for each change a \
             `@@ -N,M +N,M @@` line followed by its lines",
        ));
    }
    let mut overlay = Overlay::new(files);
    let mut plan = Plan::default();
    let mut sections: Vec<Vec<Hunk>> = vec![Vec::new(); reader.files().len()];
    for hunk in hunks {
        sections[hunk.file].push(hunk);
    }
    for (i, (names, section)) in reader.files().iter().zip(&sections).enumerate() {
        if section.is_empty() {
            continue;
        }
        match file_change(&overlay, names, section) {
            Ok(change) => overlay.record(change),
            Err(error) if policy == Policy::Partial => {
                plan.failure = Some(HunkFailure { hunk: i, error });
                break;
            }
            Err(error) => return Err(error),
        }
    }
    plan.changes = overlay.into_changes();
    Ok(plan)
}

/// The change one file section of a `udiff` diff makes.
fn file_change<S: FileSource + ?Sized>(
    files: &Overlay<'_, S>,
    names: &FileNames,
    hunks: &[Hunk],
) -> Result<FileChange> {
    let first = hunks[0].line;
    let Some(path) = names.old.as_deref().or(names.new.as_deref()) else {
        return Err(Error::new(
            ErrorKind::InvalidPatch,
            format!(
                "the hunk at diff line {first} names no file: put `--- a/PATH` and `+++ b/PATH` \
                 before it"
            ),
        ));
    };
    let in_file = |e: Error| Error::new(e.kind(), format!("{path}: {}", e.message()));
    let current = files.read(path)?;
    if names.created {
        if current.as_deref().is_some_and(|c| !c.is_empty()) {
            return Err(Error::new(
                ErrorKind::PatchFileExists,
                format!("{path}: the diff creates it (--- /dev/null) but it already exists"),
            ));
        }
        let outcome = apply_hunks("", hunks, Policy::AllOrNothing).map_err(in_file)?;
        return Ok(FileChange {
            path: path.to_owned(),
            kind: ChangeKind::Add {
                content: outcome.new_content,
            },
        });
    }
    let Some(current) = current else {
        return Err(Error::new(
            ErrorKind::PatchFileNotFound,
            format!("{path}: no such file (the diff changes it)"),
        ));
    };
    let outcome = apply_hunks(&current, hunks, Policy::AllOrNothing).map_err(in_file)?;
    if names.deleted {
        if !outcome.new_content.trim().is_empty() {
            return Err(Error::new(
                ErrorKind::InvalidPatchHunk,
                format!(
                    "{path}: the diff deletes it (+++ /dev/null) but its hunks leave lines in it; \
                     remove every line, or keep the file"
                ),
            ));
        }
        return Ok(FileChange {
            path: path.to_owned(),
            kind: ChangeKind::Delete,
        });
    }
    let move_to = names
        .new
        .as_deref()
        .filter(|n| *n != path)
        .map(str::to_owned);
    Ok(FileChange {
        path: path.to_owned(),
        kind: ChangeKind::Update {
            new_content: outcome.new_content,
            move_to,
            start_lines: outcome.blocks.iter().map(|b| b.start.line).collect(),
        },
    })
}

/// Plans a patch as `git apply` (with `--recount` when `recount`) would apply it: all or
/// nothing, git's errors.
pub(crate) fn plan_strict<S: FileSource + ?Sized>(
    text: &str,
    files: &S,
    recount: bool,
) -> Result<Plan> {
    let patches = git::parse(text, None, recount)?;
    let mut overlay = Overlay::new(files);
    let mut plan = Plan::default();
    for patch in &patches {
        let change = strict_change(&overlay, patch)?;
        overlay.record(change);
    }
    plan.changes = overlay.into_changes();
    Ok(plan)
}

/// The change one file patch makes, as git applies it.
fn strict_change<S: FileSource + ?Sized>(
    files: &Overlay<'_, S>,
    patch: &FilePatch,
) -> Result<FileChange> {
    let git_error = |m: String| git::file_patch::git_error(ErrorKind::PatchFileNotFound, &m);
    if patch.is_new {
        let path = patch.new_name.clone().unwrap_or_default();
        if files.read(&path)?.is_some() {
            return Err(git::file_patch::git_error(
                ErrorKind::PatchFileExists,
                &format!("{path}: already exists in working directory"),
            ));
        }
        let (content, _) = git::apply_fragments("", patch)?;
        return Ok(FileChange {
            path,
            kind: ChangeKind::Add { content },
        });
    }
    let path = patch.old_name.clone().unwrap_or_default();
    let Some(current) = files.read(&path)? else {
        return Err(git_error(format!("{path}: No such file or directory")));
    };
    let (new_content, placed) = git::apply_fragments(&current, patch)?;
    if patch.is_delete {
        return Ok(FileChange {
            path,
            kind: ChangeKind::Delete,
        });
    }
    if let Some(to) = patch.new_name.as_deref().filter(|n| *n != path)
        && files.read(to)?.is_some()
    {
        return Err(git::file_patch::git_error(
            ErrorKind::PatchFileExists,
            &format!("{to}: already exists in working directory"),
        ));
    }
    let move_to = patch.new_name.clone().filter(|n| *n != path);
    Ok(FileChange {
        path,
        kind: ChangeKind::Update {
            new_content,
            move_to,
            start_lines: placed.iter().map(|p| p.first_line + 1).collect(),
        },
    })
}

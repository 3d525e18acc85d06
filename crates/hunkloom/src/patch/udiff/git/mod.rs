//! `udiff-strict`: a unified diff applied exactly as `git apply` 2.47 applies it (without
//! `--unidiff-zero`, whitespace options or a repository), with `--recount` as an option: the
//! same files, the same content, and git's `error:` lines as the message when it fails.
//!
//! - A file needs its `---`/`+++` header (or a `diff --git` one); a fragment outside a patch is
//!   `patch fragment without header`, and a patch without any is `No valid patches in input`.
//! - A fragment's `@@` counts must match its body (`corrupt patch`), unless `recount` counts the
//!   body instead (a line that is not part of a body stops the count; the header's counts
//!   stay).
//! - Context and removed lines must match the file byte for byte, line endings included; line
//!   numbers only say where to start looking (see [`apply`]).
//! - Failures: [`ErrorKind::InvalidPatch`](crate::ErrorKind::InvalidPatch) where git exits 128
//!   (it cannot read the patch), [`ErrorKind::PatchContextNotFound`](crate::ErrorKind) where it
//!   exits 1 (`patch failed` / `patch does not apply`). Nothing is partial.

mod apply;
pub(crate) mod file_patch;
#[cfg(test)]
mod naive;
mod names;
pub(crate) mod parse;

pub(crate) use apply::{Placed, apply_fragments};
pub(crate) use file_patch::FilePatch;
pub(crate) use parse::parse;

use crate::error::{Error, ErrorKind, Result};

/// Applies a diff of one file to `original` (the file it names): the new text and where each
/// fragment applied.
pub(crate) fn apply_single(
    diff: &str,
    original: &str,
    recount: bool,
) -> Result<(String, Vec<Placed>)> {
    let patches = parse(diff, None, recount)?;
    let [patch] = patches.as_slice() else {
        return Err(several_files(patches.iter().map(FilePatch::name)));
    };
    if patch.is_new && !original.is_empty() {
        return Err(file_patch::git_error(
            ErrorKind::PatchContextNotFound,
            &format!(
                "{}: already exists in working directory",
                patch.new_name.as_deref().unwrap_or("")
            ),
        ));
    }
    apply_fragments(original, patch)
}

/// A diff of several files given where one file's diff was expected.
pub(crate) fn several_files<'a>(names: impl Iterator<Item = &'a str>) -> Error {
    let names: Vec<&str> = names.collect();
    Error::new(
        ErrorKind::InvalidPatch,
        format!(
            "the diff changes {} files ({}); a single-file apply takes the diff of one file \
             (apply the whole diff as a patch, e.g. Workspace.apply_patch with this dialect)",
            names.len(),
            names.join(", ")
        ),
    )
}

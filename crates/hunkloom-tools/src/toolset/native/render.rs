//! The texts the model reads: numbered lines, what each edit did (per block, per file), and
//! refusals with what to change. Presentation only: every decision was made by the file layer.

use hunkloom::{BlockReport, BlockStatus, Error, ErrorKind, Strategy};
use hunkloom_fs::{ChangeKind, EditOutcome, ExternalChange, PatchOutcome, PatchedFile, Report};

use super::tools::ToolName;
use super::{Refusal, refused_as};

/// `lines` (the file's lines `first..`) as `cat -n` shows them: the 1-based number
/// right-aligned in six columns, a tab, the line.
pub(crate) fn numbered<'a>(lines: impl IntoIterator<Item = &'a str>, first: usize) -> String {
    let mut out = String::new();
    for (i, line) in lines.into_iter().enumerate() {
        out.push_str(&format!("{:>6}\t{line}\n", first + i));
    }
    out
}

/// The answer to an `apply_diff` that was committed.
pub(crate) fn diff_applied(path: &str, outcome: &EditOutcome) -> String {
    let blocks: &[BlockReport] = match &outcome.report {
        Report::Diff(diff) => &diff.blocks,
        _ => &[],
    };
    let mut out = match (outcome.kind, outcome.changed) {
        (ChangeKind::Create, _) => format!("Created {path}:\n"),
        (_, false) => format!(
            "{path} already has this content (each REPLACE equals its SEARCH); nothing was \
             written:\n"
        ),
        _ => format!("Applied {} to {path}:\n", count(blocks.len(), "block")),
    };
    for block in blocks {
        out.push_str(&format!("- {}\n", block_line(block)));
    }
    if let Some(note) = merged(&outcome.external_changes) {
        out.push_str(&format!("{path} had changed since it was read: {note}.\n"));
    }
    if outcome.changed {
        let lines = outcome
            .new_content
            .as_deref()
            .map_or(0, |t| t.lines().count());
        out.push_str(&format!(
            "{path} now has {}. undo_edit takes this edit back.",
            count(lines, "line")
        ));
    }
    out.trim_end().to_owned()
}

/// Where the file had changed since the model read it, when the edit was merged around such
/// changes: the model's picture of those lines is out of date, so it hears which they are.
fn merged(external: &[ExternalChange]) -> Option<String> {
    if external.is_empty() {
        return None;
    }
    let regions: Vec<String> = external.iter().map(ToString::to_string).collect();
    Some(format!(
        "the edit was merged around those changes ({}), which are kept; read those lines again \
         before editing them",
        regions.join(", ")
    ))
}

/// The answer to an `apply_lazy` that was committed.
pub(crate) fn lazy_applied(path: &str, outcome: &EditOutcome) -> String {
    if !outcome.changed {
        return format!(
            "{path} already has this content (the snippet changes nothing); nothing was written."
        );
    }
    let lines = outcome
        .new_content
        .as_deref()
        .map_or(0, |t| t.lines().count());
    format!(
        "Merged the snippet into {path}: every part was placed where its unchanged lines are \
         unique, and the code the markers stand for was kept. {path} now has {}. undo_edit \
         takes this edit back.",
        count(lines, "line")
    )
}

/// One block's line: where it went and how it matched.
fn block_line(block: &BlockReport) -> String {
    let n = block.index + 1;
    if block.status != BlockStatus::Applied {
        let why = block.error.as_ref().map(Error::message).unwrap_or_default();
        return format!("block {n}: {} {why}", block.status.as_str())
            .trim_end()
            .to_owned();
    }
    let place = if block.strategy == Strategy::EmptySearchNewFile {
        "wrote the new file".to_owned()
    } else if block.start.line >= block.end_line {
        format!("replaced line {}", block.start.line)
    } else {
        format!("replaced lines {}-{}", block.start.line, block.end_line)
    };
    let mut notes = vec![format!("strategy: {}", block.strategy.as_str())];
    if !block.normalizations.is_empty() {
        let names: Vec<&str> = block.normalizations.iter().map(|n| n.as_str()).collect();
        notes.push(format!("tolerated: {}", names.join(", ")));
    }
    if block.reindented {
        notes.push(format!(
            "the replacement was re-indented by {:+} columns to match the file",
            block.indent_delta
        ));
    }
    if block.candidates > 1 {
        notes.push(format!(
            "{} places matched; the :start_line: hint chose this one",
            block.candidates
        ));
    }
    format!("block {n}: {place} ({})", notes.join("; "))
}

/// The answer to an `apply_patch` that was committed.
pub(crate) fn patch_applied(outcome: &PatchOutcome) -> String {
    let changed = outcome.files.iter().filter(|f| f.changed).count();
    let mut out = format!(
        "Patch applied: {} changed{}.\n",
        count(changed, "file"),
        match outcome.files.len() - changed {
            0 => String::new(),
            same => format!(", {same} already as the patch wants"),
        }
    );
    for file in &outcome.files {
        out.push_str(&format!("- {}\n", file_line(file)));
        if let Some(note) = merged(&file.external_changes) {
            out.push_str(&format!(
                "  {} had changed since it was read: {note}.\n",
                file.path
            ));
        }
    }
    for warning in &outcome.warnings {
        out.push_str(&format!("warning: {}: {}\n", warning.path, warning.message));
    }
    if changed > 0 {
        out.push_str("undo_edit takes back each file's change (for a move, undo both paths).");
    }
    out.trim_end().to_owned()
}

/// One line about what happened to `file`.
fn file_line(file: &PatchedFile) -> String {
    let lines = |f: &PatchedFile| {
        f.new_content.as_deref().map_or(String::new(), |t| {
            format!(" ({})", count(t.lines().count(), "line"))
        })
    };
    match (&file.kind, &file.moved_from) {
        (ChangeKind::Move, Some(from)) => format!("moved {from} -> {}{}", file.path, lines(file)),
        (ChangeKind::Create, _) => format!("created {}{}", file.path, lines(file)),
        (ChangeKind::Delete, _) => format!("deleted {}", file.path),
        _ if !file.changed => format!("unchanged {}", file.path),
        _ => format!("updated {}{}", file.path, lines(file)),
    }
}

/// The answer to an `undo_edit` that was committed.
pub(crate) fn undone(path: &str, outcome: &EditOutcome) -> String {
    match outcome.kind {
        ChangeKind::Delete => format!("Undid the creation of {path}: the file is removed."),
        ChangeKind::Create => format!("Undid the deletion of {path}: the file is back."),
        _ => format!(
            "Undid the last edit of {path}: its previous content is back ({}).",
            count(
                outcome
                    .new_content
                    .as_deref()
                    .map_or(0, |t| t.lines().count()),
                "line"
            )
        ),
    }
}

/// A refusal of `tool`: the file layer's message, what to do about it when the message alone
/// does not say, and what was left as it was.
pub(crate) fn refusal(tool: ToolName, path: Option<&str>, error: &Error) -> Refusal {
    let mut text = error.message().to_owned();
    if let Some(advice) = advice(tool, error.kind()) {
        text.push('\n');
        text.push_str(advice);
    }
    let unchanged = match (tool, path) {
        (ToolName::ApplyDiff | ToolName::ApplyLazy, Some(path)) => {
            Some(format!("Nothing was written: {path} is unchanged."))
        }
        (ToolName::ApplyPatch, _) => Some("Nothing was written: no file has changed.".to_owned()),
        (ToolName::UndoEdit, _) => Some("Nothing was undone.".to_owned()),
        _ => None,
    };
    if let Some(unchanged) = unchanged {
        text.push('\n');
        text.push_str(&unchanged);
    }
    refused_as(error.code(), text)
}

/// The next step for a refusal whose message does not name one in terms of these tools.
fn advice(tool: ToolName, kind: ErrorKind) -> Option<&'static str> {
    use ErrorKind as K;
    use ToolName as T;
    Some(match (tool, kind) {
        (_, K::NotRead) => "Call read_file on it first, then send the same edit again.",
        (T::UndoEdit, K::StaleFile) => {
            "Its newer content is kept: read it with read_file and edit it instead of undoing."
        }
        (T::ApplyPatch, K::StaleFile) => {
            "Call read_file on it to see its current content, then rebuild the patch from that."
        }
        (_, K::StaleFile) => {
            "Call read_file on it to see its current content, then rebuild the edit from that."
        }
        (T::ApplyLazy, K::FileNotFound) => {
            "Check the path; a lazy edit changes an existing file (create a new one with \
             apply_diff and an empty SEARCH part)."
        }
        (T::ApplyDiff, K::FileNotFound) => {
            "Check the path; to create a new file, send one block with an empty SEARCH part."
        }
        (_, K::PatchFileNotFound) => "Check the path, or create the file with `*** Add File:`.",
        (_, K::PatchContextNotFound) => {
            "Call read_file on the file and copy the context and `-` lines exactly as they are."
        }
        (_, K::InvalidPatch | K::InvalidPatchHunk | K::EmptyPatch) => {
            "A patch starts with `*** Begin Patch`, ends with `*** End Patch`, and names each \
             file with `*** Add File:`, `*** Update File:` or `*** Delete File:`."
        }
        (_, K::MalformedBlock) => {
            "Each block is a line `<<<<<<< SEARCH`, the lines to find, a line `=======`, the \
             lines to put there, and a line `>>>>>>> REPLACE`."
        }
        (
            _,
            K::PathIgnored
            | K::PathProtected
            | K::NotebookNotSupported
            | K::UnsupportedEncoding
            | K::FileTooLarge,
        ) => "This file cannot be changed with these tools; leave it as it is.",
        _ => return None,
    })
}

/// `n thing` or `n things`.
fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_lines_look_like_cat_n() {
        assert_eq!(numbered(["a", "b"], 9), "     9\ta\n    10\tb\n");
        assert_eq!(numbered(std::iter::empty::<&str>(), 1), "");
    }

    #[test]
    fn refusals_keep_the_code_and_add_the_next_step() {
        let e = Error::with_message(ErrorKind::NotRead, "a.txt has not been read yet.");
        let r = refusal(ToolName::ApplyDiff, Some("a.txt"), &e);
        assert_eq!(r.code, "not_read");
        assert_eq!(
            r.output,
            "a.txt has not been read yet.\nCall read_file on it first, then send the same edit \
             again.\nNothing was written: a.txt is unchanged."
        );
        let e = Error::with_message(ErrorKind::NothingToUndo, "There is no edit of a.txt left.");
        let r = refusal(ToolName::UndoEdit, Some("a.txt"), &e);
        assert_eq!(
            r.output,
            "There is no edit of a.txt left.\nNothing was undone."
        );
    }
}

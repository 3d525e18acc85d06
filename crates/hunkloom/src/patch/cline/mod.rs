//! The Cline dialect: Cline v4.0.10's `apply_patch` handler and its `PatchParser`, byte for byte.
//!
//! The handler's data path, in order:
//! 1. the patch is split into lines (a trailing `\r` dropped), a bash wrapper (`%%bash`,
//!    `apply_patch`, `EOF`, a fence) is stripped, and the patch is wrapped in
//!    `*** Begin Patch` / `*** End Patch` when both are missing — one missing is an error;
//! 2. the files named by `*** Update File:` and `*** Delete File:` are read, except a path the
//!    patch text ends with (so a bare `*** Delete File: p` finds no file); a missing one is
//!    `File not found: p`; CRLF is turned into LF;
//! 3. `PatchParser` ([`parse_lines`]) reads the actions, locating each chunk in the file as it
//!    goes; a chunk it cannot locate is skipped with a warning;
//! 4. the chunks are spliced in; an Add without content and an Update that leaves a file empty
//!    are refused.
//!
//! Every error is Cline's `DiffError` message.

mod find;
mod parser;

use std::collections::BTreeMap;

use super::plan::{ChangeKind, FileChange, FileSource, HunkFailure, Plan, Warning};
use crate::error::{Error, ErrorKind, Result};
use crate::policy::Policy;
use crate::text::js_trim;
use parser::{ADD, BEGIN, DELETE, END, MOVE, Parser, UPDATE};

/// What Cline's `PatchParser.parse()` returns.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClineParse {
    /// The actions, keyed by path, in the order the patch gives them.
    pub actions: Vec<(String, ClineAction)>,
    /// The chunks it skipped.
    pub warnings: Vec<Warning>,
    /// The fuzz score.
    pub fuzz: u64,
}

/// One action of a [`ClineParse`] (Cline's `PatchAction`).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClineAction {
    /// Add, delete or update.
    pub kind: ActionType,
    /// An Add's content (the `+` lines joined with `\n`).
    pub new_file: Option<String>,
    /// An Update's located chunks.
    pub chunks: Vec<ClineChunk>,
    /// An Update's `*** Move to:` destination.
    pub move_path: Option<String>,
}

impl ClineAction {
    fn new(kind: ActionType) -> Self {
        ClineAction {
            kind,
            new_file: None,
            chunks: Vec::new(),
            move_path: None,
        }
    }
}

/// One located change of an update (Cline's `PatchChunk`).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClineChunk {
    /// The 0-based line of the file where the change starts.
    pub orig_index: usize,
    /// The lines removed there (only their count is used when applying, as in Cline).
    pub del_lines: Vec<String>,
    /// The lines inserted there.
    pub ins_lines: Vec<String>,
}

/// The kind of a [`ClineAction`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionType {
    /// `*** Add File:`.
    Add,
    /// `*** Delete File:`.
    Delete,
    /// `*** Update File:`.
    Update,
}

impl ActionType {
    /// Cline's name: `"add"`, `"delete"` or `"update"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionType::Add => "add",
            ActionType::Delete => "delete",
            ActionType::Update => "update",
        }
    }
}

/// `new PatchParser(lines, files).parse()`: the actions of already split patch lines, located
/// against `files`.
pub fn parse_lines(lines: &[&str], files: &BTreeMap<String, String>) -> Result<ClineParse> {
    Parser::new(lines, files).parse()
}

fn diff_error(kind: ErrorKind, message: String) -> Error {
    Error::new(kind, message)
}

/// Cline's warning context: cut to 200 UTF-16 code units plus `...` when longer. (A cut inside
/// a surrogate pair would leave half a character, which a Rust string cannot hold; the half is
/// dropped.)
fn clip_context(ctx: &str) -> String {
    let mut units = 0;
    let mut end = ctx.len();
    for (i, c) in ctx.char_indices() {
        if units + c.len_utf16() > 200 {
            end = i;
            break;
        }
        units += c.len_utf16();
    }
    if ctx.encode_utf16().count() > 200 {
        format!("{}...", &ctx[..end])
    } else {
        ctx.to_string()
    }
}

const BASH_WRAPPERS: [&str; 4] = ["%%bash", "apply_patch", "EOF", "```"];

fn is_patch_line(line: &str) -> bool {
    [ADD, UPDATE, DELETE, MOVE, "@@", "+", "-", " "]
        .iter()
        .any(|m| line.starts_with(m))
        || line == "***"
}

/// The handler's `stripBashWrapper`.
fn strip_bash_wrapper<'a>(lines: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(lines.len());
    let (mut inside, mut found_begin, mut found_content) = (false, false, false);
    for (i, &line) in lines.iter().enumerate() {
        if !inside && BASH_WRAPPERS.iter().any(|w| line.starts_with(w)) {
            continue;
        }
        if line.starts_with(BEGIN) {
            inside = true;
            found_begin = true;
            out.push(line);
            continue;
        }
        if line == END {
            inside = false;
            out.push(line);
            continue;
        }
        let content = is_patch_line(line);
        if content && i != lines.len() - 1 {
            found_content = true;
        }
        if inside || (!found_begin && content) || (line.is_empty() && found_content) {
            out.push(line);
        }
    }
    while out.last() == Some(&"") {
        out.pop();
    }
    if !found_begin && !found_content {
        lines.to_vec()
    } else {
        out
    }
}

/// The handler's `preprocessLines`.
fn preprocess_lines(text: &str) -> Result<Vec<&str>> {
    let raw: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut lines = strip_bash_wrapper(&raw);
    let has_begin = lines.first().is_some_and(|l| l.starts_with(BEGIN));
    let has_end = lines.last() == Some(&END);
    match (has_begin, has_end) {
        (true, true) => Ok(lines),
        (false, false) => {
            lines.insert(0, BEGIN);
            lines.push(END);
            Ok(lines)
        }
        _ => Err(diff_error(
            ErrorKind::InvalidPatch,
            "Invalid patch text - incomplete sentinels. Try breaking it into smaller patches."
                .to_string(),
        )),
    }
}

/// The handler's `extractFilesForOperations` for Update and Delete: the paths it loads.
fn files_to_load(text: &str) -> Vec<&str> {
    let raw: Vec<&str> = text.split('\n').collect();
    let end = js_trim(text);
    strip_bash_wrapper(&raw)
        .into_iter()
        .filter_map(|line| {
            let rest = line
                .strip_prefix(UPDATE)
                .or_else(|| line.strip_prefix(DELETE))?;
            let file = js_trim(rest);
            (!end.ends_with(file)).then_some(file)
        })
        .collect()
}

/// The handler's `applyChunks`: splices each chunk in by position (deleted lines are counted,
/// not compared).
fn apply_chunks(content: &str, chunks: &[ClineChunk], path: &str) -> Result<String> {
    if chunks.is_empty() {
        return Ok(content.to_string());
    }
    let lines: Vec<&str> = content.split('\n').collect();
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut at = 0;
    for chunk in chunks {
        if chunk.orig_index > lines.len() {
            return Err(diff_error(
                ErrorKind::InvalidPatchHunk,
                format!(
                    "{path}: chunk.origIndex {} > lines.length {}",
                    chunk.orig_index,
                    lines.len()
                ),
            ));
        }
        if at > chunk.orig_index {
            return Err(diff_error(
                ErrorKind::InvalidPatchHunk,
                format!(
                    "{path}: currentIndex {at} > chunk.origIndex {}",
                    chunk.orig_index
                ),
            ));
        }
        out.extend_from_slice(&lines[at..chunk.orig_index]);
        out.extend(chunk.ins_lines.iter().map(String::as_str));
        at = chunk.orig_index + chunk.del_lines.len();
    }
    out.extend_from_slice(lines.get(at..).unwrap_or(&[]));
    Ok(out.join("\n"))
}

/// Plans `text` the way Cline's `apply_patch` handler applies it.
pub(super) fn plan<S: FileSource + ?Sized>(text: &str, files: &S, policy: Policy) -> Result<Plan> {
    let lines = preprocess_lines(text)?;
    let mut loaded = BTreeMap::new();
    for path in files_to_load(text) {
        match files.read(path)? {
            Some(content) => {
                loaded.insert(path.to_string(), content.replace("\r\n", "\n"));
            }
            None => {
                return Err(diff_error(
                    ErrorKind::PatchFileNotFound,
                    format!("File not found: {path}"),
                ));
            }
        }
    }
    let parsed = parse_lines(&lines, &loaded)?;
    let mut changes = Vec::with_capacity(parsed.actions.len());
    for (path, action) in &parsed.actions {
        let kind = match action.kind {
            ActionType::Delete => ChangeKind::Delete,
            ActionType::Add => match action.new_file.as_deref() {
                Some(content) if !content.is_empty() => ChangeKind::Add {
                    content: content.to_string(),
                },
                _ => {
                    return Err(diff_error(
                        ErrorKind::PatchEmptyContent,
                        "ADD action without file content".to_string(),
                    ));
                }
            },
            ActionType::Update => {
                let original = loaded.get(path).map_or("", String::as_str);
                ChangeKind::Update {
                    new_content: apply_chunks(original, &action.chunks, path)?,
                    move_to: action.move_path.clone(),
                    start_lines: action.chunks.iter().map(|c| c.orig_index + 1).collect(),
                }
            }
        };
        changes.push(FileChange {
            path: path.clone(),
            kind,
        });
    }
    let mut plan = Plan {
        changes: Vec::with_capacity(changes.len()),
        warnings: parsed.warnings,
        fuzz: parsed.fuzz,
        failure: None,
    };
    for (index, change) in changes.into_iter().enumerate() {
        if let ChangeKind::Update { new_content, .. } = &change.kind
            && new_content.is_empty()
        {
            let error = diff_error(
                ErrorKind::PatchEmptyContent,
                format!("UPDATE change for {} has no new content", change.path),
            );
            if policy == Policy::Partial {
                plan.failure = Some(HunkFailure { hunk: index, error });
                break;
            }
            return Err(error);
        }
        plan.changes.push(change);
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentinels_and_wrappers() {
        assert_eq!(
            preprocess_lines("*** Delete File: a").unwrap(),
            [BEGIN, "*** Delete File: a", END]
        );
        assert_eq!(
            preprocess_lines("%%bash\napply_patch <<\"EOF\"\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF").unwrap(),
            [BEGIN, "*** Delete File: a", END]
        );
        let e = preprocess_lines("*** Begin Patch\n*** Delete File: a\n").unwrap_err();
        assert_eq!(e.code(), "invalid_patch");
    }

    #[test]
    fn a_path_the_text_ends_with_is_not_loaded() {
        assert_eq!(
            files_to_load("*** Delete File: a\n*** Update File: b\n@@\n x\n"),
            ["a", "b"]
        );
        assert!(files_to_load("*** Delete File: a").is_empty());
    }

    #[test]
    fn apply_chunks_splices_by_position() {
        let c = [ClineChunk {
            orig_index: 1,
            del_lines: vec!["zzz".into()],
            ins_lines: vec!["B".into(), "C".into()],
        }];
        assert_eq!(apply_chunks("a\nb\nd", &c, "p").unwrap(), "a\nB\nC\nd");
    }

    #[test]
    fn clip_context_counts_utf16() {
        let long = "\u{1D54F}".repeat(150);
        let clipped = clip_context(&long);
        assert_eq!(clipped, format!("{}...", "\u{1D54F}".repeat(100)));
        assert_eq!(clip_context("short"), "short");
    }
}

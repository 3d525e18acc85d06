//! The `codex` profile: Codex CLI 0.171.0's freeform `apply_patch` tool and its `exec_command`
//! calls whose command is an `apply_patch` heredoc, specified by
//! `tests/vectors/toolsets/codex*.jsonl`.
//!
//! A call is parsed as Codex parses it (the first and last lines, trimmed, must be the patch's
//! markers), then verified hunk by hunk against the files (paths relative to the call's working
//! directory: the root, `workdir`, or a leading `cd DIR &&`), then applied; the answers are
//! Codex's texts (`Exit code: 0` … `Success. Updated the following files:` with `A`/`M`/`D`
//! lines, or `apply_patch verification failed: …`). A JSON-function `apply_patch` call is
//! `aborted`, as Codex answers it.
//!
//! Deliberate differences: Codex writes wherever a patch's path leads (`../x`, absolute paths);
//! the profile refuses a patch naming a path outside the root and writes nothing. A shell
//! command that is not an intercepted `apply_patch` heredoc is not run: the result says it is
//! not an edit (code `not_an_edit`) for the host to run it itself.

use std::path::{Component, Path, PathBuf};
use std::time::Instant;

use hunkloom::Policy;
use hunkloom::patch::{self, ChangeKind, FileSource, Hunk};
use hunkloom_fs::{Op, Turns, Workspace};
use serde_json::{Value, json};

use super::{Semantics, ToolDefinition};
use crate::ToolResult;
use crate::codes::ToolCode;

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ENVIRONMENT: &str = "*** Environment ID:";

/// The tools Codex declares: `apply_patch` (freeform, its Lark grammar) and `exec_command`.
pub(super) fn definitions() -> Vec<ToolDefinition> {
    vec![
        ToolDefinition::new(
            "apply_patch",
            "Use the `apply_patch` tool to edit files. This is a FREEFORM tool, so do not wrap \
             the patch in JSON.",
            json!({
                "type": "object",
                "properties": {"input": {"type": "string", "description": "The entire contents of the apply_patch command"}},
                "required": ["input"]
            }),
        ),
        ToolDefinition::new(
            "exec_command",
            "Runs a command in a PTY; an `apply_patch` heredoc is applied as a patch.",
            json!({
                "type": "object",
                "properties": {
                    "cmd": {"type": "string"},
                    "workdir": {"type": "string"}
                },
                "required": ["cmd"]
            }),
        ),
    ]
}

/// A failure: its code and the text Codex sends.
struct Failed {
    code: ToolCode,
    text: String,
}

fn failed(code: ToolCode, text: impl Into<String>) -> Failed {
    Failed {
        code,
        text: text.into(),
    }
}

fn verification(code: ToolCode, reason: impl std::fmt::Display) -> Failed {
    failed(code, format!("apply_patch verification failed: {reason}"))
}

/// `path` joined to `cwd` and normalized lexically (`.` dropped, `..` applied).
fn absolute(cwd: &Path, path: &str) -> PathBuf {
    let joined = cwd.join(path);
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The files a patch's hunks read, on disk relative to `cwd`, as Codex reads them (UTF-8).
struct Disk<'a> {
    cwd: &'a Path,
}

impl FileSource for Disk<'_> {
    fn read(&self, path: &str) -> hunkloom::Result<Option<std::borrow::Cow<'_, str>>> {
        Ok(std::fs::read(absolute(self.cwd, path))
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .map(std::borrow::Cow::Owned))
    }
}

/// Codex's boundary check: the first and last lines of the trimmed text, trimmed, must be the
/// markers.
fn check_boundaries(text: &str) -> Result<(), Failed> {
    let lines: Vec<&str> = text.trim().lines().map(str::trim).collect();
    match (lines.first(), lines.last()) {
        (Some(&first), Some(&last)) if first == BEGIN && last == END => Ok(()),
        (Some(&first), _) if first != BEGIN => Err(verification(
            ToolCode::InvalidPatch,
            "invalid patch: The first line of the patch must be '*** Begin Patch'",
        )),
        _ => Err(verification(
            ToolCode::InvalidPatch,
            "invalid patch: The last line of the patch must be '*** End Patch'",
        )),
    }
}

/// Parses, verifies and applies `text` with paths relative to `cwd`; the success text.
/// Verifies, plans and commits a patch: Codex's success text, and the new text of the one file
/// a patch of one file writes.
fn apply(
    ws: &Workspace,
    text: &str,
    cwd: &Path,
    semantics: Semantics,
) -> Result<(String, Option<String>), Failed> {
    let (plan, parsed) = verified_plan(ws.root(), text, cwd, semantics)?;
    commit(ws, cwd, &plan)?;
    Ok((
        summary(&plan, &parsed),
        one_file(&plan).map(|(_, text)| text.to_owned()),
    ))
}

/// The path (from `cwd`) and new text of the one file a plan writes, if it writes one.
fn one_file(plan: &patch::Plan) -> Option<(&str, &str)> {
    match plan.changes.as_slice() {
        [change] => match &change.kind {
            ChangeKind::Add { content } => Some((&change.path, content)),
            ChangeKind::Update {
                new_content,
                move_to,
                ..
            } => Some((move_to.as_deref().unwrap_or(&change.path), new_content)),
            _ => None,
        },
        _ => None,
    }
}

/// The `codex` set's `apply_patch`, as a streamed call's preview follows it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CodexTool<'a> {
    pub(super) ws: &'a Workspace,
    pub(super) semantics: Semantics,
}

impl CodexTool<'_> {
    /// The text of the file `path` (from the root) as the patch reads it, without counting as
    /// a read; `None` if it cannot be read.
    pub(crate) fn peek(self, path: &str) -> Option<String> {
        let root = self.ws.root();
        let abs = absolute(root, path);
        abs.starts_with(root)
            .then(|| std::fs::read_to_string(abs).ok())
            .flatten()
    }

    /// The text a call whose patch writes one file will leave in it, planned as the call
    /// plans it, writing nothing; `None` for a patch of several files, and for one that will
    /// fail.
    pub(crate) fn plan(self, input: &Value) -> Option<String> {
        let text = input.get("input")?.as_str()?;
        if text
            .lines()
            .any(|l| l.trim_start().starts_with(ENVIRONMENT))
        {
            return None;
        }
        let root = self.ws.root();
        let (plan, _) = verified_plan(root, text, root, self.semantics).ok()?;
        let (path, content) = one_file(&plan)?;
        let rel = absolute(root, path).strip_prefix(root).ok()?.to_path_buf();
        let op = Op::WriteUtf8 {
            content: content.to_owned(),
        };
        let change = self.ws.plan_as_read(&rel, &op).ok()?;
        change.new_text().map(str::to_owned)
    }
}

/// A patch parsed, its paths checked and its hunks verified against the files under `cwd` as
/// Codex verifies them, then planned: nothing is written.
fn verified_plan(
    root: &Path,
    text: &str,
    cwd: &Path,
    semantics: Semantics,
) -> Result<(patch::Plan, patch::Patch), Failed> {
    check_boundaries(text)?;
    let parsed = patch::parse_patch(text).map_err(|e| {
        let message = e.message();
        // Codex words the whole-patch errors without a line number.
        let message = match message.strip_prefix("invalid patch at line ") {
            Some(rest) => format!(
                "invalid patch: {}",
                rest.split_once(": ").map_or(rest, |(_, m)| m)
            ),
            None => message.to_owned(),
        };
        if e.kind() == hunkloom::ErrorKind::EmptyPatch {
            failed(ToolCode::InvalidPatch, "patch rejected: empty patch")
        } else {
            verification(ToolCode::InvalidPatch, message)
        }
    })?;
    if parsed.hunks.is_empty() {
        return Err(failed(
            ToolCode::InvalidPatch,
            "patch rejected: empty patch",
        ));
    }
    // Every path, checked before anything is read: inside the root, named once.
    let mut seen: Vec<PathBuf> = Vec::new();
    for hunk in &parsed.hunks {
        let mut paths = vec![hunk.path()];
        if let Hunk::Update {
            move_to: Some(to), ..
        } = hunk
        {
            paths.push(to);
        }
        for path in paths {
            let abs = absolute(cwd, path);
            if !abs.starts_with(root) {
                return Err(verification(
                    ToolCode::PathOutsideRoot,
                    format!(
                        "{} is outside the workspace root {}; nothing was written",
                        abs.display(),
                        root.display()
                    ),
                ));
            }
        }
        let abs = absolute(cwd, hunk.path());
        if seen.contains(&abs) {
            return Err(verification(
                ToolCode::InvalidPatch,
                format!(
                    "invalid patch: multiple operations target {}",
                    abs.display()
                ),
            ));
        }
        seen.push(abs);
    }
    let disk = Disk { cwd };
    if semantics == Semantics::Native {
        // hunkloom's reading of the same patch: each chunk in exactly one place, or refused.
        let options = patch::PatchOptions::new().dialect(patch::PatchDialect::Native);
        let plan = patch::plan_patch(text, &disk, &options)
            .map_err(|e| verification(ToolCode::PatchFailed, e.message()))?;
        return Ok((plan, parsed));
    }
    // Verified hunk by hunk, in order, as Codex does before writing anything.
    for hunk in &parsed.hunks {
        let abs = absolute(cwd, hunk.path());
        match hunk {
            Hunk::Delete { .. } => match std::fs::metadata(&abs) {
                Err(e) => {
                    return Err(verification(
                        ToolCode::FileNotFound,
                        // Rust's text of the error, as Codex prints it: `No such file or directory (os error 2)`.
                        format!("Failed to read {}: {e}", abs.display()),
                    ));
                }
                Ok(meta) if !meta.is_file() => {
                    return Err(verification(
                        ToolCode::IsDirectory,
                        format!(
                            "Failed to read {}: path `{}` is not a file",
                            abs.display(),
                            abs.display()
                        ),
                    ));
                }
                Ok(_) => {}
            },
            Hunk::Update { .. } => {
                if let Err(e) = std::fs::read_to_string(&abs) {
                    return Err(verification(
                        ToolCode::FileNotFound,
                        format!("Failed to read file to update {}: {e}", abs.display()),
                    ));
                }
                let mut one = parsed.clone();
                one.hunks = vec![hunk.clone()];
                patch::plan(&one, &disk, Policy::AllOrNothing).map_err(|e| {
                    let shown = abs.display().to_string();
                    let message = e
                        .message()
                        .replace(&format!(" in {}:", hunk.path()), &format!(" in {shown}:"))
                        .replace(&format!(" in {}", hunk.path()), &format!(" in {shown}"));
                    verification(ToolCode::PatchFailed, message)
                })?;
            }
            _ => {}
        }
    }
    let plan = patch::plan(&parsed, &disk, Policy::AllOrNothing)
        .map_err(|e| verification(ToolCode::PatchFailed, e.message()))?;
    Ok((plan, parsed))
}

/// Codex's success text for a committed plan of `parsed`'s hunks.
fn summary(plan: &patch::Plan, parsed: &patch::Patch) -> String {
    let mut summary = String::from("Success. Updated the following files:\n");
    for (change, hunk) in plan.changes.iter().zip(&parsed.hunks) {
        let line = match (&change.kind, hunk) {
            (ChangeKind::Add { .. }, _) => format!("A {}", hunk.path()),
            (
                ChangeKind::Update {
                    move_to: Some(to), ..
                },
                _,
            ) => format!("M {to}"),
            (ChangeKind::Update { .. }, _) => format!("M {}", hunk.path()),
            (ChangeKind::Delete, _) => format!("D {}", hunk.path()),
            _ => continue,
        };
        summary.push_str(&line);
        summary.push('\n');
    }
    summary
}

/// Writes a verified plan through the file layer, all or none.
fn commit(ws: &Workspace, cwd: &Path, plan: &patch::Plan) -> Result<(), Failed> {
    let root = ws.root();
    let rel = |path: &str| -> PathBuf {
        absolute(cwd, path)
            .strip_prefix(root)
            .map(Path::to_path_buf)
            .unwrap_or_default()
    };
    let fs_failed = |e: hunkloom::Error| verification(ToolCode::of(&e), e.message());
    let mut changes = Vec::new();
    for change in &plan.changes {
        let path = rel(&change.path);
        if root.join(&path).exists() {
            ws.read(&path).map_err(fs_failed)?;
        }
        match &change.kind {
            ChangeKind::Add { content } => changes.push(
                ws.plan(
                    &path,
                    &Op::WriteUtf8 {
                        content: content.clone(),
                    },
                )
                .map_err(fs_failed)?,
            ),
            ChangeKind::Update {
                new_content,
                move_to,
                ..
            } => match move_to {
                Some(to) => {
                    let dest = rel(to);
                    if root.join(&dest).exists() {
                        ws.read(&dest).map_err(fs_failed)?;
                    }
                    changes.push(
                        ws.plan(
                            &dest,
                            &Op::WriteUtf8 {
                                content: new_content.clone(),
                            },
                        )
                        .map_err(fs_failed)?,
                    );
                    if dest != path {
                        changes.push(ws.plan_delete(&path).map_err(fs_failed)?);
                    }
                }
                None => changes.push(
                    ws.plan(
                        &path,
                        &Op::WriteUtf8 {
                            content: new_content.clone(),
                        },
                    )
                    .map_err(fs_failed)?,
                ),
            },
            ChangeKind::Delete => changes.push(ws.plan_delete(&path).map_err(fs_failed)?),
            _ => {}
        }
    }
    ws.commit(changes).map_err(fs_failed)?;
    Ok(())
}

/// The success frame of a tool run.
fn framed(body: &str, started: Instant) -> String {
    format!(
        "Exit code: 0\nWall time: {:.4} seconds\nOutput:\n{body}",
        started.elapsed().as_secs_f64()
    )
}

/// An intercepted `exec_command`: the directory it runs in (relative to the root) and the patch.
struct Heredoc {
    dir: Option<String>,
    patch: String,
}

/// `cmd` as Codex intercepts it: `[cd DIR && ]apply_patch|applypatch <<[-]DELIM` (the
/// delimiter bare, `'quoted'` or `"quoted"`), the body, a line that is the delimiter, and
/// nothing after it but one newline.
fn heredoc(cmd: &str) -> Option<Heredoc> {
    let mut rest = cmd;
    let mut dir = None;
    if let Some(after) = rest.strip_prefix("cd ") {
        let (d, tail) = after.split_once(" && ")?;
        if d.trim().is_empty() || d.contains(char::is_whitespace) {
            return None;
        }
        dir = Some(d.to_owned());
        rest = tail;
    }
    let rest = rest
        .strip_prefix("apply_patch")
        .or_else(|| rest.strip_prefix("applypatch"))?;
    let rest = rest.trim_start_matches(' ').strip_prefix("<<")?;
    let (dash, rest) = match rest.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let rest = rest.trim_start_matches(' ');
    let (header, body) = rest.split_once('\n')?;
    let delimiter = header.trim_end();
    let delimiter = delimiter
        .strip_prefix('\'')
        .and_then(|d| d.strip_suffix('\''))
        .or_else(|| {
            delimiter
                .strip_prefix('"')
                .and_then(|d| d.strip_suffix('"'))
        })
        .unwrap_or(delimiter);
    if delimiter.is_empty() || !delimiter.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut patch = String::new();
    let mut lines = body.split_inclusive('\n');
    loop {
        let line = lines.next()?;
        let bare = line.strip_suffix('\n').unwrap_or(line);
        let bare = if dash {
            bare.trim_start_matches('\t')
        } else {
            bare
        };
        if bare == delimiter {
            break;
        }
        patch.push_str(if dash {
            line.trim_start_matches('\t')
        } else {
            line
        });
    }
    if lines.next().is_some() {
        return None;
    }
    Some(Heredoc { dir, patch })
}

/// Answers one call of `tool`.
pub(super) fn call(
    ws: &Workspace,
    turns: &Turns,
    tool: &str,
    input: &Value,
    semantics: Semantics,
) -> ToolResult {
    let started = Instant::now();
    // `None`: a success; `Some(code)`: an error result.
    let result = |output: String, code: Option<ToolCode>| ToolResult {
        output,
        is_error: code.is_some(),
        code: code.map(|c| c.as_str().to_owned()).unwrap_or_default(),
        ..ToolResult::default()
    };
    // One patch at a time: a patch may touch any file under the root.
    let _turn = match turns.take(
        std::slice::from_ref(&ws.root().to_path_buf()),
        ws.options().lock_timeout,
        ws.root(),
    ) {
        Ok(turn) => turn,
        Err(e) => return result(e.message().to_owned(), Some(ToolCode::of(&e))),
    };
    match tool {
        "apply_patch" => {
            let text = input
                .get("input")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if text
                .lines()
                .any(|l| l.trim_start().starts_with(ENVIRONMENT))
            {
                return result(
                    "apply_patch environment selection is unavailable for this turn".to_owned(),
                    Some(ToolCode::InvalidPatch),
                );
            }
            match apply(ws, text, ws.root(), semantics) {
                Ok((summary, new_content)) => ToolResult {
                    new_content,
                    ..result(framed(&summary, started), None)
                },
                Err(f) => result(f.text, Some(f.code)),
            }
        }
        "apply_patch_json" => result("aborted".to_owned(), Some(ToolCode::InvalidOperation)),
        _ => {
            let cmd = input.get("cmd").and_then(Value::as_str).unwrap_or_default();
            let Some(found) = heredoc(cmd) else {
                return result(
                    "This command is not an apply_patch edit; run it in a shell.".to_owned(),
                    Some(ToolCode::NotAnEdit),
                );
            };
            let mut cwd = ws.root().to_path_buf();
            if let Some(workdir) = input.get("workdir").and_then(Value::as_str) {
                cwd = absolute(&cwd, workdir);
            }
            if let Some(dir) = &found.dir {
                cwd = absolute(&cwd, dir);
            }
            // Inside an intercepted heredoc Codex ignores an environment line.
            let patch: String = found
                .patch
                .split_inclusive('\n')
                .filter(|l| !l.trim_start().starts_with(ENVIRONMENT))
                .collect();
            match apply(ws, &patch, &cwd, semantics) {
                Ok((summary, _)) => result(
                    format!(
                        "Wall time: {:.4} seconds\nOutput:\n{}",
                        started.elapsed().as_secs_f64(),
                        framed(&summary, started)
                    ),
                    None,
                ),
                Err(f) => result(f.text, Some(f.code)),
            }
        }
    }
}

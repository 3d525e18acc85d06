//! The `openai` profile: the Responses-API hosted `apply_patch` tool as the OpenAI Agents SDK
//! 0.24.0 runs it through its directory editor (`SandboxApplyPatchEditor`), specified by
//! `tests/vectors/toolsets/openai*.jsonl`.
//!
//! The model sends `{"operation": {"type", "path", "diff"[, "move_to"]}}` (or `"operations":
//! [...]`, run in order up to the first failure, the earlier ones kept). The answers:
//! `Created <p>`, `Updated <p>` (and `\nMoved <p> to <q>`), `Deleted <p>`, joined with `\n`,
//! where `<p>` is the path relative to the root in POSIX form; failures are the SDK's texts.
//! V4A bodies are applied by [`hunkloom::patch::v4a`], byte for byte as the SDK's `apply_diff`;
//! a created file is the `+` lines joined with `\n`, without a final newline.
//!
//! Deliberate differences: the SDK stops the whole run (`ModelBehaviorError`) on an unknown
//! operation type, an empty path or a missing diff; the toolset answers them as failed calls
//! (code `invalid_operation`) with the SDK's exception text and writes nothing. Writes go
//! through the file layer, so `.git` and the other protected paths are refused
//! (`path_protected`) where the SDK would write them.

use std::path::{Path, PathBuf};

use hunkloom::patch::v4a::{self, V4aMode};
use hunkloom_fs::{Op, Turns, Workspace};
use serde_json::{Value, json};

use super::{Semantics, ToolDefinition};
use crate::ToolResult;
use crate::codes::ToolCode;

/// The tool as the Responses API declares it (`{"type": "apply_patch"}`, no schema of its
/// own): the call input our vectors record, as a schema.
pub(super) fn definition() -> ToolDefinition {
    ToolDefinition::new(
        "apply_patch",
        "Responses API hosted tool {\"type\": \"apply_patch\"}: the model sends \
         apply_patch_call items with one operation (create_file, update_file or delete_file; \
         path; V4A diff).",
        json!({
            "type": "object",
            "properties": {
                "operation": {
                    "type": "object",
                    "properties": {
                        "type": {"enum": ["create_file", "update_file", "delete_file"]},
                        "path": {"type": "string"},
                        "diff": {"type": "string"},
                        "move_to": {"type": "string"}
                    },
                    "required": ["type", "path"]
                }
            },
            "required": ["operation"]
        }),
    )
}

/// A failed call: its code and the SDK's text.
struct Failed {
    code: ToolCode,
    text: String,
}

impl Failed {
    fn new(code: ToolCode, text: impl Into<String>) -> Failed {
        Failed {
            code,
            text: text.into(),
        }
    }

    fn of(error: &hunkloom::Error) -> Failed {
        let code = match error.kind().family() {
            hunkloom::ErrorFamily::NotFound | hunkloom::ErrorFamily::MalformedDiff => {
                ToolCode::PatchFailed
            }
            _ => ToolCode::of(error),
        };
        Failed::new(code, error.message())
    }
}

/// One operation, checked as the SDK checks it before its editor runs.
struct Operation<'a> {
    kind: &'a str,
    path: &'a str,
    diff: Option<&'a str>,
    move_to: Option<&'a str>,
}

/// Python's `str()` of a JSON value, for the SDK's messages.
fn py_str(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "None".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => crate::input::py_str(other),
    }
}

fn operation(v: &Value) -> Result<Operation<'_>, Failed> {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or_default();
    if !matches!(kind, "create_file" | "update_file" | "delete_file") {
        return Err(Failed::new(
            ToolCode::InvalidOperation,
            format!("Unknown apply_patch operation: {}", py_str(v.get("type"))),
        ));
    }
    let path = match v.get("path").and_then(Value::as_str) {
        Some(p) if !p.is_empty() => p,
        _ => {
            return Err(Failed::new(
                ToolCode::InvalidOperation,
                "Apply patch operation is missing a valid path.",
            ));
        }
    };
    let diff = v.get("diff").and_then(Value::as_str);
    if kind != "delete_file" && diff.is_none_or(str::is_empty) {
        return Err(Failed::new(
            ToolCode::InvalidOperation,
            format!("Apply patch operation {kind} is missing the required diff payload."),
        ));
    }
    Ok(Operation {
        kind,
        path,
        diff,
        move_to: v.get("move_to").and_then(Value::as_str),
    })
}

/// `given` relative to `root` in POSIX form (backslashes read as `/`, `.` dropped, `..`
/// resolved, an absolute path inside the root accepted), or `None` if it escapes the root.
fn relative(root: &Path, given: &str) -> Option<String> {
    let posix = given.replace('\\', "/");
    let rest = if posix.starts_with('/') {
        let root = root.to_str()?;
        if posix == root {
            ""
        } else {
            posix.strip_prefix(root)?.strip_prefix('/')?
        }
    } else {
        posix.as_str()
    };
    hunkloom::paths::relative_key(rest)
}

fn escapes(given: &str) -> Failed {
    Failed::new(
        ToolCode::PathOutsideRoot,
        format!("apply_patch path must not escape root: {given}"),
    )
}

fn missing(given: &str) -> Failed {
    Failed::new(
        ToolCode::FileNotFound,
        format!("apply_patch missing file: {given}"),
    )
}

/// The SDK's error for a directory where a file is expected: it names the absolute path.
fn directory(root: &Path, rel: &str) -> Failed {
    let abs = if rel.is_empty() {
        root.to_path_buf()
    } else {
        root.join(rel)
    };
    Failed::new(
        ToolCode::IsDirectory,
        format!("failed to read archive for path: {}", abs.display()),
    )
}

/// The file's text as the SDK decodes it (UTF-8, a BOM kept as a character).
fn read_text(path: &Path) -> Result<String, Failed> {
    let bytes = std::fs::read(path).map_err(|e| Failed::new(ToolCode::IoError, e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| {
        Failed::new(
            ToolCode::UnsupportedEncoding,
            crate::file::utf8_error(e.as_bytes()).unwrap_or_default(),
        )
    })
}

/// A V4A body applied to `text`: as the Agents SDK reads it, or with [`Semantics::Native`]
/// the native way (each section in exactly one place, or refused; the file's line endings and
/// final newline kept).
fn read_body(
    text: &str,
    diff: &str,
    mode: V4aMode,
    semantics: Semantics,
) -> Result<String, Failed> {
    match semantics {
        Semantics::Reference => v4a::apply_v4a(text, diff, mode).map_err(|e| Failed::of(&e)),
        _ => hunkloom::patch::native::apply_body(text, diff, mode)
            .map(|o| o.new_content)
            .map_err(|e| Failed::of(&e)),
    }
}

/// What one operation did: its line of the answer, and for an operation that wrote one file,
/// the file's text before (an update) and after.
struct Done {
    line: String,
    old: Option<String>,
    new: Option<String>,
}

/// Runs one operation.
fn run(ws: &Workspace, op: &Operation<'_>, semantics: Semantics) -> Result<Done, Failed> {
    let root = ws.root();
    let rel = relative(root, op.path).ok_or_else(|| escapes(op.path))?;
    let at = root.join(&rel);
    match op.kind {
        "create_file" => {
            let content = created(&at, &rel, op, semantics)?;
            ws.write(&rel, &content).map_err(|e| Failed::of(&e))?;
            Ok(Done {
                line: format!("Created {rel}"),
                old: None,
                new: Some(content),
            })
        }
        "update_file" => {
            let (text, new) = updated(root, &at, &rel, op, semantics)?;
            ws.read(&rel).map_err(|e| Failed::of(&e))?;
            let line = match op.move_to {
                Some(to) => {
                    let to_rel = destination(root, to)?;
                    if root.join(&to_rel).exists() {
                        ws.read(&to_rel).map_err(|e| Failed::of(&e))?;
                    }
                    let mut changes = vec![
                        ws.plan(
                            &to_rel,
                            &Op::WriteUtf8 {
                                content: new.clone(),
                            },
                        )
                        .map_err(|e| Failed::of(&e))?,
                    ];
                    if to_rel != rel {
                        changes.push(ws.plan_delete(&rel).map_err(|e| Failed::of(&e))?);
                    }
                    ws.commit(changes).map_err(|e| Failed::of(&e))?;
                    format!("Updated {rel}\nMoved {rel} to {to_rel}")
                }
                None => {
                    let change = ws
                        .plan(
                            &rel,
                            &Op::WriteUtf8 {
                                content: new.clone(),
                            },
                        )
                        .map_err(|e| Failed::of(&e))?;
                    ws.commit(vec![change]).map_err(|e| Failed::of(&e))?;
                    format!("Updated {rel}")
                }
            };
            Ok(Done {
                line,
                old: Some(text),
                new: Some(new),
            })
        }
        _ => {
            let meta = std::fs::metadata(&at).map_err(|_| missing(op.path))?;
            if meta.is_dir() {
                return Err(directory(root, &rel));
            }
            ws.read(&rel).map_err(|e| Failed::of(&e))?;
            let change = ws.plan_delete(&rel).map_err(|e| Failed::of(&e))?;
            ws.commit(vec![change]).map_err(|e| Failed::of(&e))?;
            Ok(Done {
                line: format!("Deleted {rel}"),
                old: None,
                new: None,
            })
        }
    }
}

/// The content a `create_file` operation writes at `at` (`rel` from the root), which must not
/// exist.
fn created(
    at: &Path,
    rel: &str,
    op: &Operation<'_>,
    semantics: Semantics,
) -> Result<String, Failed> {
    if std::fs::symlink_metadata(at).is_ok() {
        return Err(Failed::new(
            ToolCode::FileExists,
            format!(
                "apply_patch cannot create {rel} because it already exists. Use an \
                 update_file operation to change an existing file."
            ),
        ));
    }
    read_body("", op.diff.unwrap_or_default(), V4aMode::Create, semantics)
}

/// An `update_file` operation's file at `at` (`rel` from the root): its text, and the text
/// the operation's body makes of it.
fn updated(
    root: &Path,
    at: &Path,
    rel: &str,
    op: &Operation<'_>,
    semantics: Semantics,
) -> Result<(String, String), Failed> {
    let meta = std::fs::metadata(at).map_err(|_| missing(op.path))?;
    if meta.is_dir() {
        return Err(directory(root, rel));
    }
    let text = read_text(at)?;
    let new = read_body(
        &text,
        op.diff.unwrap_or_default(),
        V4aMode::Default,
        semantics,
    )?;
    Ok((text, new))
}

/// Where a `move_to` path leads (from the root), which must not be a directory.
fn destination(root: &Path, to: &str) -> Result<String, Failed> {
    let to_rel = relative(root, to).ok_or_else(|| escapes(to))?;
    if root.join(&to_rel).is_dir() {
        return Err(directory(root, &to_rel));
    }
    Ok(to_rel)
}

/// The `openai` set's `apply_patch`, as a streamed call's preview follows it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenAiTool<'a> {
    pub(super) ws: &'a Workspace,
    pub(super) semantics: Semantics,
}

impl OpenAiTool<'_> {
    /// How the set reads bodies.
    pub(crate) fn semantics(self) -> Semantics {
        self.semantics
    }

    /// Whether something is at `path` (a `create_file` there fails).
    pub(crate) fn exists(self, path: &str) -> bool {
        relative(self.ws.root(), path)
            .is_none_or(|rel| std::fs::symlink_metadata(self.ws.root().join(rel)).is_ok())
    }

    /// The text of the file at `path` as an `update_file` operation reads it, without counting
    /// as a read; `None` if it cannot be read.
    pub(crate) fn base_text(self, path: &str) -> Option<String> {
        let rel = relative(self.ws.root(), path)?;
        read_text(&self.ws.root().join(rel)).ok()
    }

    /// The text a call with one `operation` will leave (see [`plan`]).
    pub(crate) fn plan(self, input: &Value) -> Option<String> {
        plan(self.ws, input, self.semantics)
    }
}

/// The text a call with one `operation` (`create_file`, or `update_file`: at its `move_to`
/// when it has one) will leave, planned as [`call`] runs it and writing nothing; `None` for a
/// delete, for several operations and for a call that will fail. What a streamed call's
/// preview settles on.
fn plan(ws: &Workspace, input: &Value, semantics: Semantics) -> Option<String> {
    let op = operation(input.get("operation")?).ok()?;
    let root = ws.root();
    let rel = relative(root, op.path)?;
    let at = root.join(&rel);
    let (target, content) = match op.kind {
        "create_file" => (rel.clone(), created(&at, &rel, &op, semantics).ok()?),
        "update_file" => {
            let (_, new) = updated(root, &at, &rel, &op, semantics).ok()?;
            ws.peek(&rel).ok()?;
            match op.move_to {
                Some(to) => (destination(root, to).ok()?, new),
                None => (rel.clone(), new),
            }
        }
        _ => return None,
    };
    let op = if op.kind == "create_file" {
        Op::Write { content }
    } else {
        Op::WriteUtf8 { content }
    };
    let change = ws.plan_as_read(&target, &op).ok()?;
    change.new_text().map(str::to_owned)
}

/// The files an operation touches, for their turns.
fn touched(root: &Path, op: &Operation<'_>) -> Vec<PathBuf> {
    [Some(op.path), op.move_to]
        .into_iter()
        .flatten()
        .filter_map(|p| relative(root, p))
        .map(|rel| root.join(rel))
        .collect()
}

/// Answers one `apply_patch` call.
pub(super) fn call(
    ws: &Workspace,
    turns: &Turns,
    input: &Value,
    semantics: Semantics,
) -> ToolResult {
    let items: Vec<&Value> = match (input.get("operation"), input.get("operations")) {
        (Some(one), _) => vec![one],
        (None, Some(Value::Array(many))) => many.iter().collect(),
        _ => Vec::new(),
    };
    let checked: Result<Vec<Operation<'_>>, Failed> = if items.is_empty() {
        Err(Failed::new(
            ToolCode::InvalidOperation,
            "Unknown apply_patch operation: None",
        ))
    } else {
        items.into_iter().map(operation).collect()
    };
    let failed = |f: Failed, path: Option<String>| ToolResult {
        output: f.text,
        is_error: true,
        code: f.code.as_str().to_owned(),
        path,
        ..ToolResult::default()
    };
    let ops = match checked {
        Ok(ops) => ops,
        Err(f) => return failed(f, None),
    };
    let root = ws.root().to_path_buf();
    let paths: Vec<PathBuf> = ops.iter().flat_map(|op| touched(&root, op)).collect();
    let _turn = match turns.take(&paths, ws.options().lock_timeout, Path::new(ops[0].path)) {
        Ok(turn) => turn,
        Err(e) => return failed(Failed::of(&e), None),
    };
    let mut done = Vec::new();
    for op in &ops {
        match run(ws, op, semantics) {
            Ok(one) => done.push(one),
            Err(f) => return failed(f, Some(op.path.to_owned())),
        }
    }
    let output = done
        .iter()
        .map(|d| d.line.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    // The texts of the one file a single operation wrote.
    let (old_content, new_content) = match <[Done; 1]>::try_from(done) {
        Ok([one]) => (one.old, one.new),
        Err(_) => (None, None),
    };
    ToolResult {
        output,
        path: ops.first().map(|op| op.path.to_owned()),
        old_content,
        new_content,
        ..ToolResult::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_made_relative_posix_or_refused() {
        let root = Path::new("/r/work");
        assert_eq!(relative(root, "a/b.txt").as_deref(), Some("a/b.txt"));
        assert_eq!(relative(root, "./a\\b.txt").as_deref(), Some("a/b.txt"));
        assert_eq!(relative(root, "/r/work/x").as_deref(), Some("x"));
        assert_eq!(relative(root, "/r/work").as_deref(), Some(""));
        assert_eq!(relative(root, "."), Some(String::new()));
        assert_eq!(relative(root, "../x"), None);
        assert_eq!(relative(root, "a/../../b"), None);
        assert_eq!(relative(root, "/r/work/../x"), None);
        assert_eq!(relative(root, "/etc/hosts"), None);
        assert_eq!(relative(root, "/r/workshop"), None);
    }
}

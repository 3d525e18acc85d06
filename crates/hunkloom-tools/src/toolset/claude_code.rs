//! The `claude-code` profile: Claude Code's `Read`, `Write`, `Edit` and `MultiEdit`, the shape
//! of most agents' own edit tools, over the file layer.
//!
//! There is no public reference code, so the rules are hunkloom's reading of how Claude Code
//! answers, each tested on its own (`tests/toolset_claude_code.rs`):
//! - `Read` numbers lines as `     N→text` (`offset` is the first line, 1-based; `limit` the
//!   number of lines, default 2,000; lines over 2,000 characters are cut), and records the
//!   read. An empty file, or an offset past the end, is a `<system-reminder>` note.
//! - `Edit` replaces `old_string` with `new_string` by the core's Claude Code edit
//!   ([`hunkloom::ops::str_replace`]: exactly one occurrence unless `replace_all`, typographic
//!   quotes matched, an empty `old_string` creating a file): its texts (`String to replace
//!   not found in file.`, `Found N matches ...`). The file must have been read
//!   (`File has not been read yet. Read it first before writing to it.`); a file changed since
//!   is merged around the change when that is safe, else refused (`File has been modified
//!   since read ...`).
//! - `MultiEdit` applies its `edits` in order, each on the text the ones before it left, all
//!   or none; an edit whose `old_string` is inside an earlier edit's `new_string` is refused.
//! - `Write` creates a file (parents too) or, after a read, replaces it.
//!
//! Paths may be absolute (inside the root) or relative to it. Successes show the changed
//! region as a numbered snippet.
//!
//! With native semantics, `Edit` and each edit of `MultiEdit` are hunkloom's own replacement
//! ([`crate::replace::native`]): two overlapping places are two places, a text not found as
//! given is placed as whole lines by the native reading of patches, a call already made changes
//! nothing; the texts stay Claude Code's (with the lines of every place when there are several).

use std::path::Path;

use hunkloom::ErrorKind;
use hunkloom_fs::{Op, Turns, Workspace};
use serde_json::{Map, Value, json};

use super::{Semantics, ToolDefinition};
use crate::ToolResult;
use crate::codes::ToolCode;
use crate::file;
use crate::replace::{self, Refused, Replaced};
use crate::result::Failure;

/// Lines `Read` shows without a `limit`.
const DEFAULT_LIMIT: usize = 2000;
/// Characters of a line `Read` shows before cutting it.
const MAX_LINE: usize = 2000;
/// Lines of context around a change in a snippet.
const CONTEXT: usize = 4;

const NOT_READ: &str = "File has not been read yet. Read it first before writing to it.";
const CHANGED: &str = "File has been modified since read, either by the user or by a linter. \
                       Read it again before attempting to write it.";

/// The four tools.
pub(super) fn definitions() -> Vec<ToolDefinition> {
    let path = json!({"type": "string", "description": "The absolute path to the file (or a path relative to the workspace root)."});
    let tool = |name: &str, description: &str, schema: Value| {
        let mut tool = ToolDefinition::new(name, description, schema);
        tool.read_only = name == "Read";
        tool
    };
    let edit = json!({
        "type": "object",
        "properties": {
            "old_string": {"type": "string", "description": "The text to replace."},
            "new_string": {"type": "string", "description": "The text to replace it with (must differ from old_string)."},
            "replace_all": {"type": "boolean", "default": false, "description": "Replace every occurrence of old_string."}
        },
        "required": ["old_string", "new_string"]
    });
    vec![
        tool(
            "Read",
            "Reads a file. Lines are numbered (`     N→text`); offset and limit read part of a long file.",
            json!({"type": "object", "properties": {
                "file_path": path,
                "offset": {"type": "number", "description": "The line to start reading from (1-based)."},
                "limit": {"type": "number", "description": "The number of lines to read."}
            }, "required": ["file_path"]}),
        ),
        tool(
            "Write",
            "Writes a file, replacing it if it exists (read it first).",
            json!({"type": "object", "properties": {
                "file_path": path,
                "content": {"type": "string", "description": "The content to write."}
            }, "required": ["file_path", "content"]}),
        ),
        tool(
            "Edit",
            "Replaces exactly one occurrence of old_string with new_string (every occurrence with replace_all). Read the file first.",
            json!({"type": "object", "properties": {
                "file_path": path,
                "old_string": edit["properties"]["old_string"],
                "new_string": edit["properties"]["new_string"],
                "replace_all": edit["properties"]["replace_all"]
            }, "required": ["file_path", "old_string", "new_string"]}),
        ),
        tool(
            "MultiEdit",
            "Makes several edits to one file in one step: each applies to the result of the ones before it, and all apply or none.",
            json!({"type": "object", "properties": {
                "file_path": path,
                "edits": {"type": "array", "minItems": 1, "items": edit}
            }, "required": ["file_path", "edits"]}),
        ),
    ]
}

/// A parameter of the wrong kind or missing, in Claude Code's input-validation words.
fn invalid(message: impl Into<String>) -> Failure {
    Failure::new(ToolCode::InvalidParameter, message)
}

fn text<'a>(input: &'a Map<String, Value>, key: &str) -> Result<&'a str, Failure> {
    match input.get(key) {
        Some(Value::String(s)) => Ok(s),
        None | Some(Value::Null) => Err(Failure::new(
            ToolCode::MissingParameter,
            format!("InputValidationError: The required parameter `{key}` is missing"),
        )),
        Some(_) => Err(invalid(format!(
            "InputValidationError: The parameter `{key}` type is expected as `string`"
        ))),
    }
}

/// A file-layer error in Claude Code's texts where it has them.
fn failure_of(error: &hunkloom::Error) -> Failure {
    match error.kind() {
        ErrorKind::NotRead => Failure::new(ToolCode::NotRead, NOT_READ),
        ErrorKind::StaleFile => Failure::new(ToolCode::StaleFile, CHANGED),
        _ => Failure::of(error),
    }
}

/// `text` as Claude Code numbers it, from line `first` (1-based).
fn numbered(lines: &[&str], first: usize) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let shown: String = line.chars().take(MAX_LINE).collect();
        out.push_str(&format!("{:>6}→{shown}\n", first + i));
    }
    out
}

/// The lines of `new` around what differs from `old`, numbered.
fn snippet(old: &str, new: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let same_start = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let same_end = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
        .min(a.len().min(b.len()) - same_start);
    let start = same_start.saturating_sub(CONTEXT);
    let end = (b.len() - same_end + CONTEXT).min(b.len());
    numbered(&b[start..end.max(start)], start + 1)
}

fn updated(shown: &str, old: &str, new: &str) -> String {
    format!(
        "The file {shown} has been updated. Here's the result of running `cat -n` on a snippet \
         of the edited file:\n{}",
        snippet(old, new)
    )
}

/// Answers one call of `name` (one of [`definitions`]).
pub(super) fn call(
    ws: &Workspace,
    turns: &Turns,
    name: &str,
    input: &Value,
    semantics: Semantics,
) -> ToolResult {
    let native = semantics == Semantics::Native;
    let Some(input) = input.as_object() else {
        return ToolResult::default();
    };
    let path = input
        .get("file_path")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let answer = (|| {
        let file = text(input, "file_path")?;
        let rel = relative(ws.root(), file)?;
        let _turn = turns
            .take(
                &[ws.root().join(&rel)],
                ws.options().lock_timeout,
                Path::new(file),
            )
            .map_err(|e| Failure::of(&e))?;
        match name {
            "Read" => read(ws, input, &rel),
            "Write" => write(ws, input, &rel, file),
            "Edit" if native && ws.root().join(&rel).is_file() => {
                edit_native(ws, input, &rel, file)
            }
            "Edit" => edit(ws, input, &rel, file),
            _ => multi_edit(ws, input, &rel, file, native),
        }
    })();
    match answer {
        Ok(output) => ToolResult {
            output,
            path,
            ..ToolResult::default()
        },
        Err(f) => ToolResult {
            output: f.message,
            is_error: true,
            code: f.code.as_str().to_owned(),
            path,
            ..ToolResult::default()
        },
    }
}

/// `file` relative to the root (an absolute path must be inside it).
fn relative(root: &Path, file: &str) -> Result<String, Failure> {
    let p = Path::new(file);
    let rel = if p.is_absolute() {
        p.strip_prefix(root).map_err(|_| {
            Failure::new(
                ToolCode::PathOutsideRoot,
                format!("{file} is outside the working directory {}", root.display()),
            )
        })?
    } else {
        p
    };
    Ok(rel.to_string_lossy().into_owned())
}

/// A whole number parameter (`offset`, `limit`), if given.
fn number(input: &Map<String, Value>, key: &str) -> Result<Option<usize>, Failure> {
    match input.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(n) if n >= 0.0 && n.fract() == 0.0 => Ok(Some(n as usize)),
            _ => Err(invalid(format!(
                "InputValidationError: The parameter `{key}` type is expected as `number`"
            ))),
        },
    }
}

fn read(ws: &Workspace, input: &Map<String, Value>, rel: &str) -> Result<String, Failure> {
    let offset = number(input, "offset")?.unwrap_or(1).max(1);
    let limit = number(input, "limit")?.unwrap_or(DEFAULT_LIMIT);
    if ws.root().join(rel).is_dir() {
        return Err(Failure::new(
            ToolCode::IsDirectory,
            "EISDIR: illegal operation on a directory, read",
        ));
    }
    let content = ws.read(rel).map_err(|e| match e.kind() {
        ErrorKind::FileNotFound => Failure::new(ToolCode::FileNotFound, "File does not exist."),
        _ => Failure::of(&e),
    })?;
    if content.is_empty() {
        return Ok(
            "<system-reminder>Warning: the file exists but the contents are empty.\
                   </system-reminder>"
                .to_owned(),
        );
    }
    let lines: Vec<&str> = content.lines().collect();
    if offset > lines.len() {
        return Ok(format!(
            "<system-reminder>Warning: the file exists but is shorter than the provided offset \
             ({offset}). The file has {} lines.</system-reminder>",
            lines.len()
        ));
    }
    let end = (offset - 1 + limit).min(lines.len());
    Ok(numbered(&lines[offset - 1..end], offset))
}

fn write(
    ws: &Workspace,
    input: &Map<String, Value>,
    rel: &str,
    shown: &str,
) -> Result<String, Failure> {
    let content = text(input, "content")?;
    let existed = ws.root().join(rel).is_file();
    let before = if existed {
        ws.peek(rel).map_err(|e| failure_of(&e))?
    } else {
        String::new()
    };
    let op = Op::Overwrite {
        content: content.to_owned(),
    };
    commit(ws, rel, &op)?;
    if existed {
        Ok(updated(shown, &before, content))
    } else {
        Ok(format!("File created successfully at: {shown}"))
    }
}

/// Plans `op` on `rel` and commits it, in Claude Code's texts where it has them.
fn commit(ws: &Workspace, rel: &str, op: &Op) -> Result<(), Failure> {
    let change = ws.plan(rel, op).map_err(|e| failure_of(&e))?;
    ws.commit(vec![change]).map_err(|e| failure_of(&e))?;
    Ok(())
}

/// `Edit`'s answer after `replace_all`.
fn replaced_all(shown: &str, old: &str, new: &str) -> String {
    format!(
        "The file {shown} has been updated. All occurrences of '{old}' were successfully replaced \
         with '{new}'."
    )
}

/// One edit's fields.
fn edit_fields(item: &Map<String, Value>) -> Result<(&str, &str, bool), Failure> {
    let replace_all = match item.get("replace_all") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(invalid(
                "InputValidationError: The parameter `replace_all` type is expected as `boolean`",
            ));
        }
    };
    Ok((
        text(item, "old_string")?,
        text(item, "new_string")?,
        replace_all,
    ))
}

fn edit(
    ws: &Workspace,
    input: &Map<String, Value>,
    rel: &str,
    shown: &str,
) -> Result<String, Failure> {
    let (old, new, replace_all) = edit_fields(input)?;
    let before = ws.peek(rel).ok();
    let outcome = ws
        .str_replace(rel, old, new, replace_all)
        .map_err(|e| failure_of(&e))?;
    let after = outcome.new_content.unwrap_or_default();
    if replace_all {
        return Ok(replaced_all(shown, old, new));
    }
    match before {
        Some(before) => Ok(updated(shown, &before, &after)),
        None => Ok(format!("File created successfully at: {shown}")),
    }
}

/// `Edit` of an existing file with native semantics.
fn edit_native(
    ws: &Workspace,
    input: &Map<String, Value>,
    rel: &str,
    shown: &str,
) -> Result<String, Failure> {
    let (old, new, replace_all) = edit_fields(input)?;
    let peeked = ws.peek(rel).map_err(|e| failure_of(&e))?;
    let before = file::view_of(&peeked);
    let after = match native_step(&before, old, new, replace_all, rel) {
        Ok(Some(after)) => after,
        Ok(None) => return Ok(crate::messages::already_applied(shown)),
        // A file not read (or changed since) is refused for that first, as the reference
        // checks it before matching.
        Err(refused) => {
            let unchanged = Op::SetText {
                text: before.into_owned(),
            };
            return Err(match ws.plan(rel, &unchanged) {
                Err(e) if matches!(e.kind(), ErrorKind::NotRead | ErrorKind::StaleFile) => {
                    failure_of(&e)
                }
                _ => refused,
            });
        }
    };
    let op = Op::SetText {
        text: after.clone(),
    };
    commit(ws, rel, &op)?;
    if replace_all {
        return Ok(replaced_all(shown, old, new));
    }
    Ok(updated(shown, &before, &after))
}

/// One edit of `view` by hunkloom's own replacement, in Claude Code's texts: the new view, or
/// `None` when the edit is already there.
fn native_step(
    view: &str,
    old: &str,
    new: &str,
    replace_all: bool,
    rel: &str,
) -> Result<Option<String>, Failure> {
    match replace::native(view, old, new, replace_all, rel) {
        Ok(Replaced::Edit(replacement)) => Ok(Some(replacement.new_content)),
        Ok(Replaced::AlreadyThere) => Ok(None),
        Err(Refused::NotFound) => Err(Failure::new(
            ToolCode::NotFound,
            format!("String to replace not found in file.\nString: {old}"),
        )),
        Err(Refused::Multiple(lines)) => {
            let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
            Err(Failure::new(
                ToolCode::MultipleMatches,
                format!(
                    "Found {} matches of the string to replace (starting at lines {}), but \
                     replace_all is false. To replace all occurrences, set replace_all to true. \
                     To replace only one occurrence, please provide more context to uniquely \
                     identify the instance.",
                    lines.len(),
                    lines.join(", ")
                ),
            ))
        }
        Err(Refused::Unchanged) => Err(Failure::new(
            ToolCode::OldEqualsNew,
            "No changes to make: old_string and new_string are exactly the same.",
        )),
        Err(Refused::Other(e)) => Err(Failure::of(&e)),
    }
}

fn multi_edit(
    ws: &Workspace,
    input: &Map<String, Value>,
    rel: &str,
    shown: &str,
    native: bool,
) -> Result<String, Failure> {
    let edits = match input.get("edits") {
        Some(Value::Array(items)) if !items.is_empty() => items,
        Some(Value::Array(_)) => {
            return Err(invalid(
                "InputValidationError: The parameter `edits` must have at least 1 item",
            ));
        }
        None | Some(Value::Null) => {
            return Err(Failure::new(
                ToolCode::MissingParameter,
                "InputValidationError: The required parameter `edits` is missing",
            ));
        }
        Some(_) => {
            return Err(invalid(
                "InputValidationError: The parameter `edits` type is expected as `array`",
            ));
        }
    };
    let exists = ws.root().join(rel).is_file();
    let original = if exists {
        Some(
            ws.peek(rel)
                .map_err(|e| failure_of(&e))?
                .replace("\r\n", "\n"),
        )
    } else {
        None
    };
    let mut current = original.clone();
    let mut earlier_new: Vec<&str> = Vec::new();
    let mut lines = Vec::new();
    for (i, item) in edits.iter().enumerate() {
        let Some(item) = item.as_object() else {
            return Err(invalid(format!(
                "InputValidationError: edits[{i}] is expected as an object"
            )));
        };
        let (old, new, replace_all) = edit_fields(item)?;
        if !old.is_empty() && earlier_new.iter().any(|n| n.contains(old)) {
            return Err(Failure::new(
                ToolCode::InvalidOperation,
                format!(
                    "Cannot edit file: old_string is a substring of a new_string from a previous \
                     edit.\nString: {old}"
                ),
            ));
        }
        current = match current {
            Some(view) if native => {
                Some(native_step(&view, old, new, replace_all, rel)?.unwrap_or(view))
            }
            _ => Some(
                hunkloom::ops::str_replace(current.as_deref(), old, new, replace_all, Some(rel))
                    .map_err(|e| Failure::of(&e))?
                    .new_content,
            ),
        };
        earlier_new.push(new);
        lines.push(format!(
            "{}. Replaced \"{}\" with \"{}\"",
            i + 1,
            short(old),
            short(new)
        ));
    }
    let text = current.unwrap_or_default();
    let op = if exists {
        Op::SetText { text: text.clone() }
    } else {
        Op::Write {
            content: text.clone(),
        }
    };
    commit(ws, rel, &op)?;
    Ok(format!(
        "Applied {} edit{} to {shown}:\n{}",
        edits.len(),
        if edits.len() == 1 { "" } else { "s" },
        lines.join("\n")
    ))
}

/// An edit's text for the summary: its first 50 characters, `...` if longer.
fn short(text: &str) -> String {
    let cut: String = text.chars().take(50).collect();
    if cut.len() < text.len() {
        format!("{cut}...")
    } else {
        cut
    }
}

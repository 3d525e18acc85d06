//! The `gemini` profile: the Gemini CLI's `replace`, `write_file` and `read_file` as
//! `@google/gemini-cli-core` 0.61.0 answers them with its LLM correction off (its default),
//! specified by `tests/vectors/toolsets/gemini*.jsonl`.
//!
//! What the model receives is the CLI scheduler's text: the tool's `llmContent` on success,
//! the error message otherwise (parameter errors come as ajv's raw text, `params must have
//! required property 'instruction'`). Paths resolve against the root (symlinks followed);
//! `replace` also finds a unique file by the tail of a relative path; paths outside the root
//! or through `.env`, `.git`, `node_modules` are refused with the CLI's "Path not in
//! workspace" text.
//!
//! Deliberate differences (each a place where the CLI would write something it should not):
//! - the CLI also admits its per-project temp folder (`~/.gemini/tmp/<project>`); the toolset
//!   names it in the refusal text as the CLI does but admits only the root;
//! - a file that is not UTF-8 is not rewritten (the CLI reads it with U+FFFD for each bad byte
//!   and writes that back): `replace` and `write_file` on it answer `unsupported_encoding`;
//! - where the CLI's line-window matching would drop the text of a line that ends in a lone
//!   `\r`, U+2028 or U+2029 while rewriting the file, `replace` refuses
//!   (`unrepresentable_text`) and writes nothing;
//! - writes are atomic and go through the file layer (its protected paths refused).

mod js;
mod native;
mod paths;
mod replace;
mod snippet;

use std::path::Path;

use hunkloom_fs::{Op, Turns, Workspace};
use serde_json::{Map, Value};

use super::{Semantics, ToolDefinition};
use crate::ToolResult;
use crate::codes::ToolCode;
use crate::result::Failure;

/// The tool declarations the CLI sends (`getSchema("auto")`, gemini-3 family).
const TOOLS_JSON: &str = include_str!("gemini-tools.json");
/// Lines `read_file` shows at most without a range.
const MAX_LINES: usize = 2000;
/// Characters (UTF-16 units) of a line `read_file` shows before cutting it.
const MAX_LINE_LENGTH: usize = 2000;
/// Files larger than this are not read (the CLI's 20 MB).
const MAX_FILE_MB: f64 = 20.0;

/// The three tools, as the CLI declares them.
pub(super) fn definitions() -> Vec<ToolDefinition> {
    let parsed: Value = serde_json::from_str(TOOLS_JSON).unwrap_or_default();
    super::definitions_from(&parsed["tools"])
}

/// A JSON type a parameter must have.
#[derive(Clone, Copy)]
enum Kind {
    String,
    Boolean,
    /// An integer of at least 1.
    LineNumber,
}

/// What ajv checks of one tool's input, in the schema's order.
struct Schema {
    required: &'static [&'static str],
    properties: &'static [(&'static str, Kind)],
}

const REPLACE: Schema = Schema {
    required: &["file_path", "instruction", "old_string", "new_string"],
    properties: &[
        ("file_path", Kind::String),
        ("instruction", Kind::String),
        ("old_string", Kind::String),
        ("new_string", Kind::String),
        ("allow_multiple", Kind::Boolean),
    ],
};

const WRITE_FILE: Schema = Schema {
    required: &["file_path", "content"],
    properties: &[("file_path", Kind::String), ("content", Kind::String)],
};

const READ_FILE: Schema = Schema {
    required: &["file_path"],
    properties: &[
        ("file_path", Kind::String),
        ("start_line", Kind::LineNumber),
        ("end_line", Kind::LineNumber),
    ],
};

/// ajv's first error for `input` against `schema`, in its words (`dataVar` `params`).
fn validate(schema: &Schema, input: &Map<String, Value>) -> Result<(), Failure> {
    if let Some(missing) = schema.required.iter().find(|k| !input.contains_key(**k)) {
        return Err(Failure::new(
            ToolCode::MissingParameter,
            format!("params must have required property '{missing}'"),
        ));
    }
    for (name, kind) in schema.properties {
        let Some(value) = input.get(*name) else {
            continue;
        };
        let wrong = |what: &str| {
            Failure::new(
                ToolCode::InvalidParameter,
                format!("params/{name} must be {what}"),
            )
        };
        match kind {
            Kind::String if !value.is_string() => return Err(wrong("string")),
            Kind::Boolean if !value.is_boolean() => return Err(wrong("boolean")),
            Kind::LineNumber => match value.as_f64() {
                Some(n) if n.fract() == 0.0 => {
                    if n < 1.0 {
                        return Err(wrong(">= 1"));
                    }
                }
                _ => return Err(wrong("integer")),
            },
            _ => {}
        }
    }
    Ok(())
}

/// The text of a string parameter already validated (empty if absent).
fn text<'a>(input: &'a Map<String, Value>, key: &str) -> &'a str {
    input.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// `detectOmissionPlaceholders`: each line that is only `rest of …`, `unchanged code …` and
/// the like followed by `...` (after trimming, one `//` and one pair of parentheses removed),
/// normalised.
fn omission_placeholders(text: &str) -> Vec<String> {
    const PREFIXES: &[&str] = &[
        "rest of",
        "rest of method",
        "rest of methods",
        "rest of code",
        "unchanged code",
        "unchanged method",
        "unchanged methods",
    ];
    let mut found = Vec::new();
    for line in text.replace("\r\n", "\n").split('\n') {
        let mut t = js::trim(line);
        if t.is_empty() {
            continue;
        }
        if let Some(rest) = t.strip_prefix("//") {
            t = js::trim(rest);
        }
        if t.len() >= 2 && t.starts_with('(') && t.ends_with(')') {
            t = js::trim(&t[1..t.len() - 1]);
        }
        let Some(at) = t.find("...") else { continue };
        let prefix = js::trim(&t[..at]).to_lowercase();
        let prefix = prefix
            .split([' ', '\t', '\n', '\r'])
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let suffix = js::trim(&t[at + 3..]);
        if PREFIXES.contains(&prefix.as_str()) && suffix.chars().all(|c| c == '.') {
            found.push(format!("{prefix} ..."));
        }
    }
    found
}

/// The calls of one toolset: the workspace and where the CLI's texts point.
struct Gemini<'a> {
    ws: &'a Workspace,
    turns: &'a Turns,
    root: &'a Path,
    /// hunkloom's own matching, guards and encodings under the CLI's tool names and texts
    /// (see [`native`]).
    native: bool,
}

/// Answers one call of `name` (one of [`definitions`]).
pub(super) fn call(
    ws: &Workspace,
    turns: &Turns,
    name: &str,
    input: &Value,
    semantics: Semantics,
) -> ToolResult {
    let Some(input) = input.as_object() else {
        return ToolResult::default();
    };
    let g = Gemini {
        ws,
        turns,
        root: ws.root(),
        native: semantics == Semantics::Native,
    };
    let answer = match name {
        "replace" => g.replace(input),
        "write_file" => g.write_file(input),
        _ => g.read_file(input),
    };
    match answer {
        Ok(result) => result,
        Err((failure, path)) => ToolResult {
            output: failure.message,
            is_error: true,
            code: failure.code.as_str().to_owned(),
            path,
            ..ToolResult::default()
        },
    }
}

/// A failed call: the failure and the path it was about.
type Failed = (Failure, Option<String>);

fn bare(failure: Failure) -> Failed {
    (failure, None)
}

impl Gemini<'_> {
    /// The CLI's refusal of a path outside the workspace.
    fn not_in_workspace(&self, resolved: &Path) -> Failure {
        let home = std::env::var("HOME").unwrap_or_else(|_| "~".to_owned());
        let project = self
            .root
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let code = if resolved.starts_with(self.root) {
            ToolCode::PathProtected
        } else {
            ToolCode::PathOutsideRoot
        };
        Failure::new(
            code,
            format!(
                "Path not in workspace: Attempted path \"{}\" resolves outside the allowed \
                 workspace directories: {} or the project temp directory: \
                 {home}/.gemini/tmp/{project}",
                resolved.display(),
                self.root.display()
            ),
        )
    }

    fn admit(&self, resolved: &Path) -> Result<(), Failure> {
        if paths::admitted(self.root, resolved) {
            Ok(())
        } else {
            Err(self.not_in_workspace(resolved))
        }
    }

    /// `resolved` relative to the root, for the file layer.
    fn relative<'p>(&self, resolved: &'p Path) -> &'p Path {
        resolved.strip_prefix(self.root).unwrap_or(resolved)
    }

    /// The file's text as the CLI reads it for an edit (UTF-8; bad bytes as U+FFFD, a BOM
    /// kept as a character); `None` if it does not exist. The file layer records the read,
    /// and refuses a file that is not UTF-8 (it would be written back damaged).
    fn read_for_write(&self, resolved: &Path) -> Result<Option<String>, Failure> {
        let bytes = match std::fs::read(resolved) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) if resolved.is_dir() => {
                drop(e);
                return Err(Failure::new(
                    ToolCode::IsDirectory,
                    "EISDIR: illegal operation on a directory, read",
                ));
            }
            Err(e) => return Err(Failure::new(ToolCode::IoError, e.to_string())),
        };
        let decoded = self
            .ws
            .read(self.relative(resolved))
            .map_err(|e| Failure::of(&e))?;
        if self.native {
            return Ok(Some(decoded));
        }
        Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
    }

    /// Writes `content` atomically through the file layer: as UTF-8 bytes, or, with native
    /// semantics, in the file's own encoding and under the file layer's guards (which may
    /// merge a lazy rewrite into the file). The text the file now holds.
    fn write(&self, resolved: &Path, content: &str) -> Result<String, Failure> {
        if self.native {
            let op = Op::Write {
                content: content.to_owned(),
            };
            return self.commit(resolved, &op);
        }
        let op = Op::WriteUtf8 {
            content: content.to_owned(),
        };
        self.commit(resolved, &op)?;
        Ok(content.to_owned())
    }

    /// Plans and commits `op` on the file; the text it now holds.
    fn commit(&self, resolved: &Path, op: &Op) -> Result<String, Failure> {
        let change = self
            .ws
            .plan(self.relative(resolved), op)
            .map_err(|e| Failure::of(&e))?;
        let outcome = self.ws.commit(vec![change]).map_err(|e| Failure::of(&e))?;
        Ok(outcome
            .into_iter()
            .next()
            .and_then(|o| o.new_content)
            .unwrap_or_default())
    }

    fn turn_for(&self, resolved: &Path) -> Result<hunkloom_fs::Turn<'_>, Failure> {
        self.turns
            .take(
                &[resolved.to_path_buf()],
                self.ws.options().lock_timeout,
                self.relative(resolved),
            )
            .map_err(|e| Failure::of(&e))
    }

    fn replace(&self, input: &Map<String, Value>) -> Result<ToolResult, Failed> {
        validate(&REPLACE, input).map_err(bare)?;
        let given = text(input, "file_path");
        if given.is_empty() {
            return Err(bare(Failure::new(
                ToolCode::MissingParameter,
                "The 'file_path' parameter must be non-empty.",
            )));
        }
        let (old, new) = (text(input, "old_string"), text(input, "new_string"));
        let allow_multiple = input.get("allow_multiple").and_then(Value::as_bool) == Some(true);
        let resolved = paths::for_replace(self.root, given);
        let shown = resolved.display().to_string();
        let with_path = |f: Failure| (f, Some(shown.clone()));
        let added = omission_placeholders(new);
        if !added.is_empty() {
            let had = omission_placeholders(old);
            if added.iter().any(|p| !had.contains(p)) {
                return Err(with_path(Failure::new(
                    ToolCode::OmissionPlaceholder,
                    "`new_string` contains an omission placeholder (for example 'rest of \
                     methods ...'). Provide exact literal replacement text.",
                )));
            }
        }
        self.admit(&resolved).map_err(with_path)?;
        let _turn = self.turn_for(&resolved).map_err(with_path)?;
        let Some(raw) = self.read_for_write(&resolved).map_err(with_path)? else {
            if !old.is_empty() {
                return Err(with_path(Failure::new(
                    ToolCode::FileNotFound,
                    format!("File not found: {shown}"),
                )));
            }
            let written = self.write(&resolved, new).map_err(with_path)?;
            return Ok(ToolResult {
                output: format!(
                    "Created new file: {shown} with provided content. Here is the updated \
                     code:\n{}",
                    snippet::snippet("", &written)
                ),
                path: Some(shown),
                new_content: Some(written),
                ..ToolResult::default()
            });
        };
        if old.is_empty() {
            return Err(with_path(Failure::new(
                ToolCode::FileExists,
                format!("File already exists, cannot create: {shown}"),
            )));
        }
        if self.native {
            return self.replace_native(input, &raw, &resolved, given, &shown);
        }
        let crlf = raw.contains("\r\n");
        let current = raw.replace("\r\n", "\n");
        let found = replace::calculate(&current, old, new, allow_multiple);
        if found.occurrences == 0 {
            return Err(with_path(Failure::new(
                ToolCode::NotFound,
                format!(
                    "Could not find an exact match for 'old_string' in '{given}'. If previous \
                     edits modified the file or you are modifying lines outside your recent \
                     read window, please use ReadFile to inspect the target lines before \
                     retrying with an exact 'old_string'."
                ),
            )));
        }
        if !allow_multiple && found.occurrences != 1 {
            return Err(with_path(Failure::new(
                ToolCode::MultipleMatches,
                format!(
                    "Failed to edit, Expected 1 occurrence but found {} for old_string in \
                     file: {shown}. If you intended to replace multiple occurrences, set \
                     'allow_multiple' to true.",
                    found.occurrences
                ),
            )));
        }
        if old.replace("\r\n", "\n") == new.replace("\r\n", "\n") {
            return Err(with_path(Failure::new(
                ToolCode::OldEqualsNew,
                format!(
                    "No changes to apply. The old_string and new_string are identical in \
                     file: {shown}"
                ),
            )));
        }
        if found.torn {
            return Err(with_path(Failure::new(
                ToolCode::UnrepresentableText,
                format!(
                    "Failed to edit {shown}: a line of it ends in a lone carriage return or a \
                     line separator, which this match would drop. Nothing was written."
                ),
            )));
        }
        let written = if crlf {
            found.text.replace('\n', "\r\n")
        } else {
            found.text.clone()
        };
        let written = self.write(&resolved, &written).map_err(with_path)?;
        let mut output = format!(
            "Successfully modified file: {shown} ({} replacements). Here is the updated \
             code:\n{}",
            found.occurrences,
            snippet::snippet(&current, &written)
        );
        if !found.fuzzy_ranges.is_empty() {
            let ranges: Vec<String> = found
                .fuzzy_ranges
                .iter()
                .map(|&(s, e)| {
                    if s == e {
                        s.to_string()
                    } else {
                        format!("{s}-{e}")
                    }
                })
                .collect();
            let plural = if ranges.len() > 1 { "s" } else { "" };
            output.push_str(&format!(
                " Applied fuzzy match at line{plural} {}.",
                ranges.join(", ")
            ));
        }
        Ok(ToolResult {
            output,
            path: Some(shown),
            old_content: Some(raw),
            new_content: Some(written),
            ..ToolResult::default()
        })
    }

    fn write_file(&self, input: &Map<String, Value>) -> Result<ToolResult, Failed> {
        validate(&WRITE_FILE, input).map_err(bare)?;
        let given = text(input, "file_path");
        if given.is_empty() {
            return Err(bare(Failure::new(
                ToolCode::MissingParameter,
                "Missing or empty \"file_path\"",
            )));
        }
        let content = text(input, "content");
        let resolved = paths::real(self.root, &paths::defensive(self.root, given));
        let shown = resolved.display().to_string();
        let with_path = |f: Failure| (f, Some(shown.clone()));
        self.admit(&resolved).map_err(with_path)?;
        if resolved.is_dir() {
            return Err(with_path(Failure::new(
                ToolCode::IsDirectory,
                format!("Path is a directory, not a file: {shown}"),
            )));
        }
        if !omission_placeholders(content).is_empty() {
            return Err(with_path(Failure::new(
                ToolCode::OmissionPlaceholder,
                "`content` contains an omission placeholder (for example 'rest of methods \
                 ...'). Provide complete file content.",
            )));
        }
        let _turn = self.turn_for(&resolved).map_err(with_path)?;
        let original = self.read_for_write(&resolved).map_err(with_path)?;
        let crlf = original.as_deref().is_some_and(|o| o.contains("\r\n"));
        let written = if crlf {
            content.replace("\r\n", "\n").replace('\n', "\r\n")
        } else {
            content.to_owned()
        };
        let written = self.write(&resolved, &written).map_err(with_path)?;
        let head = match original {
            None => format!("Successfully created and wrote to new file: {shown}."),
            Some(_) => format!("Successfully overwrote file: {shown}."),
        };
        let before = original.as_deref().unwrap_or_default();
        Ok(ToolResult {
            output: format!(
                "{head} Here is the updated code:\n{}",
                snippet::snippet(before, &written)
            ),
            path: Some(shown),
            old_content: original,
            new_content: Some(written),
            ..ToolResult::default()
        })
    }

    fn read_file(&self, input: &Map<String, Value>) -> Result<ToolResult, Failed> {
        validate(&READ_FILE, input).map_err(bare)?;
        let given = text(input, "file_path");
        if js::trim(given).is_empty() {
            return Err(bare(Failure::new(
                ToolCode::MissingParameter,
                "The 'file_path' parameter must be non-empty.",
            )));
        }
        let resolved = paths::real(self.root, &paths::defensive(self.root, given));
        let shown = resolved.display().to_string();
        let with_path = |f: Failure| (f, Some(shown.clone()));
        self.admit(&resolved).map_err(with_path)?;
        let line = |key: &str| input.get(key).and_then(Value::as_f64).map(|n| n as usize);
        let (start, end) = (line("start_line"), line("end_line"));
        if let (Some(s), Some(e)) = (start, end)
            && s > e
        {
            return Err(with_path(Failure::new(
                ToolCode::InvalidViewRange,
                "start_line cannot be greater than end_line",
            )));
        }
        let output = self.read_text(&resolved, start, end).map_err(with_path)?;
        Ok(ToolResult {
            output,
            path: Some(shown),
            ..ToolResult::default()
        })
    }

    /// `processSingleFileContent` for a text file, with `read_file`'s truncation notice.
    fn read_text(
        &self,
        resolved: &Path,
        start: Option<usize>,
        end: Option<usize>,
    ) -> Result<String, Failure> {
        let shown = resolved.display();
        let meta = std::fs::metadata(resolved).map_err(|_| {
            Failure::new(ToolCode::FileNotFound, format!("File not found: {shown}"))
        })?;
        if meta.is_dir() {
            return Err(Failure::new(
                ToolCode::IsDirectory,
                format!("Path is a directory, not a file: {shown}"),
            ));
        }
        let mb = meta.len() as f64 / (1024.0 * 1024.0);
        if mb > MAX_FILE_MB {
            return Err(Failure::new(
                ToolCode::FileTooLarge,
                format!("File size exceeds the 20MB limit: {shown} ({mb:.2}MB)"),
            ));
        }
        let bytes = std::fs::read(resolved).map_err(|e| {
            let rel = self.relative(resolved).display().to_string();
            Failure::new(
                ToolCode::IoError,
                format!("Error reading file {shown}: {e} ({rel})"),
            )
        })?;
        let Some(content) = decode_for_reading(&bytes) else {
            return Ok(format!(
                "Cannot display content of binary file: {}",
                self.relative(resolved).display()
            ));
        };
        let lines = js::split_lines(&content);
        let count = lines.len();
        let (slice_start, slice_end) = if start.is_some() || end.is_some() {
            let s = start.map_or(0, |s| s - 1);
            let e = match end {
                Some(e) => e.min(count),
                None => (s + MAX_LINES).min(count),
            };
            (s, e)
        } else {
            (0, MAX_LINES.min(count))
        };
        let actual_start = slice_start.min(count);
        let selected = lines
            .get(actual_start..slice_end.max(actual_start))
            .unwrap_or_default();
        let mut cut = false;
        let shown_lines: Vec<String> = selected
            .iter()
            .map(|line| {
                if js::len(line) > MAX_LINE_LENGTH {
                    cut = true;
                    format!("{}... [truncated]", first_units(line, MAX_LINE_LENGTH))
                } else {
                    (*line).to_owned()
                }
            })
            .collect();
        let body = shown_lines.join("\n");
        if actual_start > 0 || slice_end < count || cut {
            Ok(format!(
                "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines \
                 {}-{slice_end} of {count} total lines.\nAction: To read more of the file, you \
                 can use the 'start_line' and 'end_line' parameters in a subsequent \
                 'read_file' call. For example, to read the next section of the file, use \
                 start_line: {}.\n\n--- FILE CONTENT (truncated) ---\n{body}",
                actual_start + 1,
                slice_end + 1
            ))
        } else {
            Ok(body)
        }
    }
}

/// The longest prefix of `line` within `units` UTF-16 code units.
fn first_units(line: &str, units: usize) -> &str {
    let mut used = 0;
    for (at, c) in line.char_indices() {
        used += c.len_utf16();
        if used > units {
            return &line[..at];
        }
    }
    line
}

/// A file's text as `read_file` decodes it (`readFileWithEncoding`): by its BOM (UTF-8 or
/// UTF-16, the BOM not shown), else UTF-8 with U+FFFD for bad bytes; `None` for a binary
/// file (a NUL byte in its first 4 KiB and no UTF-16 BOM).
fn decode_for_reading(bytes: &[u8]) -> Option<String> {
    let utf16 = |rest: &[u8], le: bool| {
        let units: Vec<u16> = rest
            .chunks(2)
            .map(|c| {
                let pair = [c[0], c.get(1).copied().unwrap_or(0)];
                if le {
                    u16::from_le_bytes(pair)
                } else {
                    u16::from_be_bytes(pair)
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return Some(String::from_utf8_lossy(rest).into_owned());
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return Some(utf16(rest, true));
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return Some(utf16(rest, false));
    }
    if bytes[..bytes.len().min(4096)].contains(&0) {
        return None;
    }
    Some(String::from_utf8_lossy(bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_the_clis() {
        assert_eq!(
            omission_placeholders("x\n(rest of methods ...)"),
            ["rest of methods ..."]
        );
        assert_eq!(
            omission_placeholders("// unchanged code ...."),
            ["unchanged code ..."]
        );
        assert!(omission_placeholders("# rest of code ...").is_empty());
        assert!(omission_placeholders("rest of code ... here").is_empty());
    }

    #[test]
    fn parameters_are_checked_as_ajv_words_it() {
        let input = |v: Value| v.as_object().cloned().unwrap_or_default();
        let err = |v| validate(&READ_FILE, &input(v)).unwrap_err().message;
        assert_eq!(
            err(serde_json::json!({})),
            "params must have required property 'file_path'"
        );
        assert_eq!(
            err(serde_json::json!({"file_path": "a", "start_line": 1.5})),
            "params/start_line must be integer"
        );
        assert_eq!(
            err(serde_json::json!({"file_path": "a", "end_line": 0})),
            "params/end_line must be >= 1"
        );
        assert!(
            validate(
                &READ_FILE,
                &input(serde_json::json!({"file_path": "a", "start_line": 2.0}))
            )
            .is_ok()
        );
    }

    #[test]
    fn declarations_parse() {
        let names: Vec<String> = definitions().into_iter().map(|d| d.name).collect();
        assert_eq!(names, ["replace", "write_file", "read_file"]);
    }
}

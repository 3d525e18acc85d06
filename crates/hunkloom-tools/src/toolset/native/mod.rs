//! The `native` tool set: hunkloom's own recommended tools, as `hunkloom mcp` serves them by
//! default — `read_file`, `apply_diff` (SEARCH/REPLACE), `apply_lazy`, `apply_patch` (several
//! files, all or none), `undo_edit`, and the text editor under the name
//! `str_replace_based_edit_tool`. Each call is one call of the file layer ([`Workspace`]) or of
//! the [`TextEditor`]; [`render`] gives the texts; no edit logic lives here.
//!
//! # One root, two trackers
//!
//! [`Native`] holds one [`Workspace`] for `apply_diff`, `apply_lazy`, `apply_patch`,
//! `read_file` and `undo_edit`, and one [`TextEditor`] for `str_replace_based_edit_tool`. Both
//! are opened on the same canonical root, with the same ignore file (`.hunkloomignore`) and the
//! same path rules, so a path is refused or accepted alike by every tool. The text editor keeps
//! its own record of viewed files and its own undo history, as the reference editors it
//! reproduces do: a file changed by one side is stale for the other, whose next edit is then
//! refused until the file is read (or viewed) again — never overwritten blindly. `undo_edit`
//! takes back the workspace tools' edits; the text editor's edits are taken back by its own
//! `undo_edit` command.

mod args;
mod render;
mod tools;

use std::path::{Path, PathBuf};

use hunkloom::ApplyOptions;
use hunkloom::patch::{PatchDialect, PatchOptions};
use hunkloom_fs::{EditOutcome, Op, Workspace, WorkspaceOptions};
use serde_json::{Map, Value};

use self::args::Arguments;
use self::tools::{DEFAULT_READ_LINES, ToolName};
use super::{ToolDefinition, ToolsetOptions};
use crate::codes::ToolCode;
use crate::{Profile, TextEditor, ToolResult};

/// The native tools over one root: the workspace and the text editor.
#[derive(Debug)]
pub(crate) struct Native {
    workspace: Workspace,
    /// `None` when the set is read-only: every tool that writes is then refused.
    editor: Option<TextEditor>,
}

impl Native {
    /// The set over `root` (which must be a directory) with `options`: the text editor in
    /// `options.editor`'s profile (Anthropic's answering as text_editor_20250728, the editor that
    /// goes by the name `str_replace_based_edit_tool`); a read-only set has no editor.
    pub(crate) fn open(root: &Path, options: &ToolsetOptions) -> hunkloom::Result<Native> {
        let mut ws = WorkspaceOptions::new()
            .durability(options.durability)
            .protect(options.protect.iter().cloned());
        if let Some(bytes) = options.max_file_size {
            ws = ws.max_file_size(bytes);
        }
        let workspace = Workspace::open(root, ws)?;
        let editor = if options.read_only {
            None
        } else {
            let profile = options.editor_profile();
            let mut editor = options.editor_options(profile);
            editor.newest_anthropic = profile == Profile::Anthropic;
            Some(TextEditor::new(workspace.root(), editor)?)
        };
        Ok(Native { workspace, editor })
    }

    /// The root (canonical).
    pub(crate) fn root(&self) -> &Path {
        self.workspace.root()
    }

    /// The tool definitions: all six, or only `read_file` when the set is read-only.
    pub(crate) fn definitions(&self, options: &ToolsetOptions) -> Vec<ToolDefinition> {
        tools::definitions(self.root(), options.editor_profile(), options.read_only)
    }

    /// The file `path` names, as the workspace resolves it (`None` if it refuses it: the call
    /// will be refused too).
    pub(crate) fn resolve(&self, path: &str) -> Option<PathBuf> {
        self.workspace.resolve(path).ok()
    }

    /// The text editor, when `name` is its tool (and the set is not read-only).
    pub(crate) fn editor_of(&self, name: &str) -> Option<&TextEditor> {
        (ToolName::from_name(name) == Some(ToolName::TextEditor))
            .then_some(self.editor.as_ref())
            .flatten()
    }

    /// Whether the tool `name` is a tool of the set that may touch any file (a patch).
    pub(crate) fn touches_any(name: &str) -> bool {
        ToolName::from_name(name) == Some(ToolName::ApplyPatch)
    }

    /// Answers one call of the tool `name` (one of [`definitions`](Native::definitions)) with
    /// `arguments`.
    pub(crate) fn call(&self, name: &str, arguments: &Map<String, Value>) -> ToolResult {
        let Some(tool) = ToolName::from_name(name) else {
            return refused(ToolCode::UnknownTool, format!("Unknown tool {name:?}.")).into();
        };
        let answer = match tool {
            ToolName::TextEditor => return self.text_editor(arguments),
            ToolName::ApplyDiff => self.apply_diff(arguments),
            ToolName::ApplyLazy => self.apply_lazy(arguments),
            ToolName::ApplyPatch => self.apply_patch(arguments),
            ToolName::ReadFile => self.read_file(arguments),
            ToolName::UndoEdit => self.undo_edit(arguments),
        };
        answer.unwrap_or_else(ToolResult::from)
    }

    fn text_editor(&self, arguments: &Map<String, Value>) -> ToolResult {
        let Some(editor) = &self.editor else {
            return read_only_refusal(ToolName::TextEditor).into();
        };
        match editor.call(&Value::Object(arguments.clone())) {
            Ok(result) => result,
            Err(e) => refused_as(e.code(), e.message()).into(),
        }
    }

    fn apply_diff(&self, arguments: &Map<String, Value>) -> Answer {
        let (path, op) = self.file_edit(ToolName::ApplyDiff, arguments)?;
        let outcome = self
            .workspace
            .edit(path, &op)
            .map_err(|e| render::refusal(ToolName::ApplyDiff, Some(path), &e))?;
        Ok(edited(path, render::diff_applied(path, &outcome), outcome))
    }

    fn apply_lazy(&self, arguments: &Map<String, Value>) -> Answer {
        let (path, op) = self.file_edit(ToolName::ApplyLazy, arguments)?;
        let outcome = self
            .workspace
            .edit(path, &op)
            .map_err(|e| render::refusal(ToolName::ApplyLazy, Some(path), &e))?;
        Ok(edited(path, render::lazy_applied(path, &outcome), outcome))
    }

    /// The path and the workspace edit of an `apply_diff` (a native SEARCH/REPLACE diff) or
    /// `apply_lazy` call, or its refusal.
    fn file_edit<'a>(
        &self,
        tool: ToolName,
        arguments: &'a Map<String, Value>,
    ) -> Result<(&'a str, Op), Refusal> {
        self.writable(tool)?;
        let args = Arguments::new(tool, arguments)?;
        let path = args.path()?;
        let op = if tool == ToolName::ApplyDiff {
            Op::Diff {
                diff: args.text("diff")?.to_owned(),
                options: ApplyOptions::new(),
            }
        } else {
            Op::Lazy {
                snippet: args.text("snippet")?.to_owned(),
                language: None,
            }
        };
        Ok((path, op))
    }

    /// Whether a call of `name` edits files that a stream can preview: `apply_diff` (whose
    /// `diff` streams through the native applier), `apply_lazy`, and `apply_patch` (its
    /// `*** Begin Patch` envelope read file by file).
    pub(crate) fn previews(&self, name: &str) -> bool {
        self.editor.is_some()
            && matches!(
                ToolName::from_name(name),
                Some(ToolName::ApplyDiff | ToolName::ApplyLazy | ToolName::ApplyPatch)
            )
    }

    /// The argument of the tool `name` that streams as a native SEARCH/REPLACE diff over the
    /// file (`apply_diff`'s `diff`).
    pub(crate) fn streamed_diff(&self, name: &str) -> Option<&'static [&'static str]> {
        (ToolName::from_name(name) == Some(ToolName::ApplyDiff)).then_some(&["diff"])
    }

    /// The argument of the tool `name` that streams as a `*** Begin Patch` envelope over the
    /// files it names (`apply_patch`'s `patch`).
    pub(crate) fn streamed_patch(&self, name: &str) -> Option<&'static [&'static str]> {
        (ToolName::from_name(name) == Some(ToolName::ApplyPatch)).then_some(&["patch"])
    }

    /// The text of the file `path`, without counting as a read (`None` if it cannot be read):
    /// what a streamed `apply_diff` is previewed over.
    pub(crate) fn peek(&self, path: &str) -> Option<String> {
        self.workspace.peek(path).ok()
    }

    /// The text a complete call of `name` (a tool that [`previews`](Self::previews)) will
    /// leave, planned exactly as the call plans it, writing nothing; `None` if it will fail.
    pub(crate) fn plan(&self, name: &str, arguments: &Map<String, Value>) -> Option<String> {
        let tool = ToolName::from_name(name).filter(|_| self.previews(name))?;
        if tool == ToolName::ApplyPatch {
            return self.plan_patch(arguments);
        }
        let (path, op) = self.file_edit(tool, arguments).ok()?;
        let change = self.workspace.plan(path, &op).ok()?;
        change.new_text().map(str::to_owned)
    }

    fn apply_patch(&self, arguments: &Map<String, Value>) -> Answer {
        let tool = ToolName::ApplyPatch;
        let (patch, options) = self.patch_call(arguments)?;
        let outcome = self
            .workspace
            .apply_patch(patch, &options)
            .map_err(|e| render::refusal(tool, None, &e))?;
        let text = render::patch_applied(&outcome);
        // A patch of one file: its path and text, as the other edit tools give them.
        let (path, new_content) = match outcome.files.as_slice() {
            [one] => (Some(one.path.clone()), one.new_content.clone()),
            _ => (None, None),
        };
        Ok(ToolResult {
            path,
            new_content,
            ..ok(text)
        })
    }

    /// An `apply_patch` call's patch and how to read it, checked as the call checks them.
    fn patch_call<'a>(
        &self,
        arguments: &'a Map<String, Value>,
    ) -> Result<(&'a str, PatchOptions), Refusal> {
        let tool = ToolName::ApplyPatch;
        self.writable(tool)?;
        let args = Arguments::new(tool, arguments)?;
        let patch = args.text("patch")?;
        let dialect = match args.optional_text("format")? {
            None => PatchDialect::Native,
            Some(name) => name
                .parse::<PatchDialect>()
                .ok()
                .filter(|d| *d != PatchDialect::Cline && *d != PatchDialect::UdiffStrict)
                .ok_or_else(|| {
                    refused(
                        ToolCode::InvalidParameter,
                        format!(
                            "`format` must be one of native, codex, udiff, aider, \
                             aider-fenced, aider-whole or aider-native, not {name:?}."
                        ),
                    )
                })?,
        };
        Ok((patch, PatchOptions::new().dialect(dialect)))
    }

    /// The text an `apply_patch` call that changes one file leaves in it, planned as the call
    /// plans it, writing nothing; `None` for a patch of several files and for one that will
    /// fail or change nothing.
    fn plan_patch(&self, arguments: &Map<String, Value>) -> Option<String> {
        let (patch, options) = self.patch_call(arguments).ok()?;
        let plan = self.workspace.plan_patch(patch, &options).ok()?;
        match plan.files.as_slice() {
            [one] if plan.failure.is_none() => one.new_content.clone(),
            _ => None,
        }
    }

    fn read_file(&self, arguments: &Map<String, Value>) -> Answer {
        let tool = ToolName::ReadFile;
        let args = Arguments::new(tool, arguments)?;
        let path = args.path()?;
        let start = args.line("start_line")?.unwrap_or(1);
        let end = args.line("end_line")?;
        if let Some(end) = end.filter(|&end| end < start) {
            return Err(range_refusal(format!(
                "end_line ({end}) is before start_line ({start})."
            )));
        }
        let text = self
            .workspace
            .read(path)
            .map_err(|e| render::refusal(tool, Some(path), &e))?;
        let lines: Vec<&str> = text.lines().collect();
        let total = lines.len();
        if total == 0 {
            return Ok(ok(format!("{path} is empty.")));
        }
        if start > total {
            return Err(range_refusal(format!(
                "start_line {start} is past the end of {path}, which has {total} line{}.",
                if total == 1 { "" } else { "s" }
            )));
        }
        let last = end.unwrap_or(start + DEFAULT_READ_LINES - 1).min(total);
        let mut out = render::numbered(lines[start - 1..last].iter().copied(), start);
        if end.is_none() && last < total {
            out.push_str(&format!(
                "\n({path} has {total} lines; this shows lines {start}-{last}. Call read_file \
                 with start_line {} to read on.)",
                last + 1
            ));
        }
        Ok(ok(out))
    }

    fn undo_edit(&self, arguments: &Map<String, Value>) -> Answer {
        let tool = ToolName::UndoEdit;
        self.writable(tool)?;
        let args = Arguments::new(tool, arguments)?;
        let path = args.path()?;
        let outcome = self
            .workspace
            .undo(path)
            .map_err(|e| render::refusal(tool, Some(path), &e))?;
        Ok(ok(render::undone(path, &outcome)))
    }

    /// A refusal unless the set may write (a read-only set lists no writing tool, so this only
    /// answers a host that calls one anyway).
    fn writable(&self, tool: ToolName) -> Result<(), Refusal> {
        match self.editor {
            Some(_) => Ok(()),
            None => Err(read_only_refusal(tool)),
        }
    }
}

/// A call's answer; the error side is a refusal, answered like any other result.
type Answer = Result<ToolResult, Refusal>;

/// A refused call: its stable code and the text for the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    code: String,
    output: String,
}

impl From<Refusal> for ToolResult {
    fn from(refusal: Refusal) -> ToolResult {
        ToolResult {
            output: refusal.output,
            is_error: true,
            code: refusal.code,
            ..ToolResult::default()
        }
    }
}

/// A successful edit of `path` answered with `text`: the result carries the file's new text
/// (what a stream of the call previewed before it finished).
fn edited(path: &str, text: String, outcome: EditOutcome) -> ToolResult {
    ToolResult {
        path: Some(path.to_owned()),
        new_content: outcome.new_content,
        ..ok(text)
    }
}

/// A successful call with `text`.
fn ok(text: impl Into<String>) -> ToolResult {
    ToolResult {
        output: text.into(),
        ..ToolResult::default()
    }
}

/// A refused call with `text` and `code`.
fn refused(code: ToolCode, text: impl Into<String>) -> Refusal {
    refused_as(code.as_str(), text)
}

/// A refused call with `text` and the engine's or file layer's code `code` (`stale_file`,
/// `search_not_found`, ...).
fn refused_as(code: &str, text: impl Into<String>) -> Refusal {
    Refusal {
        code: code.to_owned(),
        output: text.into(),
    }
}

fn read_only_refusal(tool: ToolName) -> Refusal {
    refused(
        ToolCode::ReadOnly,
        format!(
            "{} is not available: the tools are read-only.",
            tool.as_str()
        ),
    )
}

fn range_refusal(text: String) -> Refusal {
    refused(ToolCode::InvalidViewRange, text)
}

#[cfg(test)]
pub(super) mod tests {
    use serde_json::json;

    use super::*;

    /// A call's arguments from a JSON object literal (the tests of this set's modules).
    pub(super) fn args(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn the_set_crosses_threads() {
        fn check<T: Send + Sync + std::panic::UnwindSafe + 'static>() {}
        check::<Native>();
    }

    #[test]
    fn read_then_diff_then_undo() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.txt"), "one\r\ntwo\r\n").expect("write");
        let s = Native::open(dir.path(), &ToolsetOptions::new()).expect("open");
        let diff = "<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n";
        let edit = args(json!({"path": "a.txt", "diff": diff}));
        let r = s.call("apply_diff", &edit);
        assert_eq!(r.code, "not_read", "{}", r.output);

        let r = s.call("read_file", &args(json!({"path": "a.txt"})));
        assert_eq!(r, ok("     1\tone\n     2\ttwo\n"));
        let r = s.call("apply_diff", &edit);
        assert!(!r.is_error, "{}", r.output);
        assert!(
            r.output
                .contains("block 1: replaced line 2 (strategy: exact)"),
            "{}",
            r.output
        );
        assert_eq!(
            std::fs::read(dir.path().join("a.txt")).expect("read"),
            b"one\r\n2\r\n"
        );
        let r = s.call("undo_edit", &args(json!({"path": "a.txt"})));
        assert!(!r.is_error, "{}", r.output);
        assert_eq!(
            std::fs::read(dir.path().join("a.txt")).expect("read"),
            b"one\r\ntwo\r\n"
        );
    }

    #[test]
    fn read_ranges() {
        let dir = tempfile::tempdir().expect("tempdir");
        let text: String = (1..=2500).map(|i| format!("l{i}\n")).collect();
        std::fs::write(dir.path().join("big.txt"), &text).expect("write");
        std::fs::write(dir.path().join("empty.txt"), "").expect("write");
        let s = Native::open(dir.path(), &ToolsetOptions::new().read_only(true)).expect("open");
        let read = |s: &Native, v: Value| s.call("read_file", &args(v));

        let r = read(&s, json!({"path": "big.txt"}));
        assert!(r.output.starts_with("     1\tl1\n"));
        assert!(
            r.output
                .contains("  2000\tl2000\n\n(big.txt has 2500 lines")
        );
        assert!(
            r.output.ends_with("start_line 2001 to read on.)"),
            "{}",
            r.output
        );
        let r = read(&s, json!({"path": "big.txt", "start_line": 2499}));
        assert_eq!(r.output, "  2499\tl2499\n  2500\tl2500\n");
        let r = read(
            &s,
            json!({"path": "big.txt", "start_line": 3, "end_line": 4}),
        );
        assert_eq!(r.output, "     3\tl3\n     4\tl4\n");
        let r = read(
            &s,
            json!({"path": "big.txt", "start_line": 4, "end_line": 3}),
        );
        assert_eq!(r.code, "invalid_view_range");
        let r = read(&s, json!({"path": "big.txt", "start_line": 2501}));
        assert_eq!(r.code, "invalid_view_range");
        let r = read(&s, json!({"path": "empty.txt"}));
        assert_eq!(r, ok("empty.txt is empty."));

        let r = s.call("apply_diff", &args(json!({"path": "big.txt", "diff": ""})));
        assert_eq!(r.code, "read_only");
        let r = s.call(
            "str_replace_based_edit_tool",
            &args(json!({"command": "view", "path": "big.txt"})),
        );
        assert_eq!(r.code, "read_only");
    }
}

//! What each tool does: one call of the file layer ([`Workspace`]) or of the [`TextEditor`],
//! and its result turned into a [`Reply`]. No edit logic lives here.
//!
//! # One root, two trackers
//!
//! A [`Session`] holds one [`Workspace`] for `apply_diff`, `apply_lazy`, `apply_patch`,
//! `read_file` and `undo_edit`, and one [`TextEditor`] for `str_replace_based_edit_tool`. Both are opened on
//! the same canonical root, with the same ignore file (`.hunkloomignore`) and the same path
//! rules, so a path is refused or accepted alike by every tool. The text editor keeps its own
//! record of viewed files and its own undo history, as the reference editors it reproduces do:
//! a file changed by one side is stale for the other, whose next edit is then refused until
//! the file is read (or viewed) again — never overwritten blindly. `undo_edit` takes back the
//! workspace tools' edits; the text editor's edits are taken back by its own `undo_edit`
//! command.

use std::path::{Path, PathBuf};

use hunkloom::ApplyOptions;
use hunkloom::patch::{PatchDialect, PatchOptions};
use hunkloom_fs::{Workspace, WorkspaceOptions};
use hunkloom_tools::{EditorOptions, Profile, TextEditor, ToolCode};
use rmcp::model::JsonObject;
use serde_json::Value;

use crate::mcp::render;
use crate::mcp::reply::{Arguments, Reply};
use crate::mcp::tools::{DEFAULT_READ_LINES, ToolName};

/// The state of one server: the workspace and the text editor over its root.
#[derive(Debug)]
pub(crate) struct Session {
    workspace: Workspace,
    editor: Option<TextEditor>,
}

impl Session {
    /// A session over `root` (which must be a directory) with the text editor in `profile`;
    /// `read_only` leaves the editor out, and [`call`](Session::call) then refuses every tool
    /// that writes.
    pub(crate) fn open(
        root: &Path,
        profile: Profile,
        read_only: bool,
        protect: &[String],
    ) -> hunkloom::Result<Session> {
        let workspace = Workspace::open(
            root,
            WorkspaceOptions::new().protect(protect.iter().cloned()),
        )?;
        let editor = if read_only {
            None
        } else {
            Some(TextEditor::new(
                workspace.root(),
                EditorOptions::new()
                    .profile(profile)
                    .protect(protect.iter().cloned()),
            )?)
        };
        Ok(Session { workspace, editor })
    }

    /// The root (canonical).
    pub(crate) fn root(&self) -> &Path {
        self.workspace.root()
    }

    /// The file `path` names, as the workspace resolves it (the path as given if it refuses
    /// it: the call will be refused too), to order calls on the same file.
    pub(crate) fn target(&self, path: &str) -> PathBuf {
        self.workspace
            .resolve(path)
            .unwrap_or_else(|_| PathBuf::from(path))
    }

    /// Answers one call of `tool` with `arguments`.
    pub(crate) fn call(&self, tool: ToolName, arguments: &JsonObject) -> Reply {
        let answer = match tool {
            ToolName::TextEditor => return self.text_editor(arguments),
            ToolName::ApplyDiff => self.apply_diff(arguments),
            ToolName::ApplyLazy => self.apply_lazy(arguments),
            ToolName::ApplyPatch => self.apply_patch(arguments),
            ToolName::ReadFile => self.read_file(arguments),
            ToolName::UndoEdit => self.undo_edit(arguments),
        };
        answer.unwrap_or_else(|refusal| refusal)
    }

    fn text_editor(&self, arguments: &JsonObject) -> Reply {
        let Some(editor) = &self.editor else {
            return read_only_refusal(ToolName::TextEditor);
        };
        match editor.call(&Value::Object(arguments.clone())) {
            Ok(result) if result.is_error => Reply::refused(&result.code, result.output),
            Ok(result) => Reply::ok(result.output),
            Err(e) => Reply::refused(e.code(), e.message()),
        }
    }

    fn apply_diff(&self, arguments: &JsonObject) -> Result<Reply, Reply> {
        let tool = ToolName::ApplyDiff;
        self.writable(tool)?;
        let args = Arguments::new(tool, arguments)?;
        let path = args.path()?;
        let diff = args.text("diff")?;
        let outcome = self
            .workspace
            .apply_diff(path, diff, &ApplyOptions::new())
            .map_err(|e| render::refusal(tool, Some(path), &e))?;
        Ok(Reply::ok(render::diff_applied(path, &outcome)))
    }

    fn apply_lazy(&self, arguments: &JsonObject) -> Result<Reply, Reply> {
        let tool = ToolName::ApplyLazy;
        self.writable(tool)?;
        let args = Arguments::new(tool, arguments)?;
        let path = args.path()?;
        let snippet = args.text("snippet")?;
        let outcome = self
            .workspace
            .apply_lazy(path, snippet, None)
            .map_err(|e| render::refusal(tool, Some(path), &e))?;
        Ok(Reply::ok(render::lazy_applied(path, &outcome)))
    }

    fn apply_patch(&self, arguments: &JsonObject) -> Result<Reply, Reply> {
        let tool = ToolName::ApplyPatch;
        self.writable(tool)?;
        let args = Arguments::new(tool, arguments)?;
        let patch = args.text("patch")?;
        let dialect = match args.optional_text("format")? {
            None => PatchDialect::Codex,
            Some(name) => name
                .parse::<PatchDialect>()
                .ok()
                .filter(|d| *d != PatchDialect::Cline && *d != PatchDialect::UdiffStrict)
                .ok_or_else(|| {
                    Reply::refused(
                        ToolCode::InvalidParameter.as_str(),
                        format!(
                            "`format` must be one of codex, udiff, aider, aider-fenced, \
                             aider-whole or aider-native, not {name:?}."
                        ),
                    )
                })?,
        };
        let outcome = self
            .workspace
            .apply_patch(patch, &PatchOptions::new().dialect(dialect))
            .map_err(|e| render::refusal(tool, None, &e))?;
        Ok(Reply::ok(render::patch_applied(&outcome)))
    }

    fn read_file(&self, arguments: &JsonObject) -> Result<Reply, Reply> {
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
            return Ok(Reply::ok(format!("{path} is empty.")));
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
        Ok(Reply::ok(out))
    }

    fn undo_edit(&self, arguments: &JsonObject) -> Result<Reply, Reply> {
        let tool = ToolName::UndoEdit;
        self.writable(tool)?;
        let args = Arguments::new(tool, arguments)?;
        let path = args.path()?;
        let outcome = self
            .workspace
            .undo(path)
            .map_err(|e| render::refusal(tool, Some(path), &e))?;
        Ok(Reply::ok(render::undone(path, &outcome)))
    }

    /// A refusal unless the session may write (the server lists no writing tool when it is
    /// read-only, so this only answers a client that calls one anyway).
    fn writable(&self, tool: ToolName) -> Result<(), Reply> {
        match self.editor {
            Some(_) => Ok(()),
            None => Err(read_only_refusal(tool)),
        }
    }
}

fn read_only_refusal(tool: ToolName) -> Reply {
    Reply::refused(
        "read_only",
        format!(
            "{} is not available: the server runs with --read-only.",
            tool.as_str()
        ),
    )
}

fn range_refusal(text: String) -> Reply {
    Reply::refused(ToolCode::InvalidViewRange.as_str(), text)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn args(v: Value) -> JsonObject {
        match v {
            Value::Object(m) => m,
            _ => JsonObject::new(),
        }
    }

    #[test]
    fn session_crosses_threads() {
        fn check<T: Send + Sync + std::panic::UnwindSafe + 'static>() {}
        check::<Session>();
    }

    #[test]
    fn read_then_diff_then_undo() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.txt"), "one\r\ntwo\r\n").expect("write");
        let s = Session::open(dir.path(), Profile::Native, false, &[]).expect("open");
        let diff = "<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n";
        let edit = args(json!({"path": "a.txt", "diff": diff}));
        let r = s.call(ToolName::ApplyDiff, &edit);
        assert_eq!(r.code.as_deref(), Some("not_read"), "{}", r.text);

        let r = s.call(ToolName::ReadFile, &args(json!({"path": "a.txt"})));
        assert_eq!(r, Reply::ok("     1\tone\n     2\ttwo\n"));
        let r = s.call(ToolName::ApplyDiff, &edit);
        assert!(!r.is_error(), "{}", r.text);
        assert!(
            r.text
                .contains("block 1: replaced line 2 (strategy: exact)"),
            "{}",
            r.text
        );
        assert_eq!(
            std::fs::read(dir.path().join("a.txt")).expect("read"),
            b"one\r\n2\r\n"
        );
        let r = s.call(ToolName::UndoEdit, &args(json!({"path": "a.txt"})));
        assert!(!r.is_error(), "{}", r.text);
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
        let s = Session::open(dir.path(), Profile::Native, true, &[]).expect("open");
        let read = |s: &Session, v: Value| s.call(ToolName::ReadFile, &args(v));

        let r = read(&s, json!({"path": "big.txt"}));
        assert!(r.text.starts_with("     1\tl1\n"));
        assert!(r.text.contains("  2000\tl2000\n\n(big.txt has 2500 lines"));
        assert!(
            r.text.ends_with("start_line 2001 to read on.)"),
            "{}",
            r.text
        );
        let r = read(&s, json!({"path": "big.txt", "start_line": 2499}));
        assert_eq!(r.text, "  2499\tl2499\n  2500\tl2500\n");
        let r = read(
            &s,
            json!({"path": "big.txt", "start_line": 3, "end_line": 4}),
        );
        assert_eq!(r.text, "     3\tl3\n     4\tl4\n");
        let r = read(
            &s,
            json!({"path": "big.txt", "start_line": 4, "end_line": 3}),
        );
        assert_eq!(r.code.as_deref(), Some("invalid_view_range"));
        let r = read(&s, json!({"path": "big.txt", "start_line": 2501}));
        assert_eq!(r.code.as_deref(), Some("invalid_view_range"));
        let r = read(&s, json!({"path": "empty.txt"}));
        assert_eq!(r, Reply::ok("empty.txt is empty."));

        let r = s.call(
            ToolName::ApplyDiff,
            &args(json!({"path": "big.txt", "diff": ""})),
        );
        assert_eq!(r.code.as_deref(), Some("read_only"));
        let r = s.call(
            ToolName::TextEditor,
            &args(json!({"command": "view", "path": "big.txt"})),
        );
        assert_eq!(r.code.as_deref(), Some("read_only"));
    }
}

//! The `copilot` profile: GitHub Copilot Chat's `replace_string_in_file`,
//! `multi_replace_string_in_file`, `apply_patch` and `create_file` as its tools answer them
//! (`microsoft/vscode-copilot-chat@31acd00`, with VS Code's text documents; specified by
//! `tests/vectors/toolsets/copilot*.jsonl` and `README-copilot.md`).
//!
//! Copilot computes text edits against VS Code documents: a document is loaded once per
//! session (the BOM removed, one line ending by majority), edits are offsets turned into
//! (line, UTF-16 column) positions and clamped, and every document an edit touched is saved
//! whole. The toolset keeps the same documents, the same one-slot caches of a tool's last
//! input (an identical call reuses its prepared edits), and the same texts: `The following
//! files were successfully edited:` then the errors; thrown errors as `ERROR while calling
//! tool: …`; invalid input as ajv words it.
//!
//! Deliberate differences: a path outside the root is refused (Copilot writes it); writes go
//! through the file layer (atomic, protected paths refused).

mod comments;
mod document;
mod matcher;
mod native;
mod patch;
mod validate;

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use hunkloom_fs::{Op, Workspace};
use serde_json::Value;

use self::document::{Document, Pos, Units, units};
use self::matcher::Miss;
use self::validate::{Kind, Shape};
use super::ToolDefinition;
use crate::ToolResult;
use crate::codes::ToolCode;

const TOOLS_JSON: &str = include_str!("copilot-tools.json");

/// The four tools as Copilot declares them.
pub(super) fn definitions() -> Vec<ToolDefinition> {
    let parsed: Value = serde_json::from_str(TOOLS_JSON).unwrap_or_default();
    super::definitions_from(&parsed)
}

const ITEM: Shape = Shape {
    required: &["filePath", "oldString", "newString"],
    properties: &[
        ("filePath", Kind::String),
        ("oldString", Kind::String),
        ("newString", Kind::String),
    ],
};
const MULTI: Shape = Shape {
    required: &["explanation", "replacements"],
    properties: &[
        ("explanation", Kind::String),
        ("replacements", Kind::Items(&ITEM)),
    ],
};
const CREATE: Shape = Shape {
    required: &["filePath", "content"],
    properties: &[("filePath", Kind::String), ("content", Kind::String)],
};
const PATCH: Shape = Shape {
    required: &["input", "explanation"],
    properties: &[("input", Kind::String), ("explanation", Kind::String)],
};

/// How a call ended, before rendering.
enum Answer {
    /// Files edited (display paths) and errors, in order.
    Rendered {
        edited: Vec<String>,
        errors: Vec<String>,
    },
    /// A thrown error: `ERROR while calling tool: <message>`.
    Thrown(String, ToolCode),
    /// Any other text as it is (apply_patch's unflagged failures, validation errors).
    Text {
        text: String,
        is_error: bool,
        code: ToolCode,
    },
}

/// One replacement's edits, or its error.
#[derive(Clone, Debug)]
enum Prepared {
    Edits {
        key: String,
        shown: String,
        edits: Vec<((Pos, Pos), Units)>,
    },
    Failed(String),
}

/// What a tool's one-slot cache holds: the input it answered and how.
#[derive(Clone, Debug)]
struct Cached {
    key: Vec<(String, String, String)>,
    outcome: Result<Vec<Prepared>, String>,
}

/// A document and the bytes of the file it was loaded from (or last saved to).
#[derive(Debug)]
struct Open {
    doc: Document,
    disk: Option<Vec<u8>>,
}

/// The session: open documents and the tools' caches.
#[derive(Debug, Default)]
struct Session {
    docs: HashMap<String, Open>,
    replace: Option<Cached>,
    multi: Option<Cached>,
}

/// The `copilot` engine.
#[derive(Debug)]
pub(super) struct Copilot {
    ws: Workspace,
    session: Mutex<Session>,
    /// hunkloom's own edits under Copilot's tool names (see [`native`]).
    native: bool,
}

/// Why a path cannot be used.
enum PathProblem {
    /// Not absolute: Copilot's own error.
    Relative,
    /// Outside the root: refused (Copilot would write there).
    Outside,
}

impl Copilot {
    pub(super) fn new(ws: Workspace, native: bool) -> Copilot {
        Copilot {
            ws,
            session: Mutex::new(Session::default()),
            native,
        }
    }

    /// The root directory.
    pub(super) fn root(&self) -> &Path {
        self.ws.root()
    }

    fn session(&self) -> MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The file for `given`, relative to the root, lexically (`.` dropped, `..` applied).
    fn relative(&self, given: &str) -> Result<PathBuf, PathProblem> {
        let path = if let Some(rest) = given.strip_prefix("file://") {
            rest
        } else {
            given
        };
        if !path.starts_with('/') {
            return Err(PathProblem::Relative);
        }
        let mut out = PathBuf::new();
        for c in Path::new(path).components() {
            match c {
                Component::ParentDir => {
                    out.pop();
                }
                Component::Normal(n) => out.push(n),
                _ => {}
            }
        }
        let full = Path::new("/").join(&out);
        full.strip_prefix(self.ws.root())
            .map(Path::to_path_buf)
            .map_err(|_| PathProblem::Outside)
    }

    /// Answers one call.
    pub(super) fn call(&self, name: &str, input: &Value) -> ToolResult {
        let mut input = input.clone();
        let shape = match name {
            "replace_string_in_file" => &ITEM,
            "multi_replace_string_in_file" => &MULTI,
            "create_file" => &CREATE,
            _ => &PATCH,
        };
        let answer = match validate::validate(&mut input, shape) {
            Err(text) => Answer::Text {
                text,
                is_error: true,
                code: ToolCode::InvalidParameter,
            },
            Ok(()) if self.native => self.call_native(name, &input),
            Ok(()) => match name {
                "replace_string_in_file" => self.replace(&input, false),
                "multi_replace_string_in_file" => self.replace(&input, true),
                "create_file" => self.create(&input),
                _ => patch::apply(self, &input),
            },
        };
        render(answer)
    }

    /// The item list of a replace call (one item for `replace_string_in_file`).
    fn items(input: &Value, multi: bool) -> Vec<(String, String, String)> {
        let item = |v: &Value| {
            let s = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
            (s("filePath"), s("oldString"), s("newString"))
        };
        if multi {
            input["replacements"]
                .as_array()
                .map(|a| a.iter().map(item).collect())
                .unwrap_or_default()
        } else {
            vec![item(input)]
        }
    }

    fn replace(&self, input: &Value, multi: bool) -> Answer {
        let key = Copilot::items(input, multi);
        let mut session = self.session();
        let slot = if multi {
            &session.multi
        } else {
            &session.replace
        };
        let outcome = match slot {
            Some(cached) if cached.key == key => cached.outcome.clone(),
            _ => {
                let outcome = self.prepare_all(&mut session, &key, multi);
                let stored = Some(Cached {
                    key: key.clone(),
                    outcome: outcome.clone(),
                });
                if multi {
                    session.multi = stored;
                } else {
                    session.replace = stored;
                }
                outcome
            }
        };
        let prepared = match outcome {
            Ok(p) => p,
            Err(message) => return Answer::Thrown(message, ToolCode::InvalidParameter),
        };
        let mut edited = Vec::new();
        let mut errors = Vec::new();
        for item in prepared {
            match item {
                Prepared::Failed(e) => errors.push(e),
                Prepared::Edits { key, shown, edits } => {
                    let doc = self.open_or_new(&mut session, &key);
                    for (range, text) in &edits {
                        doc.apply(*range, text);
                    }
                    match self.save(&mut session, &key) {
                        Ok(()) => edited.push(shown),
                        Err(e) => return Answer::Thrown(e.message, e.code),
                    }
                }
            }
        }
        Answer::Rendered { edited, errors }
    }

    /// Prepares every item against the documents as they are before the call; detects
    /// conflicts; merges the items of one file (see the module documentation).
    fn prepare_all(
        &self,
        session: &mut Session,
        items: &[(String, String, String)],
        multi: bool,
    ) -> Result<Vec<Prepared>, String> {
        // Any unusable path fails the whole call, naming the first.
        for (path, _, _) in items {
            match self.relative(path) {
                Err(PathProblem::Relative) => {
                    return Err(format!(
                        "Invalid input path: {path}. Be sure to use an absolute path."
                    ));
                }
                Err(PathProblem::Outside) => {
                    return Err(format!(
                        "{path} is outside the workspace {}: refused.",
                        self.ws.root().display()
                    ));
                }
                Ok(_) => {}
            }
        }
        let mut prepared = Vec::with_capacity(items.len());
        for (path, old, new) in items {
            prepared.push(self.prepare(session, path, old, new)?);
        }
        if !multi {
            return Ok(prepared);
        }
        // Conflicts, in item order.
        for i in 1..prepared.len() {
            let Prepared::Edits {
                key: ki,
                shown,
                edits: ei,
            } = &prepared[i]
            else {
                continue;
            };
            // The later item's edits first: a stable sort by start, then any overlap.
            let conflict = prepared[..i].iter().any(|earlier| match earlier {
                Prepared::Edits {
                    key: kk, edits: ek, ..
                } if kk == ki => {
                    let mut all: Vec<&((Pos, Pos), Units)> = ei.iter().chain(ek.iter()).collect();
                    all.sort_by_key(|(r, _)| r.0);
                    all.windows(2).any(|w| (w[0].0).1 > (w[1].0).0)
                }
                _ => false,
            });
            if conflict {
                prepared[i] = Prepared::Failed(format!(
                    "Edit at index {i} conflicts with another replacement in {shown}. You can make another call to try again."
                ));
            }
        }
        // Merge the later items of one file into the first, edits from the end backwards.
        let mut merged: Vec<Prepared> = Vec::new();
        let mut taken = vec![false; prepared.len()];
        for i in 0..prepared.len() {
            if taken[i] {
                continue;
            }
            let mut item = prepared[i].clone();
            if let Prepared::Edits { key, edits, .. } = &mut item {
                for k in i + 1..prepared.len() {
                    if let Prepared::Edits {
                        key: kk, edits: ek, ..
                    } = &prepared[k]
                        && kk == key
                        && !taken[k]
                    {
                        edits.extend(ek.iter().cloned());
                        taken[k] = true;
                    }
                }
                edits.sort_by(|a, b| (b.0).1.cmp(&(a.0).1).then((b.0).0.cmp(&(a.0).0)));
            }
            merged.push(item);
        }
        Ok(merged)
    }

    /// One item against its document as it is now.
    fn prepare(
        &self,
        session: &mut Session,
        path: &str,
        old: &str,
        new: &str,
    ) -> Result<Prepared, String> {
        let exists = std::fs::metadata(path).is_ok() || session.docs.contains_key(path);
        if !exists {
            if !old.is_empty() {
                return Ok(Prepared::Failed(format!(
                    "File does not exist: {path}. Use the create_file tool to create it, or correct your filepath."
                )));
            }
            return Ok(Prepared::Edits {
                key: path.to_owned(),
                shown: path.to_owned(),
                edits: vec![(((0, 0), (0, 0)), units(new))],
            });
        }
        let doc = self.open(session, path)?.clone();
        if old == new {
            return Ok(Prepared::Failed(
                "String replacement failed: Input and output are identical".to_owned(),
            ));
        }
        let eol = doc.eol.clone();
        let eol_text = document::text(&eol);
        let convert = |s: &str| -> Units {
            let stripped = comments::strip(s, path);
            units(&stripped.replace("\r\n", "\n").replace('\n', &eol_text))
        };
        let (old_u, new_u) = (convert(old), convert(new));
        let text = doc.text();
        let failed = |m: &str| Ok(Prepared::Failed(format!("String replacement failed: {m}")));
        let blank = |u: &[u16]| {
            document::text(u)
                .trim_matches(hunkloom::text::is_js_whitespace)
                .is_empty()
        };
        if blank(&text) && blank(&old_u) {
            return Ok(Prepared::Edits {
                key: path.to_owned(),
                shown: path.to_owned(),
                edits: vec![(((0, 0), (0, 0)), new_u)],
            });
        }
        if old_u.is_empty() {
            return failed(
                "File already exists. Please provide a non-empty old_string for replacement.",
            );
        }
        match matcher::find_and_replace(&text, &eol, &old_u, &new_u) {
            Ok((_, edit)) => Ok(Prepared::Edits {
                key: path.to_owned(),
                shown: path.to_owned(),
                edits: vec![(doc.range(edit.start, edit.end), edit.text)],
            }),
            Err(Miss::None) => failed(
                "Could not find matching text to replace. Try making your search string more specific or checking for whitespace/formatting differences.",
            ),
            Err(Miss::Multiple(why)) => failed(&format!(
                "Multiple matches found for the text to replace. {why}"
            )),
            Err(Miss::Unchanged) => failed(
                "Original and edited file match exactly. Failed to apply edit. Use the ${ToolName.ReadFile} tool to re-read the file and and determine the correct edit.",
            ),
        }
    }

    /// The document of an existing file (loaded, or reloaded if the file changed since).
    fn open<'s>(&self, session: &'s mut Session, path: &str) -> Result<&'s mut Document, String> {
        let meta = std::fs::metadata(path).ok();
        if meta.as_ref().is_some_and(std::fs::Metadata::is_dir) {
            return Err(format!("cannot open file://{path}"));
        }
        let bytes = std::fs::read(path).ok();
        let stale = match session.docs.get(path) {
            Some(open) => bytes.is_some() && open.disk != bytes,
            None => true,
        };
        if stale {
            let Some(bytes) = bytes else {
                return Err(format!("cannot open file://{path}"));
            };
            let doc = Document::load(&String::from_utf8_lossy(&bytes));
            session.docs.insert(
                path.to_owned(),
                Open {
                    doc,
                    disk: Some(bytes),
                },
            );
        }
        session
            .docs
            .get_mut(path)
            .map(|o| &mut o.doc)
            .ok_or_else(|| format!("cannot open file://{path}"))
    }

    /// The document of `path`, a new empty one if there is no file.
    fn open_or_new<'s>(&self, session: &'s mut Session, path: &str) -> &'s mut Document {
        if std::fs::metadata(path).is_ok() {
            // Loaded (or reloaded) if there is a readable file; else kept or made empty.
            let _ = self.open(session, path);
        }
        &mut session
            .docs
            .entry(path.to_owned())
            .or_insert_with(|| Open {
                doc: Document::empty(),
                disk: None,
            })
            .doc
    }

    /// Saves the document of `path` through the file layer.
    fn save(&self, session: &mut Session, path: &str) -> Result<(), crate::result::Failure> {
        let rel = self.relative(path).map_err(|_| {
            crate::result::Failure::new(
                ToolCode::PathOutsideRoot,
                format!("{path} is outside the workspace"),
            )
        })?;
        let Some(open) = session.docs.get_mut(path) else {
            return Ok(());
        };
        let content = open.doc.saved();
        if self.ws.root().join(&rel).is_file() {
            self.ws
                .read(&rel)
                .map_err(|e| crate::result::Failure::of(&e))?;
        }
        let change = self
            .ws
            .plan(
                &rel,
                &Op::WriteUtf8 {
                    content: content.clone(),
                },
            )
            .map_err(|e| crate::result::Failure::of(&e))?;
        self.ws
            .commit(vec![change])
            .map_err(|e| crate::result::Failure::of(&e))?;
        open.disk = Some(content.into_bytes());
        Ok(())
    }

    /// Deletes the file at `path` through the file layer (its folder stays) and closes its
    /// document.
    fn delete(&self, session: &mut Session, path: &str) -> Result<(), crate::result::Failure> {
        let rel = self.relative(path).map_err(|_| {
            crate::result::Failure::new(
                ToolCode::PathOutsideRoot,
                format!("{path} is outside the workspace"),
            )
        })?;
        self.ws
            .read(&rel)
            .map_err(|e| crate::result::Failure::of(&e))?;
        let change = self
            .ws
            .plan_delete(&rel)
            .map_err(|e| crate::result::Failure::of(&e))?;
        self.ws
            .commit(vec![change])
            .map_err(|e| crate::result::Failure::of(&e))?;
        session.docs.remove(path);
        Ok(())
    }

    fn create(&self, input: &Value) -> Answer {
        let path = input["filePath"].as_str().unwrap_or_default();
        let content = input["content"].as_str().unwrap_or_default();
        match self.relative(path) {
            Err(PathProblem::Relative) => {
                return Answer::Thrown("Invalid file path".to_owned(), ToolCode::RelativePath);
            }
            Err(PathProblem::Outside) => {
                return Answer::Thrown(
                    format!("{path} is outside the workspace: refused."),
                    ToolCode::PathOutsideRoot,
                );
            }
            Ok(_) => {}
        }
        let mut session = self.session();
        let exists = std::fs::metadata(path).is_ok();
        let existing = if exists {
            self.open(&mut session, path).ok().map(|d| d.clone())
        } else {
            None
        };
        if exists && existing.as_ref().is_some_and(|d| !d.text().is_empty()) {
            return Answer::Thrown(
                "File already exists. You must use an edit tool to modify it.".to_owned(),
                ToolCode::FileExists,
            );
        }
        let content = comments::strip(content, path);
        let mut pieces: Vec<String> = hunkloom::text::js_split_lines(&content)
            .into_iter()
            .map(str::to_owned)
            .collect();
        if existing.is_some()
            && pieces
                .last()
                .is_some_and(|p| !p.trim_matches(hunkloom::text::is_js_whitespace).is_empty())
        {
            pieces.push(String::new());
        }
        let doc = self.open_or_new(&mut session, path);
        let whole = doc.text().len();
        let end = doc.position_at(whole as isize);
        doc.apply(((0, 0), end), &units(&pieces.join("\n")));
        match self.save(&mut session, path) {
            Ok(()) => Answer::Rendered {
                edited: vec![path.to_owned()],
                errors: Vec::new(),
            },
            Err(e) => Answer::Thrown(e.message, e.code),
        }
    }
}

/// The text the model reads and the error flag.
fn render(answer: Answer) -> ToolResult {
    match answer {
        Answer::Rendered { edited, errors } => {
            let mut out = String::new();
            if !edited.is_empty() {
                out.push_str("The following files were successfully edited:\n");
                out.push_str(&edited.join("\n"));
                out.push('\n');
            }
            out.push_str(&errors.join("\n"));
            if out.is_empty() {
                out.push_str("(empty)");
            }
            let is_error = !errors.is_empty();
            ToolResult {
                output: out,
                is_error,
                code: if is_error {
                    ToolCode::NotFound.as_str().to_owned()
                } else {
                    String::new()
                },
                ..ToolResult::default()
            }
        }
        Answer::Thrown(message, code) => ToolResult {
            output: format!(
                "ERROR while calling tool: {message}\nPlease check your input and try again."
            ),
            is_error: true,
            code: code.as_str().to_owned(),
            ..ToolResult::default()
        },
        Answer::Text {
            text,
            is_error,
            code,
        } => ToolResult {
            output: text,
            is_error,
            code: if is_error {
                code.as_str().to_owned()
            } else {
                String::new()
            },
            ..ToolResult::default()
        },
    }
}

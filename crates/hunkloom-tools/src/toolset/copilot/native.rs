//! Copilot's four tools under native semantics: its tool names, arguments (checked by the same
//! schema) and answer texts, with hunkloom's own edits through the file layer in place of
//! Copilot's documents.
//!
//! - `replace_string_in_file` and `multi_replace_string_in_file`: each item is hunkloom's own
//!   replacement ([`crate::replace::native`]) in its file's `\n` view, the items of one file in
//!   order; an item whose old text is part of an earlier item's new text is refused (it would
//!   be found in the text that item just wrote, not in the file the model read). All items or
//!   none: one refused item writes nothing, and every refused item is named.
//! - `apply_patch`: the native reading of the patch ([`hunkloom::patch::PatchDialect::Native`])
//!   through [`Workspace::apply_patch`](hunkloom_fs::Workspace::apply_patch): every chunk in
//!   exactly one place or the patch refused, all files or none; its failures carry the error
//!   flag (Copilot's own come back without it).
//! - `create_file`: refuses a file with content as Copilot does; writes under the file layer's
//!   guards.
//!
//! Files keep their encoding and line endings; nothing is written outside the root.

use std::path::PathBuf;

use hunkloom::ops::Guards;
use hunkloom::patch::{PatchDialect, PatchOptions};
use hunkloom_fs::Op;
use serde_json::Value;

use super::{Answer, Copilot, PathProblem};
use crate::codes::ToolCode;
use crate::file;
use crate::replace::{self, Refused, Replaced};

/// One file of a replace call: its items' edits on its view, in order.
struct Target {
    /// The path as the model gave it (how the answer names it).
    shown: String,
    rel: PathBuf,
    /// The decoded text; `None` when the file does not exist.
    original: Option<String>,
    /// Its `\n` view as the items so far left it.
    view: String,
    /// The new texts of the items applied so far.
    written: Vec<String>,
}

impl Copilot {
    /// Answers a validated call of `name` with native semantics.
    pub(super) fn call_native(&self, name: &str, input: &Value) -> Answer {
        // One call at a time, as the reference's documents are.
        let _session = self.session();
        match name {
            "replace_string_in_file" => self.replace_native(input, false),
            "multi_replace_string_in_file" => self.replace_native(input, true),
            "create_file" => self.create_native(input),
            _ => self.patch_native(input),
        }
    }

    /// The file of `given` relative to the root, or the thrown error Copilot's tools give.
    fn rel_or_thrown(&self, given: &str) -> Result<PathBuf, Answer> {
        self.relative(given).map_err(|problem| match problem {
            PathProblem::Relative => {
                Answer::Thrown("Invalid file path".to_owned(), ToolCode::RelativePath)
            }
            PathProblem::Outside => Answer::Thrown(
                format!("{given} is outside the workspace: refused."),
                ToolCode::PathOutsideRoot,
            ),
        })
    }

    fn replace_native(&self, input: &Value, multi: bool) -> Answer {
        let items = Copilot::items(input, multi);
        let mut targets: Vec<Target> = Vec::new();
        let mut errors = Vec::new();
        let mut code = ToolCode::NotFound;
        for (i, (given, old, new)) in items.iter().enumerate() {
            let rel = match self.rel_or_thrown(given) {
                Ok(rel) => rel,
                Err(thrown) => return thrown,
            };
            let at = match targets.iter().position(|t| t.rel == rel) {
                Some(at) => at,
                None => match self.target(given, rel) {
                    Ok(target) => {
                        targets.push(target);
                        targets.len() - 1
                    }
                    Err((message, why)) => {
                        errors.push(item_error(multi, i, &message));
                        code = why;
                        continue;
                    }
                },
            };
            if let Err((message, why)) = apply_item(&mut targets[at], old, new) {
                errors.push(item_error(multi, i, &message));
                code = why;
            }
        }
        if !errors.is_empty() {
            let mut text = errors.join("\n");
            text.push_str("\nNothing was written.");
            return Answer::Text {
                text,
                is_error: true,
                code,
            };
        }
        let mut changes = Vec::new();
        let mut edited = Vec::new();
        for target in &targets {
            let op = match &target.original {
                Some(original) if file::view_of(original) == target.view => continue,
                Some(_) => Op::SetText {
                    text: target.view.clone(),
                },
                None => Op::Write {
                    content: target.view.clone(),
                },
            };
            match self.ws.plan(&target.rel, &op) {
                Ok(change) => changes.push(change),
                Err(e) => return Answer::Thrown(e.message().to_owned(), ToolCode::of(&e)),
            }
            edited.push(target.shown.clone());
        }
        if let Err(e) = self.ws.commit(changes) {
            return Answer::Thrown(e.message().to_owned(), ToolCode::of(&e));
        }
        if edited.is_empty() {
            return Answer::Text {
                text: "No file was changed: every replacement is already in its file (an \
                       earlier call made it)."
                    .to_owned(),
                is_error: false,
                code: ToolCode::NotFound,
            };
        }
        Answer::Rendered {
            edited,
            errors: Vec::new(),
        }
    }

    /// The file of one item, read (and recorded as read) through the file layer.
    fn target(&self, given: &str, rel: PathBuf) -> Result<Target, (String, ToolCode)> {
        let original = if self.ws.root().join(&rel).exists() {
            let text = self
                .ws
                .read(&rel)
                .map_err(|e| (e.message().to_owned(), ToolCode::of(&e)))?;
            Some(text)
        } else {
            None
        };
        Ok(Target {
            shown: given.to_owned(),
            rel,
            view: original
                .as_deref()
                .map(file::view_of)
                .unwrap_or_default()
                .into_owned(),
            original,
            written: Vec::new(),
        })
    }

    fn create_native(&self, input: &Value) -> Answer {
        let given = input["filePath"].as_str().unwrap_or_default();
        let content = input["content"].as_str().unwrap_or_default();
        let rel = match self.rel_or_thrown(given) {
            Ok(rel) => rel,
            Err(thrown) => return thrown,
        };
        if self.ws.root().join(&rel).exists() {
            match self.ws.read(&rel) {
                Ok(text) if !text.trim().is_empty() => {
                    return Answer::Thrown(
                        "File already exists. You must use an edit tool to modify it.".to_owned(),
                        ToolCode::FileExists,
                    );
                }
                Ok(_) => {}
                Err(e) => return Answer::Thrown(e.message().to_owned(), ToolCode::of(&e)),
            }
        }
        let op = Op::Write {
            content: content.to_owned(),
        };
        let written = self
            .ws
            .plan(&rel, &op)
            .and_then(|change| self.ws.commit(vec![change]));
        match written {
            Ok(_) => Answer::Rendered {
                edited: vec![given.to_owned()],
                errors: Vec::new(),
            },
            Err(e) => Answer::Thrown(e.message().to_owned(), ToolCode::of(&e)),
        }
    }

    fn patch_native(&self, input: &Value) -> Answer {
        let text = input["input"].as_str().unwrap_or_default();
        if text.is_empty() {
            return Answer::Thrown(
                "Missing patch text or stream".to_owned(),
                ToolCode::InvalidPatch,
            );
        }
        let options = PatchOptions::new().dialect(PatchDialect::Native);
        match self.ws.apply_patch(text, &options) {
            Ok(outcome) if outcome.files.is_empty() => Answer::Text {
                text: "(empty)".to_owned(),
                is_error: false,
                code: ToolCode::PatchFailed,
            },
            Ok(outcome) => Answer::Rendered {
                edited: outcome.files.into_iter().map(|f| f.path).collect(),
                errors: Vec::new(),
            },
            Err(e) => Answer::Text {
                text: format!("Applying patch failed with error: {}", e.message()),
                is_error: true,
                code: ToolCode::of(&e),
            },
        }
    }
}

/// Applies one item to its file's view; the refusal text and code otherwise.
fn apply_item(target: &mut Target, old: &str, new: &str) -> Result<(), (String, ToolCode)> {
    let path = &target.shown;
    if target.original.is_none() {
        if !old.is_empty() {
            return Err((
                format!(
                    "File does not exist: {path}. Use the create_file tool to create it, or \
                     correct your filepath."
                ),
                ToolCode::FileNotFound,
            ));
        }
        target.view = file::view_of(new).into_owned();
        target.written.push(new.to_owned());
        return Ok(());
    }
    if !old.is_empty() && target.written.iter().any(|w| w.contains(old)) {
        return Err((
            "String replacement failed: oldString is part of the newString of an earlier \
             replacement in this call; match it against the file as it was read instead."
                .to_owned(),
            ToolCode::InvalidOperation,
        ));
    }
    if old.is_empty() && !target.view.trim().is_empty() {
        return Err((
            "String replacement failed: File already exists. Please provide a non-empty \
             old_string for replacement."
                .to_owned(),
            ToolCode::FileExists,
        ));
    }
    let (new, _) = Guards::NATIVE
        .screen(old, new, "newString")
        .map_err(|e| (e.message().to_owned(), ToolCode::of(&e)))?;
    let edit = match replace::native(&target.view, old, &new, false, path) {
        Ok(Replaced::Edit(edit)) => edit,
        Ok(Replaced::AlreadyThere) => return Ok(()),
        Err(refused) => return Err(refusal(refused)),
    };
    target.view = edit.new_content;
    target.written.push(new.into_owned());
    Ok(())
}

/// A refused replacement in Copilot's words, with the lines of every place.
fn refusal(refused: Refused) -> (String, ToolCode) {
    match refused {
        Refused::NotFound => (
            "String replacement failed: Could not find matching text to replace. Try making \
             your search string more specific or checking for whitespace/formatting \
             differences."
                .to_owned(),
            ToolCode::NotFound,
        ),
        Refused::Multiple(lines) => {
            let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
            (
                format!(
                    "String replacement failed: Multiple matches found for the text to \
                     replace, starting at lines {}. Include more surrounding lines so that it \
                     is unique.",
                    lines.join(", ")
                ),
                ToolCode::MultipleMatches,
            )
        }
        Refused::Unchanged => (
            "String replacement failed: Input and output are identical".to_owned(),
            ToolCode::OldEqualsNew,
        ),
        Refused::Other(e) => (
            format!("String replacement failed: {}", e.message()),
            ToolCode::of(&e),
        ),
    }
}

/// An item's refusal, numbered in a multi-replacement.
fn item_error(multi: bool, index: usize, message: &str) -> String {
    if multi {
        format!("Replacement {}: {message}", index + 1)
    } else {
        message.to_owned()
    }
}

//! How the text editor answers a call: the command and the path read from the input, the path
//! checks in the references' order, and the command run ([`view`](crate::view) or one of the
//! edits in [`edit`](crate::edit)). Above the editor's state ([`crate::editor`]), which the
//! commands use.

use std::path::{Path, PathBuf};

use hunkloom::{Error, ErrorKind, Result};
use serde_json::Value;

use crate::codes::ToolCode;
use crate::editor::{Target, TextEditor, kind_of};
use crate::input::{self, Input, Param};
use crate::messages;
use crate::profile::Profile;
use crate::result::{self, Failure, Outcome, ToolResult};
use crate::{edit, view};

impl TextEditor {
    /// Answers one tool call. `input` is the call's arguments object (`{"command": "view",
    /// "path": ...}`).
    ///
    /// Every mistake a model can make is a result with `is_error` set; the only `Err` is an
    /// `input` that is not a JSON object, a host's misuse (kind `InvalidInput`, family
    /// `InvalidOption`).
    pub fn call(&self, input: &Value) -> Result<ToolResult> {
        let Value::Object(map) = input else {
            return Err(Error::with_message(
                ErrorKind::InvalidInput,
                format!(
                    "a text-editor tool call's input must be a JSON object, not {}",
                    kind_of(input)
                ),
            ));
        };
        let input = Input::new(map);
        let mut shown = None;
        let outcome = self.dispatch(input, &mut shown, false);
        Ok(result::finish(outcome, shown))
    }

    /// The text the call `input` would leave in its file, computed as [`call`](Self::call)
    /// computes it but without writing or touching the undo history; `None` when the call
    /// would fail, is not an object, or writes nothing (`view`, `undo_edit`).
    pub(crate) fn plan(&self, input: &Value) -> Option<String> {
        let Value::Object(map) = input else {
            return None;
        };
        let input = Input::new(map);
        if !matches!(
            input.string("command"),
            Param::Given("create" | "str_replace" | "insert")
        ) {
            return None;
        }
        let mut shown = None;
        let success = self.dispatch(input, &mut shown, true).ok()?;
        match success.new_content {
            Some(text) => Some(text),
            // A native call whose edit is already in the file leaves it as it is.
            None => self.peek(shown.as_deref()?).ok()?,
        }
    }

    fn dispatch(&self, input: Input<'_>, shown: &mut Option<String>, plan_only: bool) -> Outcome {
        let style = self.style;
        let command = match input.string("command") {
            Param::Given(c) => c.to_owned(),
            Param::Invalid(v) => input::py_str(&v),
            Param::Missing => return Err(messages::missing_command(style)),
        };
        let path = match input.string("path") {
            Param::Given(p) => p,
            Param::Missing => return Err(messages::missing(style, "path", &command)),
            Param::Invalid(v) => {
                return Err(messages::wrong_type(
                    style,
                    "path",
                    &input::py_repr(&v),
                    "a string, the absolute path of a file or directory",
                ));
            }
        };
        // `native` takes a `create` over an existing file whose text is a lazy edit (it has
        // `// ... existing code ...` markers) as that edit.
        let lazy = style.profile == Profile::Native
            && command == "create"
            && matches!(input.string("file_text"), Param::Given(text)
                if hunkloom::lazy::is_lazy(text, &hunkloom::LazyOptions::new().path(path)));
        // The file's turn first, so the checks below and the command see the file as the calls
        // before this one left it.
        let key = self
            .ws
            .resolve(Path::new(&input::normalize_path(path)))
            .unwrap_or_else(|_| PathBuf::from(path));
        let limit = self.ws.options().lock_timeout;
        let _turn = self
            .turns
            .take(std::slice::from_ref(&key), limit, Path::new(path))
            .map_err(|e| Failure::of(&e))?;
        let mut target = self.check_path(&command, path, lazy, shown)?;
        target.plan_only = plan_only;
        match command.as_str() {
            "view" => view::view(self, input, &target),
            "create" => edit::create(self, input, &target),
            "str_replace" => edit::str_replace(self, input, &target),
            "insert" => edit::insert(self, input, &target),
            "undo_edit" if style.commands.contains(&"undo_edit") => edit::undo(self, &target),
            other => Err(messages::unknown_command(style, other)),
        }
    }

    /// The path checks, in the references' order: absolute, inside the root, exists (or not,
    /// for `create`, unless it is a `lazy` edit of a file), a directory only for `view`.
    fn check_path(
        &self,
        command: &str,
        path: &str,
        lazy: bool,
        shown_out: &mut Option<String>,
    ) -> Result<Target, Failure> {
        let style = self.style;
        let shown = input::normalize_path(path);
        *shown_out = Some(shown.clone());
        if !input::is_absolute(&shown) && style.absolute_paths {
            let suggestion = self.root().join(&shown);
            let suggestion = (style.profile == Profile::OpenHands && suggestion.exists())
                .then(|| suggestion.display().to_string());
            return Err(messages::relative_path(
                style,
                &shown,
                suggestion.as_deref(),
            ));
        }
        let os_path = if input::is_absolute(&shown) {
            PathBuf::from(&shown)
        } else {
            self.root().join(&shown)
        };
        let resolved = match self.ws.resolve(Path::new(&shown)) {
            Ok(resolved) => resolved,
            // A path the system cannot walk (a file used as a directory) does not exist; the
            // checks below say so, as the references do.
            Err(e) if e.kind() == ErrorKind::IoError => os_path.clone(),
            Err(e) => return Err(Failure::of(&e)),
        };
        let meta = std::fs::metadata(&os_path).ok();
        match (&meta, command) {
            (None, c) if c != "create" => return Err(messages::does_not_exist(style, &shown)),
            (Some(m), "create") if !(lazy && m.is_file()) => {
                return Err(messages::already_exists(style, &shown));
            }
            (Some(m), c) if m.is_dir() && c != "view" => {
                return Err(messages::is_directory(style, &shown));
            }
            // A FIFO, socket or device: reading it could block or never end.
            (Some(m), _) if !m.is_dir() && !m.is_file() => {
                return Err(Failure::new(
                    ToolCode::IoError,
                    format!("The path {shown} is not a regular file or a directory."),
                ));
            }
            _ => {}
        }
        if style.profile == Profile::OpenHands
            && command != "view"
            && let Some(suffix) = binary_suffix(&shown)
        {
            return Err(messages::binary_extension(style, &shown, &suffix));
        }
        let history_key = match style.profile {
            Profile::Native => resolved,
            _ => PathBuf::from(&shown),
        };
        Ok(Target {
            shown,
            os_path,
            history_key,
            plan_only: false,
        })
    }
}

/// The extension of a file OpenHands converts to Markdown (and refuses to edit), lower-cased
/// with its dot as Python's `Path.suffix` gives it.
fn binary_suffix(shown: &str) -> Option<String> {
    const SUFFIXES: &[&str] = &[
        ".docx", ".xlsx", ".pptx", ".pdf", ".mp3", ".wav", ".m4a", ".flac",
    ];
    let name = shown.rsplit('/').next()?;
    let dot = name.rfind('.').filter(|&i| i > 0 && i + 1 < name.len())?;
    let suffix = &name[dot..];
    SUFFIXES
        .iter()
        .any(|s| s.eq_ignore_ascii_case(suffix))
        .then(|| suffix.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_suffixes() {
        assert_eq!(binary_suffix("/r/a.PDF").as_deref(), Some(".PDF"));
        assert_eq!(binary_suffix("/r/a.txt"), None);
        assert_eq!(binary_suffix("/r/.pdf"), None);
    }
}

//! [`TextEditor`]: options, the path checks every command starts with, and the dispatch.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use hunkloom::{Error, ErrorKind, Result};
use hunkloom_fs::{Durability, Turns, Workspace, WorkspaceOptions};
use serde_json::Value;

use crate::codes::ToolCode;
use crate::history::History;
use crate::input::{self, Input, Param};
use crate::messages;
use crate::profile::{Profile, Style};
use crate::result::{self, Failure, Outcome, ToolResult};
use crate::{edit, view};

/// Settings of a [`TextEditor`].
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EditorOptions {
    /// Whose tool to answer as (default [`Profile::Native`]).
    pub profile: Profile,
    /// Refuse to edit a file the model has not viewed since it last changed (`not_read`,
    /// `stale_file`). `None` (the default) takes the profile's default: off for `anthropic` and
    /// `openhands` (the references track nothing between calls), on for `native`.
    pub require_read: Option<bool>,
    /// Files larger than this many bytes are refused. `None` (the default) takes the profile's
    /// default: 10 MiB for `openhands` (the reference's limit), 1 GiB otherwise.
    pub max_file_size: Option<u64>,
    /// Globs (gitignore syntax, relative to the root) of paths that can be viewed but never
    /// written, besides the file layer's defaults (`.git` and the other version-control
    /// directories, the ignore file): see
    /// [`WorkspaceOptions::protect`](hunkloom_fs::WorkspaceOptions::protect).
    pub protect: Vec<String>,
    /// The most characters of a file a `view` shows before its `<response clipped>` notice
    /// (the `max_characters` of Anthropic's text_editor_20250728 tool definition). `None`
    /// (the default): 16,000, the references' limit.
    pub max_characters: Option<usize>,
    /// Whether a write waits for the disk (default [`Durability::Full`]: every write flushed
    /// before the call returns; [`Durability::None`] for scratch trees and tests).
    pub durability: Durability,
    /// Answer as Anthropic's `str_replace_based_edit_tool` (its 20250429/20250728 editor:
    /// the `anthropic` profile under that name, without `undo_edit`).
    pub(crate) newest_anthropic: bool,
}

impl EditorOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the [`profile`](Self::profile).
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Sets [`require_read`](Self::require_read).
    pub fn require_read(mut self, yes: bool) -> Self {
        self.require_read = Some(yes);
        self
    }

    /// Sets [`max_file_size`](Self::max_file_size).
    pub fn max_file_size(mut self, bytes: u64) -> Self {
        self.max_file_size = Some(bytes);
        self
    }

    /// Sets [`durability`](Self::durability).
    pub fn durability(mut self, durability: Durability) -> Self {
        self.durability = durability;
        self
    }

    /// Sets [`max_characters`](Self::max_characters).
    pub fn max_characters(mut self, characters: usize) -> Self {
        self.max_characters = Some(characters);
        self
    }

    /// Adds globs of protected paths (see [`protect`](Self::protect)).
    pub fn protect<I, S>(mut self, globs: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.protect.extend(globs.into_iter().map(Into::into));
        self
    }
}

/// OpenHands' size limit.
const OPENHANDS_MAX_FILE_SIZE: u64 = 10 * 1024 * 1024;

/// One text-editor tool over a root directory: [`call`](TextEditor::call) answers a tool call's
/// input with a [`ToolResult`]. See the [crate documentation](crate).
///
/// Owned, `Send` and `Sync`, and [`call`](TextEditor::call) takes `&self`: one editor answers
/// parallel tool calls from many threads. Calls on different files run in parallel; calls on
/// the same file take turns, each answered as if it had come after the one before (in every
/// profile, the references' answers one call after another), so no call is refused for being
/// concurrent. A call that waits longer than the workspace's lock timeout (5 s) for its turn is
/// answered with an `io_error` result naming `lock_timeout`, having done nothing.
#[derive(Debug)]
pub struct TextEditor {
    pub(crate) style: &'static Style,
    /// The most characters of a file a `view` shows.
    pub(crate) max_chars: usize,
    pub(crate) require_read: bool,
    pub(crate) ws: Workspace,
    history: Mutex<History>,
    /// One call per file at a time: a call reads, computes and writes, so the file layer's own
    /// turns (one per commit) are not enough.
    turns: Turns,
}

/// The file a call names.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    /// As messages show it: the input's path normalised the way `pathlib` prints it.
    pub(crate) shown: String,
    /// The path the operating system is given (relative paths joined to the root).
    pub(crate) os_path: PathBuf,
    /// The key of the file's undo history: in the reference profiles the path as shown (as
    /// both references key theirs, so `dir/../a.txt` and `a.txt` have separate histories); in
    /// `native` the file itself (inside the root, symbolic links resolved).
    pub(crate) history_key: PathBuf,
    /// The call is only planned (a stream's preview of what it will leave): nothing is written
    /// and the undo history is left as it is.
    pub(crate) plan_only: bool,
}

impl Target {
    /// The path passed to the workspace.
    pub(crate) fn ws_path(&self) -> &Path {
        Path::new(&self.shown)
    }
}

impl TextEditor {
    /// An editor over the directory `root` (which must exist).
    ///
    /// Errors: `io_error` if `root` is not an accessible directory.
    pub fn new(root: impl AsRef<Path>, options: EditorOptions) -> Result<TextEditor> {
        let profile = options.profile;
        let max = options.max_file_size.unwrap_or(match profile {
            Profile::OpenHands => OPENHANDS_MAX_FILE_SIZE,
            _ => WorkspaceOptions::default().max_file_size,
        });
        // The editor keeps its own undo history (the references' semantics).
        let ws = Workspace::open(
            root,
            WorkspaceOptions::new()
                .max_file_size(max)
                .undo_depth(0)
                // The damaged-call rules run in the `native` commands themselves (`edit`), not
                // on the whole texts `create` and `undo_edit` hand the file layer.
                .guards(hunkloom::ops::Guards::NATIVE.damaged_calls(false))
                // Anthropic's reference reads strict UTF-8 and fails on anything else; the
                // other profiles read a legacy file in its encoding and write it back in it.
                .legacy_encodings(profile != Profile::Anthropic)
                .durability(options.durability)
                .protect(options.protect.iter().cloned()),
        )?;
        let style = if options.newest_anthropic && profile == Profile::Anthropic {
            &crate::profile::ANTHROPIC_NEWEST
        } else {
            profile.style()
        };
        Ok(TextEditor {
            style,
            max_chars: options.max_characters.unwrap_or(crate::render::MAX_CHARS),
            require_read: options.require_read.unwrap_or(profile == Profile::Native),
            ws,
            history: Mutex::new(History::new(style.undo_depth)),
            turns: Turns::new(),
        })
    }

    /// The profile it answers as.
    pub fn profile(&self) -> Profile {
        self.style.profile
    }

    /// Whether edits need a view of the file first.
    pub fn requires_read(&self) -> bool {
        self.require_read
    }

    /// The root directory (canonical).
    pub fn root(&self) -> &Path {
        self.ws.root()
    }

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

    /// The decoded text of the file at `path` (as a call names it) without recording a read:
    /// `Ok(None)` when nothing is there, `Err(())` when the path or the file cannot be read
    /// (or is not one the profile accepts).
    pub(crate) fn peek(&self, path: &str) -> std::result::Result<Option<String>, ()> {
        let shown = input::normalize_path(path);
        if !input::is_absolute(&shown) && self.style.absolute_paths {
            return Err(());
        }
        let os_path = if input::is_absolute(&shown) {
            PathBuf::from(&shown)
        } else {
            self.root().join(&shown)
        };
        match std::fs::metadata(&os_path) {
            Err(_) => return Ok(None),
            Ok(meta) if !meta.is_file() => return Err(()),
            Ok(_) => {}
        }
        self.ws.peek(Path::new(&shown)).map(Some).map_err(|_| ())
    }

    /// The undo history; nothing panics while holding it, so a poisoned lock still holds a
    /// sound history.
    pub(crate) fn history(&self) -> MutexGuard<'_, History> {
        self.history.lock().unwrap_or_else(|e| e.into_inner())
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

pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editor_crosses_threads() {
        fn check<T: Send + Sync + std::panic::UnwindSafe + std::panic::RefUnwindSafe + 'static>() {}
        check::<TextEditor>();
        check::<EditorOptions>();
        check::<ToolResult>();
        check::<Profile>();
        check::<ToolCode>();
    }

    #[test]
    fn binary_suffixes() {
        assert_eq!(binary_suffix("/r/a.PDF").as_deref(), Some(".PDF"));
        assert_eq!(binary_suffix("/r/a.txt"), None);
        assert_eq!(binary_suffix("/r/.pdf"), None);
    }
}

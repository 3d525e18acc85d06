//! [`TextEditor`]: options, the path checks every command starts with, and the dispatch.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use hunkloom::Result;
use hunkloom_fs::{Durability, Turns, Workspace, WorkspaceOptions};
use serde_json::Value;

use crate::history::History;
use crate::input;
use crate::profile::{Profile, Style};

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
/// input with a [`ToolResult`](crate::ToolResult). See the [crate documentation](crate).
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
    pub(crate) turns: Turns,
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
    use crate::{ToolCode, ToolResult};

    #[test]
    fn editor_crosses_threads() {
        fn check<T: Send + Sync + std::panic::UnwindSafe + std::panic::RefUnwindSafe + 'static>() {}
        check::<TextEditor>();
        check::<EditorOptions>();
        check::<ToolResult>();
        check::<Profile>();
        check::<ToolCode>();
    }
}

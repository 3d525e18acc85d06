//! [`EditStream`]: one tool call applied while its argument JSON streams in, answered by the
//! [`TextEditor`] or [`Toolset`] that made it (a [`ToolHost`]).

use hunkloom::Update;
use serde_json::Value;

use super::editor::{EditorCall, Follow};
use crate::ToolResult;
use crate::editor::TextEditor;
use crate::toolset::Toolset;

/// What answers a streamed call: the [`TextEditor`] or the [`Toolset`] that made the stream.
/// Every [`EditStream`] method that reads or writes takes it; pass the object that made the
/// stream. Bindings share either as an `Arc<Shared<dyn ToolHost>>`.
pub trait ToolHost: host::Answers + std::fmt::Debug + Send + Sync {}

// Sealed: the trait is public so `ToolHost` can name it, but no one outside can implement or
// call it, so its crate-private types never leave the crate.
#[allow(private_interfaces)]
mod host {
    use super::*;

    /// How a host answers a call: sealed, so the two hosts stay the only ones.
    pub trait Answers {
        /// What a call of `tool` is previewed by, if it edits a file the stream can follow.
        fn follow<'a>(&'a self, tool: &'a str) -> Option<Follow<'a>>;
        /// Runs a call of `tool` with its complete arguments.
        fn answer(&self, tool: &str, input: &Value) -> hunkloom::Result<ToolResult>;
    }

    impl Answers for TextEditor {
        fn follow<'a>(&'a self, _tool: &'a str) -> Option<Follow<'a>> {
            Some(Follow::Editor(self))
        }

        fn answer(&self, _tool: &str, input: &Value) -> hunkloom::Result<ToolResult> {
            self.call(input)
        }
    }

    impl Answers for Toolset {
        fn follow<'a>(&'a self, tool: &'a str) -> Option<Follow<'a>> {
            if let Some(editor) = self.editor_of(tool) {
                return Some(Follow::Editor(editor));
            }
            if let Some(openai) = self.operation_tool_of(tool) {
                return Some(Follow::Operation(openai));
            }
            if let Some(codex) = self.codex_patch_of(tool) {
                return Some(Follow::Codex(codex));
            }
            self.file_tool_of(tool)
                .map(|native| Follow::File(native, tool))
        }

        fn answer(&self, tool: &str, input: &Value) -> hunkloom::Result<ToolResult> {
            self.call(tool, input)
        }
    }
}

impl ToolHost for TextEditor {}

impl ToolHost for Toolset {}

/// One tool call applied while its arguments stream in: [`push`](Self::push) each piece of the
/// argument JSON exactly as the model API delivers it, read [`preview`](Self::preview), then
/// [`finish`](Self::finish) to run the call.
///
/// Made by [`TextEditor::stream`] or [`Toolset::stream`]; every method that reads or writes
/// takes the object that made it. A text-editor call (the editor's own, or a toolset's
/// text-editor tool: the `anthropic` and `openhands` editors, the `native` set's
/// `str_replace_based_edit_tool`) has a preview, as have the `native` set's `apply_diff` (its
/// `diff` streams through the engine's native applier over the file) and `apply_lazy` (once
/// complete) and `apply_patch` (a `*** Begin Patch` envelope read natively, one file after
/// the other: [`path`](Self::path) names the file shown; a patch of several files shows none
/// once complete), the `codex` set's `apply_patch` (its `input` envelope, the same way; the
/// text at completion is Codex's reading), and the `openai` set's `apply_patch` of one
/// operation (its V4A `diff` read as the call reads it, each section shown once placed; a
/// created file's lines as they come); the other tools' calls are read as they arrive and run
/// by `finish`. Either way
/// `finish` gives what `call` gives for the whole argument text, and text that is not a
/// complete JSON object is the error result `invalid_arguments`.
///
/// ```
/// use hunkloom_tools::{EditorOptions, Profile, TextEditor};
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.py"), "x = 1\ny = 2\n")?;
/// let path = dir.path().canonicalize()?.join("a.py").display().to_string();
/// let editor = TextEditor::new(dir.path(), EditorOptions::new().profile(Profile::Anthropic))?;
///
/// let json = serde_json::json!({"command": "str_replace", "path": path,
///                               "old_str": "y = 2", "new_str": "y = 3  # streamed"}).to_string();
/// let mut stream = editor.stream();
/// let mut preview = String::new();
/// for piece in json.as_bytes().chunks(7).map(|c| std::str::from_utf8(c).unwrap()) {
///     stream.push(&editor, piece).apply_to(&mut preview);
/// }
/// assert_eq!(stream.preview(), Some("x = 1\ny = 3  # streamed\n"));
/// assert_eq!(preview, "x = 1\ny = 3  # streamed\n");
/// let result = stream.finish(&editor);
/// assert!(!result.is_error);
/// assert_eq!(std::fs::read_to_string(dir.path().join("a.py"))?, "x = 1\ny = 3  # streamed\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct EditStream {
    /// The toolset's tool called (empty for an editor's own call).
    tool: String,
    call: EditorCall,
}

impl TextEditor {
    /// A stream for one tool call whose argument JSON arrives in pieces (see [`EditStream`]).
    pub fn stream(&self) -> EditStream {
        EditStream::default()
    }
}

impl Toolset {
    /// A stream for one call of the tool `name` whose argument JSON arrives in pieces (see
    /// [`EditStream`]).
    pub fn stream(&self, name: &str) -> EditStream {
        EditStream {
            tool: name.to_owned(),
            call: EditorCall::default(),
        }
    }
}

impl EditStream {
    /// The toolset's tool this call is of (`""` for a text editor's own call).
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// Takes the next piece of the call's argument JSON (split anywhere) and returns how the
    /// preview changed: one splice, empty when it did not (always, for a tool without a
    /// preview).
    ///
    /// Costs the length of the piece, except for the push that places the edit (a read of the
    /// file) and the one that completes the arguments (the call planned as `call` runs it).
    pub fn push(&mut self, host: &dyn ToolHost, piece: &str) -> Update<'_> {
        match host.follow(&self.tool) {
            Some(follow) => self.call.push(follow, piece),
            None => {
                self.call.push_unfollowed(piece);
                Update::default()
            }
        }
    }

    /// Whether pushing `piece` may read the file or plan the call (the pushes that place the
    /// edit and complete the arguments of a text-editor call), so a binding can let other
    /// threads run meanwhile; every other push only decodes the piece.
    pub fn push_may_read(&self, host: &dyn ToolHost, piece: &str) -> bool {
        host.follow(&self.tool).is_some() && self.call.push_may_read(piece)
    }

    /// The target file's text with the edit applied as far as it has streamed; once the
    /// arguments are complete, exactly the text the call will leave. `None` before the edit is
    /// placed, for `view` and `undo_edit`, for a call that will fail, and for a tool without a
    /// preview.
    pub fn preview(&mut self) -> Option<&str> {
        self.call.preview()
    }

    /// The `command` argument, once its value is complete (for an `apply_patch` operation,
    /// its `type`).
    pub fn command(&self) -> Option<&str> {
        self.call.command()
    }

    /// The `path` argument, once its value is complete (for an `apply_patch` operation, its
    /// `path`; for a `*** Begin Patch` envelope, the file the preview shows now).
    pub fn path(&self) -> Option<&str> {
        self.call.path()
    }

    /// Runs the call: exactly what `call` returns for the whole argument text parsed as JSON.
    /// Text that is not a complete JSON object (malformed, or cut off) is the tool's error
    /// result `invalid_arguments`, never an `Err`.
    pub fn finish(self, host: &dyn ToolHost) -> ToolResult {
        let tool = self.tool;
        self.call.run(|input| host.answer(&tool, input))
    }
}

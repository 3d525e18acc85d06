//! [`ToolStream`]: a toolset's tool call applied while its argument JSON streams in.

use hunkloom::Update;

use super::editor::EditStream;
use crate::ToolResult;
use crate::toolset::Toolset;

/// One call of a [`Toolset`] tool whose argument JSON arrives in pieces: made by
/// [`Toolset::stream`]; every method takes the toolset that made it.
///
/// A call of a text-editor tool (the `anthropic` and `openhands` editors, the `native` set's
/// `str_replace_based_edit_tool`) has the [`EditStream`] preview; the other tools' calls are
/// read as they arrive (no preview) and run by [`finish`](Self::finish). Either way `finish`
/// gives what [`Toolset::call`] gives for the whole argument text, and text that is not a
/// complete JSON object is the error result `invalid_arguments`.
#[derive(Debug)]
pub struct ToolStream {
    name: String,
    edit: EditStream,
}

impl Toolset {
    /// A stream for one call of the tool `name` whose argument JSON arrives in pieces (see
    /// [`ToolStream`]).
    pub fn stream(&self, name: &str) -> ToolStream {
        ToolStream {
            name: name.to_owned(),
            edit: EditStream::default(),
        }
    }
}

impl ToolStream {
    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Takes the next piece of the call's argument JSON; returns how the preview changed (an
    /// empty splice for a tool without a preview).
    pub fn push(&mut self, toolset: &Toolset, piece: &str) -> Update<'_> {
        match toolset.editor_of(&self.name) {
            Some(editor) => self.edit.push(editor, piece),
            None => {
                self.edit.push_unfollowed(piece);
                Update::default()
            }
        }
    }

    /// Whether pushing `piece` may read a file or plan the call (see
    /// [`EditStream::push_may_read`]).
    pub fn push_may_read(&self, piece: &str) -> bool {
        self.edit.push_may_read(piece)
    }

    /// The target file with the edit as far as it has streamed, for a text-editor tool (see
    /// [`EditStream::preview`]); `None` for the other tools.
    pub fn preview(&mut self) -> Option<&str> {
        self.edit.preview()
    }

    /// The `command` argument, once its value is complete.
    pub fn command(&self) -> Option<&str> {
        self.edit.command()
    }

    /// The `path` argument, once its value is complete.
    pub fn path(&self) -> Option<&str> {
        self.edit.path()
    }

    /// Runs the call: what [`Toolset::call`] gives for the whole argument text parsed as JSON.
    pub fn finish(self, toolset: &Toolset) -> ToolResult {
        let name = self.name;
        self.edit.run(|input| toolset.call(&name, input))
    }
}

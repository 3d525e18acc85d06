//! [`ToolResult`]: what one call gives back to the host.

use crate::codes::ToolCode;

/// The answer to one tool call: the text for the model and what the host needs besides.
///
/// A model's mistake (a missing parameter, a path that does not exist, an `old_str` found
/// nowhere) is a result with [`is_error`](ToolResult::is_error) set, never an `Err`: the host
/// sends [`output`](ToolResult::output) back to the model either way, as the agent loops of
/// both references do with their tools' error texts.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolResult {
    /// The exact text for the model: the reference's text in the `anthropic` and `openhands`
    /// profiles.
    pub output: String,
    /// Whether the call failed (the reference's tool error).
    pub is_error: bool,
    /// A stable snake_case code of the failure ([`ToolCode`]), empty on success.
    pub code: String,
    /// The path the call was about, as shown in the output (normalised the way `pathlib`
    /// prints it); `None` when the input had no usable path.
    pub path: Option<String>,
    /// For `str_replace`, `insert` and `undo_edit` that changed a file, and the `openai` set's
    /// `apply_patch` of one `update_file` operation: its text before (decoded, with its own
    /// line endings).
    pub old_content: Option<String>,
    /// For `create`, `str_replace`, `insert` and `undo_edit` that wrote a file, and a toolset
    /// call that wrote one file (the `native` set's file tools and one-file `apply_patch`, the
    /// `codex` set's one-file `apply_patch`, the `openai` set's `apply_patch` of one
    /// `create_file` or `update_file` operation): its text after.
    pub new_content: Option<String>,
}

impl ToolResult {
    /// The failure's [`ToolCode`], `None` on success.
    pub fn error_code(&self) -> Option<ToolCode> {
        ToolCode::from_code(&self.code)
    }
}

/// A failed call inside the editor: the code and the text for the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    pub(crate) code: ToolCode,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(code: ToolCode, message: impl Into<String>) -> Self {
        Failure {
            code,
            message: message.into(),
        }
    }

    /// An engine or file-layer error, its message as the output.
    pub(crate) fn of(error: &hunkloom::Error) -> Self {
        Failure::new(ToolCode::of(error), error.message())
    }
}

/// A successful call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Success {
    pub(crate) output: String,
    pub(crate) old_content: Option<String>,
    pub(crate) new_content: Option<String>,
}

impl Success {
    pub(crate) fn text(output: String) -> Self {
        Success {
            output,
            ..Success::default()
        }
    }
}

/// The result of a call as the editor computes it.
pub(crate) type Outcome = Result<Success, Failure>;

/// The public result of `outcome` about `path`.
pub(crate) fn finish(outcome: Outcome, path: Option<String>) -> ToolResult {
    match outcome {
        Ok(s) => ToolResult {
            output: s.output,
            is_error: false,
            code: String::new(),
            path,
            old_content: s.old_content,
            new_content: s.new_content,
        },
        Err(f) => ToolResult {
            output: f.message,
            is_error: true,
            code: f.code.as_str().to_owned(),
            path,
            old_content: None,
            new_content: None,
        },
    }
}

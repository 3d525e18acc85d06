//! `replace` under native semantics: the CLI's tool name, arguments, paths and success texts,
//! with hunkloom's own replacement ([`crate::replace::native`]) in place of the CLI's four
//! strategies, whose trimmed, token and Levenshtein passes can place a text where the model
//! did not mean it.
//!
//! The file is read in its own encoding and edited in its `\n` view; the lines written take the
//! file's own line endings back (a file with mixed endings keeps them). `allow_multiple`
//! replaces every occurrence; without it, a text found in several places (overlapping places
//! included) is refused naming their lines. A call already made (old text gone, new text in its
//! one place) changes nothing and says so. The damaged-call rules of the native text editor
//! apply to `new_string` (a read tool's line-number prefixes removed when certain).

use std::path::Path;

use hunkloom::ops::Guards;
use hunkloom_fs::Op;
use serde_json::{Map, Value};

use super::{Failed, Gemini, snippet, text};
use crate::ToolResult;
use crate::codes::ToolCode;
use crate::file;
use crate::messages;
use crate::replace::{self, Refused, Replaced};
use crate::result::Failure;

impl Gemini<'_> {
    /// `replace` on the existing file whose decoded text is `raw`, found at `resolved` for the
    /// `file_path` the model `given`, shown to it as `shown`.
    pub(super) fn replace_native(
        &self,
        input: &Map<String, Value>,
        raw: &str,
        resolved: &Path,
        given: &str,
        shown: &str,
    ) -> Result<ToolResult, Failed> {
        let with_path = |f: Failure| (f, Some(shown.to_owned()));
        let (old, new) = (text(input, "old_string"), text(input, "new_string"));
        let allow_multiple = input.get("allow_multiple").and_then(Value::as_bool) == Some(true);
        let (new, _) = Guards::NATIVE
            .screen(old, new, "new_string")
            .map_err(|e| with_path(Failure::of(&e)))?;
        let view = file::view_of(raw);
        let edit = match replace::native(&view, old, &new, allow_multiple, shown) {
            Ok(Replaced::Edit(edit)) => edit,
            Ok(Replaced::AlreadyThere) => {
                return Ok(ToolResult {
                    output: messages::already_applied(shown),
                    path: Some(shown.to_owned()),
                    ..ToolResult::default()
                });
            }
            Err(refused) => return Err(with_path(self.refusal(refused, resolved, given, shown))),
        };
        let written = self
            .commit(
                resolved,
                &Op::SetText {
                    text: edit.new_content,
                },
            )
            .map_err(with_path)?;
        Ok(ToolResult {
            output: format!(
                "Successfully modified file: {shown} ({} replacements). Here is the updated \
                 code:\n{}",
                edit.replacements,
                snippet::snippet(&view, &file::view_of(&written))
            ),
            path: Some(shown.to_owned()),
            old_content: Some(raw.to_owned()),
            new_content: Some(written),
            ..ToolResult::default()
        })
    }

    /// The text a refused replacement answers: the CLI's where it has one, with what the model
    /// needs to act on (the lines of every place, whether the file changed since it was read).
    fn refusal(&self, refused: Refused, resolved: &Path, given: &str, shown: &str) -> Failure {
        match refused {
            Refused::NotFound => {
                let changed = self
                    .ws
                    .changed_since_read(self.relative(resolved))
                    .unwrap_or(false);
                let why = if changed {
                    " The file has changed since you last read it (by the user or another \
                     program): read it again with read_file and copy old_string from what it \
                     shows now."
                } else {
                    ""
                };
                Failure::new(
                    ToolCode::NotFound,
                    format!(
                        "Could not find an exact match for 'old_string' in '{given}'.{why} If \
                         previous edits modified the file or you are modifying lines outside \
                         your recent read window, please use ReadFile to inspect the target \
                         lines before retrying with an exact 'old_string'."
                    ),
                )
            }
            Refused::Multiple(lines) => {
                let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
                Failure::new(
                    ToolCode::MultipleMatches,
                    format!(
                        "Failed to edit, Expected 1 occurrence but found {} for old_string in \
                         file: {shown} (starting at lines {}). If you intended to replace \
                         multiple occurrences, set 'allow_multiple' to true; otherwise include \
                         more surrounding lines in 'old_string' so that it is unique.",
                        lines.len(),
                        lines.join(", ")
                    ),
                )
            }
            Refused::Unchanged => Failure::new(
                ToolCode::OldEqualsNew,
                format!(
                    "No changes to apply. The old_string and new_string are identical in file: \
                     {shown}"
                ),
            ),
            Refused::Other(e) => Failure::of(&e),
        }
    }
}

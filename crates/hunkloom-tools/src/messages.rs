//! Every text the model reads that is not a listing, per profile. The reference profiles' texts
//! are the references' own (the conformance vectors are their specification); `native` uses the
//! Anthropic shapes.
//!
//! Each function returns the [`Failure`] (code and text) or the success text, so the code a
//! host sees and the text a model reads are decided in one place.

use hunkloom_fs::ExternalChange;

use crate::codes::ToolCode;
use crate::profile::{Profile, Style};
use crate::render;
use crate::result::Failure;

/// "Invalid `<param>` parameter: <value>. <hint>" in the profiles that wrap parameter errors,
/// else `plain`.
fn wrapped(style: &Style, param: &str, value: &str, hint: &str, plain: String) -> String {
    if style.wrapped_errors {
        format!("Invalid `{param}` parameter: {value}. {hint}")
    } else {
        plain
    }
}

pub(crate) fn missing(style: &Style, param: &str, command: &str) -> Failure {
    Failure::new(
        ToolCode::MissingParameter,
        format!(
            "Parameter `{param}` is required for command: {command}{}",
            style.period
        ),
    )
}

pub(crate) fn missing_command(style: &Style) -> Failure {
    Failure::new(
        ToolCode::MissingParameter,
        format!(
            "Parameter `command` is required. The allowed commands for the {} tool are: {}{}",
            style.tool_name,
            style.commands.join(", "),
            style.period
        ),
    )
}

/// A parameter of the wrong type (the references crash on these).
pub(crate) fn wrong_type(style: &Style, param: &str, value: &str, expected: &str) -> Failure {
    Failure::new(
        ToolCode::InvalidParameter,
        format!(
            "Invalid `{param}` parameter: {value}. It should be {expected}{}",
            style.period
        ),
    )
}

pub(crate) fn unknown_command(style: &Style, command: &str) -> Failure {
    Failure::new(
        ToolCode::UnknownCommand,
        format!(
            "Unrecognized command {command}. The allowed commands for the {} tool are: {}",
            style.tool_name,
            style.commands.join(", ")
        ),
    )
}

/// A relative path; `suggestion` is the absolute path it may have meant (OpenHands suggests
/// it only when it exists).
pub(crate) fn relative_path(style: &Style, shown: &str, suggestion: Option<&str>) -> Failure {
    let text = if style.wrapped_errors {
        let mut hint = "The path should be an absolute path, starting with `/`.".to_owned();
        if let Some(s) = suggestion {
            hint.push_str(&format!(" Maybe you meant {s}?"));
        }
        wrapped(style, "path", shown, &hint, String::new())
    } else {
        format!(
            "The path {shown} is not an absolute path, it should start with `/`. Maybe you meant \
             {shown}?"
        )
    };
    Failure::new(ToolCode::RelativePath, text)
}

pub(crate) fn does_not_exist(style: &Style, shown: &str) -> Failure {
    let text = format!("The path {shown} does not exist. Please provide a valid path.");
    Failure::new(
        ToolCode::FileNotFound,
        wrapped(style, "path", shown, &text, text.clone()),
    )
}

pub(crate) fn already_exists(style: &Style, shown: &str) -> Failure {
    let text =
        format!("File already exists at: {shown}. Cannot overwrite files using command `create`.");
    Failure::new(
        ToolCode::FileExists,
        wrapped(style, "path", shown, &text, text.clone()),
    )
}

pub(crate) fn is_directory(style: &Style, shown: &str) -> Failure {
    let text = format!(
        "The path {shown} is a directory and only the `view` command can be used on directories"
    );
    Failure::new(
        ToolCode::IsDirectory,
        wrapped(style, "path", shown, &format!("{text}."), text.clone()),
    )
}

/// OpenHands: a non-view command on a file its Markdown converter handles.
pub(crate) fn binary_extension(style: &Style, shown: &str, suffix: &str) -> Failure {
    let text = format!(
        "The path {shown} points to a binary file ({suffix}) and only the `view` command can be \
         used on supported binary files."
    );
    Failure::new(
        ToolCode::UnsupportedEncoding,
        wrapped(style, "path", shown, &text, text.clone()),
    )
}

pub(crate) fn directory_with_range(style: &Style, range: &str) -> Failure {
    let text = "The `view_range` parameter is not allowed when `path` points to a directory.";
    Failure::new(
        ToolCode::IsDirectory,
        wrapped(style, "view_range", range, text, text.to_owned()),
    )
}

pub(crate) fn range_not_two_integers(style: &Style, range: &str) -> Failure {
    let hint = "It should be a list of two integers.";
    Failure::new(
        ToolCode::InvalidViewRange,
        wrapped(
            style,
            "view_range",
            range,
            hint,
            format!("Invalid `view_range`. {hint}"),
        ),
    )
}

pub(crate) fn range_first(style: &Style, range: &str, first: i128, lines: usize) -> Failure {
    let text = if style.wrapped_errors {
        format!(
            "Invalid `view_range` parameter: {range}. Its first element `{first}` should be \
             within the range of lines of the file: [1, {lines}]."
        )
    } else {
        format!(
            "Invalid `view_range`: {range}. Its first element `{first}` should be within the \
             range of lines of the file: [1, {lines}]"
        )
    };
    Failure::new(ToolCode::InvalidViewRange, text)
}

/// Anthropic: an end past the last line.
pub(crate) fn range_end_past_file(range: &str, last: i128, lines: usize) -> Failure {
    Failure::new(
        ToolCode::InvalidViewRange,
        format!(
            "Invalid `view_range`: {range}. Its second element `{last}` should be smaller than \
             the number of lines in the file: `{lines}`"
        ),
    )
}

pub(crate) fn range_inverted(style: &Style, range: &str, first: i128, last: i128) -> Failure {
    let text = if style.wrapped_errors {
        format!(
            "Invalid `view_range` parameter: {range}. Its second element `{last}` should be \
             greater than or equal to the first element `{first}`."
        )
    } else {
        format!(
            "Invalid `view_range`: {range}. Its second element `{last}` should be larger or \
             equal than its first `{first}`"
        )
    };
    Failure::new(ToolCode::InvalidViewRange, text)
}

/// The note put before a view whose end was clipped to the file.
pub(crate) fn range_clipped(lines: usize) -> String {
    format!("NOTE: We only show up to {lines} since there're only {lines} lines in this file.\n")
}

pub(crate) fn insert_line(style: &Style, line: i128, lines: usize) -> Failure {
    Failure::new(
        ToolCode::InvalidLine,
        format!(
            "Invalid `insert_line` parameter: {line}. {}: [0, {lines}]",
            style.insert_range
        ),
    )
}

pub(crate) fn not_found(shown: &str, old: &str) -> Failure {
    Failure::new(
        ToolCode::NotFound,
        format!(
            "No replacement was performed, old_str `{old}` did not appear verbatim in {shown}."
        ),
    )
}

/// `native`: the old text is not in the file, which has changed since the model viewed it.
pub(crate) fn not_found_changed(shown: &str, old: &str) -> Failure {
    Failure::new(
        ToolCode::NotFound,
        format!(
            "No replacement was performed, old_str `{old}` did not appear verbatim in {shown}. \
             The file has changed since you last viewed it (by the user or another program): \
             view it again (the `view` command) and copy old_str from what it shows now."
        ),
    )
}

pub(crate) fn multiple(style: &Style, old: &str, lines: &[usize]) -> Failure {
    let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
    Failure::new(
        ToolCode::MultipleMatches,
        format!(
            "No replacement was performed. Multiple occurrences of old_str `{old}` in lines [{}]. \
             Please ensure it is unique{}",
            lines.join(", "),
            style.period
        ),
    )
}

/// OpenHands refuses `old_str == new_str` before reading the file; `native` does too.
pub(crate) fn old_equals_new(style: &Style, new: &str) -> Failure {
    let hint = "No replacement was performed. `new_str` and `old_str` must be different.";
    let text = match style.profile {
        Profile::OpenHands => format!("Invalid `new_str` parameter: {new}. {hint}"),
        _ => hint.to_owned(),
    };
    Failure::new(ToolCode::OldEqualsNew, text)
}

/// Anthropic: an empty `old_str` on an empty file, where the reference crashes.
pub(crate) fn empty_old_on_empty_file(shown: &str) -> Failure {
    Failure::new(
        ToolCode::InvalidParameter,
        format!(
            "No replacement was performed: `old_str` is empty and so is {shown}. Use the \
             `insert` command with `insert_line` 0 to add text to an empty file."
        ),
    )
}

/// Native: an empty `old_str` on a file with content.
pub(crate) fn empty_old_on_content(shown: &str) -> Failure {
    Failure::new(
        ToolCode::FileExists,
        format!(
            "No replacement was performed: `old_str` is empty, which only writes a file that is \
             empty, and {shown} has content. Give the text to replace, or use the `insert` \
             command."
        ),
    )
}

pub(crate) fn nothing_to_undo(shown: &str) -> Failure {
    Failure::new(
        ToolCode::NothingToUndo,
        format!("No edit history found for {shown}."),
    )
}

/// A failed write, with the operating system's error as Python prints it.
pub(crate) fn write_failed(shown: &str, os_error: &str) -> Failure {
    Failure::new(
        ToolCode::IoError,
        format!("Ran into {os_error} while trying to write to {shown}"),
    )
}

/// A failed read, with the error as Python prints it.
pub(crate) fn read_failed(code: ToolCode, shown: &str, error: &str) -> Failure {
    Failure::new(
        code,
        format!("Ran into {error} while trying to read {shown}"),
    )
}

/// OpenHands: a file its validation refuses.
pub(crate) fn validation_failed(code: ToolCode, shown: &str, reason: &str) -> Failure {
    Failure::new(
        code,
        format!("File validation failed for {shown}: {reason}"),
    )
}

pub(crate) fn created(shown: &str) -> String {
    format!("File created successfully at: {shown}")
}

/// After a `native` `str_replace` or `insert` that was already in the file (a retried call).
pub(crate) fn already_applied(shown: &str) -> String {
    format!(
        "The file {shown} already has this edit (an earlier call made it), so nothing was \
         changed. View the file if you are unsure of its state."
    )
}

/// After a `native` `create` whose text was a lazy edit of the existing file, merged into it.
pub(crate) fn lazy_merged(shown: &str) -> String {
    format!(
        "The file {shown} already exists, so the text was merged into it as a lazy edit: the \
         code its `... existing code ...` markers stand for was kept. View the file to make \
         sure the result is as expected."
    )
}

/// After `str_replace`: the snippet's listing between the two sentences.
pub(crate) fn edited(style: &Style, shown: &str, snippet: &str, first: usize) -> String {
    format!(
        "The file {shown} has been edited. {}Review the changes and make sure they are as \
         expected. Edit the file again if necessary.",
        render::cat_n(style, snippet, &format!("a snippet of {shown}"), first)
    )
}

/// After `insert`.
pub(crate) fn inserted(style: &Style, shown: &str, snippet: &str, first: usize) -> String {
    format!(
        "The file {shown} has been edited. {}Review the changes and make sure they are as \
         expected (correct indentation, no duplicate lines, etc). Edit the file again if \
         necessary.",
        render::cat_n(style, snippet, "a snippet of the edited file", first)
    )
}

/// After an edit merged around changes made to the file since the model read it (empty when
/// there were none): which lines changed, so the model reads them again before it edits them.
pub(crate) fn merged(shown: &str, external: &[ExternalChange]) -> String {
    if external.is_empty() {
        return String::new();
    }
    let regions: Vec<String> = external.iter().map(ToString::to_string).collect();
    format!(
        " Note: {shown} had changed since you viewed it ({}); the edit was merged around those \
         changes, which are kept. View those lines before editing them.",
        regions.join(", ")
    )
}

/// After `undo_edit`: the whole restored text.
pub(crate) fn undone(style: &Style, shown: &str, text: &str) -> String {
    format!(
        "Last edit to {shown} undone successfully. {}",
        render::cat_n(style, text, shown, 1)
    )
}

/// Python's `str(OSError)`: `[Errno 2] No such file or directory: '<path>'`.
pub(crate) fn os_error(error: &std::io::Error, path: &str) -> String {
    let text = error.to_string();
    match error.raw_os_error() {
        Some(code) => {
            let suffix = format!(" (os error {code})");
            let detail = text.strip_suffix(&suffix).unwrap_or(&text);
            format!(
                "[Errno {code}] {detail}: {}",
                crate::input::py_repr_str(path)
            )
        }
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_errors_print_as_python_prints_them() {
        let e = std::io::Error::from_raw_os_error(2);
        assert_eq!(
            os_error(&e, "/r/a/b.txt"),
            "[Errno 2] No such file or directory: '/r/a/b.txt'"
        );
        let e = std::io::Error::from_raw_os_error(20);
        assert_eq!(
            os_error(&e, "/r/f/x"),
            "[Errno 20] Not a directory: '/r/f/x'"
        );
    }

    #[test]
    fn wrapped_and_plain_shapes() {
        let a = Profile::Anthropic.style();
        let o = Profile::OpenHands.style();
        assert_eq!(
            missing(a, "old_str", "str_replace").message,
            "Parameter `old_str` is required for command: str_replace"
        );
        assert_eq!(
            missing(o, "old_str", "str_replace").message,
            "Parameter `old_str` is required for command: str_replace."
        );
        assert_eq!(
            does_not_exist(o, "/r/x").message,
            "Invalid `path` parameter: /r/x. The path /r/x does not exist. Please provide a \
             valid path."
        );
        assert_eq!(
            is_directory(o, "/r").message,
            "Invalid `path` parameter: /r. The path /r is a directory and only the `view` \
             command can be used on directories."
        );
        assert_eq!(
            multiple(o, "x", &[1, 3]).message,
            "No replacement was performed. Multiple occurrences of old_str `x` in lines [1, 3]. \
             Please ensure it is unique."
        );
    }
}

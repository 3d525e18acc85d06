//! Profiles: whose behaviour the editor reproduces, and every setting in which they differ,
//! as data ([`Style`]).

use hunkloom::ops::LineModel;

/// Whose text-editor tool a [`TextEditor`](crate::TextEditor) answers as.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Anthropic's computer-use demo editor (`EditTool20250124`, tool name
    /// `str_replace_editor`), as the conformance vectors record it: every output, error text
    /// and file byte of the main set.
    Anthropic,
    /// OpenHands ACI's `OHEditor` (openhands-aci 0.3.3), as the conformance vectors record it.
    OpenHands,
    /// hunkloom's own semantics with the Anthropic message shapes: Claude Code's `str_replace`
    /// (curly quotes, trailing whitespace, a deleted line takes its newline, an old text equal
    /// to the new one refused), lines counted the way editors count them (a final newline does
    /// not start another line), candidates' lines when the old text is ambiguous, relative paths
    /// resolved in the root, parent directories created, read-before-edit by default.
    #[default]
    Native,
}

hunkloom::names!(
    Profile {
        Anthropic => "anthropic",
        OpenHands => "openhands",
        Native => "native",
    },
    parse: InvalidProfile,
    "text-editor profile"
);

impl Profile {
    /// The settings of this profile.
    pub(crate) fn style(self) -> &'static Style {
        match self {
            Profile::Anthropic => &ANTHROPIC,
            Profile::OpenHands => &OPENHANDS,
            Profile::Native => &NATIVE,
        }
    }
}

/// How a file's text is cut into the numbered lines of a listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pieces {
    /// `text.split('\n')`: a text ending in `\n` shows one more, empty, numbered line, and an
    /// empty text shows one empty line (both references).
    Split,
    /// Lines as editors count them: no line after a final `\n`, none in an empty text.
    Lines,
}

/// How a `view_range` is checked and cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RangeRules {
    /// Anthropic: the file has (number of `\n`) + 1 lines; an end past it is an error; the
    /// pieces are joined back with `\n` (a final empty piece shows).
    Anthropic,
    /// OpenHands: lines as Python iterates a file; an end past the last line is clipped with a
    /// note; the shown text never has the final empty line.
    OpenHands,
    /// Native: editor lines; an end past the last line is clipped with the OpenHands note.
    Native,
}

/// How a directory is listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListingStyle {
    /// `find <dir> -maxdepth 2 -not -path '*/\.*'`: depth first with siblings in byte order, the
    /// directory as given, no trailing `/`, any path with a `/.` hidden; ends with an empty line.
    Find,
    /// OpenHands (and `native`): sorted, directories with a trailing `/`, hidden entries (below
    /// the listed directory) dropped at both levels and counted at the first.
    Sorted,
}

/// Everything the profiles differ on, as data.
#[derive(Debug)]
pub(crate) struct Style {
    pub(crate) profile: Profile,
    /// The tool name in the "Unrecognized command" message.
    pub(crate) tool_name: &'static str,
    /// Ends the missing-parameter messages.
    pub(crate) period: &'static str,
    /// Parameter and path errors read "Invalid `<param>` parameter: <value>. <hint>".
    pub(crate) wrapped_errors: bool,
    /// The line model of `insert`.
    pub(crate) line_model: LineModel,
    /// The wording of the valid `insert_line` range.
    pub(crate) insert_range: &'static str,
    /// Appended to a listing cut at [`MAX_CHARS`](crate::render::MAX_CHARS).
    pub(crate) truncation_notice: &'static str,
    /// Appended to a directory listing cut at [`MAX_CHARS`](crate::render::MAX_CHARS).
    pub(crate) directory_truncation_notice: &'static str,
    /// Tabs are shown as spaces (8-column stops) in listings.
    pub(crate) expand_tabs: bool,
    /// How full views and snippets cut the text into numbered lines.
    pub(crate) pieces: Pieces,
    /// `view_range` rules.
    pub(crate) range: RangeRules,
    /// Lines shown before the line an edit starts on.
    pub(crate) context_before: usize,
    /// Lines shown after the edited lines.
    pub(crate) context_after: usize,
    /// A snippet whose last line ends with `\n` shows one more, empty, numbered line (the
    /// snippet is re-read from the file as lines that keep their `\n`).
    pub(crate) snippet_trailing_line: bool,
    /// Directory listing.
    pub(crate) listing: ListingStyle,
    /// Paths must be absolute.
    pub(crate) absolute_paths: bool,
    /// Files that look binary (a NUL byte in the first 1024 bytes) are refused.
    pub(crate) refuse_binary: bool,
    /// Most edits kept per file for `undo_edit` (`None`: unbounded).
    pub(crate) undo_depth: Option<usize>,
    /// The commands the tool offers (the "allowed commands" its messages list).
    pub(crate) commands: &'static [&'static str],
}

/// Every command of the text editor.
const ALL_COMMANDS: &[&str] = &["view", "create", "str_replace", "insert", "undo_edit"];

const TEXT_TRUNCATED: &str = "<response clipped><NOTE>To save on context only part of this file has been shown to you. You should retry this tool after you have searched inside the file with `grep -n` in order to find the line numbers of what you are looking for.</NOTE>";

static ANTHROPIC: Style = ANTHROPIC_FIELDS;

const ANTHROPIC_FIELDS: Style = Style {
    profile: Profile::Anthropic,
    tool_name: "str_replace_editor",
    period: "",
    wrapped_errors: false,
    line_model: LineModel::SplitOnNewline,
    insert_range: "It should be within the range of lines of the file",
    truncation_notice: TEXT_TRUNCATED,
    directory_truncation_notice: TEXT_TRUNCATED,
    expand_tabs: true,
    pieces: Pieces::Split,
    range: RangeRules::Anthropic,
    context_before: 4,
    context_after: 4,
    snippet_trailing_line: false,
    listing: ListingStyle::Find,
    absolute_paths: true,
    refuse_binary: false,
    undo_depth: None,
    commands: ALL_COMMANDS,
};

/// Anthropic's `str_replace_based_edit_tool` (text_editor_20250429 and 20250728, the demo's
/// `EditTool20250429`): the 20250124 editor under its new name, without `undo_edit`.
pub(crate) static ANTHROPIC_NEWEST: Style = Style {
    tool_name: "str_replace_based_edit_tool",
    commands: &["view", "create", "str_replace", "insert"],
    ..ANTHROPIC_FIELDS
};

static OPENHANDS: Style = Style {
    profile: Profile::OpenHands,
    tool_name: "oh_editor",
    period: ".",
    wrapped_errors: true,
    line_model: LineModel::TextFile,
    insert_range: "It should be within the range of allowed values",
    truncation_notice: "<response clipped><NOTE>Due to the max output limit, only part of this file has been shown to you. You should retry this tool after you have searched inside the file with `grep -n` in order to find the line numbers of what you are looking for.</NOTE>",
    directory_truncation_notice: "<response clipped><NOTE>Due to the max output limit, only part of this directory has been shown to you. You should use `ls -la` instead to view large directories incrementally.</NOTE>",
    expand_tabs: false,
    pieces: Pieces::Split,
    range: RangeRules::OpenHands,
    context_before: 3,
    context_after: 4,
    snippet_trailing_line: true,
    listing: ListingStyle::Sorted,
    absolute_paths: true,
    refuse_binary: true,
    undo_depth: Some(10),
    commands: ALL_COMMANDS,
};

static NATIVE: Style = Style {
    profile: Profile::Native,
    tool_name: "str_replace_based_edit_tool",
    period: "",
    wrapped_errors: false,
    line_model: LineModel::Lines,
    insert_range: "It should be within the range of lines of the file",
    truncation_notice: TEXT_TRUNCATED,
    directory_truncation_notice: TEXT_TRUNCATED,
    expand_tabs: false,
    pieces: Pieces::Lines,
    range: RangeRules::Native,
    context_before: 4,
    context_after: 4,
    snippet_trailing_line: false,
    listing: ListingStyle::Sorted,
    absolute_paths: false,
    refuse_binary: true,
    undo_depth: Some(10),
    commands: ALL_COMMANDS,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &p in Profile::ALL {
            assert_eq!(p.as_str().parse::<Profile>().ok(), Some(p));
            assert_eq!(p.style().profile, p);
        }
        assert_eq!(Profile::default(), Profile::Native);
        let e = "Anthropic".parse::<Profile>().unwrap_err();
        assert_eq!(e.code(), "invalid_profile");
    }
}

//! Roo's first check of a diff (`validateMarkerSequencing`): every line, trimmed, walked through
//! the SEARCH → `=======` → REPLACE states. A violation rejects the whole call with one of the
//! exact texts below, before any block is read.

use crate::text::js_trim;

const SEARCH_PREFIX: &str = "<<<<<<<";
const REPLACE_PREFIX: &str = ">>>>>>>";
const SEP: &str = "=======";
const REPLACE: &str = ">>>>>>> REPLACE";
/// How Roo's messages show its SEARCH pattern (`/^<<<<<<< SEARCH>?$/` without anchors).
const SEARCH_SHOWN: &str = "<<<<<<< SEARCH>?";
/// The pattern's source, anchors included, as one message quotes it.
const SEARCH_SOURCE: &str = "^<<<<<<< SEARCH>?$";

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Start,
    AfterSearch,
    AfterSeparator,
}

/// Whether a trimmed line is a SEARCH marker (`<<<<<<< SEARCH`, optionally with one more `>`).
pub(super) fn is_search_marker(trimmed: &str) -> bool {
    matches!(trimmed, "<<<<<<< SEARCH" | "<<<<<<< SEARCH>")
}

/// `Ok` when the markers are in sequence, else Roo's exact message.
pub(super) fn validate(diff: &str) -> Result<(), String> {
    let mut searches = 0usize;
    let mut seps = 0usize;
    let mut replaces = 0usize;
    for line in diff.split('\n') {
        let t = js_trim(line);
        searches += usize::from(is_search_marker(t));
        seps += usize::from(t == SEP);
        replaces += usize::from(t == REPLACE);
    }
    let likely_bad_structure = searches != replaces || seps < searches;

    let mut state = State::Start;
    for (i, line) in diff.split('\n').enumerate() {
        let at = i + 1;
        let marker = js_trim(line);
        if state == State::AfterSeparator {
            for m in [":start_line:", ":end_line:"] {
                if marker.starts_with(m) {
                    return Err(line_marker_in_replace(m, at));
                }
            }
        }
        let sep_error = |expected: &str| {
            if likely_bad_structure {
                invalid_diff(SEP, expected, at)
            } else {
                merge_conflict(SEP, at)
            }
        };
        match state {
            State::Start => {
                if marker == SEP {
                    return Err(sep_error(SEARCH_SHOWN));
                }
                if marker == REPLACE {
                    return Err(invalid_diff(REPLACE, SEARCH_SHOWN, at));
                }
                if marker.starts_with(REPLACE_PREFIX) {
                    return Err(merge_conflict(marker, at));
                }
                if is_search_marker(marker) {
                    state = State::AfterSearch;
                } else if marker.starts_with(SEARCH_PREFIX) {
                    return Err(merge_conflict(marker, at));
                }
            }
            State::AfterSearch => {
                if is_search_marker(marker) {
                    return Err(invalid_diff(SEARCH_SOURCE, SEP, at));
                }
                if marker.starts_with(SEARCH_PREFIX) {
                    return Err(merge_conflict(marker, at));
                }
                if marker == REPLACE {
                    return Err(invalid_diff(REPLACE, SEP, at));
                }
                if marker.starts_with(REPLACE_PREFIX) {
                    return Err(merge_conflict(marker, at));
                }
                if marker == SEP {
                    state = State::AfterSeparator;
                }
            }
            State::AfterSeparator => {
                if is_search_marker(marker) {
                    return Err(invalid_diff(SEARCH_SOURCE, REPLACE, at));
                }
                if marker.starts_with(SEARCH_PREFIX) {
                    return Err(merge_conflict(marker, at));
                }
                if marker == SEP {
                    return Err(sep_error(REPLACE));
                }
                if marker == REPLACE {
                    state = State::Start;
                } else if marker.starts_with(REPLACE_PREFIX) {
                    return Err(merge_conflict(marker, at));
                }
            }
        }
    }
    match state {
        State::Start => Ok(()),
        State::AfterSearch => Err(unexpected_end(SEP)),
        State::AfterSeparator => Err(unexpected_end(REPLACE)),
    }
}

fn unexpected_end(expected: &str) -> String {
    format!("ERROR: Unexpected end of sequence: Expected '{expected}' was not found.")
}

/// A marker-like line inside content that should have been escaped.
fn merge_conflict(found: &str, line: usize) -> String {
    format!(
        "ERROR: Special marker '{found}' found in your diff content at line {line}:\n\n\
         When removing merge conflict markers like '{found}' from files, you MUST escape them\n\
         in your SEARCH section by prepending a backslash (\\) at the beginning of the line:\n\n\
         CORRECT FORMAT:\n\n\
         <<<<<<< SEARCH\n\
         content before\n\
         \\{found}    <-- Note the backslash here in this example\n\
         content after\n\
         =======\n\
         replacement content\n\
         >>>>>>> REPLACE\n\n\
         Without escaping, the system confuses your content with diff syntax markers.\n\
         You may use multiple diff blocks in a single diff request, but ANY of ONLY the \
         following separators that occur within SEARCH or REPLACE content must be escaped, as \
         follows:\n\
         \\{SEARCH_SHOWN}\n\
         \\{SEP}\n\
         \\{REPLACE}\n"
    )
}

/// A marker where another was expected.
fn invalid_diff(found: &str, expected: &str, line: usize) -> String {
    format!(
        "ERROR: Diff block is malformed: marker '{found}' found in your diff content at line \
         {line}. Expected: {expected}\n\n\
         CORRECT FORMAT:\n\n\
         <<<<<<< SEARCH\n\
         :start_line: (required) The line number of original content where the search block \
         starts.\n\
         -------\n\
         [exact content to find including whitespace]\n\
         =======\n\
         [new content to replace with]\n\
         >>>>>>> REPLACE\n"
    )
}

/// `:start_line:` or `:end_line:` inside a REPLACE section.
fn line_marker_in_replace(marker: &str, line: usize) -> String {
    format!(
        "ERROR: Invalid line marker '{marker}' found in REPLACE section at line {line}\n\n\
         Line markers (:start_line: and :end_line:) are only allowed in SEARCH sections.\n\n\
         CORRECT FORMAT:\n\
         <<<<<<< SEARCH\n\
         :start_line:5\n\
         content to find\n\
         =======\n\
         replacement content\n\
         >>>>>>> REPLACE\n\n\
         INCORRECT FORMAT:\n\
         <<<<<<< SEARCH\n\
         content to find\n\
         =======\n\
         :start_line:5    <-- Invalid location\n\
         replacement content\n\
         >>>>>>> REPLACE\n"
    )
}

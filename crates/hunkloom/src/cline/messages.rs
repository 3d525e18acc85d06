//! Cline's error texts, exactly (v4.0.10), with the kind each maps to.

use crate::error::{Error, ErrorKind};
use crate::text::js_trim_end;

fn about_search(kind: ErrorKind, search: &str, verdict: &str) -> Error {
    Error::new(
        kind,
        format!("The SEARCH block:\n{}\n...{verdict}", js_trim_end(search)),
    )
}

pub(crate) fn search_not_found(search: &str) -> Error {
    about_search(
        ErrorKind::SearchNotFound,
        search,
        "does not match anything in the file.",
    )
}

pub(crate) fn search_malformatted(search: &str) -> Error {
    about_search(ErrorKind::MalformedBlock, search, "is malformatted.")
}

pub(crate) fn matched_incorrect_content(search: &str) -> Error {
    about_search(
        ErrorKind::MatchBeforePreviousBlock,
        search,
        "matched an incorrect content in the file.",
    )
}

pub(crate) fn empty_search_nonempty_file() -> Error {
    Error::new(
        ErrorKind::EmptySearchNonEmptyFile,
        "Empty SEARCH block detected with non-empty file. This usually indicates a malformed SEARCH marker.\n\
         Please ensure your SEARCH marker follows the correct format:\n\
         - Use '------- SEARCH' (7+ dashes + space + SEARCH)\n",
    )
}

pub(crate) fn invalid_state_transition() -> Error {
    Error::new(
        ErrorKind::InvalidStateTransition,
        "Invalid state transition.\nValid transitions are:\n- Idle \u{2192} StateSearch\n- StateSearch \u{2192} StateReplace",
    )
}

/// Text outside blocks before a SEARCH marker (v2 demands it end in a REPLACE marker).
pub(crate) fn missing_closing_replace() -> Error {
    Error::new(
        ErrorKind::MalformedBlock,
        "Malformed SEARCH/REPLACE block structure: Missing valid closing REPLACE marker",
    )
}

/// A separator outside any block, with nothing buffered before it (v2).
pub(crate) fn separator_without_lines() -> Error {
    Error::new(
        ErrorKind::MalformedBlock,
        "Invalid SEARCH/REPLACE block structure - no lines available to process",
    )
}

/// A separator outside any block, after text that has no SEARCH marker (v2).
pub(crate) fn separator_without_search() -> Error {
    Error::new(
        ErrorKind::MalformedBlock,
        "Invalid REPLACE marker detected - could not find matching SEARCH block starting from line 0",
    )
}

/// A REPLACE marker outside the REPLACE part, after text that has no separator (v2).
pub(crate) fn replace_without_separator() -> Error {
    Error::new(
        ErrorKind::MalformedBlock,
        "Malformed REPLACE block - missing valid separator after line 0",
    )
}

/// A REPLACE marker outside the REPLACE part with nothing buffered: Cline throws `new Error()`,
/// whose message is empty (v2).
pub(crate) fn replace_without_lines() -> Error {
    Error::new(ErrorKind::MalformedBlock, "")
}

pub(crate) fn incomplete_at_finish() -> Error {
    Error::new(
        ErrorKind::IncompleteAtFinish,
        "File processing incomplete - SEARCH/REPLACE operations still active during finalization",
    )
}

pub(crate) fn invalid_version(version: &str) -> Error {
    Error::new(
        ErrorKind::InvalidVersion,
        format!("Invalid version '{version}' for file content constructor"),
    )
}

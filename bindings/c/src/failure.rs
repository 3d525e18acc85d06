//! How a call fails, as C sees it: [`Failure`] inside the library, and the [`hl_error`] (with
//! its [`hl_match`]es) handed to C for an engine error. Below the guard that turns failures
//! into statuses and the accessor functions of `error`.

use engine::{Error, ErrorFamily, ErrorKind};

use crate::position::hl_position;
use crate::status::hl_status;
use crate::text::CText;

/// An error from the engine: a stable code (e.g. `search_not_found`) and a message.
///
/// Created by the functions that take a `hl_error **error` out-parameter when they return an
/// engine status; owned by the caller, who frees it with `hl_error_free`. Immutable, so it may be
/// read from several threads at once.
#[derive(Debug)]
pub struct hl_error {
    pub(crate) code: CText,
    pub(crate) message: CText,
    /// Every place an ambiguous text matched (`multiple_matches`, `ambiguous_match`); empty
    /// for other errors.
    pub(crate) matches: Box<[hl_match]>,
}

/// One place an ambiguous text matched: where it starts and ends (exclusive) in the text that
/// was searched, in every unit, and the last 1-based line it covers (`end.line`, less one when
/// the match ends with a line feed).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hl_match {
    /// Where the match starts; `start.line` is its first line.
    pub start: hl_position,
    /// Where it ends (exclusive).
    pub end: hl_position,
    /// The last line it covers.
    pub last_line: usize,
}

impl hl_error {
    /// A heap copy of `e` for C.
    pub(crate) fn boxed(e: &Error) -> Box<hl_error> {
        let matches = e.matches().unwrap_or_default().iter().map(|m| hl_match {
            start: m.start.into(),
            end: m.end.into(),
            last_line: m.last_line,
        });
        Box::new(hl_error {
            code: CText::from_str(e.code()),
            message: CText::from_str(e.message()),
            matches: matches.collect(),
        })
    }
}

/// Why a call failed, inside the library: a status of its own, or an engine error.
#[derive(Debug)]
pub(crate) enum Failure {
    /// A failure the binding detected (NULL, UTF-8, range).
    Status(hl_status),
    /// An error from the engine, reported with its family's status and as a `hl_error`.
    Engine(Error),
}

impl Failure {
    /// The status returned to C.
    pub(crate) fn status(&self) -> hl_status {
        match self {
            Failure::Status(s) => *s,
            Failure::Engine(e) => status_of(e.kind()),
        }
    }
}

impl From<hl_status> for Failure {
    fn from(status: hl_status) -> Self {
        Failure::Status(status)
    }
}

impl From<Error> for Failure {
    /// An engine error, except a caught panic (`internal_error`), which is the plain
    /// `HL_STATUS_PANIC`: like every status before `HL_STATUS_EDIT_REJECTED` it comes without
    /// a `hl_error`.
    fn from(e: Error) -> Self {
        match e.kind().family() {
            ErrorFamily::Internal => Failure::Status(hl_status::Panic),
            _ => Failure::Engine(e),
        }
    }
}

/// The status of an engine error kind: one per core family, except that the four families of
/// an edit that cannot be applied (not found, ambiguous, invalid, malformed) share
/// `HL_STATUS_EDIT_REJECTED`. A family added to the core later maps to `EngineError` until it is
/// classified here (a unit test fails until then).
pub fn status_of(kind: ErrorKind) -> hl_status {
    match kind.family() {
        ErrorFamily::NotFound
        | ErrorFamily::Ambiguous
        | ErrorFamily::InvalidEdit
        | ErrorFamily::MalformedDiff => hl_status::EditRejected,
        ErrorFamily::InvalidOption => hl_status::InvalidOption,
        ErrorFamily::AlreadyFinished => hl_status::AlreadyFinished,
        ErrorFamily::ConcurrentUse => hl_status::ConcurrentUse,
        ErrorFamily::PathRefused => hl_status::PathRefused,
        ErrorFamily::StaleFile => hl_status::StaleFile,
        ErrorFamily::UnsupportedFile => hl_status::UnsupportedFile,
        ErrorFamily::Io => hl_status::IoError,
        ErrorFamily::Internal => hl_status::Panic,
        ErrorFamily::OutOfMemory => hl_status::OutOfMemory,
        _ => hl_status::EngineError,
    }
}

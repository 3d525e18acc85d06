//! The one error type of the engine.
//!
//! Programs branch on [`Error::code`] (stable snake_case, never renamed); people and models read
//! [`Error::message`]. In the Cline dialects the message is Cline's exact text, because callers
//! that swap patchloom in for Cline show it to the model and compare it in tests.

use std::fmt;

/// What went wrong, as a closed set that may grow (hence `#[non_exhaustive]`).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A SEARCH block matched nothing in the file.
    SearchNotFound,
    /// An empty SEARCH block was given for a non-empty file (Cline v1).
    EmptySearchNonEmptyFile,
    /// The markers of a block are out of place or missing.
    MalformedBlock,
    /// A SEARCH block matched before the end of the previous block (Cline v2).
    MatchBeforePreviousBlock,
    /// A marker arrived in a state that does not accept it (Cline v2).
    InvalidStateTransition,
    /// The diff ended while a block was still open (Cline v2).
    IncompleteAtFinish,
    /// An unknown Cline version string.
    InvalidVersion,
    /// An unknown dialect name.
    InvalidDialect,
    /// A streaming applier was used after `finish`.
    AlreadyFinished,
}

impl ErrorKind {
    /// The stable machine-readable code of this kind.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::SearchNotFound => "search_not_found",
            ErrorKind::EmptySearchNonEmptyFile => "empty_search_nonempty_file",
            ErrorKind::MalformedBlock => "malformed_block",
            ErrorKind::MatchBeforePreviousBlock => "match_before_previous_block",
            ErrorKind::InvalidStateTransition => "invalid_state_transition",
            ErrorKind::IncompleteAtFinish => "incomplete_at_finish",
            ErrorKind::InvalidVersion => "invalid_version",
            ErrorKind::InvalidDialect => "invalid_dialect",
            ErrorKind::AlreadyFinished => "already_finished",
        }
    }

    /// Every kind, for bindings that map each one and tests that check the codes stay unique.
    pub const ALL: &'static [ErrorKind] = &[
        ErrorKind::SearchNotFound,
        ErrorKind::EmptySearchNonEmptyFile,
        ErrorKind::MalformedBlock,
        ErrorKind::MatchBeforePreviousBlock,
        ErrorKind::InvalidStateTransition,
        ErrorKind::IncompleteAtFinish,
        ErrorKind::InvalidVersion,
        ErrorKind::InvalidDialect,
        ErrorKind::AlreadyFinished,
    ];
}

/// An error from the engine: a [`kind`](Error::kind) with a stable [`code`](Error::code) and a
/// human-readable [`message`](Error::message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// An error for using a streaming applier after `finish` (bindings keep that state).
    pub fn already_finished() -> Self {
        Error::new(
            ErrorKind::AlreadyFinished,
            "this applier has already finished; create a new one",
        )
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The stable snake_case code, e.g. `search_not_found`.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// The message text (Cline's exact text in the Cline dialects; it may be empty, as Cline's is
    /// for two of its v2 errors).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for kind in ErrorKind::ALL {
            let code = kind.code();
            assert!(seen.insert(code), "duplicate code {code}");
            assert!(
                code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{code}"
            );
        }
    }

    #[test]
    fn error_is_send_sync_static() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Error>();
    }
}

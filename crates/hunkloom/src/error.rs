//! The one error type of the engine.
//!
//! Programs branch on [`Error::code`] (stable snake_case, never renamed); people and models read
//! [`Error::message`]. In the Cline dialects the message is Cline's exact text, because callers
//! that swap hunkloom in for Cline show it to the model and compare it in tests.

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
    /// A SEARCH block matched several places and nothing chose one (`native`).
    AmbiguousMatch,
    /// Two blocks matched overlapping regions (`native`).
    OverlappingBlocks,
    /// A streaming applier was called from a second thread while a call was in progress
    /// (bindings whose host languages share objects between threads detect this).
    ConcurrentUse,
    /// `str_replace` was given the same old and new text.
    OldEqualsNew,
    /// `str_replace` with an empty old text on a file that already has content.
    FileExists,
    /// `str_replace` with a non-empty old text on a file that does not exist.
    FileNotFound,
    /// `str_replace` found the old text nowhere in the file.
    NotFound,
    /// `str_replace` found the old text more than once and `replace_all` was false.
    MultipleMatches,
    /// `insert` (after-convention) was given a line past the end of the file.
    InvalidLine,
    /// An unknown insert convention name (expected `before` or `after`).
    InvalidConvention,
    /// Roo's `insert_content`: the line argument is not a non-negative number.
    InvalidLineNumber,
    /// Roo's `insert_content`: a line other than 0 or 1 for a file that does not exist.
    InvalidLineForNewFile,
    /// An unknown content-fix name.
    InvalidFix,
    /// An unknown failure-policy name (expected `all_or_nothing` or `partial`).
    InvalidPolicy,
    /// A path resolves outside the workspace root (`..`, an absolute path elsewhere, or a
    /// symlink leading out) (`hunkloom-fs`).
    PathOutsideRoot,
    /// A UNC path (`\\server\share`, `//server/share`) was given (`hunkloom-fs`).
    UncPath,
    /// The path matches the workspace's ignore file (`hunkloom-fs`).
    PathIgnored,
    /// A Jupyter notebook (`.ipynb`) was given; it needs a notebook-aware editor (`hunkloom-fs`).
    NotebookNotSupported,
    /// An existing file was edited without being read first (`hunkloom-fs`).
    NotRead,
    /// The file's content changed since it was read or edited (`hunkloom-fs`).
    StaleFile,
    /// The file is not UTF-8, UTF-8 with BOM, or UTF-16 with BOM; it is never rewritten
    /// (`hunkloom-fs`).
    UnsupportedEncoding,
    /// The file is larger than the workspace's size limit (`hunkloom-fs`).
    FileTooLarge,
    /// The operating system refused a file operation; the message has its text (`hunkloom-fs`).
    IoError,
    /// `undo` was called for a file with no edit left to undo (`hunkloom-fs`).
    NothingToUndo,
    /// Two changes of one multi-file commit touch the same path (`hunkloom-fs`).
    ConflictingChanges,
    /// A multi-file patch (`*** Begin Patch`) is malformed as a whole: a missing or misplaced
    /// `*** Begin Patch` / `*** End Patch` marker, or text after the end (`patch`).
    InvalidPatch,
    /// A hunk of a multi-file patch is malformed; the message names the line (`patch`).
    InvalidPatchHunk,
    /// A multi-file patch names no file to add, delete or update (`patch`).
    EmptyPatch,
    /// A multi-file patch updates or deletes a file that does not exist (`patch`).
    PatchFileNotFound,
    /// A multi-file patch adds a file that already exists (`patch`, Cline dialect).
    PatchFileExists,
    /// An update chunk's lines or `@@` context line were not found in the file (`patch`).
    PatchContextNotFound,
    /// A multi-file patch names the same file twice (`patch`, Cline dialect).
    DuplicatePatchPath,
    /// A patch would add or leave a file with no content, which Cline refuses (`patch`, Cline
    /// dialect).
    PatchEmptyContent,
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
            ErrorKind::AmbiguousMatch => "ambiguous_match",
            ErrorKind::OverlappingBlocks => "overlapping_blocks",
            ErrorKind::ConcurrentUse => "concurrent_use",
            ErrorKind::OldEqualsNew => "old_equals_new",
            ErrorKind::FileExists => "file_exists",
            ErrorKind::FileNotFound => "file_not_found",
            ErrorKind::NotFound => "not_found",
            ErrorKind::MultipleMatches => "multiple_matches",
            ErrorKind::InvalidLine => "invalid_line",
            ErrorKind::InvalidConvention => "invalid_convention",
            ErrorKind::InvalidLineNumber => "invalid_line_number",
            ErrorKind::InvalidLineForNewFile => "invalid_line_for_new_file",
            ErrorKind::InvalidFix => "invalid_fix",
            ErrorKind::InvalidPolicy => "invalid_policy",
            ErrorKind::PathOutsideRoot => "path_outside_root",
            ErrorKind::UncPath => "unc_path",
            ErrorKind::PathIgnored => "path_ignored",
            ErrorKind::NotebookNotSupported => "notebook_not_supported",
            ErrorKind::NotRead => "not_read",
            ErrorKind::StaleFile => "stale_file",
            ErrorKind::UnsupportedEncoding => "unsupported_encoding",
            ErrorKind::FileTooLarge => "file_too_large",
            ErrorKind::IoError => "io_error",
            ErrorKind::NothingToUndo => "nothing_to_undo",
            ErrorKind::ConflictingChanges => "conflicting_changes",
            ErrorKind::InvalidPatch => "invalid_patch",
            ErrorKind::InvalidPatchHunk => "invalid_patch_hunk",
            ErrorKind::EmptyPatch => "empty_patch",
            ErrorKind::PatchFileNotFound => "patch_file_not_found",
            ErrorKind::PatchFileExists => "patch_file_exists",
            ErrorKind::PatchContextNotFound => "patch_context_not_found",
            ErrorKind::DuplicatePatchPath => "duplicate_patch_path",
            ErrorKind::PatchEmptyContent => "patch_empty_content",
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
        ErrorKind::AmbiguousMatch,
        ErrorKind::OverlappingBlocks,
        ErrorKind::ConcurrentUse,
        ErrorKind::OldEqualsNew,
        ErrorKind::FileExists,
        ErrorKind::FileNotFound,
        ErrorKind::NotFound,
        ErrorKind::MultipleMatches,
        ErrorKind::InvalidLine,
        ErrorKind::InvalidConvention,
        ErrorKind::InvalidLineNumber,
        ErrorKind::InvalidLineForNewFile,
        ErrorKind::InvalidFix,
        ErrorKind::InvalidPolicy,
        ErrorKind::PathOutsideRoot,
        ErrorKind::UncPath,
        ErrorKind::PathIgnored,
        ErrorKind::NotebookNotSupported,
        ErrorKind::NotRead,
        ErrorKind::StaleFile,
        ErrorKind::UnsupportedEncoding,
        ErrorKind::FileTooLarge,
        ErrorKind::IoError,
        ErrorKind::NothingToUndo,
        ErrorKind::ConflictingChanges,
        ErrorKind::InvalidPatch,
        ErrorKind::InvalidPatchHunk,
        ErrorKind::EmptyPatch,
        ErrorKind::PatchFileNotFound,
        ErrorKind::PatchFileExists,
        ErrorKind::PatchContextNotFound,
        ErrorKind::DuplicatePatchPath,
        ErrorKind::PatchEmptyContent,
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

    /// An error of `kind` with `message`, for crates built on the engine that report kinds of
    /// their own (the file layer `hunkloom-fs`), so every binding maps one error type.
    pub fn with_message(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error::new(kind, message)
    }

    /// An error for using a streaming applier after `finish` (bindings keep that state).
    pub fn already_finished() -> Self {
        Error::new(
            ErrorKind::AlreadyFinished,
            "this applier has already finished; create a new one",
        )
    }

    /// An error for calling a streaming applier while another thread is inside a call on it.
    pub fn concurrent_use() -> Self {
        Error::new(
            ErrorKind::ConcurrentUse,
            "this applier is in use by another thread; use each applier from one thread at a time",
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

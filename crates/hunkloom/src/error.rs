//! The one error type of the engine.
//!
//! Programs branch on [`Error::code`] (stable snake_case, never renamed); people and models read
//! [`Error::message`]. In the Cline dialects the message is Cline's exact text, because callers
//! that swap hunkloom in for Cline show it to the model and compare it in tests.

use std::fmt;

use crate::text::{OffsetCursor, Position};

/// Declares every error kind once: its doc, its stable code and its family. The enum,
/// [`ErrorKind::code`], [`ErrorKind::family`], [`ErrorKind::description`] and [`ErrorKind::ALL`]
/// all come from this one table, so a kind cannot be missing from any of them.
macro_rules! error_kinds {
    ($($(#[doc = $doc:literal])+ $kind:ident => $code:literal, $family:ident;)+) => {
        /// What went wrong, as a closed set that may grow (hence `#[non_exhaustive]`).
        #[non_exhaustive]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorKind {
            $($(#[doc = $doc])+ $kind,)+
        }

        impl ErrorKind {
            /// Every kind, in declaration order.
            pub const ALL: &'static [ErrorKind] = &[$(ErrorKind::$kind),+];

            /// The stable machine-readable code of this kind (snake_case, never renamed).
            pub fn code(self) -> &'static str {
                match self {
                    $(ErrorKind::$kind => $code,)+
                }
            }

            /// The group of kinds a caller handles alike; bindings map families, not kinds, to
            /// their exception classes and status values.
            pub fn family(self) -> ErrorFamily {
                match self {
                    $(ErrorKind::$kind => ErrorFamily::$family,)+
                }
            }

            /// What this kind means, in one or two sentences (its doc comment), for error-code
            /// references.
            pub fn description(self) -> &'static str {
                match self {
                    $(ErrorKind::$kind => concat!($($doc),+).trim_ascii_start(),)+
                }
            }
        }
    };
}

error_kinds! {
    /// A SEARCH block matched nothing in the file.
    SearchNotFound => "search_not_found", NotFound;
    /// An empty SEARCH block was given for a non-empty file (Cline v1).
    EmptySearchNonEmptyFile => "empty_search_nonempty_file", NotFound;
    /// The markers of a block are out of place or missing (`roo`: also a block whose SEARCH
    /// text is empty, which Roo refuses).
    MalformedBlock => "malformed_block", MalformedDiff;
    /// A SEARCH block matched before the end of the previous block (Cline v2).
    MatchBeforePreviousBlock => "match_before_previous_block", NotFound;
    /// A marker arrived in a state that does not accept it (Cline v2).
    InvalidStateTransition => "invalid_state_transition", MalformedDiff;
    /// The diff ended while a block was still open: a response cut off (Cline v2, `native`).
    IncompleteAtFinish => "incomplete_at_finish", MalformedDiff;
    /// An unknown Cline version string.
    InvalidVersion => "invalid_version", InvalidOption;
    /// An unknown dialect name.
    InvalidDialect => "invalid_dialect", InvalidOption;
    /// An unknown text-editor profile name (`hunkloom-tools`).
    InvalidProfile => "invalid_profile", InvalidOption;
    /// A text-editor tool call whose input is not a JSON object: a host's misuse, not a model's
    /// mistake (`hunkloom-tools`).
    InvalidInput => "invalid_input", InvalidOption;
    /// A streaming applier was used after `finish`.
    AlreadyFinished => "already_finished", AlreadyFinished;
    /// A SEARCH block matched several places and nothing chose one (`native`).
    AmbiguousMatch => "ambiguous_match", Ambiguous;
    /// Two blocks matched overlapping regions (`native`).
    OverlappingBlocks => "overlapping_blocks", MalformedDiff;
    /// The new text elides code the old text has, with a placeholder line such as
    /// `// ... existing code ...`, so writing it would delete that code (`native` blocks, and
    /// `str_replace` and whole-file writes with the omission guard on). The model should write
    /// the code out in full.
    OmissionPlaceholder => "omission_placeholder", InvalidEdit;
    /// A lazy edit ([`apply_lazy`](crate::lazy::apply_lazy)) cannot be placed: a segment of
    /// the snippet whose first or last line occurs nowhere in the file, even ignoring
    /// whitespace; a deletion comment naming no definition; or a snippet with nothing but
    /// markers. The message names the segment and the line.
    LazyNoAnchor => "lazy_no_anchor", NotFound;
    /// A lazy edit's segment (or a deletion comment's definition) could sit at several places
    /// in the file and nothing unique chooses one; [`Error::matches`] lists the candidates.
    LazyAmbiguous => "lazy_ambiguous", Ambiguous;
    /// A lazy edit's segment leaves out a whole definition (function, method, class) of the
    /// lines it replaces without a marker or a deletion comment, so merging it would delete
    /// that definition silently. The message names the definitions.
    LazySilentDeletion => "lazy_silent_deletion", InvalidEdit;
    /// A lazy edit's segments do not follow the file: out of order or overlapping, anchors
    /// that cross, or a deletion outside the gap where its comment stands.
    LazyConflict => "lazy_conflict", InvalidEdit;
    /// A lazy edit's segment matched only ignoring whitespace, and its unchanged lines'
    /// indentation differs from the file's in no consistent way, so its new lines cannot be
    /// re-indented safely.
    LazyIndentation => "lazy_indentation", InvalidEdit;
    /// An unknown language name for a lazy edit.
    InvalidLanguage => "invalid_language", InvalidOption;
    /// A streaming applier was called from a second thread while a call was in progress
    /// (bindings whose host languages share objects between threads detect this).
    ConcurrentUse => "concurrent_use", ConcurrentUse;
    /// `str_replace` was given the same old and new text (also a `roo` block whose SEARCH and
    /// REPLACE texts are the same).
    OldEqualsNew => "old_equals_new", InvalidEdit;
    /// `str_replace` with an empty old text on a file that already has content.
    FileExists => "file_exists", InvalidEdit;
    /// `str_replace` with a non-empty old text on a file that does not exist.
    FileNotFound => "file_not_found", InvalidEdit;
    /// `str_replace` found the old text nowhere in the file.
    NotFound => "not_found", NotFound;
    /// `str_replace` found the old text more than once and `replace_all` was false.
    MultipleMatches => "multiple_matches", Ambiguous;
    /// `insert` (after-convention) was given a line past the end of the file.
    InvalidLine => "invalid_line", InvalidEdit;
    /// An unknown insert convention name (expected `before` or `after`), or an unknown insert
    /// line model name.
    InvalidConvention => "invalid_convention", InvalidOption;
    /// Roo's `insert_content`: the line argument is not a non-negative number.
    InvalidLineNumber => "invalid_line_number", InvalidEdit;
    /// Roo's `insert_content`: a line other than 0 or 1 for a file that does not exist.
    InvalidLineForNewFile => "invalid_line_for_new_file", InvalidEdit;
    /// An unknown content-fix name.
    InvalidFix => "invalid_fix", InvalidOption;
    /// An unknown failure-policy name (expected `all_or_nothing` or `partial`).
    InvalidPolicy => "invalid_policy", InvalidOption;
    /// A path resolves outside the workspace root (`..`, an absolute path elsewhere, or a
    /// symlink leading out) (`hunkloom-fs`).
    PathOutsideRoot => "path_outside_root", PathRefused;
    /// A UNC path (`\\server\share`, `//server/share`) was given (`hunkloom-fs`).
    UncPath => "unc_path", PathRefused;
    /// The path matches the workspace's ignore file (`hunkloom-fs`).
    PathIgnored => "path_ignored", PathRefused;
    /// A Jupyter notebook (`.ipynb`) was given; it needs a notebook-aware editor (`hunkloom-fs`).
    NotebookNotSupported => "notebook_not_supported", PathRefused;
    /// A write to a protected path: inside a version-control directory (`.git`, `.hg`, `.svn`,
    /// `.jj`), the workspace's ignore file, or a path its `protect` globs match; reading it is
    /// allowed (`hunkloom-fs`).
    PathProtected => "path_protected", PathRefused;
    /// A `protect` glob of a workspace that is not valid gitignore syntax (`hunkloom-fs`).
    InvalidGlob => "invalid_glob", InvalidOption;
    /// An existing file was edited without being read first (`hunkloom-fs`).
    NotRead => "not_read", StaleFile;
    /// The file's content changed since it was read or edited (`hunkloom-fs`).
    StaleFile => "stale_file", StaleFile;
    /// The file is not UTF-8, UTF-8 with BOM, or UTF-16 with BOM, nor text in a legacy encoding
    /// that decodes and encodes back without loss (or legacy encodings are turned off); it is
    /// never rewritten (`hunkloom-fs`). Also a text handed to the Python binding that has no
    /// UTF-8 form (a `str` with a lone surrogate).
    UnsupportedEncoding => "unsupported_encoding", UnsupportedFile;
    /// The file is larger than the workspace's size limit (`hunkloom-fs`).
    FileTooLarge => "file_too_large", UnsupportedFile;
    /// The new text has a character the file's legacy encoding (e.g. windows-1251) cannot
    /// represent; the message names the first one. The file is not switched to UTF-8
    /// (`hunkloom-fs`).
    UnrepresentableText => "unrepresentable_text", InvalidEdit;
    /// A whole-file write over an existing file would drop more than half of its lines and its
    /// text looks cut off (it ends inside a line, or leaves a bracket, string or block open):
    /// a truncated tool call. The message gives both line counts (`ops::damage`).
    SuspectedTruncation => "suspected_truncation", InvalidEdit;
    /// Every line of the new text starts with a line number as a file view prints it, and the
    /// numbers do not run on, so they cannot be removed with certainty (`ops::damage`; when
    /// they run on, they are removed).
    LineNumberPrefixes => "line_number_prefixes", InvalidEdit;
    /// The new text holds a truncation notice copied from a clipped view (`<response
    /// clipped>`, `[... N lines truncated ...]`, `(file truncated)`) that the old text does not
    /// have (`ops::damage`).
    TruncationNotice => "truncation_notice", InvalidEdit;
    /// The operating system refused a file operation; the message has its text (`hunkloom-fs`).
    IoError => "io_error", Io;
    /// Another edit of the same file (in this process) or another commit in the same root (in
    /// any process) held its turn past the wait limit, so this call gave up without writing
    /// anything (`hunkloom-fs`).
    LockTimeout => "lock_timeout", Io;
    /// `undo` was called for a file with no edit left to undo (`hunkloom-fs`).
    NothingToUndo => "nothing_to_undo", InvalidEdit;
    /// Two changes of one multi-file commit touch the same path (`hunkloom-fs`).
    ConflictingChanges => "conflicting_changes", InvalidEdit;
    /// A multi-file patch (`*** Begin Patch`) is malformed as a whole: a missing or misplaced
    /// `*** Begin Patch` / `*** End Patch` marker, or text after the end (`patch`).
    InvalidPatch => "invalid_patch", MalformedDiff;
    /// A hunk of a multi-file patch is malformed; the message names the line (`patch`).
    InvalidPatchHunk => "invalid_patch_hunk", MalformedDiff;
    /// A multi-file patch names no file to add, delete or update (`patch`).
    EmptyPatch => "empty_patch", MalformedDiff;
    /// A multi-file patch updates or deletes a file that does not exist (`patch`).
    PatchFileNotFound => "patch_file_not_found", InvalidEdit;
    /// A multi-file patch adds a file that already exists (`patch`, Cline dialect).
    PatchFileExists => "patch_file_exists", InvalidEdit;
    /// An update chunk's lines or `@@` context line were not found in the file (`patch`).
    PatchContextNotFound => "patch_context_not_found", NotFound;
    /// A multi-file patch names the same file twice (`patch`, Cline dialect).
    DuplicatePatchPath => "duplicate_patch_path", MalformedDiff;
    /// A patch would add or leave a file with no content, which Cline refuses (`patch`, Cline
    /// dialect).
    PatchEmptyContent => "patch_empty_content", InvalidEdit;
    /// A bug inside hunkloom stopped the call (a caught panic); a handle it happened on is
    /// retired. Please report it.
    InternalError => "internal_error", Internal;
    /// The memory a call needs (for a file, a diff or a text, in proportion to its size) could
    /// not be had; nothing was written and the process goes on (`memory`).
    OutOfMemory => "out_of_memory", OutOfMemory;
}

/// Groups of [`ErrorKind`]s that a caller handles alike: Python raises one exception class per
/// family, C returns one status per family (the four edit families share one).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorFamily {
    /// The text to change could not be located where the operation allows.
    NotFound,
    /// The text to change occurs more than once and the operation needs one place.
    Ambiguous,
    /// The edit cannot be carried out on this content as asked.
    InvalidEdit,
    /// The diff or patch is malformed or contradicts itself.
    MalformedDiff,
    /// An option the host chose has an unknown value.
    InvalidOption,
    /// A stateful handle was used after it finished.
    AlreadyFinished,
    /// A stateful handle was called while another thread was inside a call on it.
    ConcurrentUse,
    /// The workspace refuses the path.
    PathRefused,
    /// The file must be read (again) before it is edited.
    StaleFile,
    /// The file cannot be edited safely and was left untouched.
    UnsupportedFile,
    /// The operating system refused a file operation.
    Io,
    /// A bug inside hunkloom.
    Internal,
    /// The memory a call needs could not be had.
    OutOfMemory,
}

impl ErrorFamily {
    /// Every family.
    pub const ALL: &'static [ErrorFamily] = &[
        ErrorFamily::NotFound,
        ErrorFamily::Ambiguous,
        ErrorFamily::InvalidEdit,
        ErrorFamily::MalformedDiff,
        ErrorFamily::InvalidOption,
        ErrorFamily::AlreadyFinished,
        ErrorFamily::ConcurrentUse,
        ErrorFamily::PathRefused,
        ErrorFamily::StaleFile,
        ErrorFamily::UnsupportedFile,
        ErrorFamily::Io,
        ErrorFamily::Internal,
        ErrorFamily::OutOfMemory,
    ];

    /// The kinds of this family, in declaration order.
    pub fn kinds(self) -> impl Iterator<Item = ErrorKind> {
        ErrorKind::ALL
            .iter()
            .copied()
            .filter(move |k| k.family() == self)
    }
}

/// An error from the engine: a [`kind`](Error::kind) with a stable [`code`](Error::code) and a
/// human-readable [`message`](Error::message).
///
/// An error about a text that matched several places (`multiple_matches` from
/// [`ops::str_replace`](crate::ops::str_replace), `ambiguous_match` from the `native` dialect)
/// also says where: [`matches`](Error::matches) lists every place (for a diff refused as a whole,
/// those of its first failed block), so a host can show the candidates or let the model pick
/// one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    /// Boxed so the common error stays two words plus the message.
    matches: Option<Box<[Match]>>,
}

/// One place a text matched, in the text that was searched: where it starts and ends, each in
/// every unit ([`Position`]: UTF-8 bytes, UTF-16 code units, Unicode scalars, 1-based line), and
/// the last line it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub struct Match {
    /// Where the match starts; `start.line` is the line it starts on.
    pub start: Position,
    /// Where it ends (exclusive).
    pub end: Position,
    /// The last 1-based line the match covers: `end.line`, less one when the match ends with
    /// `\n` (the line after it is not covered); `start.line` for an empty match.
    pub last_line: usize,
}

impl Match {
    /// The places `spans` (ascending, non-overlapping byte ranges of `text`) as matches.
    pub(crate) fn all_in(text: &str, spans: &[(usize, usize)]) -> Box<[Match]> {
        let mut cursor = OffsetCursor::default();
        spans
            .iter()
            .map(|&(s, e)| {
                let start = cursor.position(text, s);
                let end = cursor.position(text, e);
                let ends_with_newline = e > s && text.as_bytes().get(e - 1) == Some(&b'\n');
                let last_line = (end.line - usize::from(ends_with_newline)).max(start.line);
                Match {
                    start,
                    end,
                    last_line,
                }
            })
            .collect()
    }

    /// The 1-based line the match starts on.
    pub fn line(&self) -> usize {
        self.start.line
    }
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            matches: None,
        }
    }

    /// This error with the places an ambiguous text matched.
    pub(crate) fn with_matches(mut self, matches: Box<[Match]>) -> Self {
        self.matches = Some(matches);
        self
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

    /// An error for a call that a bug inside hunkloom stopped (a caught panic): `detail` says
    /// what stopped and what the panic said.
    pub fn internal(detail: &str) -> Self {
        Error::new(
            ErrorKind::InternalError,
            format!("internal error in hunkloom (a bug; please report it): {detail}"),
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

    /// Every place the text matched, in order, for an error about a text that matched more than
    /// once (`multiple_matches`, `ambiguous_match`); `None` for other errors. The number of
    /// matches is its length, and each [`Match`] has its span and its lines.
    pub fn matches(&self) -> Option<&[Match]> {
        self.matches.as_deref()
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
    fn every_kind_has_a_family_and_a_description() {
        let mut families = std::collections::HashSet::new();
        for &kind in ErrorKind::ALL {
            families.insert(kind.family());
            assert!(kind.family().kinds().any(|k| k == kind));
            let text = kind.description();
            assert!(
                !text.is_empty() && !text.starts_with(' '),
                "{kind:?}: {text:?}"
            );
            assert!(!text.contains("  "), "{kind:?}: {text:?}");
        }
        assert_eq!(
            families.len(),
            ErrorFamily::ALL.len(),
            "a family without kinds"
        );
        assert_eq!(
            ErrorKind::StaleFile.description(),
            "The file's content changed since it was read or edited (`hunkloom-fs`)."
        );
    }

    #[test]
    fn error_is_send_sync_static() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Error>();
        check::<Match>();
    }
}

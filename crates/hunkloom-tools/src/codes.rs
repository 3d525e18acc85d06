//! The stable codes of tool results that are errors: one closed set, declared once.
//!
//! Where the engine or the file layer has a code for the same thing (`not_found`,
//! `multiple_matches`, `invalid_line`, `file_exists`, `stale_file`, ...), the tool uses that
//! code, so a host that knows hunkloom's codes knows these.

/// Declares every code once: the enum, [`ToolCode::as_str`], [`ToolCode::ALL`] and
/// [`ToolCode::description`] all come from this table.
macro_rules! tool_codes {
    ($($(#[doc = $doc:literal])+ $kind:ident => $code:literal;)+) => {
        /// Why a tool call was answered with an error result ([`ToolResult::code`]).
        ///
        /// [`ToolResult::code`]: crate::ToolResult::code
        #[non_exhaustive]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ToolCode {
            $($(#[doc = $doc])+ $kind,)+
        }

        impl ToolCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [ToolCode] = &[$(ToolCode::$kind),+];

            /// The stable snake_case code (never renamed).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ToolCode::$kind => $code,)+
                }
            }

            /// What the code means (its doc comment).
            pub fn description(self) -> &'static str {
                match self {
                    $(ToolCode::$kind => concat!($($doc),+).trim_ascii_start(),)+
                }
            }

            /// The code named `code`, if it is one of these.
            pub fn from_code(code: &str) -> Option<ToolCode> {
                ToolCode::ALL.iter().copied().find(|c| c.as_str() == code)
            }
        }
    };
}

tool_codes! {
    /// The call's arguments are not a complete JSON object (a streamed call whose JSON text is
    /// malformed or cut off).
    InvalidArguments => "invalid_arguments";
    /// A parameter the command needs is absent (`command`, `path`, `file_text`, `old_str`,
    /// `insert_line`, `new_str`).
    MissingParameter => "missing_parameter";
    /// A parameter has the wrong type or an unusable value (`insert_line` given as a string, a
    /// `path` that is not a string, ...).
    InvalidParameter => "invalid_parameter";
    /// The command is none of the tool's commands.
    UnknownCommand => "unknown_command";
    /// A toolset was called with a tool name it does not have (the output lists its tools).
    UnknownTool => "unknown_tool";
    /// A read-only toolset was called with one of its profile's tools that write.
    ReadOnly => "read_only";
    /// `openai`: an operation the hosted `apply_patch` tool does not know, or one without a
    /// path or diff (the Agents SDK stops the run on these; the toolset answers them).
    InvalidOperation => "invalid_operation";
    /// `codex`: a patch Codex's parser refuses (`invalid patch: …`, `invalid hunk at line …`,
    /// an empty patch, an environment line).
    InvalidPatch => "invalid_patch";
    /// `codex`: an `exec_command` that is not an intercepted `apply_patch` heredoc; the host runs
    /// it (the toolset runs no shell).
    NotAnEdit => "not_an_edit";
    /// `openai`: a V4A diff that does not apply (its context not found, a malformed line); the
    /// output is the Agents SDK's text.
    PatchFailed => "patch_failed";
    /// The path is not absolute (the reference profiles require absolute paths).
    RelativePath => "relative_path";
    /// The path does not exist (any command but `create`).
    FileNotFound => "file_not_found";
    /// `create` was given a path that exists.
    FileExists => "file_exists";
    /// A command other than `view` was given a directory, or `view` a directory with a
    /// `view_range`.
    IsDirectory => "is_directory";
    /// `view_range` is malformed or outside the file.
    InvalidViewRange => "invalid_view_range";
    /// `insert_line` is outside the file (negative ones included).
    InvalidLine => "invalid_line";
    /// `old_str` was found nowhere in the file.
    NotFound => "not_found";
    /// `old_str` was found more than once (or is empty on a non-empty file).
    MultipleMatches => "multiple_matches";
    /// `old_str` and `new_str` are the same (`openhands` and `native` refuse this).
    OldEqualsNew => "old_equals_new";
    /// A whole text that stands in for some of the file's code with a placeholder (`// ...
    /// existing code ...`) and cannot be written as it is; nothing was written.
    OmissionPlaceholder => "omission_placeholder";
    /// `native` `create` over an existing file with a lazy edit: a part of it whose first or
    /// last line occurs nowhere in the file (the output names it); nothing was written.
    LazyNoAnchor => "lazy_no_anchor";
    /// `native` `create` over an existing file with a lazy edit: a part of it that could go to
    /// several places (the output lists them); nothing was written.
    LazyAmbiguous => "lazy_ambiguous";
    /// `native` `create` over an existing file with a lazy edit that leaves out a whole
    /// definition without a marker or a `// removed NAME` comment; nothing was written.
    LazySilentDeletion => "lazy_silent_deletion";
    /// `native` `create` over an existing file with a lazy edit whose parts are out of the
    /// file's order or overlap; nothing was written.
    LazyConflict => "lazy_conflict";
    /// `native` `create` over an existing file with a lazy edit whose unchanged lines are
    /// indented inconsistently with the file's; nothing was written.
    LazyIndentation => "lazy_indentation";
    /// `native`: every line of the new text starts with a view's line number and the numbers
    /// do not run on (when they do, they are removed); nothing was written.
    LineNumberPrefixes => "line_number_prefixes";
    /// `native`: the new text holds a truncation notice copied from a clipped view
    /// (`<response clipped>`, `[... N lines truncated ...]`); nothing was written.
    TruncationNotice => "truncation_notice";
    /// A whole-file write would cut an existing file to less than half of its lines and looks
    /// cut off; nothing was written.
    SuspectedTruncation => "suspected_truncation";
    /// `undo_edit` found no edit of the file left to undo.
    NothingToUndo => "nothing_to_undo";
    /// The file is neither text in a supported encoding nor empty: binary content, bytes that
    /// are not UTF-8 / UTF-8 with a BOM / UTF-16 with a BOM nor legacy text that reads back
    /// without loss (`anthropic`: anything but UTF-8). It is never rewritten.
    UnsupportedEncoding => "unsupported_encoding";
    /// The new text has a character the file's legacy encoding (e.g. windows-1251) cannot
    /// represent (the output names it); nothing was written.
    UnrepresentableText => "unrepresentable_text";
    /// The file is larger than the editor's `max_file_size`.
    FileTooLarge => "file_too_large";
    /// The path leads outside the editor's root (`..`, an absolute path elsewhere, a symlink).
    PathOutsideRoot => "path_outside_root";
    /// The path is refused by the root's ignore file, is a UNC path or a notebook.
    PathRefused => "path_refused";
    /// The path can be viewed but not written: inside `.git` (or another version-control
    /// directory), the ignore file, or matched by the editor's `protect` globs.
    PathProtected => "path_protected";
    /// `native` with `require_read`: the file was not viewed before it was edited.
    NotRead => "not_read";
    /// The file changed since it was viewed or edited through this editor.
    StaleFile => "stale_file";
    /// The operating system refused a file operation (a missing parent directory, permissions);
    /// the output has its text.
    IoError => "io_error";
    /// Another call editing the same file (or another commit in the root) held its turn past
    /// the lock timeout; this call did nothing.
    LockTimeout => "lock_timeout";
    /// The editor was called from a second thread while a call was in progress (bindings).
    ConcurrentUse => "concurrent_use";
    /// A bug inside hunkloom stopped the call. Please report it.
    InternalError => "internal_error";
}

impl ToolCode {
    /// The tool code for an engine or file-layer error.
    pub(crate) fn of(error: &hunkloom::Error) -> ToolCode {
        use hunkloom::ErrorKind as K;
        match error.kind() {
            K::NotFound | K::SearchNotFound => ToolCode::NotFound,
            K::MultipleMatches | K::AmbiguousMatch => ToolCode::MultipleMatches,
            K::OldEqualsNew => ToolCode::OldEqualsNew,
            K::FileExists => ToolCode::FileExists,
            K::FileNotFound => ToolCode::FileNotFound,
            K::InvalidLine => ToolCode::InvalidLine,
            K::PathOutsideRoot => ToolCode::PathOutsideRoot,
            K::UncPath | K::PathIgnored | K::NotebookNotSupported => ToolCode::PathRefused,
            K::PathProtected => ToolCode::PathProtected,
            K::NotRead => ToolCode::NotRead,
            K::StaleFile => ToolCode::StaleFile,
            K::UnsupportedEncoding => ToolCode::UnsupportedEncoding,
            K::FileTooLarge => ToolCode::FileTooLarge,
            K::UnrepresentableText => ToolCode::UnrepresentableText,
            K::LineNumberPrefixes => ToolCode::LineNumberPrefixes,
            K::TruncationNotice => ToolCode::TruncationNotice,
            K::SuspectedTruncation => ToolCode::SuspectedTruncation,
            K::NothingToUndo => ToolCode::NothingToUndo,
            K::OmissionPlaceholder => ToolCode::OmissionPlaceholder,
            K::LazyNoAnchor => ToolCode::LazyNoAnchor,
            K::LazyAmbiguous => ToolCode::LazyAmbiguous,
            K::LazySilentDeletion => ToolCode::LazySilentDeletion,
            K::LazyConflict => ToolCode::LazyConflict,
            K::LazyIndentation => ToolCode::LazyIndentation,
            K::ConcurrentUse => ToolCode::ConcurrentUse,
            K::IoError => ToolCode::IoError,
            K::LockTimeout => ToolCode::LockTimeout,
            _ => ToolCode::InternalError,
        }
    }
}

impl std::fmt::Display for ToolCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_snake_case_and_documented() {
        let mut seen = std::collections::HashSet::new();
        for &code in ToolCode::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "duplicate {s}");
            assert!(
                s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{s}"
            );
            assert_eq!(ToolCode::from_code(s), Some(code));
            assert!(!code.description().is_empty());
        }
    }

    #[test]
    fn shared_codes_match_the_engine() {
        use hunkloom::ErrorKind as K;
        for (kind, code) in [
            (K::NotFound, "not_found"),
            (K::MultipleMatches, "multiple_matches"),
            (K::InvalidLine, "invalid_line"),
            (K::FileExists, "file_exists"),
            (K::FileNotFound, "file_not_found"),
            (K::StaleFile, "stale_file"),
            (K::NotRead, "not_read"),
            (K::NothingToUndo, "nothing_to_undo"),
            (K::IoError, "io_error"),
            (K::UnsupportedEncoding, "unsupported_encoding"),
            (K::FileTooLarge, "file_too_large"),
            (K::UnrepresentableText, "unrepresentable_text"),
            (K::LineNumberPrefixes, "line_number_prefixes"),
            (K::TruncationNotice, "truncation_notice"),
            (K::SuspectedTruncation, "suspected_truncation"),
            (K::PathOutsideRoot, "path_outside_root"),
            (K::ConcurrentUse, "concurrent_use"),
            (K::OmissionPlaceholder, "omission_placeholder"),
            (K::LazyNoAnchor, "lazy_no_anchor"),
            (K::LazyAmbiguous, "lazy_ambiguous"),
            (K::LazySilentDeletion, "lazy_silent_deletion"),
            (K::LazyConflict, "lazy_conflict"),
            (K::LazyIndentation, "lazy_indentation"),
        ] {
            assert_eq!(kind.code(), code);
            let e = hunkloom::Error::with_message(kind, "x");
            assert_eq!(ToolCode::of(&e).as_str(), code);
        }
    }
}

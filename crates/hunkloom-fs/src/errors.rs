//! Constructors of the file layer's errors: the core's one [`Error`] type, with the kinds the
//! core reserves for this crate, so every binding maps a single error type.

use std::path::Path;

use hunkloom::{Error, ErrorKind};

/// `path` as shown in messages.
pub(crate) fn shown(path: &Path) -> String {
    path.display().to_string()
}

pub(crate) fn outside_root(given: &Path, root: &Path) -> Error {
    Error::with_message(
        ErrorKind::PathOutsideRoot,
        format!(
            "{} is outside the workspace root {}; only files inside it can be read or edited.",
            shown(given),
            shown(root)
        ),
    )
}

pub(crate) fn unc_path(given: &Path) -> Error {
    Error::with_message(
        ErrorKind::UncPath,
        format!(
            "{} is a UNC (network) path; give a path inside the workspace instead.",
            shown(given)
        ),
    )
}

pub(crate) fn ignored(given: &Path, ignore_file: &str) -> Error {
    Error::with_message(
        ErrorKind::PathIgnored,
        format!(
            "Access to {} is blocked by the {ignore_file} file settings.",
            shown(given)
        ),
    )
}

pub(crate) fn notebook(given: &Path) -> Error {
    Error::with_message(
        ErrorKind::NotebookNotSupported,
        format!(
            "{} is a Jupyter notebook (.ipynb); edit it with a notebook-aware tool, which \
             edits cells rather than the JSON text.",
            shown(given)
        ),
    )
}

pub(crate) fn not_read(given: &Path) -> Error {
    Error::with_message(
        ErrorKind::NotRead,
        format!(
            "{} has not been read yet. Read it first before writing to it.",
            shown(given)
        ),
    )
}

pub(crate) fn stale(given: &Path, since: &str) -> Error {
    Error::with_message(
        ErrorKind::StaleFile,
        format!(
            "{} has been modified since {since}, either by the user or by a linter. Read it \
             again before attempting to write it.",
            shown(given)
        ),
    )
}

/// Who changed a file under an edit that could not be merged around the change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Changer {
    /// Another call through the same workspace (a parallel tool call).
    AnotherEdit,
    /// Someone else: the user, a linter, another process.
    Elsewhere,
}

/// `stale_file` for an edit that could not be merged around the changes made since the read:
/// the lines both changed, and the lines to read again.
pub(crate) fn stale_lines(given: &Path, conflict: &crate::merge::Conflict, by: Changer) -> Error {
    let who = match by {
        Changer::AnotherEdit => "by another edit",
        Changer::Elsewhere => "either by the user or by a linter,",
    };
    let (first, last) = conflict.span();
    Error::with_message(
        ErrorKind::StaleFile,
        format!(
            "{} has been modified since it was last read, {who} on or next to the lines this \
             edit changes ({}). Read it again (lines {}-{}) before attempting to write it.",
            shown(given),
            conflict.describe(),
            first.saturating_sub(REREAD_MARGIN).max(1),
            last + REREAD_MARGIN
        ),
    )
}

/// How many lines around a conflict a model is asked to read again.
const REREAD_MARGIN: usize = 10;

pub(crate) fn unsupported_encoding(given: &Path) -> Error {
    Error::with_message(
        ErrorKind::UnsupportedEncoding,
        format!(
            "{} is not UTF-8, UTF-8 with a BOM, UTF-16 with a BOM, or text in a legacy \
             encoding that reads back without loss; it was left untouched (it is never \
             rewritten lossily).",
            shown(given)
        ),
    )
}

/// `unrepresentable_text`: `c` has no form in the file's legacy `encoding`.
pub(crate) fn unrepresentable(given: &Path, encoding: crate::Encoding, c: char) -> Error {
    Error::with_message(
        ErrorKind::UnrepresentableText,
        format!(
            "{} is stored in {}, which cannot represent {c:?} (U+{:04X}); nothing was written. \
             Use only characters that encoding has (or an escape the language allows).",
            shown(given),
            encoding.as_str(),
            u32::from(c)
        ),
    )
}

pub(crate) fn too_large(given: &Path, size: u64, limit: u64) -> Error {
    Error::with_message(
        ErrorKind::FileTooLarge,
        format!(
            "{} is {size} bytes, more than the limit of {limit} bytes.",
            shown(given)
        ),
    )
}

pub(crate) fn io(what: &str, path: &Path, e: &std::io::Error) -> Error {
    Error::with_message(
        ErrorKind::IoError,
        format!("cannot {what} {}: {e}", shown(path)),
    )
}

pub(crate) fn not_found(given: &Path, suggestions: &[String]) -> Error {
    let mut message = format!("File does not exist: {}.", shown(given));
    if !suggestions.is_empty() {
        message.push_str(" Did you mean ");
        message.push_str(&suggestions.join(", "));
        message.push('?');
    }
    Error::with_message(ErrorKind::FileNotFound, message)
}

pub(crate) fn exists(given: &Path) -> Error {
    Error::with_message(
        ErrorKind::FileExists,
        format!("{} already exists.", shown(given)),
    )
}

pub(crate) fn nothing_to_undo(given: &Path) -> Error {
    Error::with_message(
        ErrorKind::NothingToUndo,
        format!("There is no edit of {} left to undo.", shown(given)),
    )
}

pub(crate) fn conflicting(given: &Path) -> Error {
    Error::with_message(
        ErrorKind::ConflictingChanges,
        format!(
            "{} is changed more than once in one commit; combine the changes into one.",
            shown(given)
        ),
    )
}

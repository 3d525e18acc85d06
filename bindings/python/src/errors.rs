//! The exception hierarchy and the one mapping from core errors to it.
//!
//! Every exception derives from `HunkloomError`, a `ValueError`, and carries the core's stable
//! snake_case code as `.code`; `str(e)` is the core's exact message (Cline's text in the Cline
//! dialects). Subclasses group codes by what a caller does about them. An error about a text
//! that matched several places also has `.matches`, a list of `Match` (None on other errors).

use hunkloom::{Error, ErrorFamily, ErrorKind, Match};
use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyMemoryError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

create_exception!(
    hunkloom,
    HunkloomError,
    PyValueError,
    "Base class of every hunkloom error; `.code` is the stable snake_case code."
);
create_exception!(
    hunkloom,
    SearchNotFoundError,
    HunkloomError,
    "The text to replace could not be located where the operation allows (codes search_not_found, empty_search_nonempty_file, match_before_previous_block, not_found, patch_context_not_found, lazy_no_anchor)."
);
create_exception!(
    hunkloom,
    AmbiguousMatchError,
    HunkloomError,
    "The text to replace occurs more than once and the operation needs one place (codes multiple_matches, ambiguous_match, lazy_ambiguous)."
);
create_exception!(
    hunkloom,
    InvalidEditError,
    HunkloomError,
    "The edit cannot be carried out on this content as asked (codes old_equals_new, file_exists, file_not_found, invalid_line, invalid_line_number, invalid_line_for_new_file, nothing_to_undo, conflicting_changes, patch_file_not_found, patch_file_exists, patch_empty_content, omission_placeholder, lazy_silent_deletion, lazy_conflict, lazy_indentation, unrepresentable_text, suspected_truncation, line_number_prefixes, truncation_notice)."
);
create_exception!(
    hunkloom,
    MalformedDiffError,
    HunkloomError,
    "The diff is malformed or contradicts itself: markers missing, misplaced or unterminated, or blocks overlapping (codes malformed_block, invalid_state_transition, incomplete_at_finish, overlapping_blocks, invalid_patch, invalid_patch_hunk, empty_patch, duplicate_patch_path)."
);
create_exception!(
    hunkloom,
    InvalidOptionError,
    HunkloomError,
    "An unknown option value, or a tool-call input that is not an object (codes invalid_version, invalid_dialect, invalid_profile, invalid_input, invalid_convention, invalid_fix, invalid_policy, invalid_language, invalid_glob)."
);
create_exception!(
    hunkloom,
    AlreadyFinishedError,
    HunkloomError,
    "A StreamingApplier was used after finish() (code already_finished)."
);
create_exception!(
    hunkloom,
    ConcurrentUseError,
    HunkloomError,
    "A StreamingApplier was called from a second thread during a call (code concurrent_use)."
);
create_exception!(
    hunkloom,
    InternalError,
    HunkloomError,
    "A bug inside hunkloom stopped the call; the applier, workspace or text editor it happened on is retired (code internal_error). Please report it."
);

create_exception!(
    hunkloom,
    PathRefusedError,
    HunkloomError,
    "The workspace refuses the path: outside its root, a UNC path, ignored, or a notebook (codes path_outside_root, unc_path, path_ignored, notebook_not_supported), or a write to a protected path, which can still be read (code path_protected)."
);
create_exception!(
    hunkloom,
    StaleFileError,
    HunkloomError,
    "Read the file (again) before editing it: it was never read, or it changed since (codes not_read, stale_file)."
);
create_exception!(
    hunkloom,
    UnsupportedFileError,
    HunkloomError,
    "The file cannot be edited safely and was left untouched: an unsupported encoding or too large (codes unsupported_encoding, file_too_large)."
);
create_exception!(
    hunkloom,
    FileSystemError,
    HunkloomError,
    "The operating system refused a file operation; the message has its text (code io_error), or a call waited past its lock_timeout for its turn (code lock_timeout); nothing was written."
);

/// `MissingFileError(InvalidEditError, FileNotFoundError)`: the class of the codes that say a
/// file does not exist, so `except FileNotFoundError` catches them as it would `open()`'s.
/// `create_exception!` takes one base, so the class is made once with `type()`.
static MISSING_FILE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The docstring of `MissingFileError`.
const MISSING_FILE_DOC: &str = "A file the call needs does not exist (codes file_not_found, patch_file_not_found): an InvalidEditError that is also a FileNotFoundError.";

/// `MissingFileError`, made on first use.
pub(crate) fn missing_file_error(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    MISSING_FILE_ERROR
        .get_or_try_init(py, || {
            two_base_class(
                py,
                "MissingFileError",
                py.get_type::<InvalidEditError>().into_any(),
                py.get_type::<PyFileNotFoundError>().into_any(),
                MISSING_FILE_DOC,
            )
        })
        .map(|class| class.bind(py))
}

/// `OutOfMemoryError(HunkloomError, MemoryError)`: the class of family OutOfMemory, so that
/// `except MemoryError` catches it as it catches Python's own.
static OUT_OF_MEMORY_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `OutOfMemoryError`, made on first use.
pub(crate) fn out_of_memory_error(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    OUT_OF_MEMORY_ERROR
        .get_or_try_init(py, || {
            two_base_class(
                py,
                "OutOfMemoryError",
                py.get_type::<HunkloomError>().into_any(),
                py.get_type::<PyMemoryError>().into_any(),
                "The memory a call needs could not be had (code out_of_memory); nothing was written. A HunkloomError that is also a MemoryError.",
            )
        })
        .map(|class| class.bind(py))
}

/// A class `name(first, second)` of module `hunkloom` with docstring `doc`.
fn two_base_class(
    py: Python<'_>,
    name: &str,
    first: Bound<'_, PyAny>,
    second: Bound<'_, PyAny>,
    doc: &str,
) -> PyResult<Py<PyType>> {
    let bases = PyTuple::new(py, [first, second])?;
    let namespace = PyDict::new(py);
    namespace.set_item("__module__", "hunkloom")?;
    namespace.set_item("__doc__", doc)?;
    let class = py.get_type::<PyType>().call1((name, bases, namespace))?;
    Ok(class.cast_into::<PyType>()?.unbind())
}

/// The exception class of an error kind: one class per core family, and `MissingFileError`
/// (in the InvalidEdit family) for a missing file.
fn class_for(py: Python<'_>, kind: ErrorKind) -> Bound<'_, PyType> {
    if matches!(kind, ErrorKind::FileNotFound | ErrorKind::PatchFileNotFound)
        && let Ok(class) = missing_file_error(py)
    {
        return class.clone();
    }
    match kind.family() {
        ErrorFamily::NotFound => py.get_type::<SearchNotFoundError>(),
        ErrorFamily::Ambiguous => py.get_type::<AmbiguousMatchError>(),
        ErrorFamily::InvalidEdit => py.get_type::<InvalidEditError>(),
        ErrorFamily::MalformedDiff => py.get_type::<MalformedDiffError>(),
        ErrorFamily::InvalidOption => py.get_type::<InvalidOptionError>(),
        ErrorFamily::AlreadyFinished => py.get_type::<AlreadyFinishedError>(),
        ErrorFamily::ConcurrentUse => py.get_type::<ConcurrentUseError>(),
        ErrorFamily::PathRefused => py.get_type::<PathRefusedError>(),
        ErrorFamily::StaleFile => py.get_type::<StaleFileError>(),
        ErrorFamily::UnsupportedFile => py.get_type::<UnsupportedFileError>(),
        ErrorFamily::Io => py.get_type::<FileSystemError>(),
        ErrorFamily::Internal => py.get_type::<InternalError>(),
        ErrorFamily::OutOfMemory => match out_of_memory_error(py) {
            Ok(class) => class.clone(),
            Err(_) => py.get_type::<PyMemoryError>(),
        },
        // The core may add families; until they get a class they raise the base class (the
        // Python tests check every code in ERROR_CODES against its family's class).
        _ => py.get_type::<HunkloomError>(),
    }
}

/// One place an ambiguous text matched, in the text that was searched (`str` indices).
#[pyclass(module = "hunkloom", name = "Match", frozen, get_all, eq, hash)]
#[derive(PartialEq, Eq, Hash)]
pub struct PyMatch {
    /// `str` index where the match starts.
    start: usize,
    /// `str` index where it ends (exclusive).
    end: usize,
    /// 1-based line it starts on.
    start_line: usize,
    /// The last 1-based line it covers (a match ending with a newline does not cover the line
    /// after it; `start_line` for an empty match).
    end_line: usize,
}

impl PyMatch {
    fn new(m: &Match) -> Self {
        PyMatch {
            start: m.start.chars,
            end: m.end.chars,
            start_line: m.start.line,
            end_line: m.last_line,
        }
    }
}

#[pymethods]
impl PyMatch {
    fn __repr__(&self) -> String {
        format!(
            "Match(start={}, end={}, start_line={}, end_line={})",
            self.start, self.end, self.start_line, self.end_line
        )
    }
}

/// The exception instance for a core error: its class, message, `.code` and `.matches` (the
/// places an ambiguous text matched, else None).
pub(crate) fn exception<'py>(py: Python<'py>, error: &Error) -> PyResult<Bound<'py, PyAny>> {
    let value = class_for(py, error.kind()).call1((error.message(),))?;
    value.setattr(intern!(py, "code"), error.code())?;
    let matches = match error.matches() {
        Some(found) => Some(
            found
                .iter()
                .map(|m| Py::new(py, PyMatch::new(m)))
                .collect::<PyResult<Vec<_>>>()?,
        ),
        None => None,
    };
    value.setattr(intern!(py, "matches"), matches)?;
    Ok(value)
}

/// A core error as a raisable `PyErr`.
pub(crate) fn to_py_err(py: Python<'_>, error: &Error) -> PyErr {
    match exception(py, error) {
        Ok(value) => PyErr::from_value(value),
        Err(failed) => failed,
    }
}

/// The exception class raised for `code` (None for an unknown code); lets the tests prove that
/// every code the core defines has its family.
#[pyfunction]
#[pyo3(name = "_error_class")]
pub(crate) fn error_class<'py>(py: Python<'py>, code: &str) -> Option<Bound<'py, PyType>> {
    ErrorKind::ALL
        .iter()
        .find(|kind| kind.code() == code)
        .map(|&kind| class_for(py, kind))
}

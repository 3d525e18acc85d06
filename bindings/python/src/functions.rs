//! Module-level functions: the Cline drop-in with the switches of its resume cache, and line
//! numbers.

use hunkloom::ApplyOptions;
use hunkloom::cline::{self, Version};
use hunkloom::text::line_number_from_char_index;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::to_py_err;
use crate::gil;
use crate::text::Text;
use crate::types::{PyNewFileContent, PyOutcome, PyResumeCacheStats};

/// Cline's `constructNewFileContent`: apply a SEARCH/REPLACE diff (or a prefix of one, with
/// `is_final=False`) to `original`, byte-identical with Cline v4.0.10.
///
/// Goes through the core's process-wide resume cache: a call whose diff extends an earlier
/// call's diff for the same original and version pushes only the new suffix.
#[pyfunction]
#[pyo3(signature = (diff, original, is_final = true, version = "v1"))]
pub(crate) fn construct_new_file_content(
    py: Python<'_>,
    diff: Text,
    original: Text,
    is_final: bool,
    version: &str,
) -> PyResult<PyNewFileContent> {
    let version: Version = version.parse().map_err(|e| to_py_err(py, &e))?;
    let result = gil::run(py, diff.len() + original.len(), || {
        cline::construct_new_file_content_resumed(&diff, &original, is_final, version)
    })
    .map_err(|e| to_py_err(py, &e))?;
    Ok(PyNewFileContent::new(py, &result))
}

/// Sets how many streams `construct_new_file_content` keeps to resume from (0 turns resuming
/// off and frees every kept stream); a negative value raises `ValueError`.
#[pyfunction]
pub(crate) fn set_resume_cache_capacity(py: Python<'_>, capacity: isize) -> PyResult<()> {
    let capacity = usize::try_from(capacity).map_err(|_| {
        PyValueError::new_err(format!(
            "capacity must be a non-negative int, got {capacity}"
        ))
    })?;
    // Waiting for the cache (another thread may be inside a call) and freeing the evicted
    // streams need no GIL.
    py.detach(|| cline::shared_resume_cache().set_capacity(capacity));
    Ok(())
}

/// The resume cache's counters and size.
#[pyfunction]
pub(crate) fn resume_cache_stats(py: Python<'_>) -> PyResumeCacheStats {
    py.detach(|| {
        let cache = cline::shared_resume_cache();
        PyResumeCacheStats::new(cache.stats(), cache.len(), cache.capacity())
    })
}

/// Apply a whole diff in any dialect (`native` by default): the new content and a report per
/// block, or the diff's error. `fuzzy_threshold` and `buffer_lines` are the `roo` dialect's.
#[pyfunction]
#[pyo3(signature = (
    diff, original, *, dialect = None, policy = None, fuzzy_threshold = None, buffer_lines = None,
    recount = false
))]
// Each keyword argument of the Python function is a parameter here.
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_diff(
    py: Python<'_>,
    diff: Text,
    original: Text,
    dialect: Option<&str>,
    policy: Option<&str>,
    fuzzy_threshold: Option<f64>,
    buffer_lines: Option<usize>,
    recount: bool,
) -> PyResult<PyOutcome> {
    let options = ApplyOptions::from_names(dialect, policy, fuzzy_threshold, buffer_lines)
        .map_err(|e| to_py_err(py, &e))?
        .recount(recount);
    let outcome = gil::run(py, diff.len() + original.len(), || {
        hunkloom::apply_diff(&diff, &original, &options)
    })
    .map_err(|e| to_py_err(py, &e))?;
    PyOutcome::new(py, &outcome)
}

/// The 1-based line number of a `str` index into `content` (indices past the end count the
/// lines of the whole text).
#[pyfunction]
pub(crate) fn line_number_from_index(py: Python<'_>, content: Text, index: usize) -> usize {
    gil::run(py, content.len(), || {
        line_number_from_char_index(&content, index)
    })
}

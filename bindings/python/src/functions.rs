//! Module-level functions: the Cline drop-in and line numbers.

use hunkloom::cline::{self, Version};
use hunkloom::text::line_number_from_char_index;
use hunkloom::{ApplyOptions, Dialect, Policy};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;

use crate::errors::to_py_err;
use crate::gil;
use crate::types::{PyNewFileContent, PyOutcome};

/// Cline's `constructNewFileContent`: apply a SEARCH/REPLACE diff (or a prefix of one, with
/// `is_final=False`) to `original`, byte-identical with Cline v4.0.10.
#[pyfunction]
#[pyo3(signature = (diff, original, is_final = true, version = "v1"))]
pub(crate) fn construct_new_file_content(
    py: Python<'_>,
    diff: PyBackedStr,
    original: PyBackedStr,
    is_final: bool,
    version: &str,
) -> PyResult<PyNewFileContent> {
    let version: Version = version.parse().map_err(|e| to_py_err(py, &e))?;
    let result = gil::run(py, diff.len() + original.len(), || {
        cline::construct_new_file_content(&diff, &original, is_final, version)
    })
    .map_err(|e| to_py_err(py, &e))?;
    Ok(PyNewFileContent::new(py, &result))
}

/// Apply a whole diff in any dialect (`native` by default): the new content and a report per
/// block, or the diff's error.
#[pyfunction]
#[pyo3(signature = (diff, original, *, dialect = "native", policy = "all_or_nothing"))]
pub(crate) fn apply_diff(
    py: Python<'_>,
    diff: PyBackedStr,
    original: PyBackedStr,
    dialect: &str,
    policy: &str,
) -> PyResult<PyOutcome> {
    let dialect: Dialect = dialect.parse().map_err(|e| to_py_err(py, &e))?;
    let policy: Policy = policy.parse().map_err(|e| to_py_err(py, &e))?;
    let options = ApplyOptions::new().dialect(dialect).policy(policy);
    let outcome = gil::run(py, diff.len() + original.len(), || {
        hunkloom::apply_diff(&diff, &original, &options)
    })
    .map_err(|e| to_py_err(py, &e))?;
    PyOutcome::new(py, &outcome)
}

/// The 1-based line number of a `str` index into `content` (indices past the end count the
/// lines of the whole text).
#[pyfunction]
pub(crate) fn line_number_from_index(py: Python<'_>, content: PyBackedStr, index: usize) -> usize {
    gil::run(py, content.len(), || {
        line_number_from_char_index(&content, index)
    })
}

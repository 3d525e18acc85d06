//! `apply_v4a`: a V4A per-file body (OpenAI's Responses-API `apply_patch` tool) applied as the
//! OpenAI Agents SDK's `apply_diff` applies it.

use hunkloom::patch::v4a::{self, V4aMode};
use pyo3::prelude::*;

use crate::errors::to_py_err;
use crate::gil;
use crate::text::Text;

/// Apply a V4A body (`diff`) to `input` exactly as the OpenAI Agents SDK's
/// `apply_diff(input, diff, mode)` does; returns the new text, or raises a `HunkloomError`
/// whose message is the reference's `ValueError` text.
#[pyfunction]
#[pyo3(signature = (input, diff, mode = "default"))]
pub(crate) fn apply_v4a(py: Python<'_>, input: Text, diff: Text, mode: &str) -> PyResult<String> {
    let mode: V4aMode = mode.parse().map_err(|e| to_py_err(py, &e))?;
    gil::run(py, input.len() + diff.len(), || {
        v4a::apply_v4a(&input, &diff, mode)
    })
    .map_err(|e| to_py_err(py, &e))
}

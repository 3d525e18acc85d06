//! Cline's `write_to_file` content pipeline and its individual fixes.

use hunkloom::fixes::{self, Fix, Written};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::to_py_err;
use crate::gil;
use crate::text::Text;
use crate::types::names_repr;

/// The result of `write`.
#[pyclass(module = "hunkloom", name = "Written", frozen, get_all)]
pub struct PyWritten {
    /// The cleaned-up content to write.
    new_content: Py<PyString>,
    /// The names of the fixes that changed something, in pipeline order.
    fixes_applied: Vec<&'static str>,
}

impl PyWritten {
    fn new(py: Python<'_>, written: &Written) -> Self {
        PyWritten {
            new_content: PyString::new(py, &written.new_content).unbind(),
            fixes_applied: written.fixes_applied.clone(),
        }
    }
}

#[pymethods]
impl PyWritten {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Written(new_content=<{} chars>, fixes_applied={})",
            self.new_content.bind(py).len()?,
            names_repr(&self.fixes_applied)
        ))
    }
}

/// Cline's `write_to_file` pipeline: strip Markdown fences, then the model content fixes
/// (only the fixes named in `fixes`, when given).
#[pyfunction]
#[pyo3(signature = (text, path = None, model_id = None, *, fixes = None))]
pub(crate) fn write(
    py: Python<'_>,
    text: Text,
    path: Option<Text>,
    model_id: Option<Text>,
    fixes: Option<Vec<Text>>,
) -> PyResult<PyWritten> {
    let enabled: Vec<Fix> = match &fixes {
        Some(names) => names
            .iter()
            .map(|name| name.parse())
            .collect::<Result<_, _>>()
            .map_err(|e| to_py_err(py, &e))?,
        None => Fix::ALL.to_vec(),
    };
    let written = gil::run(py, text.len(), || {
        fixes::write_with(&text, path.as_deref(), model_id.as_deref(), &enabled)
    });
    Ok(PyWritten::new(py, &written))
}

/// Cline's fence stripping of `write_to_file` content.
#[pyfunction]
pub(crate) fn strip_markdown_fences(py: Python<'_>, text: Text) -> String {
    gil::run(py, text.len(), || fixes::strip_markdown_fences(&text))
}

/// Cline's `applyModelContentFixes(text, model_id, file_path)`.
#[pyfunction]
#[pyo3(signature = (text, model_id = None, file_path = None))]
pub(crate) fn apply_model_content_fixes(
    py: Python<'_>,
    text: Text,
    model_id: Option<Text>,
    file_path: Option<Text>,
) -> String {
    gil::run(py, text.len(), || {
        fixes::apply_model_content_fixes(&text, model_id.as_deref(), file_path.as_deref())
    })
}

/// Cline's `fixModelHtmlEscaping`: undo HTML entities a model escaped.
#[pyfunction]
pub(crate) fn fix_model_html_escaping(py: Python<'_>, text: Text) -> String {
    gil::run(py, text.len(), || fixes::fix_model_html_escaping(&text))
}

/// Cline's `removeInvalidChars`.
#[pyfunction]
pub(crate) fn remove_invalid_chars(py: Python<'_>, text: Text) -> String {
    gil::run(py, text.len(), || fixes::remove_invalid_chars(&text))
}

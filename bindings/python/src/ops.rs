//! The tool operations (`str_replace`, `insert`, Roo's `insert_content`) and their results.

use hunkloom::ops::{self, Convention, Edit, Guards, InsertedContent, LineArg, StrReplaceOptions};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

use crate::errors::to_py_err;
use crate::gil;
use crate::text::Text;
use crate::types::names_repr;

/// The result of `str_replace` or `insert`.
#[pyclass(module = "hunkloom", name = "Edit", frozen, get_all)]
pub struct PyEdit {
    /// The whole text after the edit.
    new_content: Py<PyString>,
    /// How many places were changed.
    replacements: usize,
    /// The adjustments needed to apply the edit (e.g. `"curly_quotes"`).
    normalizations: Vec<&'static str>,
    /// The 1-based, inclusive line range of the first change in `new_content`.
    first_edit: (usize, usize),
}

impl PyEdit {
    pub(crate) fn new(py: Python<'_>, edit: &Edit) -> Self {
        PyEdit {
            new_content: PyString::new(py, &edit.new_content).unbind(),
            replacements: edit.replacements,
            normalizations: edit.normalizations.iter().map(|n| n.as_str()).collect(),
            first_edit: (edit.first_edit.start, edit.first_edit.end),
        }
    }
}

#[pymethods]
impl PyEdit {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Edit(new_content=<{} chars>, replacements={}, normalizations={}, first_edit={:?})",
            self.new_content.bind(py).len()?,
            self.replacements,
            names_repr(&self.normalizations),
            self.first_edit
        ))
    }
}

/// The result of `insert_content`.
#[pyclass(module = "hunkloom", name = "InsertedContent", frozen, get_all)]
pub struct PyInsertedContent {
    /// The whole text after the insert.
    new_content: Py<PyString>,
    /// `"create"` when the file did not exist, else `"modify"`.
    edit_type: &'static str,
}

impl PyInsertedContent {
    fn new(py: Python<'_>, inserted: &InsertedContent) -> Self {
        PyInsertedContent {
            new_content: PyString::new(py, &inserted.new_content).unbind(),
            edit_type: inserted.edit_type.as_str(),
        }
    }
}

#[pymethods]
impl PyInsertedContent {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "InsertedContent(new_content=<{} chars>, edit_type='{}')",
            self.new_content.bind(py).len()?,
            self.edit_type
        ))
    }
}

/// Claude Code's edit: replace `old` with `new` in `content` (None = the file does not exist).
/// `omission_guard=False` turns off the omission-placeholder guard.
#[pyfunction]
#[pyo3(signature = (content, old, new, replace_all = false, path = None, *, omission_guard = true))]
pub(crate) fn str_replace(
    py: Python<'_>,
    content: Option<Text>,
    old: Text,
    new: Text,
    replace_all: bool,
    path: Option<Text>,
    omission_guard: bool,
) -> PyResult<PyEdit> {
    let size = content.as_ref().map_or(0, |c| c.len()) + old.len() + new.len();
    let mut options = StrReplaceOptions::new()
        .replace_all(replace_all)
        .guards(Guards::NATIVE.omission_placeholders(omission_guard));
    if let Some(path) = &path {
        options = options.path(&**path);
    }
    let edit = gil::run(py, size, || {
        ops::str_replace_with(content.as_deref(), &old, &new, &options)
    })
    .map_err(|e| to_py_err(py, &e))?;
    Ok(PyEdit::new(py, &edit))
}

/// Insert `text` as whole lines at `line`, in the convention `"before"` or `"after"`.
#[pyfunction]
pub(crate) fn insert(
    py: Python<'_>,
    content: Text,
    line: usize,
    text: Text,
    convention: &str,
) -> PyResult<PyEdit> {
    let convention: Convention = convention.parse().map_err(|e| to_py_err(py, &e))?;
    let edit = gil::run(py, content.len() + text.len(), || {
        ops::insert(&content, line, &text, convention)
    })
    .map_err(|e| to_py_err(py, &e))?;
    Ok(PyEdit::new(py, &edit))
}

/// The `line` argument as Roo's tool received it: text (XML protocol), a number (native
/// protocol) or None (missing).
fn line_arg(line: Option<&Bound<'_, PyAny>>) -> PyResult<LineArg> {
    let Some(line) = line else {
        return Ok(LineArg::Missing);
    };
    if line.is_instance_of::<PyString>() {
        return Ok(LineArg::Text(line.extract()?));
    }
    // bool is an int subclass in Python; a flag is not a line number.
    if line.is_instance_of::<PyInt>() && !line.is_instance_of::<PyBool>() {
        // Exact for every line number below 2**53, like JavaScript's numbers.
        return Ok(LineArg::Number(line.extract::<f64>()?));
    }
    if line.is_instance_of::<PyFloat>() {
        return Ok(LineArg::Number(line.extract()?));
    }
    Err(PyTypeError::new_err(format!(
        "line must be str, int, float or None, not {}",
        line.get_type().name()?
    )))
}

/// Roo's `insert_content` tool, observably: `original` None = the file does not exist.
#[pyfunction]
#[pyo3(signature = (original, line, content = None))]
pub(crate) fn insert_content(
    py: Python<'_>,
    original: Option<Text>,
    line: Option<&Bound<'_, PyAny>>,
    content: Option<Text>,
) -> PyResult<PyInsertedContent> {
    let line = line_arg(line)?;
    let size = original.as_ref().map_or(0, |o| o.len());
    let inserted = gil::run(py, size, || {
        ops::insert_content(original.as_deref(), line, content.as_deref())
    })
    .map_err(|e| to_py_err(py, &e))?;
    Ok(PyInsertedContent::new(py, &inserted))
}

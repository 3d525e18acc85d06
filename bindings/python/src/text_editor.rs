//! `TextEditor`: the text-editor tool of `hunkloom_tools` as a Python object.
//!
//! The editor lives in a [`Shared`], as the `Workspace` does: a call runs without the GIL (it
//! does file I/O), many threads call one editor at once (calls on the same file take turns in
//! the editor), and a bug inside is `InternalError` (the editor is retired). A call's input crosses as a `serde_json::Value`
//! built from the `dict` here, and its `ToolResult` comes back as a frozen object.

use std::path::PathBuf;

use std::sync::Arc;

use hunkloom_handle::{Phase, Shared};
use hunkloom_tools::{EditorOptions, Profile, TextEditor};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::edit_stream::PyEditStream;
use crate::errors::to_py_err;
use crate::json_value::{invalid_input, to_json, to_python};
use crate::types::PyToolResult;

/// One text-editor tool over a root directory: `call` answers each of a model's tool calls as
/// the chosen profile's reference does.
#[pyclass(module = "hunkloom", name = "TextEditor", frozen)]
pub struct PyTextEditor {
    /// Immutable, read without the handle's lock.
    profile: Profile,
    root: PathBuf,
    require_read: bool,
    /// Shared with the streams it makes.
    inner: Arc<Shared<TextEditor>>,
}

#[pymethods]
impl PyTextEditor {
    #[new]
    #[pyo3(signature = (
        root, profile = "native", *, require_read = None, max_file_size = None, protect = None,
        durability = "full"
    ))]
    fn new(
        py: Python<'_>,
        root: PathBuf,
        profile: &str,
        require_read: Option<bool>,
        max_file_size: Option<u64>,
        protect: Option<Vec<String>>,
        durability: &str,
    ) -> PyResult<Self> {
        let profile: Profile = profile.parse().map_err(|e| to_py_err(py, &e))?;
        let mut options = EditorOptions::new()
            .profile(profile)
            .durability(durability.parse().map_err(|e| to_py_err(py, &e))?)
            .protect(protect.unwrap_or_default());
        if let Some(yes) = require_read {
            options = options.require_read(yes);
        }
        if let Some(bytes) = max_file_size {
            options = options.max_file_size(bytes);
        }
        let editor = py
            .detach(|| TextEditor::new(&root, options))
            .map_err(|e| to_py_err(py, &e))?;
        Ok(PyTextEditor {
            profile,
            root: editor.root().to_path_buf(),
            require_read: editor.requires_read(),
            inner: Arc::new(Shared::new("text editor", editor)),
        })
    }

    /// Answer one tool call (its input object).
    fn call(&self, py: Python<'_>, input: &Bound<'_, PyAny>) -> PyResult<PyToolResult> {
        let mut at = "input".to_owned();
        let input = to_json(input, &mut at, 0).map_err(|message| {
            let message =
                format!("a text-editor tool call's input must be a dict of JSON values: {message}");
            to_py_err(py, &invalid_input(message))
        })?;
        let result = self
            .inner
            .with(|editor| py.detach(move || editor.call(&input)))
            .and_then(|result| result)
            .map_err(|e| to_py_err(py, &e))?;
        Ok(PyToolResult::new(py, result))
    }

    /// A stream for one tool call whose argument JSON arrives in pieces.
    fn stream(&self, py: Python<'_>) -> PyResult<PyEditStream> {
        let stream = self
            .inner
            .with(TextEditor::stream)
            .map_err(|e| to_py_err(py, &e))?;
        Ok(PyEditStream::new(self.inner.clone(), stream))
    }

    /// The tool's definition for a model API: `{"name", "description", "input_schema"}`.
    #[staticmethod]
    #[pyo3(signature = (profile = "native", name = None))]
    fn schema<'py>(
        py: Python<'py>,
        profile: &str,
        name: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let profile: Profile = profile.parse().map_err(|e| to_py_err(py, &e))?;
        let schema = match name {
            Some(name) => hunkloom_tools::schema_named(profile, name),
            None => hunkloom_tools::schema(profile),
        };
        to_python(py, &schema)
    }

    /// The profile it answers as.
    #[getter]
    fn profile(&self) -> &'static str {
        self.profile.as_str()
    }

    /// The root directory (absolute, symbolic links resolved).
    #[getter]
    fn root(&self) -> PathBuf {
        self.root.clone()
    }

    /// Whether edits need a view of the file first.
    #[getter]
    fn require_read(&self) -> bool {
        self.require_read
    }

    /// Makes the next call on this editor panic inside (tests only: built with the
    /// `fault-injection` feature).
    #[cfg(feature = "fault-injection")]
    fn _inject_panic(&self) {
        self.inner.inject_panic();
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let root = PyString::new(py, &self.root.to_string_lossy())
            .repr()?
            .to_string();
        let state = match self.inner.phase() {
            Phase::Ready | Phase::Busy => "",
            Phase::Finished | Phase::Retired => ", <stopped>",
        };
        Ok(format!(
            "TextEditor({root}, profile='{}'{state})",
            self.profile.as_str()
        ))
    }
}

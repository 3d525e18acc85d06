//! `Toolset`: the edit tools of one model family (`hunkloom_tools::Toolset`) as a Python
//! object, shared across threads like `TextEditor` (calls run without the GIL; a bug inside is
//! `InternalError` and retires the toolset). Inputs cross as JSON values, results as
//! `ToolResult`.

use std::path::PathBuf;
use std::sync::Arc;

use hunkloom_handle::{Phase, Shared};
use hunkloom_tools::{Toolset, ToolsetOptions, ToolsetProfile};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::edit_stream::PyEditStream;
use crate::errors::to_py_err;
use crate::json_value::{invalid_input, to_json, to_python};
use crate::types::PyToolResult;

/// The edit tools one model family is trained on, answered as its reference answers them.
#[pyclass(module = "hunkloom", name = "Toolset", frozen)]
pub struct PyToolset {
    /// Immutable, read without the handle's lock.
    profile: ToolsetProfile,
    root: PathBuf,
    /// Shared with the streams it makes.
    inner: Arc<Shared<Toolset>>,
}

#[pymethods]
impl PyToolset {
    /// A stream for one call of the tool ``name`` whose argument JSON arrives in pieces.
    fn stream(&self, py: Python<'_>, name: &str) -> PyResult<PyEditStream> {
        let stream = self
            .inner
            .with(|toolset| toolset.stream(name))
            .map_err(|e| to_py_err(py, &e))?;
        Ok(PyEditStream::new(self.inner.clone(), stream))
    }

    #[new]
    // One keyword argument per option, as Python callers write them.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (
        root, profile = "native", *, require_read = None, max_file_size = None, protect = None,
        max_characters = None, read_only = false, semantics = "reference", durability = "full"
    ))]
    fn new(
        py: Python<'_>,
        root: PathBuf,
        profile: &str,
        require_read: Option<bool>,
        max_file_size: Option<u64>,
        protect: Option<Vec<String>>,
        max_characters: Option<usize>,
        read_only: bool,
        semantics: &str,
        durability: &str,
    ) -> PyResult<Self> {
        let profile: ToolsetProfile = profile.parse().map_err(|e| to_py_err(py, &e))?;
        let mut options = ToolsetOptions::new()
            .profile(profile)
            .read_only(read_only)
            .semantics(semantics.parse().map_err(|e| to_py_err(py, &e))?)
            .durability(durability.parse().map_err(|e| to_py_err(py, &e))?)
            .protect(protect.unwrap_or_default());
        if let Some(yes) = require_read {
            options = options.require_read(yes);
        }
        if let Some(bytes) = max_file_size {
            options = options.max_file_size(bytes);
        }
        if let Some(characters) = max_characters {
            options = options.max_characters(characters);
        }
        let toolset = py
            .detach(|| Toolset::new(&root, options))
            .map_err(|e| to_py_err(py, &e))?;
        Ok(PyToolset {
            profile,
            root: toolset.root().to_path_buf(),
            inner: Arc::new(Shared::new("toolset", toolset)),
        })
    }

    /// The profile's tool definitions: a list of `{"name", "title", "description",
    /// "input_schema", "read_only"}` (`title` None where the profile has none).
    fn tools<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let tools = self
            .inner
            .with(Toolset::tools)
            .map_err(|e| to_py_err(py, &e))?;
        let list = PyList::empty(py);
        for tool in tools {
            let dict = PyDict::new(py);
            dict.set_item("name", PyString::new(py, &tool.name))?;
            dict.set_item("title", tool.title.as_deref())?;
            dict.set_item("description", PyString::new(py, &tool.description))?;
            dict.set_item("input_schema", to_python(py, &tool.input_schema)?)?;
            dict.set_item("read_only", tool.read_only)?;
            list.append(dict)?;
        }
        Ok(list)
    }

    /// Answer one call of the tool `name` with its arguments `input`.
    fn call(&self, py: Python<'_>, name: &str, input: &Bound<'_, PyAny>) -> PyResult<PyToolResult> {
        let mut at = "input".to_owned();
        let input = to_json(input, &mut at, 0).map_err(|message| {
            let message = format!("a tool call's input must be a dict of JSON values: {message}");
            to_py_err(py, &invalid_input(message))
        })?;
        let name = name.to_owned();
        let result = self
            .inner
            .with(|toolset| py.detach(move || toolset.call(&name, &input)))
            .and_then(|result| result)
            .map_err(|e| to_py_err(py, &e))?;
        Ok(PyToolResult::new(py, result))
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

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let root = PyString::new(py, &self.root.to_string_lossy())
            .repr()?
            .to_string();
        let state = match self.inner.phase() {
            Phase::Ready | Phase::Busy => "",
            Phase::Finished | Phase::Retired => ", <stopped>",
        };
        Ok(format!(
            "Toolset({root}, profile='{}'{state})",
            self.profile.as_str()
        ))
    }
}

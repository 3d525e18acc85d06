//! `TextEditor`: the text-editor tool of `hunkloom_tools` as a Python object.
//!
//! The editor lives in a [`Shared`], as the `Workspace` does: a call runs without the GIL (it
//! does file I/O), many threads call one editor at once (calls on the same file take turns in
//! the editor), and a bug inside is `InternalError` (the editor is retired). A call's input crosses as a `serde_json::Value`
//! built from the `dict` here, and its `ToolResult` comes back as a frozen object.

use std::path::PathBuf;

use hunkloom::{Error, ErrorKind};
use hunkloom_handle::{Phase, Shared};
use hunkloom_tools::{EditorOptions, Profile, TextEditor, ToolResult};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

use crate::errors::to_py_err;

/// How deeply lists and dicts may nest in a call's input (a deeper one is refused, rather than
/// risking the stack on a cyclic or hostile structure).
const MAX_DEPTH: usize = 64;

/// What one tool call gave back.
#[pyclass(module = "hunkloom", name = "ToolResult", frozen, get_all)]
pub struct PyToolResult {
    /// The exact text for the model.
    output: Py<PyString>,
    /// Whether the call failed (the tool's error result).
    is_error: bool,
    /// A stable snake_case code of the failure, `""` on success.
    code: String,
    /// The path the call was about, as the output shows it; None when the input had none.
    path: Option<String>,
    /// For an edit that changed a file: its text before.
    old_content: Option<Py<PyString>>,
    /// For an edit that wrote a file: its text after.
    new_content: Option<Py<PyString>>,
}

impl PyToolResult {
    pub(crate) fn new(py: Python<'_>, result: ToolResult) -> Self {
        let text = |s: &str| PyString::new(py, s).unbind();
        PyToolResult {
            output: text(&result.output),
            is_error: result.is_error,
            code: result.code,
            path: result.path,
            old_content: result.old_content.as_deref().map(text),
            new_content: result.new_content.as_deref().map(text),
        }
    }
}

#[pymethods]
impl PyToolResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let size = |text: &Option<Py<PyString>>| -> PyResult<String> {
            Ok(match text {
                Some(t) => format!("<{} chars>", t.bind(py).len()?),
                None => "None".to_owned(),
            })
        };
        let path = match &self.path {
            Some(p) => PyString::new(py, p).repr()?.to_string(),
            None => "None".to_owned(),
        };
        Ok(format!(
            "ToolResult(is_error={}, code='{}', path={path}, output=<{} chars>, old_content={}, \
             new_content={})",
            if self.is_error { "True" } else { "False" },
            self.code,
            self.output.bind(py).len()?,
            size(&self.old_content)?,
            size(&self.new_content)?,
        ))
    }
}

/// The core's `invalid_input` error.
pub(crate) fn invalid_input(message: String) -> Error {
    Error::with_message(ErrorKind::InvalidInput, message)
}

/// `value` as JSON: dict (with `str` keys), list or tuple, str, int, float, bool, None. `at`
/// names the value in messages (`input['view_range'][0]`).
pub(crate) fn to_json(
    value: &Bound<'_, PyAny>,
    at: &mut String,
    depth: usize,
) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("{at} is nested more than {MAX_DEPTH} levels deep"));
    }
    if value.is_none() {
        return Ok(Value::Null);
    }
    // Before int: a Python bool is an int.
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(s) = value.cast::<PyString>() {
        // A lone surrogate (json.loads accepts "\ud800") has no UTF-8 form: refused, rather
        // than written into a file as U+FFFD.
        return s
            .to_cow()
            .map(|s| Value::String(s.into_owned()))
            .map_err(|_| format!("{at} is a str with a lone surrogate, which has no UTF-8 form"));
    }
    if value.is_instance_of::<PyInt>() {
        if let Ok(i) = value.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = value.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return value
            .extract::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("{at} is an int too large for JSON"));
    }
    if value.is_instance_of::<PyFloat>() {
        let f = value.extract::<f64>().map_err(|e| e.to_string())?;
        return Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| format!("{at} is {}, which JSON cannot represent", repr(value)));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = Map::new();
        for (key, item) in dict.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(format!(
                    "{at} has a key of type {}; keys must be str",
                    type_name(&key)
                ));
            };
            let len = at.len();
            at.push_str(&format!("[{}]", repr(key)));
            let key = key.to_string_lossy().into_owned();
            let item = to_json(&item, at, depth + 1)?;
            at.truncate(len);
            map.insert(key, item);
        }
        return Ok(Value::Object(map));
    }
    let items = if let Ok(list) = value.cast::<PyList>() {
        list.iter().collect::<Vec<_>>()
    } else if let Ok(tuple) = value.cast::<PyTuple>() {
        tuple.iter().collect::<Vec<_>>()
    } else {
        return Err(format!(
            "{at} is of type {}, which is not a JSON value (dict, list, str, int, float, bool, \
             None)",
            type_name(value)
        ));
    };
    let mut array = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let len = at.len();
        at.push_str(&format!("[{i}]"));
        array.push(to_json(item, at, depth + 1)?);
        at.truncate(len);
    }
    Ok(Value::Array(array))
}

/// `repr(value)`, for messages.
fn repr(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string_lossy().into_owned())
}

/// The name of `value`'s type, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// `value` as the Python object `json.loads` would give.
pub(crate) fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (_, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => PyList::new(
            py,
            items
                .iter()
                .map(|v| to_python(py, v))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_python(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// One text-editor tool over a root directory: `call` answers each of a model's tool calls as
/// the chosen profile's reference does.
#[pyclass(module = "hunkloom", name = "TextEditor", frozen)]
pub struct PyTextEditor {
    /// Immutable, read without the handle's lock.
    profile: Profile,
    root: PathBuf,
    require_read: bool,
    inner: Shared<TextEditor>,
}

impl PyTextEditor {
    /// Runs `call` on the editor (its lifecycle errors as the core's).
    pub(crate) fn with_editor<R>(
        &self,
        call: impl FnOnce(&TextEditor) -> R,
    ) -> Result<R, hunkloom::Error> {
        self.inner.with(call)
    }
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
            inner: Shared::new("text editor", editor),
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
    fn stream(slf: Py<Self>) -> crate::edit_stream::PyEditStream {
        crate::edit_stream::PyEditStream::of_editor(slf)
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

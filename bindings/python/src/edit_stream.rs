//! `EditStream`: a tool call applied while its argument JSON streams in, as a Python object made
//! by `TextEditor.stream()` or `Toolset.stream(name)`.
//!
//! The core stream lives in a [`Handle`] (pushing from two threads at once is
//! `ConcurrentUseError`, a call after `finish()` `AlreadyFinishedError`); each call reaches the
//! editor or toolset that made it through that object's [`Shared`] host. The GIL is
//! released only for the pushes that read the file or plan the call.

use std::sync::Arc;

use hunkloom_handle::{Handle, Phase, Shared};
use hunkloom_tools::{EditStream, ToolHost};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::to_py_err;
use crate::text::Text;
use crate::types::{PyToolResult, PyUpdate};

/// One tool call applied while its arguments stream in: ``push`` each piece of the argument
/// JSON as the model API delivers it, read ``preview``, then ``finish``.
#[pyclass(module = "hunkloom", name = "EditStream")]
pub struct PyEditStream {
    /// The editor or toolset that made the stream, which answers its call.
    host: Arc<Shared<dyn ToolHost>>,
    inner: Handle<Streaming>,
}

/// The core stream and its preview as a Python `str` once read.
struct Streaming {
    stream: EditStream,
    preview: Option<Py<PyString>>,
}

impl PyEditStream {
    /// A stream of a call answered by `host`, `stream` made by it.
    pub(crate) fn new(host: Arc<Shared<dyn ToolHost>>, stream: EditStream) -> Self {
        PyEditStream {
            host,
            inner: Handle::new(
                "edit stream",
                Streaming {
                    stream,
                    preview: None,
                },
            ),
        }
    }
}

#[pymethods]
impl PyEditStream {
    /// Take the next piece of the call's argument JSON; returns the splice it made to the
    /// preview.
    fn push(&self, py: Python<'_>, piece: Text) -> PyResult<PyUpdate> {
        self.inner
            .with(|state| {
                let update = self.host.with(|host| {
                    let stream = &mut state.stream;
                    if stream.push_may_read(host, &piece) {
                        py.detach(|| stream.push(host, &piece).into_owned())
                    } else {
                        stream.push(host, &piece).into_owned()
                    }
                })?;
                if !update.is_noop() {
                    state.preview = None;
                }
                Ok(update)
            })
            .and_then(|update| update)
            .map_err(|e| to_py_err(py, &e))
            .and_then(|update| PyUpdate::new(py, &update))
    }

    /// The target file's text with the edit applied as far as it has streamed (exactly what
    /// the call will leave once the arguments are complete); None before the edit is placed,
    /// for ``view`` and ``undo_edit``, and for a call that will fail.
    #[getter]
    fn preview<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        self.inner
            .with(|state| {
                if state.preview.is_none() {
                    state.preview = state
                        .stream
                        .preview()
                        .map(|text| PyString::new(py, text).unbind());
                }
                state.preview.as_ref().map(|text| text.bind(py).clone())
            })
            .map_err(|e| to_py_err(py, &e))
    }

    /// The ``command`` argument (an ``apply_patch`` operation's ``type``), once its value is
    /// complete (else None).
    #[getter]
    fn command(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.inner
            .with(|state| state.stream.command().map(str::to_owned))
            .map_err(|e| to_py_err(py, &e))
    }

    /// The ``path`` argument (an ``apply_patch`` operation's ``path``; for a ``*** Begin
    /// Patch`` envelope, the file the preview shows now), once its value is complete (else
    /// None).
    #[getter]
    fn path(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.inner
            .with(|state| state.stream.path().map(str::to_owned))
            .map_err(|e| to_py_err(py, &e))
    }

    /// Run the call: what ``call(json.loads(all_pieces))`` returns; text that is not a complete
    /// JSON object is an error result with code ``invalid_arguments``.
    fn finish(&self, py: Python<'_>) -> PyResult<PyToolResult> {
        let result = self
            .inner
            .finish(|state| {
                self.host
                    .with(|host| py.detach(|| state.stream.finish(host)))
            })
            .and_then(|result| result)
            .map_err(|e| to_py_err(py, &e))?;
        Ok(PyToolResult::new(py, result))
    }

    fn __repr__(&self) -> String {
        let state = match self.inner.phase() {
            Phase::Ready => "",
            Phase::Busy => " <busy>",
            Phase::Finished => " <finished>",
            Phase::Retired => " <stopped>",
        };
        format!("<EditStream{state}>")
    }
}

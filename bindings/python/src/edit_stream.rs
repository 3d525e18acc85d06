//! `EditStream`: a tool call applied while its argument JSON streams in, as a Python object made
//! by `TextEditor.stream()` or `Toolset.stream(name)`.
//!
//! The core stream lives in a [`Handle`] (pushing from two threads at once is
//! `ConcurrentUseError`, a call after `finish()` `AlreadyFinishedError`); each call reaches the
//! editor that made it through that editor's [`Shared`](hunkloom_handle::Shared). The GIL is
//! released only for the pushes that read the file or plan the call.

use hunkloom::Update;
use hunkloom_handle::{Handle, Phase};
use hunkloom_tools::{EditStream, TextEditor, ToolResult, ToolStream, Toolset};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::to_py_err;
use crate::text::Text;
use crate::text_editor::{PyTextEditor, PyToolResult};
use crate::toolset::PyToolset;
use crate::types::PyUpdate;

/// One tool call applied while its arguments stream in: ``push`` each piece of the argument
/// JSON as the model API delivers it, read ``preview``, then ``finish``.
#[pyclass(module = "hunkloom", name = "EditStream")]
pub struct PyEditStream {
    owner: Owner,
    inner: Handle<Streaming>,
}

/// The object that made the stream, which answers its call.
enum Owner {
    Editor(Py<PyTextEditor>),
    Toolset(Py<PyToolset>),
}

/// The core stream of either kind.
enum Core {
    Edit(EditStream),
    Tool(ToolStream),
}

/// The core stream and its preview as a Python `str` once read.
struct Streaming {
    stream: Core,
    preview: Option<Py<PyString>>,
}

/// What the stream's owner lends a call: the editor or the toolset.
#[derive(Clone, Copy)]
enum Lent<'a> {
    Editor(&'a TextEditor),
    Toolset(&'a Toolset),
}

impl Core {
    fn push_may_read(&self, piece: &str) -> bool {
        match self {
            Core::Edit(s) => s.push_may_read(piece),
            Core::Tool(s) => s.push_may_read(piece),
        }
    }

    fn push(&mut self, lent: Lent<'_>, piece: &str) -> Update<'static> {
        match (self, lent) {
            (Core::Edit(s), Lent::Editor(ed)) => s.push(ed, piece).into_owned(),
            (Core::Tool(s), Lent::Toolset(ts)) => s.push(ts, piece).into_owned(),
            _ => unreachable!("a stream is always lent its own owner"),
        }
    }

    fn preview(&mut self) -> Option<&str> {
        match self {
            Core::Edit(s) => s.preview(),
            Core::Tool(s) => s.preview(),
        }
    }

    fn command(&self) -> Option<&str> {
        match self {
            Core::Edit(s) => s.command(),
            Core::Tool(s) => s.command(),
        }
    }

    fn path(&self) -> Option<&str> {
        match self {
            Core::Edit(s) => s.path(),
            Core::Tool(s) => s.path(),
        }
    }

    fn finish(self, lent: Lent<'_>) -> ToolResult {
        match (self, lent) {
            (Core::Edit(s), Lent::Editor(ed)) => s.finish(ed),
            (Core::Tool(s), Lent::Toolset(ts)) => s.finish(ts),
            _ => unreachable!("a stream is always lent its own owner"),
        }
    }
}

impl PyEditStream {
    fn new(owner: Owner, stream: Core) -> Self {
        PyEditStream {
            owner,
            inner: Handle::new(
                "edit stream",
                Streaming {
                    stream,
                    preview: None,
                },
            ),
        }
    }

    /// A stream of a text-editor call.
    pub(crate) fn of_editor(editor: Py<PyTextEditor>) -> Self {
        Self::new(Owner::Editor(editor), Core::Edit(EditStream::default()))
    }

    /// A stream of a call of `toolset`'s tool (`stream` made by its core toolset).
    pub(crate) fn of_toolset(toolset: Py<PyToolset>, stream: ToolStream) -> Self {
        Self::new(Owner::Toolset(toolset), Core::Tool(stream))
    }

    /// Runs `call` with the owner lent (its lifecycle errors as the core's).
    fn lend<R>(&self, call: impl FnOnce(Lent<'_>) -> R) -> Result<R, hunkloom::Error> {
        match &self.owner {
            Owner::Editor(editor) => editor.get().with_editor(|ed| call(Lent::Editor(ed))),
            Owner::Toolset(toolset) => toolset.get().with_toolset(|ts| call(Lent::Toolset(ts))),
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
                let update = self.lend(|lent| {
                    if state.stream.push_may_read(&piece) {
                        let stream = &mut state.stream;
                        py.detach(|| stream.push(lent, &piece))
                    } else {
                        state.stream.push(lent, &piece)
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

    /// The ``command`` argument, once its value is complete (else None).
    #[getter]
    fn command(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.inner
            .with(|state| state.stream.command().map(str::to_owned))
            .map_err(|e| to_py_err(py, &e))
    }

    /// The ``path`` argument, once its value is complete (else None).
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
            .finish(|state| self.lend(|lent| py.detach(|| state.stream.finish(lent))))
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

//! `StreamingApplier`: the core's stateful applier as a Python object.
//!
//! The core applier lives in a [`Handle`] (the lifecycle every binding shares), so the GIL can
//! be released while it works: a second thread calling in meanwhile gets `ConcurrentUseError`,
//! a call after `finish()` `AlreadyFinishedError`, and a bug inside the engine `InternalError`
//! (the applier is retired).
//!
//! Next to the core applier the handle keeps the `str` last made from its preview, so reading
//! `preview` again before the next push that changes it costs no conversion.

use hunkloom::{ApplierOptions, Dialect, StreamingApplier};
use hunkloom_handle::{Handle, Phase};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{exception, to_py_err};
use crate::gil;
use crate::text::Text;
use crate::types::{PyOutcome, PyUpdate};

/// Apply a diff while it streams in: `push` pieces of any size, read `preview`, then `finish`.
#[pyclass(module = "hunkloom", name = "StreamingApplier")]
pub struct PyStreamingApplier {
    inner: Handle<Streaming>,
    dialect: Dialect,
}

/// What the handle holds: the core applier, and its preview as a Python `str` once read.
struct Streaming {
    applier: StreamingApplier,
    /// The preview converted by the last read; dropped by a push that changes the preview.
    preview: Option<Py<PyString>>,
}

impl PyStreamingApplier {
    /// Runs `call` on the running applier; its lifecycle errors become exceptions.
    fn with<R>(
        &self,
        py: Python<'_>,
        call: impl FnOnce(&mut Streaming) -> PyResult<R>,
    ) -> PyResult<R> {
        self.inner.with(call).map_err(|e| to_py_err(py, &e))?
    }
}

#[pymethods]
impl PyStreamingApplier {
    #[new]
    #[pyo3(signature = (
        original, *, dialect = None, policy = None, fuzzy_threshold = None, buffer_lines = None,
        recount = false
    ))]
    fn new(
        py: Python<'_>,
        original: Text,
        dialect: Option<&str>,
        policy: Option<&str>,
        fuzzy_threshold: Option<f64>,
        buffer_lines: Option<usize>,
        recount: bool,
    ) -> PyResult<Self> {
        let options = ApplierOptions::from_names(dialect, policy, fuzzy_threshold, buffer_lines)
            .map_err(|e| to_py_err(py, &e))?
            .recount(recount);
        let dialect = options.streaming_dialect();
        let applier = gil::run(py, original.len(), || {
            StreamingApplier::new(&*original, options)
        });
        Ok(PyStreamingApplier {
            inner: Handle::new(
                "applier",
                Streaming {
                    applier,
                    preview: None,
                },
            ),
            dialect,
        })
    }

    /// Feed the next piece of the diff; returns the splice it made to the preview.
    fn push(&self, py: Python<'_>, chunk: Text) -> PyResult<PyUpdate> {
        self.with(py, |state| {
            let applier = &mut state.applier;
            let size = chunk.len() + applier.original().len();
            let update = gil::run(py, size, || applier.push(&chunk).into_owned());
            if !update.is_noop() {
                state.preview = None;
            }
            PyUpdate::new(py, &update)
        })
    }

    /// What the file looks like so far: the same `str` object until a push changes it.
    #[getter]
    fn preview<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        self.with(py, |state| {
            let applier = &state.applier;
            // One copy, straight into the Python string, on the first read after a change.
            let text = state
                .preview
                .get_or_insert_with(|| PyString::new(py, applier.preview()).unbind());
            Ok(text.bind(py).clone())
        })
    }

    /// The error the diff so far causes (it may still be withdrawn while its line is
    /// incomplete), or None.
    #[getter]
    fn error<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.with(py, |state| match state.applier.error() {
            Some(error) => exception(py, error).map(Some),
            None => Ok(None),
        })
    }

    /// Cline's `matchIndices` for the diff so far, as `str` indices into the original.
    #[getter]
    fn match_indices(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
        self.with(py, |state| {
            Ok(state
                .applier
                .match_indices()
                .iter()
                .map(|p| p.chars)
                .collect())
        })
    }

    /// How many blocks have completed so far.
    #[getter]
    fn blocks_completed(&self, py: Python<'_>) -> PyResult<usize> {
        self.with(py, |state| Ok(state.applier.blocks_completed()))
    }

    /// The dialect name, e.g. `"cline-v1"`.
    #[getter]
    fn dialect(&self) -> &'static str {
        self.dialect.as_str()
    }

    /// Whether `finish()` has been called.
    #[getter]
    fn finished(&self) -> bool {
        matches!(self.inner.phase(), Phase::Finished | Phase::Retired)
    }

    /// End the stream: the final content and a report per block, or the diff's error.
    /// The applier cannot be used afterwards.
    fn finish(&self, py: Python<'_>) -> PyResult<PyOutcome> {
        let outcome = self
            .inner
            .finish(|state| {
                let Streaming { applier, preview } = state;
                // Released here, with the GIL held.
                drop(preview);
                let size = applier.original().len();
                gil::run(py, size, move || applier.finish())
            })
            .and_then(|outcome| outcome)
            .map_err(|e| to_py_err(py, &e))?;
        PyOutcome::new(py, &outcome)
    }

    /// Makes the next call on this applier panic inside the engine (tests only: built with
    /// the `fault-injection` feature).
    #[cfg(feature = "fault-injection")]
    fn _inject_panic(&self) {
        self.inner.inject_panic();
    }

    fn __repr__(&self) -> String {
        let state = match self.inner.phase() {
            Phase::Ready => self
                .inner
                .with(|Streaming { applier, .. }| {
                    format!(
                        "blocks_completed={}, preview=<{} chars>, error={}",
                        applier.blocks_completed(),
                        applier.preview_len().chars,
                        applier.error().map_or("None", |e| e.code())
                    )
                })
                .unwrap_or_else(|_| "busy".to_owned()),
            Phase::Busy => "busy".to_owned(),
            Phase::Finished => "finished".to_owned(),
            Phase::Retired => "stopped by an internal error".to_owned(),
        };
        format!(
            "StreamingApplier(dialect='{}', {state})",
            self.dialect.as_str()
        )
    }
}

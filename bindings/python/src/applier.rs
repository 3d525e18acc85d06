//! `StreamingApplier`: the core's stateful applier as a Python object.
//!
//! The core applier lives behind a mutex so the GIL can be released while it works; a second
//! thread calling in meanwhile gets `ConcurrentUseError` instead of waiting or racing. After
//! `finish()` the slot is empty and every call raises `AlreadyFinishedError`.

use std::sync::{Mutex, MutexGuard, TryLockError};

use hunkloom::{ApplierOptions, Dialect, Error, ErrorKind, Policy, StreamingApplier};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::PyString;

use crate::errors::{exception, to_py_err};
use crate::gil;
use crate::types::{PyOutcome, PyUpdate};

/// Apply a diff while it streams in: `push` pieces of any size, read `preview`, then `finish`.
#[pyclass(module = "hunkloom", name = "StreamingApplier")]
pub struct PyStreamingApplier {
    inner: Mutex<Option<StreamingApplier>>,
    dialect: Dialect,
}

impl PyStreamingApplier {
    /// The core applier, or the error for a busy or finished one.
    fn lock(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Option<StreamingApplier>>> {
        match self.inner.try_lock() {
            Ok(guard) => Ok(guard),
            // A panic inside the core (a bug) poisoned the lock mid-push: the applier may be
            // half-updated, so it is retired and every later call says so.
            Err(TryLockError::Poisoned(poisoned)) => {
                *poisoned.into_inner() = None;
                self.inner.clear_poison();
                Err(to_py_err(py, &stopped_by_a_bug()))
            }
            Err(TryLockError::WouldBlock) => Err(to_py_err(py, &Error::concurrent_use())),
        }
    }
}

/// The error for an applier retired after a panic inside the engine.
fn stopped_by_a_bug() -> Error {
    Error::with_message(
        ErrorKind::AlreadyFinished,
        "this applier stopped after an internal error (a bug in hunkloom; please report it); \
         create a new one",
    )
}

/// The running applier in a guard, or `AlreadyFinishedError`.
fn running<'g>(
    py: Python<'_>,
    guard: &'g mut MutexGuard<'_, Option<StreamingApplier>>,
) -> PyResult<&'g mut StreamingApplier> {
    guard
        .as_mut()
        .ok_or_else(|| to_py_err(py, &Error::already_finished()))
}

#[pymethods]
impl PyStreamingApplier {
    #[new]
    #[pyo3(signature = (original, *, dialect = "cline-v1", policy = "all_or_nothing"))]
    fn new(py: Python<'_>, original: PyBackedStr, dialect: &str, policy: &str) -> PyResult<Self> {
        let dialect: Dialect = dialect.parse().map_err(|e| to_py_err(py, &e))?;
        let policy: Policy = policy.parse().map_err(|e| to_py_err(py, &e))?;
        let options = ApplierOptions::new().dialect(dialect).policy(policy);
        let applier = gil::run(py, original.len(), || {
            StreamingApplier::new(&*original, options)
        });
        Ok(PyStreamingApplier {
            inner: Mutex::new(Some(applier)),
            dialect,
        })
    }

    /// Feed the next piece of the diff; returns the splice it made to the preview.
    fn push(&self, py: Python<'_>, chunk: &str) -> PyResult<PyUpdate> {
        let mut guard = self.lock(py)?;
        let applier = running(py, &mut guard)?;
        let size = chunk.len() + applier.original().len();
        let update = gil::run(py, size, || applier.push(chunk).into_owned());
        PyUpdate::new(py, &update)
    }

    /// What the file looks like so far (a new `str` each time; `Update` is the cheap route).
    #[getter]
    fn preview<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        let mut guard = self.lock(py)?;
        // One copy, straight into the Python string.
        Ok(PyString::new(py, running(py, &mut guard)?.preview()))
    }

    /// The error the diff so far causes (it may still be withdrawn while its line is
    /// incomplete), or None.
    #[getter]
    fn error<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let mut guard = self.lock(py)?;
        match running(py, &mut guard)?.error() {
            Some(error) => exception(py, error).map(Some),
            None => Ok(None),
        }
    }

    /// Cline's `matchIndices` for the diff so far, as `str` indices into the original.
    #[getter]
    fn match_indices(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
        let mut guard = self.lock(py)?;
        let positions = running(py, &mut guard)?.match_indices();
        Ok(positions.iter().map(|p| p.chars).collect())
    }

    /// How many blocks have completed so far.
    #[getter]
    fn blocks_completed(&self, py: Python<'_>) -> PyResult<usize> {
        let mut guard = self.lock(py)?;
        Ok(running(py, &mut guard)?.blocks_completed())
    }

    /// The dialect name, e.g. `"cline-v1"`.
    #[getter]
    fn dialect(&self) -> &'static str {
        self.dialect.as_str()
    }

    /// Whether `finish()` has been called.
    #[getter]
    fn finished(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.lock(py)?.is_none())
    }

    /// End the stream: the final content and a report per block, or the diff's error.
    /// The applier cannot be used afterwards.
    fn finish(&self, py: Python<'_>) -> PyResult<PyOutcome> {
        let applier = self
            .lock(py)?
            .take()
            .ok_or_else(|| to_py_err(py, &Error::already_finished()))?;
        let size = applier.original().len();
        let outcome =
            gil::run(py, size, move || applier.finish()).map_err(|e| to_py_err(py, &e))?;
        PyOutcome::new(py, &outcome)
    }

    fn __repr__(&self) -> String {
        let state = match self.inner.try_lock() {
            Ok(guard) => match guard.as_ref() {
                Some(applier) => format!(
                    "blocks_completed={}, preview=<{} chars>, error={}",
                    applier.blocks_completed(),
                    applier.preview_len().chars,
                    applier.error().map_or("None", |e| e.code())
                ),
                None => "finished".to_owned(),
            },
            Err(_) => "busy".to_owned(),
        };
        format!(
            "StreamingApplier(dialect='{}', {state})",
            self.dialect.as_str()
        )
    }
}

//! `AiderApplier`: the core's streaming aider-reply applier as a Python object, in a
//! [`Handle`] like `StreamingApplier` (concurrent use, use after `finish` and engine bugs are
//! exceptions).

use std::collections::{BTreeMap, HashMap};

use hunkloom::Policy;
use hunkloom::patch::aider::AiderApplier;
use hunkloom::patch::{PatchDialect, PatchOptions};
use hunkloom_handle::{Handle, Phase};
use pyo3::prelude::*;

use crate::errors::to_py_err;
use crate::gil;
use crate::patch::PyPatchResult;
use crate::text::Text;

/// Apply a model's reply in one of aider's edit formats while it streams: `push` pieces of
/// any size (each returns the paths whose preview changed), read `preview(path)`, then
/// `finish()` for the same result as `apply_patch(reply, files, dialect=...)`.
#[pyclass(module = "hunkloom", name = "AiderApplier")]
pub struct PyAiderApplier {
    inner: Handle<AiderApplier>,
    dialect: PatchDialect,
    /// The chat files as given, for the result of `finish`.
    files: BTreeMap<String, String>,
}

#[pymethods]
impl PyAiderApplier {
    #[new]
    #[pyo3(signature = (files, *, dialect = "aider", policy = "all_or_nothing"))]
    fn new(
        py: Python<'_>,
        files: HashMap<Text, Text>,
        dialect: &str,
        policy: &str,
    ) -> PyResult<Self> {
        let dialect: PatchDialect = dialect.parse().map_err(|e| to_py_err(py, &e))?;
        let policy: Policy = policy.parse().map_err(|e| to_py_err(py, &e))?;
        let files: BTreeMap<String, String> = files
            .into_iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect();
        let options = PatchOptions::new().dialect(dialect).policy(policy);
        let size = files.values().map(String::len).sum::<usize>();
        let applier = gil::run(py, size, || AiderApplier::new(files.clone(), &options))
            .map_err(|e| to_py_err(py, &e))?;
        Ok(PyAiderApplier {
            inner: Handle::new("applier", applier),
            dialect,
            files,
        })
    }

    /// Feed the next piece of the reply; returns the paths whose preview changed.
    fn push(&self, py: Python<'_>, chunk: Text) -> PyResult<Vec<String>> {
        self.inner
            .with(|applier| gil::run(py, chunk.len(), || applier.push(&chunk)))
            .map_err(|e| to_py_err(py, &e))?
            .map_err(|e| to_py_err(py, &e))
    }

    /// A file as the reply so far leaves it (a chat file's own text until a block changes it),
    /// or None for a path the reply has not written and that is not a chat file.
    fn preview(&self, py: Python<'_>, path: Text) -> PyResult<Option<String>> {
        self.inner
            .with(|applier| applier.preview(&path).map(str::to_owned))
            .map_err(|e| to_py_err(py, &e))
    }

    /// The paths the reply has written so far, in the order first written.
    #[getter]
    fn touched(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.inner
            .with(|applier| applier.touched().to_vec())
            .map_err(|e| to_py_err(py, &e))
    }

    /// The dialect name, e.g. `"aider"`.
    #[getter]
    fn dialect(&self) -> &'static str {
        self.dialect.as_str()
    }

    /// Whether `finish()` has been called.
    #[getter]
    fn finished(&self) -> bool {
        matches!(self.inner.phase(), Phase::Finished | Phase::Retired)
    }

    /// End the stream: the files after the whole reply (as `apply_patch` gives them), or its
    /// error. The applier cannot be used afterwards.
    fn finish(&self, py: Python<'_>) -> PyResult<PyPatchResult> {
        let plan = self
            .inner
            .finish(|mut applier| gil::run(py, 0, move || applier.finish()))
            .and_then(|plan| plan)
            .map_err(|e| to_py_err(py, &e))?;
        let mut files = self.files.clone();
        let deleted = plan.apply_to(&mut files);
        PyPatchResult::new(py, &plan, files, deleted)
    }

    /// Makes the next call on this applier panic inside the engine (tests only: built with
    /// the `fault-injection` feature).
    #[cfg(feature = "fault-injection")]
    fn _inject_panic(&self) {
        self.inner.inject_panic();
    }

    fn __repr__(&self) -> String {
        format!(
            "AiderApplier(dialect={:?}, {} chat files)",
            self.dialect.as_str(),
            self.files.len()
        )
    }
}

//! `apply_v4a`: a V4A per-file body (OpenAI's Responses-API `apply_patch` tool) applied as the
//! OpenAI Agents SDK's `apply_diff` applies it; `NativeBodyApplier`: the same body read the
//! native way while it streams, with a `PatchChunk` report per placed section.

use hunkloom::patch::native::{ChunkReport, NativeBodyApplier};
use hunkloom::patch::v4a::{self, V4aMode};
use hunkloom_handle::{Handle, Phase};
use pyo3::prelude::*;

use crate::errors::to_py_err;
use crate::gil;
use crate::text::Text;

/// Apply a V4A body (`diff`) to `input` exactly as the OpenAI Agents SDK's
/// `apply_diff(input, diff, mode)` does; returns the new text, or raises a `HunkloomError`
/// whose message is the reference's `ValueError` text.
#[pyfunction]
#[pyo3(signature = (input, diff, mode = "default"))]
pub(crate) fn apply_v4a(py: Python<'_>, input: Text, diff: Text, mode: &str) -> PyResult<String> {
    let mode: V4aMode = mode.parse().map_err(|e| to_py_err(py, &e))?;
    gil::run(py, input.len() + diff.len(), || {
        v4a::apply_v4a(&input, &diff, mode)
    })
    .map_err(|e| to_py_err(py, &e))
}

/// How one section of a patch body was placed by the native reading (see
/// `hunkloom::patch::native::ChunkReport`).
#[pyclass(module = "hunkloom", name = "PatchChunk", frozen, get_all)]
pub struct PyPatchChunk {
    /// Its 1-based index in the body.
    index: usize,
    /// The 1-based line of the file where its lines start.
    line: usize,
    /// How many lines of the file it covers (context and removed).
    context_lines: usize,
    /// How many lines it removes.
    removed: usize,
    /// How many lines it adds.
    added: usize,
    /// The tier that placed it (`"exact"`, `"indentation"`, ...).
    strategy: &'static str,
    /// Every kind of difference the match tolerated.
    normalizations: Vec<&'static str>,
    /// How many places the deciding tier found.
    candidates: usize,
    /// What chose among several places (`"anchor"`, `"end_of_file"`), or None.
    chosen_by: Option<&'static str>,
    /// Its new lines were already there: nothing changed.
    already_applied: bool,
    /// The columns its `+` lines were re-indented by.
    indent_delta: isize,
}

impl PyPatchChunk {
    fn of(c: &ChunkReport) -> Self {
        PyPatchChunk {
            index: c.index,
            line: c.line,
            context_lines: c.context_lines,
            removed: c.removed,
            added: c.added,
            strategy: c.strategy.as_str(),
            normalizations: c.normalizations.iter().map(|n| n.as_str()).collect(),
            candidates: c.candidates,
            chosen_by: c.chosen_by.map(|b| b.as_str()),
            already_applied: c.already_applied,
            indent_delta: c.indent_delta,
        }
    }
}

#[pymethods]
impl PyPatchChunk {
    fn __repr__(&self) -> String {
        format!(
            "PatchChunk(index={}, line={}, strategy={:?})",
            self.index, self.line, self.strategy
        )
    }
}

/// Apply one V4A body the native way while it streams: `push` pieces of any size (each
/// returns the chunks placed so far), read `preview`, then `finish()` for the new text — the
/// same as `apply_patch(body, {path: input}, path=path, dialect="native")` gives that file.
#[pyclass(module = "hunkloom", name = "NativeBodyApplier")]
pub struct PyNativeBodyApplier {
    inner: Handle<NativeBodyApplier<'static>>,
}

#[pymethods]
impl PyNativeBodyApplier {
    #[new]
    #[pyo3(signature = (input, mode = "default"))]
    fn new(py: Python<'_>, input: Text, mode: &str) -> PyResult<Self> {
        let mode: V4aMode = mode.parse().map_err(|e| to_py_err(py, &e))?;
        let applier = NativeBodyApplier::new(input.to_string(), mode);
        Ok(PyNativeBodyApplier {
            inner: Handle::new("applier", applier),
        })
    }

    /// Feed the next piece of the body; the chunks placed so far.
    fn push(&self, py: Python<'_>, chunk: Text) -> PyResult<Vec<PyPatchChunk>> {
        self.inner
            .with(|applier| {
                gil::run(py, chunk.len(), || {
                    applier
                        .push(&chunk)
                        .map(|chunks| chunks.iter().map(PyPatchChunk::of).collect())
                })
            })
            .map_err(|e| to_py_err(py, &e))?
            .map_err(|e| to_py_err(py, &e))
    }

    /// The file with the chunks placed so far applied.
    #[getter]
    fn preview(&self, py: Python<'_>) -> PyResult<String> {
        self.inner
            .with(|applier| applier.preview())
            .map_err(|e| to_py_err(py, &e))
    }

    /// Whether `finish()` has been called.
    #[getter]
    fn finished(&self) -> bool {
        matches!(self.inner.phase(), Phase::Finished | Phase::Retired)
    }

    /// End the body: `(new_text, chunks)`, or its error. The applier cannot be used after.
    fn finish(&self, py: Python<'_>) -> PyResult<(String, Vec<PyPatchChunk>)> {
        let outcome = self
            .inner
            .finish(|mut applier| gil::run(py, 0, move || applier.finish()))
            .and_then(|outcome| outcome)
            .map_err(|e| to_py_err(py, &e))?;
        let chunks = outcome.chunks.iter().map(PyPatchChunk::of).collect();
        Ok((outcome.new_content, chunks))
    }

    /// Makes the next call on this applier panic inside the engine (tests only: built with
    /// the `fault-injection` feature).
    #[cfg(feature = "fault-injection")]
    fn _inject_panic(&self) {
        self.inner.inject_panic();
    }

    fn __repr__(&self) -> String {
        "NativeBodyApplier()".to_owned()
    }
}

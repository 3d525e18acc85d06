//! The result objects handed to Python: immutable, with positions as Python `str` indices.
//!
//! Large texts are converted to a Python `str` once: when the object is built, or for the file
//! texts of a tool result or an edit outcome (which a caller often never reads) on first
//! access ([`LazyText`]); reading `.new_content` again costs nothing either way.

use hunkloom::cline::{CacheStats, ResumedContent};
use hunkloom::{BlockReport, Outcome, Position, Update};
use hunkloom_tools::ToolResult;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::errors::exception;
use pyo3::types::{PySlice, PyString};

/// A list of plain names as Python prints it: `['a', 'b']`.
pub(crate) fn names_repr(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    format!("[{}]", quoted.join(", "))
}

/// Python `str` indices (code points) of positions.
fn str_indices(positions: &[Position]) -> Vec<usize> {
    positions.iter().map(|p| p.chars).collect()
}

/// 1-based line numbers of positions.
fn lines(positions: &[Position]) -> Vec<usize> {
    positions.iter().map(|p| p.line).collect()
}

/// The result of `construct_new_file_content`.
#[pyclass(module = "hunkloom", name = "NewFileContent", frozen, get_all)]
pub struct PyNewFileContent {
    /// The new file content.
    new_content: Py<PyString>,
    /// Cline's `matchIndices` as `str` indices into the original.
    match_indices: Vec<usize>,
    /// The 1-based line of each match index.
    match_lines: Vec<usize>,
}

impl PyNewFileContent {
    pub(crate) fn new(py: Python<'_>, result: &ResumedContent) -> Self {
        PyNewFileContent {
            new_content: PyString::new(py, &result.new_content).unbind(),
            match_indices: str_indices(&result.match_indices),
            match_lines: lines(&result.match_indices),
        }
    }
}

#[pymethods]
impl PyNewFileContent {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "NewFileContent(new_content=<{} chars>, match_indices={:?})",
            self.new_content.bind(py).len()?,
            self.match_indices
        ))
    }
}

/// The counters of the resume cache behind `construct_new_file_content`.
#[pyclass(module = "hunkloom", name = "ResumeCacheStats", frozen, get_all, eq)]
#[derive(PartialEq, Eq)]
pub struct PyResumeCacheStats {
    /// Calls that resumed a kept stream (pushed only the diff's new suffix).
    hits: u64,
    /// Calls computed from scratch.
    misses: u64,
    /// Streams kept now.
    entries: usize,
    /// The most streams kept at once (0: the cache is off).
    capacity: usize,
}

impl PyResumeCacheStats {
    pub(crate) fn new(stats: CacheStats, entries: usize, capacity: usize) -> Self {
        PyResumeCacheStats {
            hits: stats.hits,
            misses: stats.misses,
            entries,
            capacity,
        }
    }
}

#[pymethods]
impl PyResumeCacheStats {
    fn __repr__(&self) -> String {
        format!(
            "ResumeCacheStats(hits={}, misses={}, entries={}, capacity={})",
            self.hits, self.misses, self.entries, self.capacity
        )
    }
}

/// What happened to one SEARCH/REPLACE block.
#[pyclass(module = "hunkloom", name = "BlockReport", frozen, get_all)]
pub struct PyBlockReport {
    /// The block's number among completed blocks, from 0.
    index: usize,
    /// `"applied"` or `"failed"`.
    status: &'static str,
    /// How the SEARCH text was located, e.g. `"exact"`, `"indentation"`, `"unmatched"`.
    strategy: &'static str,
    /// `str` index in the original where the matched text starts.
    start: usize,
    /// `str` index in the original where the matched text ends.
    end: usize,
    /// 1-based line where the matched text starts.
    start_line: usize,
    /// 1-based line the matched text ends on.
    end_line: usize,
    /// How many places the deciding tier found (`native`).
    candidates: usize,
    /// The indentation change from the SEARCH text to the file, in columns (`native`).
    indent_delta: isize,
    /// Whether the replacement was shifted by `indent_delta` (`native`).
    reindented: bool,
    /// The differences the match tolerated (`native`), e.g. `"trailing_whitespace"`.
    normalizations: Vec<&'static str>,
    /// Why the block failed (a `HunkloomError`), or None.
    error: Option<Py<PyAny>>,
}

impl PyBlockReport {
    fn new(py: Python<'_>, report: &BlockReport) -> PyResult<Self> {
        let error = match &report.error {
            Some(e) => Some(exception(py, e)?.unbind()),
            None => None,
        };
        Ok(PyBlockReport {
            index: report.index,
            status: report.status.as_str(),
            strategy: report.strategy.as_str(),
            start: report.start.chars,
            end: report.end.chars,
            start_line: report.start.line,
            end_line: report.end_line,
            candidates: report.candidates,
            indent_delta: report.indent_delta,
            reindented: report.reindented,
            normalizations: report.normalizations.iter().map(|n| n.as_str()).collect(),
            error,
        })
    }

    fn list(py: Python<'_>, reports: &[BlockReport]) -> PyResult<Vec<Py<PyBlockReport>>> {
        reports
            .iter()
            .map(|r| Py::new(py, PyBlockReport::new(py, r)?))
            .collect()
    }
}

#[pymethods]
impl PyBlockReport {
    fn __repr__(&self) -> String {
        format!(
            "BlockReport(index={}, status='{}', strategy='{}', start={}, end={}, start_line={}, end_line={}, candidates={}, normalizations={})",
            self.index,
            self.status,
            self.strategy,
            self.start,
            self.end,
            self.start_line,
            self.end_line,
            self.candidates,
            names_repr(&self.normalizations)
        )
    }
}

/// One splice of the preview: at `start`, remove `removed` characters and insert `inserted`.
#[pyclass(module = "hunkloom", name = "Update", frozen, get_all)]
pub struct PyUpdate {
    /// `str` index in the previous preview where the splice starts.
    start: usize,
    /// How many characters of the previous preview the splice removes.
    removed: usize,
    /// The text the splice inserts.
    inserted: Py<PyString>,
    /// How many blocks have completed so far.
    blocks_completed: usize,
    /// Reports of the blocks this push completed.
    completed: Vec<Py<PyBlockReport>>,
}

impl PyUpdate {
    pub(crate) fn new(py: Python<'_>, update: &Update<'_>) -> PyResult<Self> {
        Ok(PyUpdate {
            start: update.start.chars,
            removed: update.removed.chars,
            inserted: PyString::new(py, &update.inserted).unbind(),
            blocks_completed: update.blocks_completed,
            completed: PyBlockReport::list(py, &update.completed)?,
        })
    }
}

#[pymethods]
impl PyUpdate {
    /// Apply this splice to a text equal to the previous preview and return the new preview.
    fn apply_to(&self, py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<Py<PyAny>> {
        let len = text.len()?;
        let end = self.start + self.removed;
        if end > len {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "the text has {len} characters; this update splices up to index {end}"
            )));
        }
        // Slicing and concatenating as Python strings keeps the work in `str` units.
        let head = text.get_item(PySlice::new(py, 0, self.start as isize, 1))?;
        let tail = text.get_item(PySlice::new(py, end as isize, len as isize, 1))?;
        let joined = head.add(self.inserted.bind(py))?.add(tail)?;
        Ok(joined.unbind())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Update(start={}, removed={}, inserted={}, blocks_completed={})",
            self.start,
            self.removed,
            self.inserted.bind(py).repr()?,
            self.blocks_completed
        ))
    }
}

/// The result of a finished stream.
#[pyclass(module = "hunkloom", name = "Outcome", frozen, get_all)]
pub struct PyOutcome {
    /// The new file content.
    new_content: Py<PyString>,
    /// Cline's `matchIndices` as `str` indices into the original.
    match_indices: Vec<usize>,
    /// The 1-based line of each match index.
    match_lines: Vec<usize>,
    /// One report per applied block, in completion order.
    blocks: Vec<Py<PyBlockReport>>,
}

impl PyOutcome {
    pub(crate) fn new(py: Python<'_>, outcome: &Outcome) -> PyResult<Self> {
        Ok(PyOutcome {
            new_content: PyString::new(py, &outcome.new_content).unbind(),
            match_indices: str_indices(&outcome.match_indices),
            match_lines: lines(&outcome.match_indices),
            blocks: PyBlockReport::list(py, &outcome.blocks)?,
        })
    }
}

#[pymethods]
impl PyOutcome {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Outcome(new_content=<{} chars>, match_indices={:?}, blocks=<{} blocks>)",
            self.new_content.bind(py).len()?,
            self.match_indices,
            self.blocks.len()
        ))
    }
}

/// A text kept as Rust's `String` until Python first reads it, then as that `str`: a whole
/// file's text in a result costs its conversion (a copy, and for a large file fresh memory)
/// only if the caller reads it.
pub(crate) struct LazyText {
    text: String,
    converted: PyOnceLock<Py<PyString>>,
}

impl LazyText {
    pub(crate) fn new(text: String) -> Self {
        LazyText {
            text,
            converted: PyOnceLock::new(),
        }
    }

    /// The text as a Python `str`, the same object on every call.
    pub(crate) fn get(&self, py: Python<'_>) -> Py<PyString> {
        self.converted
            .get_or_init(py, || PyString::new(py, &self.text).unbind())
            .clone_ref(py)
    }

    /// Its length in Python characters (code points).
    pub(crate) fn chars(&self) -> usize {
        self.text.chars().count()
    }
}

/// What one tool call gave back.
#[pyclass(module = "hunkloom", name = "ToolResult", frozen)]
pub struct PyToolResult {
    /// The exact text for the model.
    #[pyo3(get)]
    output: Py<PyString>,
    /// Whether the call failed (the tool's error result).
    #[pyo3(get)]
    is_error: bool,
    /// A stable snake_case code of the failure, `""` on success.
    #[pyo3(get)]
    code: String,
    /// The path the call was about, as the output shows it; None when the input had none.
    #[pyo3(get)]
    path: Option<String>,
    old_content: Option<LazyText>,
    new_content: Option<LazyText>,
}

impl PyToolResult {
    pub(crate) fn new(py: Python<'_>, result: ToolResult) -> Self {
        PyToolResult {
            output: PyString::new(py, &result.output).unbind(),
            is_error: result.is_error,
            code: result.code,
            path: result.path,
            old_content: result.old_content.map(LazyText::new),
            new_content: result.new_content.map(LazyText::new),
        }
    }
}

#[pymethods]
impl PyToolResult {
    /// For an edit that changed a file: its text before.
    #[getter]
    fn old_content(&self, py: Python<'_>) -> Option<Py<PyString>> {
        self.old_content.as_ref().map(|t| t.get(py))
    }

    /// For an edit that wrote a file: its text after.
    #[getter]
    fn new_content(&self, py: Python<'_>) -> Option<Py<PyString>> {
        self.new_content.as_ref().map(|t| t.get(py))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let size = |text: &Option<LazyText>| -> PyResult<String> {
            Ok(match text {
                Some(t) => format!("<{} chars>", t.chars()),
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

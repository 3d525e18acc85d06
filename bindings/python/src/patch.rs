//! `apply_patch`: a `*** Begin Patch` multi-file patch applied to files held in memory.

use std::collections::{BTreeMap, HashMap};

use hunkloom::Policy;
use hunkloom::patch::v4a::V4aMode;
use hunkloom::patch::{ChangeKind, PatchDialect, PatchOptions, Warning, plan_patch_or_body};
use pyo3::prelude::*;

use crate::errors::{exception, to_py_err};
use crate::gil;
use crate::text::Text;
use crate::types::names_repr;

/// A note about a patch change that did not stop it.
#[pyclass(module = "hunkloom", name = "PatchWarning", frozen, get_all)]
pub struct PyPatchWarning {
    /// The file concerned.
    path: String,
    /// The index of the chunk concerned, if one is.
    chunk_index: Option<usize>,
    /// What happened (Cline's exact text in the `cline` dialect).
    message: String,
    /// The chunk's context lines, if any.
    context: Option<String>,
}

impl PyPatchWarning {
    pub(crate) fn list(py: Python<'_>, warnings: &[Warning]) -> PyResult<Vec<Py<Self>>> {
        warnings.iter().map(|w| Py::new(py, Self::new(w))).collect()
    }

    fn new(warning: &Warning) -> Self {
        PyPatchWarning {
            path: warning.path.clone(),
            chunk_index: warning.chunk_index,
            message: warning.message.clone(),
            context: warning.context.clone(),
        }
    }
}

#[pymethods]
impl PyPatchWarning {
    fn __repr__(&self) -> String {
        format!(
            "PatchWarning(path={:?}, message={:?})",
            self.path, self.message
        )
    }
}

/// The files after a patch.
#[pyclass(module = "hunkloom", name = "PatchResult", frozen, get_all)]
pub struct PyPatchResult {
    /// Every file afterwards, by path (deleted files and moved-away paths left out).
    files: BTreeMap<String, String>,
    /// The paths the patch removed (deleted, or moved away from).
    deleted: Vec<String>,
    /// Notes about changes that did not stop the patch.
    warnings: Vec<Py<PyPatchWarning>>,
    /// How far the matching had to relax to place the chunks (0 = exactly).
    fuzz: u64,
    /// For each updated file, the 1-based line where each chunk applied.
    start_lines: BTreeMap<String, Vec<usize>>,
    /// With `policy="partial"`, the error that stopped the patch (the files hold what came
    /// before it); else None.
    failure: Option<Py<PyAny>>,
}

#[pymethods]
impl PyPatchResult {
    fn __repr__(&self) -> String {
        format!(
            "PatchResult(files=<{} files>, deleted={}, warnings=<{}>, fuzz={})",
            self.files.len(),
            names_repr(&self.deleted.iter().map(String::as_str).collect::<Vec<_>>()),
            self.warnings.len(),
            self.fuzz
        )
    }
}

/// Apply a multi-file patch to `files` (path → text) in memory, all or nothing by default; with
/// `path`, `patch` is a bare per-file body (a V4A body) for that one file, read as Codex reads
/// it inside `*** Begin Patch` / `*** Update File: path` (`mode="create"`: `*** Add File:`).
#[pyfunction]
#[pyo3(signature = (
    patch, files, *, dialect = "codex", policy = "all_or_nothing", path = None, mode = "default",
    recount = false
))]
// Each keyword argument of the Python function is a parameter here.
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_patch(
    py: Python<'_>,
    patch: Text,
    files: HashMap<Text, Text>,
    dialect: &str,
    policy: &str,
    path: Option<Text>,
    mode: &str,
    recount: bool,
) -> PyResult<PyPatchResult> {
    let dialect: PatchDialect = dialect.parse().map_err(|e| to_py_err(py, &e))?;
    let policy: Policy = policy.parse().map_err(|e| to_py_err(py, &e))?;
    let mode: V4aMode = mode.parse().map_err(|e| to_py_err(py, &e))?;
    let options = PatchOptions::new()
        .dialect(dialect)
        .policy(policy)
        .recount(recount);
    let mut files: BTreeMap<String, String> = files
        .into_iter()
        .map(|(name, text)| (name.to_string(), text.to_string()))
        .collect();
    let size = patch.len() + files.values().map(String::len).sum::<usize>();
    let (plan, deleted) = gil::run(py, size, || {
        plan_patch_or_body(&patch, path.as_deref(), mode, &files, &options).map(|plan| {
            let deleted = plan.apply_to(&mut files);
            (plan, deleted)
        })
    })
    .map_err(|e| to_py_err(py, &e))?;
    PyPatchResult::new(py, &plan, files, deleted)
}

impl PyPatchResult {
    /// The result of `plan`, applied: `files` every file afterwards, `deleted` the paths removed.
    pub(crate) fn new(
        py: Python<'_>,
        plan: &hunkloom::patch::Plan,
        files: BTreeMap<String, String>,
        deleted: Vec<String>,
    ) -> PyResult<PyPatchResult> {
        let start_lines = plan
            .changes
            .iter()
            .filter_map(|c| match &c.kind {
                ChangeKind::Update { start_lines, .. } => {
                    Some((c.path.clone(), start_lines.clone()))
                }
                _ => None,
            })
            .collect();
        let warnings = PyPatchWarning::list(py, &plan.warnings)?;
        let failure = match &plan.failure {
            Some(f) => Some(exception(py, &f.error)?.unbind()),
            None => None,
        };
        Ok(PyPatchResult {
            files,
            deleted,
            warnings,
            fuzz: plan.fuzz,
            start_lines,
            failure,
        })
    }
}

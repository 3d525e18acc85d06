//! `Workspace`: the file layer (`hunkloom_fs`) as a Python object.
//!
//! The workspace lives in a [`Shared`] and file I/O runs without the GIL, so threads call one
//! workspace at once: calls on different files run in parallel, calls editing the same file take
//! turns inside the file layer (and merge from the read each was based on). A bug inside the
//! engine is `InternalError` (the workspace is retired: files on disk are whole, since commits
//! are all or none, but its read records and undo history may not be).

use std::path::PathBuf;

use hunkloom::ops::{Convention, Guards};
use hunkloom::patch::{PatchDialect, PatchOptions};
use hunkloom::{ApplyOptions, Policy};
use hunkloom_fs::{
    EditOutcome, ExternalChange, PatchOutcome, PatchedFile, Report, Workspace, WorkspaceOptions,
};
use hunkloom_handle::{Phase, Shared};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{exception, to_py_err};
use crate::ops::PyEdit;
use crate::patch::PyPatchWarning;
use crate::text::Text;
use crate::types::LazyText;
use crate::types::PyOutcome;

/// What a committed file edit did.
#[pyclass(module = "hunkloom", name = "EditOutcome", frozen)]
pub struct PyEditOutcome {
    /// The file's path inside the workspace.
    #[pyo3(get)]
    path: PathBuf,
    /// `"create"`, `"update"`, `"delete"` or `"move"`.
    #[pyo3(get)]
    kind: &'static str,
    /// Whether the file's bytes changed.
    #[pyo3(get)]
    changed: bool,
    new_content: Option<LazyText>,
    /// The file's encoding: `"utf-8"`, `"utf-8-bom"`, `"utf-16le"`, `"utf-16be"`, or a legacy
    /// encoding's WHATWG name (`"windows-1251"`, `"Shift_JIS"`, …; Python's codecs accept it).
    #[pyo3(get)]
    encoding: &'static str,
    /// What the operation reported: an `Edit` (str_replace, insert), an `Outcome` (a diff),
    /// or None (a write, an undo, a patch).
    #[pyo3(get)]
    report: Option<Py<PyAny>>,
    /// For a file a patch moved, the path it came from as the patch names it; else None.
    #[pyo3(get)]
    moved_from: Option<String>,
    /// Where the file had changed on disk since it was read, when the edit was merged around
    /// those changes; empty when it was unchanged.
    #[pyo3(get)]
    external_changes: Vec<Py<PyExternalChange>>,
}

/// A region another writer changed after the file was read, around which an edit was merged.
/// Lines are 1-based; `count == 0` means lines were only removed (just before `start`),
/// `read_count == 0` that lines were only added.
#[pyclass(module = "hunkloom", name = "ExternalChange", frozen, get_all)]
pub struct PyExternalChange {
    /// The first line of the region in the file as written.
    start: usize,
    /// How many lines it holds in the file as written.
    count: usize,
    /// The first line it replaced in the text that was read.
    read_start: usize,
    /// How many lines of the text that was read it replaced.
    read_count: usize,
}

impl PyExternalChange {
    fn list(py: Python<'_>, changes: &[ExternalChange]) -> PyResult<Vec<Py<PyExternalChange>>> {
        changes
            .iter()
            .map(|c| {
                Py::new(
                    py,
                    PyExternalChange {
                        start: c.start,
                        count: c.count,
                        read_start: c.read_start,
                        read_count: c.read_count,
                    },
                )
            })
            .collect()
    }
}

#[pymethods]
impl PyExternalChange {
    fn __repr__(&self) -> String {
        format!(
            "ExternalChange(start={}, count={}, read_start={}, read_count={})",
            self.start, self.count, self.read_start, self.read_count
        )
    }
}

/// The report of an edit as a Python object.
fn report_object(py: Python<'_>, report: &Report) -> PyResult<Option<Py<PyAny>>> {
    Ok(match report {
        Report::Edit(edit) => Some(Py::new(py, PyEdit::new(py, edit))?.into_any()),
        Report::Diff(outcome) => Some(Py::new(py, PyOutcome::new(py, outcome)?)?.into_any()),
        _ => None,
    })
}

impl PyEditOutcome {
    fn from_patched(py: Python<'_>, file: PatchedFile) -> PyResult<Self> {
        Ok(PyEditOutcome {
            external_changes: PyExternalChange::list(py, &file.external_changes)?,
            report: None,
            moved_from: file.moved_from,
            path: file.resolved,
            kind: file.kind.as_str(),
            changed: file.changed,
            new_content: file.new_content.map(LazyText::new),
            encoding: file.encoding.as_str(),
        })
    }

    pub(crate) fn new(py: Python<'_>, outcome: EditOutcome) -> PyResult<Self> {
        Ok(PyEditOutcome {
            external_changes: PyExternalChange::list(py, &outcome.external_changes)?,
            report: report_object(py, &outcome.report)?,
            moved_from: None,
            path: outcome.path,
            kind: outcome.kind.as_str(),
            changed: outcome.changed,
            new_content: outcome.new_content.map(LazyText::new),
            encoding: outcome.encoding.as_str(),
        })
    }
}

#[pymethods]
impl PyEditOutcome {
    /// The file's new text (None after a delete).
    #[getter]
    fn new_content(&self, py: Python<'_>) -> Option<Py<PyString>> {
        self.new_content.as_ref().map(|t| t.get(py))
    }

    fn __repr__(&self) -> String {
        format!(
            "EditOutcome(path='{}', kind='{}', changed={}, encoding='{}')",
            self.path.display(),
            self.kind,
            if self.changed { "True" } else { "False" },
            self.encoding
        )
    }
}

/// What `Workspace.apply_patch` did.
#[pyclass(module = "hunkloom", name = "PatchOutcome", frozen, get_all)]
pub struct PyPatchOutcome {
    /// One outcome per file the patch changed, in patch order.
    files: Vec<Py<PyEditOutcome>>,
    /// Notes about changes that did not stop the patch.
    warnings: Vec<Py<PyPatchWarning>>,
    /// How far matching had to relax to place the chunks (0 = exactly).
    fuzz: u64,
    /// With `policy="partial"`, the error that stopped the patch (the files before it were
    /// written); else None.
    failure: Option<Py<PyAny>>,
}

impl PyPatchOutcome {
    fn new(py: Python<'_>, outcome: PatchOutcome) -> PyResult<Self> {
        Ok(PyPatchOutcome {
            files: outcome
                .files
                .into_iter()
                .map(|f| Py::new(py, PyEditOutcome::from_patched(py, f)?))
                .collect::<PyResult<_>>()?,
            warnings: PyPatchWarning::list(py, &outcome.warnings)?,
            fuzz: outcome.fuzz,
            failure: match &outcome.failure {
                Some(f) => Some(exception(py, &f.error)?.unbind()),
                None => None,
            },
        })
    }
}

#[pymethods]
impl PyPatchOutcome {
    fn __repr__(&self) -> String {
        format!(
            "PatchOutcome(files=<{} files>, warnings=<{}>, fuzz={}, failure={})",
            self.files.len(),
            self.warnings.len(),
            self.fuzz,
            if self.failure.is_some() {
                "<error>"
            } else {
                "None"
            }
        )
    }
}

/// A directory whose files are edited safely: paths stay inside it, edits need a prior read and
/// are refused when the file changed since, encodings and line endings survive, writes are atomic.
#[pyclass(module = "hunkloom", name = "Workspace")]
pub struct PyWorkspace {
    inner: Shared<Workspace>,
}

impl PyWorkspace {
    /// Runs `call` on the workspace without the GIL (it does file I/O).
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        call: impl Send + FnOnce(&Workspace) -> hunkloom::Result<T>,
    ) -> PyResult<T> {
        self.inner
            .with(|workspace| py.detach(move || call(workspace)))
            .and_then(|result| result)
            .map_err(|e| to_py_err(py, &e))
    }

    /// Runs an edit and converts its outcome.
    fn edit(
        &self,
        py: Python<'_>,
        call: impl Send + FnOnce(&Workspace) -> hunkloom::Result<EditOutcome>,
    ) -> PyResult<PyEditOutcome> {
        let outcome = self.run(py, call)?;
        PyEditOutcome::new(py, outcome)
    }
}

#[pymethods]
impl PyWorkspace {
    // Keyword options as Python spells them, one argument each.
    #[allow(clippy::too_many_arguments)]
    #[new]
    #[pyo3(signature = (
        root, *, ignore_file = None, max_file_size = None, undo_depth = None, max_kept_read = None,
        omission_guard = true, lock_timeout = None, protect = None, protect_defaults = true,
        legacy_encodings = true, durability = "full"
    ))]
    fn new(
        py: Python<'_>,
        root: PathBuf,
        ignore_file: Option<String>,
        max_file_size: Option<u64>,
        undo_depth: Option<usize>,
        max_kept_read: Option<u64>,
        omission_guard: bool,
        lock_timeout: Option<f64>,
        protect: Option<Vec<String>>,
        protect_defaults: bool,
        legacy_encodings: bool,
        durability: &str,
    ) -> PyResult<Self> {
        let mut options = WorkspaceOptions::new()
            .guards(Guards::NATIVE.omission_placeholders(omission_guard))
            .durability(durability.parse().map_err(|e| to_py_err(py, &e))?);
        if let Some(name) = ignore_file {
            options = options.ignore_file(name);
        }
        if let Some(bytes) = max_file_size {
            options = options.max_file_size(bytes);
        }
        if let Some(bytes) = max_kept_read {
            options = options.max_kept_read(bytes);
        }
        if let Some(depth) = undo_depth {
            options = options.undo_depth(depth);
        }
        options = options
            .protect(protect.unwrap_or_default())
            .protect_defaults(protect_defaults)
            .legacy_encodings(legacy_encodings);
        if let Some(seconds) = lock_timeout {
            let limit = std::time::Duration::try_from_secs_f64(seconds).map_err(|_| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "lock_timeout must be a number of seconds from 0 up, not {seconds}"
                ))
            })?;
            options = options.lock_timeout(limit);
        }
        let workspace = py
            .detach(|| Workspace::open(&root, options))
            .map_err(|e| to_py_err(py, &e))?;
        Ok(PyWorkspace {
            inner: Shared::new("workspace", workspace),
        })
    }

    /// The workspace's root directory.
    #[getter]
    fn root(&self, py: Python<'_>) -> PyResult<PathBuf> {
        self.inner
            .with(|workspace| workspace.root().to_path_buf())
            .map_err(|e| to_py_err(py, &e))
    }

    /// Read a file (recorded, so it may be edited until it changes on disk).
    fn read(&self, py: Python<'_>, path: PathBuf) -> PyResult<String> {
        self.run(py, move |ws| ws.read(&path))
    }

    /// Claude Code's edit on a file that was read.
    #[pyo3(signature = (path, old, new, replace_all = false))]
    fn str_replace(
        &self,
        py: Python<'_>,
        path: PathBuf,
        old: Text,
        new: Text,
        replace_all: bool,
    ) -> PyResult<PyEditOutcome> {
        let (old, new) = (&*old, &*new);
        self.edit(py, move |ws| ws.str_replace(&path, old, new, replace_all))
    }

    /// Insert lines into a file that was read, in the convention `"before"` or `"after"`.
    fn insert(
        &self,
        py: Python<'_>,
        path: PathBuf,
        line: usize,
        text: Text,
        convention: &str,
    ) -> PyResult<PyEditOutcome> {
        let convention: Convention = convention.parse().map_err(|e| to_py_err(py, &e))?;
        let text = &*text;
        self.edit(py, move |ws| ws.insert(&path, line, text, convention))
    }

    /// Write `content` as the file's whole text (creating it if needed); `allow_shrink` skips
    /// the `suspected_truncation` check.
    #[pyo3(signature = (path, content, *, allow_shrink = false))]
    fn write(
        &self,
        py: Python<'_>,
        path: PathBuf,
        content: Text,
        allow_shrink: bool,
    ) -> PyResult<PyEditOutcome> {
        let content = &*content;
        if allow_shrink {
            self.edit(py, move |ws| ws.overwrite(&path, content))
        } else {
            self.edit(py, move |ws| ws.write(&path, content))
        }
    }

    /// Apply a diff (SEARCH/REPLACE, or a unified diff in `udiff` / `udiff-strict`) to a file
    /// that was read (`native` by default).
    #[pyo3(signature = (path, diff, *, dialect = None, policy = None, recount = false))]
    fn apply_diff(
        &self,
        py: Python<'_>,
        path: PathBuf,
        diff: Text,
        dialect: Option<&str>,
        policy: Option<&str>,
        recount: bool,
    ) -> PyResult<PyEditOutcome> {
        let options = ApplyOptions::from_names(dialect, policy, None, None)
            .map_err(|e| to_py_err(py, &e))?
            .recount(recount);
        let diff = &*diff;
        self.edit(py, move |ws| ws.apply_diff(&path, diff, &options))
    }

    /// Merge a lazy snippet (`// ... existing code ...` markers) into a file that was read; the
    /// language from `lang`, else from the path.
    #[pyo3(signature = (path, snippet, *, lang = None))]
    fn apply_lazy(
        &self,
        py: Python<'_>,
        path: PathBuf,
        snippet: Text,
        lang: Option<&str>,
    ) -> PyResult<PyEditOutcome> {
        let language = crate::lazy::options(py, None, lang)?.language;
        let snippet = &*snippet;
        self.edit(py, move |ws| ws.apply_lazy(&path, snippet, language))
    }

    /// Apply a multi-file patch (`*** Begin Patch`, or a git patch in `udiff` / `udiff-strict`)
    /// to the workspace's files: all or nothing by default.
    #[pyo3(signature = (patch, *, dialect = "codex", policy = "all_or_nothing", recount = false))]
    fn apply_patch(
        &self,
        py: Python<'_>,
        patch: Text,
        dialect: &str,
        policy: &str,
        recount: bool,
    ) -> PyResult<PyPatchOutcome> {
        let dialect: PatchDialect = dialect.parse().map_err(|e| to_py_err(py, &e))?;
        let policy: Policy = policy.parse().map_err(|e| to_py_err(py, &e))?;
        let options = PatchOptions::new()
            .dialect(dialect)
            .policy(policy)
            .recount(recount);
        let patch = &*patch;
        let outcome = self.run(py, move |ws| ws.apply_patch(patch, &options))?;
        PyPatchOutcome::new(py, outcome)
    }

    /// Take back the last edit of a file (refused if it changed since).
    fn undo(&self, py: Python<'_>, path: PathBuf) -> PyResult<PyEditOutcome> {
        self.edit(py, move |ws| ws.undo(&path))
    }

    /// Makes the next call on this workspace panic inside the file layer (tests only: built
    /// with the `fault-injection` feature).
    #[cfg(feature = "fault-injection")]
    fn _inject_panic(&self) {
        self.inner.inject_panic();
    }

    fn __repr__(&self) -> String {
        match self.inner.phase() {
            Phase::Ready => self
                .inner
                .with(|ws| format!("Workspace('{}')", ws.root().display()))
                .unwrap_or_else(|_| "Workspace(<busy>)".to_owned()),
            Phase::Busy => "Workspace(<busy>)".to_owned(),
            Phase::Finished | Phase::Retired => "Workspace(<stopped>)".to_owned(),
        }
    }
}

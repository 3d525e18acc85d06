//! The Python binding of hunkloom: the private extension module `hunkloom._native`.
//!
//! Every behaviour lives in the core crate; this crate converts arguments (Python `str` in,
//! `str` indices out, taken from the core's char offsets) and errors (one mapping, in
//! `errors`). The public package `hunkloom` (in `python/`) re-exports what is registered here.

mod aider;
mod applier;
mod cli;
mod edit_stream;
mod errors;
mod fixes;
mod functions;
mod gil;
mod json_value;
mod lazy;
mod ops;
mod patch;
mod text;
mod text_editor;
mod toolset;
mod types;
mod v4a;
mod workspace;

use pyo3::prelude::*;

/// The extension module. Its name must equal the `[lib] name` in Cargo.toml and the last part of
/// `module-name` in `python/pyproject.toml`.
#[pymodule]
mod _native {
    #[pymodule_export]
    use super::aider::PyAiderApplier;
    #[pymodule_export]
    use super::applier::PyStreamingApplier;
    #[pymodule_export]
    use super::cli::cli;
    #[pymodule_export]
    use super::edit_stream::PyEditStream;
    #[pymodule_export]
    use super::errors::{
        AlreadyFinishedError, AmbiguousMatchError, ConcurrentUseError, FileSystemError,
        HunkloomError, InternalError, InvalidEditError, InvalidOptionError, MalformedDiffError,
        PathRefusedError, PyMatch, SearchNotFoundError, StaleFileError, UnsupportedFileError,
        error_class,
    };
    #[pymodule_export]
    use super::fixes::{
        PyWritten, apply_model_content_fixes, fix_model_html_escaping, remove_invalid_chars,
        strip_markdown_fences, write,
    };
    #[pymodule_export]
    use super::functions::{
        apply_diff, construct_new_file_content, line_number_from_index, resume_cache_stats,
        set_resume_cache_capacity,
    };
    #[pymodule_export]
    use super::lazy::apply_lazy;
    #[pymodule_export]
    use super::ops::{PyEdit, PyInsertedContent, insert, insert_content, str_replace};
    #[pymodule_export]
    use super::patch::{PyPatchResult, PyPatchWarning, apply_patch};
    #[pymodule_export]
    use super::text_editor::PyTextEditor;
    #[pymodule_export]
    use super::toolset::PyToolset;
    #[pymodule_export]
    use super::types::{
        PyBlockReport, PyNewFileContent, PyOutcome, PyResumeCacheStats, PyToolResult, PyUpdate,
    };
    #[pymodule_export]
    use super::v4a::{PyNativeBodyApplier, PyPatchChunk, apply_v4a};
    #[pymodule_export]
    use super::workspace::{PyEditOutcome, PyExternalChange, PyPatchOutcome, PyWorkspace};

    use pyo3::prelude::*;

    #[pymodule_init]
    fn init(module: &Bound<'_, PyModule>) -> PyResult<()> {
        module.add("__version__", env!("CARGO_PKG_VERSION"))?;
        module.add(
            "MissingFileError",
            super::errors::missing_file_error(module.py())?,
        )?;
        module.add(
            "OutOfMemoryError",
            super::errors::out_of_memory_error(module.py())?,
        )?;
        let codes: Vec<&str> = hunkloom::ErrorKind::ALL.iter().map(|k| k.code()).collect();
        module.add(
            "ERROR_CODES",
            pyo3::types::PyTuple::new(module.py(), codes)?,
        )?;
        // The names reports use, listed by the core (the tests check the stub's Literals).
        let names = |values: Vec<&'static str>| pyo3::types::PyTuple::new(module.py(), values);
        use hunkloom::{BlockStatus, Normalization, Strategy};
        module.add(
            "STRATEGIES",
            names(Strategy::ALL.iter().map(|s| s.as_str()).collect())?,
        )?;
        module.add(
            "NORMALIZATIONS",
            names(Normalization::ALL.iter().map(|n| n.as_str()).collect())?,
        )?;
        module.add(
            "BLOCK_STATUSES",
            names(BlockStatus::ALL.iter().map(|s| s.as_str()).collect())?,
        )?;
        module.add(
            "PROFILES",
            names(
                hunkloom_tools::Profile::ALL
                    .iter()
                    .map(|p| p.as_str())
                    .collect(),
            )?,
        )?;
        // The names options accept, listed by the core (the tests check the stub's Literals).
        let inputs: [(&str, Vec<&'static str>); 9] = [
            (
                "DIALECTS",
                hunkloom::Dialect::ALL.iter().map(|d| d.as_str()).collect(),
            ),
            (
                "PATCH_DIALECTS",
                hunkloom::patch::PatchDialect::ALL
                    .iter()
                    .map(|d| d.as_str())
                    .collect(),
            ),
            (
                "POLICIES",
                hunkloom::Policy::ALL.iter().map(|p| p.as_str()).collect(),
            ),
            (
                "FIXES",
                hunkloom::fixes::Fix::ALL
                    .iter()
                    .map(|f| f.as_str())
                    .collect(),
            ),
            (
                "CONVENTIONS",
                hunkloom::ops::Convention::ALL
                    .iter()
                    .map(|c| c.as_str())
                    .collect(),
            ),
            (
                "V4A_MODES",
                hunkloom::patch::v4a::V4aMode::ALL
                    .iter()
                    .map(|m| m.as_str())
                    .collect(),
            ),
            (
                "TOOLSET_PROFILES",
                hunkloom_tools::ToolsetProfile::ALL
                    .iter()
                    .map(|p| p.as_str())
                    .collect(),
            ),
            (
                "SEMANTICS",
                hunkloom_tools::Semantics::ALL
                    .iter()
                    .map(|s| s.as_str())
                    .collect(),
            ),
            (
                "DURABILITIES",
                hunkloom_fs::Durability::ALL
                    .iter()
                    .map(|d| d.as_str())
                    .collect(),
            ),
        ];
        for (name, values) in inputs {
            module.add(name, names(values)?)?;
        }
        Ok(())
    }
}

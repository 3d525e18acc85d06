//! Lazy edits: `apply_lazy`, a snippet with `// ... existing code ...` markers merged into a
//! file without a model.

use hunkloom::LazyOptions;
use hunkloom::lazy::Language;
use pyo3::prelude::*;

use crate::errors::to_py_err;
use crate::gil;
use crate::text::Text;

/// The core's options from the Python arguments: `lang` (a language name or extension) wins
/// over `path`.
pub(crate) fn options(
    py: Python<'_>,
    path: Option<&str>,
    lang: Option<&str>,
) -> PyResult<LazyOptions> {
    let mut options = LazyOptions::new();
    options.path = path.map(str::to_owned);
    if let Some(lang) = lang {
        options.language = Some(Language::from_name(lang).map_err(|e| to_py_err(py, &e))?);
    }
    Ok(options)
}

/// Merge the lazy `snippet` into `original`: the whole new text, or the refusal.
#[pyfunction]
#[pyo3(signature = (snippet, original, path = None, lang = None))]
pub(crate) fn apply_lazy(
    py: Python<'_>,
    snippet: Text,
    original: Text,
    path: Option<Text>,
    lang: Option<&str>,
) -> PyResult<String> {
    let options = options(py, path.as_deref(), lang)?;
    gil::run(py, snippet.len() + original.len(), || {
        hunkloom::apply_lazy(&snippet, &original, &options)
    })
    .map_err(|e| to_py_err(py, &e))
}

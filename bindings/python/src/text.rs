//! `Text`: a Python `str` argument as UTF-8, refused with the core's `unsupported_encoding` when
//! it cannot be UTF-8.
//!
//! A Python `str` may hold a lone surrogate (`json.loads('"\\ud800"')` makes one from a model's
//! tool call, `os.fsdecode` from a file name's bytes). Such a text has no UTF-8 form, and Python's
//! own conversion would raise `UnicodeEncodeError`; taken as `Text` it raises a `HunkloomError`
//! with a stable code instead, so one `except HunkloomError` covers every refusal. Nothing has
//! been done when it is raised: arguments are converted before the call starts.

use std::hash::{Hash, Hasher};
use std::ops::Deref;

use hunkloom::{Error, ErrorKind};
use pyo3::exceptions::PyUnicodeEncodeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;

use crate::errors::to_py_err;

/// A Python `str` held as UTF-8 without a copy (the `str`'s own UTF-8 form).
pub(crate) struct Text(PyBackedStr);

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Text {}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl FromPyObject<'_, '_> for Text {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, '_, PyAny>) -> PyResult<Self> {
        let py = obj.py();
        match obj.extract::<PyBackedStr>() {
            Ok(text) => Ok(Text(text)),
            Err(err) if err.is_instance_of::<PyUnicodeEncodeError>(py) => {
                Err(to_py_err(py, &not_utf8(&obj, &err)))
            }
            Err(err) => Err(err),
        }
    }
}

/// The `unsupported_encoding` error for a `str` without a UTF-8 form, naming the first lone
/// surrogate and where it is (a `str` index, from the `UnicodeEncodeError`).
fn not_utf8(obj: &Borrowed<'_, '_, PyAny>, err: &PyErr) -> Error {
    let py = obj.py();
    let start = err
        .value(py)
        .getattr("start")
        .and_then(|start| start.extract::<usize>())
        .ok();
    let unit = start.and_then(|at| {
        let ch = obj.get_item(at).ok()?;
        let ord = py.import("builtins").ok()?.getattr("ord").ok()?;
        ord.call1((ch,)).ok()?.extract::<u32>().ok()
    });
    let place = match (unit, start) {
        (Some(unit), Some(at)) => format!(" (a lone surrogate, U+{unit:04X}, at index {at})"),
        (None, Some(at)) => format!(" (a lone surrogate at index {at})"),
        _ => " (it holds a lone surrogate)".to_owned(),
    };
    Error::with_message(
        ErrorKind::UnsupportedEncoding,
        format!(
            "a text argument is not valid Unicode{place}, so it has no UTF-8 form; nothing was done"
        ),
    )
}

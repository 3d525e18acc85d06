//! Tool-call inputs and schemas across the boundary: a Python `dict` of JSON values in (as a
//! `serde_json::Value`, refused with a message naming the bad part), a JSON value out as the
//! object `json.loads` would give.

use hunkloom::{Error, ErrorKind};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// How deeply lists and dicts may nest in a call's input (a deeper one is refused, rather than
/// risking the stack on a cyclic or hostile structure).
const MAX_DEPTH: usize = 64;

/// The core's `invalid_input` error.
pub(crate) fn invalid_input(message: String) -> Error {
    Error::with_message(ErrorKind::InvalidInput, message)
}

/// `value` as JSON: dict (with `str` keys), list or tuple, str, int, float, bool, None. `at`
/// names the value in messages (`input['view_range'][0]`).
pub(crate) fn to_json(
    value: &Bound<'_, PyAny>,
    at: &mut String,
    depth: usize,
) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("{at} is nested more than {MAX_DEPTH} levels deep"));
    }
    if value.is_none() {
        return Ok(Value::Null);
    }
    // Before int: a Python bool is an int.
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(s) = value.cast::<PyString>() {
        // A lone surrogate (json.loads accepts "\ud800") has no UTF-8 form: refused, rather
        // than written into a file as U+FFFD.
        return s
            .to_cow()
            .map(|s| Value::String(s.into_owned()))
            .map_err(|_| format!("{at} is a str with a lone surrogate, which has no UTF-8 form"));
    }
    if value.is_instance_of::<PyInt>() {
        if let Ok(i) = value.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = value.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return value
            .extract::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("{at} is an int too large for JSON"));
    }
    if value.is_instance_of::<PyFloat>() {
        let f = value.extract::<f64>().map_err(|e| e.to_string())?;
        return Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| format!("{at} is {}, which JSON cannot represent", repr(value)));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = Map::new();
        for (key, item) in dict.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(format!(
                    "{at} has a key of type {}; keys must be str",
                    type_name(&key)
                ));
            };
            let len = at.len();
            at.push_str(&format!("[{}]", repr(key)));
            let key = key.to_string_lossy().into_owned();
            let item = to_json(&item, at, depth + 1)?;
            at.truncate(len);
            map.insert(key, item);
        }
        return Ok(Value::Object(map));
    }
    let items = if let Ok(list) = value.cast::<PyList>() {
        list.iter().collect::<Vec<_>>()
    } else if let Ok(tuple) = value.cast::<PyTuple>() {
        tuple.iter().collect::<Vec<_>>()
    } else {
        return Err(format!(
            "{at} is of type {}, which is not a JSON value (dict, list, str, int, float, bool, \
             None)",
            type_name(value)
        ));
    };
    let mut array = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let len = at.len();
        at.push_str(&format!("[{i}]"));
        array.push(to_json(item, at, depth + 1)?);
        at.truncate(len);
    }
    Ok(Value::Array(array))
}

/// `repr(value)`, for messages.
fn repr(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string_lossy().into_owned())
}

/// The name of `value`'s type, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// `value` as the Python object `json.loads` would give.
pub(crate) fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (_, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => PyList::new(
            py,
            items
                .iter()
                .map(|v| to_python(py, v))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_python(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

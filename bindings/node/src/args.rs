//! Argument checks. napi's own conversions report a wrong type as a plain `Error` with a napi
//! status code; JavaScript callers expect a `TypeError`, as Node's own functions throw, so every
//! entry point takes its arguments as `Unknown` and checks them here.

use napi::bindgen_prelude::{Array, JsObjectValue, Object};
use napi::{JsValue, Unknown, ValueType};

use crate::errors::Failure;

/// How a JavaScript type is named in messages (`typeof`, with `null` apart, as Node does).
fn type_name(t: ValueType) -> &'static str {
    match t {
        ValueType::Undefined => "undefined",
        ValueType::Null => "null",
        ValueType::Boolean => "boolean",
        ValueType::Number => "number",
        ValueType::String => "string",
        ValueType::Symbol => "symbol",
        ValueType::Object => "object",
        ValueType::Function => "function",
        ValueType::External => "external",
        ValueType::BigInt => "bigint",
        _ => "unknown",
    }
}

fn type_of(value: &Unknown<'_>) -> Result<ValueType, Failure> {
    value
        .get_type()
        .map_err(|e| Failure::ArgType(format!("cannot read the argument's type: {e}")))
}

fn wrong(name: &str, expected: &str, got: ValueType) -> Failure {
    Failure::ArgType(format!(
        "The \"{name}\" argument must be of type {expected}. Received type {}",
        type_name(got)
    ))
}

/// The string value of argument `name`.
///
/// A JavaScript string holding a lone surrogate cannot be represented in UTF-8; napi replaces
/// it with U+FFFD (one UTF-16 unit too, so offsets are unchanged).
pub fn string(value: &Unknown<'_>, name: &str) -> Result<String, Failure> {
    match type_of(value)? {
        // SAFETY: the value was just checked to be a string.
        ValueType::String => unsafe { value.cast::<String>() }
            .map_err(|e| Failure::ArgType(format!("cannot read \"{name}\": {e}"))),
        other => Err(wrong(name, "string", other)),
    }
}

/// The boolean value of argument `name`.
pub fn boolean(value: &Unknown<'_>, name: &str) -> Result<bool, Failure> {
    match type_of(value)? {
        // SAFETY: the value was just checked to be a boolean.
        ValueType::Boolean => unsafe { value.cast::<bool>() }
            .map_err(|e| Failure::ArgType(format!("cannot read \"{name}\": {e}"))),
        other => Err(wrong(name, "boolean", other)),
    }
}

/// The number value of argument `name`.
pub fn number(value: &Unknown<'_>, name: &str) -> Result<f64, Failure> {
    match type_of(value)? {
        // SAFETY: the value was just checked to be a number.
        ValueType::Number => unsafe { value.cast::<f64>() }
            .map_err(|e| Failure::ArgType(format!("cannot read \"{name}\": {e}"))),
        other => Err(wrong(name, "number", other)),
    }
}

/// An optional string argument: `undefined` (or a missing argument) is `None`.
pub fn optional_string(value: &Unknown<'_>, name: &str) -> Result<Option<String>, Failure> {
    match type_of(value)? {
        ValueType::Undefined => Ok(None),
        ValueType::String => string(value, name).map(Some),
        other => Err(wrong(name, "string", other)),
    }
}

/// The string property `key` of an optional options object: `None` when the object or the
/// property is `undefined`.
pub fn option_string(
    options: &Unknown<'_>,
    name: &str,
    key: &str,
) -> Result<Option<String>, Failure> {
    match type_of(options)? {
        ValueType::Undefined => Ok(None),
        ValueType::Object => {
            // SAFETY: the value was just checked to be an object.
            let object = unsafe { options.cast::<Object<'_>>() }
                .map_err(|e| Failure::ArgType(format!("cannot read \"{name}\": {e}")))?;
            let property: Unknown<'_> = object
                .get_named_property(key)
                .map_err(|e| Failure::ArgType(format!("cannot read \"{name}.{key}\": {e}")))?;
            optional_string(&property, &format!("{name}.{key}"))
        }
        other => Err(wrong(name, "object", other)),
    }
}

/// A string argument that may be `null` (for a file that does not exist): `null` is `None`.
/// `undefined` is rejected, so a forgotten argument is not read as a missing file.
pub fn nullable_string(value: &Unknown<'_>, name: &str) -> Result<Option<String>, Failure> {
    match type_of(value)? {
        ValueType::Null => Ok(None),
        ValueType::String => string(value, name).map(Some),
        other => Err(wrong(name, "string or null", other)),
    }
}

/// An optional string argument that may also be `null`: `undefined` and `null` are `None`.
pub fn optional_nullable_string(
    value: &Unknown<'_>,
    name: &str,
) -> Result<Option<String>, Failure> {
    match type_of(value)? {
        ValueType::Undefined | ValueType::Null => Ok(None),
        ValueType::String => string(value, name).map(Some),
        other => Err(wrong(name, "string", other)),
    }
}

/// An optional boolean argument: `undefined` (or a missing argument) is `None`.
pub fn optional_boolean(value: &Unknown<'_>, name: &str) -> Result<Option<bool>, Failure> {
    match type_of(value)? {
        ValueType::Undefined => Ok(None),
        ValueType::Boolean => boolean(value, name).map(Some),
        other => Err(wrong(name, "boolean", other)),
    }
}

/// Roo's raw `line` argument: a string (XML protocol), a number (native protocol), or
/// `undefined`/`null` (omitted).
pub fn line_arg(value: &Unknown<'_>, name: &str) -> Result<patchloom::ops::LineArg, Failure> {
    use patchloom::ops::LineArg;
    match type_of(value)? {
        ValueType::Undefined | ValueType::Null => Ok(LineArg::Missing),
        ValueType::String => string(value, name).map(LineArg::Text),
        ValueType::Number => number(value, name).map(LineArg::Number),
        other => Err(wrong(name, "string or number", other)),
    }
}

/// An optional array of strings: `undefined` and `null` are `None`.
pub fn optional_string_array(
    value: &Unknown<'_>,
    name: &str,
) -> Result<Option<Vec<String>>, Failure> {
    let unreadable = |e: napi::Error| Failure::ArgType(format!("cannot read \"{name}\": {e}"));
    match type_of(value)? {
        ValueType::Undefined | ValueType::Null => return Ok(None),
        ValueType::Object if value.is_array().map_err(unreadable)? => {}
        other => {
            return Err(Failure::ArgType(format!(
                "The \"{name}\" argument must be an instance of Array. Received type {}",
                type_name(other)
            )));
        }
    }
    // SAFETY: the value was just checked to be an array.
    let array = unsafe { value.cast::<Array<'_>>() }.map_err(unreadable)?;
    (0..array.len())
        .map(|i| {
            let item: Unknown<'_> = array
                .get(i)
                .map_err(unreadable)?
                .ok_or_else(|| Failure::ArgType(format!("cannot read \"{name}[{i}]\"")))?;
            string(&item, &format!("{name}[{i}]"))
        })
        .collect::<Result<Vec<String>, Failure>>()
        .map(Some)
}

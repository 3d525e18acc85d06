//! Argument checks. napi's own conversions report a wrong type as a plain `Error` with a napi
//! status code; JavaScript callers expect a `TypeError`, as Node's own functions throw, so every
//! entry point takes its arguments as `Unknown` and checks them here.

use napi::bindgen_prelude::{JsObjectValue, Object};
use napi::{Unknown, ValueType};

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

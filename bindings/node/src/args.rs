//! Argument checks. napi's own conversions report a wrong type as a plain `Error` with a napi
//! status code; JavaScript callers expect a `TypeError`, as Node's own functions throw, so every
//! entry point takes its arguments as `Unknown` and checks them here.

use napi::bindgen_prelude::{Array, JsObjectValue, Object};
use napi::{JsValue, Unknown, ValueType};

use crate::errors::Failure;

/// How a JavaScript type is named in messages (`typeof`, with `null` apart, as Node does).
pub fn type_name(t: ValueType) -> &'static str {
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

/// The keys of each options object, as the TypeScript interfaces in index.d.ts declare them
/// (test/options.test.js checks every declared key is accepted).
pub mod keys {
    /// `ApplyOptions` and `ApplierOptions`.
    pub const APPLY: &[&str] = &[
        "dialect",
        "policy",
        "fuzzyThreshold",
        "bufferLines",
        "recount",
    ];
    /// `PatchOptions` (`Workspace.applyPatch`).
    pub const PATCH: &[&str] = &["dialect", "policy", "recount"];
    /// `PatchOptions & PatchBodyOptions` (the function `applyPatch`).
    pub const PATCH_AND_BODY: &[&str] = &["dialect", "policy", "recount", "path", "mode"];
    /// `LazyOptions` (the function `applyLazy`).
    pub const LAZY: &[&str] = &["path", "lang"];
    /// `WorkspaceWriteOptions`.
    pub const WORKSPACE_WRITE: &[&str] = &["allowShrink"];
    /// `WorkspaceLazyOptions`.
    pub const WORKSPACE_LAZY: &[&str] = &["lang"];
    /// `StrReplaceOptions`.
    pub const STR_REPLACE: &[&str] = &["omissionGuard"];
    /// `TextEditorOptions`.
    pub const TEXT_EDITOR: &[&str] = &[
        "profile",
        "requireRead",
        "maxFileSize",
        "protect",
        "durability",
    ];
    /// `ToolsetOptions`.
    pub const TOOLSET: &[&str] = &[
        "profile",
        "requireRead",
        "maxFileSize",
        "protect",
        "maxCharacters",
        "readOnly",
        "semantics",
        "durability",
    ];
    /// `WorkspaceOptions`.
    pub const WORKSPACE: &[&str] = &[
        "ignoreFile",
        "maxFileSize",
        "undoDepth",
        "maxKeptRead",
        "omissionGuard",
        "lockTimeout",
        "protect",
        "protectDefaults",
        "legacyEncodings",
        "durability",
    ];
}

/// An options object, read once: its keys are checked against the ones its function reads
/// and the value of each key given is kept, so an option left out costs nothing to read.
///
/// A key the function does not read is refused: a misspelled option (`{ dialet: "native" }`)
/// would otherwise be ignored silently and the default used; the `TypeError` names the key and
/// the valid ones. `undefined` is an empty object; another value that is not an object is a
/// `TypeError` naming its type. The keys are the object's enumerable string keys, own and
/// inherited (as `for…in` lists them).
pub struct Options<'env> {
    name: &'static str,
    given: Vec<(&'static str, Unknown<'env>)>,
}

/// Room for an option's key on the stack: longer than every key any function reads.
const KEY_ROOM: usize = 64;

/// `key`'s text, when it is a string shorter than [`KEY_ROOM`] bytes (read into `room`, with
/// no allocation: options are read on every call); `None` otherwise.
fn short_key<'a>(key: &Unknown<'_>, room: &'a mut [u8; KEY_ROOM]) -> Option<&'a str> {
    let mut len = 0;
    // SAFETY: `key` is a live value of this call's env; napi writes at most `room.len()` bytes
    // (a NUL included) and the length it wrote without the NUL.
    let status = unsafe {
        napi::sys::napi_get_value_string_utf8(
            key.value().env,
            key.raw(),
            room.as_mut_ptr().cast(),
            room.len(),
            &mut len,
        )
    };
    (status == napi::sys::Status::napi_ok && len + 1 < room.len())
        .then(|| std::str::from_utf8(&room[..len]).ok())
        .flatten()
}

impl<'env> Options<'env> {
    /// Reads `value`, the argument called `name`, whose function reads the options `keys`.
    pub fn read(
        value: &Unknown<'env>,
        name: &'static str,
        keys: &'static [&'static str],
    ) -> Result<Self, Failure> {
        let mut given = Vec::new();
        match type_of(value)? {
            ValueType::Undefined => {}
            ValueType::Object => {
                let unreadable = |e: napi::Error| {
                    Failure::ArgType(format!("cannot read the keys of \"{name}\": {e}"))
                };
                // SAFETY: the value was just checked to be an object.
                let object = unsafe { value.cast::<Object<'env>>() }.map_err(unreadable)?;
                let names = object.get_property_names().map_err(unreadable)?;
                let mut room = [0; KEY_ROOM];
                for i in 0..names.get_array_length().map_err(unreadable)? {
                    let key: Unknown<'env> = names.get_element(i).map_err(unreadable)?;
                    let Some(&known) = short_key(&key, &mut room)
                        .and_then(|text| keys.iter().find(|&&k| k == text))
                    else {
                        let key: String = names.get_element(i).map_err(unreadable)?;
                        return Err(Failure::ArgType(format!(
                            "\"{name}\" has no option \"{key}\"; its options are {}",
                            keys.iter()
                                .map(|k| format!("\"{k}\""))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )));
                    };
                    let property: Unknown<'env> = object.get_property(key).map_err(|e| {
                        Failure::ArgType(format!("cannot read \"{name}.{known}\": {e}"))
                    })?;
                    given.push((known, property));
                }
            }
            other => return Err(wrong(name, "object", other)),
        }
        Ok(Options { name, given })
    }

    /// The value given for `key` (`undefined` ones included), and the name messages give it.
    fn value(&self, key: &str) -> Option<(&Unknown<'env>, String)> {
        self.given
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, value)| (value, format!("{}.{key}", self.name)))
    }

    /// The string option `key`: `None` when it is left out or `undefined`.
    pub fn string(&self, key: &str) -> Result<Option<String>, Failure> {
        match self.value(key) {
            None => Ok(None),
            Some((value, full)) => optional_string(value, &full),
        }
    }

    /// The non-negative integer option `key` (see [`non_negative_integer`]): `None` when it is
    /// left out or `undefined`.
    pub fn integer(&self, key: &str) -> Result<Option<u64>, Failure> {
        self.typed(key, &[ValueType::Undefined], non_negative_integer)
    }

    /// The number option `key`: `None` when it is left out or `undefined`.
    pub fn number(&self, key: &str) -> Result<Option<f64>, Failure> {
        self.typed(key, &[ValueType::Undefined], number)
    }

    /// The boolean option `key`: `None` when it is left out, `undefined` or `null`.
    pub fn boolean(&self, key: &str) -> Result<Option<bool>, Failure> {
        self.typed(key, &[ValueType::Undefined, ValueType::Null], boolean)
    }

    /// The option `key` read by `read` (which names it in its messages): `None` when it is
    /// left out or its value's type is one of `unset`.
    fn typed<T>(
        &self,
        key: &str,
        unset: &[ValueType],
        read: impl FnOnce(&Unknown<'env>, &str) -> Result<T, Failure>,
    ) -> Result<Option<T>, Failure> {
        let Some((value, full)) = self.value(key) else {
            return Ok(None);
        };
        if unset.contains(&type_of(value)?) {
            return Ok(None);
        }
        read(value, &full).map(Some)
    }

    /// The string-array option `key`: `None` when it is left out, `undefined` or `null`.
    pub fn string_array(&self, key: &str) -> Result<Option<Vec<String>>, Failure> {
        match self.value(key) {
            None => Ok(None),
            Some((value, full)) => optional_string_array(value, &full),
        }
    }
}

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A number argument that must be a non-negative safe integer (`-0` is 0): a `TypeError` for
/// another type, a `RangeError` for another number.
pub fn non_negative_integer(value: &Unknown<'_>, name: &str) -> Result<u64, Failure> {
    let n = number(value, name)?;
    if n >= 0.0 && n.fract() == 0.0 && n <= MAX_SAFE_INTEGER {
        // Exact: a safe integer.
        Ok(n as u64)
    } else {
        Err(Failure::OutOfRange(format!(
            "The \"{name}\" argument must be a non-negative integer. Received {}",
            hunkloom::text::js_number_to_string(n)
        )))
    }
}

/// A plain object of strings (`Record<string, string>`), e.g. files by path: its own and
/// inherited enumerable string keys (as `for…in` lists them), each value a string. An array
/// or a non-string value is a `TypeError`.
pub fn string_record(
    value: &Unknown<'_>,
    name: &str,
) -> Result<std::collections::BTreeMap<String, String>, Failure> {
    let unreadable = |e: napi::Error| Failure::ArgType(format!("cannot read \"{name}\": {e}"));
    match type_of(value)? {
        ValueType::Object if !value.is_array().map_err(unreadable)? => {}
        other => return Err(wrong(name, "object", other)),
    }
    // SAFETY: the value was just checked to be an object.
    let object = unsafe { value.cast::<Object<'_>>() }.map_err(unreadable)?;
    let mut record = std::collections::BTreeMap::new();
    for key in Object::keys(&object).map_err(unreadable)? {
        let item: Unknown<'_> = object.get_named_property(&key).map_err(unreadable)?;
        let text = string(&item, &format!("{name}[{key:?}]"))?;
        record.insert(key, text);
    }
    Ok(record)
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
pub fn line_arg(value: &Unknown<'_>, name: &str) -> Result<hunkloom::ops::LineArg, Failure> {
    use hunkloom::ops::LineArg;
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

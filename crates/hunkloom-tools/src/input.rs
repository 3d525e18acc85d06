//! The tool call's input: its parameters read from the JSON object, with the types the tool
//! schema gives them, and values printed the way the references print them in messages.
//!
//! Parameters are read lazily, in the order the references check them (the path before the
//! command's own parameters), so the first error a call meets is the reference's.
//!
//! # Values in messages
//!
//! The references are Python, and their messages print a value with `str()`: a list as
//! `['1', '3']`, `True`, `None`. [`py_repr`] prints a JSON value that way.
//!
//! # Paths
//!
//! The references wrap the path in `pathlib.Path`, which drops empty and `.` components and a
//! trailing `/` but keeps `..`; [`normalize_path`] does the same, and messages show that form.

use serde_json::{Map, Value};

/// A parameter read from the input.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Param<T> {
    /// Absent, or `null` (Python's keyword default `None`).
    Missing,
    /// Present with the expected type.
    Given(T),
    /// Present with another type; the value is kept for the message.
    Invalid(Value),
}

/// The input object of one call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Input<'a> {
    map: &'a Map<String, Value>,
}

impl<'a> Input<'a> {
    pub(crate) fn new(map: &'a Map<String, Value>) -> Self {
        Input { map }
    }

    fn raw(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// A string parameter.
    pub(crate) fn string(&self, key: &str) -> Param<&'a str> {
        match self.raw(key) {
            None => Param::Missing,
            Some(Value::String(s)) => Param::Given(s),
            Some(other) => Param::Invalid(other.clone()),
        }
    }

    /// An integer parameter. JSON booleans count as 0 and 1, as Python's `bool` is an `int`.
    pub(crate) fn integer(&self, key: &str) -> Param<i128> {
        match self.raw(key) {
            None => Param::Missing,
            Some(v) => match as_int(v) {
                Some(n) => Param::Given(n),
                None => Param::Invalid(v.clone()),
            },
        }
    }

    /// The raw value of `key`, `None` when absent or `null`.
    pub(crate) fn value(&self, key: &str) -> Option<&'a Value> {
        self.raw(key)
    }
}

/// `v` as a Python `int` would be: an integer, or a boolean (0 or 1).
pub(crate) fn as_int(v: &Value) -> Option<i128> {
    match v {
        Value::Bool(b) => Some(i128::from(*b)),
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from)),
        _ => None,
    }
}

/// Whether Python would find `v` true (`if view_range:`): not `null`, `false`, `0`, `0.0`, an
/// empty string, list or object.
pub(crate) fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// A `view_range`: exactly two integers, or why not.
pub(crate) fn two_integers(v: &Value) -> Option<(i128, i128)> {
    match v.as_array().map(Vec::as_slice) {
        Some([a, b]) => Some((as_int(a)?, as_int(b)?)),
        _ => None,
    }
}

/// `v` printed as Python's `str()` prints the value the JSON decodes to.
pub(crate) fn py_str(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => py_repr(other),
    }
}

/// `v` printed as Python's `repr()` prints the value the JSON decodes to.
pub(crate) fn py_repr(v: &Value) -> String {
    match v {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => py_float(f),
            _ => n.to_string(),
        },
        Value::String(s) => py_repr_str(s),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(py_repr).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let items: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", py_repr_str(k), py_repr(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// A float as Python's `repr()` prints it (shortest round-trip digits).
fn py_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    let exponent = if f == 0.0 {
        0
    } else {
        f.abs().log10().floor() as i32
    };
    if (-5..16).contains(&exponent) {
        let s = format!("{f:?}");
        if s.contains('.') || s.contains('e') {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        // Python: mantissa digits, `e`, a sign and at least two exponent digits.
        let s = format!("{f:e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    }
}

/// A string as Python's `repr()` prints it: single quotes unless the text has a single quote
/// and no double quote; backslashes, the quote and non-printable characters escaped.
pub(crate) fn py_repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

/// An approximation of Python's `str.isprintable()` for one character: not a control
/// character, not a line or paragraph separator, not a non-ASCII space.
fn is_printable(c: char) -> bool {
    !(c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{ad}' | '\u{feff}')
        || (c.is_whitespace() && c != ' ')
        || ('\u{e000}'..='\u{f8ff}').contains(&c))
}

/// The path as `pathlib.PurePosixPath` prints it: empty and `.` components and a trailing `/`
/// dropped, `..` kept, a leading `//` kept (POSIX leaves it implementation-defined), three or
/// more leading slashes made one; an empty path is `.`.
pub(crate) fn normalize_path(path: &str) -> String {
    let root = if path.starts_with("//") && !path.starts_with("///") {
        "//"
    } else if path.starts_with('/') {
        "/"
    } else {
        ""
    };
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let joined = parts.join("/");
    if root.is_empty() && joined.is_empty() {
        ".".to_owned()
    } else {
        format!("{root}{joined}")
    }
}

/// Whether the (normalised) path is absolute.
pub(crate) fn is_absolute(path: &str) -> bool {
    path.starts_with('/')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_print_as_python_prints_them() {
        for (v, want) in [
            (json!([1, 3]), "[1, 3]"),
            (json!(["1", "3"]), "['1', '3']"),
            (json!([1, 2, 3]), "[1, 2, 3]"),
            (json!([true, null]), "[True, None]"),
            (json!("it's"), "\"it's\""),
            (json!("a\"b'c"), "'a\"b\\'c'"),
            (json!("tab\there\n"), "'tab\\there\\n'"),
            (json!([1.0, 2.5, 1e20, 1e-7]), "[1.0, 2.5, 1e+20, 1e-07]"),
            (json!({"a": 1}), "{'a': 1}"),
            (json!("é\u{7f}"), "'é\\x7f'"),
        ] {
            assert_eq!(py_repr(&v), want, "{v}");
        }
        assert_eq!(py_str(&json!("plain")), "plain");
    }

    #[test]
    fn paths_normalize_like_pathlib() {
        for (given, want) in [
            ("/r//a.txt", "/r/a.txt"),
            ("/r/./a/./b", "/r/a/b"),
            ("/r/a/../b", "/r/a/../b"),
            ("/r/dir/", "/r/dir"),
            ("./app.js", "app.js"),
            ("", "."),
            (".", "."),
            ("//r/a", "//r/a"),
            ("///r/a", "/r/a"),
            ("/", "/"),
        ] {
            assert_eq!(normalize_path(given), want, "{given:?}");
        }
        assert!(is_absolute("/a"));
        assert!(!is_absolute("a/b"));
    }

    #[test]
    fn integers_truthiness_and_ranges() {
        assert_eq!(as_int(&json!(true)), Some(1));
        assert_eq!(as_int(&json!(-3)), Some(-3));
        assert_eq!(as_int(&json!(u64::MAX)), Some(i128::from(u64::MAX)));
        assert_eq!(as_int(&json!(1.0)), None);
        assert_eq!(as_int(&json!("1")), None);
        assert!(!truthy(&json!([])));
        assert!(!truthy(&json!(0)));
        assert!(truthy(&json!("0")));
        assert_eq!(two_integers(&json!([1, -1])), Some((1, -1)));
        assert_eq!(two_integers(&json!([1])), None);
        assert_eq!(two_integers(&json!(["1", "3"])), None);
        assert_eq!(two_integers(&json!("13")), None);
    }
}

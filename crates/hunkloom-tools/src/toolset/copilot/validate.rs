//! Copilot's input validation: ajv 8 with `coerceTypes`, the first error only, and a retry
//! that parses a JSON string where an object or array belongs.

use serde_json::{Map, Value};

/// A property's type.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    String,
    /// An array of objects of the given shape, at least one.
    Items(&'static Shape),
}

/// An object's schema: required keys and typed properties, in the schema's order.
pub(super) struct Shape {
    pub(super) required: &'static [&'static str],
    pub(super) properties: &'static [(&'static str, Kind)],
}

/// A value that failed: its message, and whether a JSON string there may be parsed and the
/// input checked again (a non-root object or array).
struct Failure {
    message: String,
    retry_at: Option<Vec<PathStep>>,
}

#[derive(Clone)]
enum PathStep {
    Key(&'static str),
    Index(usize),
}

/// `String(number)` in JavaScript.
pub(super) fn js_number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return hunkloom::text::js_number_to_string(u as f64);
    }
    hunkloom::text::js_number_to_string(n.as_f64().unwrap_or(0.0))
}

/// Validates (and coerces, in place) an object value against `shape`.
fn check(value: &mut Value, shape: &Shape, at: &[PathStep]) -> Result<(), Failure> {
    let Some(map) = value.as_object_mut() else {
        return Err(Failure {
            message: "must be object".to_owned(),
            retry_at: (!at.is_empty()).then(|| at.to_vec()),
        });
    };
    if let Some(missing) = shape.required.iter().find(|k| !map.contains_key(**k)) {
        return Err(Failure {
            message: format!("must have required property '{missing}'"),
            retry_at: None,
        });
    }
    check_properties(map, shape, at)
}

fn check_properties(
    map: &mut Map<String, Value>,
    shape: &Shape,
    at: &[PathStep],
) -> Result<(), Failure> {
    for (name, kind) in shape.properties {
        let Some(v) = map.get_mut(*name) else {
            continue;
        };
        match kind {
            Kind::String => {
                let coerced = match &*v {
                    Value::String(_) => None,
                    Value::Number(n) => Some(js_number(n)),
                    Value::Bool(b) => Some(b.to_string()),
                    Value::Null => Some(String::new()),
                    _ => {
                        return Err(Failure {
                            message: "must be string".to_owned(),
                            retry_at: None,
                        });
                    }
                };
                if let Some(s) = coerced {
                    *v = Value::String(s);
                }
            }
            Kind::Items(item) => {
                let mut here = at.to_vec();
                here.push(PathStep::Key(name));
                let Value::Array(items) = v else {
                    return Err(Failure {
                        message: "must be array".to_owned(),
                        retry_at: Some(here),
                    });
                };
                if items.is_empty() {
                    return Err(Failure {
                        message: "must NOT have fewer than 1 items".to_owned(),
                        retry_at: None,
                    });
                }
                for (i, element) in items.iter_mut().enumerate() {
                    let mut there = here.clone();
                    there.push(PathStep::Index(i));
                    check(element, item, &there)?;
                }
            }
        }
    }
    Ok(())
}

fn at_path<'a>(value: &'a mut Value, path: &[PathStep]) -> Option<&'a mut Value> {
    let mut v = value;
    for step in path {
        v = match step {
            PathStep::Key(k) => v.get_mut(*k)?,
            PathStep::Index(i) => v.get_mut(*i)?,
        };
    }
    Some(v)
}

/// Validates `input` against `shape`, coercing it in place; the error text on failure
/// (`ERROR: Your input to the tool was invalid (...)` and the advice line).
pub(super) fn validate(input: &mut Value, shape: &Shape) -> Result<(), String> {
    loop {
        let failure = match check(input, shape, &[]) {
            Ok(()) => return Ok(()),
            Err(f) => f,
        };
        let retried = failure.retry_at.as_deref().and_then(|path| {
            let slot = at_path(input, path)?;
            let parsed: Value = serde_json::from_str(slot.as_str()?).ok()?;
            if parsed.is_object() || parsed.is_array() {
                *slot = parsed;
                Some(())
            } else {
                None
            }
        });
        if retried.is_none() {
            return Err(format!(
                "ERROR: Your input to the tool was invalid ({})\nPlease check your input and try again.",
                failure.message
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ITEM: Shape = Shape {
        required: &["filePath", "oldString"],
        properties: &[("filePath", Kind::String), ("oldString", Kind::String)],
    };
    const MULTI: Shape = Shape {
        required: &["replacements"],
        properties: &[("replacements", Kind::Items(&ITEM))],
    };

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        for (v, s) in [
            (json!(42), "42"),
            (json!(1.5), "1.5"),
            (json!(1e21), "1e+21"),
            (json!(1e-7), "1e-7"),
            (json!(0.000001), "0.000001"),
            (json!(1.0), "1"),
        ] {
            assert_eq!(js_number(v.as_number().expect("number")), s, "{v}");
        }
    }

    #[test]
    fn coercion_and_the_json_string_retry() {
        let mut v = json!({"replacements": r#"[{"filePath": "/a", "oldString": null}]"#});
        assert_eq!(validate(&mut v, &MULTI), Ok(()));
        assert_eq!(v["replacements"][0]["oldString"], "");
        let mut empty = json!({"replacements": []});
        assert!(
            validate(&mut empty, &MULTI)
                .unwrap_err()
                .contains("(must NOT have fewer than 1 items)")
        );
        let mut missing = json!({"replacements": [{"filePath": "/a"}]});
        assert!(
            validate(&mut missing, &MULTI)
                .unwrap_err()
                .contains("(must have required property 'oldString')")
        );
    }
}

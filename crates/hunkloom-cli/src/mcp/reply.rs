//! [`Reply`]: what a tool call gives back, before it becomes an MCP `CallToolResult`; and the
//! reading of a call's arguments, whose mistakes are replies too.

use hunkloom_tools::ToolCode;
use rmcp::model::JsonObject;
use serde_json::Value;

use crate::mcp::tools::ToolName;

/// The answer to one tool call: the text for the model and, for a refusal, its stable code
/// (an engine, file-layer or text-editor code, e.g. `stale_file`, `search_not_found`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reply {
    pub(crate) text: String,
    pub(crate) code: Option<String>,
}

impl Reply {
    pub(crate) fn ok(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            code: None,
        }
    }

    pub(crate) fn refused(code: &str, text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            code: Some(code.to_owned()),
        }
    }

    pub(crate) fn is_error(&self) -> bool {
        self.code.is_some()
    }
}

/// A call's arguments, checked against the names its tool accepts.
pub(crate) struct Arguments<'a> {
    tool: ToolName,
    map: &'a JsonObject,
}

impl<'a> Arguments<'a> {
    /// The arguments of a call of `tool`; an argument the tool does not know is refused, so a
    /// misspelt name is not silently ignored.
    pub(crate) fn new(tool: ToolName, map: &'a JsonObject) -> Result<Arguments<'a>, Reply> {
        let known = tool.arguments();
        if let Some(unknown) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(Reply::refused(
                ToolCode::InvalidParameter.as_str(),
                format!(
                    "{} has no argument `{unknown}`; its arguments are {}.",
                    tool.as_str(),
                    list(known)
                ),
            ));
        }
        Ok(Arguments { tool, map })
    }

    /// The required string argument `key`.
    pub(crate) fn text(&self, key: &str) -> Result<&'a str, Reply> {
        match self.map.get(key) {
            Some(Value::String(s)) => Ok(s),
            None | Some(Value::Null) => Err(Reply::refused(
                ToolCode::MissingParameter.as_str(),
                format!(
                    "{} needs the argument `{key}` (a string).",
                    self.tool.as_str()
                ),
            )),
            Some(other) => Err(self.wrong_type(key, "a string", other)),
        }
    }

    /// The optional string argument `key`.
    pub(crate) fn optional_text(&self, key: &str) -> Result<Option<&'a str>, Reply> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.wrong_type(key, "a string", other)),
        }
    }

    /// The required `path` argument, which must not be empty.
    pub(crate) fn path(&self) -> Result<&'a str, Reply> {
        let path = self.text("path")?;
        if path.is_empty() {
            return Err(Reply::refused(
                ToolCode::InvalidParameter.as_str(),
                "`path` is empty: give the file's path, relative to the workspace root.",
            ));
        }
        Ok(path)
    }

    /// The optional 1-based line number `key`.
    pub(crate) fn line(&self, key: &str) -> Result<Option<usize>, Reply> {
        let value = match self.map.get(key) {
            None | Some(Value::Null) => return Ok(None),
            Some(value) => value,
        };
        let number = match value {
            Value::Number(n) => n.as_u64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                    .map(|f| f as u64)
            }),
            _ => return Err(self.wrong_type(key, "a whole number", value)),
        };
        match number.and_then(|n| usize::try_from(n).ok()) {
            Some(n) if n >= 1 => Ok(Some(n)),
            _ => Err(Reply::refused(
                ToolCode::InvalidParameter.as_str(),
                format!("`{key}` must be a line number, 1 or more, not {value}."),
            )),
        }
    }

    fn wrong_type(&self, key: &str, expected: &str, got: &Value) -> Reply {
        Reply::refused(
            ToolCode::InvalidParameter.as_str(),
            format!(
                "`{key}` of {} must be {expected}, not {} ({got}).",
                self.tool.as_str(),
                kind_of(got)
            ),
        )
    }
}

/// `a, b and c` in backticks.
fn list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "none".to_owned(),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn args(v: Value) -> JsonObject {
        match v {
            Value::Object(m) => m,
            _ => JsonObject::new(),
        }
    }

    #[test]
    fn unknown_missing_and_mistyped_arguments_are_refused_with_codes() {
        let m = args(json!({"file_path": "a"}));
        let e = Arguments::new(ToolName::ReadFile, &m)
            .err()
            .expect("refused");
        assert_eq!(e.code.as_deref(), Some("invalid_parameter"));
        assert!(
            e.text
                .contains("its arguments are `path`, `start_line` and `end_line`"),
            "{}",
            e.text
        );

        let m = args(json!({"diff": "x"}));
        let a = Arguments::new(ToolName::ApplyDiff, &m).expect("known");
        assert_eq!(
            a.path().err().and_then(|e| e.code).as_deref(),
            Some("missing_parameter")
        );

        let m = args(json!({"path": 3}));
        let a = Arguments::new(ToolName::ReadFile, &m).expect("known");
        let e = a.path().expect_err("refused");
        assert_eq!(e.code.as_deref(), Some("invalid_parameter"));
        assert!(
            e.text.contains("must be a string, not a number (3)"),
            "{}",
            e.text
        );
    }

    #[test]
    fn lines_are_positive_whole_numbers() {
        let m = args(json!({"path": "a", "start_line": 2, "end_line": 5.0}));
        let a = Arguments::new(ToolName::ReadFile, &m).expect("known");
        assert_eq!(a.line("start_line").ok(), Some(Some(2)));
        assert_eq!(a.line("end_line").ok(), Some(Some(5)));
        for bad in [json!(0), json!(-1), json!(1.5), json!("3"), json!([1])] {
            let m = args(json!({"path": "a", "start_line": bad}));
            let a = Arguments::new(ToolName::ReadFile, &m).expect("known");
            let e = a.line("start_line").expect_err("refused");
            assert_eq!(e.code.as_deref(), Some("invalid_parameter"), "{}", e.text);
        }
        let m = args(json!({"path": "a", "start_line": null}));
        let a = Arguments::new(ToolName::ReadFile, &m).expect("known");
        assert_eq!(a.line("start_line").ok(), Some(None));
    }
}

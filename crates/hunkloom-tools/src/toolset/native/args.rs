//! The reading of a native tool call's arguments: an argument the tool does not know, one
//! missing or of the wrong type is a [`Refusal`], never a guess.

use serde_json::{Map, Value};

use super::tools::ToolName;
use super::{Refusal, refused};
use crate::codes::ToolCode;
use crate::editor::kind_of;

/// A call's arguments, checked against the names its tool accepts.
pub(crate) struct Arguments<'a> {
    tool: ToolName,
    map: &'a Map<String, Value>,
}

impl<'a> Arguments<'a> {
    /// The arguments of a call of `tool`; an argument the tool does not know is refused, so a
    /// misspelt name is not silently ignored.
    pub(crate) fn new(
        tool: ToolName,
        map: &'a Map<String, Value>,
    ) -> Result<Arguments<'a>, Refusal> {
        let known = tool.arguments();
        if let Some(unknown) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(refused(
                ToolCode::InvalidParameter,
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
    pub(crate) fn text(&self, key: &str) -> Result<&'a str, Refusal> {
        match self.map.get(key) {
            Some(Value::String(s)) => Ok(s),
            None | Some(Value::Null) => Err(refused(
                ToolCode::MissingParameter,
                format!(
                    "{} needs the argument `{key}` (a string).",
                    self.tool.as_str()
                ),
            )),
            Some(other) => Err(self.wrong_type(key, "a string", other)),
        }
    }

    /// The optional string argument `key`.
    pub(crate) fn optional_text(&self, key: &str) -> Result<Option<&'a str>, Refusal> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.wrong_type(key, "a string", other)),
        }
    }

    /// The required `path` argument, which must not be empty.
    pub(crate) fn path(&self) -> Result<&'a str, Refusal> {
        let path = self.text("path")?;
        if path.is_empty() {
            return Err(refused(
                ToolCode::InvalidParameter,
                "`path` is empty: give the file's path, relative to the workspace root.",
            ));
        }
        Ok(path)
    }

    /// The optional 1-based line number `key`.
    pub(crate) fn line(&self, key: &str) -> Result<Option<usize>, Refusal> {
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
            _ => Err(refused(
                ToolCode::InvalidParameter,
                format!("`{key}` must be a line number, 1 or more, not {value}."),
            )),
        }
    }

    fn wrong_type(&self, key: &str, expected: &str, got: &Value) -> Refusal {
        refused(
            ToolCode::InvalidParameter,
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::tests::args;
    use super::*;

    #[test]
    fn unknown_missing_and_mistyped_arguments_are_refused_with_codes() {
        let m = args(json!({"file_path": "a"}));
        let e = Arguments::new(ToolName::ReadFile, &m)
            .err()
            .expect("refused");
        assert_eq!(e.code, "invalid_parameter");
        assert!(
            e.output
                .contains("its arguments are `path`, `start_line` and `end_line`"),
            "{}",
            e.output
        );

        let m = args(json!({"diff": "x"}));
        let a = Arguments::new(ToolName::ApplyDiff, &m).expect("known");
        assert_eq!(
            a.path().err().map(|e| e.code).as_deref(),
            Some("missing_parameter")
        );

        let m = args(json!({"path": 3}));
        let a = Arguments::new(ToolName::ReadFile, &m).expect("known");
        let e = a.path().expect_err("refused");
        assert_eq!(e.code, "invalid_parameter");
        assert!(
            e.output.contains("must be a string, not a number (3)"),
            "{}",
            e.output
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
            assert_eq!(e.code, "invalid_parameter", "{}", e.output);
        }
        let m = args(json!({"path": "a", "start_line": null}));
        let a = Arguments::new(ToolName::ReadFile, &m).expect("known");
        assert_eq!(a.line("start_line").ok(), Some(None));
    }
}

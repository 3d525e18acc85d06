//! The tool-operation corpora, read the same way by every runner:
//!
//! - `cline-content-fixes.jsonl`: [`content_fixes`] hands each row ([`ContentFixRow`]) to the
//!   runner and tallies it under its `op`.
//! - `roo-insert-content.jsonl`: [`roo_insert_content`] hands `tool` rows to the runner (which
//!   judges them with [`check_roo_tool`]), `insert_groups` rows to the runner if it can run them,
//!   and checks `documented` rows where the runner can observe them, else skips them with the
//!   reason in [`ROO_SKIP`].
//!
//! [`report`] prints both tallies and the skips and returns the failures.

use serde_json::Value;

use crate::str_field;
use crate::tally::{Tally, check};

/// The Cline content-fixes corpus, relative to [`vectors_dir`](crate::vectors_dir).
pub const CONTENT_FIXES: &str = "cline-content-fixes.jsonl";

/// The Roo `insert_content` corpus, relative to [`vectors_dir`](crate::vectors_dir).
pub const ROO_INSERT_CONTENT: &str = "roo-insert-content.jsonl";

/// Documented Roo rules no runner can check, each with the reason.
pub const ROO_SKIP: &[(&str, &str)] = &[(
    "roo-insert-055",
    "the missing-`path` check happens in the tool before any file is read; the core takes the \
     file's text, not a path, so there is nothing for it to reject",
)];

/// One `cline-content-fixes` row.
#[derive(Clone, Copy, Debug)]
pub struct ContentFixRow<'a> {
    /// The row's id.
    pub id: &'a str,
    /// The function: `apply_model_content_fixes`, `strip_markdown_fences` or
    /// `write_to_file_content`.
    pub op: &'a str,
    /// The text handed to it.
    pub text: &'a str,
    /// The model id, if any.
    pub model_id: Option<&'a str>,
    /// The file path, if any.
    pub file_path: Option<&'a str>,
    /// The expected result.
    pub expect: &'a str,
}

/// Every `cline-content-fixes` row through `run` (`Ok(true)` passed, `Err(why)` failed),
/// tallied per `op`.
pub fn content_fixes(mut run: impl FnMut(&ContentFixRow<'_>) -> Result<bool, String>) -> Tally {
    let mut tally = Tally::default();
    for v in crate::load_jsonl::<Value>(CONTENT_FIXES) {
        let row = ContentFixRow {
            id: str_field(&v, "id"),
            op: str_field(&v, "op"),
            text: str_field(&v, "text"),
            model_id: v["model_id"].as_str(),
            file_path: v["file_path"].as_str(),
            expect: str_field(&v, "expect"),
        };
        tally.record(row.op, row.id, run(&row));
    }
    tally
}

/// A Roo `line` argument: missing, text, or a number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RooLine<'a> {
    /// No `line`.
    Missing,
    /// `line` as text (parsed by the tool).
    Text(&'a str),
    /// `line` as a JSON number.
    Number(f64),
}

/// The arguments of a Roo `insert_content` call in a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RooInsert<'a> {
    /// The file's text, or `None` when it does not exist.
    pub original: Option<&'a str>,
    /// The `line` argument.
    pub line: RooLine<'a>,
    /// The `content` argument, if any.
    pub content: Option<&'a str>,
}

/// The `original`, `line` and `content` of row `v`.
///
/// # Panics
/// When `line` is neither null, a string nor a number.
pub fn roo_insert(v: &Value) -> RooInsert<'_> {
    let line = match &v["line"] {
        Value::Null => RooLine::Missing,
        Value::String(s) => RooLine::Text(s),
        Value::Number(n) => RooLine::Number(n.as_f64().expect("line number")),
        other => panic!("unexpected line argument {other}"),
    };
    RooInsert {
        original: v["original"].as_str(),
        line,
        content: v["content"].as_str(),
    }
}

/// What an `insert_content` call gave, as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RooOutcome {
    /// The new content and the edit type (`create` or `modify`).
    Inserted {
        /// The new content.
        content: String,
        /// `create` or `modify`.
        edit_type: String,
    },
    /// A refusal: the error code (`invalid_line_number`, ...) and message.
    Rejected {
        /// The error code.
        code: String,
        /// The error message.
        message: String,
    },
}

/// What the tool hands `pushToolResult` for an error: invalid lines are wrapped in Roo's generic
/// tool-error text, the missing-file refusal is pushed as is (and also said as an error).
pub fn roo_tool_result(code: &str, message: &str) -> String {
    match code {
        "invalid_line_number" => format!(
            "The tool execution failed with the following error:\n<error>\n{message}\n</error>"
        ),
        _ => message.to_owned(),
    }
}

/// Judges a `tool` row `v` given what the call on its [`roo_insert`] arguments gave.
pub fn check_roo_tool(v: &Value, got: RooOutcome) -> Result<bool, String> {
    let original = v["original"].as_str();
    if v["file_exists"].as_bool() != Some(original.is_some()) {
        return Err("file_exists disagrees with original".into());
    }
    let expect = &v["expect"];
    match (got, expect["success"].as_bool()) {
        (RooOutcome::Inserted { content, edit_type }, Some(true)) => {
            check(&content, str_field(expect, "content"))?;
            check(&edit_type, str_field(expect, "edit_type"))?;
            // The diff-view path re-adds a final newline the original had (documented rule).
            if let Some(want) = expect["diff_view_final_content"].as_str() {
                let mut view = content;
                if original.is_some_and(|o| o.ends_with('\n')) && !view.ends_with('\n') {
                    view.push('\n');
                }
                check(&view, want)?;
            }
            Ok(true)
        }
        (RooOutcome::Rejected { code, message }, Some(false)) => {
            check(&message, str_field(expect, "error"))?;
            check(
                &roo_tool_result(&code, &message),
                str_field(expect, "tool_result"),
            )?;
            let want_say = expect.get("say").cloned().unwrap_or(Value::Null);
            let got_say = if code == "invalid_line_for_new_file" {
                serde_json::json!([["error", message]])
            } else {
                Value::Null
            };
            if want_say != got_say {
                return Err(format!("say: want {want_say}, got {got_say}"));
            }
            Ok(true)
        }
        (got, _) => Err(format!("want {expect}, got {got:?}")),
    }
}

/// How a runner handles one kind of `roo-insert-content` row.
pub enum RooPart<'f> {
    /// Runs each row: `Ok(true)` passed, `Err(why)` failed.
    Run(&'f mut dyn FnMut(&Value) -> Result<bool, String>),
    /// Does not run them, for this reason (they are counted as not run).
    NotRun(&'static str),
}

/// Every `roo-insert-content` row, tallied as `tool`, `insert_groups` and `documented`.
///
/// `tool` and `insert_groups` rows go to the runner's parts. A `documented` row is skipped when
/// it is in [`ROO_SKIP`]; `roo-insert-054` (a non-integer `line` reaching the tool is not
/// rejected) is checked through `insert`, which makes the call on the row's [`roo_insert`]
/// arguments and gives `Ok(None)` when accepted, `Ok(Some(message))` when rejected and
/// `Err(why)` when the call itself failed.
pub fn roo_insert_content<'f>(
    tool: RooPart<'f>,
    insert_groups: RooPart<'f>,
    mut insert: impl FnMut(&Value) -> Result<Option<String>, String>,
) -> Tally {
    let mut parts = [("tool", tool), ("insert_groups", insert_groups)];
    let mut tally = Tally::default();
    for v in crate::load_jsonl::<Value>(ROO_INSERT_CONTENT) {
        let id = str_field(&v, "id");
        let kind = str_field(&v, "kind");
        if kind == "rule" {
            tally.record("documented", id, roo_rule(&v, &mut insert));
            continue;
        }
        match parts.iter_mut().find(|(name, _)| *name == kind) {
            Some((name, RooPart::Run(run))) => tally.record(name, id, run(&v)),
            Some((name, RooPart::NotRun(why))) => tally.not_run(name, why),
            None => panic!("{id}: unknown kind {kind}"),
        }
    }
    tally
}

/// A `documented` rule: checked where the runner can observe what it states.
fn roo_rule(
    v: &Value,
    insert: &mut impl FnMut(&Value) -> Result<Option<String>, String>,
) -> Result<bool, String> {
    let id = str_field(v, "id");
    if ROO_SKIP.iter().any(|(skip, _)| *skip == id) {
        return Ok(false);
    }
    match id {
        // The JSON schema (enforced by the model API) says integer >= 0; the note states that a
        // non-integer reaching the tool anyway is not rejected. That part is the core's.
        "roo-insert-054" => match insert(v)? {
            None => Ok(true),
            Some(message) => Err(format!("a non-integer line was rejected: {message}")),
        },
        other => Err(format!(
            "documented rule {other} has no check and no skip reason"
        )),
    }
}

/// Prints both tallies and the skipped rules, and returns every failure.
pub fn report(fixes: &Tally, roo: &Tally) -> Vec<String> {
    fixes.print("cline-content-fixes");
    roo.print("roo-insert-content");
    for (id, reason) in ROO_SKIP {
        println!("  skipped {id}: {reason}");
    }
    fixes
        .failures
        .iter()
        .chain(&roo.failures)
        .cloned()
        .collect()
}

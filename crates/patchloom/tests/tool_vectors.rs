//! Runs the tool-operation corpora and prints one line per corpus and part, then a total:
//! `<corpus> <part>: <passed>/<total> passed` and `<corpus>: <passed>/<total> passed`.
//!
//! - `cline-content-fixes.jsonl`: every row through the `fixes` function its `op` names.
//! - `roo-insert-content.jsonl`: `tool` rows through `ops::insert_content`, `insert_groups` rows
//!   through `ops::roo::insert_groups`, `documented` rows checked where the core can check what
//!   they state, else skipped with the reason printed (see `SKIP`).
//!
//! Exits non-zero on any failure.

mod common;

use common::vectors_dir;
use patchloom::ErrorKind;
use patchloom::fixes;
use patchloom::ops::roo::{InsertGroup, insert_groups};
use patchloom::ops::{LineArg, insert_content};
use serde_json::Value;

/// Vectors the core cannot check, each with the reason.
const SKIP: &[(&str, &str)] = &[(
    "roo-insert-055",
    "the missing-`path` check happens in the tool before any file is read; the core takes the \
     file's text, not a path, so there is nothing for it to reject",
)];

fn load(file: &str) -> Vec<Value> {
    let path = vectors_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

fn opt_str(v: &Value) -> Option<&str> {
    v.as_str()
}

fn str_field<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{}: `{key}` is not a string", v["id"]))
}

/// Tallies per part, in first-seen order.
#[derive(Default)]
struct Tally {
    parts: Vec<(String, usize, usize, usize)>,
    failures: Vec<String>,
}

impl Tally {
    fn record(&mut self, part: &str, id: &str, outcome: Result<bool, String>) {
        let at = match self.parts.iter().position(|p| p.0 == part) {
            Some(i) => i,
            None => {
                self.parts.push((part.to_owned(), 0, 0, 0));
                self.parts.len() - 1
            }
        };
        let entry = &mut self.parts[at];
        entry.2 += 1;
        match outcome {
            Ok(true) => entry.1 += 1,
            Ok(false) => entry.3 += 1,
            Err(why) => self.failures.push(format!("{id}: {why}")),
        }
    }

    fn print(&self, corpus: &str) {
        let (mut passed, mut total, mut skipped) = (0, 0, 0);
        for (part, p, t, s) in &self.parts {
            let skip_note = if *s > 0 {
                format!(", {s} skipped")
            } else {
                String::new()
            };
            println!("{corpus} {part}: {p}/{t} passed{skip_note}");
            passed += p;
            total += t;
            skipped += s;
        }
        let skip_note = if skipped > 0 {
            format!(", {skipped} skipped")
        } else {
            String::new()
        };
        println!("{corpus}: {passed}/{total} passed{skip_note}");
    }
}

fn check(got: &str, want: &str) -> Result<bool, String> {
    if got == want {
        Ok(true)
    } else {
        Err(format!("\n  want {want:?}\n  got  {got:?}"))
    }
}

fn content_fixes() -> Tally {
    let mut tally = Tally::default();
    for v in load("cline-content-fixes.jsonl") {
        let id = str_field(&v, "id");
        let op = str_field(&v, "op");
        let text = str_field(&v, "text");
        let model_id = opt_str(&v["model_id"]);
        let file_path = opt_str(&v["file_path"]);
        let want = str_field(&v, "expect");
        let got = match op {
            "apply_model_content_fixes" => {
                fixes::apply_model_content_fixes(text, model_id, file_path)
            }
            "strip_markdown_fences" => fixes::strip_markdown_fences(text),
            "write_to_file_content" => fixes::write(text, file_path, model_id).new_content,
            other => panic!("{id}: unknown op {other}"),
        };
        tally.record(op, id, check(&got, want));
    }
    tally
}

fn line_arg(v: &Value) -> LineArg {
    match v {
        Value::Null => LineArg::Missing,
        Value::String(s) => LineArg::Text(s.clone()),
        Value::Number(n) => LineArg::Number(n.as_f64().expect("line number")),
        other => panic!("unexpected line argument {other}"),
    }
}

/// What the tool hands `pushToolResult` for an error: invalid lines are wrapped in Roo's generic
/// tool-error text, the missing-file refusal is pushed as is (and also said as an error).
fn tool_result(kind: ErrorKind, message: &str) -> String {
    match kind {
        ErrorKind::InvalidLineNumber => format!(
            "The tool execution failed with the following error:\n<error>\n{message}\n</error>"
        ),
        _ => message.to_owned(),
    }
}

fn roo_tool(v: &Value) -> Result<bool, String> {
    let original = opt_str(&v["original"]);
    if v["file_exists"].as_bool() != Some(original.is_some()) {
        return Err("file_exists disagrees with original".into());
    }
    let expect = &v["expect"];
    let got = insert_content(original, line_arg(&v["line"]), opt_str(&v["content"]));
    match (got, expect["success"].as_bool()) {
        (Ok(got), Some(true)) => {
            check(&got.new_content, str_field(expect, "content"))?;
            check(got.edit_type.as_str(), str_field(expect, "edit_type"))?;
            // The diff-view path re-adds a final newline the original had (documented rule).
            if let Some(want) = expect["diff_view_final_content"].as_str() {
                let mut view = got.new_content.clone();
                if original.is_some_and(|o| o.ends_with('\n')) && !view.ends_with('\n') {
                    view.push('\n');
                }
                check(&view, want)?;
            }
            Ok(true)
        }
        (Err(e), Some(false)) => {
            check(e.message(), str_field(expect, "error"))?;
            check(
                &tool_result(e.kind(), e.message()),
                str_field(expect, "tool_result"),
            )?;
            let said = e.kind() == ErrorKind::InvalidLineForNewFile;
            let want_say = expect.get("say").cloned().unwrap_or(Value::Null);
            let got_say = if said {
                serde_json::json!([["error", e.message()]])
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

fn roo_insert_groups(v: &Value) -> Result<bool, String> {
    let strings = |x: &Value| -> Vec<String> {
        x.as_array()
            .expect("array")
            .iter()
            .map(|s| s.as_str().expect("string").to_owned())
            .collect()
    };
    let original = strings(&v["original_lines"]);
    let original: Vec<&str> = original.iter().map(String::as_str).collect();
    let groups: Vec<InsertGroup> = v["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| InsertGroup {
            index: g["index"].as_i64().expect("index"),
            elements: strings(&g["elements"]),
        })
        .collect();
    let got = insert_groups(&original, &groups);
    let want = strings(&v["expect"]["lines"]);
    if got == want {
        Ok(true)
    } else {
        Err(format!("\n  want {want:?}\n  got  {got:?}"))
    }
}

/// A `documented` rule: checked where the core can observe what it states.
fn roo_rule(v: &Value) -> Result<bool, String> {
    let id = str_field(v, "id");
    if SKIP.iter().any(|(skip, _)| *skip == id) {
        return Ok(false);
    }
    match id {
        // The JSON schema (enforced by the model API) says integer >= 0; the note states that a
        // non-integer reaching the tool anyway is not rejected. That part is the core's.
        "roo-insert-054" => {
            let got = insert_content(
                opt_str(&v["original"]),
                line_arg(&v["line"]),
                opt_str(&v["content"]),
            );
            match got {
                Ok(_) => Ok(true),
                Err(e) => Err(format!("a non-integer line was rejected: {}", e.message())),
            }
        }
        other => Err(format!(
            "documented rule {other} has no check and no skip reason"
        )),
    }
}

fn roo_insert_content() -> Tally {
    let mut tally = Tally::default();
    for v in load("roo-insert-content.jsonl") {
        let id = str_field(&v, "id");
        let kind = str_field(&v, "kind");
        let (part, outcome) = match kind {
            "tool" => ("tool", roo_tool(&v)),
            "insert_groups" => ("insert_groups", roo_insert_groups(&v)),
            "rule" => ("documented", roo_rule(&v)),
            other => panic!("{id}: unknown kind {other}"),
        };
        tally.record(part, id, outcome);
    }
    tally
}

fn main() {
    let fixes = content_fixes();
    fixes.print("cline-content-fixes");
    let roo = roo_insert_content();
    roo.print("roo-insert-content");
    for (id, reason) in SKIP {
        println!("  skipped {id}: {reason}");
    }
    let failures: Vec<&String> = fixes.failures.iter().chain(&roo.failures).collect();
    if !failures.is_empty() {
        for f in failures.iter().take(20) {
            eprintln!("FAIL {f}");
        }
        eprintln!("{} failures", failures.len());
        std::process::exit(1);
    }
}

//! The tool-operation corpora through the C ABI only, read the way the core's runner
//! (`crates/patchloom/tests/tool_vectors.rs`) reads them:
//!
//! - `cline-content-fixes.jsonl`: every row through the function its `op` names
//!   (`pl_apply_model_content_fixes`, `pl_strip_markdown_fences`, `pl_write`); for `pl_write`
//!   the fixes it reports are also checked against the engine's names.
//! - `roo-insert-content.jsonl`: `tool` rows through `pl_insert_content` (a text `line`, or
//!   `(NULL, 0)` when missing) or `pl_insert_content_number` (a number); `documented` rows as the
//!   core checks them, with the same skip and reason. The `insert_groups` rows exercise the
//!   core's array helper, which the C ABI does not expose; they are counted as not run here.
//!
//! Prints `<corpus> <part>: <passed>/<total> passed` and `<corpus>: <passed>/<total> passed`
//! (visible with `--nocapture`, as `make test-c` runs it).

use serde_json::Value;

use super::common::vectors_dir;
use super::ffi::CError;
use super::ops_ffi::{Line, OneFix, apply_model_content_fixes, insert_content, one_fix, write};
use crate::*;

/// Vectors the C ABI cannot check, each with the reason (the core runner's own skip).
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

fn opt_bytes(v: &Value) -> Option<&[u8]> {
    v.as_str().map(str::as_bytes)
}

fn str_field<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{}: `{key}` is not a string", v["id"]))
}

/// Tallies per part, in first-seen order: (part, passed, total, skipped).
#[derive(Default)]
struct Tally {
    parts: Vec<(String, usize, usize, usize)>,
    not_run: Vec<(String, usize, &'static str)>,
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

    fn not_run(&mut self, part: &str, why: &'static str) {
        match self.not_run.iter_mut().find(|p| p.0 == part) {
            Some(p) => p.1 += 1,
            None => self.not_run.push((part.to_owned(), 1, why)),
        }
    }

    fn print(&self, corpus: &str) {
        let skip_note = |s: usize| {
            if s > 0 {
                format!(", {s} skipped")
            } else {
                String::new()
            }
        };
        let (mut passed, mut total, mut skipped) = (0, 0, 0);
        for (part, p, t, s) in &self.parts {
            println!("{corpus} {part}: {p}/{t} passed{}", skip_note(*s));
            passed += p;
            total += t;
            skipped += s;
        }
        for (part, n, why) in &self.not_run {
            println!("{corpus} {part}: {n} not run ({why})");
        }
        println!("{corpus}: {passed}/{total} passed{}", skip_note(skipped));
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
        let model_id = opt_bytes(&v["model_id"]);
        let file_path = opt_bytes(&v["file_path"]);
        let want = str_field(&v, "expect");
        let outcome = match op {
            "apply_model_content_fixes" => {
                apply_model_content_fixes(text.as_bytes(), model_id, file_path)
                    .map_err(|s| format!("{s:?}"))
                    .and_then(|got| check(&got, want))
            }
            "strip_markdown_fences" => one_fix(OneFix::StripMarkdownFences, text.as_bytes())
                .map_err(|s| format!("{s:?}"))
                .and_then(|got| check(&got, want)),
            "write_to_file_content" => write(text.as_bytes(), file_path, model_id)
                .map_err(|s| format!("{s:?}"))
                .and_then(|(got, names)| {
                    let engine =
                        engine::fixes::write(text, v["file_path"].as_str(), v["model_id"].as_str());
                    if names != engine.fixes_applied {
                        return Err(format!(
                            "fixes applied {names:?}, engine {:?}",
                            engine.fixes_applied
                        ));
                    }
                    check(&got, want)
                }),
            other => panic!("{id}: unknown op {other}"),
        };
        tally.record(op, id, outcome);
    }
    tally
}

fn line(v: &Value) -> Line<'_> {
    match v {
        Value::Null => Line::Missing,
        Value::String(s) => Line::Text(s.as_bytes()),
        Value::Number(n) => Line::Number(n.as_f64().expect("line number")),
        other => panic!("unexpected line argument {other}"),
    }
}

/// What the tool hands `pushToolResult` for an error: invalid lines are wrapped in Roo's generic
/// tool-error text, the missing-file refusal is pushed as is (and also said as an error).
fn tool_result(code: &str, message: &str) -> String {
    match code {
        "invalid_line_number" => format!(
            "The tool execution failed with the following error:\n<error>\n{message}\n</error>"
        ),
        _ => message.to_owned(),
    }
}

fn edit_type_name(t: pl_edit_type) -> Result<&'static str, String> {
    match t {
        PL_EDIT_TYPE_CREATE => Ok("create"),
        PL_EDIT_TYPE_MODIFY => Ok("modify"),
        other => Err(format!("edit type {other} is no PL_EDIT_TYPE_ value")),
    }
}

fn roo_tool(v: &Value) -> Result<bool, String> {
    let original = opt_bytes(&v["original"]);
    if v["file_exists"].as_bool() != Some(original.is_some()) {
        return Err("file_exists disagrees with original".into());
    }
    let expect = &v["expect"];
    let got = insert_content(original, line(&v["line"]), opt_bytes(&v["content"]))
        .map_err(|s| format!("binding status {s:?}"))?;
    match (got, expect["success"].as_bool()) {
        (Ok((content, edit_type)), Some(true)) => {
            check(&content, str_field(expect, "content"))?;
            check(edit_type_name(edit_type)?, str_field(expect, "edit_type"))?;
            // The diff-view path re-adds a final newline the original had (documented rule).
            if let Some(want) = expect["diff_view_final_content"].as_str() {
                let mut view = content.clone();
                if original.is_some_and(|o| o.ends_with(b"\n")) && !view.ends_with('\n') {
                    view.push('\n');
                }
                check(&view, want)?;
            }
            Ok(true)
        }
        (
            Err(CError {
                status,
                code,
                message,
            }),
            Some(false),
        ) => {
            if status != pl_status::EditRejected {
                return Err(format!("{code} came with {status:?}"));
            }
            check(&message, str_field(expect, "error"))?;
            check(
                &tool_result(&code, &message),
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

/// A `documented` rule: checked where the C ABI can observe what it states.
fn roo_rule(v: &Value) -> Result<bool, String> {
    let id = str_field(v, "id");
    if SKIP.iter().any(|(skip, _)| *skip == id) {
        return Ok(false);
    }
    match id {
        // A non-integer native `line` is outside the schema but not rejected by the tool.
        "roo-insert-054" => {
            let got = insert_content(
                opt_bytes(&v["original"]),
                line(&v["line"]),
                opt_bytes(&v["content"]),
            )
            .map_err(|s| format!("binding status {s:?}"))?;
            match got {
                Ok(_) => Ok(true),
                Err(e) => Err(format!("a non-integer line was rejected: {}", e.message)),
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
        match str_field(&v, "kind") {
            "tool" => tally.record("tool", id, roo_tool(&v)),
            "rule" => tally.record("documented", id, roo_rule(&v)),
            "insert_groups" => tally.not_run(
                "insert_groups",
                "the core's array helper, not in the C ABI; the core runner checks them",
            ),
            other => panic!("{id}: unknown kind {other}"),
        }
    }
    tally
}

#[test]
fn tool_operation_vectors_through_the_c_abi() {
    let fixes = content_fixes();
    fixes.print("cline-content-fixes");
    let roo = roo_insert_content();
    roo.print("roo-insert-content");
    for (id, reason) in SKIP {
        println!("  skipped {id}: {reason}");
    }
    let failures: Vec<&String> = fixes.failures.iter().chain(&roo.failures).collect();
    for f in failures.iter().take(20) {
        eprintln!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    // Every row was seen: the corpora's documented sizes.
    let total = |t: &Tally| t.parts.iter().map(|p| p.2).sum::<usize>();
    assert_eq!(total(&fixes), 523);
    assert_eq!(
        total(&roo) + roo.not_run.iter().map(|p| p.1).sum::<usize>(),
        55
    );
}

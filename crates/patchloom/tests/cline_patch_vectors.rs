//! Runs `cline-apply-patch.jsonl` through the core's Cline patch dialect and prints one line per
//! op: `cline-apply-patch <op>: <passed>/<total> passed`.
//!
//! - `patch_parser_parse` rows: `patch::cline::parse_lines` (Cline's `PatchParser`) — the
//!   actions, warnings and fuzz, or the error message.
//! - `apply_patch` rows: `patch::plan_patch` in the Cline dialect, applied to the row's files —
//!   the whole file map afterwards, the deleted paths, the fuzz, each update's start lines and
//!   the warnings, or the error message.
//!
//! No row is skipped. Exits non-zero on any failure.

mod common;

use std::collections::BTreeMap;

use common::vectors_dir;
use patchloom::patch::cline::{ClineParse, parse_lines};
use patchloom::patch::{ChangeKind, PatchDialect, PatchOptions, Warning, plan_patch};
use serde_json::{Map, Value, json};

fn files_of(v: &Value) -> BTreeMap<String, String> {
    v.as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

fn warnings_json(warnings: &[Warning]) -> Value {
    Value::Array(
        warnings
            .iter()
            .map(|w| {
                let mut m = Map::new();
                m.insert("path".into(), json!(w.path));
                if let Some(i) = w.chunk_index {
                    m.insert("chunkIndex".into(), json!(i));
                }
                m.insert("message".into(), json!(w.message));
                if let Some(c) = &w.context {
                    m.insert("context".into(), json!(c));
                }
                Value::Object(m)
            })
            .collect(),
    )
}

/// Cline's `{patch, fuzz}` as JSON, `warnings` left out when empty (as Cline deletes it).
fn parse_json(p: &ClineParse) -> Value {
    let mut actions = Map::new();
    for (path, a) in &p.actions {
        let mut m = Map::new();
        m.insert("type".into(), json!(a.kind.as_str()));
        if let Some(f) = &a.new_file {
            m.insert("newFile".into(), json!(f));
        }
        let chunks: Vec<Value> = a
            .chunks
            .iter()
            .map(|c| json!({"origIndex": c.orig_index, "delLines": c.del_lines, "insLines": c.ins_lines}))
            .collect();
        m.insert("chunks".into(), Value::Array(chunks));
        if let Some(mp) = &a.move_path {
            m.insert("movePath".into(), json!(mp));
        }
        actions.insert(path.clone(), Value::Object(m));
    }
    let mut patch = Map::new();
    patch.insert("actions".into(), Value::Object(actions));
    if !p.warnings.is_empty() {
        patch.insert("warnings".into(), warnings_json(&p.warnings));
    }
    json!({"patch": Value::Object(patch), "fuzz": p.fuzz})
}

fn error_json(e: &patchloom::Error) -> Value {
    json!({"error": e.message(), "error_name": "DiffError"})
}

fn run_parse(row: &Value) -> Value {
    let lines: Vec<&str> = row["lines"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    match parse_lines(&lines, &files_of(&row["files"])) {
        Ok(p) => parse_json(&p),
        Err(e) => error_json(&e),
    }
}

fn run_apply(row: &Value) -> Value {
    let mut files = files_of(&row["files"]);
    let options = PatchOptions::new().dialect(PatchDialect::Cline);
    let plan = match plan_patch(row["patch"].as_str().unwrap_or_default(), &files, &options) {
        Ok(plan) => plan,
        Err(e) => return error_json(&e),
    };
    let deleted = plan.apply_to(&mut files);
    let mut starts = Map::new();
    for c in &plan.changes {
        if let ChangeKind::Update { start_lines, .. } = &c.kind {
            starts.insert(c.path.clone(), json!(start_lines));
        }
    }
    let mut out = json!({
        "files": files,
        "deleted": deleted,
        "fuzz": plan.fuzz,
        "start_line_numbers": Value::Object(starts),
    });
    if !plan.warnings.is_empty() {
        out["warnings"] = warnings_json(&plan.warnings);
    }
    out
}

fn main() {
    let path = vectors_dir().join("cline-apply-patch.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut tallies: Vec<(String, usize, usize)> = Vec::new();
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}"));
        let op = row["op"].as_str().unwrap_or_default().to_owned();
        let got = match op.as_str() {
            "patch_parser_parse" => run_parse(&row),
            "apply_patch" => run_apply(&row),
            other => panic!("unknown op {other}"),
        };
        let ok = got == row["expect"];
        if !ok {
            failures.push(format!(
                "{} ({}):\n  expected {}\n  got      {}",
                row["id"], row["name"], row["expect"], got
            ));
        }
        match tallies.iter_mut().find(|t| t.0 == op) {
            Some(t) => {
                t.1 += usize::from(ok);
                t.2 += 1;
            }
            None => tallies.push((op, usize::from(ok), 1)),
        }
    }
    for (op, passed, total) in &tallies {
        println!("cline-apply-patch {op}: {passed}/{total} passed");
    }
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("FAIL {f}");
        }
        std::process::exit(1);
    }
}

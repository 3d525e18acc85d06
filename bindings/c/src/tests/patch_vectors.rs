//! `cline-apply-patch.jsonl` through the C ABI only: every `apply_patch` row through
//! `pl_apply_patch` in `PL_PATCH_DIALECT_CLINE`, read back through the `pl_patch_result_`
//! accessors and compared as the core's runner (`crates/patchloom/tests/cline_patch_vectors.rs`)
//! compares it: the whole file map afterwards, the deleted paths, the fuzz, each update's start
//! lines and the warnings, or the error message.
//!
//! The `patch_parser_parse` rows exercise Cline's `PatchParser` on its own, which the C ABI does
//! not expose; they are counted as not run. Prints `cline-apply-patch apply_patch: <passed>/<total>
//! passed` (visible with `--nocapture`, as `make test-c` runs it).

use serde_json::{Map, Value, json};

use super::common::vectors_dir;
use super::patch_ffi::{PatchOut, apply_patch};
use crate::*;

fn warnings_json(out: &PatchOut) -> Value {
    Value::Array(
        out.warnings
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

/// The row through `pl_apply_patch`, as the JSON the core's runner builds.
fn run_apply(row: &Value) -> Result<Value, String> {
    let files: Vec<(&str, &str)> = row["files"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default();
    let options = pl_patch_options {
        dialect: PL_PATCH_DIALECT_CLINE,
        policy: PL_POLICY_ALL_OR_NOTHING,
    };
    let patch = row["patch"].as_str().unwrap_or_default();
    let out = match apply_patch(patch, &files, Some(options))? {
        Ok(out) => out,
        Err(e) => return Ok(json!({"error": e.message, "error_name": "DiffError"})),
    };
    let mut starts = Map::new();
    for c in &out.changes {
        if c.kind == PL_PATCH_CHANGE_UPDATE {
            starts.insert(c.path.clone(), json!(c.start_lines));
        }
    }
    let files: Map<String, Value> = out
        .files
        .iter()
        .map(|(p, c)| (p.clone(), json!(c)))
        .collect();
    let mut got = json!({
        "files": files,
        "deleted": out.deleted,
        "fuzz": out.fuzz,
        "start_line_numbers": Value::Object(starts),
    });
    if !out.warnings.is_empty() {
        got["warnings"] = warnings_json(&out);
    }
    Ok(got)
}

#[test]
fn cline_apply_patch_vectors_through_the_c_abi() {
    let path = vectors_dir().join("cline-apply-patch.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let (mut passed, mut total, mut not_run) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}"));
        match row["op"].as_str() {
            Some("apply_patch") => {}
            Some("patch_parser_parse") => {
                not_run += 1;
                continue;
            }
            other => panic!("unknown op {other:?}"),
        }
        total += 1;
        match run_apply(&row) {
            Ok(got) if got == row["expect"] => passed += 1,
            Ok(got) => failures.push(format!(
                "{} ({}):\n  expected {}\n  got      {}",
                row["id"], row["name"], row["expect"], got
            )),
            Err(why) => failures.push(format!("{}: {why}", row["id"])),
        }
    }
    println!("cline-apply-patch apply_patch: {passed}/{total} passed");
    println!(
        "cline-apply-patch patch_parser_parse: {not_run} not run (Cline's PatchParser alone is not \
         part of the C ABI)"
    );
    assert!(total > 0, "no apply_patch rows");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

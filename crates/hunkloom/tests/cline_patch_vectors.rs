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

use hunkloom::patch::cline::{ClineParse, parse_lines};
use hunkloom::patch::{ChangeKind, PatchDialect, PatchOptions, Warning, plan_patch};
use hunkloom_testkit::Tally;
use hunkloom_testkit::cline::{
    CLINE_APPLY_PATCH, CLINE_APPLY_PATCH_CORPUS, PatchJson, PatchWarning, check_expect,
    patch_error_json, patch_files, row_label, warnings_json,
};
use serde_json::{Map, Value, json};

fn warning(w: &Warning) -> PatchWarning<'_> {
    PatchWarning {
        path: &w.path,
        chunk_index: w.chunk_index,
        message: &w.message,
        context: w.context.as_deref(),
    }
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
        patch.insert(
            "warnings".into(),
            warnings_json(p.warnings.iter().map(warning)),
        );
    }
    json!({"patch": Value::Object(patch), "fuzz": p.fuzz})
}

fn run_parse(row: &Value) -> Value {
    let lines: Vec<&str> = row["lines"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    match parse_lines(&lines, &patch_files(&row["files"])) {
        Ok(p) => parse_json(&p),
        Err(e) => patch_error_json(e.message()),
    }
}

fn run_apply(row: &Value) -> Value {
    let mut files = patch_files(&row["files"]);
    let options = PatchOptions::new().dialect(PatchDialect::Cline);
    let plan = match plan_patch(row["patch"].as_str().unwrap_or_default(), &files, &options) {
        Ok(plan) => plan,
        Err(e) => return patch_error_json(e.message()),
    };
    let deleted = plan.apply_to(&mut files);
    PatchJson {
        files: files
            .iter()
            .map(|(p, c)| (p.as_str(), c.as_str()))
            .collect(),
        deleted: &deleted,
        fuzz: plan.fuzz,
        start_lines: plan
            .changes
            .iter()
            .filter_map(|c| match &c.kind {
                ChangeKind::Update { start_lines, .. } => {
                    Some((c.path.as_str(), start_lines.as_slice()))
                }
                _ => None,
            })
            .collect(),
        warnings: plan.warnings.iter().map(warning).collect(),
    }
    .to_json()
}

fn main() {
    let mut tally = Tally::default();
    for row in hunkloom_testkit::load_jsonl::<Value>(CLINE_APPLY_PATCH) {
        let op = row["op"].as_str().unwrap_or_default();
        let got = match op {
            "patch_parser_parse" => run_parse(&row),
            "apply_patch" => run_apply(&row),
            other => panic!("unknown op {other}"),
        };
        tally.record(op, &row_label(&row), check_expect(&row, &got));
    }
    tally.print_parts(CLINE_APPLY_PATCH_CORPUS);
    hunkloom_testkit::exit_on_failures(&tally.failures, usize::MAX, "failures");
}

//! Runs the tool-operation corpora and prints one line per corpus and part, then a total:
//! `<corpus> <part>: <passed>/<total> passed` and `<corpus>: <passed>/<total> passed`.
//!
//! - `cline-content-fixes.jsonl`: every row through the `fixes` function its `op` names.
//! - `roo-insert-content.jsonl`: `tool` rows through `ops::insert_content`, `insert_groups` rows
//!   through `ops::roo::insert_groups`, `documented` rows checked where the core can check what
//!   they state, else skipped with the reason printed (see `ROO_SKIP` in
//!   `hunkloom_testkit::tools`).
//!
//! Exits non-zero on any failure.

use hunkloom::fixes;
use hunkloom::ops::roo::{InsertGroup, insert_groups};
use hunkloom::ops::{LineArg, insert_content};
use hunkloom_testkit::check;
use hunkloom_testkit::tools::{
    ContentFixRow, RooLine, RooOutcome, RooPart, check_roo_tool, content_fixes, report, roo_insert,
    roo_insert_content,
};
use serde_json::Value;

fn content_fix(row: &ContentFixRow<'_>) -> Result<bool, String> {
    let got = match row.op {
        "apply_model_content_fixes" => {
            fixes::apply_model_content_fixes(row.text, row.model_id, row.file_path)
        }
        "strip_markdown_fences" => fixes::strip_markdown_fences(row.text),
        "write_to_file_content" => fixes::write(row.text, row.file_path, row.model_id).new_content,
        other => panic!("{}: unknown op {other}", row.id),
    };
    check(&got, row.expect)
}

/// The row's `insert_content` call through the core.
fn insert(v: &Value) -> Result<RooOutcome, hunkloom::Error> {
    let args = roo_insert(v);
    let line = match args.line {
        RooLine::Missing => LineArg::Missing,
        RooLine::Text(s) => LineArg::Text(s.to_owned()),
        RooLine::Number(n) => LineArg::Number(n),
    };
    insert_content(args.original, line, args.content).map(|got| RooOutcome::Inserted {
        content: got.new_content,
        edit_type: got.edit_type.as_str().to_owned(),
    })
}

fn roo_tool(v: &Value) -> Result<bool, String> {
    let got = insert(v).unwrap_or_else(|e| RooOutcome::Rejected {
        code: e.code().to_owned(),
        message: e.message().to_owned(),
    });
    check_roo_tool(v, got)
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

fn main() {
    let fixes = content_fixes(content_fix);
    let roo = roo_insert_content(
        RooPart::Run(&mut roo_tool),
        RooPart::Run(&mut roo_insert_groups),
        |v| Ok(insert(v).err().map(|e| e.message().to_owned())),
    );
    let failures = report(&fixes, &roo);
    hunkloom_testkit::exit_on_failures(&failures, 20, "failures");
}

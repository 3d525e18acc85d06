//! The tool-operation corpora through the C ABI only, read the way the core's runner
//! (`crates/hunkloom/tests/tool_vectors.rs`) reads them:
//!
//! - `cline-content-fixes.jsonl`: every row through the function its `op` names
//!   (`hl_apply_model_content_fixes`, `hl_strip_markdown_fences`, `hl_write`); for `hl_write`
//!   the fixes it reports are also checked against the engine's names.
//! - `roo-insert-content.jsonl`: `tool` rows through `hl_insert_content` (a text `line`, or
//!   `(NULL, 0)` when missing) or `hl_insert_content_number` (a number); `documented` rows as the
//!   core checks them, with the same skip and reason. The `insert_groups` rows exercise the
//!   core's array helper, which the C ABI does not expose; they are counted as not run here.
//!
//! Prints `<corpus> <part>: <passed>/<total> passed` and `<corpus>: <passed>/<total> passed`
//! (visible with `--nocapture`, as `make test-c` runs it).

use hunkloom_testkit::check;
use hunkloom_testkit::tools::{
    ContentFixRow, RooInsert, RooLine, RooOutcome, RooPart, check_roo_tool, content_fixes, report,
    roo_insert, roo_insert_content,
};
use serde_json::Value;

use super::ffi::CError;
use super::ops_ffi::{Line, OneFix, apply_model_content_fixes, insert_content, one_fix, write};
use hunkloom_c::*;

fn content_fix(row: &ContentFixRow<'_>) -> Result<bool, String> {
    let text = row.text.as_bytes();
    let model_id = row.model_id.map(str::as_bytes);
    let file_path = row.file_path.map(str::as_bytes);
    match row.op {
        "apply_model_content_fixes" => apply_model_content_fixes(text, model_id, file_path)
            .map_err(|s| format!("{s:?}"))
            .and_then(|got| check(&got, row.expect)),
        "strip_markdown_fences" => one_fix(OneFix::StripMarkdownFences, text)
            .map_err(|s| format!("{s:?}"))
            .and_then(|got| check(&got, row.expect)),
        "write_to_file_content" => write(text, file_path, model_id)
            .map_err(|s| format!("{s:?}"))
            .and_then(|(got, names)| {
                let engine = engine::fixes::write(row.text, row.file_path, row.model_id);
                if names != engine.fixes_applied {
                    return Err(format!(
                        "fixes applied {names:?}, engine {:?}",
                        engine.fixes_applied
                    ));
                }
                check(&got, row.expect)
            }),
        other => panic!("{}: unknown op {other}", row.id),
    }
}

fn edit_type_name(t: hl_edit_type) -> Result<&'static str, String> {
    match t {
        HL_EDIT_TYPE_CREATE => Ok("create"),
        HL_EDIT_TYPE_MODIFY => Ok("modify"),
        other => Err(format!("edit type {other} is no HL_EDIT_TYPE_ value")),
    }
}

/// The row's `insert_content` call through `hl_insert_content` (a text `line`, or `(NULL, 0)`
/// when missing) or `hl_insert_content_number` (a number).
fn insert(v: &Value) -> Result<Result<(String, hl_edit_type), CError>, String> {
    let RooInsert {
        original,
        line,
        content,
    } = roo_insert(v);
    let (original, content) = (original.map(str::as_bytes), content.map(str::as_bytes));
    let line = match line {
        RooLine::Text(s) => Line::Text(s.as_bytes()),
        RooLine::Number(n) => Line::Number(n),
        RooLine::Missing => Line::Missing,
    };
    insert_content(original, line, content).map_err(|s| format!("binding status {s:?}"))
}

fn roo_tool(v: &Value) -> Result<bool, String> {
    let got = match insert(v)? {
        Ok((content, edit_type)) => RooOutcome::Inserted {
            content,
            edit_type: edit_type_name(edit_type)?.to_owned(),
        },
        Err(CError {
            status,
            code,
            message,
        }) => {
            if status != hl_status::EditRejected {
                return Err(format!("{code} came with {status:?}"));
            }
            RooOutcome::Rejected { code, message }
        }
    };
    check_roo_tool(v, got)
}

#[test]
fn tool_operation_vectors_through_the_c_abi() {
    let fixes = content_fixes(content_fix);
    let roo = roo_insert_content(
        RooPart::Run(&mut roo_tool),
        RooPart::NotRun("the core's array helper, not in the C ABI; the core runner checks them"),
        |v| Ok(insert(v)?.err().map(|e| e.message)),
    );
    let failures = report(&fixes, &roo);
    hunkloom_testkit::assert_no_failures(&failures, 20, "failures");
    // Every row was seen: the corpora's documented sizes.
    assert_eq!(fixes.total(), 523);
    assert_eq!(
        roo.total() + roo.not_run.iter().map(|p| p.1).sum::<usize>(),
        55
    );
}

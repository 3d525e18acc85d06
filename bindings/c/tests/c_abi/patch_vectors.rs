//! `cline-apply-patch.jsonl` through the C ABI only: every `apply_patch` row through
//! `hl_apply_patch` in `HL_PATCH_DIALECT_CLINE`, read back through the `hl_patch_result_`
//! accessors and compared as the core's runner (`crates/hunkloom/tests/cline_patch_vectors.rs`)
//! compares it: the whole file map afterwards, the deleted paths, the fuzz, each update's start
//! lines and the warnings, or the error message.
//!
//! The `patch_parser_parse` rows exercise Cline's `PatchParser` on its own, which the C ABI does
//! not expose; they are counted as not run. Prints `cline-apply-patch apply_patch: <passed>/<total>
//! passed` (visible with `--nocapture`, as `make test-c` runs it).

use hunkloom_testkit::Tally;
use hunkloom_testkit::cline::{
    CLINE_APPLY_PATCH, CLINE_APPLY_PATCH_CORPUS, PatchJson, PatchWarning, check_expect,
    patch_error_json, patch_files, row_label,
};
use serde_json::Value;

use super::patch_ffi::apply_patch;
use hunkloom_c::*;

/// The row through `hl_apply_patch`, as the JSON the core's runner builds.
fn run_apply(row: &Value) -> Result<Value, String> {
    let files = patch_files(&row["files"]);
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let options = hl_patch_options {
        dialect: HL_PATCH_DIALECT_CLINE,
        policy: HL_POLICY_ALL_OR_NOTHING,
        recount: false,
    };
    let patch = row["patch"].as_str().unwrap_or_default();
    let out = match apply_patch(patch, &files, Some(options))? {
        Ok(out) => out,
        Err(e) => return Ok(patch_error_json(&e.message)),
    };
    Ok(PatchJson {
        files: out
            .files
            .iter()
            .map(|(p, c)| (p.as_str(), c.as_str()))
            .collect(),
        deleted: &out.deleted,
        fuzz: out.fuzz,
        start_lines: out
            .changes
            .iter()
            .filter(|c| c.kind == HL_PATCH_CHANGE_UPDATE)
            .map(|c| (c.path.as_str(), c.start_lines.as_slice()))
            .collect(),
        warnings: out
            .warnings
            .iter()
            .map(|w| PatchWarning {
                path: &w.path,
                chunk_index: w.chunk_index,
                message: &w.message,
                context: w.context.as_deref(),
            })
            .collect(),
    }
    .to_json())
}

#[test]
fn cline_apply_patch_vectors_through_the_c_abi() {
    let mut tally = Tally::default();
    for row in hunkloom_testkit::load_jsonl::<Value>(CLINE_APPLY_PATCH) {
        match row["op"].as_str() {
            Some("apply_patch") => {
                let got = run_apply(&row);
                tally.record(
                    "apply_patch",
                    &row_label(&row),
                    got.and_then(|got| check_expect(&row, &got)),
                );
            }
            Some("patch_parser_parse") => tally.not_run(
                "patch_parser_parse",
                "Cline's PatchParser alone is not part of the C ABI",
            ),
            other => panic!("unknown op {other:?}"),
        }
    }
    tally.print_parts(CLINE_APPLY_PATCH_CORPUS);
    assert!(tally.total() > 0, "no apply_patch rows");
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
}

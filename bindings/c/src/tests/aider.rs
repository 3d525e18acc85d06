//! The aider corpora through `hl_apply_patch` in `HL_PATCH_DIALECT_AIDER`, `_AIDER_FENCED` and
//! `_AIDER_WHOLE`, checked as the core's runner (`crates/hunkloom/tests/aider_vectors.rs`)
//! checks them (`hunkloom_testkit::aider::check`). Prints `aider-<name>: <passed>/<total>
//! passed` (visible with `--nocapture`).

use std::collections::BTreeMap;

use hunkloom_testkit::aider::{AIDER_CORPORA, AiderCase, Answer, check};

use super::patch_ffi::apply_patch;
use crate::*;

fn answer(case: &AiderCase, policy: hl_policy) -> Answer {
    let files: Vec<(&str, &str)> = case
        .files
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let dialect = match case.dialect() {
        "aider-fenced" => HL_PATCH_DIALECT_AIDER_FENCED,
        "aider-whole" => HL_PATCH_DIALECT_AIDER_WHOLE,
        _ => HL_PATCH_DIALECT_AIDER,
    };
    let options = hl_patch_options {
        dialect,
        policy,
        recount: false,
    };
    match apply_patch(&case.reply, &files, Some(options))? {
        Ok(out) => Ok(out.files.into_iter().collect::<BTreeMap<_, _>>()),
        Err(e) => Err(e.message),
    }
}

#[test]
fn aider_vectors_through_the_c_abi() {
    let mut failures = Vec::new();
    for name in AIDER_CORPORA {
        let cases: Vec<AiderCase> = hunkloom_testkit::load_jsonl(name);
        let mut passed = 0;
        for case in &cases {
            let all = answer(case, HL_POLICY_ALL_OR_NOTHING);
            let partial = answer(case, HL_POLICY_PARTIAL);
            match check(case, &all, &partial) {
                Ok(()) => passed += 1,
                Err(why) => failures.push(format!("{} {why}", case.id)),
            }
        }
        let label = name.trim_start_matches("aider/").trim_end_matches(".jsonl");
        println!("aider-{label}: {passed}/{} passed", cases.len());
    }
    hunkloom_testkit::assert_no_failures(&failures, 10, "aider case");
}

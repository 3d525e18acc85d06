//! The aider corpora through `hl_apply_patch` in `HL_PATCH_DIALECT_AIDER`, `_AIDER_FENCED` and
//! `_AIDER_WHOLE`, checked as the core's runner (`crates/hunkloom/tests/aider_vectors.rs`)
//! checks them (`hunkloom_testkit::aider::check`), and the block replies through
//! `HL_PATCH_DIALECT_AIDER_NATIVE` (never other files than aider's where aider applied the
//! reply: `hunkloom_testkit::aider::native_verdict`). Prints `aider-<name>: <passed>/<total>
//! passed` and `aider-native-<name>: ...` (visible with `--nocapture`).

use std::collections::BTreeMap;

use hunkloom_testkit::aider::{
    AIDER_CORPORA, AiderCase, Answer, NativeVerdict, check, native_verdict,
};

use super::patch_ffi::apply_patch;
use crate::*;

fn answer(case: &AiderCase, policy: hl_policy) -> Answer {
    let dialect = match case.dialect() {
        "aider-fenced" => HL_PATCH_DIALECT_AIDER_FENCED,
        "aider-whole" => HL_PATCH_DIALECT_AIDER_WHOLE,
        _ => HL_PATCH_DIALECT_AIDER,
    };
    answer_in(case, dialect, policy)
}

fn answer_in(case: &AiderCase, dialect: hl_patch_dialect, policy: hl_policy) -> Answer {
    let files: Vec<(&str, &str)> = case
        .files
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
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
        let (mut correct, mut refused, mut wrong) = (0, 0, 0);
        for case in cases.iter().filter(|c| c.format != "whole") {
            let native = answer_in(
                case,
                HL_PATCH_DIALECT_AIDER_NATIVE,
                HL_POLICY_ALL_OR_NOTHING,
            );
            match native_verdict(case, &native) {
                NativeVerdict::Correct => correct += 1,
                NativeVerdict::Refused => refused += 1,
                NativeVerdict::Wrong(why) => {
                    wrong += 1;
                    failures.push(format!("{} aider-native wrong: {why}", case.id));
                }
                NativeVerdict::BothRefused | NativeVerdict::Unscored => {}
            }
        }
        println!(
            "aider-native-{label}: {correct}/{} correct, {refused} refused, {wrong} wrong",
            correct + refused + wrong
        );
    }
    hunkloom_testkit::assert_no_failures(&failures, 10, "aider case");
}

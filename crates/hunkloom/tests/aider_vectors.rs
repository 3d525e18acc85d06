//! The aider corpora through `plan_patch` in the `aider`, `aider-fenced` and `aider-whole`
//! dialects (see `hunkloom_testkit::aider`), printing `aider-<name>: <passed>/<total> passed`.
//! `HUNKLOOM_AIDER_CASE=<id>` runs one case.

use std::collections::BTreeMap;

use hunkloom::Policy;
use hunkloom::patch::{PatchDialect, PatchOptions, plan_patch};
use hunkloom_testkit::aider::{AIDER_CORPORA, AiderCase, Answer, check};
use hunkloom_testkit::{assert_no_failures, load_jsonl};

fn answer(case: &AiderCase, policy: Policy) -> Answer {
    let dialect: PatchDialect = case.dialect().parse().map_err(|e| format!("{e}"))?;
    let options = PatchOptions::new().dialect(dialect).policy(policy);
    let plan =
        plan_patch(&case.reply, &case.files, &options).map_err(|e| e.message().to_owned())?;
    let mut files: BTreeMap<String, String> = case.files.clone();
    plan.apply_to(&mut files);
    Ok(files)
}

fn main() {
    let only = std::env::var("HUNKLOOM_AIDER_CASE").ok();
    let mut failures = Vec::new();
    for name in AIDER_CORPORA {
        let cases: Vec<AiderCase> = load_jsonl(name);
        let mut passed = 0;
        let mut total = 0;
        for case in &cases {
            if only.as_ref().is_some_and(|id| *id != case.id) {
                continue;
            }
            total += 1;
            let all = answer(case, Policy::AllOrNothing);
            let partial = answer(case, Policy::Partial);
            match check(case, &all, &partial) {
                Ok(()) => passed += 1,
                Err(why) => failures.push(format!("{} ({}) {why}", case.id, case.format)),
            }
        }
        let label = name.trim_start_matches("aider/").trim_end_matches(".jsonl");
        println!("aider-{label}: {passed}/{total} passed");
    }
    assert_no_failures(&failures, 20, "aider case");
}

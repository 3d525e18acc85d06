//! The aider corpora through `plan_patch` in the `aider`, `aider-fenced` and `aider-whole`
//! dialects (see `hunkloom_testkit::aider`), printing `aider-<name>: <passed>/<total> passed`;
//! and the `diff`/`diff-fenced` replies through `aider-native`, printing `aider-native-<name>:
//! <correct>/<applied by aider> correct, <refused> refused, <wrong> wrong (<n> aider refused
//! too, <n> unscored)`, where a wrong answer fails the run. `HUNKLOOM_AIDER_CASE=<id>` runs
//! one case; `HUNKLOOM_AIDER_PREVIEW=1` names the replies whose preview before `finish` was not
//! the final files.

use std::collections::BTreeMap;

use hunkloom::Policy;
use hunkloom::patch::aider::AiderApplier;
use hunkloom::patch::{PatchDialect, PatchOptions, plan_patch};
use hunkloom_testkit::aider::{
    AIDER_CORPORA, AiderCase, Answer, NativeVerdict, check, native_verdict,
};
use hunkloom_testkit::{Chunking, SEED, assert_no_failures, load_jsonl};

fn answer(case: &AiderCase, policy: Policy) -> Answer {
    answer_in(case, case.dialect(), policy)
}

fn answer_in(case: &AiderCase, dialect: &str, policy: Policy) -> Answer {
    let dialect: PatchDialect = dialect.parse().map_err(|e| format!("{e}"))?;
    let options = PatchOptions::new().dialect(dialect).policy(policy);
    let plan =
        plan_patch(&case.reply, &case.files, &options).map_err(|e| e.message().to_owned())?;
    let mut files: BTreeMap<String, String> = case.files.clone();
    plan.apply_to(&mut files);
    Ok(files)
}

/// The reply pushed to an [`AiderApplier`] in `chunking`'s pieces: the files after `finish`,
/// or the error's message; `Err` also when a preview disagrees with the files at the end.
fn streamed(case: &AiderCase, dialect: &str, chunking: Chunking) -> Result<(Answer, bool), String> {
    let dialect: PatchDialect = dialect.parse().map_err(|e| format!("{e}"))?;
    let options = PatchOptions::new().dialect(dialect);
    let mut applier =
        AiderApplier::new(case.files.clone(), &options).map_err(|e| format!("{e}"))?;
    for piece in chunking.split(&case.reply) {
        if let Err(e) = applier.push(piece) {
            return Ok((Err(e.message().to_owned()), false));
        }
    }
    let before: BTreeMap<String, Option<String>> = case
        .expect
        .files
        .keys()
        .map(|p| (p.clone(), applier.preview(p).map(str::to_owned)))
        .collect();
    let plan = match applier.finish() {
        Ok(plan) => plan,
        Err(e) => return Ok((Err(e.message().to_owned()), false)),
    };
    let mut files = case.files.clone();
    plan.apply_to(&mut files);
    let previewed = files
        .iter()
        .all(|(p, t)| before.get(p) == Some(&Some(t.clone())));
    for (path, text) in &files {
        if applier.preview(path) != Some(text.as_str()) {
            return Err(format!(
                "{}: the preview of {path} is not the file after finish",
                chunking.name()
            ));
        }
    }
    Ok((Ok(files), previewed))
}

fn main() {
    let only = std::env::var("HUNKLOOM_AIDER_CASE").ok();
    let mut failures = Vec::new();
    for name in AIDER_CORPORA {
        let cases: Vec<AiderCase> = load_jsonl(name);
        let mut passed = 0;
        let mut total = 0;
        let (mut previewed, mut applied) = (0, 0);
        for case in &cases {
            if only.as_ref().is_some_and(|id| *id != case.id) {
                continue;
            }
            total += 1;
            let all = answer(case, Policy::AllOrNothing);
            let partial = answer(case, Policy::Partial);
            let mut verdict = check(case, &all, &partial);
            // The streamed form gives what the one-shot form gives, however the reply is cut.
            for chunking in [
                Chunking::Whole,
                Chunking::Line,
                Chunking::Char,
                Chunking::Random(SEED),
            ] {
                if verdict.is_err() {
                    break;
                }
                verdict = match streamed(case, case.dialect(), chunking) {
                    Ok((got, shown)) if got == all => {
                        if chunking == Chunking::Line && got.is_ok() {
                            applied += 1;
                            previewed += usize::from(shown);
                            if !shown && std::env::var("HUNKLOOM_AIDER_PREVIEW").is_ok() {
                                println!("not previewed: {} ({})", case.id, case.format);
                            }
                        }
                        Ok(())
                    }
                    Ok((got, _)) => Err(format!("{} streamed: {:?}", chunking.name(), got.err())),
                    Err(why) => Err(why),
                };
            }
            match verdict {
                Ok(()) => passed += 1,
                Err(why) => failures.push(format!("{} ({}) {why}", case.id, case.format)),
            }
        }
        let label = name.trim_start_matches("aider/").trim_end_matches(".jsonl");
        println!("aider-{label}: {passed}/{total} passed");
        println!(
            "aider-{label} streamed per line: {previewed}/{applied} applied replies previewed exactly before finish"
        );
        let (mut correct, mut refused, mut wrong, mut both, mut unscored) = (0, 0, 0, 0, 0);
        for case in cases.iter().filter(|c| c.format != "whole") {
            if only.as_ref().is_some_and(|id| *id != case.id) {
                continue;
            }
            match native_verdict(case, &answer_in(case, "aider-native", Policy::AllOrNothing)) {
                NativeVerdict::Correct => correct += 1,
                NativeVerdict::Refused => refused += 1,
                NativeVerdict::BothRefused => both += 1,
                NativeVerdict::Unscored => unscored += 1,
                NativeVerdict::Wrong(why) => {
                    wrong += 1;
                    failures.push(format!("{} (aider-native) wrong: {why}", case.id));
                }
            }
        }
        println!(
            "aider-native-{label}: {correct}/{} correct, {refused} refused, {wrong} wrong \
             ({both} aider refused too, {unscored} unscored)",
            correct + refused + wrong
        );
    }
    assert_no_failures(&failures, 20, "aider case");
}

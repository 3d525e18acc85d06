//! The unified-diff corpus (`tests/vectors/unified-diff.jsonl`) through the C ABI only, judged
//! exactly as the core's runner (`crates/hunkloom/tests/udiff_vectors.rs`) judges it:
//! `HL_DIALECT_UDIFF_STRICT` exact with `git apply` (and with `git apply --recount` when
//! `recount` is set), `HL_DIALECT_UDIFF` against the intent, and a `hl_applier` in each dialect
//! fed the diff whole, per line, at random character boundaries and at random bytes (inside
//! characters) giving `hl_apply_diff`'s outcome, its splices rebuilding the preview.
//!
//! Prints `udiff-strict: P/T exact`, `udiff-strict-recount: P/T exact`, `udiff-native: C/T
//! correct, R refused, W wrong (...)` and `udiff <dialect> <mode>: P/T passed` (visible with
//! `--nocapture`, as `make test-c` runs it).

use hunkloom_testkit::Tally;
use hunkloom_testkit::udiff::{
    NativeScore, Observed, UdiffCase, Verdict, judge_native, judge_strict, load_udiff,
};

use super::ffi::{Applier, apply, take_full};
use super::{MODES, Mode};
use hunkloom_c::*;

fn options(dialect: hl_dialect, recount: bool) -> hl_apply_options {
    hl_apply_options {
        dialect,
        policy: HL_POLICY_ALL_OR_NOTHING,
        recount,
        ..Default::default()
    }
}

fn stateless(case: &UdiffCase, dialect: hl_dialect, recount: bool) -> Result<Observed, String> {
    let o = options(dialect, recount);
    let (status, result, error) = apply(case.diff.as_bytes(), case.original.as_bytes(), Some(&o));
    Ok(take_full(status, result, error, &case.original)?
        .map(|(content, _, _)| content)
        .map_err(|e| (e.code, e.message)))
}

fn streamed(
    case: &UdiffCase,
    dialect: hl_dialect,
    recount: bool,
    mode: Mode,
) -> Result<Observed, String> {
    let o = hl_applier_options {
        dialect,
        policy: HL_POLICY_ALL_OR_NOTHING,
        recount,
        ..Default::default()
    };
    let mut applier = Applier::with_options(case.original.as_bytes(), o)
        .map_err(|s| format!("hl_applier_new: {s:?}"))?;
    applier.push_mirrored(&mode.pieces(&case.diff), case.original.clone())?;
    let (status, result, error) = applier.end(true);
    Ok(take_full(status, result, error, &case.original)?
        .map(|(content, _, _)| content)
        .map_err(|e| (e.code, e.message)))
}

#[test]
fn the_unified_diff_corpus_through_the_c_abi() {
    let cases = load_udiff();
    let mut problems = Vec::new();
    for (name, recount) in [("udiff-strict", false), ("udiff-strict-recount", true)] {
        let mut exact = 0;
        for case in &cases {
            let run = if recount {
                &case.git_apply_recount
            } else {
                &case.git_apply
            };
            match stateless(case, HL_DIALECT_UDIFF_STRICT, recount)
                .and_then(|got| judge_strict(run, &got))
            {
                Ok(()) => exact += 1,
                Err(why) => problems.push(format!("{name} {}: {why}", case.id)),
            }
        }
        println!("{name}: {exact}/{} exact", cases.len());
    }
    let mut score = NativeScore::default();
    for case in &cases {
        match stateless(case, HL_DIALECT_UDIFF, false) {
            Ok(got) => {
                let verdict = judge_native(case, &got);
                if verdict == Verdict::Wrong {
                    problems.push(format!("udiff-native {}: applied wrongly", case.id));
                }
                score.add(verdict);
            }
            Err(why) => problems.push(format!("udiff-native {}: {why}", case.id)),
        }
    }
    println!("{}", score.line());
    problems.extend(score.problems());
    let mut modes = Tally::default();
    for (name, dialect, recount) in [
        ("udiff-strict", HL_DIALECT_UDIFF_STRICT, false),
        ("udiff-strict-recount", HL_DIALECT_UDIFF_STRICT, true),
        ("udiff", HL_DIALECT_UDIFF, false),
    ] {
        for case in &cases {
            let want = stateless(case, dialect, recount);
            for mode in MODES {
                let outcome = match (streamed(case, dialect, recount, mode), &want) {
                    (Ok(got), Ok(want)) if got == *want => Ok(true),
                    (Ok(_), _) => Err("streamed outcome differs from the stateless one".into()),
                    (Err(why), _) => Err(why),
                };
                modes.record(&format!("{name} {}", mode.name()), &case.id, outcome);
            }
        }
    }
    modes.print_parts("udiff");
    problems.extend(modes.failures);
    hunkloom_testkit::assert_no_failures(&problems, 40, "problems");
}

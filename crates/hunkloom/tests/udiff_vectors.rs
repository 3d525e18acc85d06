//! The unified-diff corpus (`tests/vectors/unified-diff.jsonl`) through `apply_diff` in both
//! dialects, and through a `StreamingApplier` in every chunking:
//!
//! - `udiff-strict` must be exact with `git apply` on every row, and with `git apply
//!   --recount` on every row with [`ApplyOptions::recount`];
//! - `udiff` (native) is scored against `intended` and must apply no row wrongly and more rows
//!   as intended than GNU `patch` did;
//! - streamed whole, per line, per character and at random split points, each dialect must give
//!   the stateless outcome, and in `udiff` the splices must rebuild the preview.
//!
//! Prints `udiff-strict: P/T exact`, `udiff-strict-recount: P/T exact`, `udiff-native: C/T
//! correct, R refused, W wrong (...)`, and `udiff <dialect> <mode>: P/T passed` per chunking.

use hunkloom::{ApplierOptions, ApplyOptions, Dialect, StreamingApplier, apply_diff};
use hunkloom_testkit::udiff::{
    NativeScore, Observed, UdiffCase, judge_native, judge_strict, load_udiff,
};
use hunkloom_testkit::{Chunking, SEED, Tally};

fn observed(r: hunkloom::Result<hunkloom::Outcome>) -> Observed {
    r.map(|o| o.new_content)
        .map_err(|e| (e.code().to_owned(), e.message().to_owned()))
}

fn stateless(case: &UdiffCase, dialect: Dialect, recount: bool) -> Observed {
    let options = ApplyOptions::new().dialect(dialect).recount(recount);
    observed(apply_diff(&case.diff, &case.original, &options))
}

fn streamed(
    case: &UdiffCase,
    dialect: Dialect,
    recount: bool,
    chunking: Chunking,
) -> Result<Observed, String> {
    let options = ApplierOptions::new().dialect(dialect).recount(recount);
    let mut applier = StreamingApplier::new(case.original.clone(), options);
    let mut mirror = case.original.clone();
    for piece in chunking.split(&case.diff) {
        applier.push(piece).apply_to(&mut mirror);
    }
    if mirror != applier.preview() {
        return Err("the splices do not rebuild the preview".into());
    }
    Ok(observed(applier.finish()))
}

fn main() {
    let cases = load_udiff();
    let mut problems = Vec::new();
    let mut modes = Tally::default();
    for (name, dialect, recount) in [
        ("udiff-strict", Dialect::UdiffStrict, false),
        ("udiff-strict-recount", Dialect::UdiffStrict, true),
    ] {
        let run = |c: &UdiffCase| {
            if recount {
                c.git_apply_recount.clone()
            } else {
                c.git_apply.clone()
            }
        };
        let mut exact = 0;
        for case in &cases {
            let got = stateless(case, dialect, recount);
            match judge_strict(&run(case), &got) {
                Ok(()) => exact += 1,
                Err(why) => problems.push(format!("{name} {}: {why}", case.id)),
            }
        }
        println!("{name}: {exact}/{} exact", cases.len());
    }
    let mut score = NativeScore::default();
    for case in &cases {
        let got = stateless(case, Dialect::Udiff, false);
        let verdict = judge_native(case, &got);
        if verdict == hunkloom_testkit::udiff::Verdict::Wrong {
            problems.push(format!(
                "udiff-native {} ({}): applied wrongly",
                case.id, case.tags[0]
            ));
        }
        score.add(verdict);
    }
    println!("{}", score.line());
    problems.extend(score.problems());
    for (dialect, recount) in [
        (Dialect::UdiffStrict, false),
        (Dialect::UdiffStrict, true),
        (Dialect::Udiff, false),
    ] {
        let part = |mode: &str| {
            format!(
                "{}{} {mode}",
                dialect.as_str(),
                if recount { "-recount" } else { "" }
            )
        };
        for case in &cases {
            let want = stateless(case, dialect, recount);
            for chunking in [
                Chunking::Whole,
                Chunking::Line,
                Chunking::Char,
                Chunking::Random(SEED),
            ] {
                let outcome = match streamed(case, dialect, recount, chunking) {
                    Ok(got) if got == want => Ok(true),
                    Ok(_) => Err("streamed outcome differs from the stateless one".to_owned()),
                    Err(why) => Err(why),
                };
                modes.record(&part(chunking.name()), &case.id, outcome);
            }
        }
    }
    modes.print_parts("udiff");
    problems.extend(modes.failures);
    hunkloom_testkit::exit_on_failures(&problems, 60, "problems");
}

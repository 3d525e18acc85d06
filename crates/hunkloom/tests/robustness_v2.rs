//! Scores the `native` dialect on the second robustness corpus
//! (`tests/vectors/robustness-v2.jsonl`, scoring as `tests/vectors/ROBUSTNESS-V2.md` defines it)
//! in every mode, and prints per category (the stateless mode) `robustness-v2 <category>:
//! <correct>/<total> correct, <refused> refused, <wrong> wrong`, then per mode
//! `robustness-v2 <mode>: <P>/<T> correct, <R> refused, <W> wrong`.
//!
//! Every case runs through the stateless [`apply_diff`] (mode `stateless`) and through a
//! [`StreamingApplier`] fed the diff whole, per line and at seeded random split points (modes
//! `whole`, `line`, `random`); each mode is scored on its own, the streamed outcomes must equal
//! the stateless one (content and block reports, or code and message) and the splices must
//! rebuild the preview. The run fails on any WRONG result, below 99% correct in a mode, on a
//! streamed mismatch, or when the cases not scored correct differ from [`REFUSED`].

use hunkloom::{ApplierOptions, ApplyOptions, Dialect, Outcome, StreamingApplier, apply_diff};
use hunkloom_testkit::robustness_v2::{
    ALREADY_APPLIED, Applied, CaseV2 as Case, ObservedV2, ScoreboardV2, load_robustness_v2,
};
use hunkloom_testkit::{Chunking, SEED};

/// Cases the engine does not get right on purpose, with the reason (printed on every run).
const REFUSED: &[(&str, &str)] = &[];

/// The outcome as the scoring sees it, and the whole outcome for the streamed comparison.
type Full = hunkloom::Result<Outcome>;

fn observe(full: &Full) -> ObservedV2 {
    match full {
        Ok(o) => Ok(Applied {
            content: o.new_content.clone(),
            already_applied: o
                .blocks
                .iter()
                .any(|b| b.status.as_str() == ALREADY_APPLIED),
        }),
        Err(e) => Err((e.code().to_owned(), e.message().to_owned())),
    }
}

fn streamed(case: &Case, chunking: Chunking) -> Result<Full, String> {
    let options = ApplierOptions::new().dialect(Dialect::Native);
    let mut applier = StreamingApplier::new(case.original.clone(), options);
    let mut mirror = case.original.clone();
    for piece in chunking.split(&case.diff) {
        applier.push(piece).apply_to(&mut mirror);
    }
    if mirror != applier.preview() {
        return Err("the splices do not rebuild the preview".into());
    }
    Ok(applier.finish())
}

fn main() {
    let cases = load_robustness_v2();
    let mut board = ScoreboardV2::new();
    for case in &cases {
        let one_shot = apply_diff(&case.diff, &case.original, &ApplyOptions::default());
        board.record("stateless", case, &observe(&one_shot));
        for chunking in [Chunking::Whole, Chunking::Line, Chunking::Random(SEED)] {
            match streamed(case, chunking) {
                Ok(full) => {
                    board.record(chunking.name(), case, &observe(&full));
                    if full != one_shot {
                        let got = observe(&full);
                        let want = observe(&one_shot);
                        board.problems.push(format!(
                            "{} {}: streamed {:?} differs from stateless {:?}",
                            case.id,
                            chunking.name(),
                            got.as_ref().map(|_| "content").map_err(|e| &e.0),
                            want.as_ref().map(|_| "content").map_err(|e| &e.0),
                        ));
                    }
                }
                Err(why) => board
                    .problems
                    .push(format!("{} {}: {why}", case.id, chunking.name())),
            }
        }
    }
    let problems = board.finish(REFUSED, cases.len());
    hunkloom_testkit::exit_on_failures(&problems, 40, "problems");
}

//! Scores the `native` dialect on the robustness corpus (`tests/vectors/robustness.jsonl`,
//! scoring as `tests/vectors/ROBUSTNESS.md` defines it) and prints, per category and then in
//! total, `robustness <category>: <correct>/<total> correct, <wrong> wrong`.
//!
//! Every case runs through the stateless [`apply_diff`] and through a [`StreamingApplier`] fed
//! the diff whole, per line and at random split points; the streamed outcomes must equal the
//! stateless one and the splices must rebuild the preview. The run fails on any WRONG result,
//! below 99% correct, on a streamed mismatch, or when the apply cases it refuses differ from
//! [`REFUSED`].

use hunkloom::{ApplierOptions, ApplyOptions, Dialect, StreamingApplier, apply_diff};
use hunkloom_testkit::robustness::{Observed, RobustnessCase as Case, Scoreboard, load_robustness};
use hunkloom_testkit::{Chunking, SEED};

/// Apply cases the engine refuses on purpose, with the reason (printed on every run).
const REFUSED: &[(&str, &str)] = &[];

fn stateless(case: &Case) -> Observed {
    apply_diff(&case.diff, &case.original, &ApplyOptions::default())
        .map(|o| o.new_content)
        .map_err(|e| (e.code().to_owned(), e.message().to_owned()))
}

fn streamed(case: &Case, chunking: Chunking) -> Result<Observed, String> {
    let options = ApplierOptions::new().dialect(Dialect::Native);
    let mut applier = StreamingApplier::new(case.original.clone(), options);
    let mut mirror = case.original.clone();
    for piece in chunking.split(&case.diff) {
        applier.push(piece).apply_to(&mut mirror);
    }
    if mirror != applier.preview() {
        return Err("the splices do not rebuild the preview".into());
    }
    Ok(applier
        .finish()
        .map(|o| o.new_content)
        .map_err(|e| (e.code().to_owned(), e.message().to_owned())))
}

fn main() {
    let cases = load_robustness();
    let mut board = Scoreboard::new();
    for case in &cases {
        let got = stateless(case);
        board.record(case, &got);
        for chunking in [Chunking::Whole, Chunking::Line, Chunking::Random(SEED)] {
            match streamed(case, chunking) {
                Ok(s) if s == got => {}
                Ok(s) => board.problems.push(format!(
                    "{} {}: streamed {:?} differs from stateless {:?}",
                    case.id,
                    chunking.name(),
                    s.as_ref().map(|_| "content").map_err(|e| &e.0),
                    got.as_ref().map(|_| "content").map_err(|e| &e.0),
                )),
                Err(why) => board
                    .problems
                    .push(format!("{} {}: {why}", case.id, chunking.name())),
            }
        }
    }
    let problems = board.finish(REFUSED, cases.len());
    hunkloom_testkit::exit_on_failures(&problems, 40, "problems");
}

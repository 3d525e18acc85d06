//! The robustness corpus (`tests/vectors/robustness.jsonl`) through the C ABI only, scored exactly
//! as the core's runner (`crates/hunkloom/tests/robustness.rs`) scores it, per
//! `tests/vectors/ROBUSTNESS.md`: correct, refused, or WRONG.
//!
//! Every case runs through `hl_apply_diff` (NULL options: `native`, all or nothing) and through a
//! `hl_applier` in `HL_DIALECT_NATIVE` fed the diff whole, per line, at seeded random split points
//! on character boundaries, and at seeded random split points on any byte (so inside
//! characters). Each streamed outcome (content and block reports, or code and message) must equal
//! the stateless one, and the splices must rebuild the preview.
//!
//! Prints `robustness <category>: <correct>/<total> correct, <wrong> wrong` per category, then
//! the totals (visible with `--nocapture`, as `make test-c` runs it). Fails on any WRONG result,
//! below 99% correct, on a streamed mismatch, or when the apply cases refused differ from
//! [`REFUSED`].

use hunkloom_testkit::robustness::{Observed, RobustnessCase as Case, Scoreboard, load_robustness};

use super::ffi::{Applier, BlockView, CError, apply, take_full};
use super::{MODES, Mode};
use hunkloom_c::*;

/// Apply cases the engine refuses on purpose, with the reason: the core runner's list
/// (`REFUSED` in `crates/hunkloom/tests/robustness.rs`), which this one must equal.
const REFUSED: &[(&str, &str)] = &[];

/// What a case gave, with the block reports of a success (to compare streamed with stateless).
type Full = Result<(String, Vec<BlockView>), (String, String)>;

fn observed(full: &Full) -> Observed {
    full.clone().map(|(content, _)| content)
}

fn from_c(taken: Result<super::ffi::Taken, CError>) -> Full {
    taken
        .map(|(content, _, blocks)| (content, blocks))
        .map_err(|e| (e.code, e.message))
}

fn stateless(case: &Case) -> Result<Full, String> {
    let (status, result, error) = apply(case.diff.as_bytes(), case.original.as_bytes(), None);
    let full = from_c(take_full(status, result, error, &case.original)?);
    if let Ok((_, blocks)) = &full
        && blocks.iter().any(|b| b.status == HL_BLOCK_FAILED)
    {
        return Err("a failed block under all-or-nothing".into());
    }
    Ok(full)
}

fn streamed(case: &Case, mode: Mode) -> Result<Full, String> {
    let options = hl_applier_options {
        dialect: HL_DIALECT_NATIVE,
        policy: HL_POLICY_ALL_OR_NOTHING,
        ..Default::default()
    };
    let mut applier = Applier::with_options(case.original.as_bytes(), options)
        .map_err(|s| format!("hl_applier_new: {s:?}"))?;
    applier.push_mirrored(&mode.pieces(&case.diff), case.original.clone())?;
    let (status, result, error) = applier.end(true);
    Ok(from_c(take_full(status, result, error, &case.original)?))
}

#[test]
fn the_robustness_corpus_through_the_c_abi() {
    let cases = load_robustness();
    assert!(!cases.is_empty(), "the robustness corpus is empty");

    let mut board = Scoreboard::new();
    for case in &cases {
        let full = match stateless(case) {
            Ok(full) => full,
            Err(why) => {
                board.problems.push(format!("{} stateless: {why}", case.id));
                continue;
            }
        };
        board.record(case, &observed(&full));
        for mode in MODES {
            match streamed(case, mode) {
                Ok(s) if s == full => {}
                Ok(s) => board.problems.push(format!(
                    "{} {}: streamed {:?} differs from stateless {:?}",
                    case.id,
                    mode.name(),
                    s.as_ref().map(|(_, b)| b.len()).map_err(|e| &e.0),
                    full.as_ref().map(|(_, b)| b.len()).map_err(|e| &e.0),
                )),
                Err(why) => board
                    .problems
                    .push(format!("{} {}: {why}", case.id, mode.name())),
            }
        }
    }
    let problems = board.finish(REFUSED, cases.len());
    hunkloom_testkit::assert_no_failures(&problems, 40, "problems");
}

#[test]
fn random_byte_splits_do_cut_characters() {
    let diff = "------- SEARCH\n\u{201c}x\u{201d} \u{2014} \u{2026}\n=======\ny\n+++++++ REPLACE\n";
    hunkloom_testkit::assert_cuts_a_character(
        &Mode::RandomBytes(hunkloom_testkit::SEED).pieces(diff),
        diff,
    );
}

//! The second robustness corpus (`tests/vectors/robustness-v2.jsonl`) through the C ABI only,
//! scored exactly as the core's runner (`crates/hunkloom/tests/robustness_v2.rs`) scores it, per
//! `tests/vectors/ROBUSTNESS-V2.md`: correct, refused, or WRONG, per mode.
//!
//! Every case runs through `hl_apply_diff` (NULL options: `native`, all or nothing; mode
//! `stateless`) and through a `hl_applier` in `HL_DIALECT_NATIVE` fed the diff whole, per line
//! and at seeded random split points on character boundaries (modes `whole`, `line`, `random`,
//! the core runner's chunkings), and at seeded random split points on any byte, so inside
//! characters (mode `random-byte`). Each mode is scored on its own; every streamed outcome
//! (content, match positions and block reports, or status, code and message) must equal the
//! stateless one, the splices must rebuild the preview, and a refusal's status must be the one
//! its code maps to.
//!
//! Prints `robustness-v2 <category>: <correct>/<total> correct, <refused> refused, <wrong>
//! wrong` per category (stateless), then `robustness-v2 <mode>: <P>/<T> correct, <R> refused,
//! <W> wrong` per mode (visible with `--nocapture`, as `make test-c` runs it). Fails on any
//! WRONG result, below 99% correct in a mode, on a streamed mismatch, or when the cases not
//! scored correct differ from [`REFUSED`].

use hunkloom_testkit::robustness_v2::{
    Applied, CaseV2 as Case, ObservedV2, ScoreboardV2, load_robustness_v2,
};

use super::ffi::{Applier, CError, Taken, apply, take_full};
use super::{MODES, Mode};
use hunkloom_c::*;

/// Cases not scored correct on purpose, with the reason: the core runner's list (`REFUSED` in
/// `crates/hunkloom/tests/robustness_v2.rs`), which this one must equal.
const REFUSED: &[(&str, &str)] = &[];

/// Everything a call gave, read back through the C accessors.
type Full = Result<Taken, CError>;

/// The scoring's view of a call: the content and whether a block reported
/// `HL_BLOCK_ALREADY_APPLIED`, or the code and message; checks that a refusal's status is the
/// one its code maps to.
fn observe(full: &Full) -> Result<ObservedV2, String> {
    match full {
        Ok((content, _, blocks)) => Ok(Ok(Applied {
            content: content.clone(),
            already_applied: blocks.iter().any(|b| b.status == HL_BLOCK_ALREADY_APPLIED),
        })),
        Err(e) => {
            let kind = engine::ErrorKind::ALL
                .iter()
                .find(|k| k.code() == e.code)
                .ok_or_else(|| format!("code {:?} is not an engine code", e.code))?;
            if hunkloom_c::testing::status_of(*kind) != e.status {
                return Err(format!("code {} came with {:?}", e.code, e.status));
            }
            Ok(Err((e.code.clone(), e.message.clone())))
        }
    }
}

fn stateless(case: &Case) -> Result<Full, String> {
    let (status, result, error) = apply(case.diff.as_bytes(), case.original.as_bytes(), None);
    let full = take_full(status, result, error, &case.original)?;
    if let Ok((_, _, blocks)) = &full
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
    take_full(status, result, error, &case.original)
}

/// What a result is, for messages (never the content: files are long).
fn brief(full: &Full) -> String {
    match full {
        Ok((_, _, blocks)) => format!("content ({} blocks)", blocks.len()),
        Err(e) => e.code.clone(),
    }
}

#[test]
fn the_robustness_v2_corpus_through_the_c_abi() {
    let cases = load_robustness_v2();
    assert!(cases.len() >= 2300, "the corpus has {} cases", cases.len());

    let mut board = ScoreboardV2::new();
    for case in &cases {
        let full = match stateless(case).and_then(|f| observe(&f).map(|o| (f, o))) {
            Ok(full) => full,
            Err(why) => {
                board.problems.push(format!("{} stateless: {why}", case.id));
                continue;
            }
        };
        board.record("stateless", case, &full.1);
        for mode in MODES {
            match streamed(case, mode).and_then(|f| observe(&f).map(|o| (f, o))) {
                Ok((s, observed)) => {
                    board.record(mode.name(), case, &observed);
                    if s != full.0 {
                        board.problems.push(format!(
                            "{} {}: streamed {} differs from stateless {}",
                            case.id,
                            mode.name(),
                            brief(&s),
                            brief(&full.0),
                        ));
                    }
                }
                Err(why) => board
                    .problems
                    .push(format!("{} {}: {why}", case.id, mode.name())),
            }
        }
    }
    let problems = board.finish(REFUSED, cases.len());
    hunkloom_testkit::assert_no_failures(&problems, 40, "problems");
}

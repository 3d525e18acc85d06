//! Runs `openai-v4a/v4a.jsonl` through `patch::v4a` and prints one line per mode,
//! `v4a <mode>: <passed>/<total> passed`, then `v4a: <passed>/<total> passed` (the rows that
//! pass in every mode):
//!
//! - `stateless`: `apply_v4a(input, diff, mode)`;
//! - `whole`, `line`, `char`, `random`: a `V4aApplier` fed the body in those pieces; its
//!   outcome must also equal the stateless one (sections and scores included), and after each
//!   piece the splices of `preview_update` must rebuild `preview`.
//!
//! - `codex`: the body through the Codex dialect's entry for one file (`patch::plan_body`),
//!   against what codex-rs did with it (`judge_codex`); the rows where the dialect differs by
//!   design are counted as skipped, each printed with its reason.
//!
//! Every row must give the reference's text, or fail with its exact message. No row is
//! skipped in the V4A modes. Exits non-zero on any failure.

#[path = "support/splices.rs"]
mod splices;

use std::collections::BTreeMap;

use hunkloom::Policy;
use hunkloom::patch::plan_body;
use hunkloom::patch::v4a::{V4aApplier, V4aMode, V4aOutcome, apply_v4a_outcome};
use hunkloom_testkit::v4a::{self, CORPUS, Row};
use hunkloom_testkit::{Chunking, SEED, Tally};

const CHUNKINGS: [Chunking; 4] = [
    Chunking::Whole,
    Chunking::Line,
    Chunking::Char,
    Chunking::Random(SEED),
];

fn streamed(row: &Row, mode: V4aMode, chunking: Chunking) -> hunkloom::Result<V4aOutcome> {
    let mut applier = V4aApplier::new(&row.input, mode);
    let mut shown = applier.preview();
    for piece in chunking.split(&row.diff) {
        let pushed = applier.push(piece).map(drop);
        let update = applier.preview_update();
        let what = format!("row {} ({chunking:?})", row.id);
        splices::follow(
            &mut shown,
            update,
            pushed.is_err(),
            || applier.preview(),
            what,
        );
        pushed?;
    }
    applier.finish()
}

/// The body through the Codex dialect's entry for one file, against what codex-rs did.
fn codex(row: &Row, mode: V4aMode) -> Result<bool, String> {
    let path = v4a::codex_path(&row.mode);
    let mut files = BTreeMap::new();
    if mode == V4aMode::Default {
        files.insert(path.to_owned(), row.input.clone());
    }
    match plan_body(path, &row.diff, mode, &files, Policy::AllOrNothing) {
        Ok(plan) => {
            plan.apply_to(&mut files);
            v4a::judge_codex(row, Ok(&files))
        }
        Err(e) => v4a::judge_codex(row, Err(e.message())),
    }
}

fn main() {
    let rows = v4a::load();
    assert_eq!(v4a::SKIP.len(), 0);
    let mut tally = Tally::default();
    let mut codex_tally = Tally::default();
    let mut all = 0;
    for row in &rows {
        let mode: V4aMode = row.mode.parse().expect("a known mode");
        let stateless = apply_v4a_outcome(&row.input, &row.diff, mode);
        let label = format!("{} ({})", row.id, row.family);
        let judged = v4a::judge(
            row,
            stateless
                .as_ref()
                .map(|o| o.new_content.as_str())
                .map_err(|e| e.message()),
        );
        let mut every = judged.is_ok();
        tally.record("stateless", &label, judged);
        for chunking in CHUNKINGS {
            let got = streamed(row, mode, chunking);
            let outcome = if got == stateless {
                Ok(true)
            } else {
                Err(format!("\n  stateless {stateless:?}\n  streamed  {got:?}"))
            };
            every &= outcome.is_ok();
            tally.record(chunking.name(), &label, outcome);
        }
        all += usize::from(every);
        codex_tally.record("codex", &label, codex(row, mode));
    }
    tally.print_parts(CORPUS);
    println!("{CORPUS}: {all}/{} passed", rows.len());
    codex_tally.print_parts(CORPUS);
    tally.failures.append(&mut codex_tally.failures);
    hunkloom_testkit::exit_on_failures(&tally.failures, 10, "failures");
}

//! Runs Codex's `apply_patch` scenarios (`tests/vectors/patch/`) in memory and prints
//! `codex-scenarios: <passed>/<total> passed`, then every deviation with its reason.
//!
//! Like Codex's runner, each scenario is judged by its final tree only (errors are not
//! compared): `input/` is read into a map (a missing `input/` is an empty tree), `patch.txt` is
//! planned against it in the Codex dialect and the plan applied to the map, and the result must
//! equal `expected/` — every file byte for byte, and every directory: the input's directories
//! plus the parents of every written file, since writing creates them and nothing removes them.
//! (The file-layer runner does the same on disk, through the Workspace.)
//!
//! The default policy is all or nothing. A scenario listed in [`DEVIATIONS`] must instead leave
//! the tree unchanged under the default, and reproduce Codex's tree exactly with
//! [`Policy::Partial`]; it then counts as passed and is listed with its reason.
//!
//! Exits non-zero on any failure.

use hunkloom::Policy;
use hunkloom::patch::{PatchOptions, plan_patch};
use hunkloom_testkit::codex::{PARTIAL_SUCCESS_SCENARIO, run_codex_scenarios};
use hunkloom_testkit::{ScenarioPolicy, Tree};

/// Scenarios where hunkloom's default differs from Codex on purpose, with the reason.
const DEVIATIONS: &[(&str, &str)] = &[(
    PARTIAL_SUCCESS_SCENARIO,
    "Codex keeps the Add it wrote before the failing Update; hunkloom plans every hunk first \
     and by default commits all or nothing, so the tree is left unchanged. Policy::Partial \
     reproduces Codex's tree exactly (checked).",
)];

/// The tree after planning `patch` against `input` with `policy` and applying the plan; an
/// error leaves the input unchanged (the scenarios ignore errors, like Codex's runner). Writing
/// a file creates its parent directories.
fn run(input: &Tree, patch: &str, policy: ScenarioPolicy) -> Tree {
    let policy = match policy {
        ScenarioPolicy::AllOrNothing => Policy::AllOrNothing,
        ScenarioPolicy::Partial => Policy::Partial,
    };
    let before = input.text_files();
    let options = PatchOptions::new().policy(policy);
    match plan_patch(patch, &before, &options) {
        Ok(plan) => {
            let mut files = before.clone();
            plan.apply_to(&mut files);
            Tree::from_text(files, input.dirs.clone())
        }
        Err(_) => input.clone(),
    }
}

fn main() {
    let failures = run_codex_scenarios("codex-scenarios", DEVIATIONS, run);
    hunkloom_testkit::exit_on_failures(&failures, usize::MAX, "failures");
}

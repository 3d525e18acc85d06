//! Runs Codex's `apply_patch` scenarios (`tests/vectors/patch/`) on disk, through the
//! Workspace, and prints `codex-scenarios (workspace): <passed>/<total> passed`, then every
//! deviation with its reason.
//!
//! Like Codex's runner: `input/` is copied into a fresh temporary directory (a missing `input/`
//! is an empty tree), `patch.txt` is applied there ([`Workspace::apply_patch`], Codex dialect;
//! the result, error or not, is ignored), and the whole directory must equal `expected/` —
//! every file byte for byte and every directory, with nothing else: no temporary, backup or
//! journal file left behind.
//!
//! The default policy is all or nothing. A scenario listed in [`DEVIATIONS`] must instead leave
//! the tree unchanged under the default, and reproduce Codex's tree exactly with
//! [`Policy::Partial`]; it then counts as passed and is listed with its reason.
//!
//! Exits non-zero on any failure.

use hunkloom::Policy;
use hunkloom::patch::PatchOptions;
use hunkloom_fs::{Workspace, WorkspaceOptions};
use hunkloom_testkit::codex::{PARTIAL_SUCCESS_SCENARIO, run_codex_scenarios};
use hunkloom_testkit::{ScenarioPolicy, Tree};

/// Scenarios where hunkloom's default differs from Codex on purpose, with the reason.
const DEVIATIONS: &[(&str, &str)] = &[(
    PARTIAL_SUCCESS_SCENARIO,
    "Codex keeps the Add it wrote before the failing Update; the Workspace plans every hunk \
     first and by default commits all or nothing, so the tree is left unchanged. \
     Policy::Partial commits the hunks before the failure and reproduces Codex's tree exactly \
     (checked).",
)];

/// The tree after applying `patch` to `input` on disk with `policy`.
fn run(input: &Tree, patch: &str, policy: ScenarioPolicy) -> Tree {
    let policy = match policy {
        ScenarioPolicy::AllOrNothing => Policy::AllOrNothing,
        ScenarioPolicy::Partial => Policy::Partial,
    };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    input.write_to(dir.path());
    let ws = Workspace::open(dir.path(), WorkspaceOptions::new())
        .unwrap_or_else(|e| panic!("open: {e}"));
    // Like Codex's runner, only the final tree counts.
    let _ = ws.apply_patch(patch, &PatchOptions::new().policy(policy));
    Tree::read(dir.path())
}

fn main() {
    let failures = run_codex_scenarios("codex-scenarios (workspace)", DEVIATIONS, run);
    hunkloom_testkit::exit_on_failures(&failures, usize::MAX, "failures");
}

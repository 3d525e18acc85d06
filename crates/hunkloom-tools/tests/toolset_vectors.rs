//! The toolset corpora (`tests/vectors/toolsets/`, format in its README) through [`Toolset`],
//! printing one line per corpus file: `toolset-<name>: <passed>/<total> passed`.
//!
//! Each case runs in a fresh private parent `P` with the root `P/work`: its tree is written,
//! one toolset made, and after every call the output (placeholders put back, volatile values
//! matched by form), the error flag, the files under the root, its empty directories and the
//! files outside it are compared. Main sets: exact, every call. `*-crashes`: the calls before
//! the one the reference crashed on are exact; that call must give an error result and change
//! nothing (the reference gave the model no answer; see the profile's deliberate differences).
//! `HUNKLOOM_TS_CASE=<id>` runs one case.

use hunkloom_testkit::assert_no_failures;
use hunkloom_testkit::toolsets::{
    Answer, Replayed, TOOLSET_CORPORA, ToolsetCase, load_toolset_corpus, replay,
};
use hunkloom_tools::{Toolset, ToolsetOptions, ToolsetProfile};

fn run_case(case: &ToolsetCase) -> Result<Replayed, String> {
    replay(
        case,
        |root| {
            let profile: ToolsetProfile = case.profile.parse().map_err(|e| format!("{e}"))?;
            Toolset::new(root, ToolsetOptions::new().profile(profile)).map_err(|e| format!("{e}"))
        },
        |toolset, tool, input| {
            let result = toolset.call(tool, input).map_err(|e| format!("Err {e}"))?;
            Ok(Answer {
                output: result.output,
                is_error: result.is_error,
                code: result.code,
            })
        },
    )
}

fn main() {
    let only = std::env::var("HUNKLOOM_TS_CASE").ok();
    let mut failures = Vec::new();
    for name in TOOLSET_CORPORA {
        let cases = load_toolset_corpus(name);
        let (mut passed, mut deviated, mut total) = (0, 0, 0);
        for case in &cases {
            if only.as_ref().is_some_and(|id| *id != case.id) {
                continue;
            }
            total += 1;
            match run_case(case) {
                Ok(Replayed::Passed) => passed += 1,
                Ok(Replayed::Deviated) => deviated += 1,
                Err(why) => failures.push(format!("{} {why}", case.id)),
            }
        }
        let label = name
            .trim_start_matches("toolsets/")
            .trim_end_matches(".jsonl");
        if total > 0 {
            println!(
                "toolset-{label}: {}/{total} passed ({deviated} of them at a documented deviation)",
                passed + deviated
            );
        }
    }
    let shown = std::env::var("HUNKLOOM_TS_SHOW")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(8);
    assert_no_failures(&failures, shown, "toolset case");
}

//! The toolset corpora through `hunkloom mcp --profile P`: each case replayed against its own
//! server (a fresh root), as the Rust runner replays it through `Toolset`
//! (`hunkloom_testkit::toolsets::replay`). Every 7th case by default, to keep `make test`
//! short; `HUNKLOOM_MCP_STRIDE=1` replays every case. Codex's JSON-function form of
//! `apply_patch` (`apply_patch_json`) is no MCP tool (a server declares only `apply_patch` and
//! `exec_command`), so the cases that use it are not replayed here (they are counted).

use hunkloom_testkit::toolsets::{Answer, Replayed, TOOLSET_CORPORA, load_toolset_corpus, replay};

use crate::client::Mcp;

#[test]
fn toolset_vectors_through_the_mcp_server() {
    let stride: usize = std::env::var("HUNKLOOM_MCP_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(7);
    let mut failures = Vec::new();
    for name in TOOLSET_CORPORA {
        let cases = load_toolset_corpus(name);
        let (mut passed, mut total, mut not_mcp) = (0, 0, 0);
        for case in cases.iter().step_by(stride) {
            if case.calls.iter().any(|c| c.tool == "apply_patch_json") {
                not_mcp += 1;
                continue;
            }
            total += 1;
            let outcome = replay(
                case,
                |root| Ok(Mcp::start(root, &["--profile", &case.profile])),
                |mcp, tool, input| {
                    let outcome = mcp.call(tool, input.clone());
                    Ok(Answer {
                        output: outcome.text().to_owned(),
                        is_error: outcome.is_error(),
                        code: outcome.code().to_owned(),
                    })
                },
            );
            match outcome {
                Ok(Replayed::Passed | Replayed::Deviated) => passed += 1,
                Err(why) => failures.push(format!("{} {why}", case.id)),
            }
        }
        let label = name
            .trim_start_matches("toolsets/")
            .trim_end_matches(".jsonl");
        println!(
            "mcp toolset-{label}: {passed}/{total} passed (one case in {stride}; {not_mcp} use \
             apply_patch_json, no MCP tool)"
        );
    }
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n")
    );
}

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
use hunkloom_testkit::text_editor::{materialize, read_tree};
use hunkloom_testkit::toolsets::{
    TOOLSET_CORPORA, ToolsetCase, deviation, empty_dirs, fresh_parent, load_toolset_corpus,
    output_matches, outside_files, with_placeholders, with_root_everywhere,
};
use hunkloom_tools::{Toolset, ToolsetOptions, ToolsetProfile};

fn run_case(case: &ToolsetCase) -> Result<Outcome, String> {
    let (_holder, parent, root) = fresh_parent();
    materialize(&root, &case.tree);
    let profile: ToolsetProfile = case.profile.parse().map_err(|e| format!("{e}"))?;
    let toolset = Toolset::new(&root, ToolsetOptions::new().profile(profile))
        .map_err(|e| format!("new: {e}"))?;
    let (root_s, parent_s) = (root.to_string_lossy(), parent.to_string_lossy());
    let mut before = case.tree.clone();
    for (i, expected) in case.calls.iter().enumerate() {
        let at = format!("#{i} ({})", expected.kind);
        let input = with_root_everywhere(&expected.input, &root_s);
        let result = toolset
            .call(&expected.tool, &input)
            .map_err(|e| format!("{at}: Err {e}"))?;
        let output = with_placeholders(&result.output, &root_s, &parent_s);
        let tree = read_tree(&root);
        if let Some(deviation) = deviation(case, i) {
            let nothing_written = tree == before && outside_files(&parent).is_empty();
            let same_files = tree.keys().eq(before.keys());
            deviation
                .check(result.is_error, &result.code, nothing_written, same_files)
                .map_err(|why| format!("{at}: {why}: {output:?}"))?;
            // From here on the histories differ.
            return Ok(Outcome::Deviated);
        }
        if case.crash_call == Some(i) {
            if !result.is_error || output.is_empty() {
                return Err(format!("{at}: not an error result: {output:?}"));
            }
            if tree != before {
                return Err(format!("{at}: the tree changed after a refused call"));
            }
            return Ok(Outcome::Passed);
        }
        let want = expected.output.as_deref().unwrap_or_default();
        if !output_matches(want, &output) {
            return Err(format!("{at}: output\n  want {want:?}\n  got  {output:?}"));
        }
        if Some(result.is_error) != expected.is_error {
            return Err(format!("{at}: is_error {} ({output:?})", result.is_error));
        }
        if tree != expected.tree {
            let diff = expected
                .tree
                .iter()
                .find(|(p, b)| tree.get(*p) != Some(b))
                .map(|(p, b)| {
                    format!(
                        "{p}\n  want {:?}\n  got  {:?}",
                        String::from_utf8_lossy(b),
                        tree.get(p).map(|g| String::from_utf8_lossy(g).into_owned())
                    )
                })
                .or_else(|| {
                    tree.keys()
                        .find(|p| !expected.tree.contains_key(*p))
                        .map(|p| format!("{p} should not exist"))
                });
            return Err(format!("{at}: tree: {}", diff.unwrap_or_default()));
        }
        let dirs = empty_dirs(&root);
        if dirs != expected.empty_dirs {
            return Err(format!(
                "{at}: empty dirs: want {:?}, got {dirs:?}",
                expected.empty_dirs
            ));
        }
        if outside_files(&parent) != expected.outside {
            return Err(format!("{at}: files outside the root differ"));
        }
        before = tree;
    }
    Ok(Outcome::Passed)
}

/// How a case ended.
enum Outcome {
    /// Every call as the reference answered.
    Passed,
    /// As the reference up to a documented deviation, which the profile met as documented.
    Deviated,
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
                Ok(Outcome::Passed) => passed += 1,
                Ok(Outcome::Deviated) => deviated += 1,
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

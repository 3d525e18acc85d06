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

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::vectors_dir;
use patchloom::Policy;
use patchloom::patch::{PatchOptions, plan_patch};

/// Scenarios where patchloom's default differs from Codex on purpose, with the reason.
const DEVIATIONS: &[(&str, &str)] = &[(
    "015_failure_after_partial_success_leaves_changes",
    "Codex keeps the Add it wrote before the failing Update; patchloom plans every hunk first \
     and by default commits all or nothing, so the tree is left unchanged. Policy::Partial \
     reproduces Codex's tree exactly (checked).",
)];

#[derive(Default, PartialEq, Eq, Debug)]
struct Tree {
    files: BTreeMap<String, String>,
    dirs: BTreeSet<String>,
}

fn read_tree(root: &Path) -> Tree {
    let mut tree = Tree::default();
    if root.is_dir() {
        walk(root, root, &mut tree);
    }
    tree
}

fn walk(root: &Path, dir: &Path, tree: &mut Tree) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.map(|e| e.path()).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    entries.sort();
    for path in entries {
        let rel = path
            .strip_prefix(root)
            .unwrap_or_else(|e| panic!("{e}"))
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            tree.dirs.insert(rel);
            walk(root, &path, tree);
        } else {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let text =
                String::from_utf8(bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            tree.files.insert(rel, text);
        }
    }
}

/// The tree after planning `patch` against `input` with `policy` and applying the plan; an
/// error leaves the input unchanged (the scenarios ignore errors, like Codex's runner).
fn run(input: &Tree, patch: &str, policy: Policy) -> Tree {
    let mut files = input.files.clone();
    let mut dirs = input.dirs.clone();
    let options = PatchOptions::new().policy(policy);
    if let Ok(plan) = plan_patch(patch, &input.files, &options) {
        plan.apply_to(&mut files);
        for path in files.keys() {
            let mut at = path.as_str();
            while let Some(i) = at.rfind('/') {
                at = &at[..i];
                dirs.insert(at.to_owned());
            }
        }
    }
    Tree { files, dirs }
}

fn main() {
    let root = vectors_dir().join("patch");
    let mut scenarios = Vec::new();
    for set in ["scenarios", "scenarios-eol-supplement"] {
        let mut dirs: Vec<_> = std::fs::read_dir(root.join(set))
            .unwrap_or_else(|e| panic!("{set}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        scenarios.extend(dirs);
    }
    let (mut passed, mut failures, mut notes) = (0, Vec::new(), Vec::new());
    for dir in &scenarios {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let input = read_tree(&dir.join("input"));
        let expected = read_tree(&dir.join("expected"));
        let patch = std::fs::read_to_string(dir.join("patch.txt"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let default = run(&input, &patch, Policy::AllOrNothing);
        match DEVIATIONS.iter().find(|(n, _)| *n == name) {
            Some((_, reason)) => {
                let partial = run(&input, &patch, Policy::Partial);
                if default == input && partial == expected {
                    passed += 1;
                    notes.push(format!("  deviation {name}: {reason}"));
                } else {
                    failures.push(format!(
                        "{name}: default {:?} (input {:?}); partial {:?}; expected {:?}",
                        default, input, partial, expected
                    ));
                }
            }
            None if default == expected => passed += 1,
            None => failures.push(format!(
                "{name}:\n  expected {expected:?}\n  got      {default:?}"
            )),
        }
    }
    println!("codex-scenarios: {passed}/{} passed", scenarios.len());
    for n in &notes {
        println!("{n}");
    }
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("FAIL {f}");
        }
        std::process::exit(1);
    }
}

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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use patchloom::Policy;
use patchloom::patch::PatchOptions;
use patchloom_fs::{Workspace, WorkspaceOptions};

/// Scenarios where patchloom's default differs from Codex on purpose, with the reason.
const DEVIATIONS: &[(&str, &str)] = &[(
    "015_failure_after_partial_success_leaves_changes",
    "Codex keeps the Add it wrote before the failing Update; the Workspace plans every hunk \
     first and by default commits all or nothing, so the tree is left unchanged. \
     Policy::Partial commits the hunks before the failure and reproduces Codex's tree exactly \
     (checked).",
)];

/// A tree: relative path (with `/`) → `None` for a directory, the bytes for a file.
type Tree = BTreeMap<String, Option<Vec<u8>>>;

fn read_tree(root: &Path) -> Tree {
    let mut tree = Tree::new();
    if root.is_dir() {
        walk(root, root, &mut tree);
    }
    tree
}

fn walk(root: &Path, dir: &Path, tree: &mut Tree) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        let rel = path
            .strip_prefix(root)
            .unwrap_or_else(|e| panic!("{e}"))
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            tree.insert(rel, None);
            walk(root, &path, tree);
        } else {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            tree.insert(rel, Some(bytes));
        }
    }
}

/// Writes `tree` under `dir`.
fn write_tree(dir: &Path, tree: &Tree) {
    for (rel, content) in tree {
        let path = dir.join(rel);
        match content {
            None => std::fs::create_dir_all(&path),
            Some(bytes) => std::fs::write(&path, bytes),
        }
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// The tree after applying `patch` to `input` on disk with `policy`.
fn run(input: &Tree, patch: &str, policy: Policy) -> Tree {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    write_tree(dir.path(), input);
    let mut ws = Workspace::open(dir.path(), WorkspaceOptions::new())
        .unwrap_or_else(|e| panic!("open: {e}"));
    // Like Codex's runner, only the final tree counts.
    let _ = ws.apply_patch(patch, &PatchOptions::new().policy(policy));
    read_tree(dir.path())
}

fn show(tree: &Tree) -> String {
    let entries: Vec<String> = tree
        .iter()
        .map(|(k, v)| match v {
            None => format!("{k}/"),
            Some(bytes) => format!("{k}={:?}", String::from_utf8_lossy(bytes)),
        })
        .collect();
    format!("{{{}}}", entries.join(", "))
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors/patch");
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
                        "{name}: default {} (input {}); partial {}; expected {}",
                        show(&default),
                        show(&input),
                        show(&partial),
                        show(&expected)
                    ));
                }
            }
            None if default == expected => passed += 1,
            None => failures.push(format!(
                "{name}:\n  expected {}\n  got      {}",
                show(&expected),
                show(&default)
            )),
        }
    }
    println!(
        "codex-scenarios (workspace): {passed}/{} passed",
        scenarios.len()
    );
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

//! Codex's `apply_patch` scenarios (`tests/vectors/patch/`): each folder holds `input/` (a
//! missing one is an empty tree), `patch.txt` and `expected/`.
//!
//! Like Codex's runner, a scenario is judged by its final tree only: every file byte for byte and
//! every directory. [`run_codex_scenarios`] does the judging; the runner says how a patch is
//! applied to a [`Tree`] (in memory, on disk, ...).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// The scenario sets under `tests/vectors/patch/`, in the order they run.
pub const SCENARIO_SETS: &[&str] = &["scenarios", "scenarios-eol-supplement"];

/// The scenario where Codex keeps the hunks written before a failing one: hunkloom's default
/// (all or nothing) deviates from it on purpose, and its partial policy reproduces it.
pub const PARTIAL_SUCCESS_SCENARIO: &str = "015_failure_after_partial_success_leaves_changes";

/// A directory tree: files (relative path with `/` → bytes) and directories.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct Tree {
    /// Every file, relative path → content.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Every directory, relative path.
    pub dirs: BTreeSet<String>,
}

impl Tree {
    /// Everything under `root`; an empty tree when `root` is not a directory.
    ///
    /// # Panics
    /// When a directory or file under `root` cannot be read.
    pub fn read(root: &Path) -> Tree {
        let mut tree = Tree::default();
        if root.is_dir() {
            tree.walk(root, root);
        }
        tree
    }

    fn walk(&mut self, root: &Path, dir: &Path) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
            let rel = path
                .strip_prefix(root)
                .unwrap_or_else(|e| panic!("{e}"))
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                self.dirs.insert(rel);
                self.walk(root, &path);
            } else {
                let bytes =
                    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                self.files.insert(rel, bytes);
            }
        }
    }

    /// Writes the tree under `dir`: the directories, then the files.
    ///
    /// # Panics
    /// When a directory or file cannot be written.
    pub fn write_to(&self, dir: &Path) {
        for rel in &self.dirs {
            let path = dir.join(rel);
            std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        for (rel, bytes) in &self.files {
            let path = dir.join(rel);
            std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }

    /// The files as text.
    ///
    /// # Panics
    /// When a file is not UTF-8.
    pub fn text_files(&self) -> BTreeMap<String, String> {
        self.files
            .iter()
            .map(|(path, bytes)| {
                let text =
                    String::from_utf8(bytes.clone()).unwrap_or_else(|e| panic!("{path}: {e}"));
                (path.clone(), text)
            })
            .collect()
    }

    /// A tree of the text `files` and `dirs`, plus the parent directories of every file (as
    /// writing a file creates them).
    pub fn from_text(files: BTreeMap<String, String>, mut dirs: BTreeSet<String>) -> Tree {
        for path in files.keys() {
            let mut at = path.as_str();
            while let Some(i) = at.rfind('/') {
                at = &at[..i];
                dirs.insert(at.to_owned());
            }
        }
        let files = files
            .into_iter()
            .map(|(path, text)| (path, text.into_bytes()))
            .collect();
        Tree { files, dirs }
    }
}

/// `{dir/, file="content", ...}`, in path order.
impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut entries: BTreeMap<&str, String> = BTreeMap::new();
        for dir in &self.dirs {
            entries.insert(dir, format!("{dir}/"));
        }
        for (path, bytes) in &self.files {
            entries.insert(path, format!("{path}={:?}", String::from_utf8_lossy(bytes)));
        }
        let entries: Vec<String> = entries.into_values().collect();
        write!(f, "{{{}}}", entries.join(", "))
    }
}

/// One scenario folder, read.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The folder's name.
    pub name: String,
    /// `input/`.
    pub input: Tree,
    /// `patch.txt`.
    pub patch: String,
    /// `expected/`.
    pub expected: Tree,
}

/// Every scenario folder: each set of [`SCENARIO_SETS`] in turn, its folders in name order.
///
/// # Panics
/// When a set cannot be listed.
pub fn scenario_dirs() -> Vec<PathBuf> {
    let root = crate::vectors_dir().join("patch");
    let mut scenarios = Vec::new();
    for set in SCENARIO_SETS {
        let mut dirs: Vec<_> = std::fs::read_dir(root.join(set))
            .unwrap_or_else(|e| panic!("{set}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        scenarios.extend(dirs);
    }
    scenarios
}

/// The scenario in folder `dir`.
///
/// # Panics
/// When a tree or `patch.txt` cannot be read.
pub fn read_scenario(dir: &Path) -> Scenario {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let patch =
        std::fs::read_to_string(dir.join("patch.txt")).unwrap_or_else(|e| panic!("{name}: {e}"));
    Scenario {
        input: Tree::read(&dir.join("input")),
        expected: Tree::read(&dir.join("expected")),
        patch,
        name,
    }
}

/// The commit policy a scenario runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioPolicy {
    /// Every hunk or none (hunkloom's default).
    AllOrNothing,
    /// The hunks before the first failure (Codex's behaviour).
    Partial,
}

/// Runs every scenario: `run(input, patch, policy)` gives the tree afterwards (an error leaving
/// it as it was). A scenario passes when the all-or-nothing tree equals `expected/`; one listed
/// in `deviations` (name, reason) instead when the all-or-nothing tree equals the input and the
/// partial tree equals `expected/`.
///
/// Prints `<label>: <passed>/<total> passed`, then `  deviation <name>: <reason>` for each
/// deviation that passed, and returns the failures.
pub fn run_codex_scenarios(
    label: &str,
    deviations: &[(&str, &str)],
    mut run: impl FnMut(&Tree, &str, ScenarioPolicy) -> Tree,
) -> Vec<String> {
    let scenarios = scenario_dirs();
    let (mut passed, mut failures, mut notes) = (0, Vec::new(), Vec::new());
    for dir in &scenarios {
        let Scenario {
            name,
            input,
            patch,
            expected,
        } = read_scenario(dir);
        let default = run(&input, &patch, ScenarioPolicy::AllOrNothing);
        match deviations.iter().find(|(n, _)| *n == name) {
            Some((_, reason)) => {
                let partial = run(&input, &patch, ScenarioPolicy::Partial);
                if default == input && partial == expected {
                    passed += 1;
                    notes.push(format!("  deviation {name}: {reason}"));
                } else {
                    failures.push(format!(
                        "{name}: default {default} (input {input}); partial {partial}; \
                         expected {expected}"
                    ));
                }
            }
            None if default == expected => passed += 1,
            None => failures.push(format!(
                "{name}:\n  expected {expected}\n  got      {default}"
            )),
        }
    }
    println!("{label}: {passed}/{} passed", scenarios.len());
    for n in &notes {
        println!("{n}");
    }
    failures
}

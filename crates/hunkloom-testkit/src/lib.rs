//! Test support shared by hunkloom's vector runners: the core's integration tests
//! (`crates/hunkloom/tests/`), the file layer's (`crates/hunkloom-fs/tests/`) and the C
//! binding's tests through its `extern "C"` functions (`bindings/c/tests/c_abi/`).
//!
//! Plain data only, so that every runner reads, cuts, scores and prints the corpora the same way
//! and they cannot drift:
//!
//! - [`vectors_dir`] and [`load_jsonl`]: where `tests/vectors/` is and how a JSONL corpus is read.
//! - [`chunking`]: how a diff is cut into pushes ([`Chunking`], [`SplitMix64`]).
//! - [`cline`]: the Cline `constructNewFileContent` vectors and the `cline-apply-patch` JSON.
//! - [`lazy`]: the lazy-edit corpus, its scoring and its per-category report.
//! - [`robustness`]: the robustness corpus, its scoring and its per-category report.
//! - [`robustness_v2`]: the second robustness corpus (already-applied edits, refusal codes),
//!   scored per mode.
//! - [`roo`]: Roo's `apply_diff` corpora (`roo-multi-search-replace*`), their calls and checks.
//! - [`tools`]: the tool-operation corpora (`cline-content-fixes`, `roo-insert-content`).
//! - [`text_editor`]: the text-editor tool corpora (trees, calls, outputs).
//! - [`codex`]: Codex's `apply_patch` scenario trees and their judging.
//! - [`udiff`]: the unified-diff corpus, judged against `git apply` and against the intent.
//! - [`tally`]: per-part pass counts in first-seen order.
//! - [`v4a`]: the OpenAI V4A corpus and its judging.
//!
//! The crate does not depend on `hunkloom`: a runner turns the engine's results into the plain
//! values here (strings, codes, JSON), so the core's own tests can use it without a cycle.

pub mod aider;
pub mod chunking;
pub mod cline;
pub mod codex;
pub mod docs;
pub mod lazy;
pub mod robustness;
pub mod robustness_v2;
pub mod roo;
pub mod tally;
pub mod text_editor;
pub mod tools;
pub mod toolsets;
pub mod udiff;
pub mod v4a;

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

pub use chunking::{
    Chunking, SEED, SplitMix64, assert_cuts_a_character, json_text, split_random_bytes,
};
pub use cline::{CLINE_CORPORA, ClineExpect, ClineOutcome, ClineVector, load_cline_corpus};
pub use codex::{ScenarioPolicy, Tree};
pub use tally::{Tally, check};

/// The workspace root: the folder holding the root `Cargo.toml` and `tests/vectors/`.
///
/// Taken from this crate's own manifest folder (`crates/hunkloom-testkit`, two levels down), so
/// it is right whichever crate of the workspace calls it and from whatever current directory.
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .unwrap_or_else(|| panic!("{} has no grandparent", manifest.display()))
        .to_path_buf()
}

/// `tests/vectors/` of the workspace (see its `README.md`).
pub fn vectors_dir() -> PathBuf {
    vectors_dir_in(&workspace_root())
}

/// `tests/vectors/` under the workspace root `root`.
pub fn vectors_dir_in(root: &Path) -> PathBuf {
    root.join("tests").join("vectors")
}

/// Every non-blank line of the JSONL file `path`, each parsed as a `T`.
///
/// # Panics
/// When the file cannot be read or a line does not parse (naming the file).
pub fn read_jsonl<T: DeserializeOwned>(path: &Path) -> Vec<T> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

/// [`read_jsonl`] of `file`, a path relative to [`vectors_dir`] (`"robustness.jsonl"`).
pub fn load_jsonl<T: DeserializeOwned>(file: &str) -> Vec<T> {
    read_jsonl(&vectors_dir().join(file))
}

/// The string field `key` of the JSON row `v`.
///
/// # Panics
/// When it is missing or not a string (naming the row's `id`).
pub fn str_field<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{}: `{key}` is not a string", v["id"]))
}

/// On failures: prints `FAIL <failure>` for the first `shown` of them and `<count> <noun>` to
/// stderr, and exits with status 1 (the `harness = false` runners' way of failing).
pub fn exit_on_failures(failures: &[String], shown: usize, noun: &str) {
    if failures.is_empty() {
        return;
    }
    for f in failures.iter().take(shown) {
        eprintln!("FAIL {f}");
    }
    eprintln!("{} {noun}", failures.len());
    std::process::exit(1);
}

/// On failures: prints `FAIL <failure>` for the first `shown` of them to stderr and panics with
/// `<count> <noun>` (the libtest tests' way of failing).
///
/// # Panics
/// When there are failures.
#[track_caller]
pub fn assert_no_failures(failures: &[String], shown: usize, noun: &str) {
    for f in failures.iter().take(shown) {
        eprintln!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} {noun}", failures.len());
}

/// `text` in windows-1251, for tests of legacy encodings: ASCII as it is, `А`..`я` as
/// 0xC0..0xFF.
///
/// # Panics
/// On any other character.
pub fn cp1251(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            'А'..='я' => {
                u8::try_from(u32::from(c) - 0x410 + 0xC0).unwrap_or_else(|_| unreachable!())
            }
            c if c.is_ascii() => c as u8,
            other => panic!("{other:?} is not in this cp1251 subset"),
        })
        .collect()
}

//! The OpenAI V4A corpus (`openai-v4a/v4a.jsonl`), read and judged the same way by every
//! runner: [`load`] gives the rows, [`judge`] compares one result with a row's `expect`
//! (the reference's output, or its exact error message), and [`SKIP`] lists the rows no
//! runner runs, each with its reason (none).
//!
//! The rows also record what codex-rs did with the same body inside a `*** Begin Patch`
//! envelope; [`judge_codex`] compares the Codex dialect's entry for one file with that (every
//! row agrees, line endings of mixed-ending files included).

use serde::Deserialize;

/// The corpus, relative to [`vectors_dir`](crate::vectors_dir).
pub const V4A: &str = "openai-v4a/v4a.jsonl";

/// The name runners print: `v4a <mode>: <passed>/<total> passed`.
pub const CORPUS: &str = "v4a";

/// Rows no runner runs, with the reason. Empty: every row is run.
pub const SKIP: &[(&str, &str)] = &[];

/// One row (see `openai-v4a/README.md`).
#[derive(Clone, Debug, Deserialize)]
pub struct Row {
    /// The row's id, e.g. `v4a-s1-0042`.
    pub id: String,
    /// The generator's family of the case.
    pub family: String,
    /// `default` or `create`.
    pub mode: String,
    /// The file's text before.
    pub input: String,
    /// The V4A body.
    pub diff: String,
    /// The text the body was generated from, before the case's mistake was put in (`None`
    /// when no single intent exists).
    #[serde(default)]
    pub intended: Option<String>,
    /// What the reference did.
    pub expect: Expect,
    /// What codex-rs did with the body wrapped in `*** Begin Patch` / `*** Update File:
    /// src/app.txt` (`*** Add File: src/new.txt` in create mode) / `*** End Patch`.
    pub codex: Codex,
}

/// The reference's result: the new text, or its `ValueError` message.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Expect {
    /// `apply_diff` returned this text.
    Output {
        /// The text.
        output: String,
    },
    /// `apply_diff` raised `ValueError(error)`.
    Error {
        /// The exact message.
        error: String,
    },
}

/// codex-rs's result for the wrapped body.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Codex {
    /// codex failed; `error` is its standard error.
    Error {
        /// Its standard error, with paths as `src/app.txt`.
        error: String,
    },
    /// codex succeeded: the file's text afterwards (`None`: no such file), and the whole tree
    /// when codex left other files.
    Output {
        /// The file's text afterwards.
        output: Option<String>,
        /// The whole tree, path to text, when it holds other files.
        #[serde(default)]
        files: Option<std::collections::BTreeMap<String, String>>,
    },
}

/// The path codex-rs was given for a row's file in `mode`.
pub fn codex_path(mode: &str) -> &'static str {
    if mode == "create" {
        "src/new.txt"
    } else {
        "src/app.txt"
    }
}

/// How a reading of a body compares with what the model meant (the row's `intended`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// The intended text.
    Correct,
    /// A refusal: nothing written.
    Refused,
    /// Some other text: a wrong file.
    Wrong,
}

impl Verdict {
    /// The verdict for `got` (the new text, or a refusal) on a row with an intent.
    pub fn of(intended: &str, got: Result<&str, &str>) -> Verdict {
        match got {
            Ok(text) if text == intended => Verdict::Correct,
            Ok(_) => Verdict::Wrong,
            Err(_) => Verdict::Refused,
        }
    }

    /// The reference's verdict on a row with an intent.
    pub fn of_reference(row: &Row, intended: &str) -> Verdict {
        match &row.expect {
            Expect::Output { output } => Verdict::of(intended, Ok(output)),
            Expect::Error { error } => Verdict::of(intended, Err(error)),
        }
    }

    /// codex-rs's verdict on a row with an intent.
    pub fn of_codex(row: &Row, intended: &str) -> Verdict {
        match &row.codex {
            Codex::Output {
                output: Some(output),
                files: None,
            } => Verdict::of(intended, Ok(output)),
            Codex::Output { .. } => Verdict::Wrong,
            Codex::Error { error } => Verdict::of(intended, Err(error)),
        }
    }
}

/// Every row.
pub fn load() -> Vec<Row> {
    crate::load_jsonl(V4A)
}

/// `Ok(true)` when `got` (the new text, or the error message) is the row's `expect`, else why
/// not.
pub fn judge(row: &Row, got: Result<&str, &str>) -> Result<bool, String> {
    match (&row.expect, got) {
        (Expect::Output { output }, Ok(text)) => crate::check(text, output),
        (Expect::Error { error }, Err(message)) => crate::check(message, error),
        (Expect::Output { output }, Err(message)) => Err(format!(
            "\n  want output {output:?}\n  got error   {message:?}"
        )),
        (Expect::Error { error }, Ok(text)) => {
            Err(format!("\n  want error  {error:?}\n  got output  {text:?}"))
        }
    }
}

/// Judges the Codex dialect's result for a row's body (`got`: every file afterwards, or the
/// error message) against what codex-rs did: `Ok(true)` when they agree, else why not.
///
/// A failure agrees when both failed and, for codex-rs's "Failed to find …" errors, the messages
/// are equal (the recorded message lost its trailing line feeds); codex-rs's parse errors word
/// their line numbers differently, so only the failure is compared for them.
pub fn judge_codex(
    row: &Row,
    got: Result<&std::collections::BTreeMap<String, String>, &str>,
) -> Result<bool, String> {
    let path = codex_path(&row.mode);
    let same = |a: &str, b: &str| {
        if a == b {
            Ok(true)
        } else {
            Err(format!("\n  codex-rs {b:?}\n  got      {a:?}"))
        }
    };
    match (&row.codex, got) {
        (Codex::Error { error }, Err(message)) if error.starts_with("Failed to find") => {
            crate::check(message.trim_end_matches('\n'), error)
        }
        (Codex::Error { .. }, Err(_)) => Ok(true),
        (Codex::Error { error }, Ok(files)) => {
            Err(format!("\n  codex-rs failed {error:?}\n  got {files:?}"))
        }
        (
            Codex::Output {
                files: Some(tree), ..
            },
            Ok(files),
        ) => same(&format!("{files:?}"), &format!("{tree:?}")),
        (Codex::Output { output, .. }, Ok(files)) => match (files.get(path), output) {
            (Some(got), Some(want)) => same(got, want),
            (None, None) => Ok(true),
            (got, want) => Err(format!("\n  codex-rs {want:?}\n  got      {got:?}")),
        },
        (Codex::Output { output, .. }, Err(message)) => {
            Err(format!("\n  codex-rs {output:?}\n  got error {message:?}"))
        }
    }
}

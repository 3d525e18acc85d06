//! Cline's corpora: the `constructNewFileContent` vectors ([`ClineVector`], see
//! `tests/vectors/README.md`) and the JSON of `cline-apply-patch.jsonl` rows
//! ([`patch_files`], [`PatchJson`], [`patch_error_json`]).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value, json};

/// One `constructNewFileContent` vector (see `tests/vectors/README.md`).
#[derive(Deserialize, Clone, Debug)]
pub struct ClineVector {
    /// The vector's id.
    pub id: String,
    /// `v1` or `v2`: which of Cline's functions.
    pub version: String,
    /// The file before the edit.
    pub original: String,
    /// The SEARCH/REPLACE text (possibly a prefix of it).
    pub diff: String,
    /// Whether `diff` is complete.
    pub is_final: bool,
    /// What Cline gives.
    pub expect: ClineExpect,
}

/// What Cline gives for a [`ClineVector`]: content and match indices, or an error message.
#[derive(Deserialize, Clone, Debug)]
pub struct ClineExpect {
    /// The new content, on success.
    pub new_content: Option<String>,
    /// The match positions in UTF-16 units, on success.
    pub match_indices: Option<Vec<usize>>,
    /// The error message, on failure.
    pub error: Option<String>,
}

/// What a call produced, in the vectors' terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClineOutcome {
    /// A success.
    Content {
        /// The new content (or the preview, for a non-final diff).
        new_content: String,
        /// Match indices in UTF-16 units (Cline's `matchIndices`).
        match_indices: Vec<usize>,
    },
    /// A failure, with its message.
    Error(String),
}

impl ClineVector {
    /// The outcome the vector expects.
    ///
    /// # Panics
    /// When a success lacks `new_content` or `match_indices`.
    pub fn expected(&self) -> ClineOutcome {
        match &self.expect.error {
            Some(message) => ClineOutcome::Error(message.clone()),
            None => ClineOutcome::Content {
                new_content: self.expect.new_content.clone().expect("new_content"),
                match_indices: self.expect.match_indices.clone().expect("match_indices"),
            },
        }
    }
}

/// The Cline corpora, in the order runners report them.
pub const CLINE_CORPORA: &[&str] = &[
    "cline-unit",
    "cline-diff-differential",
    "cline-diff-streaming-exhaustive",
];

/// The vectors of `corpus` (one of [`CLINE_CORPORA`]), in file order.
pub fn load_cline_corpus(corpus: &str) -> Vec<ClineVector> {
    crate::load_jsonl(&format!("{corpus}.jsonl"))
}

/// The Cline `apply_patch` corpus, relative to [`vectors_dir`](crate::vectors_dir).
pub const CLINE_APPLY_PATCH: &str = "cline-apply-patch.jsonl";

/// The corpus the printed lines name.
pub const CLINE_APPLY_PATCH_CORPUS: &str = "cline-apply-patch";

/// A `cline-apply-patch` row's `files` (path → content); none when absent.
pub fn patch_files(v: &Value) -> BTreeMap<String, String> {
    v.as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// The failing hunk's message as Cline's runner writes it.
pub fn patch_error_json(message: &str) -> Value {
    json!({"error": message, "error_name": "DiffError"})
}

/// One planning warning, as plain data.
#[derive(Clone, Copy, Debug)]
pub struct PatchWarning<'a> {
    /// The file concerned.
    pub path: &'a str,
    /// The chunk concerned, if one is.
    pub chunk_index: Option<usize>,
    /// The message.
    pub message: &'a str,
    /// The context line, if any.
    pub context: Option<&'a str>,
}

/// Warnings as Cline's JSON: `path`, `chunkIndex` when set, `message`, `context` when set.
pub fn warnings_json<'a>(warnings: impl IntoIterator<Item = PatchWarning<'a>>) -> Value {
    Value::Array(
        warnings
            .into_iter()
            .map(|w| {
                let mut m = Map::new();
                m.insert("path".into(), json!(w.path));
                if let Some(i) = w.chunk_index {
                    m.insert("chunkIndex".into(), json!(i));
                }
                m.insert("message".into(), json!(w.message));
                if let Some(c) = w.context {
                    m.insert("context".into(), json!(c));
                }
                Value::Object(m)
            })
            .collect(),
    )
}

/// An applied Cline patch as plain data, turned by [`to_json`](Self::to_json) into what an
/// `apply_patch` row `expect`s.
#[derive(Clone, Debug, Default)]
pub struct PatchJson<'a> {
    /// Every file afterwards, path → content.
    pub files: Vec<(&'a str, &'a str)>,
    /// The deleted paths.
    pub deleted: &'a [String],
    /// The fuzz.
    pub fuzz: u64,
    /// Each update's path and start lines.
    pub start_lines: Vec<(&'a str, &'a [usize])>,
    /// The warnings.
    pub warnings: Vec<PatchWarning<'a>>,
}

impl PatchJson<'_> {
    /// `files`, `deleted`, `fuzz`, `start_line_numbers`, and `warnings` unless there are none.
    pub fn to_json(&self) -> Value {
        let files: Map<String, Value> = self
            .files
            .iter()
            .map(|(p, c)| ((*p).to_owned(), json!(c)))
            .collect();
        let starts: Map<String, Value> = self
            .start_lines
            .iter()
            .map(|(p, s)| ((*p).to_owned(), json!(s)))
            .collect();
        let mut out = json!({
            "files": files,
            "deleted": self.deleted,
            "fuzz": self.fuzz,
            "start_line_numbers": Value::Object(starts),
        });
        if !self.warnings.is_empty() {
            out["warnings"] = warnings_json(self.warnings.iter().copied());
        }
        out
    }
}

/// A row's label in failures: `"<id>" (<name>)`.
pub fn row_label(row: &Value) -> String {
    format!("{} ({})", row["id"], row["name"])
}

/// `Ok(true)` when `got` equals the row's `expect`, else both in the failure.
pub fn check_expect(row: &Value, got: &Value) -> Result<bool, String> {
    if *got == row["expect"] {
        Ok(true)
    } else {
        Err(format!("\n  expected {}\n  got      {got}", row["expect"]))
    }
}

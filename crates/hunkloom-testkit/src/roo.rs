//! Roo's `apply_diff` corpora (`MultiSearchReplaceDiffStrategy.applyDiff`): the generated sets
//! at two thresholds, the upstream spec calls and the probes, and the marker checks; how a row is
//! called and how a result is compared with its `expect`.

use serde::Deserialize;
use serde_json::{Value, json};

/// `(corpus name, file under tests/vectors)` of every `applyDiff` corpus, in report order.
pub const ROO_MSR_CORPORA: &[(&str, &str)] = &[
    (
        "roo-msr-t100",
        "roo-multi-search-replace/roo-msr-t100.jsonl",
    ),
    (
        "roo-msr-t090",
        "roo-multi-search-replace/roo-msr-t090.jsonl",
    ),
    ("roo-msr-spec", "roo-multi-search-replace.jsonl"),
    ("roo-msr-probes", "roo-multi-search-replace-probes.jsonl"),
];

/// The `validateMarkerSequencing` corpus.
pub const ROO_MSR_MARKERS: (&str, &str) =
    ("roo-msr-markers", "roo-multi-search-replace-markers.jsonl");

/// One `applyDiff` row.
#[derive(Clone, Debug, Deserialize)]
pub struct RooMsrRow {
    /// The row's id.
    pub id: String,
    /// The constructor's arguments, `null` where omitted: `[fuzzyThreshold, bufferLines]`.
    pub constructor_args: [Option<f64>; 2],
    /// The file before the edit.
    pub original: String,
    /// The diff.
    pub diff: String,
    /// `applyDiff`'s third and fourth arguments (ignored by Roo).
    #[serde(default)]
    pub start_line: Option<f64>,
    /// See `start_line`.
    #[serde(default)]
    pub end_line: Option<f64>,
    /// The `DiffResult`, as recorded.
    pub expect: Value,
}

impl RooMsrRow {
    /// The effective threshold (Roo's default 1.0 when omitted).
    pub fn fuzzy_threshold(&self) -> f64 {
        self.constructor_args[0].unwrap_or(1.0)
    }

    /// The effective buffer lines (Roo's default 40 when omitted).
    pub fn buffer_lines(&self) -> usize {
        self.constructor_args[1].map_or(40, |n| n as usize)
    }

    /// The recorded result with `failParts: []` restored where an older file left an empty one
    /// out (Roo always returns it with `content` or without `error`).
    pub fn expected(&self) -> Value {
        let mut e = self.expect.clone();
        if let Some(obj) = e.as_object_mut()
            && !obj.contains_key("error")
            && !obj.contains_key("failParts")
        {
            obj.insert("failParts".into(), json!([]));
        }
        e
    }

    /// The expected outcome as the `roo` dialect reports it (see [`DialectOutcome`]).
    pub fn expected_dialect(&self) -> DialectOutcome {
        let e = self.expected();
        let parts: Vec<String> = e["failParts"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|p| p["error"].as_str().unwrap_or_default().to_owned())
                    .collect()
            })
            .unwrap_or_default();
        if let Some(error) = e["error"].as_str() {
            DialectOutcome::Refused(error.to_owned())
        } else if let Some(content) = e["content"].as_str() {
            DialectOutcome::Applied {
                content: content.to_owned(),
                failed: parts,
            }
        } else {
            DialectOutcome::Refused(parts.join("\n\n"))
        }
    }
}

/// A `roo`-dialect result in comparable form: the new content with the failed blocks' messages
/// in order, or the refusal's message (a diff none of whose blocks applied is refused with every
/// failure's message, separated by blank lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialectOutcome {
    /// Applied, with the messages of the blocks that failed.
    Applied {
        /// The new content.
        content: String,
        /// The failed blocks' messages, in order.
        failed: Vec<String>,
    },
    /// Refused with this message.
    Refused(String),
}

/// A `DiffResult` as JSON, in Roo's shape.
pub fn diff_result_json(
    success: bool,
    content: Option<&str>,
    error: Option<&str>,
    fail_parts: &[&str],
) -> Value {
    let mut v = json!({ "success": success });
    if let Some(c) = content {
        v["content"] = json!(c);
    }
    if let Some(e) = error {
        v["error"] = json!(e);
    } else {
        v["failParts"] = fail_parts
            .iter()
            .map(|m| json!({"success": false, "error": m}))
            .collect();
    }
    v
}

/// `Ok(())` when `got` equals the row's expected result, else the difference.
pub fn check_diff_result(row: &RooMsrRow, got: &Value) -> Result<(), String> {
    let want = row.expected();
    if *got == want {
        Ok(())
    } else {
        Err(format!("\n  want {want}\n  got  {got}"))
    }
}

/// The rows of one corpus file.
pub fn load_roo_msr(file: &str) -> Vec<RooMsrRow> {
    crate::load_jsonl(file)
}

/// One `validateMarkerSequencing` row.
#[derive(Clone, Debug, Deserialize)]
pub struct RooMarkersRow {
    /// The row's id.
    pub id: String,
    /// The diff checked.
    pub diff: String,
    /// `{"success": true}` or `{"success": false, "error": str}`.
    pub expect: Value,
}

impl RooMarkersRow {
    /// The expected error, or `None` when the markers are in sequence.
    pub fn expected_error(&self) -> Option<&str> {
        self.expect["error"].as_str()
    }
}

/// Per-mode pass counts of one corpus and the rows that passed in every mode; prints
/// `<corpus> <mode>: <passed>/<total> passed` per mode and `<corpus>: <passed>/<total> passed`.
#[derive(Debug, Default)]
pub struct ModeTally {
    modes: Vec<(String, usize)>,
    rows: Vec<bool>,
    /// `<corpus> <mode> <id>: <why>` of every failure.
    pub failures: Vec<String>,
}

impl ModeTally {
    /// A tally of `rows` rows.
    pub fn new(rows: usize) -> Self {
        ModeTally {
            modes: Vec::new(),
            rows: vec![true; rows],
            failures: Vec::new(),
        }
    }

    /// Records row `i` (id `id`) in `mode`.
    pub fn record(&mut self, corpus: &str, mode: &str, i: usize, id: &str, r: Result<(), String>) {
        let at = match self.modes.iter().position(|m| m.0 == mode) {
            Some(at) => at,
            None => {
                self.modes.push((mode.to_owned(), 0));
                self.modes.len() - 1
            }
        };
        match r {
            Ok(()) => self.modes[at].1 += 1,
            Err(why) => {
                self.rows[i] = false;
                self.failures.push(format!("{corpus} {mode} {id}: {why}"));
            }
        }
    }

    /// Prints the lines.
    pub fn print(&self, corpus: &str) {
        let total = self.rows.len();
        for (mode, passed) in &self.modes {
            println!("{corpus} {mode}: {passed}/{total} passed");
        }
        let all = self.rows.iter().filter(|&&ok| ok).count();
        println!("{corpus}: {all}/{total} passed");
    }
}

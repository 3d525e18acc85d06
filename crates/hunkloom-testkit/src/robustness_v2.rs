//! The second robustness corpus (`tests/vectors/robustness-v2.jsonl`), scored as
//! `tests/vectors/ROBUSTNESS-V2.md` defines it: correct, refused, or WRONG, per mode.
//!
//! v2 keeps v1's rows and adds two optional fields to `expect`: `status` (`"already_applied"`:
//! the file must come back unchanged, with a block reported as already applied) and `code` (a
//! refusal must carry this error code). A runner turns each outcome into an [`ObservedV2`]
//! (content and whether a block reported `already_applied`, or the error's code and message),
//! records it per mode in a [`ScoreboardV2`] and [`finish`](ScoreboardV2::finish)es, which
//! prints `robustness-v2 <category>: <correct>/<total> correct, <refused> refused, <wrong>
//! wrong` per category (of the first mode), then `robustness-v2 <mode>: <P>/<T> correct, <R>
//! refused, <W> wrong` per mode, then the refused cases with their reasons.

use std::collections::BTreeMap;

use serde::Deserialize;

pub use crate::robustness::Score;

/// The corpus, relative to [`vectors_dir`](crate::vectors_dir).
pub const ROBUSTNESS_V2: &str = "robustness-v2.jsonl";

/// The status a block reports when its edit is already in the file.
pub const ALREADY_APPLIED: &str = "already_applied";

/// One case of the corpus.
#[derive(Deserialize, Clone, Debug)]
pub struct CaseV2 {
    /// The case's id.
    pub id: String,
    /// The failure mode it exercises.
    pub category: String,
    /// The file before the edit.
    pub original: String,
    /// The model's edit.
    pub diff: String,
    /// What a correct engine does.
    pub expect: ExpectV2,
    /// File traits and, per block, what was done (`variant=<name>` in the new categories).
    #[serde(default)]
    pub notes: String,
}

impl CaseV2 {
    /// The `variant=<name>` of the case's notes, if any.
    pub fn variant(&self) -> Option<&str> {
        self.notes
            .split(|c: char| c == ';' || c == ',' || c.is_whitespace())
            .find_map(|item| item.strip_prefix("variant="))
    }
}

/// What a correct engine does with a [`CaseV2`].
#[derive(Deserialize, Clone, Debug)]
pub struct ExpectV2 {
    /// The intended content, when the edit can be applied (the original itself when the edit
    /// is already there).
    pub content: Option<String>,
    /// `"already_applied"` when the edit is already in the file.
    pub status: Option<String>,
    /// Whether the edit must be refused (or leave the file unchanged).
    #[serde(default)]
    pub refuse: bool,
    /// The error code a refusal must carry, if the case names one.
    pub code: Option<String>,
}

/// Every case of the corpus, in file order.
pub fn load_robustness_v2() -> Vec<CaseV2> {
    crate::load_jsonl(ROBUSTNESS_V2)
}

/// What an engine returned without an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The new content.
    pub content: String,
    /// Whether some block reported the status `already_applied`.
    pub already_applied: bool,
}

/// What an engine did with a case: new content, or a refusal with its code and message.
pub type ObservedV2 = Result<Applied, (String, String)>;

/// The score of `got` for `case`, per `ROBUSTNESS-V2.md`.
pub fn score_v2(case: &CaseV2, got: &ObservedV2) -> Score {
    let unchanged = matches!(got, Ok(a) if a.content == case.original);
    let expect = &case.expect;
    if expect.refuse {
        return match got {
            Err((code, _)) if expect.code.as_ref().is_none_or(|c| c == code) => Score::Correct,
            Err(_) => Score::Refused,
            Ok(_) if unchanged && expect.code.is_none() => Score::Correct,
            Ok(_) if unchanged => Score::Refused,
            Ok(_) => Score::Wrong,
        };
    }
    let status_ok = |a: &Applied| match expect.status.as_deref() {
        None => true,
        Some(ALREADY_APPLIED) => a.already_applied,
        Some(other) => panic!("{}: unknown expected status {other:?}", case.id),
    };
    match (&expect.content, got) {
        (Some(want), Ok(a)) if a.content == *want && status_ok(a) => Score::Correct,
        (_, Err(_)) => Score::Refused,
        _ if unchanged => Score::Refused,
        _ => Score::Wrong,
    }
}

/// Scores per mode and category, the refused apply cases, and the problems found.
#[derive(Debug, Default)]
pub struct ScoreboardV2<'a> {
    /// Modes in first-seen order, each with its counts per category.
    modes: Vec<(&'static str, BTreeMap<&'a str, [usize; 3]>)>,
    /// `(mode, id, what happened)` of every case not scored correct and not WRONG.
    refused: Vec<(&'static str, &'a str, ObservedV2)>,
    /// Everything that fails the run, in the order found.
    pub problems: Vec<String>,
}

impl<'a> ScoreboardV2<'a> {
    /// An empty scoreboard.
    pub fn new() -> Self {
        Self::default()
    }

    /// Scores `got` for `case` in `mode` and counts it; a WRONG result is a problem, a refusal
    /// is kept for [`finish`](Self::finish).
    pub fn record(&mut self, mode: &'static str, case: &'a CaseV2, got: &ObservedV2) -> Score {
        let s = score_v2(case, got);
        let at = match self.modes.iter().position(|(m, _)| *m == mode) {
            Some(i) => i,
            None => {
                self.modes.push((mode, BTreeMap::new()));
                self.modes.len() - 1
            }
        };
        self.modes[at].1.entry(&case.category).or_default()[s as usize] += 1;
        match s {
            Score::Wrong => self.problems.push(format!("WRONG {} ({mode})", case.id)),
            Score::Refused => self.refused.push((mode, case.id.as_str(), got.clone())),
            Score::Correct => {}
        }
        s
    }

    /// Prints the categories of the first mode, one total per mode and the refused cases (each
    /// must be in `expected_refused` with its reason, and each listed one must be refused), and
    /// returns every problem: also when a mode scored other than `cases` cases, any is WRONG,
    /// or fewer than 99% are correct.
    pub fn finish(mut self, expected_refused: &[(&str, &str)], cases: usize) -> Vec<String> {
        if let Some((_, first)) = self.modes.first() {
            for (category, c) in first {
                let n: usize = c.iter().sum();
                println!(
                    "robustness-v2 {category}: {}/{n} correct, {} refused, {} wrong",
                    c[Score::Correct as usize],
                    c[Score::Refused as usize],
                    c[Score::Wrong as usize]
                );
            }
        }
        for (mode, per_category) in &self.modes {
            let mut total = [0usize; 3];
            for counts in per_category.values() {
                for (t, c) in total.iter_mut().zip(counts) {
                    *t += c;
                }
            }
            let n: usize = total.iter().sum();
            let (correct, refused, wrong) = (total[0], total[1], total[2]);
            println!(
                "robustness-v2 {mode}: {correct}/{n} correct, {refused} refused, {wrong} wrong"
            );
            if n != cases || wrong > 0 || correct * 100 < n * 99 {
                self.problems.push(format!(
                    "{mode}: {correct}/{n} correct with {wrong} wrong ({cases} cases): below the bar"
                ));
            }
        }
        let mut listed = Vec::new();
        for (mode, id, got) in &self.refused {
            match expected_refused.iter().find(|(r, _)| r == id) {
                Some((_, reason)) => {
                    if !listed.contains(id) {
                        println!("robustness-v2 refused {id}: {reason}");
                        listed.push(id);
                    }
                }
                None => self.problems.push(format!(
                    "{id} ({mode}) refused but not listed in REFUSED: {:?}",
                    got.as_ref().err()
                )),
            }
        }
        for (id, _) in expected_refused {
            if !self.refused.iter().any(|(_, r, _)| r == id) {
                self.problems
                    .push(format!("{id} is listed in REFUSED but no longer refused"));
            }
        }
        self.problems
    }
}

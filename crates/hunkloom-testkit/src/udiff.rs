//! The unified-diff corpus (`tests/vectors/unified-diff.jsonl`, format in
//! `tests/vectors/UNIFIED-DIFF.md`): what `git apply` (with and without `--recount`) did with
//! each diff, and what the diff meant (`intended`).
//!
//! Two scores, every runner the same:
//!
//! - `udiff-strict` is exact with `git apply`: success with the same content, or failure with
//!   the same exit status (128: the core's `invalid_patch`; 1: `patch_context_not_found`, or
//!   `patch_file_exists` for a file that exists) and git's `error:` lines as the message.
//!   Printed `udiff-strict: <exact>/<total> exact`, and `udiff-strict-recount: ...` for
//!   `--recount`.
//! - `udiff-native` against `intended`: correct (the content intended), refused (an error), or
//!   wrong (any other content). Rows whose `intended` is null are not scored. Printed
//!   `udiff-native: <correct>/<total> correct, <refused> refused, <wrong> wrong (<n> unscored:
//!   intended is null)`.

use serde::Deserialize;

/// The corpus file, relative to `tests/vectors/`.
pub const FILE: &str = "unified-diff.jsonl";

/// GNU `patch`'s count of rows applied as intended, which `udiff-native` must beat.
pub const PATCH_CORRECT: usize = 805;

/// One reference run: git's exit status, the file afterwards (on success) and its stderr.
#[derive(Clone, Debug, Deserialize)]
pub struct GitRun {
    /// 0 applied, 1 did not apply, 128 could not read the patch.
    pub exit_code: i64,
    /// The file afterwards, on success.
    pub output: Option<String>,
    /// git's standard error (the patch file named `PATCH`).
    pub stderr: String,
}

/// One row of the corpus.
#[derive(Clone, Debug, Deserialize)]
pub struct UdiffCase {
    /// `udiff-s1-NNNN`.
    pub id: String,
    /// The mistake family (`clean`, `offset`, `drift`, ...).
    pub family: String,
    /// The variant first, then any detail.
    pub tags: Vec<String>,
    /// The file's path (what the headers name once stripped).
    pub path: String,
    /// The `-p` level the references ran with.
    pub strip: u32,
    /// The file before.
    pub original: String,
    /// The file the diff was made to produce; `None` when the mistake changed the intent.
    pub intended: Option<String>,
    /// The diff as the tools got it.
    pub diff: String,
    /// `git apply`.
    pub git_apply: GitRun,
    /// `git apply --recount`.
    pub git_apply_recount: GitRun,
}

/// Every row of the corpus.
pub fn load_udiff() -> Vec<UdiffCase> {
    crate::load_jsonl(FILE)
}

/// What an engine did with a row: the new content, or the error's code and message.
pub type Observed = Result<String, (String, String)>;

/// Whether `got` is exactly what `run` (git) did; the difference when not.
pub fn judge_strict(run: &GitRun, got: &Observed) -> Result<(), String> {
    match (run.exit_code, got) {
        (0, Ok(content)) => match &run.output {
            Some(out) if out == content => Ok(()),
            _ => Err("applied, but the content differs from git's".into()),
        },
        (0, Err((code, msg))) => Err(format!("git applied it, we refused: [{code}] {msg}")),
        (status, Ok(_)) => Err(format!("git failed (exit {status}), we applied it")),
        (status, Err((code, msg))) => {
            let codes: &[&str] = match status {
                128 => &["invalid_patch"],
                _ => &["patch_context_not_found", "patch_file_exists"],
            };
            if !codes.contains(&code.as_str()) {
                return Err(format!("git exit {status}, our code {code}"));
            }
            let want = error_lines(&run.stderr);
            if *msg != want {
                return Err(format!("message {msg:?}, git's error lines {want:?}"));
            }
            Ok(())
        }
    }
}

/// git's `error:` lines (its warnings left out), joined with `\n`.
pub fn error_lines(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How `udiff-native` did on one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The intended content.
    Correct,
    /// Refused with an error.
    Refused,
    /// Some other content.
    Wrong,
    /// The row has no single intent (`intended` is null).
    Unscored,
}

/// The verdict on `got` for `case`.
pub fn judge_native(case: &UdiffCase, got: &Observed) -> Verdict {
    match (&case.intended, got) {
        (None, _) => Verdict::Unscored,
        (Some(_), Err(_)) => Verdict::Refused,
        (Some(want), Ok(content)) if want == content => Verdict::Correct,
        (Some(_), Ok(_)) => Verdict::Wrong,
    }
}

/// Counts of [`Verdict`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NativeScore {
    /// Rows applied as intended.
    pub correct: usize,
    /// Rows refused with an error.
    pub refused: usize,
    /// Rows applied to other content.
    pub wrong: usize,
    /// Rows without an intent.
    pub unscored: usize,
}

impl NativeScore {
    /// Counts one verdict.
    pub fn add(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Correct => self.correct += 1,
            Verdict::Refused => self.refused += 1,
            Verdict::Wrong => self.wrong += 1,
            Verdict::Unscored => self.unscored += 1,
        }
    }

    /// Every row counted.
    pub fn total(&self) -> usize {
        self.correct + self.refused + self.wrong + self.unscored
    }

    /// `udiff-native: C/T correct, R refused, W wrong (U unscored: intended is null)`.
    pub fn line(&self) -> String {
        format!(
            "udiff-native: {}/{} correct, {} refused, {} wrong ({} unscored: intended is null)",
            self.correct,
            self.total(),
            self.refused,
            self.wrong,
            self.unscored
        )
    }

    /// Why the score fails the bar (any wrong row, or no more correct rows than GNU patch).
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.wrong > 0 {
            out.push(format!("udiff-native: {} rows applied wrongly", self.wrong));
        }
        if self.correct <= PATCH_CORRECT {
            out.push(format!(
                "udiff-native: {} correct, not more than GNU patch's {PATCH_CORRECT}",
                self.correct
            ));
        }
        out
    }
}

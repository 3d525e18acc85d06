//! The robustness corpus (`tests/vectors/robustness.jsonl`), scored as
//! `tests/vectors/ROBUSTNESS.md` defines it: correct, refused, or WRONG.
//!
//! A runner turns each stateless outcome into an [`Observed`], hands it to a [`Scoreboard`], adds
//! its own problems (streamed mismatches) and [`finish`](Scoreboard::finish)es, which prints
//! `robustness <category>: <correct>/<total> correct, <wrong> wrong` per category, then the
//! totals, then the refused cases with their reasons.

use std::collections::BTreeMap;

use serde::Deserialize;

/// The corpus, relative to [`vectors_dir`](crate::vectors_dir).
pub const ROBUSTNESS: &str = "robustness.jsonl";

/// One case of the corpus.
#[derive(Deserialize, Clone, Debug)]
pub struct RobustnessCase {
    /// The case's id.
    pub id: String,
    /// The failure mode it exercises.
    pub category: String,
    /// The file before the edit.
    pub original: String,
    /// The model's edit.
    pub diff: String,
    /// What a correct engine does.
    pub expect: RobustnessExpect,
}

/// What a correct engine does with a [`RobustnessCase`].
#[derive(Deserialize, Clone, Debug)]
pub struct RobustnessExpect {
    /// The intended content, when the edit can be applied.
    pub content: Option<String>,
    /// Whether the edit must be refused (or leave the file unchanged).
    #[serde(default)]
    pub refuse: bool,
}

/// Every case of the corpus, in file order.
pub fn load_robustness() -> Vec<RobustnessCase> {
    crate::load_jsonl(ROBUSTNESS)
}

/// What an engine did with a case: new content, or a refusal with its code and message.
pub type Observed = Result<String, (String, String)>;

/// How an outcome scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The intended content, or a refusal where one is expected.
    Correct,
    /// A refusal (or no change) where the edit could have been applied.
    Refused,
    /// Any other content.
    Wrong,
}

/// The score of `got` for `case`.
pub fn score(case: &RobustnessCase, got: &Observed) -> Score {
    let unchanged = matches!(got, Ok(c) if *c == case.original);
    match (&case.expect.content, got) {
        (_, _) if case.expect.refuse => {
            if got.is_err() || unchanged {
                Score::Correct
            } else {
                Score::Wrong
            }
        }
        (Some(want), Ok(c)) if c == want => Score::Correct,
        (_, Err(_)) => Score::Refused,
        _ if unchanged => Score::Refused,
        _ => Score::Wrong,
    }
}

/// Scores per category, the apply cases refused, and the problems found.
#[derive(Debug, Default)]
pub struct Scoreboard<'a> {
    per_category: BTreeMap<&'a str, [usize; 3]>,
    refused: Vec<(&'a str, Observed)>,
    /// Everything that fails the run, in the order found.
    pub problems: Vec<String>,
}

impl<'a> Scoreboard<'a> {
    /// An empty scoreboard.
    pub fn new() -> Self {
        Self::default()
    }

    /// Scores `got` for `case` and counts it; a WRONG result is a problem, a refusal is kept for
    /// [`finish`](Self::finish).
    pub fn record(&mut self, case: &'a RobustnessCase, got: &Observed) -> Score {
        let s = score(case, got);
        self.per_category.entry(&case.category).or_default()[s as usize] += 1;
        match s {
            Score::Wrong => self.problems.push(format!("WRONG {}", case.id)),
            Score::Refused => self.refused.push((case.id.as_str(), got.clone())),
            Score::Correct => {}
        }
        s
    }

    /// Prints the categories, the totals and the refused cases (each must be in `expected_refused`
    /// with its reason, and each listed one must be refused), and returns every problem: also
    /// when fewer than `cases` were scored, any is WRONG, or fewer than 99% are correct.
    pub fn finish(mut self, expected_refused: &[(&str, &str)], cases: usize) -> Vec<String> {
        let mut total = [0usize; 3];
        for (category, counts) in &self.per_category {
            let n: usize = counts.iter().sum();
            println!(
                "robustness {category}: {}/{n} correct, {} wrong",
                counts[Score::Correct as usize],
                counts[Score::Wrong as usize]
            );
            for (t, c) in total.iter_mut().zip(counts) {
                *t += c;
            }
        }
        let n: usize = total.iter().sum();
        let correct = total[Score::Correct as usize];
        let wrong = total[Score::Wrong as usize];
        println!("robustness total: {correct}/{n} correct, {wrong} wrong");

        for (id, got) in &self.refused {
            match expected_refused.iter().find(|(r, _)| r == id) {
                Some((_, reason)) => println!("robustness refused {id}: {reason}"),
                None => self.problems.push(format!(
                    "{id} refused but not listed in REFUSED: {:?}",
                    got.as_ref().err()
                )),
            }
        }
        for (id, _) in expected_refused {
            if !self.refused.iter().any(|(r, _)| r == id) {
                self.problems
                    .push(format!("{id} is listed in REFUSED but no longer refused"));
            }
        }
        if n != cases || wrong > 0 || correct * 100 < n * 99 {
            self.problems.push(format!(
                "{correct}/{n} correct with {wrong} wrong ({cases} cases): below the bar"
            ));
        }
        self.problems
    }
}

//! The lazy-edit corpus (`tests/vectors/lazy-edits.jsonl`), scored as
//! `tests/vectors/LAZY-EDITS.md` defines it: correct, refused, or WRONG.
//!
//! A runner turns each outcome into an [`Observed`], hands it to a [`LazyBoard`] and
//! [`finish`](LazyBoard::finish)es, which prints `lazy-edits <category>: <C>/<T> correct, <R>
//! refused, <W> wrong` per category (sorted by name) and `lazy-edits total: <C>/<T> correct,
//! <R> refused, <W> wrong`, then the refused content cases with their reasons.

use std::collections::BTreeMap;

use serde::Deserialize;

pub use crate::robustness::{Observed, Score};

/// The corpus, relative to [`vectors_dir`](crate::vectors_dir).
pub const LAZY_EDITS: &str = "lazy-edits.jsonl";

/// One case of the corpus.
#[derive(Deserialize, Clone, Debug)]
pub struct LazyCase {
    /// The case's id.
    pub id: String,
    /// What kind of snippet it is.
    pub category: String,
    /// The file's language: `py`, `ts`, `go`, `rs` or `java`.
    pub lang: String,
    /// The file before the edit.
    pub original: String,
    /// What the model wrote.
    pub snippet: String,
    /// What a correct engine does.
    pub expect: LazyExpect,
}

/// What a correct engine does with a [`LazyCase`]: the intended file, or a refusal.
#[derive(Deserialize, Clone, Debug)]
pub struct LazyExpect {
    /// The intended file, when the snippet can be placed.
    pub content: Option<String>,
    /// Whether the snippet must be refused.
    #[serde(default)]
    pub refuse: bool,
}

impl LazyCase {
    /// A file name with the case's extension (`case.py`, `case.ts`, ...), so the language
    /// comes from the path as it would for a real file.
    pub fn path(&self) -> String {
        format!("case.{}", self.lang)
    }
}

/// Every case of the corpus, in file order.
pub fn load_lazy_edits() -> Vec<LazyCase> {
    crate::load_jsonl(LAZY_EDITS)
}

/// The score of `got` for `case`: a content case is correct only with the intended file byte
/// for byte, and refused on an error or the original unchanged; a refuse case is correct on an
/// error or the original unchanged; anything else is WRONG.
pub fn score(case: &LazyCase, got: &Observed) -> Score {
    let unchanged = matches!(got, Ok(c) if *c == case.original);
    if case.expect.refuse {
        return if got.is_err() || unchanged {
            Score::Correct
        } else {
            Score::Wrong
        };
    }
    match got {
        Ok(c) if Some(c) == case.expect.content.as_ref() => Score::Correct,
        Err(_) => Score::Refused,
        Ok(_) if unchanged => Score::Refused,
        Ok(_) => Score::Wrong,
    }
}

/// Scores per category, the content cases refused, and the problems found.
#[derive(Debug, Default)]
pub struct LazyBoard<'a> {
    per_category: BTreeMap<&'a str, [usize; 3]>,
    refused: Vec<(&'a str, Observed)>,
    /// Everything that fails the run, in the order found.
    pub problems: Vec<String>,
}

impl<'a> LazyBoard<'a> {
    /// An empty board.
    pub fn new() -> Self {
        Self::default()
    }

    /// Scores `got` for `case` and counts it; a WRONG result is a problem, a refused content
    /// case is kept for [`finish`](Self::finish).
    pub fn record(&mut self, case: &'a LazyCase, got: &Observed) -> Score {
        let s = score(case, got);
        self.per_category.entry(&case.category).or_default()[s as usize] += 1;
        match s {
            Score::Wrong => self.problems.push(format!("WRONG {}", case.id)),
            Score::Refused => self.refused.push((case.id.as_str(), got.clone())),
            Score::Correct => {}
        }
        s
    }

    /// The lines [`finish`](Self::finish) prints: one per category, then the total.
    pub fn lines(&self) -> Vec<String> {
        let mut total = [0usize; 3];
        let mut out = Vec::new();
        let line = |name: &str, c: &[usize; 3]| {
            format!(
                "lazy-edits {name}: {}/{} correct, {} refused, {} wrong",
                c[Score::Correct as usize],
                c.iter().sum::<usize>(),
                c[Score::Refused as usize],
                c[Score::Wrong as usize]
            )
        };
        for (category, counts) in &self.per_category {
            out.push(line(category, counts));
            for (t, c) in total.iter_mut().zip(counts) {
                *t += c;
            }
        }
        out.push(line("total", &total));
        out
    }

    /// Prints [`lines`](Self::lines) and the refused content cases (each must be in
    /// `expected_refused` with its reason, and each listed one must be refused), and returns
    /// every problem: also when fewer than `cases` were scored, any is WRONG, or fewer than
    /// 95% are correct.
    pub fn finish(mut self, expected_refused: &[(&str, &str)], cases: usize) -> Vec<String> {
        for line in self.lines() {
            println!("{line}");
        }
        let (mut n, mut correct, mut wrong) = (0, 0, 0);
        for counts in self.per_category.values() {
            n += counts.iter().sum::<usize>();
            correct += counts[Score::Correct as usize];
            wrong += counts[Score::Wrong as usize];
        }
        for (id, got) in &self.refused {
            match expected_refused.iter().find(|(r, _)| r == id) {
                Some((_, reason)) => println!("lazy-edits refused {id}: {reason}"),
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
        if n != cases || wrong > 0 || correct * 100 < n * 95 {
            self.problems.push(format!(
                "{correct}/{n} correct with {wrong} wrong ({cases} cases): below the bar"
            ));
        }
        self.problems
    }
}

//! Scores the `native` dialect on the robustness corpus (`tests/vectors/robustness.jsonl`,
//! scoring as `tests/vectors/ROBUSTNESS.md` defines it) and prints, per category and then in
//! total, `robustness <category>: <correct>/<total> correct, <wrong> wrong`.
//!
//! Every case runs through the stateless [`apply_diff`] and through a [`StreamingApplier`] fed
//! the diff whole, per line and at random split points; the streamed outcomes must equal the
//! stateless one and the splices must rebuild the preview. The run fails on any WRONG result,
//! below 99% correct, on a streamed mismatch, or when the apply cases it refuses differ from
//! [`REFUSED`].

mod common;

use std::collections::BTreeMap;

use common::{Chunking, vectors_dir};
use patchloom::{ApplierOptions, ApplyOptions, Dialect, StreamingApplier, apply_diff};
use serde::Deserialize;

/// Apply cases the engine refuses on purpose, with the reason (printed on every run).
const REFUSED: &[(&str, &str)] = &[];

#[derive(Deserialize)]
struct Case {
    id: String,
    category: String,
    original: String,
    diff: String,
    expect: Expect,
}

#[derive(Deserialize)]
struct Expect {
    content: Option<String>,
    #[serde(default)]
    refuse: bool,
}

/// What an engine did with a case: new content, or a refusal with its code and message.
type Observed = Result<String, (String, String)>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Correct,
    Refused,
    Wrong,
}

fn score(case: &Case, got: &Observed) -> Score {
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

fn stateless(case: &Case) -> Observed {
    apply_diff(&case.diff, &case.original, &ApplyOptions::default())
        .map(|o| o.new_content)
        .map_err(|e| (e.code().to_owned(), e.message().to_owned()))
}

fn streamed(case: &Case, chunking: Chunking) -> Result<Observed, String> {
    let options = ApplierOptions::new().dialect(Dialect::Native);
    let mut applier = StreamingApplier::new(case.original.clone(), options);
    let mut mirror = case.original.clone();
    for piece in chunking.split(&case.diff) {
        applier.push(piece).apply_to(&mut mirror);
    }
    if mirror != applier.preview() {
        return Err("the splices do not rebuild the preview".into());
    }
    Ok(applier
        .finish()
        .map(|o| o.new_content)
        .map_err(|e| (e.code().to_owned(), e.message().to_owned())))
}

fn main() {
    let path = vectors_dir().join("robustness.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let cases: Vec<Case> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("robustness case"))
        .collect();

    let mut per_category: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut refused_apply = Vec::new();
    for case in &cases {
        let got = stateless(case);
        let s = score(case, &got);
        per_category.entry(&case.category).or_default()[s as usize] += 1;
        match s {
            Score::Wrong => problems.push(format!("WRONG {}", case.id)),
            Score::Refused => refused_apply.push((case.id.as_str(), got.clone())),
            Score::Correct => {}
        }
        for chunking in [Chunking::Whole, Chunking::Line, Chunking::Random(0x5EED)] {
            match streamed(case, chunking) {
                Ok(s) if s == got => {}
                Ok(s) => problems.push(format!(
                    "{} {}: streamed {:?} differs from stateless {:?}",
                    case.id,
                    chunking.name(),
                    s.as_ref().map(|_| "content").map_err(|e| &e.0),
                    got.as_ref().map(|_| "content").map_err(|e| &e.0),
                )),
                Err(why) => problems.push(format!("{} {}: {why}", case.id, chunking.name())),
            }
        }
    }

    let mut total = [0usize; 3];
    for (category, counts) in &per_category {
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

    for (id, got) in &refused_apply {
        match REFUSED.iter().find(|(r, _)| r == id) {
            Some((_, reason)) => println!("robustness refused {id}: {reason}"),
            None => problems.push(format!(
                "{id} refused but not listed in REFUSED: {:?}",
                got.as_ref().err()
            )),
        }
    }
    for (id, _) in REFUSED {
        if !refused_apply.iter().any(|(r, _)| r == id) {
            problems.push(format!("{id} is listed in REFUSED but no longer refused"));
        }
    }
    if wrong > 0 || correct * 100 < n * 99 {
        problems.push(format!(
            "{correct}/{n} correct with {wrong} wrong: below the bar"
        ));
    }
    if !problems.is_empty() {
        for p in problems.iter().take(40) {
            eprintln!("FAIL {p}");
        }
        eprintln!("{} problems", problems.len());
        std::process::exit(1);
    }
}

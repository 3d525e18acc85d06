//! The robustness corpus (`tests/vectors/robustness.jsonl`) through the C ABI only, scored exactly
//! as the core's runner (`crates/patchloom/tests/robustness.rs`) scores it, per
//! `tests/vectors/ROBUSTNESS.md`: correct, refused, or WRONG.
//!
//! Every case runs through `pl_apply_diff` (NULL options: `native`, all or nothing) and through a
//! `pl_applier` in `PL_DIALECT_NATIVE` fed the diff whole, per line, at seeded random split points
//! on character boundaries, and at seeded random split points on any byte (so inside
//! characters). Each streamed outcome (content and block reports, or code and message) must equal
//! the stateless one, and the splices must rebuild the preview.
//!
//! Prints `robustness <category>: <correct>/<total> correct, <wrong> wrong` per category, then
//! the totals (visible with `--nocapture`, as `make test-c` runs it). Fails on any WRONG result,
//! below 99% correct, on a streamed mismatch, or when the apply cases refused differ from
//! [`REFUSED`].

use std::collections::BTreeMap;

use serde::Deserialize;

use super::common::{Chunking, SplitMix64, vectors_dir};
use super::ffi::{Applier, BlockView, CError, apply, take_full};
use crate::*;

/// Apply cases the engine refuses on purpose, with the reason: the core runner's list
/// (`REFUSED` in `crates/patchloom/tests/robustness.rs`), which this one must equal.
const REFUSED: &[(&str, &str)] = &[];

const SEED: u64 = 0x5EED;

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

/// What the library did with a case: new content, or a refusal with its code and message.
type Observed = Result<String, (String, String)>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Correct,
    Refused,
    Wrong,
}

/// The core runner's scoring, unchanged.
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

/// How the diff reaches the streaming applier.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// The core runner's chunkings (character boundaries).
    Chunks(Chunking),
    /// Seeded random splits at any byte, so also inside characters.
    RandomBytes(u64),
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Chunks(c) => c.name(),
            Mode::RandomBytes(_) => "random-byte",
        }
    }

    fn pieces(self, diff: &str) -> Vec<&[u8]> {
        match self {
            Mode::Chunks(c) => c.split(diff).into_iter().map(str::as_bytes).collect(),
            Mode::RandomBytes(seed) => {
                let bytes = diff.as_bytes();
                let mut rng = SplitMix64(seed ^ bytes.len() as u64);
                let mut pieces = Vec::new();
                let mut at = 0;
                while at < bytes.len() {
                    let next = (at + 1 + (rng.next() % 16) as usize).min(bytes.len());
                    pieces.push(&bytes[at..next]);
                    at = next;
                }
                pieces
            }
        }
    }
}

const MODES: [Mode; 4] = [
    Mode::Chunks(Chunking::Whole),
    Mode::Chunks(Chunking::Line),
    Mode::Chunks(Chunking::Random(SEED)),
    Mode::RandomBytes(SEED),
];

/// What a case gave, with the block reports of a success (to compare streamed with stateless).
type Full = Result<(String, Vec<BlockView>), (String, String)>;

fn observed(full: &Full) -> Observed {
    full.clone().map(|(content, _)| content)
}

fn from_c(taken: Result<super::ffi::Taken, CError>) -> Full {
    taken
        .map(|(content, _, blocks)| (content, blocks))
        .map_err(|e| (e.code, e.message))
}

fn stateless(case: &Case) -> Result<Full, String> {
    let (status, result, error) = apply(case.diff.as_bytes(), case.original.as_bytes(), None);
    let full = from_c(take_full(status, result, error, &case.original)?);
    if let Ok((_, blocks)) = &full
        && blocks.iter().any(|b| b.status != PL_BLOCK_APPLIED)
    {
        return Err("a failed block under all-or-nothing".into());
    }
    Ok(full)
}

fn streamed(case: &Case, mode: Mode) -> Result<Full, String> {
    let options = pl_applier_options {
        dialect: PL_DIALECT_NATIVE,
        policy: PL_POLICY_ALL_OR_NOTHING,
    };
    let mut applier = Applier::with_options(case.original.as_bytes(), options)
        .map_err(|s| format!("pl_applier_new: {s:?}"))?;
    // The host's copy of the preview, kept only through the splices.
    let mut mirror = case.original.clone();
    for piece in mode.pieces(&case.diff) {
        let (start, removed, inserted, _) = applier.push(piece)?;
        if start + removed > mirror.len() || !mirror.is_char_boundary(start) {
            return Err(format!("splice {start}+{removed} outside {}", mirror.len()));
        }
        mirror.replace_range(start..start + removed, &inserted);
    }
    let preview = applier.preview().map_err(|s| format!("preview: {s:?}"))?;
    if preview != mirror {
        return Err("the splices do not rebuild the preview".into());
    }
    let (status, result, error) = applier.end(true);
    Ok(from_c(take_full(status, result, error, &case.original)?))
}

#[test]
fn the_robustness_corpus_through_the_c_abi() {
    let path = vectors_dir().join("robustness.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let cases: Vec<Case> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("robustness case"))
        .collect();
    assert!(!cases.is_empty(), "{} is empty", path.display());

    let mut per_category: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut refused_apply = Vec::new();
    for case in &cases {
        let full = match stateless(case) {
            Ok(full) => full,
            Err(why) => {
                problems.push(format!("{} stateless: {why}", case.id));
                continue;
            }
        };
        let got = observed(&full);
        let s = score(case, &got);
        per_category.entry(&case.category).or_default()[s as usize] += 1;
        match s {
            Score::Wrong => problems.push(format!("WRONG {}", case.id)),
            Score::Refused => refused_apply.push((case.id.as_str(), got.clone())),
            Score::Correct => {}
        }
        for mode in MODES {
            match streamed(case, mode) {
                Ok(s) if s == full => {}
                Ok(s) => problems.push(format!(
                    "{} {}: streamed {:?} differs from stateless {:?}",
                    case.id,
                    mode.name(),
                    s.as_ref().map(|(_, b)| b.len()).map_err(|e| &e.0),
                    full.as_ref().map(|(_, b)| b.len()).map_err(|e| &e.0),
                )),
                Err(why) => problems.push(format!("{} {}: {why}", case.id, mode.name())),
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
    if n != cases.len() || wrong > 0 || correct * 100 < n * 99 {
        problems.push(format!(
            "{correct}/{n} correct with {wrong} wrong ({} cases): below the bar",
            cases.len()
        ));
    }
    for p in problems.iter().take(40) {
        eprintln!("FAIL {p}");
    }
    assert!(problems.is_empty(), "{} problems", problems.len());
}

#[test]
fn random_byte_splits_do_cut_characters() {
    // The random-byte mode is only worth its time if it splits multi-byte characters.
    let diff = "------- SEARCH\n\u{201c}x\u{201d} \u{2014} \u{2026}\n=======\ny\n+++++++ REPLACE\n";
    let pieces = Mode::RandomBytes(SEED).pieces(diff);
    assert!(pieces.iter().any(|p| std::str::from_utf8(p).is_err()));
    assert_eq!(pieces.concat(), diff.as_bytes());
}

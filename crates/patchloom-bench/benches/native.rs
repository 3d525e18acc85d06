//! The `native` dialect: the whole robustness corpus through [`apply_diff`] (first a small
//! harness prints the time per case, median and max), and S6: a 200,000-line file with a block
//! that matches nothing (every tolerant tier runs) against an exact block over the same file,
//! with the `memmem` search of that block's text alone as the floor.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use patchloom::{ApplyOptions, apply_diff};
use patchloom_bench::{s6_exact, s6_no_match};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    id: String,
    original: String,
    diff: String,
}

fn corpus() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/robustness.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("tests/vectors/robustness.jsonl");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("case"))
        .collect()
}

fn run(case: &Case) -> bool {
    apply_diff(&case.diff, &case.original, &ApplyOptions::default()).is_ok()
}

/// Per case, the best of a few runs (to drop scheduler noise); then the median and max.
fn per_case_times(cases: &[Case]) {
    let mut times: Vec<(Duration, &str)> = cases
        .iter()
        .map(|case| {
            let best = (0..5)
                .map(|_| {
                    let t = Instant::now();
                    black_box(run(black_box(case)));
                    t.elapsed()
                })
                .min()
                .unwrap_or_default();
            (best, case.id.as_str())
        })
        .collect();
    times.sort();
    let (median, _) = times[times.len() / 2];
    let (max, id) = times[times.len() - 1];
    let total: Duration = times.iter().map(|(t, _)| *t).sum();
    println!(
        "robustness corpus, native, per case: median {median:?}, max {max:?} ({id}), total {total:?} for {} cases",
        times.len()
    );
}

fn corpus_bench(c: &mut Criterion) {
    let cases = corpus();
    per_case_times(&cases);
    let mut g = c.benchmark_group("robustness corpus (native)");
    g.sample_size(10);
    g.bench_function("all 2,400 cases", |b| {
        b.iter(|| cases.iter().filter(|case| run(case)).count())
    });
    g.finish();
}

fn no_match_bench(c: &mut Criterion) {
    let nothing = s6_no_match();
    let exact = s6_exact();
    let mut g = c.benchmark_group("S6 200k lines (native)");
    g.sample_size(10);
    g.bench_function("block matching nothing (refused)", |b| {
        b.iter(|| {
            apply_diff(
                black_box(&nothing.diff),
                &nothing.original,
                &ApplyOptions::default(),
            )
            .is_err()
        })
    });
    g.bench_function("exact block", |b| {
        b.iter(|| {
            apply_diff(
                black_box(&exact.diff),
                &exact.original,
                &ApplyOptions::default(),
            )
            .is_ok()
        })
    });
    let search: String = exact
        .diff
        .lines()
        .skip(1)
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect();
    g.bench_function("floor (memmem of the SEARCH text)", |b| {
        b.iter(|| memchr::memmem::find(black_box(exact.original.as_bytes()), search.as_bytes()))
    });
    g.finish();
}

criterion_group!(benches, corpus_bench, no_match_bench);
criterion_main!(benches);

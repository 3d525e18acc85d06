//! The `native` dialect: the whole robustness corpus through [`apply_diff`] (first a small
//! harness prints the time per case, median and max), and S6: a 200,000-line file with a block
//! that matches nothing (every tolerant tier runs) against an exact block over the same file,
//! with the `memmem` search of that block's text alone as the floor; S7: the streaming applier
//! on a 10,000-line whole-file replacement and on a 200-block diff, both in 4-character chunks
//! (the cost per push must not grow with the replacement or the number of blocks).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hunkloom::{ApplierOptions, ApplyOptions, Dialect, StreamingApplier, apply_diff};
use hunkloom_bench::{Scenario, chunks, s6_exact, s6_no_match, s7_many_blocks, s7_rewrite};
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

/// The `native` applier fed `pieces`, then finished; the applier takes the original by value,
/// so the copy made for each iteration happens in the untimed setup.
fn streamed(original: String, pieces: &[&str]) -> String {
    let options = ApplierOptions::new().dialect(Dialect::Native);
    let mut applier = StreamingApplier::new(original, options);
    for piece in pieces {
        black_box(applier.push(piece));
    }
    applier.finish().expect("applies").new_content
}

fn streaming_bench(c: &mut Criterion) {
    let (rewrite, many) = (s7_rewrite(), s7_many_blocks());
    let mut g = c.benchmark_group("S7 native streaming, 4-char chunks");
    g.sample_size(10);
    let cases: [(&str, &Scenario); 2] = [
        ("10k-line whole-file replacement", &rewrite),
        ("200 blocks over 10k lines", &many),
    ];
    for (name, s) in cases {
        let pieces = chunks(&s.diff, 4);
        assert_ne!(streamed(s.original.clone(), &pieces), s.original);
        g.bench_function(name, |b| {
            b.iter_batched(
                || s.original.clone(),
                |o| streamed(o, &pieces),
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, corpus_bench, no_match_bench, streaming_bench);
criterion_main!(benches);

//! S1–S5 (see `patchloom_bench`): the one-shot call, the stateful applier, the stateless
//! call per prefix (how Cline is called while a diff streams) and a copy of the file (the
//! floor), measured in the same run.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use patchloom::cline::{Version, construct_new_file_content};
use patchloom::{ApplierOptions, StreamingApplier};
use patchloom_bench::{Scenario, chunks, s1, s3, s4};

fn one_shot(s: &Scenario) -> String {
    construct_new_file_content(&s.diff, &s.original, true, Version::V1)
        .expect("applies")
        .new_content
}

/// The applier takes the original by value (a caller that read the file owns it), so the copy
/// made for each iteration happens in the untimed setup.
fn stateful(original: String, pieces: &[&str]) -> String {
    let mut applier = StreamingApplier::new(original, ApplierOptions::default());
    for piece in pieces {
        black_box(applier.push(piece));
    }
    applier.finish().expect("applies").new_content
}

fn stateless_per_prefix(s: &Scenario, pieces: &[&str]) -> String {
    let mut end = 0;
    for piece in pieces {
        end += piece.len();
        black_box(construct_new_file_content(&s.diff[..end], &s.original, false, Version::V1).ok());
    }
    one_shot(s)
}

fn floor(s: &Scenario) -> Vec<u8> {
    s.original.as_bytes().to_vec()
}

fn scenarios(c: &mut Criterion) {
    let s1 = s1();
    let s3 = s3();
    let s4 = s4();
    assert_ne!(one_shot(&s1), s1.original);
    assert_ne!(one_shot(&s3), s3.original);
    assert_ne!(one_shot(&s4), s4.original);

    let mut g = c.benchmark_group("S1 10k lines, 20 exact blocks");
    g.bench_function("one-shot", |b| b.iter(|| one_shot(black_box(&s1))));
    g.bench_function("floor (copy of the file)", |b| {
        b.iter(|| floor(black_box(&s1)))
    });
    g.finish();

    let pieces = chunks(&s1.diff, 4);
    let mut g = c.benchmark_group("S2 S1 streamed in 4-char chunks");
    g.sample_size(10);
    g.bench_function("stateful applier", |b| {
        b.iter_batched(
            || s1.original.clone(),
            |o| stateful(o, &pieces),
            BatchSize::LargeInput,
        )
    });
    g.bench_function("stateless per prefix", |b| {
        b.iter(|| stateless_per_prefix(black_box(&s1), &pieces))
    });
    g.finish();

    let mut g = c.benchmark_group("S3 10k lines, 20 line-trimmed blocks");
    g.bench_function("one-shot", |b| b.iter(|| one_shot(black_box(&s3))));
    g.finish();

    let mut g = c.benchmark_group("S4 200k lines, one block near the end");
    g.bench_function("one-shot", |b| b.iter(|| one_shot(black_box(&s4))));
    g.bench_function("floor (copy of the file)", |b| {
        b.iter(|| floor(black_box(&s4)))
    });
    g.finish();

    let pieces = chunks(&s4.diff, 4);
    let mut g = c.benchmark_group("S5 S4 streamed in 4-char chunks");
    g.sample_size(10);
    g.bench_function("stateful applier", |b| {
        b.iter_batched(
            || s4.original.clone(),
            |o| stateful(o, &pieces),
            BatchSize::LargeInput,
        )
    });
    g.bench_function("stateless per prefix", |b| {
        b.iter(|| stateless_per_prefix(black_box(&s4), &pieces))
    });
    g.finish();
}

criterion_group!(benches, scenarios);
criterion_main!(benches);

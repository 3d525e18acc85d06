//! S1–S5 (see `hunkloom_bench`): the one-shot call, the stateful applier, the stateless
//! call per prefix (how Cline is called while a diff streams) and a copy of the file (the
//! floor), measured in the same run.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hunkloom::cline::{Version, construct_new_file_content};
use hunkloom::{ApplierOptions, StreamingApplier};
use hunkloom_bench::{Scenario, chunks, s1, s3, s4};

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

/// A one-shot scenario: the one-shot call, and with `floor` a copy of the file beside it.
fn one_shot_group(c: &mut Criterion, name: &str, s: &Scenario, floor_too: bool) {
    let mut g = c.benchmark_group(name);
    g.bench_function("one-shot", |b| b.iter(|| one_shot(black_box(s))));
    if floor_too {
        g.bench_function("floor (copy of the file)", |b| {
            b.iter(|| floor(black_box(s)))
        });
    }
    g.finish();
}

/// A streamed scenario: the stateful applier and the stateless call per prefix, 4-char chunks.
fn streamed_group(c: &mut Criterion, name: &str, s: &Scenario) {
    let pieces = chunks(&s.diff, 4);
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.bench_function("stateful applier", |b| {
        b.iter_batched(
            || s.original.clone(),
            |o| stateful(o, &pieces),
            BatchSize::LargeInput,
        )
    });
    g.bench_function("stateless per prefix", |b| {
        b.iter(|| stateless_per_prefix(black_box(s), &pieces))
    });
    g.finish();
}

fn scenarios(c: &mut Criterion) {
    let (s1, s3, s4) = (s1(), s3(), s4());
    for s in [&s1, &s3, &s4] {
        assert_ne!(one_shot(s), s.original, "every scenario edits its file");
    }
    one_shot_group(c, "S1 10k lines, 20 exact blocks", &s1, true);
    streamed_group(c, "S2 S1 streamed in 4-char chunks", &s1);
    one_shot_group(c, "S3 10k lines, 20 line-trimmed blocks", &s3, false);
    one_shot_group(c, "S4 200k lines, one block near the end", &s4, true);
    streamed_group(c, "S5 S4 streamed in 4-char chunks", &s4);
}

criterion_group!(benches, scenarios);
criterion_main!(benches);

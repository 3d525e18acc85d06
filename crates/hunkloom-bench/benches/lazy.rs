//! Lazy edits ([`apply_lazy`]) of a 10,000-line file, in bytes per second of file plus snippet
//! (criterion's `Throughput::Bytes`), to set next to the ~40 KB/s at which an apply model
//! streams its merged file (10,500 tokens/s): L1, one changed line between markers; L2, 20 of
//! them spread over the file; L3, those 20 with their indentation lost, placed by the
//! whitespace-insensitive tier (which builds its own index of the file). Each merge is checked
//! once before it is measured.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hunkloom::{LazyOptions, apply_lazy};
use hunkloom_bench::{LazyScenario, lazy};

fn bench(c: &mut Criterion) {
    let options = LazyOptions::new().path("handlers.py");
    let mut g = c.benchmark_group("lazy edits, 10,000-line file");
    for (name, scenario) in [
        ("L1 one segment", lazy(1, false)),
        ("L2 20 segments", lazy(20, false)),
        ("L3 20 segments, indentation lost", lazy(20, true)),
    ] {
        let LazyScenario { original, snippet } = &scenario;
        let merged = apply_lazy(snippet, original, &options).expect("the scenario merges");
        assert_eq!(
            merged.matches("  # reviewed").count(),
            snippet.matches("  # reviewed").count()
        );
        g.throughput(Throughput::Bytes((original.len() + snippet.len()) as u64));
        g.bench_function(name, |b| {
            b.iter(|| apply_lazy(black_box(snippet), black_box(original), &options))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Cost bounds: how the time of one input grows with its size, from 10^4 to 10^6 blocks (or
//! hunks, or files). Each input is a file of n distinct lines and n one-line edits, so its size
//! is linear in n; time per edit that stays flat as n grows by 100x is O(n) overall, one that
//! grows by log(n) is O(n log n), and one that grows 100x is quadratic.
//!
//! A small harness first prints, per size, the best of three runs (one at 10^6) in CPU time of
//! the thread (steady on a machine shared with other work, unlike wall time) and the time per
//! edit: the figures `RELIABILITY.md` quotes. Then criterion measures the 10^4 and 10^5 inputs
//! (10^6 takes seconds per run).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use hunkloom::patch::{PatchDialect, PatchOptions, plan_patch};
use hunkloom::{ApplyOptions, Dialect, apply_diff};
use hunkloom_bench::{
    BlockOrder, many_blocks, many_files, many_hunks, many_udiff_files, many_udiff_hunks,
};

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

/// The CPU time this thread has used.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the clock id is a constant the call accepts.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// One SEARCH/REPLACE input of `n` blocks in `order`, applied in `dialect`.
fn diff_case(dialect: Dialect, order: BlockOrder, n: usize) -> impl FnMut() -> bool {
    let s = many_blocks(n, order);
    let mut options = ApplyOptions::default();
    options.dialect = Some(dialect);
    move || apply_diff(black_box(&s.diff), &s.original, &options).is_ok()
}

/// One unified diff of `n` one-line hunks, applied in `dialect` (`udiff` or `udiff-strict`).
fn udiff_case(dialect: Dialect, n: usize) -> impl FnMut() -> bool {
    let s = many_udiff_hunks(n);
    let mut options = ApplyOptions::default();
    options.dialect = Some(dialect);
    move || apply_diff(black_box(&s.diff), &s.original, &options).is_ok()
}

/// One patch of `n` hunks in one file (`files` false) or `n` added and `n` updated files: a
/// `*** Begin Patch`, or a git patch in the unified-diff dialects.
fn patch_case(dialect: PatchDialect, files: bool, n: usize) -> impl FnMut() -> bool {
    let unified = matches!(dialect, PatchDialect::Udiff | PatchDialect::UdiffStrict);
    let (patch, existing) = match (unified, files) {
        (false, false) => many_hunks(n),
        (false, true) => many_files(n),
        (true, false) => {
            let s = many_udiff_hunks(n);
            (
                s.diff,
                [("a.rs".to_owned(), s.original)].into_iter().collect(),
            )
        }
        (true, true) => many_udiff_files(n),
    };
    let options = PatchOptions::new().dialect(dialect);
    move || plan_patch(black_box(&patch), &existing, &options).is_ok()
}

type Case = (String, Box<dyn Fn(usize) -> Box<dyn FnMut() -> bool>>);

fn cases() -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    for order in [BlockOrder::Forward, BlockOrder::Shuffled] {
        out.push((
            format!("native, blocks {order:?}"),
            Box::new(move |n| Box::new(diff_case(Dialect::Native, order, n))),
        ));
    }
    for dialect in [Dialect::ClineV1, Dialect::ClineV2] {
        out.push((
            format!("{dialect}, blocks Forward"),
            Box::new(move |n| Box::new(diff_case(dialect, BlockOrder::Forward, n))),
        ));
    }
    for dialect in [Dialect::Udiff, Dialect::UdiffStrict] {
        out.push((
            format!("{dialect}, hunks in file order"),
            Box::new(move |n| Box::new(udiff_case(dialect, n))),
        ));
    }
    for (name, files) in [("hunks in one file", false), ("files", true)] {
        // aider's reply formats are not rows here: their input is SEARCH/REPLACE blocks (whose
        // cost the native and Cline rows bound), and aider's exact reading replaces within the
        // whole file for each block, as aider itself does — quadratic in the blocks by the
        // reference's design, so 10^6 of them is no bound to hold it to. (A `*** Begin Patch`
        // text, the input of the other rows, holds no aider block at all.)
        for dialect in PatchDialect::ALL.iter().copied().filter(|d| !is_aider(*d)) {
            out.push((
                format!("patch {dialect}, {name}"),
                Box::new(move |n| Box::new(patch_case(dialect, files, n))),
            ));
        }
    }
    out
}

/// Whether `dialect` reads one of aider's reply formats.
fn is_aider(dialect: PatchDialect) -> bool {
    matches!(
        dialect,
        PatchDialect::Aider
            | PatchDialect::AiderFenced
            | PatchDialect::AiderWhole
            | PatchDialect::AiderNative
    )
}

/// The best of three runs per size, and the time per edit.
fn growth_table(cases: &[Case]) {
    for (name, make) in cases {
        let mut line = format!("cost {name}:");
        for n in SIZES {
            let mut run = make(n);
            assert!(run(), "{name} at {n} applies");
            let runs = if n >= 1_000_000 { 1 } else { 3 };
            let (best, wall) = (0..runs)
                .map(|_| {
                    let (cpu, wall) = (thread_cpu(), Instant::now());
                    black_box(run());
                    (thread_cpu() - cpu, wall.elapsed())
                })
                .min()
                .unwrap_or_default();
            let per = best.as_nanos() as f64 / n as f64;
            line.push_str(&format!(
                "  n={n}: {best:.2?} CPU, {wall:.2?} wall ({per:.0} ns/edit)"
            ));
        }
        println!("{line}");
    }
}

fn cost_bench(c: &mut Criterion) {
    let cases = cases();
    growth_table(&cases);
    for (name, make) in &cases {
        let mut g = c.benchmark_group(format!("cost bounds: {name}"));
        g.sample_size(10);
        for n in &SIZES[..2] {
            let n = *n;
            let mut run = make(n);
            g.throughput(Throughput::Elements(n as u64));
            g.bench_function(BenchmarkId::from_parameter(n), |b| b.iter(&mut run));
        }
        g.finish();
    }
}

criterion_group!(benches, cost_bench);
criterion_main!(benches);

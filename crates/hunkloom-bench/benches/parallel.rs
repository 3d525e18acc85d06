//! Edits of one file from many threads through one `Workspace` (parallel tool calls): 16
//! `str_replace` calls of different lines of a 240-function file, each committed to disk
//! (temporary file, fsync, rename), made by 1 thread one after another (the serialized
//! baseline), by 4 threads and by 16 threads at once. Every edit must land; the times say
//! what the per-file turns and the merge from each call's read cost next to the baseline.
//!
//! `single edit` is one `str_replace` on one thread, the call a sequential agent makes, to
//! compare with the same bench on a checkout from before the turns existed.

use std::hint::black_box;
use std::path::Path;
use std::sync::Barrier;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hunkloom_fs::{Workspace, WorkspaceOptions};

const FUNCTIONS: usize = 240;

fn module() -> String {
    (0..FUNCTIONS)
        .map(|i| format!("def f{i}(x):\n    y = x + {i}\n    return y * {i}\n\n"))
        .collect()
}

fn edit(i: usize) -> (String, String) {
    (
        format!("    return y * {i}\n"),
        format!("    return y * {i}  # edited\n"),
    )
}

/// A fresh file in a fresh directory, read through a fresh workspace.
fn fresh() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("m.py"), module()).expect("write");
    let ws = Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
    ws.read("m.py").expect("read");
    (dir, ws)
}

/// The 16 edits on `threads` threads, each thread taking every `threads`-th edit.
fn sixteen_edits(ws: &Workspace, threads: usize) {
    let start = Barrier::new(threads);
    std::thread::scope(|s| {
        for t in 0..threads {
            let start = &start;
            s.spawn(move || {
                start.wait();
                for k in (t..16).step_by(threads) {
                    let (old, new) = edit(k * 15 + 3);
                    ws.str_replace("m.py", &old, &new, false).expect("lands");
                }
            });
        }
    });
}

fn check(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("m.py")).expect("read");
    assert_eq!(text.matches("# edited").count(), 16);
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("parallel edits of one file");
    g.sample_size(20);
    for threads in [1, 4, 16] {
        let (dir, ws) = fresh();
        sixteen_edits(&ws, threads);
        check(dir.path());
        g.bench_function(format!("16 edits, {threads} thread(s)"), |b| {
            b.iter_batched(
                fresh,
                |(dir, ws)| {
                    sixteen_edits(black_box(&ws), threads);
                    (dir, ws)
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.bench_function("single edit, 1 thread", |b| {
        b.iter_batched(
            fresh,
            |(dir, ws)| {
                let (old, new) = edit(3);
                ws.str_replace("m.py", &old, &new, false).expect("lands");
                (dir, ws)
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

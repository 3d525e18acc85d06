//! The `codex` dialect beside the tool it reproduces, in one process: `plan_patch` against a
//! stand-in of Codex's `apply_patch` core (`hunkloom_bench::codex_standin`), on files of
//! 10 KB, 200 KB and 2 MB, with one hunk and with a hunk at every hundredth function (2, 26
//! and 247 hunks), each exact and fuzzy (the file's `return value` lines carry trailing spaces the patch
//! lost, so every chunk is found by the trailing-whitespace tier). The two alternate call by
//! call; each cell is the median of its calls, and the ratio is the stand-in's time over
//! hunkloom's (above 1: hunkloom is faster).
//!
//! Run with `cargo bench -p hunkloom-bench --bench peers`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use hunkloom::patch::{ChangeKind, PatchOptions, plan_patch};
use hunkloom_bench::codex_standin;

/// About `bytes` of distinct functions, and how many.
fn file(bytes: usize) -> (String, usize) {
    let mut text = String::new();
    let mut n = 0;
    while text.len() < bytes {
        text.push_str(&format!(
            "def handler_{n}(request):\n    value = compute({n}, request)\n    return value\n\n"
        ));
        n += 1;
    }
    (text, n)
}

/// A patch changing the `value` line of each function in `functions`.
fn patch(functions: impl Iterator<Item = usize>) -> String {
    let mut patch = String::from("*** Begin Patch\n*** Update File: app.py\n");
    for f in functions {
        patch.push_str(&format!(
            "@@ def handler_{f}(request):\n-    value = compute({f}, request)\n+    value = compute({f}, request) + 1\n     return value\n"
        ));
    }
    patch.push_str("*** End Patch\n");
    patch
}

/// Median seconds per call of each side, the two alternating, for about `budget`.
fn medians(ours: &mut dyn FnMut(), theirs: &mut dyn FnMut(), budget: Duration) -> (f64, f64) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let deadline = Instant::now() + budget;
    while a.len() < 11 || (Instant::now() < deadline && a.len() < 2_000) {
        let t = Instant::now();
        ours();
        a.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        theirs();
        b.push(t.elapsed().as_secs_f64());
    }
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    (a[a.len() / 2], b[b.len() / 2])
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is accepted and ignored.
    let budget = Duration::from_millis(700);
    let options = PatchOptions::new();
    println!("codex dialect (plan_patch) vs a stand-in of Codex's apply_patch core, medians:");
    println!(
        "  {:<24} {:>7} {:>11} {:>11}  ratio",
        "patch", "file", "hunkloom", "stand-in"
    );
    for (bytes, label) in [(10_000, "10 KB"), (200_000, "200 KB"), (2_000_000, "2 MB")] {
        let (exact, n) = file(bytes);
        let fuzzy = exact.replace("    return value\n", "    return value  \n");
        let one = patch(std::iter::once(n - 10));
        let many = patch((0..n).step_by(100));
        for (shape, text, patch) in [
            ("1 hunk, exact", &exact, &one),
            ("1 hunk, fuzzy", &fuzzy, &one),
            ("every 100th fn, exact", &exact, &many),
            ("every 100th fn, fuzzy", &fuzzy, &many),
        ] {
            let files = BTreeMap::from([("app.py".to_owned(), text.clone())]);
            let plan = plan_patch(patch, &files, &options).expect("plan");
            let ChangeKind::Update { new_content, .. } = &plan.changes[0].kind else {
                panic!("an update")
            };
            let standin = codex_standin::apply_update(text, patch).expect("stand-in");
            assert_eq!(*new_content, standin, "{shape} on {label}");
            let (ours, theirs) = medians(
                &mut || {
                    black_box(plan_patch(black_box(patch), &files, &options).ok());
                },
                &mut || {
                    black_box(codex_standin::apply_update(
                        black_box(text),
                        black_box(patch),
                    ));
                },
                budget,
            );
            println!(
                "  {shape:<24} {label:>7} {:>9.1}µs {:>9.1}µs  {:5.2}x",
                ours * 1e6,
                theirs * 1e6,
                theirs / ours
            );
        }
    }
}

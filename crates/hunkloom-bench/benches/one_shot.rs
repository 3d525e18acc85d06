//! One-shot patches of one hunk on a 2 MB file (about 76,000 lines of code), next to a copy of
//! the file — the floor any reading that returns a new text pays: the V4A body as the OpenAI
//! Agents SDK reads it (`apply_v4a`), the same body read natively (`native::apply_body`), and
//! the same change as a Codex `*** Begin Patch` patch and as a unified diff read exactly as
//! `git apply` (`udiff-strict`), and as a Roo SEARCH/REPLACE block at its `:start_line:`. The
//! bench prints each as a multiple of the copy.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use hunkloom::patch::native::apply_body;
use hunkloom::patch::v4a::{V4aMode, apply_v4a};
use hunkloom::patch::{PatchDialect, PatchOptions, plan_patch};
use hunkloom::{ApplyOptions, Dialect, apply_diff};

/// A 2 MB file of distinct functions, and the line near its end the hunk changes.
fn file() -> (String, usize) {
    let mut text = String::new();
    let mut n = 0;
    while text.len() < 2_000_000 {
        text.push_str(&format!(
            "def handler_{n}(request):\n    value = compute({n}, request)\n    return value\n\n"
        ));
        n += 1;
    }
    (text, n - 10)
}

fn bench(c: &mut Criterion) {
    let (text, k) = file();
    let body = format!(
        "@@ def handler_{k}(request):\n-    value = compute({k}, request)\n+    value = compute({k}, request) + 1\n     return value\n"
    );
    let patch = format!("*** Begin Patch\n*** Update File: app.py\n{body}*** End Patch\n");
    // The 1-based line of the changed `value = ...` line.
    let line = text[..text
        .find(&format!("def handler_{k}("))
        .expect("the function")]
        .matches('\n')
        .count()
        + 2;
    let udiff = format!(
        "--- a/app.py\n+++ b/app.py\n@@ -{line},2 +{line},2 @@\n-    value = compute({k}, request)\n+    value = compute({k}, request) + 1\n     return value\n"
    );
    let roo = format!(
        "<<<<<<< SEARCH\n:start_line:{line}\n-------\n    value = compute({k}, request)\n=======\n    value = compute({k}, request) + 1\n>>>>>>> REPLACE\n"
    );
    let roo_options = ApplyOptions::new().dialect(Dialect::Roo);
    let files = BTreeMap::from([("app.py".to_owned(), text.clone())]);
    let want = text.replacen(
        &format!("    value = compute({k}, request)\n"),
        &format!("    value = compute({k}, request) + 1\n"),
        1,
    );
    // Each reading is checked once before it is measured.
    assert_eq!(
        apply_v4a(&text, &body, V4aMode::Default).expect("sdk"),
        want
    );
    assert_eq!(
        apply_body(&text, &body, V4aMode::Default)
            .expect("native")
            .new_content,
        want
    );
    assert_eq!(
        apply_diff(&roo, &text, &roo_options)
            .expect("roo")
            .new_content,
        want
    );
    for (dialect, input) in [
        (PatchDialect::Codex, &patch),
        (PatchDialect::Native, &patch),
        (PatchDialect::UdiffStrict, &udiff),
        (PatchDialect::Udiff, &udiff),
    ] {
        let plan = plan_patch(input, &files, &PatchOptions::new().dialect(dialect)).expect("plan");
        let mut after = files.clone();
        plan.apply_to(&mut after);
        assert_eq!(after["app.py"], want, "{dialect}");
    }

    let mut g = c.benchmark_group("one hunk on a 2 MB file");
    g.bench_function("copy of the file", |b| b.iter(|| black_box(&text).clone()));
    g.bench_function("V4A, Agents SDK reading", |b| {
        b.iter(|| apply_v4a(black_box(&text), black_box(&body), V4aMode::Default))
    });
    g.bench_function("Roo block at its :start_line:", |b| {
        b.iter(|| apply_diff(black_box(&roo), black_box(&text), &roo_options))
    });
    g.bench_function("V4A, native reading", |b| {
        b.iter(|| apply_body(black_box(&text), black_box(&body), V4aMode::Default))
    });
    for (name, dialect, input) in [
        ("patch, codex", PatchDialect::Codex, &patch),
        ("patch, native", PatchDialect::Native, &patch),
        ("udiff-strict", PatchDialect::UdiffStrict, &udiff),
        ("udiff", PatchDialect::Udiff, &udiff),
    ] {
        let options = PatchOptions::new().dialect(dialect);
        g.bench_function(name, |b| {
            b.iter(|| plan_patch(black_box(input), &files, &options))
        });
    }
    g.finish();

    // The multiples of a copy, from medians of the same run order.
    let median = |f: &mut dyn FnMut()| {
        let mut times: Vec<f64> = (0..31)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[15]
    };
    let copy = median(&mut || {
        black_box(black_box(&text).clone());
    });
    let row = |name: &str, t: f64| {
        println!(
            "  {name:<26} {:>8.2} ms  {:>5.1}x a copy",
            t * 1e3,
            t / copy
        )
    };
    println!(
        "one hunk on a 2 MB file, medians of 31 (copy {:.3} ms):",
        copy * 1e3
    );
    row(
        "V4A, Agents SDK reading",
        median(&mut || {
            black_box(apply_v4a(&text, &body, V4aMode::Default).ok());
        }),
    );
    row(
        "Roo block at :start_line:",
        median(&mut || {
            black_box(apply_diff(&roo, &text, &roo_options).ok());
        }),
    );
    row(
        "V4A, native reading",
        median(&mut || {
            black_box(apply_body(&text, &body, V4aMode::Default).ok());
        }),
    );
    for (name, dialect, input) in [
        ("patch, codex", PatchDialect::Codex, &patch),
        ("patch, native", PatchDialect::Native, &patch),
        ("udiff-strict", PatchDialect::UdiffStrict, &udiff),
        ("udiff", PatchDialect::Udiff, &udiff),
    ] {
        let options = PatchOptions::new().dialect(dialect);
        row(
            name,
            median(&mut || {
                black_box(plan_patch(input, &files, &options).ok());
            }),
        );
    }
}

criterion_group!(benches, bench, many_fuzzy_hunks);
criterion_main!(benches);

/// 800 hunks over a 2 MB file whose lines carry trailing spaces the patch lost (each hunk is
/// found by the cascade's second tier), in the Codex and native readings of the patch.
fn many_fuzzy_hunks(c: &mut Criterion) {
    let (text, n) = file();
    let text = text.replace("    return value\n", "    return value  \n");
    let mut patch = String::from("*** Begin Patch\n*** Update File: app.py\n");
    let step = n / 800;
    for h in 0..800 {
        let f = h * step;
        patch.push_str(&format!(
            "@@ def handler_{f}(request):\n-    value = compute({f}, request)\n+    value = compute({f}, request) + 1\n     return value\n"
        ));
    }
    patch.push_str("*** End Patch\n");
    let files = BTreeMap::from([("app.py".to_owned(), text)]);
    let mut g = c.benchmark_group("800 fuzzy hunks on a 2 MB file");
    g.sample_size(10);
    for (name, dialect) in [
        ("codex", PatchDialect::Codex),
        ("native", PatchDialect::Native),
    ] {
        let options = PatchOptions::new().dialect(dialect);
        let plan = plan_patch(&patch, &files, &options).expect("plan");
        assert_eq!(plan.changes.len(), 1, "{name}");
        g.bench_function(name, |b| {
            b.iter(|| plan_patch(black_box(&patch), &files, &options))
        });
    }
    g.finish();
}

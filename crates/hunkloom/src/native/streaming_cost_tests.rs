//! What streaming costs, counted (see [`Work`]) rather than timed: a push does
//! work proportional to what it changes, not to the file, the replacement shown before it or
//! the number of blocks.

use super::engine::NativeEngine;
use crate::policy::Policy;
use crate::text::Work;

/// `lines` distinct code-like lines.
fn code(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("    value_{i} = compute({i}) + {}\n", i % 7))
        .collect()
}

fn block(search: &str, replace: &str) -> String {
    format!("------- SEARCH\n{search}=======\n{replace}+++++++ REPLACE\n")
}

/// Pushes `diff` in 4-byte chunks (it is ASCII), checking that the splices rebuild the
/// preview and the outcome; the most work one push did, and the total.
fn work(original: &str, diff: &str) -> (usize, usize) {
    let mut engine = NativeEngine::new(Policy::AllOrNothing);
    let mut mirror = original.to_owned();
    let (mut max, mut total) = (0, 0);
    for piece in diff.as_bytes().chunks(4) {
        let piece = std::str::from_utf8(piece).expect("ASCII");
        Work::Stream.take();
        let update = engine.push(original, piece);
        let w = Work::Stream.take();
        update.apply_to(&mut mirror);
        max = max.max(w);
        total += w;
    }
    assert_eq!(mirror, engine.preview(original));
    let outcome = engine.finish(original).expect("applies");
    assert_eq!(outcome.new_content, mirror);
    (max, total)
}

/// A whole-file rewrite streamed token by token: a push copies the incomplete line it
/// changes (a splice re-sends that line), never the replacement lines shown before it
/// (which made streaming one block quadratic in its replacement).
#[test]
fn streaming_one_large_block_costs_what_is_pushed() {
    let rewrite = |lines: usize| {
        let original = code(lines);
        let replace: String = original.lines().map(|l| format!("{l} # new\n")).collect();
        let diff = block(&original, &replace);
        let (max, total) = work(&original, &diff);
        let longest = diff.lines().map(str::len).max().unwrap_or(0);
        assert!(max <= longest + 8, "{lines} lines: {max} > {longest} + 8");
        (max, total as f64 / diff.len() as f64)
    };
    let ((small, small_ratio), (large, large_ratio)) = (rewrite(100), rewrite(10_000));
    assert!(
        large <= small + 16,
        "the largest push grew: {small} -> {large}"
    );
    assert!(
        large_ratio <= small_ratio * 1.25,
        "work per diff byte grew: {small_ratio:.2} -> {large_ratio:.2}"
    );
}

/// Many blocks streamed token by token: a push visits O(log blocks) of them, not all.
#[test]
fn streaming_many_blocks_costs_log_blocks() {
    let spread = |blocks: usize| {
        let original = code(blocks * 50);
        let lines: Vec<&str> = original.split_inclusive('\n').collect();
        let diff: String = (0..blocks)
            .map(|k| {
                let search = lines[k * 50 + 10..k * 50 + 14].concat();
                block(&search, &search.replace(" = ", " := "))
            })
            .collect();
        work(&original, &diff).0
    };
    let (few, many) = (spread(8), spread(512));
    // Tree walks (an insertion, a prefix sum and an update) of O(log2(512)) nodes each.
    assert!(
        many <= few + 2 * 10,
        "the largest push grew: {few} -> {many}"
    );
}

/// Placing a block costs O(log blocks) once the file's lines are indexed, whatever order the
/// blocks arrive in: a diff of one-line blocks over a file of as many lines, pushed whole, does
/// work O(n log n) in its size (it was quadratic: a scan of every region per block, prefix sums
/// rebuilt per block and a whole-file search per block).
#[test]
fn placing_blocks_in_any_order_costs_log_blocks() {
    let per_block = |n: usize, order: &dyn Fn(usize) -> usize| {
        let original: String = (0..n).map(|i| format!("let v{i} = f({i});\n")).collect();
        let diff: String = (0..n)
            .map(|k| {
                let i = order(k) % n;
                block(
                    &format!("let v{i} = f({i});\n"),
                    &format!("let v{i} = g({i});\n"),
                )
            })
            .collect();
        let mut engine = NativeEngine::new(Policy::AllOrNothing);
        Work::Stream.take();
        Work::Search.take();
        engine.push(&original, &diff);
        let outcome = engine.finish(&original).expect("applies");
        let w = Work::Stream.take() + Work::Search.take();
        assert_eq!(outcome.new_content, original.replace("= f(", "= g("));
        w as f64 / n as f64
    };
    let orders: [(&str, &dyn Fn(usize) -> usize); 3] = [
        ("forward", &|k| k),
        // (usize::MAX - k) % n runs down through every residue.
        ("reverse", &|k| usize::MAX - k),
        // 7919 is prime, so k * 7919 runs over every residue once.
        ("shuffled", &|k| k * 7919),
    ];
    for (name, order) in orders {
        let (small, large) = (per_block(500, &order), per_block(8000, &order));
        // 16 times the blocks: log grows by 4 bits over ~9; linear growth would be 16x.
        assert!(
            large <= small * 2.0,
            "{name}: work per block grew {small:.1} -> {large:.1}"
        );
    }
}

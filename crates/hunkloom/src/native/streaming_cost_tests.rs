//! What streaming costs, counted (see [`cost`](super::cost)) rather than timed: a push does
//! work proportional to what it changes, not to the file, the replacement shown before it or
//! the number of blocks.

use super::cost;
use super::engine::NativeEngine;
use crate::stream::Policy;

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
        cost::take();
        let update = engine.push(original, piece);
        let w = cost::take();
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
    // Two Fenwick walks (a prefix sum and an update) of at most log2(512) + 1 nodes each.
    assert!(
        many <= few + 2 * 10,
        "the largest push grew: {few} -> {many}"
    );
}

//! The resume cache behind `hl_construct_new_file_content`, through the C ABI: a call on every
//! growing prefix gives the core's stateless result and resumes the previous call; capacity 0
//! empties the cache and resumes nothing; the switches and their NULL argument.

use std::ptr;

use hunkloom_testkit::{ClineVector, load_cline_corpus};

use super::ffi::{CacheCapacity, cache_stats, construct, observed, take_outcome};
use super::vectors::core_stateless;
use hunkloom_c::*;

/// A diff with characters of two, three and four UTF-8 bytes, so prefixes end after each.
fn astral_vector() -> ClineVector {
    let line = |s: &str| format!("{s}\n");
    ClineVector {
        id: "astral".into(),
        version: "v1".into(),
        original: line("a \u{1F680}") + &line("b \u{e9}") + &line("c"),
        diff: line("------- SEARCH")
            + &line("b \u{e9}")
            + &line("=======")
            + &line("\u{20ac} \u{1F600}")
            + &line("+++++++ REPLACE"),
        is_final: true,
        expect: hunkloom_testkit::ClineExpect {
            new_content: Some(line("a \u{1F680}") + &line("\u{20ac} \u{1F600}") + &line("c")),
            match_indices: Some(vec![5]),
            error: None,
        },
    }
}

/// The vectors the tests replay: `cline-unit` (both versions, final and partial, errors) and
/// [`astral_vector`].
fn vectors() -> Vec<ClineVector> {
    let mut vectors = load_cline_corpus("cline-unit");
    vectors.push(astral_vector());
    vectors
}

/// Calls `hl_construct_new_file_content` on every prefix of the vector's diff that ends on a
/// character (partial calls), then makes the vector's own call. Every result must equal the
/// core's stateless call, and the last one the vector's expectation. Returns how many calls
/// were made.
fn replay(v: &ClineVector) -> usize {
    let cuts = v.diff.char_indices().map(|(i, _)| i).skip(1);
    let calls: Vec<(&str, bool)> = cuts
        .map(|end| (&v.diff[..end], false))
        .chain([(v.diff.as_str(), v.is_final)])
        .collect();
    let version = if v.version == "v1" {
        HL_CLINE_V1
    } else {
        HL_CLINE_V2
    };
    for &(diff, is_final) in &calls {
        let (status, result, error) =
            construct(diff.as_bytes(), v.original.as_bytes(), is_final, version);
        let got = take_outcome(status, result, error, &v.original)
            .and_then(observed)
            .unwrap_or_else(|why| panic!("{}: {why}", v.id));
        let want = core_stateless(diff, &v.original, is_final, &v.version);
        assert_eq!(got, want, "{} prefix of {} bytes", v.id, diff.len());
    }
    let last = core_stateless(&v.diff, &v.original, v.is_final, &v.version);
    assert_eq!(last, v.expected(), "{}", v.id);
    calls.len()
}

#[test]
fn every_prefix_resumes_and_equals_the_stateless_core() {
    let _lock = super::resume_cache_lock();
    let vectors = vectors();
    let _restore = CacheCapacity::set(engine::cline::ResumeCache::DEFAULT_CAPACITY);
    // Each chain's first call starts from scratch; every later one (the vector's own call too)
    // resumes. Another test's call may take the cache at the very moment one of ours needs it
    // (ours is then computed from scratch, counted as neither): a rare event, so a shortfall is
    // retried rather than tolerated.
    let mut shortfall = Vec::new();
    for _attempt in 0..3 {
        let before = cache_stats();
        let resumable: usize = vectors.iter().map(|v| replay(v) - 1).sum();
        let hits = cache_stats().hits - before.hits;
        if hits >= resumable as u64 {
            shortfall.clear();
            break;
        }
        shortfall.push(format!("{hits} of {resumable} calls resumed"));
    }
    assert!(shortfall.is_empty(), "{shortfall:?}");
    assert!(cache_stats().entries <= engine::cline::ResumeCache::DEFAULT_CAPACITY);
}

#[test]
fn capacity_zero_empties_the_cache_and_resumes_nothing() {
    let _lock = super::resume_cache_lock();
    let v = astral_vector();
    // Leave a stream in the cache: a partial call (again if another test's call had the cache
    // at that moment, which makes ours computed from scratch and not kept).
    for _attempt in 0..3 {
        let (status, result, error) = construct(
            &v.diff.as_bytes()[..20],
            v.original.as_bytes(),
            false,
            HL_CLINE_V1,
        );
        take_outcome(status, result, error, &v.original)
            .expect("ok")
            .expect("a partial result");
        if cache_stats().entries >= 1 {
            break;
        }
    }
    assert!(cache_stats().entries >= 1);

    let restore = CacheCapacity::set(0);
    let before = cache_stats();
    assert_eq!((before.entries, before.capacity), (0, 0));
    let mut calls = 0;
    for v in vectors() {
        calls += replay(&v);
    }
    let after = cache_stats();
    assert_eq!(
        after.hits, before.hits,
        "no call may resume with capacity 0"
    );
    assert!(after.misses >= before.misses + calls as u64 / 2);
    assert_eq!((after.entries, after.capacity), (0, 0));

    drop(restore);
    let restored = cache_stats().capacity;
    assert_eq!(restored, engine::cline::ResumeCache::DEFAULT_CAPACITY);
    assert_eq!(engine::cline::shared_resume_cache().capacity(), restored);
}

#[test]
fn the_switches_are_the_cores_and_a_null_out_pointer_is_refused() {
    let _lock = super::resume_cache_lock();
    {
        let _seven = CacheCapacity::set(7);
        assert_eq!(cache_stats().capacity, 7);
        assert_eq!(engine::cline::shared_resume_cache().capacity(), 7);
    }
    assert_eq!(
        cache_stats().capacity,
        engine::cline::ResumeCache::DEFAULT_CAPACITY
    );
    // SAFETY: NULL is what is being tested.
    let status = unsafe { hl_resume_cache_stats(ptr::null_mut()) };
    assert_eq!(status, hl_status::NullArgument);
}

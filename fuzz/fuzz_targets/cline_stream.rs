//! The Cline dialects: a `StreamingApplier` fed the diff at the input's split points equals the
//! stateless `construct_new_file_content` (partial after the last push, final after `finish`),
//! and the `ResumeCache` gives the same; nothing panics.

#![no_main]

use arbitrary::Arbitrary;
use hunkloom::cline::{ResumeCache, Version, construct_new_file_content};
use hunkloom::{ApplierOptions, Dialect, StreamingApplier};
use hunkloom_fuzz::{check, pieces, stream};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    v2: bool,
    cuts: &'a [u8],
    original: &'a str,
    diff: &'a str,
}

fuzz_target!(|input: Input<'_>| {
    let (version, dialect) = if input.v2 {
        (Version::V2, Dialect::ClineV2)
    } else {
        (Version::V1, Dialect::ClineV1)
    };
    let applier = StreamingApplier::new(input.original, ApplierOptions::new().dialect(dialect));
    let pieces = pieces(input.diff, input.cuts);
    let applier = stream(applier, &pieces);
    let partial = construct_new_file_content(input.diff, input.original, false, version);
    check("partial", &partial);
    match &partial {
        Ok(want) => {
            assert!(
                applier.error().is_none(),
                "stream failed: {:?}",
                applier.error()
            );
            assert_eq!(applier.preview(), want.new_content);
        }
        Err(want) => assert_eq!(applier.error(), Some(want)),
    }
    let finished = applier.finish();
    check("finish", &finished);
    let stateless = construct_new_file_content(input.diff, input.original, true, version);
    check("final", &stateless);
    match (&finished, &stateless) {
        (Ok(got), Ok(want)) => assert_eq!(got.new_content, want.new_content),
        (Err(got), Err(want)) => assert_eq!(got, want),
        (got, want) => panic!("stream {got:?} but stateless {want:?}"),
    }

    // Cline's call-per-prefix pattern through the cache: the growing prefixes, then the whole.
    let mut cache = ResumeCache::new();
    let mut end = 0;
    for piece in &pieces {
        end += piece.len();
        check(
            "cache",
            &cache.call(&input.diff[..end], input.original, false, version),
        );
    }
    let cached = cache.call(input.diff, input.original, true, version);
    check("cache final", &cached);
    let content = |r: Result<&str, &hunkloom::Error>| r.map(str::to_owned).map_err(Clone::clone);
    assert_eq!(
        content(cached.as_ref().map(|c| c.new_content.as_str())),
        content(stateless.as_ref().map(|s| s.new_content.as_str())),
        "the cache changed the result"
    );
});

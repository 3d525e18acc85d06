//! The unified-diff dialects: `apply_diff` on the whole diff in `udiff` (either policy) or
//! `udiff-strict` (with or without `recount`), and a `StreamingApplier` fed it at the input's
//! split points. Both must agree, and never panic.

#![no_main]

use arbitrary::Arbitrary;
use hunkloom::{ApplierOptions, ApplyOptions, Dialect, Policy, StreamingApplier, apply_diff};
use hunkloom_fuzz::{check, pieces, stream};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    strict: bool,
    flag: bool,
    cuts: &'a [u8],
    original: &'a str,
    diff: &'a str,
}

fuzz_target!(|input: Input<'_>| {
    let dialect = if input.strict {
        Dialect::UdiffStrict
    } else {
        Dialect::Udiff
    };
    // `flag` is `recount` in strict and the partial policy otherwise.
    let policy = if input.flag && !input.strict {
        Policy::Partial
    } else {
        Policy::AllOrNothing
    };
    let recount = input.flag && input.strict;
    let options = ApplyOptions::new()
        .dialect(dialect)
        .policy(policy)
        .recount(recount);
    let whole = apply_diff(input.diff, input.original, &options);
    check("apply_diff", &whole);
    let options = ApplierOptions::new()
        .dialect(dialect)
        .policy(policy)
        .recount(recount);
    let applier = StreamingApplier::new(input.original, options);
    let streamed = stream(applier, &pieces(input.diff, input.cuts)).finish();
    check("finish", &streamed);
    assert_eq!(streamed, whole, "streaming changed the outcome");
});

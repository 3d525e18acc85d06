//! The `native` dialect: `apply_diff` on the whole diff, and a `StreamingApplier` fed it at the
//! input's split points, under either policy. Both must agree, and never panic.

#![no_main]

use arbitrary::Arbitrary;
use hunkloom::{ApplierOptions, ApplyOptions, Dialect, Policy, StreamingApplier, apply_diff};
use hunkloom_fuzz::{check, pieces, stream};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    partial: bool,
    cuts: &'a [u8],
    original: &'a str,
    diff: &'a str,
}

fuzz_target!(|input: Input<'_>| {
    let policy = if input.partial {
        Policy::Partial
    } else {
        Policy::AllOrNothing
    };
    let whole = apply_diff(
        input.diff,
        input.original,
        &ApplyOptions::new().dialect(Dialect::Native).policy(policy),
    );
    check("apply_diff", &whole);
    let options = ApplierOptions::new()
        .dialect(Dialect::Native)
        .policy(policy);
    let applier = StreamingApplier::new(input.original, options);
    let streamed = stream(applier, &pieces(input.diff, input.cuts)).finish();
    check("finish", &streamed);
    assert_eq!(streamed, whole, "streaming changed the outcome");
});

//! `*** Begin Patch` patches: the streaming `PatchParser` fed the input's split points gives the
//! same hunks as `parse_patch`, and `plan_patch` in both dialects and both policies, over a
//! small file map (`a`, `b`, `c` and a few more), plans or fails with a code; a plan applies.

#![no_main]

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use hunkloom::Policy;
use hunkloom::patch::{PatchDialect, PatchOptions, PatchParser, is_patch, parse_patch, plan_patch};
use hunkloom_fuzz::{check, pieces};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    cuts: &'a [u8],
    /// The contents of files `a`, `b` and `c` (`None`: no such file).
    abc: [Option<&'a str>; 3],
    /// More files, with any path.
    more: Vec<(&'a str, &'a str)>,
    patch: &'a str,
}

fuzz_target!(|input: Input<'_>| {
    let _ = is_patch(input.patch);
    let whole = parse_patch(input.patch);
    check("parse_patch", &whole);
    let mut parser = PatchParser::new();
    let mut streamed = Ok(());
    for piece in pieces(input.patch, input.cuts) {
        if let Err(e) = parser.push(piece) {
            streamed = Err(e);
            break;
        }
    }
    let streamed = streamed.and_then(|()| parser.finish().map(|_| ()));
    check("PatchParser", &streamed);
    match (&whole, &streamed) {
        (Ok(patch), Ok(())) => {
            assert_eq!(patch.hunks, parser.hunks(), "chunking changed the hunks")
        }
        (Err(want), Err(got)) => assert_eq!(want, got, "chunking changed the error"),
        (want, got) => panic!("parse_patch {want:?} but streamed {got:?}"),
    }

    let mut files = BTreeMap::new();
    for (name, content) in ["a", "b", "c"].into_iter().zip(input.abc) {
        if let Some(content) = content {
            files.insert(name.to_owned(), content.to_owned());
        }
    }
    for (path, content) in input.more {
        files.insert(path.to_owned(), content.to_owned());
    }
    for &dialect in PatchDialect::ALL {
        for policy in [Policy::AllOrNothing, Policy::Partial] {
            let options = PatchOptions::new().dialect(dialect).policy(policy);
            let plan = plan_patch(input.patch, &files, &options);
            check("plan_patch", &plan);
            if let Ok(plan) = plan {
                let _ = plan.apply_to(&mut files.clone());
            }
        }
    }
});

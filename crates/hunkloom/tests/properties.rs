//! Property tests: chunking never changes the result, the preview after every push equals the
//! stateless call on that prefix, splices rebuild the preview, and no input panics.

use std::collections::HashMap;

use hunkloom::cline::{Version, construct_new_file_content};
use hunkloom::{ApplierOptions, Dialect, StreamingApplier, TextOffset};
use hunkloom_testkit::{Chunking, load_cline_corpus};
use proptest::prelude::*;

fn dialect(version: Version) -> Dialect {
    match version {
        Version::V1 => Dialect::ClineV1,
        Version::V2 => Dialect::ClineV2,
    }
}

/// Lines a diff is made of: every marker spelling, near-markers, content and chatter.
fn diff_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just("------- SEARCH".to_owned()),
        3 => Just("=======".to_owned()),
        3 => Just("+++++++ REPLACE".to_owned()),
        1 => Just("<<<<<<< SEARCH".to_owned()),
        1 => Just(">>>>>>> REPLACE>".to_owned()),
        1 => Just("=====".to_owned()),
        1 => Just("--- SEARCH>".to_owned()),
        1 => Just("-- SEARCH".to_owned()),
        1 => Just("- item".to_owned()),
        1 => Just("=======\r".to_owned()),
        1 => Just("".to_owned()),
        1 => Just("   ".to_owned()),
        6 => original_line(),
        2 => "[a-c \t🚀é]{0,6}",
    ]
}

fn original_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("alpha".to_owned()),
        Just("  beta".to_owned()),
        Just("beta".to_owned()),
        Just("gamma\r".to_owned()),
        Just("\u{A0}delta ".to_owned()),
        Just("🚀 eps".to_owned()),
        Just("".to_owned()),
    ]
}

fn original() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(original_line(), 0..8),
        any::<bool>(),
    )
        .prop_map(|(lines, newline)| lines.join("\n") + if newline { "\n" } else { "" })
}

fn diff() -> impl Strategy<Value = String> {
    (proptest::collection::vec(diff_line(), 0..16), any::<bool>())
        .prop_map(|(lines, newline)| lines.join("\n") + if newline { "\n" } else { "" })
}

/// Cut points (char boundaries) chosen by a seed.
fn split_points(text: &str, seed: u64) -> Vec<&str> {
    Chunking::Random(seed).split(text)
}

fn check_stream(
    diff: &str,
    original: &str,
    version: Version,
    seed: u64,
) -> Result<(), TestCaseError> {
    let mut applier =
        StreamingApplier::new(original, ApplierOptions::new().dialect(dialect(version)));
    let mut mirror = String::new();
    let mut pushed = 0;
    for piece in split_points(diff, seed) {
        let update = applier.push(piece);
        prop_assert_eq!(update.start, TextOffset::of(&mirror[..update.start.bytes]));
        update.apply_to(&mut mirror);
        pushed += piece.len();
        prop_assert_eq!(mirror.as_str(), applier.preview());
        let prefix = &diff[..pushed];
        match construct_new_file_content(prefix, original, false, version) {
            Ok(want) => {
                prop_assert!(
                    applier.error().is_none(),
                    "unexpected error {:?} at {:?}",
                    applier.error(),
                    prefix
                );
                prop_assert_eq!(applier.preview(), want.new_content.as_str());
                prop_assert_eq!(applier.match_indices(), want.match_indices());
            }
            Err(want) => prop_assert_eq!(applier.error(), Some(&want)),
        }
    }
    let streamed = applier.finish();
    match construct_new_file_content(diff, original, true, version) {
        Ok(want) => {
            let got = streamed.map_err(|e| TestCaseError::fail(format!("finish failed: {e:?}")))?;
            prop_assert_eq!(got.match_indices, want.match_indices());
            prop_assert_eq!(got.new_content, want.new_content);
        }
        Err(want) => prop_assert_eq!(streamed.err(), Some(want)),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn every_prefix_of_a_stream_equals_the_stateless_call(
        diff in diff(), original in original(), v2 in any::<bool>(), seed in any::<u64>()
    ) {
        let version = if v2 { Version::V2 } else { Version::V1 };
        check_stream(&diff, &original, version, seed)?;
    }

    #[test]
    fn arbitrary_text_never_panics(diff in "\\PC{0,80}", original in "\\PC{0,40}", seed in any::<u64>()) {
        for version in [Version::V1, Version::V2] {
            for is_final in [false, true] {
                let _ = construct_new_file_content(&diff, &original, is_final, version);
            }
            let mut applier = StreamingApplier::new(original.as_str(), ApplierOptions::new().dialect(dialect(version)));
            for piece in split_points(&diff, seed) {
                applier.push(piece);
            }
            let _ = applier.finish();
        }
    }
}

/// One stream per exhaustive case, pushed a character at a time: after every push the applier
/// must equal the recorded Cline result for exactly that prefix.
#[test]
fn exhaustive_streams_match_cline_at_every_prefix() {
    let vectors = load_cline_corpus("cline-diff-streaming-exhaustive");
    let mut groups: HashMap<(String, String, String), Vec<_>> = HashMap::new();
    for v in &vectors {
        let case = v.id.rsplitn(3, '-').nth(2).expect("id").to_owned();
        groups
            .entry((case, v.version.clone(), v.original.clone()))
            .or_default()
            .push(v);
    }
    let mut checked = 0;
    for ((case, version, original), rows) in &groups {
        let full = rows.iter().find(|v| v.is_final).expect("final row");
        let by_prefix: HashMap<&str, _> = rows
            .iter()
            .filter(|v| !v.is_final)
            .map(|v| (v.diff.as_str(), &v.expect))
            .collect();
        let version: Version = version.parse().expect("version");
        let mut applier = StreamingApplier::new(
            original.as_str(),
            ApplierOptions::new().dialect(dialect(version)),
        );
        let mut pushed = 0;
        let check = |applier: &StreamingApplier, prefix: &str| {
            let want = by_prefix
                .get(prefix)
                .unwrap_or_else(|| panic!("{case}: no vector for prefix {prefix:?}"));
            match &want.error {
                Some(message) => assert_eq!(
                    applier.error().map(|e| e.message()),
                    Some(message.as_str()),
                    "{case} {prefix:?}"
                ),
                None => {
                    assert!(
                        applier.error().is_none(),
                        "{case} {prefix:?}: {:?}",
                        applier.error()
                    );
                    assert_eq!(
                        Some(applier.preview()),
                        want.new_content.as_deref(),
                        "{case} {prefix:?}"
                    );
                }
            }
        };
        check(&applier, "");
        for c in full.diff.chars() {
            applier.push(c.encode_utf8(&mut [0; 4]));
            pushed += c.len_utf8();
            check(&applier, &full.diff[..pushed]);
            checked += 1;
        }
        let outcome = applier.finish();
        match (&full.expect.error, outcome) {
            (Some(message), Err(e)) => assert_eq!(e.message(), message),
            (None, Ok(o)) => assert_eq!(
                Some(o.new_content.as_str()),
                full.expect.new_content.as_deref()
            ),
            (want, got) => panic!("{case}: final want {want:?}, got {got:?}"),
        }
    }
    assert!(checked > 1000, "only {checked} prefixes checked");
}

/// An error caused only by the incomplete last line is withdrawn when the line completes
/// differently; one caused by a complete line is final.
#[test]
fn tentative_errors_are_withdrawn_and_complete_ones_stick() {
    let mut applier = StreamingApplier::new("a\nb\n", ApplierOptions::default());
    applier.push("------- SEARCH\nzzz\n=======");
    assert!(
        applier.error().is_some(),
        "the separator line is processed while incomplete"
    );
    applier.push("x\n");
    assert!(applier.error().is_none(), "`=======x` is a content line");
    applier.push("=======\n");
    let error = applier.error().cloned().expect("complete separator fails");
    assert_eq!(error.code(), "search_not_found");
    applier.push("more\n+++++++ REPLACE\n");
    assert_eq!(applier.finish().err(), Some(error));
}

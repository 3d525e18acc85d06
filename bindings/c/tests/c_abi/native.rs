//! What the C layer adds for the `native` dialect, through the exported functions:
//! `hl_apply_diff` and its options, the extended `hl_block` reports (status, end line,
//! candidates, indentation, normalisations, a failed block's error), the partial policy, and a
//! native applier streamed byte by byte.

use std::ptr;

use engine::{ApplyOptions, BlockReport, BlockStatus, Dialect, Policy, apply_diff};

use super::ffi::{Applier, BlockView, CError, Taken, apply, take_full};
use hunkloom_c::*;

/// A file whose SEARCH text below drifted: no indentation.
const FILE: &str = "def f():\n    a = 1\n    b = 2\n    return a + b\n";
const DRIFT: &str =
    "------- SEARCH\na = 1\nb = 2\n=======\n    a = 10\n    b = 20\n+++++++ REPLACE\n";
const DRIFTED: &str = "def f():\n    a = 10\n    b = 20\n    return a + b\n";
/// `x = 1` occurs twice.
const TWICE: &str = "x = 1\ny = 2\nx = 1\n";
const AMBIGUOUS: &str = "<<<<<<< SEARCH\nx = 1\n=======\nx = 3\n>>>>>>> REPLACE\n";
/// One block that applies, one whose SEARCH text is nowhere.
const PARTLY: &str = "------- SEARCH\ny = 2\n=======\ny = 5\n+++++++ REPLACE\n------- SEARCH\nz = 9\n=======\nz = 0\n+++++++ REPLACE\n";
/// Two blocks over the same line.
const OVERLAP: &str = "------- SEARCH\ny = 2\nx = 1\n=======\nY\n+++++++ REPLACE\n------- SEARCH\ny = 2\n=======\nZ\n+++++++ REPLACE\n";

/// `hl_apply_diff`, read back whole.
fn run(diff: &str, original: &str, options: Option<hl_apply_options>) -> Result<Taken, CError> {
    let (status, result, error) = apply(diff.as_bytes(), original.as_bytes(), options.as_ref());
    take_full(status, result, error, original).expect("well-formed outcome")
}

fn native(policy: hl_policy) -> Option<hl_apply_options> {
    Some(hl_apply_options {
        dialect: HL_DIALECT_NATIVE,
        policy,
        ..Default::default()
    })
}

/// The engine's report as the C layer should show it.
fn view(r: &BlockReport) -> BlockView {
    BlockView {
        index: r.index,
        status: match r.status {
            BlockStatus::Applied => HL_BLOCK_APPLIED,
            BlockStatus::AlreadyApplied => HL_BLOCK_ALREADY_APPLIED,
            _ => HL_BLOCK_FAILED,
        },
        strategy: r.strategy.as_str().to_owned(),
        start: r.start.into(),
        end: r.end.into(),
        end_line: r.end_line,
        candidates: r.candidates,
        indent_delta: r.indent_delta,
        reindented: r.reindented,
        normalizations: r
            .normalizations
            .iter()
            .map(|n| n.as_str().to_owned())
            .collect(),
        error: r
            .error
            .as_ref()
            .map(|e| (e.code().to_owned(), e.message().to_owned())),
    }
}

#[test]
fn apply_diff_defaults_to_native_and_reports_the_drift() {
    let engine = apply_diff(DRIFT, FILE, &ApplyOptions::default()).expect("applies");
    for options in [None, Some(hl_apply_options::default()), native(0)] {
        let (content, matches, blocks) = run(DRIFT, FILE, options).expect("applies");
        assert_eq!(content, DRIFTED);
        assert_eq!(matches.len(), 1);
        assert_eq!((matches[0].line, matches[0].bytes), (2, 9));
        assert_eq!(blocks, engine.blocks.iter().map(view).collect::<Vec<_>>());
        let b = &blocks[0];
        assert_eq!(b.status, HL_BLOCK_APPLIED);
        assert_eq!(b.strategy, "indentation");
        assert_eq!((b.start.line, b.end_line, b.candidates), (2, 3, 1));
        assert_eq!((b.indent_delta, b.reindented), (4, false));
        assert_eq!(b.normalizations, ["indentation"]);
        assert_eq!(b.error, None);
    }
}

#[test]
fn trailing_whitespace_drift_is_named() {
    let diff = "------- SEARCH\n    a = 1 \t\n    b = 2\n=======\n    a = 10\n    b = 20\n+++++++ REPLACE\n";
    let (content, _, blocks) = run(diff, FILE, None).expect("applies");
    assert_eq!(content, DRIFTED);
    assert_eq!(blocks[0].strategy, "trailing_whitespace");
    assert_eq!(blocks[0].normalizations, ["trailing_whitespace"]);
    assert_eq!(blocks[0].indent_delta, 0);
}

#[test]
fn a_replacement_with_the_search_indentation_is_shifted() {
    let diff = "------- SEARCH\na = 1\nb = 2\n=======\na = 10\nb = 20\n+++++++ REPLACE\n";
    let (content, _, blocks) = run(diff, FILE, None).expect("applies");
    assert_eq!(content, DRIFTED);
    assert_eq!((blocks[0].indent_delta, blocks[0].reindented), (4, true));
}

#[test]
fn the_cline_dialects_through_apply_diff_are_the_engines() {
    for (value, dialect) in [
        (HL_DIALECT_CLINE_V1, Dialect::ClineV1),
        (HL_DIALECT_CLINE_V2, Dialect::ClineV2),
    ] {
        let options = hl_apply_options {
            dialect: value,
            policy: HL_POLICY_PARTIAL,
            ..Default::default()
        };
        let engine = apply_diff(DRIFT, FILE, &ApplyOptions::new().dialect(dialect));
        match (run(DRIFT, FILE, Some(options)), engine) {
            (Ok((content, _, blocks)), Ok(outcome)) => {
                assert_eq!(content, outcome.new_content);
                assert_eq!(blocks, outcome.blocks.iter().map(view).collect::<Vec<_>>());
                assert_eq!(blocks[0].candidates, 1);
                assert!(blocks[0].normalizations.is_empty());
            }
            (Err(e), Err(engine)) => assert_eq!(e.message, engine.message()),
            (got, want) => panic!("{dialect}: {got:?} against the engine's {want:?}"),
        }
    }
    let options = hl_apply_options {
        dialect: HL_DIALECT_CLINE_V1,
        policy: 0,
        ..Default::default()
    };
    let (_, _, blocks) = run(DRIFT, FILE, Some(options)).expect("Cline v1 trims lines");
    assert_eq!(blocks[0].strategy, "line_trimmed");
}

#[test]
fn an_ambiguous_search_is_refused_with_the_candidates() {
    let e = run(AMBIGUOUS, TWICE, None).expect_err("ambiguous");
    assert_eq!(e.status, hl_status::EditRejected);
    assert_eq!(e.code, "ambiguous_match");
    let engine = apply_diff(AMBIGUOUS, TWICE, &ApplyOptions::default()).expect_err("ambiguous");
    assert_eq!(e.message, engine.message());
    assert!(e.message.contains("line 1, line 3"), "{}", e.message);
}

#[test]
fn the_partial_policy_applies_what_matched_and_reports_the_rest() {
    let e = run(PARTLY, TWICE, None).expect_err("all or nothing");
    assert_eq!(e.code, "search_not_found");
    let (content, matches, blocks) =
        run(PARTLY, TWICE, native(HL_POLICY_PARTIAL)).expect("partial");
    assert_eq!(content, "x = 1\ny = 5\nx = 1\n");
    assert_eq!(matches.len(), 1);
    let engine = apply_diff(
        PARTLY,
        TWICE,
        &ApplyOptions::default().policy(Policy::Partial),
    )
    .expect("partial");
    assert_eq!(blocks, engine.blocks.iter().map(view).collect::<Vec<_>>());
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].status, HL_BLOCK_APPLIED);
    let failed = &blocks[1];
    assert_eq!((failed.index, failed.status), (1, HL_BLOCK_FAILED));
    assert_eq!(failed.strategy, "unmatched");
    assert_eq!((failed.candidates, failed.end_line), (0, 0));
    let (code, message) = failed.error.as_ref().expect("an error");
    assert_eq!(code, "search_not_found");
    assert!(!message.is_empty());
}

#[test]
fn overlapping_blocks_are_refused() {
    let e = run(OVERLAP, TWICE, None).expect_err("overlap");
    assert_eq!(
        (e.status, e.code.as_str()),
        (hl_status::EditRejected, "overlapping_blocks")
    );
    let (content, _, blocks) = run(OVERLAP, TWICE, native(HL_POLICY_PARTIAL)).expect("partial");
    assert_eq!(content, "x = 1\nY\n");
    let code = blocks[1].error.as_ref().map(|(c, _)| c.as_str());
    assert_eq!(code, Some("overlapping_blocks"));
}

#[test]
fn unknown_options_are_the_engines_errors_and_write_no_result() {
    for (options, code) in [
        (
            hl_apply_options {
                dialect: 42,
                policy: 0,
                ..Default::default()
            },
            "invalid_dialect",
        ),
        (
            hl_apply_options {
                dialect: 0,
                policy: 2,
                ..Default::default()
            },
            "invalid_policy",
        ),
    ] {
        let e = run(DRIFT, FILE, Some(options)).expect_err("invalid");
        assert_eq!(
            (e.status, e.code.as_str()),
            (hl_status::InvalidOption, code)
        );
    }
}

#[test]
fn null_and_invalid_arguments_leave_out_parameters_alone() {
    let sentinel = 0xDEAD_usize;
    let (d, o) = (DRIFT.as_bytes(), FILE.as_bytes());
    let mut result = sentinel as *mut hl_result;
    let mut error = sentinel as *mut hl_error;
    // SAFETY: every non-NULL pointer is live or a sentinel the library must not touch (it is
    // only written on success, or for engine statuses, which these calls do not return).
    unsafe {
        let cases: [(hl_status, hl_status); 4] = [
            (
                hl_apply_diff(
                    d.as_ptr().cast(),
                    d.len(),
                    o.as_ptr().cast(),
                    o.len(),
                    ptr::null(),
                    ptr::null_mut(),
                    &mut error,
                ),
                hl_status::NullArgument,
            ),
            (
                hl_apply_diff(
                    d.as_ptr().cast(),
                    d.len(),
                    o.as_ptr().cast(),
                    o.len(),
                    ptr::null(),
                    &mut result,
                    ptr::null_mut(),
                ),
                hl_status::NullArgument,
            ),
            (
                hl_apply_diff(
                    ptr::null(),
                    3,
                    o.as_ptr().cast(),
                    o.len(),
                    ptr::null(),
                    &mut result,
                    &mut error,
                ),
                hl_status::NullArgument,
            ),
            (
                hl_apply_diff(
                    d.as_ptr().cast(),
                    d.len(),
                    c"\xff".as_ptr(),
                    1,
                    ptr::null(),
                    &mut result,
                    &mut error,
                ),
                hl_status::InvalidUtf8,
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
    }
    assert_eq!((result as usize, error as usize), (sentinel, sentinel));
    // (NULL, 0) texts are empty: an empty diff has no block.
    let (status, result, error) = apply(&[], &[], None);
    let e = take_full(status, result, error, "")
        .expect("outcome")
        .expect_err("no block");
    assert_eq!(e.code, "malformed_block");
}

#[test]
fn block_accessors_refuse_out_of_range_indices() {
    let (status, result, error) = apply(DRIFT.as_bytes(), FILE.as_bytes(), None);
    assert_eq!((status, error), (hl_status::Ok, ptr::null_mut()));
    let (mut name, mut name_len) = (ptr::null(), 7);
    // SAFETY: `result` is live until freed; the out-pointers are locals.
    unsafe {
        assert_eq!(
            hl_result_block_normalization(result, 1, 0, &mut name, &mut name_len),
            hl_status::OutOfRange
        );
        assert_eq!(
            hl_result_block_normalization(result, 0, usize::MAX, &mut name, &mut name_len),
            hl_status::OutOfRange
        );
        assert_eq!((name, name_len), (ptr::null(), 7));
        assert_eq!(
            hl_result_block_normalization(result, 0, 0, ptr::null_mut(), &mut name_len),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_result_failed_count(ptr::null(), &mut name_len),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_result_failed_count(result, ptr::null_mut()),
            hl_status::NullArgument
        );
        hl_result_free(result);
    }
}

#[test]
fn a_native_applier_streamed_byte_by_byte_equals_apply_diff() {
    let original = "intro \u{201c}caf\u{e9}\u{201d}\n\tkeep \u{1F680}\nend\n";
    let diff =
        "<<<<<<< SEARCH\n    keep \u{1F680}  \n=======\n\tkept \u{4e2d}\u{6587}\n>>>>>>> REPLACE\n";
    let want = run(diff, original, None).expect("applies");
    assert_eq!(
        want.0,
        "intro \u{201c}caf\u{e9}\u{201d}\n\tkept \u{4e2d}\u{6587}\nend\n"
    );
    for policy in [HL_POLICY_ALL_OR_NOTHING, HL_POLICY_PARTIAL] {
        let options = hl_applier_options {
            dialect: HL_DIALECT_NATIVE,
            policy,
            ..Default::default()
        };
        let mut a = Applier::with_options(original.as_bytes(), options).expect("new");
        let mut mirror = a.preview().expect("preview");
        assert_eq!(
            mirror, original,
            "a native preview starts as the whole file"
        );
        for byte in diff.as_bytes().chunks(1) {
            let (start, removed, inserted, _) = a.push(byte).expect("push");
            mirror.replace_range(start..start + removed, &inserted);
            assert_eq!(Ok(&mirror), a.preview().as_ref());
        }
        let (status, result, error) = a.end(true);
        let got = take_full(status, result, error, original).expect("outcome");
        assert_eq!(got.as_ref().ok(), Some(&want));
    }
}

#[test]
fn a_native_snapshot_reports_the_first_failed_block() {
    let mut a = Applier::with_options(
        TWICE.as_bytes(),
        hl_applier_options {
            dialect: HL_DIALECT_NATIVE,
            policy: HL_POLICY_PARTIAL,
            ..Default::default()
        },
    )
    .expect("new");
    let first = "------- SEARCH\ny = 2\n=======\ny = 5\n+++++++ REPLACE\n";
    a.push(first.as_bytes()).expect("push");
    let (status, result, error) = a.end(false);
    let (content, _, blocks) = take_full(status, result, error, TWICE)
        .expect("outcome")
        .expect("snapshot");
    assert_eq!(content, "x = 1\ny = 5\nx = 1\n");
    assert_eq!(blocks.len(), 1);
    a.push(&PARTLY.as_bytes()[first.len()..]).expect("push");
    let (status, result, error) = a.end(false);
    let e = take_full(status, result, error, TWICE)
        .expect("outcome")
        .expect_err("failed");
    assert_eq!(e.code, "search_not_found");
    let (status, result, error) = a.end(true);
    let (_, _, blocks) = take_full(status, result, error, TWICE)
        .expect("outcome")
        .expect("partial");
    assert_eq!(blocks[1].status, HL_BLOCK_FAILED);
}

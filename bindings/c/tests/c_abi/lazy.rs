//! The lazy-edit corpus (`tests/vectors/lazy-edits.jsonl`) through `hl_apply_lazy` only, scored
//! exactly as the core's runner (`crates/hunkloom/tests/lazy_edits.rs`) scores it, per
//! `tests/vectors/LAZY-EDITS.md`: correct, refused, or WRONG. Each case runs with the language
//! from the path `case.<lang>` and again by name; both must agree. Every refusal must come with
//! `HL_STATUS_EDIT_REJECTED` and a `lazy_*` code.
//!
//! Prints `lazy-edits <category>: <C>/<T> correct, <R> refused, <W> wrong` per category and the
//! total (visible with `--nocapture`, as `make test-c` runs it). Fails on any WRONG result,
//! below 95% correct, or when the content cases refused differ from [`REFUSED`].

use hunkloom_testkit::lazy::{LazyBoard, Observed, load_lazy_edits};

use super::ops_ffi::{Outcome, apply_lazy};
use hunkloom_c::*;

/// Content cases refused on purpose, with the reason: the core runner's list (`REFUSED` in
/// `crates/hunkloom/tests/lazy_edits.rs`), which this one must equal.
const REFUSED: &[(&str, &str)] = &[];

fn observed(outcome: &Outcome<String>, problems: &mut Vec<String>, id: &str) -> Observed {
    match outcome {
        Ok(Ok(text)) => Ok(text.clone()),
        Ok(Err(e)) => {
            if e.status != hl_status::EditRejected || !e.code.starts_with("lazy_") {
                problems.push(format!("{id}: refused with {:?} / {}", e.status, e.code));
            }
            Err((e.code.clone(), e.message.clone()))
        }
        Err(status) => {
            problems.push(format!("{id}: binding status {status:?}"));
            Err((format!("{status:?}"), String::new()))
        }
    }
}

#[test]
fn the_lazy_edit_corpus_through_the_c_abi() {
    let cases = load_lazy_edits();
    let mut board = LazyBoard::new();
    let mut problems = Vec::new();
    for case in &cases {
        let path = case.path();
        let by_path = apply_lazy(
            case.snippet.as_bytes(),
            case.original.as_bytes(),
            Some(path.as_bytes()),
            None,
        );
        let got = observed(&by_path, &mut problems, &case.id);
        board.record(case, &got);
        let by_name = apply_lazy(
            case.snippet.as_bytes(),
            case.original.as_bytes(),
            None,
            Some(case.lang.as_bytes()),
        );
        if observed(&by_name, &mut problems, &case.id) != got {
            problems.push(format!(
                "{}: the language by name gives another result",
                case.id
            ));
        }
    }
    board.problems.extend(problems);
    let problems = board.finish(REFUSED, cases.len());
    hunkloom_testkit::assert_no_failures(&problems, 40, "problems");
}

#[test]
fn an_unknown_language_is_an_invalid_option() {
    match apply_lazy(b"// ...\nx\n", b"x\n", None, Some(b"cobol")) {
        Ok(Err(e)) => {
            assert_eq!(e.status, hl_status::InvalidOption);
            assert_eq!(e.code, "invalid_language");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        apply_lazy(b"\xff", b"x\n", None, None),
        Err(hl_status::InvalidUtf8)
    );
}

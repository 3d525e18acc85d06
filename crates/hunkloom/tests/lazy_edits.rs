//! Scores [`apply_lazy`] on the lazy-edit corpus (`tests/vectors/lazy-edits.jsonl`, scoring as
//! `tests/vectors/LAZY-EDITS.md` defines it) and prints per category `lazy-edits <category>:
//! <C>/<T> correct, <R> refused, <W> wrong`, then `lazy-edits total: ...`.
//!
//! Each case runs twice: with the language taken from a path with the case's extension, and
//! with the language given by name; both must agree. The run fails on any WRONG result, below
//! 95% correct, on a disagreement, or when the content cases refused differ from [`REFUSED`].

use hunkloom::lazy::{Language, LazyOptions, apply_lazy};
use hunkloom_testkit::lazy::{LazyBoard, Observed, load_lazy_edits};

/// Content cases the engine refuses on purpose, with the reason (printed on every run).
const REFUSED: &[(&str, &str)] = &[];

fn observe(result: hunkloom::Result<String>) -> Observed {
    result.map_err(|e| (e.code().to_owned(), e.message().to_owned()))
}

fn main() {
    let cases = load_lazy_edits();
    let mut board = LazyBoard::new();
    for case in &cases {
        let by_path = observe(apply_lazy(
            &case.snippet,
            &case.original,
            &LazyOptions::new().path(case.path()),
        ));
        board.record(case, &by_path);
        let language = Language::from_name(&case.lang).expect("a known language");
        let by_name = observe(apply_lazy(
            &case.snippet,
            &case.original,
            &LazyOptions::new().language(language),
        ));
        if by_name != by_path {
            board.problems.push(format!(
                "{}: the language by name gives another result",
                case.id
            ));
        }
    }
    let problems = board.finish(REFUSED, cases.len());
    hunkloom_testkit::exit_on_failures(&problems, 60, "problems");
}

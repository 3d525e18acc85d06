//! Properties of [`apply_lazy`]:
//!
//! - a snippet that is the whole new file (no marker, no deletion comment) is returned as is,
//!   for random texts in every language and for the intended file of every content case of the
//!   lazy-edit corpus;
//! - adding or removing blank lines next to markers changes nothing: the same file, or a
//!   refusal with the same code (its message may name other snippet lines), on snippets of the
//!   corpus with blank lines added or removed at random next to their markers;
//! - no input panics, every refusal has a `lazy_*` code, and a merge writes no line that is
//!   neither in the file nor in the snippet (compared trimmed: only indentation is remapped),
//!   and no marker the file does not have, on random marker-heavy snippets and files.

use std::sync::OnceLock;

use hunkloom::lazy::{Language, LazyOptions, apply_lazy, is_lazy};
use hunkloom_testkit::lazy::{LazyCase, load_lazy_edits};
use proptest::prelude::*;

fn corpus() -> &'static [LazyCase] {
    static CASES: OnceLock<Vec<LazyCase>> = OnceLock::new();
    CASES.get_or_init(load_lazy_edits)
}

/// Lines that are neither markers nor deletion comments in any language, including ones that
/// come close: comments ending in `...`, code with `...`, comments with `removed` or `code`.
const LINES: &[&str] = &[
    "",
    "    ",
    "}",
    "{",
    "def load(path):",
    "    return f(...)",
    "x = y[1:...]",
    "// Retry when the pool is ready...",
    "# Wait for it...",
    "/* the cache */",
    "// removed the old cache entries",
    "# code that existed before",
    "// unchanging",
    "fn main() {",
    "\tlet x = 1;",
    "    ...rest",
    "  // existing codes",
    "é ✓ 😀",
];

fn language() -> impl Strategy<Value = Language> {
    proptest::sample::select(Language::ALL.to_vec())
}

/// The snippet's lines that are markers in the case's language by the plainest reading of the
/// rule (a comment whose text starts with `...` or `…`, or a Python line of just `...`): a
/// subset of the engine's markers, so blank lines next to them are next to markers.
fn marker_lines(case: &LazyCase, lines: &[&str]) -> Vec<bool> {
    let prefixes: &[&str] = if case.lang == "py" {
        &["#"]
    } else {
        &["//", "/*"]
    };
    lines
        .iter()
        .map(|l| {
            let t = l.trim();
            (case.lang == "py" && t == "...")
                || prefixes.iter().any(|p| {
                    t.strip_prefix(p).is_some_and(|rest| {
                        let rest = rest.trim_start_matches(['/', '#', '*']).trim_start();
                        rest.starts_with("...") || rest.starts_with('…')
                    })
                })
        })
        .collect()
}

/// `snippet` with the blank lines next to each marker replaced by `counts[k]` blank lines
/// (cycling through `counts`).
fn reblank(case: &LazyCase, counts: &[usize]) -> String {
    let lines: Vec<&str> = case.snippet.lines().collect();
    let markers = marker_lines(case, &lines);
    let near = |i: usize| {
        // A blank line belongs to the run next to a marker when only blank lines lie between.
        let up = (0..i).rev().find(|&j| !lines[j].trim().is_empty());
        let down = (i + 1..lines.len()).find(|&j| !lines[j].trim().is_empty());
        up.is_some_and(|j| markers[j]) || down.is_some_and(|j| markers[j])
    };
    let mut out = String::new();
    let mut k = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() && near(i) {
            continue;
        }
        if markers[i] {
            for _ in 0..counts[k % counts.len()] {
                out.push('\n');
            }
            k += 1;
        }
        out.push_str(line);
        out.push('\n');
        if markers[i] {
            for _ in 0..counts[k % counts.len()] {
                out.push('\n');
            }
            k += 1;
        }
    }
    out
}

fn outcome(r: hunkloom::Result<String>) -> Result<String, &'static str> {
    r.map_err(|e| e.code())
}

#[test]
fn the_intended_file_as_a_snippet_is_returned_as_is() {
    let mut checked = 0;
    for case in corpus() {
        let Some(content) = &case.expect.content else {
            continue;
        };
        let options = LazyOptions::new().path(case.path());
        assert_eq!(
            apply_lazy(content, &case.original, &options).as_ref(),
            Ok(content),
            "{}",
            case.id
        );
        checked += 1;
    }
    assert!(checked >= 1200, "{checked} content cases");
}

/// Lines of files and snippets: code with repeats, every marker and deletion comment style,
/// tabs, trailing blanks, multi-byte characters.
const MIXED: &[&str] = &[
    "",
    "  ",
    "}",
    "def f(x):",
    "    return x",
    "\treturn x",
    "fn f() {",
    "    g();",
    "func (s *S) Run() error {",
    "class A:",
    "// ... existing code ...",
    "# ... existing code ...",
    "    // ...",
    "/* ... */",
    "...",
    "# (unchanged)",
    "// removed f",
    "# removed Run",
    "// A deleted",
    "x = 1 ",
    "é 😀",
];

/// A file of numbered statements and [`MIXED`] lines, and a snippet cut from it the way a model
/// writes one: a marker, a run of the file's lines with one line added, another marker (each
/// marker present or not), in a language where both `//` and `#` are comments.
/// Gives `(snippet, file, language)`.
fn file_and_cut() -> impl Strategy<Value = (String, String, Language)> {
    (
        proptest::collection::vec(
            (
                proptest::sample::select(MIXED),
                proptest::bool::weighted(0.7),
            ),
            1..30,
        ),
        any::<usize>(),
        2..8usize,
        any::<usize>(),
        proptest::sample::select(&["// ...", "# ... existing code ...", "/* ... */"][..]),
        any::<(bool, bool)>(),
    )
        .prop_map(|(picks, start, len, at, marker, (above, below))| {
            let lines: Vec<String> = picks
                .iter()
                .enumerate()
                .map(|(i, (l, numbered))| {
                    if *numbered {
                        format!("    step_{i}()")
                    } else {
                        (*l).to_owned()
                    }
                })
                .collect();
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            let start = start % lines.len();
            let end = (start + len).min(lines.len());
            let mut cut: Vec<&str> = lines[start..end].to_vec();
            // Inside the run, so that both its ends are lines of the file.
            cut.insert(1 + at % cut.len().max(1), "    added(1)");
            let mut snippet = String::new();
            if above {
                snippet.push_str(marker);
                snippet.push('\n');
            }
            for l in cut {
                snippet.push_str(l);
                snippet.push('\n');
            }
            if below {
                snippet.push_str(marker);
                snippet.push('\n');
            }
            let file: String = lines.iter().map(|l| format!("{l}\n")).collect();
            (snippet, file, Language::Other)
        })
}

fn mixed(max: usize) -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(proptest::sample::select(MIXED), 0..max),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf)| {
            let eol = if crlf { "\r\n" } else { "\n" };
            lines.iter().map(|l| format!("{l}{eol}")).collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn no_input_panics_and_merges_write_only_known_lines(
        (snippet, original, lang) in prop_oneof![(mixed(14), mixed(24), language()), file_and_cut()],
    ) {
        let options = LazyOptions::new().language(lang);
        match apply_lazy(&snippet, &original, &options) {
            Err(e) => {
                prop_assert!(e.code().starts_with("lazy_"), "{}: {}", e.code(), e.message());
                prop_assert!(!e.message().is_empty());
            }
            Ok(merged) if is_lazy(&snippet, &options) => {
                let known: std::collections::HashSet<&str> =
                    original.lines().chain(snippet.lines()).map(str::trim).collect();
                let markers: std::collections::HashSet<&str> =
                    snippet.lines().filter(|l| is_lazy(l, &options)).map(str::trim).collect();
                let had: std::collections::HashSet<&str> = original.lines().map(str::trim).collect();
                for line in merged.lines() {
                    let t = line.trim();
                    prop_assert!(known.contains(t), "{t:?} comes from nowhere");
                    prop_assert!(!markers.contains(t) || had.contains(t), "marker {t:?} written");
                }
            }
            Ok(merged) => prop_assert_eq!(merged, snippet),
        }
    }

    #[test]
    fn a_snippet_without_markers_is_returned_as_is(
        lines in proptest::collection::vec(proptest::sample::select(LINES), 0..30),
        original in proptest::collection::vec(proptest::sample::select(LINES), 0..30),
        lang in language(),
        crlf in any::<bool>(),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let snippet: String = lines.iter().map(|l| format!("{l}{eol}")).collect();
        let original: String = original.iter().map(|l| format!("{l}\n")).collect();
        let options = LazyOptions::new().language(lang);
        prop_assert_eq!(apply_lazy(&snippet, &original, &options), Ok(snippet.clone()));
    }

    #[test]
    fn blank_lines_next_to_markers_change_nothing(
        index in 0..1500usize,
        counts in proptest::collection::vec(0..3usize, 1..6),
    ) {
        let case = &corpus()[index % corpus().len()];
        let options = LazyOptions::new().path(case.path());
        let reblanked = reblank(case, &counts);
        prop_assume!(reblanked != case.snippet);
        let want = outcome(apply_lazy(&case.snippet, &case.original, &options));
        let got = outcome(apply_lazy(&reblanked, &case.original, &options));
        prop_assert_eq!(got, want, "{}: {:?}", case.id, reblanked);
    }
}

//! The version-2 guards against their naive oracles ([`naive_guards`]): the placeholder rule
//! line by line, the streamed omission guard against the whole-text rule, unescaping, and the
//! whole engine (a one-block diff through `apply_diff`) against the oracles composed by hand:
//! over-escaped SEARCH texts, omission placeholders, already-applied blocks.

use proptest::prelude::*;

use super::naive::{self, NaiveMiss};
use super::naive_guards;
use super::omission::{self, OmissionCheck};
use super::overescape;
use super::search_text::SearchText;
use super::tests::file_line;
use crate::report::BlockStatus;
use crate::{ApplyOptions, apply_diff};

/// Placeholder-like and code-like lines: comment wrappers around elision phrases, code that uses
/// an ellipsis, prose.
fn guard_line() -> impl Strategy<Value = String> {
    let wrapper = prop_oneof![
        Just(("", "")),
        Just(("// ", "")),
        Just(("# ", "")),
        Just(("/* ", " */")),
        Just(("<!-- ", " -->")),
        Just(("-- ", "")),
        Just(("{/* ", " */}")),
        Just(("#!", "")),
        Just(("* ", "")),
    ];
    let body = prop_oneof![
        Just("..."),
        Just("…"),
        Just("[...]"),
        Just("(…)"),
        Just("... existing code ..."),
        Just("rest of code here"),
        Just("(other methods unchanged)"),
        Just("other methods"),
        Just("... other methods ..."),
        Just("unchanged"),
        Just("Other options"),
        Just("keep the existing logic"),
        Just("Tuple[int, ...]"),
        Just("def f(self) -> None: ..."),
        Just("load(...)"),
        Just("wait for it..."),
        Just("the rest -- unchanged"),
        Just("--- rest unchanged ---"),
    ];
    (wrapper, body, "[ \t]{0,2}")
        .prop_map(|((open, close), body, indent)| format!("{indent}{open}{body}{close}"))
}

/// Lines of an old or new text: code, and now and then a placeholder.
fn text_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => file_line(),
        1 => guard_line(),
        1 => Just("def f(self):".to_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn placeholder_rule_agrees(line in guard_line(), prev in proptest::option::of(text_line())) {
        prop_assert_eq!(
            omission::is_placeholder(&line, prev.as_deref().is_some_and(|p| p.trim_end().ends_with(':'))),
            naive_guards::is_placeholder(&line, prev.as_deref()),
            "{:?} after {:?}", line, prev
        );
    }

    #[test]
    fn streamed_omission_guard_agrees(
        old in proptest::collection::vec(text_line(), 0..10),
        new in proptest::collection::vec(text_line(), 0..8),
    ) {
        let mut check = OmissionCheck::new(old.iter().map(String::as_str));
        new.iter().for_each(|l| check.line(l));
        let old_refs: Vec<&str> = old.iter().map(String::as_str).collect();
        let new_refs: Vec<&str> = new.iter().map(String::as_str).collect();
        let want = naive_guards::elided(&old_refs, &new_refs);
        prop_assert_eq!(check.verdict().map(str::to_owned), want.clone());
        prop_assert_eq!(omission::elided(&old.join("\n"), &new.join("\n")), want);
    }

    #[test]
    fn unescaping_agrees(s in "[ab\\\\nrt\"\u{e9}\t]{0,12}") {
        prop_assert_eq!(overescape::unescape(&s), naive_guards::unescape(&s));
        prop_assert_eq!(overescape::lines(&s), naive_guards::unescaped_lines(&s));
    }
}

/// What a one-block diff comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Applied { start: usize, end: usize },
    AlreadyApplied { start: usize, end: usize },
    Refused(&'static str),
}

/// The oracles composed: unescape a one-line SEARCH text that matches nothing, then the
/// omission guard, then the cascade, then the already-applied rule.
fn expected(text: &str, search: &[String], replace: &[String]) -> Verdict {
    let as_search = |lines: Vec<String>| SearchText {
        eols: vec!["\n"; lines.len()],
        lines,
    };
    let mut s = as_search(search.to_vec());
    let mut r = replace.to_vec();
    let mut located = naive::locate(text, &s, None);
    let escaped = |l: &str| ["\\n", "\\t", "\\\""].iter().any(|e| l.contains(e));
    if located == Err(NaiveMiss::NotFound) && search.len() == 1 && escaped(&search[0]) {
        let u = as_search(naive_guards::unescaped_lines(&search[0]));
        let again = naive::locate(text, &u, None);
        if again != Err(NaiveMiss::NotFound) {
            s = u;
            located = again;
            r = replace
                .iter()
                .flat_map(|l| naive_guards::unescaped_lines(l))
                .collect();
        }
    }
    let old: Vec<&str> = s.lines.iter().map(String::as_str).collect();
    let new: Vec<&str> = r.iter().map(String::as_str).collect();
    if naive_guards::elided(&old, &new).is_some() {
        return Verdict::Refused("omission_placeholder");
    }
    match located {
        Ok(f) => Verdict::Applied {
            start: f.start,
            end: f.end,
        },
        Err(NaiveMiss::Ambiguous { .. }) => Verdict::Refused("ambiguous_match"),
        Err(NaiveMiss::NotFound) => match naive_guards::already_applied(text, &s, &r) {
            Some(f) => Verdict::AlreadyApplied {
                start: f.start,
                end: f.end,
            },
            None => Verdict::Refused("search_not_found"),
        },
    }
}

fn actual(text: &str, search: &[String], replace: &[String]) -> Verdict {
    let mut diff = String::from("------- SEARCH\n");
    for l in search {
        diff.push_str(l);
        diff.push('\n');
    }
    diff.push_str("=======\n");
    for l in replace {
        diff.push_str(l);
        diff.push('\n');
    }
    diff.push_str("+++++++ REPLACE\n");
    match apply_diff(&diff, text, &ApplyOptions::default()) {
        Ok(o) => {
            let b = &o.blocks[0];
            let (start, end) = (b.start.bytes, b.end.bytes);
            match b.status {
                BlockStatus::AlreadyApplied => Verdict::AlreadyApplied { start, end },
                _ => Verdict::Applied { start, end },
            }
        }
        Err(e) => Verdict::Refused(e.code()),
    }
}

/// Escapes lines the way an extra JSON encoding does, joined into one line.
fn escape(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| {
            l.replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\t', "\\t")
        })
        .collect::<Vec<_>>()
        .join("\\n")
}

/// A file; a SEARCH text cut from it (or not), maybe over-escaped; a REPLACE text made of the
/// file's lines (so it may be there already), new lines and placeholders.
fn guard_case() -> impl Strategy<Value = (String, Vec<String>, Vec<String>)> {
    (
        proptest::collection::vec(text_line(), 1..16),
        any::<bool>(),
        (any::<prop::sample::Index>(), 1usize..7),
        (any::<prop::sample::Index>(), 0usize..5),
        proptest::collection::vec(text_line(), 0..4),
        0u8..6,
    )
        .prop_map(|(lines, crlf, (at, len), (rat, rlen), extra, shape)| {
            let eol = if crlf { "\r\n" } else { "\n" };
            let text = lines.join(eol) + eol;
            let first = at.index(lines.len());
            let window = lines[first..(first + len).min(lines.len())].to_vec();
            let rfirst = rat.index(lines.len());
            let there = lines[rfirst..(rfirst + rlen).min(lines.len())].to_vec();
            let (search, replace) = match shape {
                // An edit of the window.
                0 | 1 => {
                    let mut r = window.clone();
                    r.truncate(len / 2);
                    r.extend(extra);
                    (window, r)
                }
                // A SEARCH text from elsewhere whose REPLACE text is (maybe) in the file.
                2 => (extra, there),
                // A retried deletion: the file's lines around a gap.
                3 => {
                    let mut s = there.clone();
                    s.insert(s.len() / 2, "deleted();".to_owned());
                    (s, there)
                }
                // Over-escaped.
                _ => {
                    let mut r = window.clone();
                    r.extend(extra);
                    (vec![escape(&window)], vec![escape(&r)])
                }
            };
            let search = if search.is_empty() {
                vec!["}".to_owned()]
            } else {
                search
            };
            (text, search, replace)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn engine_guards_agree_with_the_oracles((text, search, replace) in guard_case()) {
        prop_assert_eq!(actual(&text, &search, &replace), expected(&text, &search, &replace));
    }
}

/// The generator reaches every verdict, over-escaped blocks included.
#[test]
fn guard_cases_reach_every_verdict() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut seen = std::collections::BTreeSet::new();
    let mut escaped_applied = 0;
    for _ in 0..2000 {
        let (text, search, replace) = guard_case().new_tree(&mut runner).expect("case").current();
        let v = expected(&text, &search, &replace);
        if matches!(v, Verdict::Applied { .. }) && search.len() == 1 && search[0].contains("\\n") {
            escaped_applied += 1;
        }
        seen.insert(match v {
            Verdict::Applied { .. } => "applied",
            Verdict::AlreadyApplied { .. } => "already_applied",
            Verdict::Refused(code) => code,
        });
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        [
            "already_applied",
            "ambiguous_match",
            "applied",
            "omission_placeholder",
            "search_not_found"
        ]
    );
    assert!(escaped_applied > 0);
}

fn one_block(search: &str, replace: &str) -> String {
    format!("------- SEARCH\n{search}=======\n{replace}+++++++ REPLACE\n")
}

#[test]
fn examples_of_each_guard() {
    use crate::Strategy;
    use crate::policy::Policy;
    use crate::report::Normalization;
    use crate::stream::{ApplierOptions, Dialect, StreamingApplier};
    let file = "fn a() {\n    one();\n    two();\n    three();\n}\n\nfn b() {\n    four();\n}\n";
    // Over-escaped: applied as if unescaped, REPLACE unescaped too; shown once complete.
    let diff = one_block("    one();\\n    two();\n", "    one();\\n    \\\"2\\\";\n");
    let o = apply_diff(&diff, file, &ApplyOptions::default()).expect("unescaped");
    assert!(
        o.new_content
            .starts_with("fn a() {\n    one();\n    \"2\";\n    three();\n")
    );
    let mut applier = StreamingApplier::new(file, ApplierOptions::new().dialect(Dialect::Native));
    let cut = diff.find("\\\"2").expect("in the diff");
    applier.push(&diff[..cut]);
    assert_eq!(
        applier.preview(),
        file.replacen("    one();\n    two();\n", "", 1)
    );
    // Omission placeholder: refused whatever the other blocks do.
    let diff = one_block(
        "    one();\n    two();\n    three();\n",
        "    // ...\n    zero();\n",
    ) + &one_block("    four();\n", "    five();\n");
    let e = apply_diff(&diff, file, &ApplyOptions::default()).expect_err("elided");
    assert_eq!(e.code(), "omission_placeholder");
    assert!(
        e.message()
            .starts_with("block 1: the REPLACE text contains the placeholder `// ...`")
    );
    // Already applied: success, unchanged, with where the REPLACE text is.
    let diff = one_block("    four_old();\n    gone();\n", "    four();\n}\n");
    let o = apply_diff(&diff, file, &ApplyOptions::default()).expect("already applied");
    assert_eq!(o.new_content, file);
    let b = &o.blocks[0];
    assert_eq!(
        (b.status, b.strategy),
        (BlockStatus::AlreadyApplied, Strategy::Exact)
    );
    assert_eq!((b.start.line, b.end_line), (8, 9));
    assert!(o.match_indices.is_empty());
    // Cut off inside a block: incomplete_at_finish, nothing applied, with either policy for
    // the cut block.
    let diff = one_block("    four();\n", "    five();\n")
        + "------- SEARCH\n    one();\n=======\n    uno";
    let e = apply_diff(&diff, file, &ApplyOptions::default()).expect_err("cut off");
    assert_eq!(e.code(), "incomplete_at_finish");
    let partial = ApplyOptions::default().policy(Policy::Partial);
    let o = apply_diff(&diff, file, &partial).expect("partial");
    assert!(o.new_content.contains("five();") && !o.new_content.contains("uno"));
    assert_eq!(
        o.blocks[1].error.as_ref().map(|e| e.code()),
        Some("incomplete_at_finish")
    );
    // NFD SEARCH text against an NFC file: the punctuation tier; REPLACE verbatim.
    let accents = "// café\nx = 1\n";
    let diff = one_block("// cafe\u{301}\nx = 1\n", "// cafe\u{301}\nx = 2\n");
    let o = apply_diff(&diff, accents, &ApplyOptions::default()).expect("NFC = NFD");
    assert_eq!(o.new_content, "// cafe\u{301}\nx = 2\n");
    assert_eq!(o.blocks[0].normalizations, [Normalization::Punctuation]);
    // A blank line at the SEARCH text's start that the file lacks matches nothing.
    let diff = one_block("\n  one();\n  two();\n", "    one();\n    2();\n");
    let o = apply_diff(&diff, file, &ApplyOptions::default()).expect("edge blank");
    assert!(
        o.new_content
            .starts_with("fn a() {\n    one();\n    2();\n    three();\n")
    );
    assert_eq!(o.blocks[0].strategy, Strategy::BlankLines);
}

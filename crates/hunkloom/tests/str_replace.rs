//! `ops::str_replace`: one table row per rule of the edit semantics, then a property: with an old
//! text that occurs exactly once, the result is the file with the new text spliced in there.

use hunkloom::ops::{
    DESANITIZATIONS, MatchMode, Normalization, StrReplaceOptions, str_replace, str_replace_with,
};
use proptest::prelude::*;

use Normalization::{CurlyQuotes, DeletedLineEnding, Desanitized, LineEndings, TrailingWhitespace};

/// One call and what it must give.
struct Case {
    name: &'static str,
    content: Option<&'static str>,
    old: &'static str,
    new: &'static str,
    replace_all: bool,
    path: Option<&'static str>,
    want: Want,
}

enum Want {
    Ok {
        content: &'static str,
        replacements: usize,
        normalizations: &'static [Normalization],
        /// 1-based inclusive lines of the first edit in the new content.
        lines: (usize, usize),
    },
    Err {
        code: &'static str,
        message: &'static str,
    },
}

const fn ok(
    content: &'static str,
    replacements: usize,
    normalizations: &'static [Normalization],
    lines: (usize, usize),
) -> Want {
    Want::Ok {
        content,
        replacements,
        normalizations,
        lines,
    }
}

const fn err(code: &'static str, message: &'static str) -> Want {
    Want::Err { code, message }
}

const fn case(
    name: &'static str,
    content: Option<&'static str>,
    old: &'static str,
    new: &'static str,
    want: Want,
) -> Case {
    Case {
        name,
        content,
        old,
        new,
        replace_all: false,
        path: None,
        want,
    }
}

const MULTIPLE: &str = "Found 3 matches of the string to replace, but replace_all is false. To \
                        replace all occurrences, set replace_all to true. To replace only one \
                        occurrence, please provide more context to uniquely identify the instance.";

fn cases() -> Vec<Case> {
    vec![
        // Errors, with their codes and exact messages.
        case(
            "old equal to new",
            Some("a"),
            "a",
            "a",
            err(
                "old_equals_new",
                "No changes to make: old_string and new_string are exactly the same.",
            ),
        ),
        case(
            "old equal to new, even for a missing file",
            None,
            "",
            "",
            err(
                "old_equals_new",
                "No changes to make: old_string and new_string are exactly the same.",
            ),
        ),
        case(
            "empty old on a non-empty file",
            Some("x\n"),
            "",
            "y",
            err(
                "file_exists",
                "Cannot create new file - file already exists.",
            ),
        ),
        case(
            "old text on a missing file",
            None,
            "a",
            "b",
            err("file_not_found", "File does not exist."),
        ),
        case(
            "not found",
            Some("alpha\nbeta\n"),
            "gamma",
            "delta",
            err(
                "not_found",
                "String to replace not found in file.\nString: gamma",
            ),
        ),
        case(
            "not found reports the old text as given, over several lines",
            Some("a\n"),
            "x\n  y",
            "z",
            err(
                "not_found",
                "String to replace not found in file.\nString: x\n  y",
            ),
        ),
        case(
            "several matches without replace_all",
            Some("f(); f(); f();"),
            "f();",
            "g();",
            err("multiple_matches", MULTIPLE),
        ),
        // Creating.
        case(
            "empty old creates a missing file",
            None,
            "",
            "fn main() {}\n",
            ok("fn main() {}\n", 1, &[], (1, 1)),
        ),
        case(
            "empty old fills an empty file",
            Some(""),
            "",
            "a\nb",
            ok("a\nb", 1, &[], (1, 2)),
        ),
        case(
            "empty old fills a whitespace-only file",
            Some(" \n\t"),
            "",
            "a",
            ok("a", 1, &[], (1, 1)),
        ),
        // Exact matching.
        case(
            "exact, mid-line, with the line range of the edit",
            Some("one\ntwo = 2\nthree\n"),
            "2",
            "20\n# note",
            ok("one\ntwo = 20\n# note\nthree\n", 1, &[], (2, 3)),
        ),
        case(
            "emoji and other astral text around the match",
            Some("🚀 launch(é) 🚀\n"),
            "launch(é)",
            "land(ü) ✨",
            ok("🚀 land(ü) ✨ 🚀\n", 1, &[], (1, 1)),
        ),
        case(
            "CRLF content with CRLF old text",
            Some("a\r\nb\r\nc\r\n"),
            "b\r\n",
            "x\r\ny\r\n",
            ok("a\r\nx\r\ny\r\nc\r\n", 1, &[], (2, 3)),
        ),
        case(
            "CRLF content with LF old and new text",
            Some("a\r\nb\r\nc\r\n"),
            "a\nb\n",
            "a\nB\n",
            ok("a\r\nB\r\nc\r\n", 1, &[LineEndings], (1, 2)),
        ),
        Case {
            name: "replace_all: aa in aaa is one non-overlapping match, leftmost",
            replace_all: true,
            ..case("", Some("aaa"), "aa", "b", ok("ba", 1, &[], (1, 1)))
        },
        Case {
            name: "replace_all: aa in aaaaa is two matches, left to right",
            replace_all: true,
            ..case("", Some("aaaaa"), "aa", "b", ok("bba", 2, &[], (1, 1)))
        },
        Case {
            name: "replace_all: the range is the first edit's",
            replace_all: true,
            ..case(
                "",
                Some("x\nf()\nf()\n"),
                "f()",
                "g()",
                ok("x\ng()\ng()\n", 2, &[], (2, 2)),
            )
        },
        // Curly quotes.
        case(
            "curly double quotes in the file, straight in old; the style goes into new",
            Some("say(\u{201C}hi\u{201D})\n"),
            "say(\"hi\")",
            "say(\"bye\", \"now\")",
            ok(
                "say(\u{201C}bye\u{201D}, \u{201C}now\u{201D})\n",
                1,
                &[CurlyQuotes],
                (1, 1),
            ),
        ),
        case(
            "an apostrophe between letters is U+2019, quotes open after space and brackets",
            Some("msg = \u{2018}it\u{2019}s\u{2019}\n"),
            "'it's'",
            "'don't' ['x']",
            ok(
                "msg = \u{2018}don\u{2019}t\u{2019} [\u{2018}x\u{2019}]\n",
                1,
                &[CurlyQuotes],
                (1, 1),
            ),
        ),
        case(
            "only the quote kinds the file spells curly are restyled",
            Some("a = \u{201C}x\u{201D}\n"),
            "\"x\"",
            "\"y\" + 'z'",
            ok("a = \u{201C}y\u{201D} + 'z'\n", 1, &[CurlyQuotes], (1, 1)),
        ),
        case(
            "curly quotes in old, straight in the file: folded on both sides",
            Some("print(\"hi\")"),
            "print(\u{201C}hi\u{201D})",
            "print(\"yo\")",
            ok("print(\"yo\")", 1, &[CurlyQuotes], (1, 1)),
        ),
        case(
            "curly match after astral characters maps back to the right bytes",
            Some("🚀é \u{201C}a\u{201D} 🚀"),
            "\"a\"",
            "\"b\"",
            ok("🚀é \u{201C}b\u{201D} 🚀", 1, &[CurlyQuotes], (1, 1)),
        ),
        case(
            "curly matches are counted for uniqueness",
            Some("\u{201C}a\u{201D} \u{201C}a\u{201D} \u{201C}a\u{201D}"),
            "\"a\"",
            "\"b\"",
            err("multiple_matches", MULTIPLE),
        ),
        Case {
            name: "replace_all over curly matches restyles each from its own text",
            replace_all: true,
            ..case(
                "",
                Some("\u{201C}a\u{201D} 'a' \u{2018}a\u{2019}"),
                "'a'",
                "'b'",
                ok("\u{201C}a\u{201D} 'b' \u{2018}a\u{2019}", 1, &[], (1, 1)),
            )
        },
        // Trailing whitespace.
        Case {
            name: "trailing whitespace is stripped from new in .py",
            path: Some("src/app.py"),
            ..case(
                "",
                Some("a\nb\n"),
                "a",
                "x  \ny\t",
                ok("x\ny\nb\n", 1, &[TrailingWhitespace], (1, 2)),
            )
        },
        Case {
            name: "trailing whitespace is kept in .md",
            path: Some("README.md"),
            ..case(
                "",
                Some("a\nb\n"),
                "a",
                "x  \ny",
                ok("x  \ny\nb\n", 1, &[], (1, 2)),
            )
        },
        Case {
            name: "trailing whitespace is kept in .MDX (any case)",
            path: Some("docs/Page.MDX"),
            ..case("", Some("a\n"), "a", "x  ", ok("x  \n", 1, &[], (1, 1)))
        },
        case(
            "trailing whitespace is stripped without a path; CRLF inside new is kept",
            Some("a\n"),
            "a",
            "x \r\ny ",
            ok("x\r\ny\n", 1, &[TrailingWhitespace], (1, 2)),
        ),
        // Deletion.
        case(
            "deleting a whole line's text removes its newline",
            Some("a\nb\nc\n"),
            "b",
            "",
            ok("a\nc\n", 1, &[DeletedLineEnding], (2, 2)),
        ),
        case(
            "deleting a whole CRLF line's text removes its CRLF",
            Some("a\r\nb\r\nc"),
            "b",
            "",
            ok("a\r\nc", 1, &[DeletedLineEnding], (2, 2)),
        ),
        case(
            "deleting text that ends in a newline removes nothing more",
            Some("a\nb\n\nc"),
            "b\n",
            "",
            ok("a\n\nc", 1, &[], (2, 2)),
        ),
        case(
            "deleting the end of a line keeps the newline (lines are not joined)",
            Some("x = 1 // note\ny\n"),
            " // note",
            "",
            ok("x = 1\ny\n", 1, &[], (1, 1)),
        ),
        case(
            "a new text of only whitespace is a deletion after stripping",
            Some("a\nb\nc"),
            "b",
            "   ",
            ok("a\nc", 1, &[TrailingWhitespace, DeletedLineEnding], (2, 2)),
        ),
        Case {
            name: "replace_all deletes each whole line",
            replace_all: true,
            ..case(
                "",
                Some("x\nlog()\ny\nlog()\n"),
                "log()",
                "",
                ok("x\ny\n", 2, &[DeletedLineEnding], (2, 2)),
            )
        },
        // Desanitisation, combined with the other tiers.
        case(
            "desanitised and curly quotes together",
            Some("<name>say \u{201C}x\u{201D}</name>"),
            "<n>say \"x\"</n>",
            "<n>say \"y\"</n>",
            ok(
                "<name>say \u{201C}y\u{201D}</name>",
                1,
                &[CurlyQuotes, Desanitized],
                (1, 1),
            ),
        ),
        case(
            "a short form in new is kept when old did not need it",
            Some("<n>a</n>"),
            "a",
            "<e>",
            ok("<n><e></n>", 1, &[], (1, 1)),
        ),
    ]
}

#[test]
fn table() {
    let mut failures = Vec::new();
    for c in cases() {
        let got = str_replace(c.content, c.old, c.new, c.replace_all, c.path);
        let verdict = match (&c.want, &got) {
            (
                Want::Ok {
                    content,
                    replacements,
                    normalizations,
                    lines,
                },
                Ok(edit),
            ) => {
                edit.new_content == *content
                    && edit.replacements == *replacements
                    && edit.normalizations == *normalizations
                    && (edit.first_edit.start, edit.first_edit.end) == *lines
            }
            (Want::Err { code, message }, Err(e)) => e.code() == *code && e.message() == *message,
            _ => false,
        };
        if !verdict {
            failures.push(format!("{}: got {got:?}", c.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every entry of the table, on its own: the short form in old and new is mapped back.
#[test]
fn each_desanitization_entry() {
    for &(short, long) in DESANITIZATIONS {
        let content = format!("pre{long}post\n");
        let old = format!("pre{short}post");
        let new = format!("new{short}end");
        let edit = str_replace(Some(&content), &old, &new, false, None)
            .unwrap_or_else(|e| panic!("{short:?}: {e}"));
        assert_eq!(edit.new_content, format!("new{long}end\n"), "{short:?}");
        assert_eq!(edit.normalizations, [Desanitized], "{short:?}");
        // The short form itself, when present in the file, matches first.
        let literal = format!("pre{short}post\n");
        let edit = str_replace(Some(&literal), &old, &new, false, None).unwrap();
        assert_eq!(edit.new_content, format!("new{short}end\n"), "{short:?}");
        assert!(edit.normalizations.is_empty());
    }
}

#[test]
fn every_error_code_is_an_error_kind() {
    let codes: Vec<&str> = hunkloom::ErrorKind::ALL.iter().map(|k| k.code()).collect();
    for code in [
        "old_equals_new",
        "file_exists",
        "file_not_found",
        "not_found",
        "multiple_matches",
        "invalid_line",
    ] {
        assert!(codes.contains(&code), "{code}");
    }
}

/// A file over a small alphabet (ASCII, a two-byte and an astral character, quotes, CRLF).
fn file_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("a"),
            Just("b"),
            Just("c"),
            Just(" "),
            Just("\n"),
            Just("\r\n"),
            Just("é"),
            Just("🚀"),
            Just("'"),
            Just("\""),
        ],
        0..40,
    )
    .prop_map(|pieces| pieces.concat())
}

proptest! {
    #[test]
    fn unique_old_equals_splicing_at_the_match(
        content in file_text(),
        start in 0usize..40,
        len in 1usize..10,
        // No trailing whitespace on any line, and never empty: the stripping and deletion rules
        // do not apply.
        new in "[xyz\"']([xyz\"'\n]{0,6}[xyz\"'])?",
    ) {
        let bounds: Vec<usize> = content.char_indices().map(|(i, _)| i).chain([content.len()]).collect();
        prop_assume!(bounds.len() > 1);
        let s = bounds[start % (bounds.len() - 1)];
        let e = bounds[(start % (bounds.len() - 1) + len).min(bounds.len() - 1)];
        let old = &content[s..e];
        prop_assume!(old != new);
        let occurrences = content.match_indices(old).count();
        let overlapping = (0..content.len())
            .filter(|&i| content.is_char_boundary(i) && content[i..].starts_with(old))
            .count();
        prop_assume!(overlapping == 1 && occurrences == 1);

        let edit = str_replace(Some(&content), old, &new, false, Some("x.rs")).unwrap();
        let spliced = format!("{}{}{}", &content[..s], new, &content[e..]);
        prop_assert_eq!(&edit.new_content, &spliced);
        prop_assert_eq!(edit.replacements, 1);
        prop_assert!(edit.normalizations.is_empty());
        let line = 1 + content[..s].matches('\n').count();
        prop_assert_eq!(edit.first_edit.start, line);
        prop_assert_eq!(edit.first_edit.end, line + new.matches('\n').count());
    }
}

fn literal() -> StrReplaceOptions {
    StrReplaceOptions::new().mode(MatchMode::Literal)
}

#[test]
fn literal_mode_replaces_exactly_what_was_given() {
    let options = literal().path("a.py");
    // No trailing-whitespace strip, no deleted-line rule, no quote folding, no CRLF respelling.
    let cases: &[(&str, &str, &str, Result<&str, &str>)] = &[
        ("a\nb\n", "a", "x  ", Ok("x  \nb\n")),
        ("a\nb\n", "a", "", Ok("\nb\n")),
        (
            "say \u{201C}hi\u{201D}\n",
            "\"hi\"",
            "\"yo\"",
            Err("not_found"),
        ),
        ("a\r\nb\r\n", "a\nb", "x", Err("not_found")),
        ("a\r\nb\r\n", "a\r\nb", "x", Ok("x\r\n")),
        // An old text equal to the new one is a no-op edit.
        ("a\nb\n", "b", "b", Ok("a\nb\n")),
        ("a\na\n", "a", "a", Err("multiple_matches")),
        // An empty old text creates only an empty file.
        ("", "", "x", Ok("x")),
        (" \n", "", "x", Err("file_exists")),
        // Matches are non-overlapping, left to right (Python's `str.count`).
        ("aaa", "aa", "b", Ok("ba")),
    ];
    for &(content, old, new, want) in cases {
        let got = str_replace_with(Some(content), old, new, &options);
        match (want, &got) {
            (Ok(text), Ok(edit)) => {
                assert_eq!(edit.new_content, text, "{content:?} {old:?}");
                assert!(edit.normalizations.is_empty());
            }
            (Err(code), Err(e)) => assert_eq!(e.code(), code, "{content:?} {old:?}"),
            _ => panic!("{content:?} {old:?} {new:?}: {got:?}"),
        }
    }
    assert_eq!(
        str_replace_with(None, "", "x", &options)
            .unwrap()
            .new_content,
        "x"
    );
    assert_eq!(
        str_replace_with(None, "a", "x", &options)
            .unwrap_err()
            .code(),
        "file_not_found"
    );
    // The default mode keeps refusing `old == new`.
    let e = str_replace_with(Some("a"), "a", "a", &StrReplaceOptions::new()).unwrap_err();
    assert_eq!(e.code(), "old_equals_new");
    assert_eq!(MatchMode::default(), MatchMode::ClaudeCode);
    assert_eq!(MatchMode::ALL.len(), 2);
}

#[test]
fn multiple_matches_carry_their_spans_and_lines() {
    let content = "x = 1\né = x\n🚀 x\n";
    for options in [StrReplaceOptions::new(), literal()] {
        let e = str_replace_with(Some(content), "x", "y", &options).unwrap_err();
        assert_eq!(e.code(), "multiple_matches");
        let matches = e.matches().expect("matches");
        assert_eq!(matches.len(), 3);
        let lines: Vec<usize> = matches.iter().map(|m| m.line()).collect();
        assert_eq!(lines, [1, 2, 3]);
        let starts: Vec<(usize, usize, usize)> = matches
            .iter()
            .map(|m| (m.start.bytes, m.start.chars, m.start.utf16))
            .collect();
        // "é" is 2 bytes, 1 scalar, 1 UTF-16 unit; "🚀" is 4, 1, 2.
        assert_eq!(starts, [(0, 0, 0), (11, 10, 10), (18, 14, 15)]);
        assert!(matches.iter().all(|m| m.end.bytes == m.start.bytes + 1));
        assert!(matches.iter().all(|m| m.last_line == m.line()));
    }
    // A multi-line match covers its lines; a final `\n` does not reach the next one.
    let e = str_replace_with(Some("a\nb\na\nb\n"), "a\nb\n", "c", &literal()).unwrap_err();
    let m = e.matches().expect("matches");
    assert_eq!(
        m.iter()
            .map(|m| (m.line(), m.last_line))
            .collect::<Vec<_>>(),
        [(1, 2), (3, 4)]
    );
    // Other errors carry none.
    let e = str_replace(Some("a"), "b", "c", false, None).unwrap_err();
    assert!(e.matches().is_none());
}

proptest! {
    /// The literal mode is a plain non-overlapping search and splice (the naive oracle).
    #[test]
    fn literal_mode_agrees_with_a_plain_search(
        content in file_text(),
        old in "[ab\n ]{1,3}",
        new in "[xy\n ]{0,3}",
    ) {
        let got = str_replace_with(Some(&content), &old, &new, &literal());
        let starts: Vec<usize> = content.match_indices(old.as_str()).map(|(i, _)| i).collect();
        match starts.as_slice() {
            [] => prop_assert_eq!(got.unwrap_err().code(), "not_found"),
            [one] => {
                let edit = got.unwrap();
                let want = format!("{}{}{}", &content[..*one], new, &content[one + old.len()..]);
                prop_assert_eq!(edit.new_content, want);
            }
            many => {
                let e = got.unwrap_err();
                prop_assert_eq!(e.code(), "multiple_matches");
                let matches = e.matches().unwrap();
                prop_assert_eq!(matches.len(), many.len());
                for (m, &at) in matches.iter().zip(many) {
                    prop_assert_eq!(m.start.bytes, at);
                    prop_assert_eq!(m.line(), 1 + content[..at].matches('\n').count());
                }
                let all = str_replace_with(Some(&content), &old, &new, &literal().replace_all(true)).unwrap();
                prop_assert_eq!(all.new_content, content.replace(old.as_str(), &new));
            }
        }
    }
}

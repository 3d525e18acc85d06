//! No input panics (DESIGN §11): arbitrary and marker-heavy text through the `native` dialect
//! (whole and streamed at random split points, both policies), the tool-call edits in `ops`,
//! every content fix in `fixes`, the patch parser and planner in every dialect, V4A bodies
//! (`patch::v4a`, whole and streamed, and the Codex dialect's entry for them), and unified diffs
//! in `udiff` and `udiff-strict` (whole and streamed, which must agree). Every call
//! returns `Ok`, or an `Err` with a non-empty code. The Cline dialects have theirs in
//! `properties.rs`; the cargo-fuzz targets in `fuzz/` run the same calls for longer.

use std::collections::{BTreeMap, HashMap};

use hunkloom::fixes::{self, Fix};
use hunkloom::ops::roo::InsertGroup;
use hunkloom::ops::{self, Convention, LineArg};
use hunkloom::patch::v4a::{V4aApplier, V4aMode, apply_v4a_outcome};
use hunkloom::patch::{
    PatchDialect, PatchOptions, PatchParser, is_patch, parse_patch, plan_body, plan_patch,
};
use hunkloom::{
    ApplierOptions, ApplyOptions, BlockStatus, Dialect, Policy, StreamingApplier, apply_diff,
};
use hunkloom_testkit::Chunking;
use proptest::prelude::*;

const POLICIES: [Policy; 2] = [Policy::AllOrNothing, Policy::Partial];

/// The dialects that read `*** Begin Patch` patches (the others read unified diffs).
const BEGIN_PATCH: [PatchDialect; 3] = [
    PatchDialect::Codex,
    PatchDialect::Cline,
    PatchDialect::Native,
];

/// Fails the case unless `result` is `Ok` or an error with a non-empty code and message.
fn check<T>(what: &str, result: hunkloom::Result<T>) -> Result<(), TestCaseError> {
    if let Err(e) = result {
        prop_assert!(!e.code().is_empty(), "{what}: empty code in {e:?}");
    }
    Ok(())
}

/// Joins `lines` with `\n` or `\r\n`, with or without a final line ending.
fn joined(lines: Vec<String>, crlf: bool, final_eol: bool) -> String {
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut s = lines.join(eol);
    if final_eol {
        s.push_str(eol);
    }
    s
}

fn text_of(line: impl Strategy<Value = String>, max: usize) -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(line, 0..max),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, eol)| joined(lines, crlf, eol))
}

/// Code-like file lines, with near-duplicates, typography, tabs and multi-byte characters.
fn file_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("fn main() {".to_owned()),
        Just("    let x = 1;".to_owned()),
        Just("  let x = 1;".to_owned()),
        Just("    let x = 1; ".to_owned()),
        Just("    say(“hi” — ok…);".to_owned()),
        Just("    say(\"hi\" -- ok...);".to_owned()),
        Just("}".to_owned()),
        Just("".to_owned()),
        Just("   ".to_owned()),
        Just("\t🚀 é\u{A0}".to_owned()),
        Just("=======".to_owned()),
        "[a-c]{1,3}( [a-c]{1,3})?",
        "\\PC{0,6}",
    ]
}

/// A number as a model might write it: small, zero, negative, past `u32`, `usize` or any width.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..6).prop_map(|n| n.to_string()),
        Just("0".to_owned()),
        Just("-1".to_owned()),
        Just("4294967296".to_owned()),
        Just("18446744073709551615".to_owned()),
        Just("99999999999999999999999999".to_owned()),
        Just(" 2 ".to_owned()),
        Just("x".to_owned()),
    ]
}

/// Lines of a `native` diff: every marker spelling (and near-misses), Roo's preamble with wild
/// line numbers and its escapes, read-tool line-number prefixes, chatter and file lines.
fn native_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just("------- SEARCH".to_owned()),
        3 => Just("=======".to_owned()),
        3 => Just("+++++++ REPLACE".to_owned()),
        2 => Just("<<<<<<< SEARCH".to_owned()),
        2 => Just(">>>>>>> REPLACE".to_owned()),
        1 => Just("--- SEARCH>".to_owned()),
        1 => Just("+++ REPLACE>".to_owned()),
        1 => Just("=======\r".to_owned()),
        1 => Just("------- SEARCH  \r".to_owned()),
        1 => Just("===".to_owned()),
        1 => Just("-------".to_owned()),
        1 => Just("\\=======".to_owned()),
        1 => Just("\\-------".to_owned()),
        1 => Just("\\<<<<<<< SEARCH".to_owned()),
        1 => Just("```rust".to_owned()),
        2 => number_text().prop_map(|n| format!(":start_line:{n}")),
        1 => number_text().prop_map(|n| format!(":end_line:{n}")),
        1 => number_text().prop_map(|n| format!("\\:start_line:{n}")),
        2 => (number_text(), file_line(), 0u8..4).prop_map(|(n, l, style)| match style {
            0 => format!("{n} | {l}"),
            1 => format!("{n:>6}\t{l}"),
            2 => format!("{n}→{l}"),
            _ => format!("  {n} |"),
        }),
        8 => file_line(),
    ]
}

/// One block's recipe: where its SEARCH is cut from the file, how it is spelled, what replaces it.
#[derive(Clone, Debug)]
struct BlockRecipe {
    from: usize,
    len: usize,
    aider_markers: bool,
    hint: Option<String>,
    /// 0: as in the file; 1: trimmed; 2: read-tool line numbers; 3: re-indented.
    mutation: u8,
    replace: Vec<String>,
}

fn block_recipe() -> impl Strategy<Value = BlockRecipe> {
    (
        any::<usize>(),
        0usize..5,
        any::<bool>(),
        proptest::option::weighted(0.3, number_text()),
        0u8..4,
        proptest::collection::vec(file_line(), 0..4),
    )
        .prop_map(
            |(from, len, aider_markers, hint, mutation, replace)| BlockRecipe {
                from,
                len,
                aider_markers,
                hint,
                mutation,
                replace,
            },
        )
}

/// A file and a `native` diff whose blocks are cut from it (spelled exactly or slightly off),
/// with stray marker-heavy lines spliced in: most blocks get to the matching tiers.
fn native_case() -> impl Strategy<Value = (String, String)> {
    (
        proptest::collection::vec(file_line(), 0..12),
        proptest::collection::vec(block_recipe(), 0..4),
        proptest::collection::vec((any::<usize>(), native_line()), 0..3),
        (any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(|(file, recipes, noise, (crlf, eol, diff_crlf))| {
            let mut diff = Vec::new();
            for r in recipes {
                let from = r.from % (file.len() + 1);
                let to = (from + r.len).min(file.len());
                let (start, end) = if r.aider_markers {
                    ("<<<<<<< SEARCH", ">>>>>>> REPLACE")
                } else {
                    ("------- SEARCH", "+++++++ REPLACE")
                };
                diff.push(start.to_owned());
                if let Some(n) = r.hint {
                    diff.push(format!(":start_line:{n}"));
                    diff.push("-------".to_owned());
                }
                for (i, l) in file[from..to].iter().enumerate() {
                    diff.push(match r.mutation {
                        0 => l.clone(),
                        1 => l.trim().to_owned(),
                        2 => format!("{:>6}\t{l}", from + i + 1),
                        _ => format!("  {l}"),
                    });
                }
                diff.push("=======".to_owned());
                diff.extend(r.replace);
                diff.push(end.to_owned());
            }
            for (at, line) in noise {
                diff.insert(at % (diff.len() + 1), line);
            }
            (joined(diff, diff_crlf, true), joined(file, crlf, eol))
        })
}

fn pushes(text: &str, seed: u64) -> Vec<&str> {
    Chunking::Random(seed).split(text)
}

/// Streams `diff` into a `native` applier at random split points, reading every accessor after
/// each push and checking that the splices rebuild the preview, then finishes.
fn native_stream(
    diff: &str,
    original: &str,
    policy: Policy,
    seed: u64,
) -> Result<(), TestCaseError> {
    let options = ApplierOptions::new()
        .dialect(Dialect::Native)
        .policy(policy);
    let mut applier = StreamingApplier::new(original, options);
    let mut mirror = applier.preview().to_owned();
    for piece in pushes(diff, seed) {
        applier.push(piece).apply_to(&mut mirror);
        prop_assert_eq!(
            mirror.as_str(),
            applier.preview(),
            "the splices rebuild the preview"
        );
        let _ = applier.preview_len();
        let _ = applier.blocks_completed();
        let _ = applier.match_indices();
        if let Some(e) = applier.error() {
            prop_assert!(!e.code().is_empty(), "empty code in {e:?}");
        }
    }
    check("native finish", applier.finish())
}

fn native_all(diff: &str, original: &str, seed: u64) -> Result<(), TestCaseError> {
    for policy in POLICIES {
        let options = ApplyOptions::new().dialect(Dialect::Native).policy(policy);
        check("apply_diff", apply_diff(diff, original, &options))?;
        native_stream(diff, original, policy, seed)?;
    }
    Ok(())
}

/// Text for the edit tools: quotes of both styles, the API's short tags, `\r\n`, Markdown
/// fences, HTML entities, U+FFFD, and anything printable.
fn tool_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\"".to_owned()),
        Just("“".to_owned()),
        Just("”".to_owned()),
        Just("'".to_owned()),
        Just("’".to_owned()),
        Just("<fnr>".to_owned()),
        Just("<n>".to_owned()),
        Just("</s>".to_owned()),
        Just("<function_results>".to_owned()),
        Just("\n\nH:".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        Just("\r".to_owned()),
        Just("  \n".to_owned()),
        Just("```".to_owned()),
        Just("```js\n".to_owned()),
        Just("&lt;".to_owned()),
        Just("&gt;".to_owned()),
        Just("&amp;".to_owned()),
        Just("&quot;".to_owned()),
        Just("&#39;".to_owned()),
        Just("&apos;".to_owned()),
        Just("\u{FFFD}".to_owned()),
        Just("é🚀".to_owned()),
        "[ab \t]{1,3}",
        "\\PC{0,4}",
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|p| p.concat())
}

/// A sub-slice of `s` at char boundaries picked by `a` and `b` (so an old text often occurs).
fn slice_of(s: &str, a: usize, b: usize) -> &str {
    let bounds: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
    let (x, y) = (bounds[a % bounds.len()], bounds[b % bounds.len()]);
    &s[x.min(y)..x.max(y)]
}

/// A line argument as it may arrive: parseable and garbage text, and every kind of float.
fn line_arg() -> impl Strategy<Value = LineArg> {
    prop_oneof![
        number_text().prop_map(LineArg::Text),
        Just(LineArg::Text("1e400".to_owned())),
        Just(LineArg::Text("  -0".to_owned())),
        Just(LineArg::Text("+3abc".to_owned())),
        "\\PC{0,6}".prop_map(LineArg::Text),
        any::<f64>().prop_map(LineArg::Number),
        prop::sample::select(vec![
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
            0.5,
            1.0,
            1.9999,
            -0.5,
            -1.0,
            1e300,
            9_007_199_254_740_993.0,
            f64::MAX,
            f64::MIN_POSITIVE,
            u64::MAX as f64,
        ])
        .prop_map(LineArg::Number),
        (-3i64..1_000).prop_map(LineArg::from),
        Just(LineArg::Missing),
    ]
}

fn line_number() -> impl Strategy<Value = usize> {
    prop_oneof![
        0usize..8,
        Just(usize::MAX),
        Just(usize::MAX - 1),
        Just(u32::MAX as usize + 1),
        any::<usize>(),
    ]
}

/// Paths a patch names and a file map holds (mostly the same few, so the planner finds them).
fn path() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(vec!["a.txt", "b.txt", "dir/c.rs"]),
        1 => prop::sample::select(vec!["", " a.txt", "../x", "/abs", "a.txt/"]),
    ]
    .prop_map(str::to_owned)
}

/// Lines of a `*** Begin Patch` patch: every marker, padded and heredoc variants, Cline's bash
/// wrappers, changes and context lines of the files' own lines, chatter.
fn patch_line() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => Just("*** Begin Patch".to_owned()),
        2 => Just("*** End Patch".to_owned()),
        3 => path().prop_map(|p| format!("*** Add File: {p}")),
        2 => path().prop_map(|p| format!("*** Delete File: {p}")),
        5 => path().prop_map(|p| format!("*** Update File: {p}")),
        2 => path().prop_map(|p| format!("*** Move to: {p}")),
        3 => Just("@@".to_owned()),
        2 => file_line().prop_map(|l| format!("@@ {l}")),
        1 => Just("@@ -1,2 +1,2 @@".to_owned()),
        2 => Just("*** End of File".to_owned()),
        1 => Just("  *** Update File: a.txt ".to_owned()),
        1 => Just("*** End Patch \r".to_owned()),
        1 => prop::sample::select(vec!["<<EOF", "<<'EOF'", "<<\"EOF\"", "EOF", "%%bash", "apply_patch", "```"])
            .prop_map(str::to_owned),
        6 => change_line(),
        1 => Just("".to_owned()),
        1 => Just("***".to_owned()),
        1 => "\\PC{0,6}",
        // aider's markers and file-name lines, for the aider dialects.
        2 => prop::sample::select(vec![
            "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "<<<<< SEARCH>", "```python", "````", "...",
        ])
        .prop_map(str::to_owned),
        1 => path(),
    ]
}

/// A context, removed or added line of an update chunk, made of the files' own lines.
fn change_line() -> impl Strategy<Value = String> {
    (prop::sample::select(vec![" ", "-", "+"]), file_line()).prop_map(|(k, l)| format!("{k}{l}"))
}

/// One well-formed hunk (an add, a delete, or an update of one to three chunks).
fn hunk() -> impl Strategy<Value = Vec<String>> {
    let chunk = (
        prop_oneof![
            Just(None),
            Just(Some("@@".to_owned())),
            file_line().prop_map(|l| Some(format!("@@ {l}")))
        ],
        proptest::collection::vec(change_line(), 1..6),
        any::<bool>(),
    )
        .prop_map(|(header, changes, eof)| {
            let mut lines: Vec<String> = header.into_iter().collect();
            lines.extend(changes);
            if eof {
                lines.push("*** End of File".to_owned());
            }
            lines
        });
    prop_oneof![
        2 => (path(), proptest::collection::vec(file_line(), 0..4)).prop_map(|(p, body)| {
            let mut lines = vec![format!("*** Add File: {p}")];
            lines.extend(body.into_iter().map(|l| format!("+{l}")));
            lines
        }),
        1 => path().prop_map(|p| vec![format!("*** Delete File: {p}")]),
        5 => (path(), proptest::option::weighted(0.2, path()), proptest::collection::vec(chunk, 1..4))
            .prop_map(|(p, to, chunks)| {
                let mut lines = vec![format!("*** Update File: {p}")];
                lines.extend(to.map(|t| format!("*** Move to: {t}")));
                for (i, mut chunk) in chunks.into_iter().enumerate() {
                    // Only the first chunk may go without its `@@` header.
                    if i > 0 && !chunk[0].starts_with("@@") {
                        chunk.insert(0, "@@".to_owned());
                    }
                    lines.extend(chunk);
                }
                lines
            }),
    ]
}

/// A patch: well-formed hunks with a few stray lines spliced in, usually opened by
/// `*** Begin Patch` and closed by `*** End Patch`, so most reach the planner.
fn patch_text() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(hunk(), 0..4),
        proptest::collection::vec((any::<usize>(), patch_line()), 0..2),
        0u8..8,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(hunks, noise, frame, crlf, eol)| {
            let mut body: Vec<String> = hunks.into_iter().flatten().collect();
            for (at, line) in noise {
                body.insert(at % (body.len() + 1), line);
            }
            let mut lines = Vec::with_capacity(body.len() + 2);
            if frame != 0 {
                lines.push("*** Begin Patch".to_owned());
            }
            lines.extend(body);
            if frame >= 2 {
                lines.push("*** End Patch".to_owned());
            }
            joined(lines, crlf, eol)
        })
}

fn files() -> impl Strategy<Value = BTreeMap<String, String>> {
    proptest::collection::btree_map(path(), text_of(file_line(), 8), 0..4)
}

fn plan_all(patch: &str, files: &BTreeMap<String, String>) -> Result<(), TestCaseError> {
    for &dialect in PatchDialect::ALL {
        for policy in POLICIES {
            let options = PatchOptions::new().dialect(dialect).policy(policy);
            let plan = plan_patch(patch, files, &options);
            if let Ok(plan) = &plan {
                let mut copy = files.clone();
                let _ = plan.apply_to(&mut copy);
            }
            check("plan_patch", plan)?;
        }
    }
    // The other file sources: a hash map and a closure.
    let hashed: HashMap<String, String> = files.clone().into_iter().collect();
    check(
        "plan_patch (HashMap)",
        plan_patch(patch, &hashed, &PatchOptions::default()),
    )?;
    let read = |p: &str| files.get(p).cloned();
    check(
        "plan_patch (closure)",
        plan_patch(
            patch,
            &read,
            &PatchOptions::new().dialect(PatchDialect::Cline),
        ),
    )
}

fn parse_streamed(patch: &str, seed: u64) -> Result<(), TestCaseError> {
    let _ = is_patch(patch);
    check("parse_patch", parse_patch(patch))?;
    let mut parser = PatchParser::new();
    for piece in pushes(patch, seed) {
        let pushed = parser.push(piece).map(<[_]>::len);
        let _ = (parser.pending(), parser.lines_read());
        check("PatchParser::push", pushed)?;
    }
    check("PatchParser::finish", parser.finish().map(<[_]>::len))?;
    check("PatchParser::finish again", parser.finish().map(<[_]>::len))
}

/// One line of a unified diff: hunk headers of every spelling (numbers often wrong), file
/// headers, no-newline markers, fences, prose, and context, removed and added lines made of the
/// files' own lines (some without their prefix).
fn udiff_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (0usize..30, 0usize..12, 0usize..30, 0usize..12)
            .prop_map(|(a, b, c, d)| format!("@@ -{a},{b} +{c},{d} @@")),
        1 => (0usize..30, 0usize..30).prop_map(|(a, c)| format!("@@ -{a} +{c} @@ fn main()")),
        1 => prop::sample::select(vec!["@@", "@@ @@", "@@ ... @@", "@@ -1,2 +1,2"])
            .prop_map(str::to_owned),
        1 => path().prop_map(|p| format!("--- a/{p}")),
        1 => path().prop_map(|p| format!("+++ b/{p}")),
        1 => prop::sample::select(vec![
            "diff --git a/a.txt b/a.txt", "--- /dev/null", "+++ /dev/null", "new file mode 100644",
            "deleted file mode 100644", "index 3b18e51..a9c2f04 100644", "rename from a.txt",
            "rename to b.txt", "\\ No newline at end of file", "\\ x", "```diff", "```", "",
            "Here is the change:",
        ])
        .prop_map(str::to_owned),
        10 => (prop::sample::select(vec![" ", "-", "+", ""]), file_line())
            .prop_map(|(k, l)| format!("{k}{l}")),
        1 => "\\PC{0,6}",
    ]
}

/// A file and a unified diff made from its own lines: one or more hunks, each a window of the
/// file with some lines removed or replaced, under a header whose numbers may be right or not,
/// with a few stray lines spliced in.
fn udiff_case() -> impl Strategy<Value = (String, String)> {
    (
        proptest::collection::vec(file_line(), 0..14),
        proptest::collection::vec(
            (any::<usize>(), 0usize..5, any::<u8>(), any::<bool>()),
            1..4,
        ),
        proptest::collection::vec((any::<usize>(), udiff_line()), 0..3),
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(|(file, hunks, noise, (crlf, eol, diff_crlf, headers))| {
            let mut diff: Vec<String> = Vec::new();
            if headers {
                diff.push("--- a/a.txt".to_owned());
                diff.push("+++ b/a.txt".to_owned());
            }
            for (at, len, edits, right) in hunks {
                let start = if file.is_empty() { 0 } else { at % file.len() };
                let end = (start + len).min(file.len());
                let mut body = Vec::new();
                for (j, line) in file[start..end].iter().enumerate() {
                    match (edits >> (j % 8)) & 3 {
                        0 => body.push(format!("-{line}")),
                        1 => {
                            body.push(format!("-{line}"));
                            body.push(format!("+{line} // changed"));
                        }
                        _ => body.push(format!(" {line}")),
                    }
                }
                if body.is_empty() || edits & 1 == 1 {
                    body.push("+added".to_owned());
                }
                let old = body.iter().filter(|l| !l.starts_with('+')).count();
                let new = body.iter().filter(|l| !l.starts_with('-')).count();
                let line = if right { start + 1 } else { start + 7 };
                diff.push(format!("@@ -{line},{old} +{line},{new} @@"));
                diff.extend(body);
                if end == file.len() && !eol && edits & 2 == 2 {
                    diff.push("\\ No newline at end of file".to_owned());
                }
            }
            for (at, line) in noise {
                diff.insert(at % (diff.len() + 1), line);
            }
            (joined(diff, diff_crlf, true), joined(file, crlf, eol))
        })
}

/// Both unified-diff dialects (and `recount`, and both policies) on `diff`: whole, and
/// streamed at random split points, which must give the same outcome, the splices rebuilding
/// the preview; then the diff planned as a git patch of `a.txt`.
fn udiff_all(diff: &str, original: &str, seed: u64) -> Result<(), TestCaseError> {
    for (dialect, recount, policy) in [
        (Dialect::Udiff, false, Policy::AllOrNothing),
        (Dialect::Udiff, false, Policy::Partial),
        (Dialect::UdiffStrict, false, Policy::AllOrNothing),
        (Dialect::UdiffStrict, true, Policy::AllOrNothing),
    ] {
        let options = ApplyOptions::new()
            .dialect(dialect)
            .policy(policy)
            .recount(recount);
        let whole = apply_diff(diff, original, &options);
        check("apply_diff", whole.clone())?;
        let options = ApplierOptions::new()
            .dialect(dialect)
            .policy(policy)
            .recount(recount);
        let mut applier = StreamingApplier::new(original, options);
        let mut mirror = applier.preview().to_owned();
        for piece in pushes(diff, seed) {
            applier.push(piece).apply_to(&mut mirror);
            prop_assert_eq!(mirror.as_str(), applier.preview());
            let _ = (
                applier.preview_len(),
                applier.match_indices(),
                applier.error(),
            );
        }
        prop_assert_eq!(applier.finish(), whole, "{} streamed", dialect);
    }
    let files = BTreeMap::from([("a.txt".to_owned(), original.to_owned())]);
    for dialect in [PatchDialect::Udiff, PatchDialect::UdiffStrict] {
        for policy in POLICIES {
            let options = PatchOptions::new().dialect(dialect).policy(policy);
            check("plan_patch", plan_patch(diff, &files, &options))?;
        }
    }
    Ok(())
}

/// A V4A body: sections of headers and change lines (with the markers that end or break a
/// section), stray lines spliced in.
fn v4a_body() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        8 => change_line(),
        2 => file_line().prop_map(|l| format!("@@ {l}")),
        2 => Just("@@".to_owned()),
        1 => prop::sample::select(vec![
            "*** End of File", "*** End Patch", "***", "*** Move to: x", "@@@", "@@x", "",
            "*** Update File: a", "\\ No newline at end of file", "```diff",
        ])
        .prop_map(str::to_owned),
        1 => file_line(),
        1 => "\\PC{0,6}",
    ];
    (
        proptest::collection::vec(line, 0..14),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, eol)| joined(lines, crlf, eol))
}

/// A V4A body applied whole and streamed at random split points (same outcome), in both modes,
/// and through the Codex dialect's entry for one file.
fn v4a_all(body: &str, input: &str, seed: u64) -> Result<(), TestCaseError> {
    for &mode in V4aMode::ALL {
        let whole = apply_v4a_outcome(input, body, mode);
        let mut applier = V4aApplier::new(input, mode);
        let mut shown = applier.preview();
        let mut streamed = Ok(());
        for piece in pushes(body, seed) {
            let pushed = applier.push(piece).map(drop);
            applier.preview_update().apply_to(&mut shown);
            prop_assert_eq!(&shown, &applier.preview(), "the preview's splices");
            if let Err(e) = pushed {
                streamed = Err(e);
                break;
            }
        }
        let streamed = streamed.and_then(|()| applier.finish());
        prop_assert_eq!(&whole, &streamed, "chunking changed the outcome");
        check("apply_v4a", whole)?;
        let files = BTreeMap::from([("a.txt".to_owned(), input.to_owned())]);
        let plan = plan_body("a.txt", body, mode, &files, Policy::AllOrNothing);
        if let Ok(plan) = &plan {
            let _ = plan.apply_to(&mut files.clone());
        }
        check("plan_body", plan)?;
        let native = hunkloom::patch::native::apply_body(input, body, mode);
        check("native apply_body", native)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn udiff_never_panics_on_hunks_cut_from_the_file((diff, original) in udiff_case(), seed in any::<u64>()) {
        udiff_all(&diff, &original, seed)?;
    }

    #[test]
    fn udiff_never_panics_on_diff_like_text(
        diff in text_of(udiff_line(), 24),
        original in text_of(file_line(), 12),
        seed in any::<u64>(),
    ) {
        udiff_all(&diff, &original, seed)?;
    }

    #[test]
    fn udiff_never_panics_on_arbitrary_text(
        diff in "\\PC{0,80}", original in "\\PC{0,40}", seed in any::<u64>()
    ) {
        udiff_all(&diff, &original, seed)?;
    }

    #[test]
    fn v4a_never_panics_and_streams_alike(
        body in v4a_body(),
        input in text_of(file_line(), 12),
        seed in any::<u64>(),
    ) {
        v4a_all(&body, &input, seed)?;
    }

    #[test]
    fn v4a_never_panics_on_arbitrary_text(
        body in "\\PC{0,80}", input in "\\PC{0,40}", seed in any::<u64>()
    ) {
        v4a_all(&body, &input, seed)?;
    }

    #[test]
    fn native_never_panics_on_blocks_cut_from_the_file((diff, original) in native_case(), seed in any::<u64>()) {
        native_all(&diff, &original, seed)?;
    }

    #[test]
    fn native_never_panics_on_marker_heavy_diffs(
        diff in text_of(native_line(), 24),
        original in text_of(file_line(), 12),
        seed in any::<u64>(),
    ) {
        native_all(&diff, &original, seed)?;
    }

    #[test]
    fn native_never_panics_on_arbitrary_text(
        diff in "\\PC{0,80}", original in "\\PC{0,40}", seed in any::<u64>()
    ) {
        native_all(&diff, &original, seed)?;
    }

    #[test]
    fn str_replace_never_panics(
        content in proptest::option::of(tool_text()),
        cut in (any::<usize>(), any::<usize>()),
        old in proptest::option::of(tool_text()),
        new in tool_text(),
        replace_all in any::<bool>(),
        path in proptest::option::of(prop::sample::select(vec!["a.md", "B.MDX", "a.rs", ""])),
    ) {
        // Usually a piece of the file (so the tiers run), sometimes any text.
        let old = old.unwrap_or_else(|| slice_of(content.as_deref().unwrap_or(""), cut.0, cut.1).to_owned());
        check("str_replace", ops::str_replace(content.as_deref(), &old, &new, replace_all, path))?;
    }

    #[test]
    fn inserts_never_panic(
        content in tool_text(),
        exists in any::<bool>(),
        number in line_number(),
        arg in line_arg(),
        text in proptest::option::of(tool_text()),
        groups in proptest::collection::vec(
            (prop_oneof![-4i64..6, any::<i64>(), Just(i64::MIN), Just(i64::MAX)],
             proptest::collection::vec("\\PC{0,3}", 0..3)),
            0..4,
        ),
    ) {
        for &convention in Convention::ALL {
            check("insert", ops::insert(&content, number, text.as_deref().unwrap_or(""), convention))?;
        }
        let original = exists.then_some(content.as_str());
        check("insert_content", ops::insert_content(original, arg, text.as_deref()))?;
        let lines: Vec<&str> = content.split('\n').collect();
        let groups: Vec<InsertGroup> = groups
            .into_iter()
            .map(|(index, elements)| InsertGroup { index, elements })
            .collect();
        let _ = ops::roo::insert_groups(&lines, &groups);
    }

    #[test]
    fn every_fix_never_panics(
        text in tool_text(),
        path in proptest::option::of(prop::sample::select(vec!["a.xml", "A.XML", "a.js", "xml", ""])),
        model in proptest::option::of(prop::sample::select(vec!["claude-x", "Claude-3", "gpt-4o", ""])),
        enabled in proptest::sample::subsequence(Fix::ALL.to_vec(), 0..=Fix::ALL.len()),
    ) {
        let _ = fixes::strip_markdown_fences(&text);
        let _ = fixes::fix_model_html_escaping(&text);
        let _ = fixes::remove_invalid_chars(&text);
        let _ = fixes::apply_model_content_fixes(&text, model, path);
        let _ = fixes::write(&text, path, model);
        let _ = fixes::write_with(&text, path, model, &enabled);
    }

    #[test]
    fn patches_never_panic(patch in patch_text(), files in files(), seed in any::<u64>()) {
        parse_streamed(&patch, seed)?;
        plan_all(&patch, &files)?;
    }

    #[test]
    fn arbitrary_text_patches_never_panic(
        body in "\\PC{0,80}", files in files(), seed in any::<u64>()
    ) {
        let patch = format!("*** Begin Patch\n{body}");
        parse_streamed(&body, seed)?;
        parse_streamed(&patch, seed)?;
        plan_all(&body, &files)?;
        plan_all(&patch, &files)?;
    }
}

/// The generators are only worth their time if calls get past parsing: in a fixed sample,
/// patches must plan in both dialects and fail in the planner (not only in the parser), and
/// native diffs must apply blocks.
#[test]
fn generators_reach_the_planner_and_the_tiers() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    fn sample<S: Strategy>(runner: &mut TestRunner, strategy: S) -> S::Value {
        strategy.new_tree(runner).expect("a value").current()
    }
    let mut runner = TestRunner::deterministic();
    let (mut planned, mut planner_failed, mut applied) = ([0; BEGIN_PATCH.len()], 0, 0);
    let n = 300;
    for _ in 0..n {
        let patch = sample(&mut runner, patch_text());
        let files: BTreeMap<String, String> = ["a.txt", "b.txt", "dir/c.rs"]
            .into_iter()
            .map(|p| (p.to_owned(), sample(&mut runner, text_of(file_line(), 8))))
            .collect();
        for (i, &dialect) in BEGIN_PATCH.iter().enumerate() {
            match plan_patch(&patch, &files, &PatchOptions::new().dialect(dialect)) {
                Ok(plan) if !plan.changes.is_empty() => planned[i] += 1,
                Err(e) if !e.code().starts_with("invalid_patch") => planner_failed += 1,
                _ => {}
            }
        }
        let (diff, original) = sample(&mut runner, native_case());
        let options = ApplyOptions::new().policy(Policy::Partial);
        if apply_diff(&diff, &original, &options)
            .is_ok_and(|o| o.blocks.iter().any(|b| b.status == BlockStatus::Applied))
        {
            applied += 1;
        }
    }
    for (dialect, got) in BEGIN_PATCH.iter().zip(planned) {
        // The native reading refuses what these random patches leave uncertain (their small
        // files repeat lines), so fewer of them plan there; some still must.
        let share = if *dialect == PatchDialect::Native {
            50
        } else {
            20
        };
        assert!(
            got * share >= n,
            "{dialect}: only {got}/{n} patches planned"
        );
    }
    assert!(
        planner_failed * 10 >= n,
        "only {planner_failed} planner failures"
    );
    assert!(
        applied * 10 >= n,
        "only {applied}/{n} diffs applied a block"
    );
}

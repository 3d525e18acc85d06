//! `semantics: native` under the reference tool schemas, on the robustness corpus
//! (`tests/vectors/robustness.jsonl`): each case's SEARCH/REPLACE blocks sent as the profile's
//! own edit calls — the text editor's `view` then one `str_replace` per block (`anthropic`,
//! `openhands`), one `update_file` operation whose V4A diff has a section per block (`openai`),
//! one `apply_patch` with a chunk per block (`codex`), `Read` then one `MultiEdit`
//! (`claude-code`), `read_file` then one `replace` per block (`gemini`), one
//! `multi_replace_string_in_file` and, apart, one `apply_patch` (`copilot`). A case is silently
//! wrong when every call succeeded and the file is not the intended one (or changed where the
//! edit must be refused); there must be none. Prints correct / refused / wrong per profile, and apart the edits whose
//! lines are the intended ones but one of which took the other line ending of a mixed-ending
//! file (the text editor writes the `\n` view's new lines with the ending it chooses there) or
//! kept the file's trailing whitespace after the replaced text (`str_replace` replaces text,
//! not whole lines).
//!
//! Then the rows robustness v2 adds (`tests/vectors/robustness-v2.jsonl`, the ten new
//! categories: drift combined, blank edges, omission placeholders, over-escaping, edits already
//! applied, hallucinated lines, near siblings, truncation, whole-file SEARCH, Unicode
//! normalization), scored the same way; an edit already in the file is correct when the file
//! comes back unchanged, and refused when a call says it cannot find the text.
//!
//! Skipped, with the reason: the `marker_variants` cases (they test how a dialect reads
//! SEARCH/REPLACE markers, which tool calls do not have).

use std::path::Path;

use hunkloom_testkit::robustness::load_robustness;
use hunkloom_testkit::robustness_v2::load_robustness_v2;
use hunkloom_tools::{Semantics, Toolset, ToolsetOptions, ToolsetProfile};
use serde_json::{Value, json};

/// The blocks of a diff in Cline's markers: (SEARCH, REPLACE) texts without their last line
/// ending; `None` for any other marker form.
fn blocks(diff: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut lines = diff.lines();
    while let Some(line) = lines.next() {
        if line.trim().is_empty() {
            continue;
        }
        if line != "------- SEARCH" {
            return None;
        }
        let mut search = Vec::new();
        for l in lines.by_ref() {
            if l == "=======" {
                break;
            }
            search.push(l);
        }
        let mut replace = Vec::new();
        let mut closed = false;
        for l in lines.by_ref() {
            if l == "+++++++ REPLACE" {
                closed = true;
                break;
            }
            replace.push(l);
        }
        if !closed {
            return None;
        }
        out.push((search.join("\n"), replace.join("\n")));
    }
    (!out.is_empty()).then_some(out)
}

/// The calls one profile makes for a case's blocks on the file `path` (absolute) named `name`;
/// `patch`: Copilot's `apply_patch` instead of its `multi_replace_string_in_file`.
fn calls(
    profile: ToolsetProfile,
    patch: bool,
    path: &Path,
    name: &str,
    blocks: &[(String, String)],
) -> Vec<(&'static str, Value)> {
    let abs = path.display().to_string();
    // An empty text has no lines (a deletion writes no `+` line).
    let lines = |text: &str, prefix: char| -> String {
        if text.is_empty() {
            return String::new();
        }
        text.split('\n').map(|l| format!("{prefix}{l}\n")).collect()
    };
    match profile {
        ToolsetProfile::Anthropic | ToolsetProfile::OpenHands => {
            let mut calls = vec![(
                "str_replace_editor",
                json!({"command": "view", "path": abs}),
            )];
            for (old, new) in blocks {
                calls.push((
                    "str_replace_editor",
                    json!({"command": "str_replace", "path": abs, "old_str": old, "new_str": new}),
                ));
            }
            calls
        }
        ToolsetProfile::OpenAi => {
            let diff: String = blocks
                .iter()
                .map(|(old, new)| format!("@@\n{}{}", lines(old, '-'), lines(new, '+')))
                .collect();
            vec![(
                "apply_patch",
                json!({"operation": {"type": "update_file", "path": name, "diff": diff}}),
            )]
        }
        ToolsetProfile::Copilot if patch => {
            let chunks: String = blocks
                .iter()
                .map(|(old, new)| format!("@@\n{}{}", lines(old, '-'), lines(new, '+')))
                .collect();
            let patch = format!("*** Begin Patch\n*** Update File: {abs}\n{chunks}*** End Patch\n");
            vec![(
                "apply_patch",
                json!({"input": patch, "explanation": "Apply the edit."}),
            )]
        }
        ToolsetProfile::Copilot => {
            let items: Vec<Value> = blocks
                .iter()
                .map(|(old, new)| json!({"filePath": abs, "oldString": old, "newString": new}))
                .collect();
            vec![(
                "multi_replace_string_in_file",
                json!({"explanation": "Apply the edit.", "replacements": items}),
            )]
        }
        ToolsetProfile::Codex => {
            let chunks: String = blocks
                .iter()
                .map(|(old, new)| format!("@@\n{}{}", lines(old, '-'), lines(new, '+')))
                .collect();
            let patch =
                format!("*** Begin Patch\n*** Update File: {name}\n{chunks}*** End Patch\n");
            vec![("apply_patch", json!({"input": patch}))]
        }
        ToolsetProfile::Gemini => {
            let mut calls = vec![("read_file", json!({"file_path": abs}))];
            for (old, new) in blocks {
                calls.push((
                    "replace",
                    json!({"file_path": abs, "instruction": "Apply the edit.", "old_string": old, "new_string": new}),
                ));
            }
            calls
        }
        _ => {
            let edits: Vec<Value> = blocks
                .iter()
                .map(|(old, new)| json!({"old_string": old, "new_string": new}))
                .collect();
            vec![
                ("Read", json!({"file_path": abs})),
                ("MultiEdit", json!({"file_path": abs, "edits": edits})),
            ]
        }
    }
}

/// The text's lines without trailing whitespace.
fn trimmed_lines(text: &str) -> Vec<&str> {
    text.lines().map(str::trim_end).collect()
}

/// What a case starts from and what a correct edit leaves.
struct Case<'a> {
    original: &'a str,
    /// The intended content (`None`: the edit must be refused or leave the file unchanged).
    want: Option<&'a str>,
    refuse: bool,
}

/// Correct (0), refused (1), wrong (2), or the intended lines with a line ending or trailing
/// whitespace of the file's own (3) for one case.
fn run(
    profile: ToolsetProfile,
    patch: bool,
    case: &Case<'_>,
    blocks: &[(String, String)],
) -> usize {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("root");
    let name = "f.txt";
    let path = root.join(name);
    std::fs::write(&path, case.original).expect("write");
    let options = ToolsetOptions::new()
        .profile(profile)
        .semantics(Semantics::Native);
    let toolset = Toolset::new(&root, options).expect("toolset");
    for (tool, input) in calls(profile, patch, &path, name, blocks) {
        let r = toolset.call(tool, &input).expect("an object is answered");
        if r.is_error {
            return 1;
        }
    }
    let after = std::fs::read(&path).map(|b| String::from_utf8_lossy(&b).into_owned());
    let lf = |s: &str| s.replace("\r\n", "\n");
    match (case.want, after) {
        (Some(want), Ok(got)) if got == want => 0,
        (None, Ok(got)) if case.refuse && got == case.original => 0,
        // The intended lines, one of them with the other line ending of a mixed-ending file,
        // or keeping the file's trailing whitespace after the replaced text (a `str_replace`
        // replaces text, not whole lines).
        (Some(want), Ok(got)) if lf(&got) == lf(want) => 3,
        (Some(want), Ok(got)) if trimmed_lines(&got) == trimmed_lines(want) => 3,
        _ => 2,
    }
}

/// The profiles with native semantics (Copilot twice: its replacements, then its
/// `apply_patch`), and the silent wrongs allowed each: none.
const PROFILES: [(ToolsetProfile, bool, usize); 8] = [
    (ToolsetProfile::Anthropic, false, 0),
    (ToolsetProfile::OpenHands, false, 0),
    (ToolsetProfile::OpenAi, false, 0),
    (ToolsetProfile::Codex, false, 0),
    (ToolsetProfile::ClaudeCode, false, 0),
    (ToolsetProfile::Gemini, false, 0),
    (ToolsetProfile::Copilot, false, 0),
    (ToolsetProfile::Copilot, true, 0),
];

/// Runs `cases` (id, category, case, diff) through every profile; prints the counts per
/// profile under `label` and fails when a profile is wrong more often than it may be.
fn score(label: &str, cases: &[(&str, &str, Case<'_>, &str)]) {
    let mut wrong = Vec::new();
    let mut over = Vec::new();
    for (profile, patch, allowed) in PROFILES {
        let form = if patch { " apply_patch" } else { "" };
        let mut counts = [0usize; 4];
        let mut skipped = 0;
        for (id, category, case, diff) in cases {
            let Some(blocks) = blocks(diff).filter(|_| *category != "marker_variants") else {
                skipped += 1;
                continue;
            };
            let verdict = run(profile, patch, case, &blocks);
            counts[verdict] += 1;
            if verdict == 2 {
                wrong.push(format!("{profile}{form}: {id} ({category})"));
            }
        }
        println!(
            "semantics native, {label}, {profile}{form}: {} correct, {} refused, {} wrong, {} with a \
             line ending or trailing whitespace of the file's own ({} skipped: marker variants)",
            counts[0], counts[1], counts[2], counts[3], skipped
        );
        if counts[2] > allowed {
            over.push(format!("{profile}{form}: {} wrong", counts[2]));
        }
    }
    let mut by: std::collections::BTreeMap<String, usize> = Default::default();
    for w in &wrong {
        let (profile, rest) = w.split_once(": ").unwrap_or(("", ""));
        let category = rest.split(" (").nth(1).unwrap_or("").trim_end_matches(')');
        *by.entry(format!("{profile} {category}")).or_default() += 1;
    }
    for (k, n) in &by {
        println!("  wrong: {k} x{n}");
    }
    assert!(over.is_empty(), "{over:?}: {wrong:?}");
}

/// Every `stride`th item (`HUNKLOOM_SEMANTICS_STRIDE`, default 3).
fn stride() -> usize {
    std::env::var("HUNKLOOM_SEMANTICS_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
}

/// A corpus row (v1 or v2, whose types differ but whose fields match) as [`score`] takes it.
macro_rules! scored {
    ($c:expr) => {{
        let c = $c;
        let case = Case {
            original: &c.original,
            want: c.expect.content.as_deref(),
            refuse: c.expect.refuse,
        };
        (c.id.as_str(), c.category.as_str(), case, c.diff.as_str())
    }};
}

#[test]
fn native_semantics_are_never_silently_wrong_on_the_robustness_corpus() {
    let cases = load_robustness();
    let cases: Vec<_> = cases.iter().step_by(stride()).map(|c| scored!(c)).collect();
    score("robustness", &cases);
}

#[test]
fn native_semantics_are_never_silently_wrong_on_the_rows_robustness_v2_adds() {
    let v1: std::collections::HashSet<String> =
        load_robustness().into_iter().map(|c| c.id).collect();
    let v2 = load_robustness_v2();
    let cases: Vec<_> = v2
        .iter()
        .filter(|c| !v1.contains(&c.id))
        .step_by(stride())
        .map(|c| scored!(c))
        .collect();
    score("robustness v2 rows", &cases);
}

#[test]
fn the_reference_names_stay_and_semantics_parse() {
    let dir = tempfile::tempdir().expect("tempdir");
    let native = ToolsetOptions::new().semantics(Semantics::Native);
    let t = Toolset::new(
        dir.path(),
        native.clone().profile(ToolsetProfile::Anthropic),
    )
    .expect("toolset");
    let names: Vec<String> = t.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["str_replace_editor", "str_replace_based_edit_tool"]);
    assert_eq!("native".parse::<Semantics>().ok(), Some(Semantics::Native));
    assert!("loose".parse::<Semantics>().is_err());
}

/// A toolset of `profile` with native semantics over a new directory holding `files`.
fn native_toolset(
    profile: ToolsetProfile,
    files: &[(&str, &[u8])],
) -> (tempfile::TempDir, std::path::PathBuf, Toolset) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("root");
    for (name, bytes) in files {
        std::fs::write(root.join(name), bytes).expect("write");
    }
    let options = ToolsetOptions::new()
        .profile(profile)
        .semantics(Semantics::Native);
    let toolset = Toolset::new(&root, options).expect("toolset");
    (dir, root, toolset)
}

#[test]
fn gemini_native_keeps_encodings_and_endings_and_names_every_place() {
    let (_dir, root, t) = native_toolset(
        ToolsetProfile::Gemini,
        &[
            ("l1.txt", b"caf\xe9 = 1\nx = 2\n"),
            ("crlf.py", b"a = 1\r\nb = 2\r\n"),
            ("twice.py", b"x = 1\ny = 2\nx = 1\n"),
        ],
    );
    let replace = |file: &str, old: &str, new: &str, all: bool| {
        let input = json!({"file_path": file, "instruction": "Edit.", "old_string": old,
            "new_string": new, "allow_multiple": all});
        t.call("replace", &input).expect("answered")
    };
    // A Latin-1 file stays Latin-1 (the CLI would write U+FFFD back as UTF-8).
    let r = replace("l1.txt", "x = 2", "x = 3", false);
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(
        std::fs::read(root.join("l1.txt")).unwrap(),
        b"caf\xe9 = 1\nx = 3\n"
    );
    // CRLF kept; a whole line placed though its indentation differs.
    let r = replace("crlf.py", "  b = 2", "  b = 3", false);
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(
        std::fs::read(root.join("crlf.py")).unwrap(),
        b"a = 1\r\nb = 3\r\n"
    );
    assert!(r.output.contains("(1 replacements)"), "{}", r.output);
    // Two places: refused with their lines; allow_multiple takes both.
    let r = replace("twice.py", "x = 1", "x = 0", false);
    assert_eq!((r.is_error, r.code.as_str()), (true, "multiple_matches"));
    assert!(r.output.contains("starting at lines 1, 3"), "{}", r.output);
    let r = replace("twice.py", "x = 1", "x = 0", true);
    assert!(r.output.contains("(2 replacements)"), "{}", r.output);
    assert_eq!(
        std::fs::read(root.join("twice.py")).unwrap(),
        b"x = 0\ny = 2\nx = 0\n"
    );
    // The same call again: already there, nothing written.
    let r = replace("crlf.py", "b = 2", "b = 3", false);
    assert!(
        !r.is_error && r.output.contains("already has this edit"),
        "{}",
        r.output
    );
    // Not there at all: the CLI's text.
    let r = replace("crlf.py", "c = 9", "c = 1", false);
    assert_eq!(r.code, "not_found");
    assert!(
        r.output.starts_with("Could not find an exact match"),
        "{}",
        r.output
    );
}

#[test]
fn copilot_native_replaces_all_items_or_none_and_reads_patches_natively() {
    let (_dir, root, t) = native_toolset(
        ToolsetProfile::Copilot,
        &[("a.py", b"x = 1\ny = 2\n"), ("b.py", b"p = 1\np = 1\n")],
    );
    let abs = |name: &str| root.join(name).display().to_string();
    let multi = |items: Value| {
        let input = json!({"explanation": "Edit.", "replacements": items});
        t.call("multi_replace_string_in_file", &input)
            .expect("answered")
    };
    // The second item is in two places: nothing is written, the item is named.
    let r = multi(json!([
        {"filePath": abs("a.py"), "oldString": "x = 1", "newString": "x = 5"},
        {"filePath": abs("b.py"), "oldString": "p = 1", "newString": "p = 2"},
    ]));
    assert_eq!((r.is_error, r.code.as_str()), (true, "multiple_matches"));
    assert!(r.output.starts_with("Replacement 2: "), "{}", r.output);
    assert_eq!(std::fs::read(root.join("a.py")).unwrap(), b"x = 1\ny = 2\n");
    // An item that would match the text an earlier item wrote is refused.
    let r = multi(json!([
        {"filePath": abs("a.py"), "oldString": "x = 1", "newString": "x = 1\nz = 3"},
        {"filePath": abs("a.py"), "oldString": "z = 3", "newString": "z = 4"},
    ]));
    assert_eq!(r.code, "invalid_operation", "{}", r.output);
    // Every item applies: both files written.
    let r = multi(json!([
        {"filePath": abs("a.py"), "oldString": "x = 1", "newString": "x = 5"},
        {"filePath": abs("a.py"), "oldString": "y = 2", "newString": "y = 6"},
        {"filePath": abs("b.py"), "oldString": "p = 1\np = 1", "newString": "p = 7"},
    ]));
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(std::fs::read(root.join("a.py")).unwrap(), b"x = 5\ny = 6\n");
    assert_eq!(std::fs::read(root.join("b.py")).unwrap(), b"p = 7\n");
    // apply_patch: the native reading, its refusal flagged as an error.
    std::fs::write(root.join("c.py"), "q = 1\nq = 1\n").unwrap();
    let patch = |body: &str| {
        json!({"explanation": "Edit.", "input": format!(
            "*** Begin Patch\n*** Update File: {}\n{body}*** End Patch\n", abs("c.py"))})
    };
    let r = t.call("apply_patch", &patch("-q = 1\n+q = 2\n")).unwrap();
    assert_eq!(
        (r.is_error, r.code.as_str()),
        (true, "multiple_matches"),
        "{}",
        r.output
    );
    let r = t
        .call("apply_patch", &patch(" q = 1\n-q = 1\n+q = 2\n"))
        .unwrap();
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(std::fs::read(root.join("c.py")).unwrap(), b"q = 1\nq = 2\n");
    // create_file refuses a file with content, creates a new one.
    let create = |name: &str| json!({"filePath": abs(name), "content": "new\n"});
    let r = t.call("create_file", &create("c.py")).unwrap();
    assert_eq!(r.code, "file_exists");
    let r = t.call("create_file", &create("d.py")).unwrap();
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(std::fs::read(root.join("d.py")).unwrap(), b"new\n");
}

#[test]
fn claude_code_native_refuses_overlapping_places_and_still_needs_a_read() {
    let (_dir, root, t) = native_toolset(
        ToolsetProfile::ClaudeCode,
        &[
            ("a.txt", b"a\nb\na\nb\na\n"),
            ("b.py", b"if x:\n    go()\n"),
        ],
    );
    let edit = |file: &str, old: &str, new: &str| {
        let input = json!({"file_path": file, "old_string": old, "new_string": new});
        t.call("Edit", &input).expect("answered")
    };
    assert_eq!(edit("a.txt", "a\nb\na", "c").code, "not_read");
    t.call("Read", &json!({"file_path": "a.txt"})).unwrap();
    // Claude Code's own rule counts one occurrence and takes it; two places overlap here.
    let r = edit("a.txt", "a\nb\na", "c");
    assert_eq!(r.code, "multiple_matches", "{}", r.output);
    assert!(r.output.contains("starting at lines 1, 3"), "{}", r.output);
    assert_eq!(
        std::fs::read(root.join("a.txt")).unwrap(),
        b"a\nb\na\nb\na\n"
    );
    // Lines indented differently are placed, re-indented.
    t.call("Read", &json!({"file_path": "b.py"})).unwrap();
    let r = edit("b.py", "go()", "stop()");
    assert!(!r.is_error, "{}", r.output);
    let r = edit("b.py", "  if x:\n      stop()", "  if y:\n      stop()");
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(
        std::fs::read(root.join("b.py")).unwrap(),
        b"if y:\n    stop()\n"
    );
}

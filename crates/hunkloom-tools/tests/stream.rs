//! `TextEditor::stream`: a call's argument JSON pushed in pieces gives what `call` gives, the
//! preview follows the edit while it streams, and text that is not a JSON object is an error
//! result.

use hunkloom_tools::{EditStream, EditorOptions, Profile, TextEditor, ToolResult};
use proptest::prelude::*;
use serde_json::{Value, json};

/// A root with `a.py` (`x = 1\ny = 2\nz = 3\n`) and an editor of `profile` over it.
fn setup(profile: Profile) -> (tempfile::TempDir, TextEditor, String) {
    let dir = tempfile::tempdir().expect("test setup");
    std::fs::write(dir.path().join("a.py"), "x = 1\ny = 2\nz = 3\n").expect("test setup");
    let root = dir.path().canonicalize().expect("test setup");
    let editor = TextEditor::new(&root, EditorOptions::new().profile(profile)).expect("test setup");
    let path = root.join("a.py").display().to_string();
    (dir, editor, path)
}

/// Pushes `pieces`, checking after each that the splices rebuild the preview; returns the
/// previews seen and the stream.
fn push_all(editor: &TextEditor, pieces: &[&str]) -> (Vec<Option<String>>, EditStream) {
    let mut stream = editor.stream();
    let mut rebuilt = String::new();
    let mut seen = Vec::new();
    for piece in pieces {
        stream.push(editor, piece).apply_to(&mut rebuilt);
        let preview = stream.preview().map(str::to_owned);
        assert_eq!(preview.as_deref().unwrap_or_default(), rebuilt);
        seen.push(preview);
    }
    (seen, stream)
}

fn file(dir: &tempfile::TempDir) -> String {
    std::fs::read_to_string(dir.path().join("a.py")).expect("test setup")
}

#[test]
fn new_str_streams_into_the_place_of_old_str() {
    let (dir, editor, path) = setup(Profile::Anthropic);
    let head = format!(
        r#"{{"command": "str_replace", "path": {path:?}, "old_str": "y = 2", "new_str": ""#
    );
    let (seen, stream) = push_all(&editor, &[&head, "y = ", "20", "0\\n# more", "\"}"]);
    assert_eq!(seen[0].as_deref(), Some("x = 1\n\nz = 3\n"));
    assert_eq!(seen[1].as_deref(), Some("x = 1\ny = \nz = 3\n"));
    assert_eq!(seen[3].as_deref(), Some("x = 1\ny = 200\n# more\nz = 3\n"));
    assert_eq!(seen[4].as_deref(), Some("x = 1\ny = 200\n# more\nz = 3\n"));
    assert_eq!(stream.command(), Some("str_replace"));
    assert_eq!(stream.path(), Some(path.as_str()));
    // Nothing is written before finish.
    assert_eq!(file(&dir), "x = 1\ny = 2\nz = 3\n");
    let result = stream.finish(&editor);
    assert!(!result.is_error, "{}", result.output);
    assert_eq!(file(&dir), "x = 1\ny = 200\n# more\nz = 3\n");
}

#[test]
fn keys_may_come_in_any_order() {
    let (_dir, editor, path) = setup(Profile::Native);
    editor
        .call(&json!({"command": "view", "path": "a.py"}))
        .expect("test setup");
    let _ = path;
    let text =
        r#"{"new_str": "w = 9", "old_str": "z = 3", "path": "a.py", "command": "str_replace"}"#;
    let (seen, stream) = push_all(&editor, &[&text[..20], &text[20..60], &text[60..]]);
    assert_eq!(seen[0], None);
    assert_eq!(seen[2].as_deref(), Some("x = 1\ny = 2\nw = 9\n"));
    assert!(!stream.finish(&editor).is_error);
}

#[test]
fn file_text_and_insertions_stream() {
    let (dir, editor, path) = setup(Profile::OpenHands);
    let new = dir.path().canonicalize().expect("test setup").join("b.txt");
    let head = format!(
        r#"{{"command": "create", "path": {:?}, "file_text": "one"#,
        new.display().to_string()
    );
    let (seen, stream) = push_all(&editor, &[&head, "\\ntwo", "\"}"]);
    assert_eq!(seen[0].as_deref(), Some("one"));
    assert_eq!(seen[1].as_deref(), Some("one\ntwo"));
    assert!(!stream.finish(&editor).is_error);
    assert_eq!(
        std::fs::read_to_string(&new).expect("test setup"),
        "one\ntwo"
    );

    let head =
        format!(r#"{{"command": "insert", "path": {path:?}, "insert_line": 1, "new_str": "a"#);
    let (seen, stream) = push_all(&editor, &[&head, "b", "\"}"]);
    assert_eq!(seen[1].as_deref(), Some("x = 1\naby = 2\nz = 3\n"));
    // Complete: exactly what the call leaves (the inserted line ends in a newline).
    assert_eq!(seen[2].as_deref(), Some("x = 1\nab\ny = 2\nz = 3\n"));
    let result = stream.finish(&editor);
    assert_eq!(
        result.new_content.as_deref(),
        Some("x = 1\nab\ny = 2\nz = 3\n")
    );
}

#[test]
fn view_undo_and_failing_calls_have_no_preview() {
    let (dir, editor, path) = setup(Profile::Anthropic);
    for input in [
        json!({"command": "view", "path": path}),
        json!({"command": "undo_edit", "path": path}),
        json!({"command": "str_replace", "path": path, "old_str": "nowhere", "new_str": "x"}),
        json!({"command": "insert", "path": path, "insert_line": 99, "new_str": "x"}),
        json!({"command": "create", "path": path, "file_text": "exists"}),
    ] {
        let text = input.to_string();
        let pieces: Vec<&str> = text.split_inclusive(',').collect();
        let (seen, stream) = push_all(&editor, &pieces);
        assert!(seen.iter().all(Option::is_none), "{input}: {seen:?}");
        let streamed = stream.finish(&editor);
        assert_eq!(streamed.is_error, input["command"] != "view", "{input}");
    }
    assert_eq!(file(&dir), "x = 1\ny = 2\nz = 3\n");
}

#[test]
fn text_that_is_not_a_json_object_is_an_error_result() {
    let (dir, editor, path) = setup(Profile::Anthropic);
    let whole = json!({"command": "str_replace", "path": path, "old_str": "y = 2", "new_str": "q"})
        .to_string();
    for text in [
        &whole[..whole.len() - 1],
        &whole[..whole.len() / 2],
        "",
        "[1, 2]",
        "{\"command\": \"view\", }",
        "{\"command\": \"view\"} trailing",
    ] {
        // A text cut off may still be a call in progress (its preview can stay); a broken one
        // has none.
        let (seen, stream) = push_all(&editor, &[text]);
        if !whole.starts_with(text) {
            assert_eq!(seen.last().cloned().flatten(), None, "{text}");
        }
        let result: ToolResult = stream.finish(&editor);
        assert!(result.is_error, "{text}");
        assert_eq!(result.code, "invalid_arguments", "{text}");
        assert!(
            result.output.starts_with("The tool call's arguments"),
            "{}",
            result.output
        );
    }
    // A stream whose preview was live and then broke loses it.
    let head = format!(
        r#"{{"command": "str_replace", "path": {path:?}, "old_str": "y = 2", "new_str": "q"#
    );
    let mut stream = editor.stream();
    stream.push(&editor, &head);
    assert!(stream.preview().is_some());
    let update = stream.push(&editor, "\"] junk");
    assert_eq!(update.inserted, "");
    assert_eq!(stream.preview(), None);
    assert_eq!(file(&dir), "x = 1\ny = 2\nz = 3\n");
}

#[test]
fn escapes_split_at_every_position_decode_as_whole() {
    let new = "caf\u{e9} \u{1F600} \"quoted\" back\\slash\ttab\nline";
    for ascii in [false, true] {
        let (dir, editor, path) = setup(Profile::Anthropic);
        let input =
            json!({"command": "str_replace", "path": path, "old_str": "z = 3", "new_str": new});
        let text = hunkloom_testkit::json_text(&input, ascii);
        let want = "x = 1\ny = 2\n".to_owned() + new + "\n";
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).skip(1).collect();
        for &cut in &bounds {
            let (seen, stream) = push_all(&editor, &[&text[..cut], &text[cut..]]);
            assert_eq!(seen[1].as_deref(), Some(want.as_str()), "cut at {cut}");
            drop(stream);
        }
        let (_, stream) = push_all(&editor, &[&text]);
        assert!(!stream.finish(&editor).is_error);
        assert_eq!(file(&dir), want);
    }
}

#[test]
fn crlf_files_get_crlf_while_streaming() {
    let (dir, editor, path) = setup(Profile::OpenHands);
    std::fs::write(dir.path().join("a.py"), "a\r\nb\r\n").expect("test setup");
    let head = format!(
        r#"{{"command": "str_replace", "path": {path:?}, "old_str": "a\nb", "new_str": "c\n"#
    );
    let (seen, stream) = push_all(&editor, &[&head, "d\"}"]);
    assert_eq!(seen[0].as_deref(), Some("c\r\n\r\n"));
    assert_eq!(seen[1].as_deref(), Some("c\r\nd\r\n"));
    assert!(!stream.finish(&editor).is_error);
    assert_eq!(file(&dir), "c\r\nd\r\n");
}

/// The result and the file after `input` made through `call`, and streamed in `pieces`.
fn both_ways(
    profile: Profile,
    input: &Value,
    cuts: &[usize],
) -> ((ToolResult, String), (ToolResult, String)) {
    let via_call = {
        let (dir, editor, path) = setup(profile);
        let input = with_path(input, &path);
        (
            rooted(editor.call(&input).expect("test setup"), &editor),
            file(&dir),
        )
    };
    let via_stream = {
        let (dir, editor, path) = setup(profile);
        let text = with_path(input, &path).to_string();
        let mut bounds: Vec<usize> = cuts
            .iter()
            .map(|c| c % (text.len() + 1))
            .filter(|&c| text.is_char_boundary(c))
            .collect();
        bounds.extend([0, text.len()]);
        bounds.sort_unstable();
        bounds.dedup();
        let pieces: Vec<&str> = bounds.windows(2).map(|w| &text[w[0]..w[1]]).collect();
        let (seen, stream) = push_all(&editor, &pieces);
        let result = stream.finish(&editor);
        if !result.is_error && result.new_content.is_some() {
            assert_eq!(seen.last().cloned().flatten(), result.new_content);
        }
        (rooted(result, &editor), file(&dir))
    };
    (via_call, via_stream)
}

/// `result` with the editor's root written `{root}` (each run has its own root).
fn rooted(mut result: ToolResult, editor: &TextEditor) -> ToolResult {
    let root = editor.root().display().to_string();
    result.output = result.output.replace(&root, "{root}");
    result.path = result.path.map(|p| p.replace(&root, "{root}"));
    result
}

fn with_path(input: &Value, path: &str) -> Value {
    let mut input = input.clone();
    input["path"] = Value::String(path.to_owned());
    input
}

fn a_call() -> impl Strategy<Value = Value> {
    let text = "[a-z =\\n\"\\\\\u{e9}\u{1F600}\t]{0,12}";
    prop_oneof![
        (
            prop::sample::select(vec!["x = 1", "y = 2\n", "z", "q", ""]),
            text
        )
            .prop_map(
                |(old, new)| json!({"command": "str_replace", "old_str": old, "new_str": new})
            ),
        (0i64..5, text).prop_map(
            |(line, new)| json!({"command": "insert", "insert_line": line, "new_str": new})
        ),
        Just(json!({"command": "view"})),
        Just(json!({"command": "view", "view_range": [1, 2]})),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_split_gives_what_call_gives(
        input in a_call(),
        cuts in prop::collection::vec(0usize..400, 0..12),
        profile in prop::sample::select(vec![Profile::Anthropic, Profile::OpenHands]),
    ) {
        let (called, streamed) = both_ways(profile, &input, &cuts);
        prop_assert_eq!(called, streamed);
    }
}

#[test]
fn toolset_calls_stream_too() {
    use hunkloom_tools::{Toolset, ToolsetOptions, ToolsetProfile};
    let dir = tempfile::tempdir().expect("test setup");
    std::fs::write(dir.path().join("a.py"), "x = 1\ny = 2\n").expect("test setup");
    let root = dir.path().canonicalize().expect("test setup");
    let path = root.join("a.py").display().to_string();
    let push_all = |toolset: &Toolset, tool: &str, text: &str| {
        let mut stream = toolset.stream(tool);
        assert_eq!(stream.tool(), tool);
        let mut rebuilt = String::new();
        for piece in text.split_inclusive(' ') {
            // Only a text-editor tool's pushes read or plan.
            if stream.push_may_read(toolset, piece) {
                assert!(
                    tool.contains("edit") || tool == "apply_diff",
                    "{tool} {piece:?}"
                );
            }
            stream.push(toolset, piece).apply_to(&mut rebuilt);
        }
        let preview = stream.preview().map(str::to_owned);
        assert_eq!(preview.as_deref().unwrap_or_default(), rebuilt);
        (preview, stream.finish(toolset))
    };

    // The anthropic set's newest editor: previewed.
    let anthropic = Toolset::new(
        &root,
        ToolsetOptions::new().profile(ToolsetProfile::Anthropic),
    )
    .expect("test setup");
    let call =
        json!({"command": "str_replace", "path": path, "old_str": "y = 2", "new_str": "y = 3"});
    let (preview, result) = push_all(&anthropic, "str_replace_based_edit_tool", &call.to_string());
    assert_eq!(preview.as_deref(), Some("x = 1\ny = 3\n"));
    assert!(!result.is_error, "{}", result.output);

    // A native tool that is not the editor: no preview, the same result as a call.
    let native = Toolset::new(&root, ToolsetOptions::new()).expect("test setup");
    native
        .call("read_file", &json!({"path": "a.py"}))
        .expect("test setup");
    let diff =
        json!({"path": "a.py", "diff": "<<<<<<< SEARCH\nx = 1\n=======\nx = 0\n>>>>>>> REPLACE\n"});
    let (preview, result) = push_all(&native, "apply_diff", &diff.to_string());
    assert_eq!(preview.as_deref(), Some("x = 0\ny = 3\n"));
    assert!(!result.is_error, "{}", result.output);
    assert_eq!(file(&dir), "x = 0\ny = 3\n");
    // read_file: no preview.
    let (preview, result) = push_all(&native, "read_file", r#"{"path": "a.py"}"#);
    assert_eq!((preview, result.is_error), (None, false));

    // An unknown tool and broken JSON are the toolset's error results.
    let (_, result) = push_all(&native, "no_such_tool", "{}");
    assert_eq!(result.code, "unknown_tool");
    let (_, result) = push_all(&native, "apply_diff", "{\"path\": ");
    assert_eq!(result.code, "invalid_arguments");
}

/// A native toolset over a root with `m.py`, read once (the set edits only what was read).
fn native_setup(text: &str) -> (tempfile::TempDir, hunkloom_tools::Toolset) {
    use hunkloom_tools::{Toolset, ToolsetOptions};
    let dir = tempfile::tempdir().expect("test setup");
    std::fs::write(dir.path().join("m.py"), text).expect("test setup");
    let toolset = Toolset::new(dir.path(), ToolsetOptions::new()).expect("test setup");
    toolset
        .call("read_file", &json!({"path": "m.py"}))
        .expect("test setup");
    (dir, toolset)
}

/// Streams the argument JSON `text` to the native set's `tool` one character at a time, checking that the
/// splices rebuild the preview after every push; returns the previews and the result.
fn stream_native(
    toolset: &hunkloom_tools::Toolset,
    tool: &str,
    text: &str,
) -> (Vec<Option<String>>, ToolResult) {
    let mut stream = toolset.stream(tool);
    let (mut rebuilt, mut seen) = (String::new(), Vec::new());
    let mut at = 0;
    for c in text.chars() {
        let piece = &text[at..at + c.len_utf8()];
        at += c.len_utf8();
        stream.push(toolset, piece).apply_to(&mut rebuilt);
        let preview = stream.preview().map(str::to_owned);
        assert_eq!(
            preview.as_deref().unwrap_or_default(),
            rebuilt,
            "after {piece:?}"
        );
        seen.push(preview);
    }
    (seen, stream.finish(toolset))
}

#[test]
fn a_native_apply_diff_streams_through_the_applier() {
    let original = "def a():\n    return 1\n\ndef b():\n    return 2\n";
    let (dir, toolset) = native_setup(original);
    let diff = "<<<<<<< SEARCH\n    return 1\n=======\n    return 10\n>>>>>>> REPLACE\n\
                <<<<<<< SEARCH\n    return 2\n=======\n    return 20\n>>>>>>> REPLACE\n";
    // The path first, as models send it.
    let input = format!(r#"{{"path": "m.py", "diff": {}}}"#, json!(diff));
    let (seen, result) = stream_native(&toolset, "apply_diff", &input);
    assert!(!result.is_error, "{}", result.output);
    let written = std::fs::read_to_string(dir.path().join("m.py")).expect("read");
    assert_eq!(
        written,
        "def a():\n    return 10\n\ndef b():\n    return 20\n"
    );
    // The file appears once the path is complete, the first block is applied before the
    // second streams, and the last preview is what the call wrote.
    assert!(seen.iter().any(|p| p.as_deref() == Some(original)));
    let first_only = "def a():\n    return 10\n\ndef b():\n    return 2\n";
    assert!(
        seen.iter().any(|p| p.as_deref() == Some(first_only)),
        "{seen:?}"
    );
    assert_eq!(
        seen.last().cloned().flatten().as_deref(),
        Some(written.as_str())
    );
    assert_eq!(result.new_content.as_deref(), Some(written.as_str()));
}

#[test]
fn a_native_apply_diff_that_will_fail_previews_nothing_at_the_end() {
    let (dir, toolset) = native_setup("x = 1\n");
    let diff = "<<<<<<< SEARCH\nnot there\n=======\ny\n>>>>>>> REPLACE\n";
    let (seen, result) = stream_native(
        &toolset,
        "apply_diff",
        &json!({"diff": diff, "path": "m.py"}).to_string(),
    );
    assert!(result.is_error);
    assert_eq!(seen.last().cloned().flatten(), None);
    let kept = std::fs::read_to_string(dir.path().join("m.py")).expect("read");
    assert_eq!(kept, "x = 1\n");
}

#[test]
fn a_native_apply_diff_on_crlf_and_an_apply_lazy_preview_what_they_write() {
    let (dir, toolset) = native_setup("a = 1\r\nb = 2\r\n");
    let diff = "<<<<<<< SEARCH\nb = 2\n=======\nb = 3\n>>>>>>> REPLACE\n";
    let (seen, result) = stream_native(
        &toolset,
        "apply_diff",
        &format!(r#"{{"path": "m.py", "diff": {}}}"#, json!(diff)),
    );
    assert!(!result.is_error, "{}", result.output);
    let written = std::fs::read_to_string(dir.path().join("m.py")).expect("read");
    assert_eq!(written, "a = 1\r\nb = 3\r\n");
    assert_eq!(
        seen.last().cloned().flatten().as_deref(),
        Some(written.as_str())
    );

    let (dir, toolset) = native_setup("def f():\n    return 1\n\n\ndef g():\n    return 2\n");
    let snippet = "def f():\n    x = 0\n    return 1\n# ... existing code ...\n";
    let (seen, result) = stream_native(
        &toolset,
        "apply_lazy",
        &json!({"path": "m.py", "snippet": snippet}).to_string(),
    );
    assert!(!result.is_error, "{}", result.output);
    let written = std::fs::read_to_string(dir.path().join("m.py")).expect("read");
    assert_eq!(
        seen[..seen.len() - 1].iter().flatten().count(),
        0,
        "only once complete"
    );
    assert_eq!(
        seen.last().cloned().flatten().as_deref(),
        Some(written.as_str())
    );
}

/// An `openai` toolset (`semantics`) over a root with `m.py` holding `text`.
fn openai_setup(
    text: &str,
    semantics: hunkloom_tools::Semantics,
) -> (tempfile::TempDir, hunkloom_tools::Toolset) {
    use hunkloom_tools::{Toolset, ToolsetOptions, ToolsetProfile};
    let dir = tempfile::tempdir().expect("test setup");
    std::fs::write(dir.path().join("m.py"), text).expect("test setup");
    let options = ToolsetOptions::new()
        .profile(ToolsetProfile::OpenAi)
        .semantics(semantics);
    let toolset = Toolset::new(dir.path(), options).expect("test setup");
    (dir, toolset)
}

#[test]
fn an_openai_operation_previews_each_section_as_it_is_placed() {
    use hunkloom_tools::Semantics;
    let original = "def a():\n    return 1\n\ndef b():\n    return 2\n";
    let first_only = "def a():\n    return 10\n\ndef b():\n    return 2\n";
    let both = "def a():\n    return 10\n\ndef b():\n    return 20\n";
    let diff =
        "@@ def a():\n-    return 1\n+    return 10\n@@ def b():\n-    return 2\n+    return 20\n";
    for semantics in [Semantics::Reference, Semantics::Native] {
        let (dir, toolset) = openai_setup(original, semantics);
        // The diff before the type and the path (`json!` orders keys by name): keys may come in
        // any order.
        let operation = json!({"diff": diff, "type": "update_file", "path": "m.py"});
        let input = json!({ "operation": operation }).to_string();
        let (seen, result) = stream_native(&toolset, "apply_patch", &input);
        assert!(!result.is_error, "{semantics:?}: {}", result.output);
        let written = std::fs::read_to_string(dir.path().join("m.py")).expect("read");
        assert_eq!(written, both, "{semantics:?}");
        let first = seen.iter().position(|p| p.is_some()).expect("a preview");
        assert_eq!(seen[first].as_deref(), Some(first_only), "{semantics:?}");
        assert_eq!(seen.last().cloned().flatten().as_deref(), Some(both));
        assert_eq!(result.new_content.as_deref(), Some(both));
        assert_eq!(result.old_content.as_deref(), Some(original));

        // The path first: the file shows at once, then each section as the line after it
        // arrives.
        let (_dir, toolset) = openai_setup(original, semantics);
        // (`json!` orders keys by name: written out, to keep this order.)
        let input = format!(
            r#"{{"operation": {{"type": "update_file", "path": "m.py", "diff": {}}}}}"#,
            json!(diff)
        );
        let mut stream = toolset.stream("apply_patch");
        let mut shown = Vec::new();
        for c in input.chars() {
            stream.push(&toolset, &c.to_string());
            shown.push(stream.preview().map(str::to_owned));
        }
        assert_eq!(stream.command(), Some("update_file"));
        assert_eq!(stream.path(), Some("m.py"));
        let order: Vec<&str> =
            shown
                .iter()
                .flatten()
                .map(String::as_str)
                .fold(Vec::new(), |mut order, p| {
                    if order.last() != Some(&p) {
                        order.push(p);
                    }
                    order
                });
        assert_eq!(order, [original, first_only, both], "{semantics:?}");
        assert!(!stream.finish(&toolset).is_error);
    }
}

#[test]
fn an_openai_create_streams_its_lines_and_a_failing_update_previews_nothing_at_the_end() {
    use hunkloom_tools::Semantics;
    for semantics in [Semantics::Reference, Semantics::Native] {
        let (dir, toolset) = openai_setup("x = 1\n", semantics);
        let input =
            r#"{"operation": {"type": "create_file", "path": "n.py", "diff": "+a = 1\n+b = 2\n"}}"#;
        let (seen, result) = stream_native(&toolset, "apply_patch", input);
        assert!(!result.is_error, "{semantics:?}: {}", result.output);
        let written = std::fs::read_to_string(dir.path().join("n.py")).expect("read");
        // The SDK joins a created file's lines without a final line ending.
        let first = match semantics {
            Semantics::Reference => "a = 1",
            _ => "a = 1\n",
        };
        assert!(
            seen.iter().any(|p| p.as_deref() == Some(first)),
            "{semantics:?}: the first line before the second: {seen:?}"
        );
        assert_eq!(seen.last().cloned().flatten(), Some(written));

        let input =
            r#"{"operation": {"type": "update_file", "path": "m.py", "diff": "-y = 2\n+y = 3\n"}}"#;
        let (seen, result) = stream_native(&toolset, "apply_patch", input);
        assert!(result.is_error, "{semantics:?}");
        assert_eq!(seen.last().cloned().flatten(), None);
        assert!(seen.iter().flatten().all(|p| p == "x = 1\n"));
        let kept = std::fs::read_to_string(dir.path().join("m.py")).expect("read");
        assert_eq!(kept, "x = 1\n");
    }
}

#[test]
fn a_native_apply_patch_previews_each_file_it_names_in_turn() {
    let a = "def a():\n    return 1\n";
    let b = "def b():\n    return 2\n";
    let (dir, toolset) = native_setup(a);
    std::fs::write(dir.path().join("n.py"), b).expect("test setup");
    toolset
        .call("read_file", &json!({"path": "n.py"}))
        .expect("test setup");
    let two = "*** Begin Patch\n*** Update File: m.py\n@@ def a():\n-    return 1\n+    return 10\n\
               *** Update File: n.py\n@@ def b():\n-    return 2\n+    return 20\n*** End Patch\n";
    let mut stream = toolset.stream("apply_patch");
    let (mut rebuilt, mut seen) = (String::new(), Vec::new());
    for c in json!({ "patch": two }).to_string().chars() {
        stream.push(&toolset, &c.to_string()).apply_to(&mut rebuilt);
        let preview = stream.preview().map(str::to_owned);
        assert_eq!(preview.as_deref().unwrap_or_default(), rebuilt);
        let now = (stream.path().map(str::to_owned), preview);
        if seen.last() != Some(&now) {
            seen.push(now);
        }
    }
    let file = |p: &str, t: &str| (Some(p.to_owned()), Some(t.to_owned()));
    assert_eq!(
        seen,
        [
            (None, None),
            file("m.py", a),
            // The next file's marker places m.py's section and switches to n.py at once.
            file("n.py", b),
            file("n.py", "def b():\n    return 20\n"),
            // Complete: a patch of two files has no one text to show.
            (None, None),
        ]
    );
    let result = stream.finish(&toolset);
    assert!(!result.is_error, "{}", result.output);
    assert_eq!(result.new_content, None);

    // One file: the preview settles on the text the call writes.
    let one = "*** Begin Patch\n*** Update File: m.py\n@@ def a():\n-    return 10\n+    return 11\n*** End Patch\n";
    let (seen, result) = stream_native(
        &toolset,
        "apply_patch",
        &json!({ "patch": one }).to_string(),
    );
    assert!(!result.is_error, "{}", result.output);
    let written = std::fs::read_to_string(dir.path().join("m.py")).expect("read");
    assert_eq!(written, "def a():\n    return 11\n");
    assert_eq!(seen.last().cloned().flatten(), Some(written.clone()));
    assert_eq!(result.new_content, Some(written));
    assert_eq!(result.path.as_deref(), Some("m.py"));
}

/// Every Codex patch scenario through the native set's `apply_patch` (its files read first),
/// made whole and streamed a character at a time and in random pieces: the same result and the
/// same files, splices that rebuild the preview, and a preview before finish that is the text
/// the call writes (a patch of one file) or none.
#[test]
fn native_apply_patch_streams_give_the_call_on_every_codex_scenario() {
    use hunkloom_testkit::codex::{Tree, read_scenario, scenario_dirs};
    use hunkloom_testkit::{Chunking, SEED};
    use hunkloom_tools::{Toolset, ToolsetOptions};
    let run = |input: &Tree, patch: &str, chunking: Option<Chunking>| {
        let dir = tempfile::tempdir().expect("test setup");
        input.write_to(dir.path());
        let toolset = Toolset::new(dir.path(), ToolsetOptions::new()).expect("test setup");
        for path in input.text_files().keys() {
            toolset
                .call("read_file", &json!({ "path": path }))
                .expect("test setup");
        }
        let text = json!({ "patch": patch }).to_string();
        let result = match chunking {
            None => toolset.call("apply_patch", &serde_json::from_str(&text).expect("JSON")),
            Some(chunking) => {
                let mut stream = toolset.stream("apply_patch");
                let mut rebuilt = String::new();
                for piece in chunking.split(&text) {
                    stream.push(&toolset, piece).apply_to(&mut rebuilt);
                    let preview = stream.preview().unwrap_or_default();
                    assert_eq!(preview, rebuilt, "the splices rebuild the preview");
                }
                let preview = stream.preview().map(str::to_owned);
                let result = stream.finish(&toolset);
                if preview.is_some() {
                    assert!(
                        !result.is_error && preview == result.new_content,
                        "{result:?}"
                    );
                }
                Ok(result)
            }
        }
        .expect("an object");
        (result, Tree::read(dir.path()))
    };
    let mut previewed = 0;
    for dir in scenario_dirs() {
        let scenario = read_scenario(&dir);
        let whole = run(&scenario.input, &scenario.patch, None);
        for chunking in [Chunking::Char, Chunking::Random(SEED)] {
            let streamed = run(&scenario.input, &scenario.patch, Some(chunking));
            assert_eq!(streamed, whole, "{} {chunking:?}", scenario.name);
        }
        previewed += usize::from(whole.0.new_content.is_some());
    }
    // Patches of one file that apply: their preview settled on what they wrote.
    assert!(previewed > 10, "{previewed}");
}

/// `{"command": "str_replace", "path", "old_str", "new_str"}` in the order models write it
/// (the schema's), each string JSON-escaped.
fn str_replace_json(path: &str, old: &str, new: &str) -> String {
    let q = |s: &str| Value::String(s.to_owned()).to_string();
    format!(
        r#"{{"command": "str_replace", "path": {}, "old_str": {}, "new_str": {}}}"#,
        q(path),
        q(old),
        q(new)
    )
}

#[test]
fn an_old_str_is_followed_while_it_streams() {
    // Pushed a character at a time with the path before `old_str`, the file is searched for
    // `old_str` while it streams (narrowing.rs): the edit is placed when it completes, exactly
    // where `call` puts it, and not placed when it occurs twice or not at all.
    let lf: String = (0..300)
        .map(|i| format!("    value = compute({i}, request)\n"))
        .collect();
    let crlf = lf.replace('\n', "\r\n");
    let cases: &[(&str, &str, bool)] = &[
        (&lf, "    value = compute(150, request)\n", true),
        (&lf, "    value = compute(15, request)\n    value", true),
        (&lf, "    value = compute(1", false),
        (&lf, "    value = compute(999, request)\n", false),
        (
            &crlf,
            "    value = compute(150, request)\n    value = compute(151",
            true,
        ),
        (
            &crlf,
            "    value = compute(150, request)\r\n    value = compute(151",
            true,
        ),
    ];
    for profile in [Profile::Anthropic, Profile::Native] {
        for &(text, old, placed) in cases {
            let run = |streamed: bool| {
                let dir = tempfile::tempdir().expect("test setup");
                std::fs::write(dir.path().join("a.py"), text).expect("test setup");
                let root = dir.path().canonicalize().expect("test setup");
                let editor = TextEditor::new(&root, EditorOptions::new().profile(profile))
                    .expect("test setup");
                let path = root.join("a.py").display().to_string();
                let json = str_replace_json(&path, old, "    changed = 1\n");
                let result = if streamed {
                    let bounds: Vec<usize> = (0..=json.len())
                        .filter(|&i| json.is_char_boundary(i))
                        .collect();
                    let pieces: Vec<&str> = bounds.windows(2).map(|w| &json[w[0]..w[1]]).collect();
                    let (seen, stream) = push_all(&editor, &pieces);
                    // The push that closes `old_str`'s quote places the edit, or does not.
                    let closed = json.find(r#", "new_str""#).expect("test setup");
                    let at = bounds
                        .iter()
                        .position(|&b| b == closed)
                        .expect("test setup");
                    assert_eq!(seen[at - 1].is_some(), placed, "{profile:?} {old:?}");
                    rooted(stream.finish(&editor), &editor)
                } else {
                    let input: Value = serde_json::from_str(&json).expect("test setup");
                    rooted(editor.call(&input).expect("test setup"), &editor)
                };
                let written = std::fs::read_to_string(dir.path().join("a.py")).expect("read");
                (result, written)
            };
            assert_eq!(run(true), run(false), "{profile:?} {old:?}");
        }
    }
}

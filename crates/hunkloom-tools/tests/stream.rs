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
        assert_eq!(stream.name(), tool);
        let mut rebuilt = String::new();
        for piece in text.split_inclusive(' ') {
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
    assert_eq!(preview, None);
    assert!(!result.is_error, "{}", result.output);
    assert_eq!(file(&dir), "x = 0\ny = 3\n");

    // An unknown tool and broken JSON are the toolset's error results.
    let (_, result) = push_all(&native, "no_such_tool", "{}");
    assert_eq!(result.code, "unknown_tool");
    let (_, result) = push_all(&native, "apply_diff", "{\"path\": ");
    assert_eq!(result.code, "invalid_arguments");
}

//! The `native` toolset: hunkloom's own tools (what `hunkloom mcp` serves by default), the
//! read-only option, and the files a call touches. One test per rule.

use std::path::Path;

use hunkloom_tools::{Profile, Toolset, ToolsetOptions, ToolsetProfile};
use serde_json::json;

fn names(toolset: &Toolset) -> Vec<String> {
    toolset.tools().into_iter().map(|t| t.name).collect()
}

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        std::fs::write(dir.path().join(path), text).expect("write");
    }
    dir
}

#[test]
fn native_is_the_default_and_serves_six_tools_with_titles_and_hints() {
    let dir = tree(&[]);
    let toolset = Toolset::new(dir.path(), ToolsetOptions::new()).expect("toolset");
    assert_eq!(toolset.profile(), ToolsetProfile::Native);
    assert_eq!(
        names(&toolset),
        [
            "str_replace_based_edit_tool",
            "apply_diff",
            "apply_lazy",
            "apply_patch",
            "read_file",
            "undo_edit"
        ]
    );
    let root = toolset.root().display().to_string();
    for tool in toolset.tools() {
        assert!(tool.title.is_some(), "{}", tool.name);
        assert_eq!(tool.read_only, tool.name == "read_file", "{}", tool.name);
        assert!(tool.description.contains(&root), "{}", tool.name);
        assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
    }
}

#[test]
fn the_workspace_tools_and_the_editor_share_the_root_but_not_their_reads() {
    let dir = tree(&[("a.txt", "one\r\ntwo\r\n")]);
    let t = Toolset::new(dir.path(), ToolsetOptions::new()).expect("toolset");
    let diff = "<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n";
    let edit = json!({"path": "a.txt", "diff": diff});
    assert_eq!(t.call("apply_diff", &edit).expect("call").code, "not_read");
    let read = t
        .call("read_file", &json!({"path": "a.txt"}))
        .expect("call");
    assert_eq!(read.output, "     1\tone\n     2\ttwo\n");
    let applied = t.call("apply_diff", &edit).expect("call");
    assert!(!applied.is_error, "{}", applied.output);
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"one\r\n2\r\n"
    );
    // The editor has not viewed the file: its edit is refused, not applied blindly.
    let by_editor =
        json!({"command": "str_replace", "path": "a.txt", "old_str": "2", "new_str": "3"});
    let r = t
        .call("str_replace_based_edit_tool", &by_editor)
        .expect("call");
    assert_eq!(r.code, "not_read", "{}", r.output);
    let undone = t
        .call("undo_edit", &json!({"path": "a.txt"}))
        .expect("call");
    assert!(!undone.is_error, "{}", undone.output);
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"one\r\ntwo\r\n"
    );
    // A mistake in the arguments is a refusal with a code.
    let r = t
        .call("read_file", &json!({"file_path": "a.txt"}))
        .expect("call");
    assert_eq!((r.is_error, r.code.as_str()), (true, "invalid_parameter"));
}

#[test]
fn read_only_lists_the_reading_tools_and_refuses_the_others() {
    let dir = tree(&[("a.txt", "a\n")]);
    let options = ToolsetOptions::new().read_only(true);
    let t = Toolset::new(dir.path(), options).expect("toolset");
    assert_eq!(names(&t), ["read_file"]);
    assert_eq!(
        t.call("read_file", &json!({"path": "a.txt"}))
            .expect("call")
            .output,
        "     1\ta\n"
    );
    for (tool, input) in [
        ("apply_diff", json!({"path": "a.txt", "diff": ""})),
        (
            "str_replace_based_edit_tool",
            json!({"command": "create", "path": "b.txt", "file_text": "b"}),
        ),
        (
            "apply_patch",
            json!({"patch": "*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch"}),
        ),
    ] {
        let r = t.call(tool, &input).expect("call");
        assert_eq!((r.is_error, r.code.as_str()), (true, "read_only"), "{tool}");
        assert_eq!(
            r.output,
            format!("{tool} is not available: the tools are read-only.")
        );
    }
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"a\n"
    );
    assert!(!dir.path().join("b.txt").exists());

    // Other profiles keep their reading tools; a profile whose tools all write keeps none.
    let gemini = ToolsetOptions::new()
        .profile(ToolsetProfile::Gemini)
        .read_only(true);
    assert_eq!(
        names(&Toolset::new(dir.path(), gemini).expect("toolset")),
        ["read_file"]
    );
    let claude = ToolsetOptions::new()
        .profile(ToolsetProfile::ClaudeCode)
        .read_only(true);
    assert_eq!(
        names(&Toolset::new(dir.path(), claude).expect("toolset")),
        ["Read"]
    );
    let openai = ToolsetOptions::new()
        .profile(ToolsetProfile::OpenAi)
        .read_only(true);
    let openai = Toolset::new(dir.path(), openai).expect("toolset");
    assert!(names(&openai).is_empty());
    let r = openai
        .call(
            "apply_patch",
            &json!({"operation": {"type": "delete_file", "path": "a.txt"}}),
        )
        .expect("call");
    assert_eq!(r.code, "read_only");
    assert!(dir.path().join("a.txt").exists());
}

#[test]
fn the_editor_can_answer_as_anthropics_newest_tool() {
    let dir = tree(&[("a.txt", "abcdef\nghijkl\n")]);
    let root = dir.path().canonicalize().expect("root");
    let options = ToolsetOptions::new()
        .editor(Profile::Anthropic)
        .max_characters(10);
    let t = Toolset::new(&root, options).expect("toolset");
    let tools = t.tools();
    assert_eq!(tools[0].name, "str_replace_based_edit_tool");
    let commands = &tools[0].input_schema["properties"]["command"]["enum"];
    assert_eq!(
        commands,
        &json!(["view", "create", "str_replace", "insert"])
    );
    let path = root.join("a.txt");
    let view = t
        .call(
            "str_replace_based_edit_tool",
            &json!({"command": "view", "path": path}),
        )
        .expect("call");
    assert!(
        view.output
            .contains("     1\tabcdef\n     2\tghi<response clipped>"),
        "{}",
        view.output
    );
    let undo = t
        .call(
            "str_replace_based_edit_tool",
            &json!({"command": "undo_edit", "path": path}),
        )
        .expect("call");
    assert_eq!(undo.code, "unknown_command");
    assert!(
        undo.output.starts_with("Unrecognized command undo_edit."),
        "{}",
        undo.output
    );
}

#[test]
fn files_name_the_resolved_target_or_any_file() {
    let dir = tree(&[("a.txt", "a\n")]);
    let t = Toolset::new(dir.path(), ToolsetOptions::new()).expect("toolset");
    let a = t.root().join("a.txt");
    let files = |name: &str, input: serde_json::Value| t.files(name, &input);
    assert_eq!(
        files("read_file", json!({"path": "a.txt"})),
        Some(vec![a.clone()])
    );
    assert_eq!(
        files("apply_diff", json!({"path": "./sub/../a.txt"})),
        Some(vec![a.clone()])
    );
    assert_eq!(files("apply_patch", json!({"patch": "..."})), None);
    assert_eq!(files("read_file", json!({})), None);

    let gemini = ToolsetOptions::new().profile(ToolsetProfile::Gemini);
    let g = Toolset::new(dir.path(), gemini).expect("toolset");
    let input = json!({"file_path": Path::new("x").join("..").join("a.txt")});
    assert_eq!(
        g.files("replace", &input),
        Some(vec![g.root().join("a.txt")])
    );
    let codex = ToolsetOptions::new().profile(ToolsetProfile::Codex);
    let c = Toolset::new(dir.path(), codex).expect("toolset");
    assert_eq!(c.files("exec_command", &json!({"cmd": "ls"})), None);
}

//! The `anthropic` toolset's second tool, `str_replace_based_edit_tool` (Anthropic's
//! text_editor_20250728, the demo's `EditTool20250429` under that name): one test per rule.

use hunkloom_tools::{Toolset, ToolsetOptions, ToolsetProfile};
use serde_json::json;

const NOTICE: &str = "<response clipped><NOTE>To save on context only part of this file has been shown to you. You should retry this tool after you have searched inside the file with `grep -n` in order to find the line numbers of what you are looking for.</NOTE>";

fn setup(options: ToolsetOptions) -> (tempfile::TempDir, std::path::PathBuf, Toolset) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("root");
    let toolset = Toolset::new(&root, options.profile(ToolsetProfile::Anthropic)).expect("toolset");
    (dir, root, toolset)
}

#[test]
fn both_tools_are_declared_and_the_newest_has_no_undo_edit() {
    let (_dir, _root, toolset) = setup(ToolsetOptions::new());
    let tools = toolset.tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["str_replace_editor", "str_replace_based_edit_tool"]);
    let commands = |i: usize| tools[i].input_schema["properties"]["command"]["enum"].clone();
    assert_eq!(
        commands(0),
        json!(["view", "create", "str_replace", "insert", "undo_edit"])
    );
    assert_eq!(
        commands(1),
        json!(["view", "create", "str_replace", "insert"])
    );
}

#[test]
fn undo_edit_is_an_unrecognized_command_of_the_newest_tool() {
    let (_dir, root, toolset) = setup(ToolsetOptions::new());
    let path = root.join("a.txt");
    std::fs::write(&path, "x\n").expect("write");
    let input = json!({"command": "undo_edit", "path": path});
    let r = toolset
        .call("str_replace_based_edit_tool", &input)
        .expect("call");
    assert!(r.is_error);
    assert_eq!(r.code, "unknown_command");
    assert_eq!(
        r.output,
        "Unrecognized command undo_edit. The allowed commands for the str_replace_based_edit_tool \
         tool are: view, create, str_replace, insert"
    );
    // The path is checked first, as the reference validates it before the command.
    let missing = json!({"command": "undo_edit", "path": root.join("nope.txt")});
    let r = toolset
        .call("str_replace_based_edit_tool", &missing)
        .expect("call");
    assert!(r.output.starts_with("The path "), "{}", r.output);
    // The older tool still takes edits back.
    let edit = json!({"command": "str_replace", "path": path, "old_str": "x", "new_str": "y"});
    assert!(
        !toolset
            .call("str_replace_editor", &edit)
            .expect("call")
            .is_error
    );
    let undo = toolset.call("str_replace_editor", &input).expect("call");
    assert!(!undo.is_error, "{}", undo.output);
    assert_eq!(std::fs::read_to_string(&path).expect("read"), "x\n");
}

#[test]
fn max_characters_cuts_a_view_with_the_notice() {
    let (_dir, root, toolset) = setup(ToolsetOptions::new().max_characters(10));
    let path = root.join("a.txt");
    std::fs::write(&path, "abcdef\nghijkl\nmnop\n").expect("write");
    let r = toolset
        .call(
            "str_replace_based_edit_tool",
            &json!({"command": "view", "path": path}),
        )
        .expect("call");
    assert!(!r.is_error);
    assert_eq!(
        r.output,
        format!(
            "Here's the result of running `cat -n` on {}:\n     1\tabcdef\n     2\tghi{NOTICE}\n",
            path.display()
        )
    );
}

#[test]
fn without_max_characters_a_view_shows_16000_characters() {
    let (_dir, root, toolset) = setup(ToolsetOptions::new());
    let path = root.join("big.txt");
    let line = "0123456789".repeat(9) + "\n";
    std::fs::write(&path, line.repeat(200)).expect("write");
    for tool in ["str_replace_editor", "str_replace_based_edit_tool"] {
        let r = toolset
            .call(tool, &json!({"command": "view", "path": path}))
            .expect("call");
        assert!(r.output.ends_with(&format!("{NOTICE}\n")), "{tool}");
        let shown: usize = r
            .output
            .lines()
            .skip(1)
            .map(|l| l.split_once('\t').map_or(0, |(_, t)| t.chars().count() + 1))
            .sum();
        // 16,000 characters of the file (the notice is on the last line).
        assert_eq!(shown - NOTICE.chars().count() - 1, 16_000, "{tool}");
    }
}

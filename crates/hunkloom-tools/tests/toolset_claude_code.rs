//! The `claude-code` toolset, one test per rule (there is no public reference code; the rules
//! are in `toolset/claude_code.rs`).

use hunkloom_tools::{ToolResult, Toolset, ToolsetOptions, ToolsetProfile};
use serde_json::{Value, json};

struct Agent {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    tools: Toolset,
}

impl Agent {
    fn new(files: &[(&str, &str)]) -> Agent {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("root");
        for (path, text) in files {
            std::fs::write(root.join(path), text).expect("write");
        }
        let tools = Toolset::new(
            &root,
            ToolsetOptions::new().profile(ToolsetProfile::ClaudeCode),
        )
        .expect("toolset");
        Agent {
            _dir: dir,
            root,
            tools,
        }
    }

    fn path(&self, rel: &str) -> String {
        self.root.join(rel).to_string_lossy().into_owned()
    }

    fn call(&self, tool: &str, input: Value) -> ToolResult {
        self.tools.call(tool, &input).expect("call")
    }

    fn file(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root.join(rel)).expect("read")
    }
}

#[test]
fn the_tools_are_read_write_edit_and_multi_edit() {
    let agent = Agent::new(&[]);
    let names: Vec<String> = agent.tools.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["Read", "Write", "Edit", "MultiEdit"]);
}

#[test]
fn read_numbers_lines_with_an_arrow_and_takes_offset_and_limit() {
    let agent = Agent::new(&[("a.py", "one\ntwo\nthree\n"), ("empty.txt", "")]);
    let all = agent.call("Read", json!({"file_path": agent.path("a.py")}));
    assert_eq!(all.output, "     1→one\n     2→two\n     3→three\n");
    let part = agent.call(
        "Read",
        json!({"file_path": "a.py", "offset": 2, "limit": 1}),
    );
    assert_eq!(part.output, "     2→two\n");
    let past = agent.call("Read", json!({"file_path": "a.py", "offset": 9}));
    assert!(
        past.output
            .contains("shorter than the provided offset (9). The file has 3 lines.")
    );
    let empty = agent.call("Read", json!({"file_path": "empty.txt"}));
    assert!(
        empty
            .output
            .contains("the file exists but the contents are empty")
    );
    let missing = agent.call("Read", json!({"file_path": "nope.py"}));
    assert_eq!(
        (missing.is_error, missing.output.as_str()),
        (true, "File does not exist.")
    );
}

#[test]
fn an_edit_needs_a_read_first() {
    let agent = Agent::new(&[("a.py", "x = 1\n")]);
    let r = agent.call(
        "Edit",
        json!({"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}),
    );
    assert!(r.is_error);
    assert_eq!(r.code, "not_read");
    assert_eq!(
        r.output,
        "File has not been read yet. Read it first before writing to it."
    );
    assert_eq!(agent.file("a.py"), "x = 1\n");
}

#[test]
fn an_edit_replaces_one_occurrence_and_says_where() {
    let agent = Agent::new(&[("a.py", "a\nb\nc\n")]);
    agent.call("Read", json!({"file_path": "a.py"}));
    let r = agent.call(
        "Edit",
        json!({"file_path": "a.py", "old_string": "b", "new_string": "B"}),
    );
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(
        r.output,
        "The file a.py has been updated. Here's the result of running `cat -n` on a snippet of \
         the edited file:\n     1→a\n     2→B\n     3→c\n"
    );
    assert_eq!(agent.file("a.py"), "a\nB\nc\n");
}

#[test]
fn an_edit_that_matches_nowhere_or_twice_is_refused_with_claude_codes_texts() {
    let agent = Agent::new(&[("a.py", "x\nx\n")]);
    agent.call("Read", json!({"file_path": "a.py"}));
    let none = agent.call(
        "Edit",
        json!({"file_path": "a.py", "old_string": "y", "new_string": "z"}),
    );
    assert_eq!(
        none.output,
        "String to replace not found in file.\nString: y"
    );
    let twice = agent.call(
        "Edit",
        json!({"file_path": "a.py", "old_string": "x", "new_string": "z"}),
    );
    assert!(
        twice
            .output
            .starts_with("Found 2 matches of the string to replace, but replace_all is false."),
        "{}",
        twice.output
    );
    let same = agent.call(
        "Edit",
        json!({"file_path": "a.py", "old_string": "x", "new_string": "x"}),
    );
    assert_eq!(
        same.output,
        "No changes to make: old_string and new_string are exactly the same."
    );
    assert_eq!(agent.file("a.py"), "x\nx\n");
}

#[test]
fn replace_all_replaces_every_occurrence() {
    let agent = Agent::new(&[("a.py", "x\nx\n")]);
    agent.call("Read", json!({"file_path": "a.py"}));
    let r = agent.call(
        "Edit",
        json!({"file_path": "a.py", "old_string": "x", "new_string": "y", "replace_all": true}),
    );
    assert_eq!(
        r.output,
        "The file a.py has been updated. All occurrences of 'x' were successfully replaced with 'y'."
    );
    assert_eq!(agent.file("a.py"), "y\ny\n");
}

#[test]
fn typographic_quotes_in_old_string_match_straight_ones() {
    let agent = Agent::new(&[("a.py", "print('hi')\n")]);
    agent.call("Read", json!({"file_path": "a.py"}));
    let r = agent.call("Edit", json!({"file_path": "a.py", "old_string": "print(\u{2018}hi\u{2019})", "new_string": "print('hello')"}));
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(agent.file("a.py"), "print('hello')\n");
}

#[test]
fn an_empty_old_string_creates_a_file_without_a_read() {
    let agent = Agent::new(&[]);
    let r = agent.call(
        "Edit",
        json!({"file_path": "new.py", "old_string": "", "new_string": "x = 1\n"}),
    );
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(agent.file("new.py"), "x = 1\n");
}

#[test]
fn a_file_changed_since_the_read_is_merged_around_the_edit_or_refused() {
    let agent = Agent::new(&[("a.py", "a\nb\nc\nd\ne\nf\n")]);
    agent.call("Read", json!({"file_path": "a.py"}));
    // The user changes a line far from the edit: merged.
    std::fs::write(agent.root.join("a.py"), "a\nb\nc\nd\ne\nF\n").expect("write");
    let r = agent.call(
        "Edit",
        json!({"file_path": "a.py", "old_string": "a\n", "new_string": "A\n"}),
    );
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(agent.file("a.py"), "A\nb\nc\nd\ne\nF\n");
    // A Write over a file changed since: refused with Claude Code's text.
    std::fs::write(agent.root.join("a.py"), "changed\n").expect("write");
    let w = agent.call("Write", json!({"file_path": "a.py", "content": "mine\n"}));
    assert_eq!(
        (w.code.as_str(), w.output.as_str()),
        (
            "stale_file",
            "File has been modified since read, either by the user or by a linter. Read it again before attempting to write it."
        )
    );
    assert_eq!(agent.file("a.py"), "changed\n");
}

#[test]
fn multi_edit_applies_in_order_each_on_the_last_result_all_or_none() {
    let agent = Agent::new(&[("a.py", "x = 1\ny = 2\n")]);
    agent.call("Read", json!({"file_path": "a.py"}));
    let r = agent.call(
        "MultiEdit",
        json!({"file_path": "a.py", "edits": [
            {"old_string": "x = 1", "new_string": "x = 10"},
            {"old_string": "x = 10\ny", "new_string": "x = 10\nz"}
        ]}),
    );
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(agent.file("a.py"), "x = 10\nz = 2\n");
    assert!(
        r.output
            .starts_with("Applied 2 edits to a.py:\n1. Replaced \"x = 1\" with \"x = 10\""),
        "{}",
        r.output
    );
    // A failing second edit leaves the file as it was.
    agent.call("Read", json!({"file_path": "a.py"}));
    let bad = agent.call(
        "MultiEdit",
        json!({"file_path": "a.py", "edits": [
            {"old_string": "z = 2", "new_string": "z = 3"},
            {"old_string": "nowhere", "new_string": "x"}
        ]}),
    );
    assert!(bad.is_error);
    assert_eq!(agent.file("a.py"), "x = 10\nz = 2\n");
}

#[test]
fn multi_edit_refuses_an_edit_inside_an_earlier_new_string() {
    let agent = Agent::new(&[("a.py", "a\n")]);
    agent.call("Read", json!({"file_path": "a.py"}));
    let r = agent.call(
        "MultiEdit",
        json!({"file_path": "a.py", "edits": [
            {"old_string": "a", "new_string": "abc"},
            {"old_string": "bc", "new_string": "x"}
        ]}),
    );
    assert!(
        r.output.starts_with(
            "Cannot edit file: old_string is a substring of a new_string from a previous edit."
        ),
        "{}",
        r.output
    );
    assert_eq!(agent.file("a.py"), "a\n");
}

#[test]
fn write_creates_or_after_a_read_replaces() {
    let agent = Agent::new(&[("a.py", "old\n")]);
    let created = agent.call(
        "Write",
        json!({"file_path": "dir/new.py", "content": "x\n"}),
    );
    assert_eq!(created.output, "File created successfully at: dir/new.py");
    let unread = agent.call("Write", json!({"file_path": "a.py", "content": "new\n"}));
    assert_eq!(unread.code, "not_read");
    agent.call("Read", json!({"file_path": "a.py"}));
    let replaced = agent.call("Write", json!({"file_path": "a.py", "content": "new\n"}));
    assert!(
        replaced
            .output
            .starts_with("The file a.py has been updated."),
        "{}",
        replaced.output
    );
    assert_eq!(agent.file("a.py"), "new\n");
}

#[test]
fn paths_stay_inside_the_root() {
    let agent = Agent::new(&[]);
    let r = agent.call("Read", json!({"file_path": "/etc/hostname"}));
    assert_eq!(r.code, "path_outside_root");
    let up = agent.call(
        "Write",
        json!({"file_path": "../escape.txt", "content": "x"}),
    );
    assert!(up.is_error);
    assert!(!agent.root.join("../escape.txt").exists());
}

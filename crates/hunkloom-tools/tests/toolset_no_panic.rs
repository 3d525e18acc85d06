//! Every toolset profile answers any input without a panic: random files and random calls
//! (tool names, texts made of the characters the matchers treat specially, wrong JSON types)
//! give a result, never an `Err` or a panic.

use hunkloom_tools::{Toolset, ToolsetOptions, ToolsetProfile};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Short texts over line breaks, indentation, quotes, dashes, markers and non-ASCII.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop::sample::select(vec![
            "a",
            "b",
            " ",
            "\t",
            "\n",
            "\r\n",
            "\r",
            "x = 1",
            "  y",
            "\u{201c}",
            "\u{2014}",
            "é",
            "😀",
            "\\t",
            "\\n",
            "@@",
            "+",
            "-",
            "*** End of File",
            "*** Begin Patch",
            "*** Update File: /w/a.txt",
            "*** Add File: ",
            "rest of code ...",
            "<<<<<<< SEARCH",
            "=======",
            "\u{feff}",
            "\u{2028}",
        ]),
        0..12,
    )
    .prop_map(|parts| parts.concat())
}

/// A value of any JSON type, mostly a text.
fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => text().prop_map(Value::String),
        1 => Just(Value::Null),
        1 => any::<i32>().prop_map(|n| json!(n)),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(json!([])),
    ]
}

/// A call: the tool and the parts its input is built from.
type Call = (&'static str, Value, Value, Value, &'static str, bool);

fn call() -> impl Strategy<Value = Call> {
    (
        prop::sample::select(vec![
            "replace",
            "write_file",
            "read_file",
            "replace_string_in_file",
            "multi_replace_string_in_file",
            "apply_patch",
            "create_file",
            "Read",
            "Write",
            "Edit",
            "MultiEdit",
        ]),
        value(),
        value(),
        value(),
        prop::sample::select(vec!["a.txt", "b.py", "dir/c.md", "nope", ""]),
        any::<bool>(),
    )
}

/// The input of `call` over `root`: every tool's parameters at once (each reads its own).
fn input(root: &str, (_, old, new, content, file, absolute): &Call) -> Value {
    let path = if *absolute {
        format!("{root}/{file}")
    } else {
        (*file).to_owned()
    };
    let body = content.as_str().unwrap_or_default();
    json!({
        "file_path": path, "filePath": path, "instruction": "do it",
        "old_string": old, "new_string": new, "oldString": old, "newString": new,
        "content": content, "explanation": "x",
        "input": format!("*** Begin Patch\n*** Update File: {path}\n@@\n{body}\n*** End Patch"),
        "replacements": [{"filePath": path, "oldString": old, "newString": new}],
        "edits": [{"old_string": old, "new_string": new}],
        "start_line": 1, "offset": 1
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn no_profile_panics(files in proptest::collection::vec(text(), 3), calls in proptest::collection::vec(call(), 6)) {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("root");
        std::fs::create_dir_all(root.join("dir")).expect("dir");
        for (name, body) in ["a.txt", "b.py", "dir/c.md"].iter().zip(&files) {
            std::fs::write(root.join(name), body).expect("write");
        }
        let root_s = root.to_string_lossy().into_owned();
        for profile in [ToolsetProfile::Gemini, ToolsetProfile::Copilot, ToolsetProfile::ClaudeCode] {
            let toolset = Toolset::new(&root, ToolsetOptions::new().profile(profile)).expect("toolset");
            for c in &calls {
                let result = toolset.call(c.0, &input(&root_s, c));
                prop_assert!(result.is_ok(), "{} {}: {:?}", profile, c.0, result);
            }
        }
    }
}

//! The text-editor tool (`crates/hunkloom-tools`) on a temporary directory, fed arbitrary
//! tool-call inputs in every profile: a sequence of JSON objects (well-formed or not, any
//! command, any argument types, paths in and out of the root), each answered with a result
//! or refused as a host's misuse, never a panic; a result that is an error carries a code,
//! and nothing is ever written outside the root.

#![no_main]

use arbitrary::Arbitrary;
use hunkloom_tools::{EditorOptions, Profile, TextEditor};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

#[derive(Arbitrary, Debug)]
enum Arg<'a> {
    Str(&'a str),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
    List(Vec<i64>),
    Raw(&'a str),
}

#[derive(Arbitrary, Debug)]
struct Call<'a> {
    command: u8,
    args: Vec<(u8, Arg<'a>)>,
    /// Arbitrary text tried as a whole JSON input.
    raw: Option<&'a str>,
}

const COMMANDS: [&str; 7] = ["view", "create", "str_replace", "insert", "undo_edit", "delete", "x"];
const KEYS: [&str; 9] = [
    "path", "file_text", "old_str", "new_str", "insert_line", "view_range", "command",
    "insert_text", "new_path",
];
const PATHS: [&str; 6] = ["a.txt", "sub/b.py", "../escape.txt", "/etc/passwd", "", "sub"];

fn value(arg: Arg<'_>, key: &str) -> Value {
    match arg {
        Arg::Str(s) if key == "path" && s.len() < 2 => Value::from(PATHS[s.len() % PATHS.len()]),
        Arg::Str(s) => Value::from(s),
        Arg::Int(i) => Value::from(i),
        Arg::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        Arg::Bool(b) => Value::from(b),
        Arg::Null => Value::Null,
        Arg::List(v) => Value::from(v),
        Arg::Raw(s) => serde_json::from_str(s).unwrap_or(Value::Null),
    }
}

fuzz_target!(|input: (u8, Vec<Call<'_>>)| {
    let (profile, calls) = input;
    let outer = tempfile::tempdir().expect("tempdir");
    let root = outer.path().join("root");
    std::fs::create_dir_all(root.join("sub")).expect("mkdir");
    std::fs::write(root.join("a.txt"), "one\ntwo\nthree\n").expect("write");
    std::fs::write(outer.path().join("escape.txt"), "outside\n").expect("write");
    let profile = Profile::ALL[usize::from(profile) % Profile::ALL.len()];
    let editor = TextEditor::new(&root, EditorOptions::new().profile(profile)).expect("open");
    for call in calls.into_iter().take(16) {
        let input = match call.raw {
            Some(raw) => serde_json::from_str(raw).unwrap_or(Value::Null),
            None => {
                let mut map = Map::new();
                map.insert(
                    "command".into(),
                    Value::from(COMMANDS[usize::from(call.command) % COMMANDS.len()]),
                );
                for (k, arg) in call.args.into_iter().take(6) {
                    let key = KEYS[usize::from(k) % KEYS.len()];
                    map.insert(key.into(), value(arg, key));
                }
                Value::Object(map)
            }
        };
        match editor.call(&input) {
            Ok(result) => assert!(!result.is_error || !result.code.is_empty(), "{result:?}"),
            Err(e) => assert!(!e.code().is_empty()),
        }
    }
    assert_eq!(
        std::fs::read(outer.path().join("escape.txt")).expect("read"),
        b"outside\n",
        "a file outside the root changed"
    );
});

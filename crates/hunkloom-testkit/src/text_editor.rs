//! The text-editor tool corpora (`tests/vectors/text-editor/`, format in its `README.md`): a
//! file tree, a sequence of tool calls, and after each call the exact output, the error flag and
//! the whole tree.
//!
//! [`TextEditorCase`] is one record; [`materialize`] writes its tree into a fresh root whose path
//! has no component starting with `.` (which would hide everything from the Anthropic listing)
//! and no space; [`read_tree`] reads every regular file under a root back, hidden ones included;
//! [`with_root`] and [`without_root`] swap the `{root}` placeholder.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

/// The corpora, relative to [`vectors_dir`](crate::vectors_dir), in the order runners print them.
pub const TEXT_EDITOR_CORPORA: &[&str] = &[
    "text-editor/anthropic.jsonl",
    "text-editor/anthropic-crashes.jsonl",
    "text-editor/anthropic-differences.jsonl",
    "text-editor/openhands.jsonl",
    "text-editor/openhands-crashes.jsonl",
    "text-editor/openhands-differences.jsonl",
    "text-editor/openhands-non-utf8.jsonl",
];

/// The placeholder for the root directory in inputs and outputs.
pub const ROOT: &str = "{root}";

/// Which part of the corpus a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorpusSet {
    /// The byte-exact main set.
    Main,
    /// Main-set cases where the reference crashed at [`TextEditorCase::crash_call`].
    Crashes,
    /// Cases on tabs, line endings, BOMs, legacy encodings: hunkloom differs on purpose.
    Differences,
}

impl CorpusSet {
    /// The set of the corpus file `name`.
    pub fn of(name: &str) -> CorpusSet {
        if name.ends_with("-crashes.jsonl") {
            CorpusSet::Crashes
        } else if name.ends_with("-differences.jsonl") {
            CorpusSet::Differences
        } else {
            CorpusSet::Main
        }
    }
}

/// A file tree: relative path with `/` → bytes.
pub type Files = BTreeMap<String, Vec<u8>>;

/// One call of a case.
#[derive(Clone, Debug)]
pub struct TextEditorCall {
    /// The generator's label (`str_replace/not_found`, ...).
    pub kind: String,
    /// The tool input, `{root}` still in `path`.
    pub input: Value,
    /// The expected output with `{root}`; `None` for the call a reference crashed on.
    pub output: Option<String>,
    /// The expected error flag; `None` for the call a reference crashed on.
    pub is_error: Option<bool>,
    /// The whole tree after the call.
    pub tree: Files,
}

/// One record.
#[derive(Clone, Debug)]
pub struct TextEditorCase {
    /// `<profile>-s<seed>-<case>` or `<profile>-d<seed>-<case>`.
    pub id: String,
    /// `anthropic` or `openhands`.
    pub profile: String,
    /// The properties of a differences case (`tabs`, `crlf`, ...).
    pub properties: Vec<String>,
    /// The initial tree.
    pub tree: Files,
    /// The calls, in order, on one editor.
    pub calls: Vec<TextEditorCall>,
    /// The call a reference crashed on (crash files only).
    pub crash_call: Option<usize>,
}

/// Every record of the corpus `name` (one of [`TEXT_EDITOR_CORPORA`]).
///
/// # Panics
/// When the file cannot be read or a record is malformed.
pub fn load_text_editor_corpus(name: &str) -> Vec<TextEditorCase> {
    crate::load_jsonl::<Value>(name)
        .iter()
        .map(|v| parse_case(v).unwrap_or_else(|e| panic!("{name}: {}: {e}", v["id"])))
        .collect()
}

fn parse_case(v: &Value) -> Result<TextEditorCase, String> {
    let text = |key: &str| {
        v[key]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("`{key}` is not a string"))
    };
    let calls = v["calls"]
        .as_array()
        .ok_or("`calls` is not an array")?
        .iter()
        .map(|c| {
            Ok(TextEditorCall {
                kind: c["kind"].as_str().unwrap_or_default().to_owned(),
                input: c["input"].clone(),
                output: c["output"].as_str().map(str::to_owned),
                is_error: c["is_error"].as_bool(),
                tree: parse_tree(&c["tree"])?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(TextEditorCase {
        id: text("id")?,
        profile: text("profile")?,
        properties: v["properties"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|p| p.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
        tree: parse_tree(&v["tree"])?,
        calls,
        crash_call: v["reference_crash"]["call"]
            .as_u64()
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
    })
}

/// A tree: strings are UTF-8 content, `{"base64": ...}` raw bytes.
pub(crate) fn parse_tree(v: &Value) -> Result<Files, String> {
    let map = v.as_object().ok_or("a tree is not an object")?;
    map.iter()
        .map(|(path, content)| {
            let bytes = match content {
                Value::String(s) => s.clone().into_bytes(),
                other => match other["base64"].as_str() {
                    Some(b64) => base64_decode(b64)?,
                    None => return Err(format!("{path}: content is neither text nor base64")),
                },
            };
            Ok((path.clone(), bytes))
        })
        .collect()
}

/// Standard base64 (with `=` padding) to bytes.
pub fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    fn value(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    }
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = value(c).ok_or_else(|| format!("bad base64 character {:?}", c as char))?;
            acc |= v << (18 - 6 * i);
        }
        let bytes = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    Ok(out)
}

/// A fresh, empty root directory as the README requires: an absolute real path without a
/// component starting with `.` and without spaces.
///
/// # Panics
/// When no such directory can be made.
pub fn fresh_root() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("hunkloom-te-")
        .tempdir()
        .unwrap_or_else(|e| panic!("tempdir: {e}"));
    let root = dir
        .path()
        .canonicalize()
        .unwrap_or_else(|e| panic!("canonicalize: {e}"));
    let text = root.to_string_lossy();
    assert!(
        !text.contains("/.") && !text.contains(' '),
        "the temporary directory {text} has a hidden component or a space; set TMPDIR"
    );
    (dir, root)
}

/// Writes `files` under `root`, making the directories their paths imply.
///
/// # Panics
/// When a file cannot be written.
pub fn materialize(root: &Path, files: &Files) {
    for (rel, bytes) in files {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{}: {e}", parent.display()));
        }
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// Every regular file under `root` (hidden ones included; symbolic links not followed).
///
/// # Panics
/// When a directory or file cannot be read.
pub fn read_tree(root: &Path) -> Files {
    fn walk(root: &Path, dir: &Path, out: &mut Files) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.unwrap_or_else(|e| panic!("{e}"));
            let path = entry.path();
            let file_type = entry.file_type().unwrap_or_else(|e| panic!("{e}"));
            if file_type.is_dir() {
                walk(root, &path, out);
            } else if file_type.is_file() {
                let rel = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .replace('\\', "/");
                let bytes =
                    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                out.insert(rel, bytes);
            }
        }
    }
    let mut out = Files::new();
    walk(root, root, &mut out);
    out
}

/// `input` with `{root}` in its `path` replaced by `root`.
pub fn with_root(input: &Value, root: &str) -> Value {
    let mut input = input.clone();
    if let Some(Value::String(path)) = input.get_mut("path") {
        *path = path.replace(ROOT, root);
    }
    input
}

/// `text` with `root` replaced by `{root}`.
pub fn without_root(text: &str, root: &str) -> String {
    text.replace(root, ROOT)
}

/// The first difference between two trees, in words, or `None`.
pub fn tree_difference(want: &Files, got: &Files) -> Option<String> {
    for (path, bytes) in want {
        match got.get(path) {
            None => return Some(format!("{path} is missing")),
            Some(g) if g != bytes => {
                return Some(format!(
                    "{path}:\n  want {:?}\n  got  {:?}",
                    String::from_utf8_lossy(bytes),
                    String::from_utf8_lossy(g)
                ));
            }
            Some(_) => {}
        }
    }
    got.keys()
        .find(|p| !want.contains_key(*p))
        .map(|p| format!("{p} should not exist"))
}

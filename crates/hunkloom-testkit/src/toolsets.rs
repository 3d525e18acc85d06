//! The toolset corpora (`tests/vectors/toolsets/`, format in its `README.md`): the text-editor
//! record shape with a `tool` per call, the empty directories and the files written outside the
//! root after each call, and placeholders that match volatile text.
//!
//! [`ToolsetCase`] is one record; [`fresh_parent`] makes the private parent `P` and the root
//! `P/work` a case runs in; [`empty_dirs`] and [`read_tree`](crate::text_editor::read_tree)
//! read the state back; [`output_matches`] compares an output with the recorded one.

use std::path::Path;

use serde_json::Value;

use crate::text_editor::{Files, parse_tree};

/// The corpora, relative to [`vectors_dir`](crate::vectors_dir), in the order runners print them.
pub const TOOLSET_CORPORA: &[&str] = &[
    "toolsets/openai.jsonl",
    "toolsets/openai-crashes.jsonl",
    "toolsets/codex.jsonl",
    "toolsets/codex-shell-passthrough.jsonl",
    "toolsets/gemini.jsonl",
    "toolsets/gemini-differences.jsonl",
    "toolsets/copilot.jsonl",
    "toolsets/copilot-differences.jsonl",
];

/// One call of a case.
#[derive(Clone, Debug)]
pub struct ToolsetCall {
    /// The generator's label (`update_file/clean`, ...).
    pub kind: String,
    /// The tool the model called.
    pub tool: String,
    /// The arguments, `{root}` still in every string.
    pub input: Value,
    /// The expected output with its placeholders; `None` for the call a reference crashed on.
    pub output: Option<String>,
    /// The expected error flag; `None` for the call a reference crashed on.
    pub is_error: Option<bool>,
    /// The whole tree under the root after the call.
    pub tree: Files,
    /// Directories under the root that hold nothing after the call, sorted.
    pub empty_dirs: Vec<String>,
    /// Files written outside the root (relative to its private parent).
    pub outside: Files,
}

/// One record.
#[derive(Clone, Debug)]
pub struct ToolsetCase {
    /// `<profile>-s<seed>-<case>` or `<profile>-d<seed>-<case>`.
    pub id: String,
    /// The profile that answered.
    pub profile: String,
    /// The initial tree.
    pub tree: Files,
    /// The calls, in order, on one toolset.
    pub calls: Vec<ToolsetCall>,
    /// The call the reference crashed on (crash files only).
    pub crash_call: Option<usize>,
}

/// Every record of the corpus `name` (one of [`TOOLSET_CORPORA`]).
///
/// # Panics
/// When the file cannot be read or a record is malformed.
pub fn load_toolset_corpus(name: &str) -> Vec<ToolsetCase> {
    crate::load_jsonl::<Value>(name)
        .iter()
        .map(|v| parse_case(v).unwrap_or_else(|e| panic!("{name}: {}: {e}", v["id"])))
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn parse_case(v: &Value) -> Result<ToolsetCase, String> {
    let calls = v["calls"]
        .as_array()
        .ok_or("`calls` is not an array")?
        .iter()
        .map(|c| {
            Ok(ToolsetCall {
                kind: c["kind"].as_str().unwrap_or_default().to_owned(),
                tool: c["tool"]
                    .as_str()
                    .ok_or("`tool` is not a string")?
                    .to_owned(),
                input: c["input"].clone(),
                output: c["output"].as_str().map(str::to_owned),
                is_error: c["is_error"].as_bool(),
                tree: parse_tree(&c["tree"])?,
                empty_dirs: strings(&c["empty_dirs"]),
                outside: if c["outside"].is_object() {
                    parse_tree(&c["outside"])?
                } else {
                    Files::new()
                },
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(ToolsetCase {
        id: v["id"].as_str().ok_or("`id`")?.to_owned(),
        profile: v["profile"].as_str().ok_or("`profile`")?.to_owned(),
        tree: parse_tree(&v["tree"])?,
        calls,
        crash_call: v["reference_crash"]["call"]
            .as_u64()
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
    })
}

/// A fresh private parent `P` (absolute, real, no hidden component, no space) and the root
/// `P/work`, created.
///
/// # Panics
/// When no such directory can be made.
pub fn fresh_parent() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let (dir, parent) = crate::text_editor::fresh_root();
    let root = parent.join("work");
    std::fs::create_dir(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
    (dir, parent, root)
}

/// `input` with `{root}` replaced by `root` in every string, at any depth.
pub fn with_root_everywhere(input: &Value, root: &str) -> Value {
    match input {
        Value::String(s) => Value::String(s.replace("{root}", root)),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|i| with_root_everywhere(i, root))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), with_root_everywhere(v, root)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `actual` as the vectors write it: the root as `{root}`, then the parent as `{root_parent}`.
pub fn with_placeholders(actual: &str, root: &str, parent: &str) -> String {
    actual
        .replace(root, "{root}")
        .replace(&format!("{parent}/"), "{root_parent}/")
}

/// Whether `actual` (placeholders already put in) equals `recorded`, where `{project_temp}`,
/// `{wall_time}` and `{chunk_id}` in `recorded` match any value of their form.
pub fn output_matches(recorded: &str, actual: &str) -> bool {
    const VOLATILE: [&str; 3] = ["{project_temp}", "{wall_time}", "{chunk_id}"];
    let Some((at, holder)) = VOLATILE
        .iter()
        .filter_map(|h| recorded.find(h).map(|at| (at, *h)))
        .min()
    else {
        return recorded == actual;
    };
    let (before, after) = (&recorded[..at], &recorded[at + holder.len()..]);
    let Some(rest) = actual.strip_prefix(before) else {
        return false;
    };
    let fits = |c: char| match holder {
        "{wall_time}" => c.is_ascii_digit() || c == '.',
        "{chunk_id}" => c.is_ascii_hexdigit(),
        _ => !c.is_whitespace(),
    };
    let len = rest.len() - rest.trim_start_matches(fits).len();
    len > 0 && output_matches(after, &rest[len..])
}

/// The directories under `root` that hold nothing, relative with `/`, sorted.
///
/// # Panics
/// When a directory cannot be read.
pub fn empty_dirs(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(Result::ok)
            .collect();
        if entries.is_empty() && dir != root {
            out.push(
                dir.strip_prefix(root)
                    .unwrap_or(dir)
                    .to_string_lossy()
                    .replace('\\', "/"),
            );
        }
        for entry in entries {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                walk(root, &entry.path(), out);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

/// The files of `parent` outside its `work/` root, relative to `parent`.
///
/// # Panics
/// When a directory or file cannot be read.
pub fn outside_files(parent: &Path) -> Files {
    crate::text_editor::read_tree(parent)
        .into_iter()
        .filter(|(path, _)| !path.starts_with("work/"))
        .collect()
}

/// A call where the profile differs from its reference on purpose (see the profile's module
/// documentation), and what it must do instead; `None` for an ordinary call.
pub fn deviation(case: &ToolsetCase, call: usize) -> Option<Deviation> {
    let expected = &case.calls[call];
    let text = expected.input.to_string();
    // The JSON-function form is answered `aborted` and applies nothing: no deviation there.
    if case.profile == "codex"
        && expected
            .output
            .as_deref()
            .is_some_and(|o| o.contains("Process exited with code"))
    {
        // Bash ran a command Codex did not take for an apply_patch call; the toolset runs no
        // shell and says the command is not an edit, for the host to run.
        return Some(Deviation::NotRun);
    }
    if case.profile == "codex" && expected.tool != "apply_patch_json" {
        // Codex writes wherever a path leads; the profile refuses a path outside the root.
        if !expected.outside.is_empty() || text.contains("{root}/..") || text.contains("../") {
            return Some(Deviation::RefusedOutsideRoot);
        }
        // Codex moves a file onto its own path by writing it and then removing the source: the
        // file is lost. The profile keeps it, with the new content.
        let moves_onto_itself = text.split("*** Update File: ").skip(1).any(|rest| {
            let mut lines = rest.split("\\n");
            let path = lines.next().unwrap_or_default();
            lines.next() == Some(&format!("*** Move to: {path}"))
        });
        if moves_onto_itself {
            return Some(Deviation::MoveOntoItselfKept);
        }
    }
    if case.profile == "gemini" && matches!(expected.tool.as_str(), "replace" | "write_file") {
        // The Gemini CLI reads a file that is not UTF-8 with U+FFFD for each bad byte and
        // writes that back; the profile does not rewrite such a file.
        let before = match call {
            0 => &case.tree,
            n => &case.calls[n - 1].tree,
        };
        let given = expected.input["file_path"].as_str().unwrap_or_default();
        let rel = given.trim_start_matches("{root}/").trim_start_matches("./");
        if before
            .get(rel)
            .is_some_and(|b| std::str::from_utf8(b).is_err())
        {
            return Some(Deviation::NotUtf8Kept);
        }
    }
    None
}

/// What a toolset answered to one call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// The text for the model.
    pub output: String,
    /// The error flag.
    pub is_error: bool,
    /// The stable code (empty on success).
    pub code: String,
}

/// How a replayed case ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replayed {
    /// Every call as the reference answered.
    Passed,
    /// As the reference up to a documented deviation, which the toolset met as documented.
    Deviated,
}

/// Replays `case` as the README's runner does: a fresh private parent `P` with the root
/// `P/work` holding the case's tree, one toolset made by `open(root)`, each call answered by
/// `call` (with `{root}` put into its input) and compared — the output (placeholders put back,
/// volatile values matched by form), the error flag, the files under the root, its empty
/// directories and the files outside it. A crash call must be an error that changes nothing;
/// a deviation must be met as [`Deviation::check`] says (and ends the case).
///
/// # Errors
/// The first mismatch, as `#<call> (<kind>): <what>`.
pub fn replay<T>(
    case: &ToolsetCase,
    open: impl FnOnce(&Path) -> Result<T, String>,
    mut call: impl FnMut(&mut T, &str, &Value) -> Result<Answer, String>,
) -> Result<Replayed, String> {
    let (_holder, parent, root) = fresh_parent();
    crate::text_editor::materialize(&root, &case.tree);
    let mut toolset = open(&root).map_err(|e| format!("new: {e}"))?;
    let (root_s, parent_s) = (root.to_string_lossy(), parent.to_string_lossy());
    let mut before = case.tree.clone();
    for (i, expected) in case.calls.iter().enumerate() {
        let at = format!("#{i} ({})", expected.kind);
        let input = with_root_everywhere(&expected.input, &root_s);
        let answer =
            call(&mut toolset, &expected.tool, &input).map_err(|e| format!("{at}: {e}"))?;
        let output = with_placeholders(&answer.output, &root_s, &parent_s);
        let tree = crate::text_editor::read_tree(&root);
        if let Some(deviation) = deviation(case, i) {
            let nothing_written = tree == before && outside_files(&parent).is_empty();
            let same_files = tree.keys().eq(before.keys());
            deviation
                .check(answer.is_error, &answer.code, nothing_written, same_files)
                .map_err(|why| format!("{at}: {why}: {output:?}"))?;
            return Ok(Replayed::Deviated);
        }
        if case.crash_call == Some(i) {
            if !answer.is_error || output.is_empty() {
                return Err(format!("{at}: not an error result: {output:?}"));
            }
            if tree != before {
                return Err(format!("{at}: the tree changed after a refused call"));
            }
            return Ok(Replayed::Passed);
        }
        let want = expected.output.as_deref().unwrap_or_default();
        if !output_matches(want, &output) {
            return Err(format!("{at}: output\n  want {want:?}\n  got  {output:?}"));
        }
        if Some(answer.is_error) != expected.is_error {
            return Err(format!("{at}: is_error {} ({output:?})", answer.is_error));
        }
        if tree != expected.tree {
            let diff = expected
                .tree
                .iter()
                .find(|(p, b)| tree.get(*p) != Some(b))
                .map(|(p, b)| {
                    format!(
                        "{p}\n  want {:?}\n  got  {:?}",
                        String::from_utf8_lossy(b),
                        tree.get(p).map(|g| String::from_utf8_lossy(g).into_owned())
                    )
                })
                .or_else(|| {
                    tree.keys()
                        .find(|p| !expected.tree.contains_key(*p))
                        .map(|p| format!("{p} should not exist"))
                });
            return Err(format!("{at}: tree: {}", diff.unwrap_or_default()));
        }
        let dirs = empty_dirs(&root);
        if dirs != expected.empty_dirs {
            return Err(format!(
                "{at}: empty dirs: want {:?}, got {dirs:?}",
                expected.empty_dirs
            ));
        }
        if outside_files(&parent) != expected.outside {
            return Err(format!("{at}: files outside the root differ"));
        }
        before = tree;
    }
    Ok(Replayed::Passed)
}

/// What a deliberate difference looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deviation {
    /// An error result (`path_outside_root`) and nothing written anywhere.
    RefusedOutsideRoot,
    /// A success that leaves the moved file in place.
    MoveOntoItselfKept,
    /// An error result (`not_an_edit`) and nothing written: the host runs the command.
    NotRun,
    /// An error result (`unsupported_encoding`) and nothing written: a file that is not UTF-8
    /// is not rewritten with U+FFFD in place of its bytes.
    NotUtf8Kept,
}

impl Deviation {
    /// Whether a call met this deviation as documented, from its error flag and code, whether
    /// it wrote nothing anywhere, and whether it left the same files (by path).
    ///
    /// # Errors
    /// Why it did not.
    pub fn check(
        self,
        is_error: bool,
        code: &str,
        nothing_written: bool,
        same_files: bool,
    ) -> Result<(), &'static str> {
        let fine = match self {
            Deviation::RefusedOutsideRoot => {
                is_error && code == "path_outside_root" && nothing_written
            }
            Deviation::MoveOntoItselfKept => !is_error && same_files,
            Deviation::NotRun => is_error && code == "not_an_edit" && nothing_written,
            Deviation::NotUtf8Kept => is_error && code == "unsupported_encoding" && nothing_written,
        };
        if fine {
            Ok(())
        } else {
            Err(match self {
                Deviation::RefusedOutsideRoot => "a path outside the root was not refused",
                Deviation::MoveOntoItselfKept => "a move onto itself lost or added a file",
                Deviation::NotRun => "a shell command was not left to the host",
                Deviation::NotUtf8Kept => "a file that is not UTF-8 was not left as it was",
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volatile_placeholders_match_their_forms() {
        assert!(output_matches(
            "Wall time: {wall_time} seconds",
            "Wall time: 0.0570 seconds"
        ));
        assert!(!output_matches(
            "Wall time: {wall_time} seconds",
            "Wall time: soon seconds"
        ));
        assert!(output_matches("id {chunk_id}.", "id 3fa9."));
        assert!(output_matches("plain", "plain"));
        assert!(!output_matches("plain", "plain!"));
    }
}

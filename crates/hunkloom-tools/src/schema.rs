//! The tool's JSON Schema, for registering it with a model API.

use serde_json::{Value, json};

use crate::Profile;

/// The name Anthropic's newest text-editor tool goes by; its reference class has no
/// `undo_edit`.
pub const NEWEST_ANTHROPIC_NAME: &str = "str_replace_based_edit_tool";

/// The tool definition for `profile`: `{"name", "description", "input_schema"}`, the shape of a
/// function tool in the Anthropic Messages API (OpenAI-style APIs take the same `input_schema`
/// as `parameters`).
///
/// Names: `anthropic` and `openhands` are `str_replace_editor` (the name both references
/// register), `native` is `str_replace_based_edit_tool`. Every profile offers the five
/// commands; see [`schema_named`] for Anthropic's newest name, without `undo_edit`.
pub fn schema(profile: Profile) -> Value {
    let name = match profile {
        Profile::Native => NEWEST_ANTHROPIC_NAME,
        _ => "str_replace_editor",
    };
    build(profile, name, true)
}

/// [`schema`] under another tool name. For the `anthropic` profile, the name
/// [`NEWEST_ANTHROPIC_NAME`] offers no `undo_edit`, as Anthropic's newest editor class has none.
pub fn schema_named(profile: Profile, name: &str) -> Value {
    let undo = !(profile == Profile::Anthropic && name == NEWEST_ANTHROPIC_NAME);
    build(profile, name, undo)
}

fn build(profile: Profile, name: &str, undo: bool) -> Value {
    let mut commands = vec!["view", "create", "str_replace", "insert"];
    if undo {
        commands.push("undo_edit");
    }
    let paths = match profile {
        Profile::Native => {
            "Path of the file or directory: absolute, or relative to the workspace root."
        }
        _ => "Absolute path of the file or directory, e.g. `/repo/src/main.py`.",
    };
    let lines = match profile {
        Profile::Anthropic => "the file has one line more than it has newlines",
        _ => "a final newline ends the last line",
    };
    let create = match profile {
        Profile::Native => {
            "* `create` writes a new file. Over an existing file it takes only a lazy edit: the \
             changed code with unchanged lines around it and a `// ... existing code ...` (or \
             `# ...`) marker comment for each stretch left out, merged where its unchanged \
             lines occur once in the file, or refused.\n"
        }
        _ => "* `create` writes a new file; it cannot overwrite an existing one.\n",
    };
    let mut description = String::from(
        "View, create and edit plain-text files.\n\
         * `view` shows a file with line numbers (`cat -n`), or a directory's files and \
         directories two levels deep, hidden ones excluded.\n",
    );
    description.push_str(create);
    description.push_str(
        "* `str_replace` replaces `old_str`, which must occur exactly once in the file, with \
         `new_str`; include enough surrounding lines to make `old_str` unique.\n\
         * `insert` inserts `new_str` after line `insert_line` (0: at the top).\n",
    );
    if undo {
        description.push_str("* `undo_edit` takes back the last edit of the file.\n");
    }
    description.push_str("Long outputs are cut and marked with `<response clipped>`.");
    json!({
        "name": name,
        "description": description,
        "input_schema": {
            "type": "object",
            "properties": {
                "command": {
                    "type": "string",
                    "enum": commands,
                    "description": "The command to run."
                },
                "path": {"type": "string", "description": paths},
                "file_text": {
                    "type": "string",
                    "description": "`create`: the content of the new file."
                },
                "old_str": {
                    "type": "string",
                    "description": "`str_replace`: the exact text to replace."
                },
                "new_str": {
                    "type": "string",
                    "description": "`str_replace`: the replacement (omitted: delete `old_str`). \
                                    `insert`: the text to insert."
                },
                "insert_line": {
                    "type": "integer",
                    "description": format!("`insert`: the line after which `new_str` goes (0: at the top; {lines}).")
                },
                "view_range": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "description": "`view` of a file: the first and last line to show, 1-based \
                                    and inclusive; -1 as the last shows to the end."
                }
            },
            "required": ["command", "path"]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_commands_per_profile() {
        let commands = |v: &Value| v["input_schema"]["properties"]["command"]["enum"].clone();
        assert_eq!(schema(Profile::Anthropic)["name"], "str_replace_editor");
        assert_eq!(schema(Profile::OpenHands)["name"], "str_replace_editor");
        assert_eq!(schema(Profile::Native)["name"], NEWEST_ANTHROPIC_NAME);
        assert_eq!(
            commands(&schema(Profile::Anthropic)),
            json!(["view", "create", "str_replace", "insert", "undo_edit"])
        );
        let newest = schema_named(Profile::Anthropic, NEWEST_ANTHROPIC_NAME);
        assert_eq!(newest["name"], NEWEST_ANTHROPIC_NAME);
        assert_eq!(
            commands(&newest),
            json!(["view", "create", "str_replace", "insert"])
        );
        for &p in Profile::ALL {
            let s = schema(p);
            assert_eq!(s["input_schema"]["required"], json!(["command", "path"]));
            assert!(s["description"].as_str().is_some_and(|d| !d.is_empty()));
        }
    }
}

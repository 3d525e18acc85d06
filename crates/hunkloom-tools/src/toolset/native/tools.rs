//! The native tools: their names, and the titles, descriptions and JSON input schemas a model
//! reads. What each one does lives in [the module above](super).

use std::path::Path;

use serde_json::{Map, Value, json};

use super::super::ToolDefinition;
use crate::{NEWEST_ANTHROPIC_NAME, Profile};

/// Declares the tools once: the enum, each tool's name and whether it only reads. Everything
/// that lists, names or dispatches tools goes through this table.
macro_rules! tools {
    ($($(#[doc = $doc:literal])+ $tool:ident => $name:expr, read_only: $read_only:literal;)+) => {
        /// One tool of the native set.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum ToolName {
            $($(#[doc = $doc])+ $tool,)+
        }

        impl ToolName {
            /// Every tool, in the order `tools/list` gives them.
            pub(crate) const ALL: &'static [ToolName] = &[$(ToolName::$tool),+];

            /// The name clients call it by.
            pub(crate) fn as_str(self) -> &'static str {
                match self {
                    $(ToolName::$tool => $name,)+
                }
            }

            /// Whether it never writes (the tools a read-only set keeps).
            pub(crate) fn is_read_only(self) -> bool {
                match self {
                    $(ToolName::$tool => $read_only,)+
                }
            }
        }
    };
}

tools! {
    /// The [`TextEditor`](crate::TextEditor) in the set's editor profile.
    TextEditor => NEWEST_ANTHROPIC_NAME, read_only: false;
    /// A native SEARCH/REPLACE diff on one file.
    ApplyDiff => "apply_diff", read_only: false;
    /// A lazy edit of one file: changed code with `// ... existing code ...` markers.
    ApplyLazy => "apply_lazy", read_only: false;
    /// A multi-file `*** Begin Patch` patch, all files or none.
    ApplyPatch => "apply_patch", read_only: false;
    /// A file's text with line numbers; records the read.
    ReadFile => "read_file", read_only: true;
    /// Takes back the last `apply_diff` / `apply_patch` change of a file.
    UndoEdit => "undo_edit", read_only: false;
}

impl ToolName {
    /// The tool called `name`, if the server has one.
    pub(crate) fn from_name(name: &str) -> Option<ToolName> {
        ToolName::ALL.iter().copied().find(|t| t.as_str() == name)
    }

    /// The argument names the tool accepts (the text editor's are its profile's schema).
    pub(crate) fn arguments(self) -> &'static [&'static str] {
        match self {
            ToolName::TextEditor => &[],
            ToolName::ApplyDiff => &["path", "diff"],
            ToolName::ApplyLazy => &["path", "snippet"],
            ToolName::ApplyPatch => &["patch", "format"],
            ToolName::ReadFile => &["path", "start_line", "end_line"],
            ToolName::UndoEdit => &["path"],
        }
    }
}

/// How many lines `read_file` shows when no `end_line` is given.
pub(crate) const DEFAULT_READ_LINES: usize = 2000;

/// The tool definitions of the set over `root` with the editor in `profile`: every tool, or
/// with `read_only` only those that never write.
pub(crate) fn definitions(root: &Path, profile: Profile, read_only: bool) -> Vec<ToolDefinition> {
    ToolName::ALL
        .iter()
        .filter(|t| !read_only || t.is_read_only())
        .map(|&t| definition(t, root, profile))
        .collect()
}

/// The definition of one tool.
fn definition(tool: ToolName, root: &Path, profile: Profile) -> ToolDefinition {
    let root_note = format!(
        "\n\nThe workspace root is {}; paths are relative to it, or absolute inside it.",
        root.display()
    );
    let (title, description, schema) = match tool {
        ToolName::TextEditor => text_editor(profile, root),
        ToolName::ApplyDiff => (
            "Apply SEARCH/REPLACE edits",
            APPLY_DIFF.to_owned() + &root_note,
            object(
                json!({
                    "path": {
                        "type": "string",
                        "description": "The file to edit, relative to the workspace root (or absolute inside it)."
                    },
                    "diff": {
                        "type": "string",
                        "description": "One or more SEARCH/REPLACE blocks, as described above."
                    }
                }),
                &["path", "diff"],
            ),
        ),
        ToolName::ApplyLazy => (
            "Merge a lazy edit",
            APPLY_LAZY.to_owned() + &root_note,
            object(
                json!({
                    "path": {
                        "type": "string",
                        "description": "The file to edit, relative to the workspace root (or absolute inside it)."
                    },
                    "snippet": {
                        "type": "string",
                        "description": "The changed code with unchanged lines around each change and `... existing code ...` marker comments for everything left out, as described above."
                    }
                }),
                &["path", "snippet"],
            ),
        ),
        ToolName::ApplyPatch => (
            "Apply a multi-file patch",
            APPLY_PATCH.to_owned() + &root_note,
            object(
                json!({
                    "patch": {
                        "type": "string",
                        "description": "The whole patch, from `*** Begin Patch` to `*** End Patch`."
                    },
                    "format": {
                        "type": "string",
                        "enum": ["native", "codex", "udiff", "aider", "aider-fenced", "aider-whole", "aider-native"],
                        "description": "How `patch` is written and read: `native` (the default: the format above, each chunk placed where its lines are in exactly one place of the file, its `@@` line choosing among several, or the patch refused), `codex` (the same format read exactly as Codex reads it: each chunk at the first match after the previous one), `udiff` (a unified diff of several files, a git patch), or a reply in one of aider's edit formats: `aider` (SEARCH/REPLACE blocks, each under the path of the file it edits, an empty SEARCH creating a file), `aider-fenced` (the path inside the fence), `aider-whole` (whole files, each under its path), applied as aider applies them, or `aider-native` (aider's blocks without its guesses: each block placed in exactly one place of the file it names, or the patch refused)."
                    }
                }),
                &["patch"],
            ),
        ),
        ToolName::ReadFile => (
            "Read a file",
            READ_FILE.to_owned() + &root_note,
            object(
                json!({
                    "path": {
                        "type": "string",
                        "description": "The file to read, relative to the workspace root (or absolute inside it)."
                    },
                    "start_line": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "The first line to show, 1-based (default 1)."
                    },
                    "end_line": {
                        "type": "integer",
                        "minimum": 1,
                        "description": format!(
                            "The last line to show, inclusive (default: {DEFAULT_READ_LINES} lines from start_line, or the end of the file)."
                        )
                    }
                }),
                &["path"],
            ),
        ),
        ToolName::UndoEdit => (
            "Undo an edit",
            UNDO_EDIT.to_owned() + &root_note,
            object(
                json!({
                    "path": {
                        "type": "string",
                        "description": "The file whose last apply_diff, apply_lazy or apply_patch change to take back."
                    }
                }),
                &["path"],
            ),
        ),
    };
    ToolDefinition {
        name: tool.as_str().to_owned(),
        title: Some(title.to_owned()),
        description,
        input_schema: Value::Object(schema),
        read_only: tool.is_read_only(),
    }
}

/// The text editor's definition: [`crate::schema_named`] under the name Anthropic's
/// newest editor goes by, with a note on how it shares the root with the other tools.
fn text_editor(profile: Profile, root: &Path) -> (&'static str, String, Map<String, Value>) {
    let definition = crate::schema_named(profile, NEWEST_ANTHROPIC_NAME);
    let mut description = definition["description"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let paths = match profile {
        Profile::Native => "paths are relative to it, or absolute inside it",
        _ => "give absolute paths inside it",
    };
    description.push_str(&format!(
        "\n\nThe workspace root is {}; {paths}. This tool keeps its own record of the files it \
         viewed and its own undo history: after apply_diff, apply_patch or undo_edit changes a \
         file, view it again before editing it here.",
        root.display()
    ));
    let schema = match &definition["input_schema"] {
        Value::Object(schema) => schema.clone(),
        _ => Map::new(),
    };
    ("Text editor", description, schema)
}

/// A JSON Schema object with `properties`, the `required` ones, and no others.
fn object(properties: Value, required: &[&str]) -> Map<String, Value> {
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), properties);
    schema.insert("required".into(), json!(required));
    schema.insert("additionalProperties".into(), false.into());
    schema
}

const APPLY_DIFF: &str = "\
Edit one file with SEARCH/REPLACE blocks. Each block is:

<<<<<<< SEARCH
lines copied exactly from the file
=======
the lines to put in their place
>>>>>>> REPLACE

Read the file with read_file first, and copy the SEARCH lines from it without the line numbers. \
Each SEARCH text must match exactly one place in the file: small differences in indentation, \
trailing whitespace, line endings or typographic punctuation are tolerated (the result says so), \
but a SEARCH text that matches several places is refused, so include enough surrounding lines to \
make it unique. Blocks are independent of each other and their order; all of them apply or none \
does. An empty SEARCH creates a file that does not exist yet. The result lists, per block, the \
lines it replaced and how it matched; a refusal says what to change. The file keeps its \
encoding, BOM and line endings, the write is atomic, and undo_edit takes the edit back. If the \
file changed since you read it, the edit is refused: read it again.";

const APPLY_LAZY: &str = "\
Edit one file by writing only what changes. Write the changed code with a few unchanged lines \
copied from the file above and below each change, and a marker comment in the file's comment \
syntax for each stretch left out:

// ... existing code ...
func (s *Server) Start() error {
    s.ready = true
    log.Printf(\"started\")
    return nil
}

func (s *Server) Stop() error {
// ... existing code ...

(`# ... existing code ...` in Python.) Every part between markers is placed where its first \
and last lines occur exactly once in the file, so begin and end each part with unchanged lines \
that are unique (a function header, not a lone `}`). Lines left out between the unchanged \
lines of one part are deleted; to delete a whole function, write a comment `// removed NAME` \
in its place. Read the file with read_file first. A part that cannot be placed for certain is \
refused, saying which part and why; then nothing is written. The file keeps its encoding, BOM \
and line endings, and undo_edit takes the edit back. Text without markers replaces the whole \
file.";

const APPLY_PATCH: &str = "\
Add, update, delete and move several files in one step, all of them or none, with a patch in \
the `*** Begin Patch` format:

*** Begin Patch
*** Update File: src/app.py
@@ def greet():
-    print('hi')
+    print('hello')
*** Add File: docs/notes.md
+a new file; every line starts with +
*** Delete File: old.txt
*** Update File: src/util.py
*** Move to: src/helpers.py
@@
 unchanged context line
-removed line
+added line
*** End Patch

In an update, lines starting with a space are context, `-` removes a line, `+` adds one; an \
`@@` line may name a line above the change (a function or class). Each chunk goes where its \
context and `-` lines are, in any order; lines that occur in several places need an `@@` line \
(or more context) to say which, or the patch is refused. `+` lines follow the indentation the \
context was found at. `*** Add File:` does not replace an existing file. Paths are \
relative to the workspace root. Files need no read_file first, but a file you read that has \
changed since is refused: read it again. The result lists each file and what happened to it; a \
refusal says which hunk failed and why, and then no file has changed. Each file keeps its \
encoding, BOM and line endings; undo_edit takes back each file's change (for a move, undo both \
paths). With `format`, the patch may also be a unified diff of several files or a reply in one \
of aider's edit formats.";

const READ_FILE: &str = "\
Read a text file with line numbers: each line is shown as its number, a tab, and the line \
(`cat -n`). The numbers are not part of the file: leave them out of SEARCH text. Reading a file \
is what lets apply_diff edit it, and records its content: if the file changes afterwards (you \
or anyone else), edits are refused until you read it again. Without end_line at most 2000 lines \
are shown, and the result says how to read on.";

const UNDO_EDIT: &str = "\
Take back the last apply_diff, apply_lazy or apply_patch change of a file (the last 5 per file, one per \
call): its previous content is restored, a file the change created is removed, one it deleted \
comes back. Refused if the file changed after that edit, so nobody's newer work is lost. Edits \
made with str_replace_based_edit_tool are taken back with that tool's own `undo_edit` command.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &t in ToolName::ALL {
            assert!(seen.insert(t.as_str()));
            assert_eq!(ToolName::from_name(t.as_str()), Some(t));
        }
        assert_eq!(ToolName::from_name("nope"), None);
    }

    #[test]
    fn every_schema_is_an_object_schema_and_read_only_keeps_reads() {
        let root = Path::new("/r");
        for &profile in Profile::ALL {
            let all = definitions(root, profile, false);
            assert_eq!(all.len(), ToolName::ALL.len());
            for tool in &all {
                assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
                assert!(tool.input_schema["properties"].is_object());
                assert!(tool.description.contains("/r"));
            }
            let reads: Vec<_> = definitions(root, profile, true)
                .into_iter()
                .map(|t| t.name)
                .collect();
            assert_eq!(reads, ["read_file"]);
        }
    }

    #[test]
    fn descriptions_state_the_limits_in_force() {
        assert!(READ_FILE.contains(&format!("at most {DEFAULT_READ_LINES} lines")));
        let depth = hunkloom_fs::WorkspaceOptions::default().undo_depth;
        assert!(UNDO_EDIT.contains(&format!("the last {depth} per file")));
    }

    #[test]
    fn argument_lists_match_the_schemas() {
        let root = Path::new("/r");
        for tool in definitions(root, Profile::Native, false) {
            let name = ToolName::from_name(&tool.name).expect("listed tools have names");
            if name == ToolName::TextEditor {
                continue;
            }
            let properties: Vec<&str> = tool.input_schema["properties"]
                .as_object()
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let mut expected = name.arguments().to_vec();
            expected.sort_unstable();
            let mut properties = properties;
            properties.sort_unstable();
            assert_eq!(properties, expected, "{}", tool.name);
        }
    }
}

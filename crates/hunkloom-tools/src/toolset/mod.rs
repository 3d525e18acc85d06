//! [`Toolset`]: the edit tools one model family is trained on, answered as its reference
//! answers them, over hunkloom's file layer.
//!
//! A framework that serves several model families hands each the tools it knows: Claude the
//! text editor, GPT the Responses-API `apply_patch`, and so on. A [`Toolset`] is one object per
//! agent: [`tools`](Toolset::tools) gives the profile's tool definitions to register with the
//! model API, [`call`](Toolset::call) answers each tool call with the reference's text, error
//! flag and files. Every write goes through the file layer: paths stay inside the root,
//! protected paths stay unwritten, writes are atomic, parallel calls take turns per file.
//!
//! Profiles ([`ToolsetProfile`]):
//! - `native` (the default): hunkloom's own tools, as `hunkloom mcp` serves them — `read_file`,
//!   `apply_diff`, `apply_lazy`, `apply_patch`, `undo_edit` and the text editor as
//!   `str_replace_based_edit_tool`, each call one call of the file layer or the editor;
//! - `anthropic`, `openhands`: the reference's text editor ([`TextEditor`]) as one tool
//!   (`anthropic` also as `str_replace_based_edit_tool`, its text_editor_20250728 form: no
//!   `undo_edit`, views cut at [`ToolsetOptions::max_characters`]);
//! - `codex`: Codex CLI 0.171.0's freeform `apply_patch` and its `exec_command` `apply_patch`
//!   heredocs, answered with Codex's texts (a path outside the root refused; a command that is
//!   not such a heredoc left to the host, code `not_an_edit`);
//! - `openai`: the Responses-API hosted `apply_patch` tool (`create_file`, `update_file`,
//!   `delete_file` operations with V4A diffs) as the OpenAI Agents SDK 0.24.0 answers it
//!   through its directory editor (specified by `tests/vectors/toolsets/openai*.jsonl`: created
//!   files without a final newline, create never overwrites, the operations of a call run in
//!   order and those before a failure stay applied);
//! - `gemini`: the Gemini CLI's `replace`, `write_file` and `read_file` (core 0.61.0, its LLM
//!   correction off): exact, trimmed-line, token-pattern and Levenshtein matching, jsdiff
//!   snippets, its blocked paths (a file that is not UTF-8 is not rewritten);
//! - `claude-code`: Claude Code's `Read`, `Write`, `Edit` and `MultiEdit`, with the core's
//!   Claude Code edit semantics (no public reference: its rules are tested one by one).
//!
//! Where a reference would write outside the root or leave a torn file, the profile answers
//! with the reference's error shape and writes nothing.

mod claude_code;
mod codex;
mod copilot;
mod gemini;
pub(crate) mod native;
mod openai;

pub(crate) use codex::CodexTool;
pub(crate) use openai::OpenAiTool;

use std::path::{Path, PathBuf};

use hunkloom::{Error, ErrorKind, Result};
use hunkloom_fs::{Durability, Turns, Workspace, WorkspaceOptions};
use serde_json::Value;

use crate::codes::ToolCode;
use crate::{EditorOptions, Profile, TextEditor, ToolResult};

/// Whose tools a [`Toolset`] answers as.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ToolsetProfile {
    /// The text editor as Anthropic's computer-use demo answers it ([`Profile::Anthropic`]).
    Anthropic,
    /// The text editor as OpenHands' `OHEditor` answers it ([`Profile::OpenHands`]).
    OpenHands,
    /// hunkloom's own tools: `read_file`, `apply_diff`, `apply_lazy`, `apply_patch`,
    /// `undo_edit` and its text editor ([`Profile::Native`]) — what `hunkloom mcp` serves.
    #[default]
    Native,
    /// The Responses-API hosted `apply_patch` tool as the OpenAI Agents SDK 0.24.0 runs it.
    OpenAi,
    /// Codex CLI 0.171.0's freeform `apply_patch` and its `exec_command` `apply_patch` heredocs.
    Codex,
    /// The Gemini CLI's `replace`, `write_file` and `read_file` (core 0.61.0, LLM correction
    /// off).
    Gemini,
    /// Claude Code's `Read`, `Write`, `Edit` and `MultiEdit`.
    ClaudeCode,
    /// GitHub Copilot Chat's `replace_string_in_file`, `multi_replace_string_in_file`,
    /// `apply_patch` and `create_file`.
    Copilot,
}

hunkloom::names!(
    ToolsetProfile {
        Anthropic => "anthropic",
        OpenHands => "openhands",
        Native => "native",
        OpenAi => "openai",
        Codex => "codex",
        Gemini => "gemini",
        ClaudeCode => "claude-code",
        Copilot => "copilot",
    },
    parse: InvalidProfile,
    "toolset profile"
);

impl ToolsetProfile {
    /// The text-editor profile this toolset profile serves, if its tool is a reference's text
    /// editor (`anthropic`, `openhands`).
    pub fn text_editor(self) -> Option<Profile> {
        match self {
            ToolsetProfile::Anthropic => Some(Profile::Anthropic),
            ToolsetProfile::OpenHands => Some(Profile::OpenHands),
            ToolsetProfile::Native
            | ToolsetProfile::OpenAi
            | ToolsetProfile::Codex
            | ToolsetProfile::Gemini
            | ToolsetProfile::ClaudeCode
            | ToolsetProfile::Copilot => None,
        }
    }
}

/// Whose rules a toolset's tools follow: their reference's (the default), or hunkloom's own
/// under the reference's tool names and arguments.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Semantics {
    /// As the profile's reference answers: its matching, texts and files.
    #[default]
    Reference,
    /// hunkloom's tolerant matching and refusals (never a silent wrong edit) behind the
    /// profile's tool names and arguments: the native text editor for `anthropic` and
    /// `openhands`, the native reading of patches for `openai` and `codex` (and Copilot's
    /// `apply_patch`), the native text editor's replacement for the string-replacing tools of
    /// `gemini`, `copilot` and `claude-code`.
    Native,
}

hunkloom::names!(
    Semantics {
        Reference => "reference",
        Native => "native",
    },
    parse: InvalidProfile,
    "semantics"
);

/// Settings of a [`Toolset`].
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolsetOptions {
    /// Whose tools to answer as (default `native`).
    pub profile: ToolsetProfile,
    /// Whether edits need a read (view) of the file first (default: only in `native`).
    pub require_read: Option<bool>,
    /// Files larger than this are refused (default: the profile's reference limit, else 1 GiB).
    pub max_file_size: Option<u64>,
    /// Globs of paths that can be read but never written, besides `.git` and the others
    /// (see [`WorkspaceOptions::protect`]).
    pub protect: Vec<String>,
    /// The text editor's `max_characters` (Anthropic's text_editor_20250728): the most
    /// characters of a file a `view` shows (default 16,000).
    pub max_characters: Option<usize>,
    /// Only the tools that never write (`read_file` of `native` and `gemini`, `Read` of
    /// `claude-code`); a call of another tool of the profile is refused with code `read_only`.
    pub read_only: bool,
    /// `native`: whose answers its text editor gives (default [`Profile::Native`]; with
    /// [`Profile::Anthropic`] it answers as text_editor_20250728, whose name it goes by).
    pub editor: Option<Profile>,
    /// Whose rules the tools follow (default [`Semantics::Reference`]).
    pub semantics: Semantics,
    /// Whether a write waits for the disk (default [`Durability::Full`]; see
    /// [`WorkspaceOptions::durability`]).
    pub durability: Durability,
}

impl ToolsetOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the profile.
    pub fn profile(mut self, profile: ToolsetProfile) -> Self {
        self.profile = profile;
        self
    }

    /// Sets whether edits need a read first.
    pub fn require_read(mut self, yes: bool) -> Self {
        self.require_read = Some(yes);
        self
    }

    /// Sets the size limit in bytes.
    pub fn max_file_size(mut self, bytes: u64) -> Self {
        self.max_file_size = Some(bytes);
        self
    }

    /// Sets the text editor's `max_characters`.
    pub fn max_characters(mut self, characters: usize) -> Self {
        self.max_characters = Some(characters);
        self
    }

    /// Keeps only the tools that never write.
    pub fn read_only(mut self, yes: bool) -> Self {
        self.read_only = yes;
        self
    }

    /// Sets whose rules the tools follow.
    pub fn semantics(mut self, semantics: Semantics) -> Self {
        self.semantics = semantics;
        self
    }

    /// Sets whether a write waits for the disk.
    pub fn durability(mut self, durability: Durability) -> Self {
        self.durability = durability;
        self
    }

    /// Sets the `native` set's text-editor profile.
    pub fn editor(mut self, profile: Profile) -> Self {
        self.editor = Some(profile);
        self
    }

    /// The `native` set's text-editor profile.
    pub(crate) fn editor_profile(&self) -> Profile {
        self.editor.unwrap_or(Profile::Native)
    }

    /// The options of a text editor in `profile` that serves this toolset.
    pub(crate) fn editor_options(&self, profile: Profile) -> EditorOptions {
        let mut editor = EditorOptions::new()
            .profile(profile)
            .durability(self.durability)
            .protect(self.protect.iter().cloned());
        editor.require_read = self.require_read;
        editor.max_file_size = self.max_file_size;
        editor.max_characters = self.max_characters;
        editor
    }

    /// Adds globs of protected paths.
    pub fn protect<I, S>(mut self, globs: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.protect.extend(globs.into_iter().map(Into::into));
        self
    }
}

/// One tool as the model API registers it.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub struct ToolDefinition {
    /// The tool's name, as the model calls it.
    pub name: String,
    /// A short human-readable title (MCP's `title` annotation), where the profile has one.
    pub title: Option<String>,
    /// What the model is told the tool does.
    pub description: String,
    /// The JSON Schema of its input.
    pub input_schema: Value,
    /// Whether the tool never writes (a host may run such calls at any time).
    pub read_only: bool,
}

impl ToolDefinition {
    /// A tool that writes, without a title.
    pub(crate) fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
    ) -> ToolDefinition {
        ToolDefinition {
            name: name.into(),
            title: None,
            description: description.into(),
            input_schema,
            read_only: false,
        }
    }
}

/// Tool definitions from a reference's recorded declarations: `tools` is a JSON list of
/// `{"name", "description", "input_schema"}` objects.
fn definitions_from(tools: &Value) -> Vec<ToolDefinition> {
    tools
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| {
                    let name = t["name"].as_str().unwrap_or_default();
                    let mut tool = ToolDefinition::new(
                        name,
                        t["description"].as_str().unwrap_or_default(),
                        t["input_schema"].clone(),
                    );
                    // The one recorded tool that only reads: the Gemini CLI's.
                    tool.read_only = name == "read_file";
                    tool
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What answers the calls of one profile.
#[derive(Debug)]
enum Engine {
    /// hunkloom's own tools.
    Native(Box<native::Native>),
    /// A text editor: one tool; for `anthropic` also its newest tool,
    /// `str_replace_based_edit_tool` (text_editor_20250728).
    Editor(TextEditor, Option<Box<TextEditor>>),
    /// The Agents SDK's `apply_patch` over the file layer.
    OpenAi(Workspace, Semantics),
    /// Codex's `apply_patch` over the file layer.
    Codex(Workspace, Semantics),
    /// The Gemini CLI's tools over the file layer.
    Gemini(Workspace, Semantics),
    /// Claude Code's tools over the file layer.
    ClaudeCode(Workspace, Semantics),
    /// Copilot's tools over the file layer.
    Copilot(Box<copilot::Copilot>),
}

/// The edit tools of one model family over a root directory (see the [module
/// documentation](self)).
///
/// A `Toolset` is `Send + Sync` and its [`call`](Toolset::call) takes `&self`: one toolset
/// serves an agent's parallel tool calls from many threads; calls on one file take turns.
#[derive(Debug)]
pub struct Toolset {
    profile: ToolsetProfile,
    engine: Engine,
    /// The tools listed (only those that never write when read-only).
    tools: Vec<ToolDefinition>,
    /// The profile's tools that write, left out of a read-only toolset's list.
    withheld: Vec<String>,
    /// One call per file at a time for the engines that read, compute and write.
    turns: Turns,
}

impl Toolset {
    /// A toolset over the directory `root` (which must exist).
    ///
    /// Errors: `io_error` if `root` is not an accessible directory; `invalid_glob`.
    pub fn new(root: impl AsRef<Path>, options: ToolsetOptions) -> Result<Toolset> {
        let engine = if options.profile == ToolsetProfile::Native {
            Engine::Native(Box::new(native::Native::open(root.as_ref(), &options)?))
        } else {
            Self::reference_engine(root.as_ref(), &options)?
        };
        let all = engine.definitions(&options);
        let (tools, withheld) = if options.read_only {
            let (reads, writes): (Vec<_>, Vec<_>) = all.into_iter().partition(|t| t.read_only);
            (reads, writes.into_iter().map(|t| t.name).collect())
        } else {
            (all, Vec::new())
        };
        Ok(Toolset {
            profile: options.profile,
            engine,
            tools,
            withheld,
            turns: Turns::new(),
        })
    }

    /// The engine of a reference's profile.
    fn reference_engine(root: &Path, options: &ToolsetOptions) -> Result<Engine> {
        Ok(match options.profile.text_editor() {
            Some(profile) => {
                // Native semantics: the native editor behind the reference's tool names.
                let editor = match options.semantics {
                    Semantics::Reference => options.editor_options(profile),
                    Semantics::Native => options.editor_options(Profile::Native),
                };
                let newest = match profile {
                    Profile::Anthropic => {
                        let mut newest = editor.clone();
                        newest.newest_anthropic = true;
                        Some(Box::new(TextEditor::new(root, newest)?))
                    }
                    _ => None,
                };
                Engine::Editor(TextEditor::new(root, editor)?, newest)
            }
            None => {
                // The string-replacing tools under native semantics write through hunkloom's
                // own guards and keep a file's encoding, as the native text editor does.
                let native_writes = options.semantics == Semantics::Native
                    && matches!(
                        options.profile,
                        ToolsetProfile::Gemini | ToolsetProfile::Copilot
                    );
                let mut ws = WorkspaceOptions::new()
                    .undo_depth(0)
                    // The reference's answers: none of hunkloom's own guards.
                    .guards(if native_writes {
                        hunkloom::ops::Guards::NATIVE
                    } else {
                        hunkloom::ops::Guards::NONE
                    })
                    // Claude Code reads a file in its own encoding; the others read UTF-8.
                    .legacy_encodings(
                        options.profile == ToolsetProfile::ClaudeCode || native_writes,
                    )
                    .durability(options.durability)
                    .protect(options.protect.iter().cloned());
                if let Some(bytes) = options.max_file_size {
                    ws = ws.max_file_size(bytes);
                }
                let ws = Workspace::open(root, ws)?;
                match options.profile {
                    ToolsetProfile::Codex => Engine::Codex(ws, options.semantics),
                    ToolsetProfile::Gemini => Engine::Gemini(ws, options.semantics),
                    ToolsetProfile::ClaudeCode => Engine::ClaudeCode(ws, options.semantics),
                    ToolsetProfile::Copilot => Engine::Copilot(Box::new(copilot::Copilot::new(
                        ws,
                        options.semantics == Semantics::Native,
                    ))),
                    _ => Engine::OpenAi(ws, options.semantics),
                }
            }
        })
    }

    /// The profile it answers as.
    pub fn profile(&self) -> ToolsetProfile {
        self.profile
    }

    /// The root directory (canonical).
    pub fn root(&self) -> &Path {
        match &self.engine {
            Engine::Native(native) => native.root(),
            Engine::Editor(editor, _) => editor.root(),
            Engine::OpenAi(ws, _)
            | Engine::Codex(ws, _)
            | Engine::Gemini(ws, _)
            | Engine::ClaudeCode(ws, _) => ws.root(),
            Engine::Copilot(cp) => cp.root(),
        }
    }

    /// The profile's tool definitions, as its reference declares them (only those that never
    /// write when the toolset is read-only).
    pub fn tools(&self) -> Vec<ToolDefinition> {
        self.tools.clone()
    }

    /// The files a call of `name` with `input` would touch, resolved in the root, when they
    /// are known before it runs: its `path`, `file_path` or `filePath` argument. `None` means
    /// any file (a patch, a shell command). A host that runs a model's parallel calls at once
    /// and wants calls on one file in their order (as `hunkloom mcp` does) orders by these.
    pub fn files(&self, name: &str, input: &Value) -> Option<Vec<PathBuf>> {
        if matches!(self.engine, Engine::Native(_)) && native::Native::touches_any(name) {
            return None;
        }
        let path = ["path", "file_path", "filePath"]
            .iter()
            .find_map(|key| input.get(key).and_then(Value::as_str))?;
        Some(vec![match &self.engine {
            Engine::Native(native) => native
                .resolve(path)
                .unwrap_or_else(|| lexical(self.root(), path)),
            _ => lexical(self.root(), path),
        }])
    }

    /// Answers one call of the tool `name` with its arguments object `input`.
    ///
    /// Every mistake a model can make is a result with `is_error` set (an unknown tool name
    /// too, code `unknown_tool`); the only `Err` is an `input` that is not a JSON object, a
    /// host's misuse (kind `InvalidInput`).
    pub fn call(&self, name: &str, input: &Value) -> Result<ToolResult> {
        let Some(arguments) = input.as_object() else {
            return Err(Error::with_message(
                ErrorKind::InvalidInput,
                format!(
                    "a tool call's input must be a JSON object, not {}",
                    crate::editor::kind_of(input)
                ),
            ));
        };
        if self.withheld.iter().any(|w| w == name) {
            return Ok(ToolResult {
                output: format!("{name} is not available: the tools are read-only."),
                is_error: true,
                code: ToolCode::ReadOnly.as_str().to_owned(),
                ..ToolResult::default()
            });
        }
        // Codex's JSON-function form of `apply_patch` (`apply_patch_json` in the vectors) is
        // answered as Codex answers it, though no tool declares it.
        let known = self.tools.iter().any(|t| t.name == name)
            || (self.profile == ToolsetProfile::Codex && name == "apply_patch_json");
        if !known {
            let names: Vec<&str> = self.tools.iter().map(|t| t.name.as_str()).collect();
            return Ok(ToolResult {
                output: format!(
                    "Unknown tool {name:?}: the {} toolset has {}.",
                    self.profile,
                    names.join(", ")
                ),
                is_error: true,
                code: ToolCode::UnknownTool.as_str().to_owned(),
                ..ToolResult::default()
            });
        }
        match &self.engine {
            Engine::Native(native) => Ok(native.call(name, arguments)),
            Engine::Editor(_, Some(newest)) if name == crate::schema::NEWEST_ANTHROPIC_NAME => {
                newest.call(input)
            }
            Engine::Editor(editor, _) => editor.call(input),
            Engine::OpenAi(ws, semantics) => Ok(openai::call(ws, &self.turns, input, *semantics)),
            Engine::Codex(ws, semantics) => {
                Ok(codex::call(ws, &self.turns, name, input, *semantics))
            }
            Engine::Gemini(ws, semantics) => {
                Ok(gemini::call(ws, &self.turns, name, input, *semantics))
            }
            Engine::ClaudeCode(ws, semantics) => {
                Ok(claude_code::call(ws, &self.turns, name, input, *semantics))
            }
            Engine::Copilot(cp) => Ok(cp.call(name, input)),
        }
    }
}

impl Toolset {
    /// The text editor that answers the tool `name`, when that tool is a text editor the
    /// toolset offers (its calls can be previewed while they stream).
    pub(crate) fn editor_of(&self, name: &str) -> Option<&TextEditor> {
        if self.withheld.iter().any(|w| w == name) {
            return None;
        }
        match &self.engine {
            Engine::Native(native) => native.editor_of(name),
            Engine::Editor(_, Some(newest)) if name == crate::schema::NEWEST_ANTHROPIC_NAME => {
                Some(newest)
            }
            Engine::Editor(editor, _) if self.tools.iter().any(|t| t.name == name) => Some(editor),
            _ => None,
        }
    }

    /// The `openai` set's `apply_patch`, when `name` is it (a call of one operation can be
    /// previewed while it streams).
    pub(crate) fn operation_tool_of(&self, name: &str) -> Option<openai::OpenAiTool<'_>> {
        match &self.engine {
            Engine::OpenAi(ws, semantics)
                if name == "apply_patch" && !self.withheld.iter().any(|w| w == name) =>
            {
                Some(openai::OpenAiTool {
                    ws,
                    semantics: *semantics,
                })
            }
            _ => None,
        }
    }

    /// The `codex` set's `apply_patch`, when `name` is it (its patch can be previewed while
    /// it streams).
    pub(crate) fn codex_patch_of(&self, name: &str) -> Option<CodexTool<'_>> {
        match &self.engine {
            Engine::Codex(ws, semantics)
                if name == "apply_patch" && !self.withheld.iter().any(|w| w == name) =>
            {
                Some(CodexTool {
                    ws,
                    semantics: *semantics,
                })
            }
            _ => None,
        }
    }

    /// The native set, when the tool `name` is one of its tools that edit one file through
    /// the workspace (`apply_diff`, `apply_lazy`: their calls can be previewed while they
    /// stream).
    pub(crate) fn file_tool_of(&self, name: &str) -> Option<&native::Native> {
        match &self.engine {
            Engine::Native(native)
                if native.previews(name) && !self.withheld.iter().any(|w| w == name) =>
            {
                Some(native)
            }
            _ => None,
        }
    }
}

/// `path` joined to `root` with `.` and `..` folded, without touching the file system (an
/// absolute path, or one that leaves the root, as given).
fn lexical(root: &Path, path: &str) -> PathBuf {
    match hunkloom::paths::relative_key(path) {
        Some(key) => root.join(key),
        None => PathBuf::from(path),
    }
}

impl Engine {
    /// The tool definitions of the profile, all of them.
    fn definitions(&self, options: &ToolsetOptions) -> Vec<ToolDefinition> {
        match self {
            Engine::Native(native) => native.definitions(&ToolsetOptions {
                read_only: false,
                ..options.clone()
            }),
            Engine::Editor(editor, newest) => {
                // The reference's declaration, whichever rules answer it.
                let declared = options.profile.text_editor().unwrap_or(editor.profile());
                let mut schemas = vec![crate::schema(declared)];
                if newest.is_some() {
                    schemas.push(crate::schema_named(
                        Profile::Anthropic,
                        crate::schema::NEWEST_ANTHROPIC_NAME,
                    ));
                }
                schemas
                    .into_iter()
                    .map(|schema| {
                        ToolDefinition::new(
                            schema["name"].as_str().unwrap_or_default(),
                            schema["description"].as_str().unwrap_or_default(),
                            schema["input_schema"].clone(),
                        )
                    })
                    .collect()
            }
            Engine::OpenAi(..) => vec![openai::definition()],
            Engine::Codex(..) => codex::definitions(),
            Engine::Gemini(..) => gemini::definitions(),
            Engine::ClaudeCode(..) => claude_code::definitions(),
            Engine::Copilot(_) => copilot::definitions(),
        }
    }
}

//! `applyV4a`: a V4A per-file body (OpenAI's Responses-API `apply_patch` tool) applied as the
//! OpenAI Agents SDK's `apply_diff` applies it; `NativeBodyApplier`: the same body read the
//! native way while it streams, with a `PatchChunk` report per placed section.

use hunkloom::patch::native::{self, ChunkReport};
use hunkloom::patch::v4a::{self, V4aMode};
use hunkloom_handle::Handle;
use napi::{Env, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};

/// Applies a V4A body — one `create_file` / `update_file` operation of OpenAI's Responses-API
/// `apply_patch` tool, the hunks without the `*** Begin Patch` envelope — to `input` exactly as
/// the OpenAI Agents SDK's `apply_diff(input, diff, mode)` does, and returns the new text.
///
/// `@@ anchor` lines move the search forward (one that is not found is ignored unless the
/// section stacks several `@@` lines); each section's context and `-` lines are then found from
/// there, exactly, then ignoring trailing whitespace, then ignoring surrounding whitespace;
/// `*** End of File` tries the end first. The reference's behaviour is kept where it loses
/// data: every line ending becomes CRLF when `input` has any CRLF, and `mode: "create"`
/// (only `+` lines; `input` ignored) writes no final newline. For Codex's reading of the same
/// body, pass it to `applyPatch` with `{ path }`.
///
/// Throws an `Error` whose message is the reference's `ValueError` text, exactly, with `code`
/// `"invalid_patch_hunk"` (`Invalid Line: …`, `Nothing in this section …`, `Invalid Add File
/// Line: …`), `"patch_context_not_found"` (`Invalid Context …`, `Invalid EOF Context …`,
/// `Invalid Anchor …`) or `"overlapping_blocks"`; `"invalid_dialect"` for an unknown `mode`; a
/// `TypeError` (`code === "ERR_INVALID_ARG_TYPE"`) for an argument of the wrong type.
///
/// @param input The file's text (ignored in create mode).
/// @param diff The V4A body.
/// @param mode `"default"` (update `input`; the default) or `"create"` (a new file).
/// @example
/// ```ts
/// import { applyV4a } from "hunkloom"
/// // `operation`: an `apply_patch_call`'s `{ type: "update_file", path, diff }`
/// const text = applyV4a(source, operation.diff)
/// ```
#[napi(
    js_name = "applyV4a",
    catch_unwind,
    ts_args_type = "input: string, diff: string, mode?: 'default' | 'create'"
)]
pub fn apply_v4a(
    env: &Env,
    input: Unknown<'_>,
    diff: Unknown<'_>,
    mode: Unknown<'_>,
) -> napi::Result<String> {
    let run = || -> Result<String, Failure> {
        let input = args::string(&input, "input")?;
        let diff = args::string(&diff, "diff")?;
        let mode = match args::optional_string(&mode, "mode")? {
            None => V4aMode::default(),
            Some(name) => name.parse::<V4aMode>()?,
        };
        Ok(v4a::apply_v4a(&input, &diff, mode)?)
    };
    errors::run(env, run)
}

/// How one section of a V4A body was placed by the native reading.
#[napi(object, object_from_js = false)]
pub struct PatchChunk {
    /// Its 1-based index in the body.
    pub index: u32,
    /// The 1-based line of the file where its lines start.
    pub line: u32,
    /// How many lines of the file it covers (context and removed).
    pub context_lines: u32,
    /// How many lines it removes.
    pub removed: u32,
    /// How many lines it adds.
    pub added: u32,
    /// The tier that placed it (`"exact"`, `"indentation"`, ...).
    #[napi(
        ts_type = "'exact' | 'line_trimmed' | 'line_endings' | 'trailing_whitespace' | 'indentation' | 'punctuation' | 'line_number_prefix' | 'typo'"
    )]
    pub strategy: String,
    /// Every kind of difference the match tolerated.
    #[napi(
        ts_type = "Array<'line_endings' | 'trailing_whitespace' | 'indentation' | 'punctuation' | 'line_number_prefixes' | 'blank_lines' | 'typo'>"
    )]
    pub normalizations: Vec<String>,
    /// How many places the deciding tier found.
    pub candidates: u32,
    /// What chose among several places, or `null`.
    #[napi(ts_type = "'anchor' | 'end_of_file' | null")]
    pub chosen_by: Option<String>,
    /// Its new lines were already there: nothing changed.
    pub already_applied: bool,
    /// The columns its `+` lines were re-indented by.
    pub indent_delta: i32,
}

impl PatchChunk {
    fn of(c: &ChunkReport) -> Self {
        let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        PatchChunk {
            index: n(c.index),
            line: n(c.line),
            context_lines: n(c.context_lines),
            removed: n(c.removed),
            added: n(c.added),
            strategy: c.strategy.as_str().to_owned(),
            normalizations: c
                .normalizations
                .iter()
                .map(|x| x.as_str().to_owned())
                .collect(),
            candidates: n(c.candidates),
            chosen_by: c.chosen_by.map(|b| b.as_str().to_owned()),
            already_applied: c.already_applied,
            indent_delta: i32::try_from(c.indent_delta).unwrap_or(0),
        }
    }
}

/// What `NativeBodyApplier.finish` gives.
#[napi(object, object_from_js = false)]
pub struct NativeBodyOutcome {
    /// The whole new text.
    pub new_content: String,
    /// A report per section that changes something, in body order.
    pub chunks: Vec<PatchChunk>,
}

/// Applies one V4A body (an `update_file` / `create_file` operation's `diff`) the native way
/// while it streams: each section is placed once the line after it has arrived, in exactly one
/// place of `input` or the body refused (see `applyPatch` with `{ dialect: "native" }`).
/// `finish()` gives the same text for every way the body was cut.
///
/// @example
/// ```ts
/// import { NativeBodyApplier } from "hunkloom"
/// const applier = new NativeBodyApplier(source)
/// for (const delta of deltas) { applier.push(delta); show(applier.preview) }
/// const { newContent, chunks } = applier.finish()
/// ```
#[napi]
pub struct NativeBodyApplier {
    inner: Handle<native::NativeBodyApplier<'static>>,
}

#[napi]
impl NativeBodyApplier {
    /// An applier of a body to `input` (the file's text).
    ///
    /// @param input The file's text (ignored in create mode).
    /// @param mode `"default"` (update `input`; the default) or `"create"` (a new file).
    #[napi(
        catch_unwind,
        constructor,
        ts_args_type = "input: string, mode?: 'default' | 'create'"
    )]
    pub fn new(env: &Env, input: Unknown<'_>, mode: Unknown<'_>) -> napi::Result<Self> {
        let run = || -> Result<NativeBodyApplier, Failure> {
            let input = args::string(&input, "input")?;
            let mode = match args::optional_string(&mode, "mode")? {
                None => V4aMode::default(),
                Some(name) => name.parse::<V4aMode>()?,
            };
            Ok(NativeBodyApplier {
                inner: Handle::new("applier", native::NativeBodyApplier::new(input, mode)),
            })
        };
        errors::run(env, run)
    }

    /// Feeds the next piece of the body; the chunks placed so far. Throws the body's error once
    /// a section cannot be read or placed (and again on every later call).
    #[napi(catch_unwind, ts_args_type = "chunk: string")]
    pub fn push(&mut self, env: &Env, chunk: Unknown<'_>) -> napi::Result<Vec<PatchChunk>> {
        let chunk = args::string(&chunk, "chunk").map_err(|f| f.into_napi(env))?;
        match self.inner.with(|applier| {
            applier
                .push(&chunk)
                .map(|chunks| chunks.iter().map(PatchChunk::of).collect())
        }) {
            Ok(Ok(chunks)) => Ok(chunks),
            Ok(Err(e)) | Err(e) => Err(Failure::Core(e).into_napi(env)),
        }
    }

    /// `input` with the chunks placed so far applied.
    #[napi(catch_unwind, getter)]
    pub fn preview(&self, env: &Env) -> napi::Result<String> {
        self.inner
            .with(|applier| applier.preview())
            .map_err(|e| Failure::Core(e).into_napi(env))
    }

    /// Ends the body: the new text and a report per section that changes something, or its
    /// error. The applier is finished afterwards.
    #[napi(catch_unwind)]
    pub fn finish(&mut self, env: &Env) -> napi::Result<NativeBodyOutcome> {
        let outcome = self
            .inner
            .finish(|mut applier| applier.finish())
            .and_then(|outcome| outcome)
            .map_err(|e| Failure::Core(e).into_napi(env))?;
        Ok(NativeBodyOutcome {
            chunks: outcome.chunks.iter().map(PatchChunk::of).collect(),
            new_content: outcome.new_content,
        })
    }
}

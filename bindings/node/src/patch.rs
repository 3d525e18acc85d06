//! `applyPatch`: a multi-file patch in the `*** Begin Patch` format (Codex's `apply_patch`,
//! Cline's `apply_patch` tool) planned and applied in memory; and the reading of its `dialect`
//! / `policy` options, which `Workspace.applyPatch` shares.

use hunkloom::Policy;
use hunkloom::patch::v4a::V4aMode;
use hunkloom::patch::{PatchDialect, PatchOptions, plan_patch_or_body};
use napi::{Env, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};
use crate::types::PatchResult;

/// The `dialect` (default `codex`), `policy` (default all or nothing) and `recount` of an
/// options object.
pub fn patch_options(options: &args::Options<'_>) -> Result<PatchOptions, Failure> {
    let dialect = match options.string("dialect")? {
        None => PatchDialect::default(),
        Some(name) => name.parse::<PatchDialect>()?,
    };
    let policy = match options.string("policy")? {
        None => Policy::default(),
        Some(name) => name.parse::<Policy>()?,
    };
    Ok(PatchOptions::new()
        .dialect(dialect)
        .policy(policy)
        .recount(crate::apply::recount(options)?))
}

/// Applies a multi-file patch in the `*** Begin Patch` format to `files` (contents by path) in
/// memory, and returns the whole file map afterwards; nothing touches the disk (for files on
/// disk, `Workspace.applyPatch`).
///
/// ```text
/// *** Begin Patch
/// *** Add File: path        then "+" lines
/// *** Delete File: path
/// *** Update File: path     then "*** Move to: path"?, and chunks: "@@ context"?, then
///                           " " / "-" / "+" lines, "*** End of File"?
/// *** End Patch
/// ```
///
/// Every file's new content is planned first, so by default (`policy: "all_or_nothing"`) a
/// failing hunk throws and nothing is applied; `"partial"` keeps the hunks before it (what
/// Codex leaves on disk) and reports it in `failure`. Patch paths are map keys as written;
/// update and delete hunks read `files[path]`.
///
/// - `dialect: "codex"` (the default): Codex's reading (markers padded with whitespace, a
///   heredoc wrapper, a first chunk without `@@`), hunks in order, each chunk located after
///   the previous one by exact, trailing-whitespace, whitespace and typographic-punctuation
///   matching; untouched lines keep their line endings and new lines take their neighbours'.
/// - `dialect: "cline"`: Cline v4.0.10's `apply_patch` tool byte for byte — its `fuzz`, its
///   `warnings` for chunks it skips, its error messages.
/// - `dialect: "udiff"` or `"udiff-strict"`: not this format but a unified diff of any number
///   of files (a git patch: `diff --git` and/or `---`/`+++` per file; `/dev/null` adds or
///   deletes a file, different names move it), each file's hunks applied as `applyDiff`
///   applies them in that dialect (`recount: true` for `git apply --recount`).
/// - `dialect: "aider"`, `"aider-fenced"` or `"aider-whole"`: a model's reply in one of
///   aider's edit formats (SEARCH/REPLACE blocks under file names, or whole-file listings),
///   applied as aider 0.86 applies it, `files` being its chat files; its failure texts as the
///   message (`policy: "partial"` keeps what aider keeps).
///
/// With `path` (see `PatchBodyOptions`), `patch` is a bare per-file body — what OpenAI's
/// Responses-API `apply_patch` tool sends, a V4A body — for that one file, read as Codex reads
/// it inside `*** Begin Patch` / `*** Update File: <path>` (`mode: "create"`: `*** Add File:`)
/// / `*** End Patch` (`codex` and `native` dialects only). `applyV4a` applies the same body as the OpenAI
/// Agents SDK does.
///
/// Throws an `Error` with the core's `code` and message: `invalid_patch` / `invalid_patch_hunk`
/// (a parse error, with the line number), `empty_patch`, `patch_file_not_found`,
/// `patch_context_not_found`, Cline's errors in `cline`; `invalid_dialect` / `invalid_policy`
/// for an unknown option; a `TypeError` (`code === "ERR_INVALID_ARG_TYPE"`) for an argument of
/// the wrong type (`files` must be an object of strings).
///
/// @param patch The whole patch text.
/// @param files The current files: content by path (paths as the patch names them).
/// @param options `dialect` (default `"codex"`), `policy` (default `"all_or_nothing"`) and
/// `recount` (`udiff-strict`); `path` (and `mode`) for a bare body.
/// @example
/// ```ts
/// import { applyPatch } from "hunkloom"
/// const { files, deleted, warnings } = applyPatch(patch, { "src/app.py": source })
/// ```
#[napi(
    catch_unwind,
    ts_args_type = "patch: string, files: Record<string, string>, options?: PatchOptions & PatchBodyOptions"
)]
pub fn apply_patch(
    env: &Env,
    patch: Unknown<'_>,
    files: Unknown<'_>,
    options: Unknown<'_>,
) -> napi::Result<PatchResult> {
    let run = || -> Result<PatchResult, Failure> {
        let patch = args::string(&patch, "patch")?;
        let files = args::string_record(&files, "files")?;
        let options = args::Options::read(&options, "options", args::keys::PATCH_AND_BODY)?;
        let path = options.string("path")?;
        let mode = match options.string("mode")? {
            None => V4aMode::default(),
            Some(name) => name.parse::<V4aMode>()?,
        };
        let options = patch_options(&options)?;
        let plan = plan_patch_or_body(&patch, path.as_deref(), mode, &files, &options)?;
        Ok(PatchResult::of(&plan, files))
    };
    errors::run(env, run)
}

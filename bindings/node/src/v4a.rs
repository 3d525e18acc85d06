//! `applyV4a`: a V4A per-file body (OpenAI's Responses-API `apply_patch` tool) applied as the
//! OpenAI Agents SDK's `apply_diff` applies it.

use hunkloom::patch::v4a::{self, V4aMode};
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

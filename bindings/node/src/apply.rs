//! `applyDiff`: a whole diff applied at once, `native` by default; and the reading of the
//! `dialect` / `policy` options it shares with `StreamingApplier`.

use hunkloom::ApplyOptions;
use napi::bindgen_prelude::FromNapiValue;
use napi::{Either, Env, JsValue, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};
use crate::types::{self, Outcome};

/// The options object of `applyDiff`, `StreamingApplier` and `Workspace.applyDiff`
/// (`options` names it in messages), each key left out at the core's default (the dialect
/// unset, for the entry point to fill in).
pub fn apply_options(options: &args::Options<'_>) -> Result<ApplyOptions, Failure> {
    let dialect = options.string("dialect")?;
    let policy = options.string("policy")?;
    let fuzzy_threshold = options.number("fuzzyThreshold")?;
    let buffer_lines = options
        .integer("bufferLines")?
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let options_read = ApplyOptions::from_names(
        dialect.as_deref(),
        policy.as_deref(),
        fuzzy_threshold,
        buffer_lines,
    )?;
    Ok(options_read.recount(recount(options)?))
}

/// The `recount` of an options object (`udiff-strict`'s `git apply --recount`; default false).
pub fn recount(options: &args::Options<'_>) -> Result<bool, Failure> {
    Ok(options.boolean("recount")?.unwrap_or(false))
}

/// Applies a whole diff (SEARCH/REPLACE blocks, or a unified diff in `udiff` and
/// `udiff-strict`) to `original` and returns the new content with a report per block, or
/// throws.
///
/// In the default `native` dialect each block is located on its own, whatever the block order,
/// by tiers from strict to loose: exact, line endings, trailing whitespace, indentation (tabs
/// and spaces understood), typographic punctuation, read-tool line-number prefixes, blank
/// lines, one small typo. The replacement is written verbatim (shifted back only when it
/// carries the SEARCH text's wrong indentation; `reindented` says so), with the line endings of
/// the region it replaces; nothing outside the matched regions changes. Every marker spelling
/// models emit is read (Cline's, aider's and Roo's, `:start_line:` hints); text outside blocks
/// is ignored. Each block's report says which tier matched (`strategy`), the lines it covers,
/// the indentation change and the `normalizations` it tolerated.
///
/// It refuses instead of guessing. A SEARCH text found in two or more places throws an `Error`
/// with `code === "ambiguous_match"` whose message names the candidate lines; one found
/// nowhere throws `search_not_found`, with the closest window and its line numbers and whether
/// the edit seems applied already; two blocks matching overlapping lines throw
/// `overlapping_blocks`; a diff without a complete block throws `malformed_block`. Messages
/// are written for a model to act on. By default a diff applies all its blocks or none; with
/// `policy: "partial"` it applies the blocks that matched and reports the others with
/// `status === "failed"` and their `error`.
///
/// `"udiff"` reads a unified diff of one file as the model meant it: each hunk is placed by its
/// context and removed lines (line numbers are only hints; wrong counts, missing headers,
/// fences and drifted whitespace are fine), in exactly one place or refused
/// (`ambiguous_match` with every candidate, `search_not_found` with the closest lines), all
/// hunks or none; each hunk is reported like a block. `"udiff-strict"` applies it exactly as
/// `git apply` does (`recount: true` for `git apply --recount`), throwing git's `error:`
/// lines (codes `invalid_patch`, `patch_context_not_found`).
///
/// `"cline-v1"` and `"cline-v2"` give what Cline's `constructNewFileContent(diff, original,
/// true)` gives, byte for byte. `"roo"` gives Roo Code's `apply_diff` result (its
/// `MultiSearchReplaceDiffStrategy` with the options' `fuzzyThreshold` and `bufferLines`),
/// whatever the policy: `newContent` is Roo's `content` and the blocks in Roo's `failParts` are
/// reported, in order, with `status === "failed"` and Roo's text as their `error`; a diff none
/// of whose blocks applied throws the first failure's code with every failure's text,
/// separated by blank lines (`MultiSearchReplaceDiffStrategy` returns Roo's object instead). The result equals a `StreamingApplier` of the same options fed
/// the diff in any chunking. Positions are JavaScript string indices (UTF-16 units).
///
/// Throws a `TypeError` (`code === "ERR_INVALID_ARG_TYPE"`) for an argument of the wrong
/// type, an `Error` with `code === "invalid_dialect"` or `"invalid_policy"` for an unknown
/// option name.
///
/// @param diff The SEARCH/REPLACE blocks, complete.
/// @param original The file's content before the edit.
/// @param options `dialect` (default `"native"`), `policy` (default `"all_or_nothing"`), for
/// `"roo"` `fuzzyThreshold` (default 1.0) and `bufferLines` (default 40), and `recount`
/// (`udiff-strict`; default `false`).
/// @example
/// ```ts
/// import { applyDiff } from "hunkloom"
/// try {
///   const { newContent, blocks } = applyDiff(diff, original)
/// } catch (err) {
///   // err.code: "search_not_found", "ambiguous_match", …; err.message tells the model why.
/// }
/// ```
#[napi(
    catch_unwind,
    ts_args_type = "diff: string, original: string, options?: ApplyOptions"
)]
pub fn apply_diff(
    env: &Env,
    diff: Unknown<'_>,
    original: Unknown<'_>,
    options: Unknown<'_>,
) -> napi::Result<Outcome> {
    errors::run(env, || {
        applied(&diff, &original, &options).map(Outcome::from)
    })
}

/// The core's `apply_diff` of `applyDiff`'s arguments, checked and converted.
fn applied(
    diff: &Unknown<'_>,
    original: &Unknown<'_>,
    options: &Unknown<'_>,
) -> Result<hunkloom::Outcome, Failure> {
    let diff = args::string(diff, "diff")?;
    let original = args::string(original, "original")?;
    let options = args::Options::read(options, "options", args::keys::APPLY)?;
    Ok(hunkloom::apply_diff(
        &diff,
        &original,
        &apply_options(&options)?,
    )?)
}

/// `applyDiff` for the JavaScript layer (lib/outcome.js), which builds the result's objects
/// itself: the new content, with the reports written into `numbers` by
/// [`types::pack_outcome`], or the [`Outcome`] conversion when they do not fit or a block
/// failed. The same checks, result and errors as `applyDiff`.
#[napi(catch_unwind, js_name = "__applyDiffPacked", skip_typescript)]
pub fn apply_diff_packed(
    env: &Env,
    diff: Unknown<'_>,
    original: Unknown<'_>,
    options: Unknown<'_>,
    numbers: Unknown<'_>,
) -> napi::Result<Either<String, Outcome>> {
    // SAFETY: `env` and `numbers` are this call's; the slice is dropped before it returns, and
    // the JavaScript layer passes its own Uint32Array, which nothing else touches during the
    // call (a value of another type is refused by the conversion).
    let numbers = unsafe { <&mut [u32]>::from_napi_value(env.raw(), numbers.raw()) }?;
    errors::run(env, || {
        let outcome = applied(&diff, &original, &options)?;
        Ok(if types::pack_outcome(&outcome, numbers) {
            Either::A(outcome.new_content)
        } else {
            Either::B(Outcome::from(outcome))
        })
    })
}

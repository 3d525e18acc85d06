//! `MultiSearchReplaceDiffStrategy`: a drop-in for Roo Code's class of that name (the
//! `apply_diff` strategy of Roo Code and the agents forked from it).

use hunkloom::TextOffset;
use hunkloom::roo::{self, DiffResult as CoreResult, RooOptions};
use hunkloom::text::Piece;
use napi::bindgen_prelude::{Array, AsyncTask, JsObjectValue, Object};
use napi::{Env, JsValue, Task, Unknown, ValueType};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};
use crate::pieces::{Extra, Reply, Wire};
use crate::types::DiffResult;

/// What `validateMarkerSequencing` returns.
#[napi(object, object_from_js = false)]
pub struct MarkerCheck {
    /// Whether the markers are in sequence.
    pub success: bool,
    /// Roo's message when they are not.
    pub error: Option<String>,
}

/// What `getProgressStatus` returns: both properties, or neither (Roo's `{}`).
#[napi(object, object_from_js = false)]
pub struct ToolProgressStatus {
    /// `"diff-multiple"`.
    pub icon: Option<String>,
    /// The block count, or `applied/total` when blocks failed.
    pub text: Option<String>,
}

/// One `applyDiff` call, run on libuv's thread pool. Argument errors found on the JavaScript
/// thread travel through it, so they reject the Promise instead of throwing.
pub struct RooTask {
    call: Option<Result<(String, String, RooOptions), Failure>>,
}

impl Task for RooTask {
    type Output = Result<CoreResult, Failure>;
    type JsValue = DiffResult;

    /// Runs outside every `#[napi(catch_unwind)]`: a panic is caught and rejects the Promise
    /// (`internal_error`).
    fn compute(&mut self) -> napi::Result<Self::Output> {
        let call = self.call.take();
        Ok(errors::catch(|| match call {
            Some(Ok((original, diff, options))) => Ok(roo::apply_diff(&original, &diff, &options)),
            Some(Err(failure)) => Err(failure),
            None => Err(Failure::ArgType("the task ran twice".to_owned())),
        })
        .and_then(|result| result))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<DiffResult> {
        output.map(DiffResult::from).map_err(|f| f.into_napi(&env))
    }
}

/// One `applyDiff` call on a large input, run on libuv's thread pool, answered for the
/// JavaScript layer as pieces (see [`pieces`](crate::pieces)): the content is the original's
/// unchanged start and end around the one span Roo's blocks changed, so a 2 MB file crosses
/// into Rust once and its result is built from slices of the caller's own string, not copied
/// back. The `DiffResult`'s other properties travel as the answer's extra value.
pub struct RooPiecesTask {
    call: Option<Result<(String, String, RooOptions), Failure>>,
}

impl Task for RooPiecesTask {
    type Output = Result<(Wire, DiffResult), Failure>;
    type JsValue = Reply;

    /// Runs outside every `#[napi(catch_unwind)]`: a panic is caught and rejects the Promise
    /// (`internal_error`).
    fn compute(&mut self) -> napi::Result<Self::Output> {
        let call = self.call.take();
        Ok(errors::catch(|| match call {
            Some(Ok((original, diff, options))) => Ok(as_pieces(
                &original,
                roo::apply_diff(&original, &diff, &options),
            )),
            Some(Err(failure)) => Err(failure),
            None => Err(Failure::ArgType("the task ran twice".to_owned())),
        })
        .and_then(|result| result))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Reply> {
        output
            .map(|(wire, result)| wire.reply(None, Extra::Roo(result)))
            .map_err(|f| f.into_napi(&env))
    }
}

/// `result` as an answer: the content (if any) as pieces of `original` and the changed span's
/// new text, the rest as a `DiffResult` without `content`.
fn as_pieces(original: &str, result: CoreResult) -> (Wire, DiffResult) {
    let mut wire = Wire::default();
    let mut result = DiffResult::from(result);
    if let Some(content) = result.content.take() {
        let span = hunkloom::text::changed_span(original, &content);
        let end = span.end + TextOffset::of(&original[span.end.bytes..]);
        wire.pieces([
            Piece::Original {
                start: TextOffset::default(),
                end: span.start,
            },
            Piece::New(span.inserted.into()),
            Piece::Original {
                start: span.end,
                end,
            },
        ]);
    }
    (wire, result)
}

/// Roo Code's `MultiSearchReplaceDiffStrategy`, byte for byte: `applyDiff` resolves to the same
/// `DiffResult` as Roo's class constructed with the same arguments (the same `content`, the
/// same `failParts` and error texts), at any fuzzy threshold. An agent built on Roo's class
/// swaps it in by changing the import.
///
/// Roo's rules in short: blocks are applied in the order of their `:start_line:` hints, each
/// located by similarity (Levenshtein over the texts with whitespace collapsed and typographic
/// punctuation folded; 1.0 means equal after that) at its hint, then within `bufferLines` of it
/// (or the whole file without a hint, from the middle outwards); REPLACE lines are re-indented
/// relative to the first matched line; blocks that fail are listed in `failParts` while the
/// others apply. Large inputs are applied off the JavaScript thread (on libuv's pool), small
/// ones on it, where a pool trip would cost more than the work; either way in time bounded by
/// Roo's own, and the Promise resolves the same.
///
/// Strings cross into Rust as UTF-8: a lone surrogate (half a UTF-16 pair) in the original or
/// the diff becomes U+FFFD.
///
/// @example
/// ```ts
/// import { MultiSearchReplaceDiffStrategy } from "hunkloom"
/// const strategy = new MultiSearchReplaceDiffStrategy(0.9) // fuzzyThreshold, bufferLines?
/// const result = await strategy.applyDiff(original, diff)
/// if (result.success) write(result.content)
/// ```
#[napi]
pub struct MultiSearchReplaceDiffStrategy {
    options: RooOptions,
}

/// `x ?? default` for a number argument: `undefined` and `null` give `None`.
fn nullish_number(value: &Unknown<'_>, name: &str) -> Result<Option<f64>, Failure> {
    match value.get_type() {
        Ok(ValueType::Undefined | ValueType::Null) => Ok(None),
        _ => args::number(value, name).map(Some),
    }
}

/// The property `key` of `value` if `value` is an object.
fn property<'env>(value: &Unknown<'env>, key: &str) -> Option<Unknown<'env>> {
    if value.get_type().ok()? != ValueType::Object {
        return None;
    }
    // SAFETY: the value was just checked to be an object.
    let object = unsafe { value.cast::<Object<'env>>() }.ok()?;
    object.get_named_property::<Unknown<'env>>(key).ok()
}

impl MultiSearchReplaceDiffStrategy {
    /// An `applyDiff` call's arguments, checked on the JavaScript thread, for a pool task.
    fn call(
        &self,
        original: &Unknown<'_>,
        diff: &Unknown<'_>,
    ) -> Result<(String, String, RooOptions), Failure> {
        let original = args::string(original, "originalContent")?;
        let diff = args::string(diff, "diffContent")?;
        Ok((original, diff, self.options))
    }
}

#[napi]
impl MultiSearchReplaceDiffStrategy {
    /// A strategy with Roo's settings.
    ///
    /// @param fuzzyThreshold The similarity a window needs to be replaced, from 0 to 1 (default
    /// 1.0, exact once whitespace and typographic punctuation are folded; Roo's 90% setting
    /// passes 0.9). Any number is taken as Roo takes it.
    /// @param bufferLines How many lines around a `:start_line:` hint are searched and shown
    /// in a failure's context (default 40): a non-negative integer, else a `RangeError`.
    #[napi(
        catch_unwind,
        constructor,
        ts_args_type = "fuzzyThreshold?: number, bufferLines?: number"
    )]
    pub fn new(
        env: &Env,
        fuzzy_threshold: Unknown<'_>,
        buffer_lines: Unknown<'_>,
    ) -> napi::Result<Self> {
        errors::run(env, || {
            let mut options = RooOptions::new();
            if let Some(t) = nullish_number(&fuzzy_threshold, "fuzzyThreshold")? {
                options = options.fuzzy_threshold(t);
            }
            if nullish_number(&buffer_lines, "bufferLines")?.is_some() {
                let n = args::non_negative_integer(&buffer_lines, "bufferLines")?;
                options = options.buffer_lines(usize::try_from(n).unwrap_or(usize::MAX));
            }
            Ok(MultiSearchReplaceDiffStrategy { options })
        })
    }

    /// `"MultiSearchReplace"`, as Roo's class names itself.
    #[napi(catch_unwind)]
    pub fn get_name(&self) -> String {
        "MultiSearchReplace".to_owned()
    }

    /// Applies `diffContent` (SEARCH/REPLACE blocks with optional `:start_line:` hints) to
    /// `originalContent`, resolving to Roo's `DiffResult`. Roo ignores the third and fourth
    /// arguments, and so does this. An argument of the wrong type rejects with a `TypeError`.
    #[napi(
        catch_unwind,
        ts_args_type = "originalContent: string, diffContent: string, paramStartLine?: number, paramEndLine?: number",
        ts_return_type = "Promise<DiffResult>"
    )]
    pub fn apply_diff(
        &self,
        original_content: Unknown<'_>,
        diff_content: Unknown<'_>,
    ) -> AsyncTask<RooTask> {
        let call = self.call(&original_content, &diff_content);
        AsyncTask::new(RooTask { call: Some(call) })
    }

    /// `applyDiff` on libuv's thread pool, for the JavaScript layer, which calls it for large
    /// inputs and builds the content from the answer's pieces and the caller's original (see
    /// [`RooPiecesTask`]). The same result and errors.
    #[napi(catch_unwind, js_name = "__applyDiffPieces", skip_typescript)]
    pub fn apply_diff_pieces(
        &self,
        original_content: Unknown<'_>,
        diff_content: Unknown<'_>,
    ) -> AsyncTask<RooPiecesTask> {
        let call = self.call(&original_content, &diff_content);
        AsyncTask::new(RooPiecesTask { call: Some(call) })
    }

    /// `applyDiff` on the calling thread, for the JavaScript layer, which calls it when the
    /// inputs are small: a thread-pool trip then costs more than the work. The same result and
    /// errors (thrown here; the layer turns them into the Promise's rejection).
    #[napi(catch_unwind, js_name = "__applyDiffSync", skip_typescript)]
    pub fn apply_diff_sync(
        &self,
        env: &Env,
        original_content: Unknown<'_>,
        diff_content: Unknown<'_>,
    ) -> napi::Result<DiffResult> {
        errors::run(env, || {
            let original = args::string(&original_content, "originalContent")?;
            let diff = args::string(&diff_content, "diffContent")?;
            Ok(DiffResult::from(roo::apply_diff(
                &original,
                &diff,
                &self.options,
            )))
        })
    }

    /// Roo's first check of a diff: whether its marker lines are in the SEARCH → `=======` →
    /// REPLACE sequence, and Roo's message if not (what `applyDiff` then resolves with).
    #[napi(catch_unwind, ts_args_type = "diffContent: string")]
    pub fn validate_marker_sequencing(
        &self,
        env: &Env,
        diff_content: Unknown<'_>,
    ) -> napi::Result<MarkerCheck> {
        errors::run(env, || {
            let diff = args::string(&diff_content, "diffContent")?;
            Ok(match roo::validate_marker_sequencing(&diff) {
                Ok(()) => MarkerCheck {
                    success: true,
                    error: None,
                },
                Err(e) => MarkerCheck {
                    success: false,
                    error: Some(e.message().to_owned()),
                },
            })
        })
    }

    /// What Roo's tool shows as progress: for a streaming tool call (`toolUse.partial`) the
    /// number of `SEARCH` words in `toolUse.params.diff` (only when the diff's length is in the
    /// first tenth of a hundred), for a finished one with its `result` that number, or
    /// `applied/total` when `result.failParts` is not empty; `{}` otherwise.
    #[napi(
        catch_unwind,
        ts_args_type = "toolUse: { params: { diff?: string }, partial?: boolean }, result?: DiffResult"
    )]
    pub fn get_progress_status(
        &self,
        env: &Env,
        tool_use: Unknown<'_>,
        result: Unknown<'_>,
    ) -> napi::Result<ToolProgressStatus> {
        errors::run(env, || {
            let diff = property(&tool_use, "params")
                .and_then(|p| property(&p, "diff"))
                .filter(|d| d.get_type().ok() == Some(ValueType::String))
                .map(|d| args::string(&d, "toolUse.params.diff"))
                .transpose()?
                .unwrap_or_default();
            let partial = property(&tool_use, "partial")
                .and_then(|p| p.coerce_to_bool().ok())
                .unwrap_or(false);
            let fail_parts = match result.get_type() {
                Ok(ValueType::Object) => Some(
                    property(&result, "failParts")
                        .filter(|p| p.is_array().unwrap_or(false))
                        // SAFETY: just checked to be an array.
                        .and_then(|p| unsafe { p.cast::<Array<'_>>() }.ok())
                        .map_or(0, |a| a.len() as usize),
                ),
                _ => None,
            };
            Ok(match roo::progress_status(&diff, partial, fail_parts) {
                Some(s) => ToolProgressStatus {
                    icon: Some(s.icon.to_owned()),
                    text: Some(s.text),
                },
                None => ToolProgressStatus {
                    icon: None,
                    text: None,
                },
            })
        })
    }
}

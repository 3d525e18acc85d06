//! The plain objects returned to JavaScript, and their conversion from the core's types.
//!
//! Every position is a JavaScript string index (UTF-16 code units), taken from the offsets the
//! core tracks in every unit, so nothing here rescans text. Indices fit in `u32`: V8 strings are
//! shorter than 2^30 units.

use napi::bindgen_prelude::{Null, ToNapiValue};
use napi::{Env, JsValue, sys};
use napi_derive::napi;
use patchloom::Position;

use crate::errors;

/// A UTF-16 offset as a JavaScript number.
fn index(utf16: usize) -> u32 {
    u32::try_from(utf16).unwrap_or(u32::MAX)
}

/// A count or a line number as a JavaScript number.
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// UTF-16 offsets of positions, in order.
pub fn indices(positions: &[Position]) -> Vec<u32> {
    positions.iter().map(|p| index(p.utf16)).collect()
}

/// What `constructNewFileContent` resolves to — the same shape as Cline's result.
#[napi(object)]
pub struct NewFileContent {
    /// The new file content (for a partial call, what the file looks like so far).
    pub new_content: String,
    /// Where each applied block starts in the original, as JavaScript string indices (UTF-16
    /// code units): completion order for partial calls, sorted for final ones, always empty for
    /// `"v2"` — exactly as Cline reports them.
    pub match_indices: Vec<u32>,
}

impl From<patchloom::cline::ResumedContent> for NewFileContent {
    fn from(r: patchloom::cline::ResumedContent) -> Self {
        NewFileContent {
            match_indices: indices(&r.match_indices),
            new_content: r.new_content,
        }
    }
}

/// What happened to one SEARCH/REPLACE block.
#[napi(object, object_from_js = false)]
pub struct BlockReport {
    /// The block's number among completed blocks, from 0, in the order they completed.
    pub index: u32,
    /// Whether the block was applied. `"failed"` only in `native`: with the `"partial"` policy
    /// in `Outcome.blocks`, and in `Update.completed` while streaming; `error` says why. (The
    /// Cline dialects throw instead.)
    #[napi(ts_type = "'applied' | 'failed'")]
    pub status: String,
    /// How its SEARCH text was located.
    ///
    /// Cline dialects: `exact` (at or after the previous block), `line_trimmed` (lines equal
    /// after trimming), `block_anchor` (first and last lines equal after trimming, 3+ lines),
    /// `exact_anywhere` (exact, before the previous block; applied out of order),
    /// `empty_search_new_file` (empty SEARCH on an empty file) or `empty_search_whole_file`
    /// (empty SEARCH replacing the whole file, v2).
    ///
    /// `native`, the tier that matched, strictest first: `exact`, `line_endings`,
    /// `trailing_whitespace`, `indentation` (a uniform indentation change, tabs and spaces
    /// understood), `punctuation` (curly quotes, dashes, ellipsis, exotic spaces folded),
    /// `line_number_prefix` (read-tool line numbers stripped from the SEARCH lines),
    /// `blank_lines`, `typo` (one line differs by a small letter edit), or
    /// `empty_search_new_file`; `unmatched` for a failed block.
    #[napi(
        ts_type = "'exact' | 'line_trimmed' | 'block_anchor' | 'exact_anywhere' | 'empty_search_new_file' | 'empty_search_whole_file' | 'line_endings' | 'trailing_whitespace' | 'indentation' | 'punctuation' | 'line_number_prefix' | 'blank_lines' | 'typo' | 'unmatched'"
    )]
    pub strategy: String,
    /// Where the matched text starts in the original (UTF-16 index; 0 for a failed block).
    pub start: u32,
    /// Where the matched text ends in the original (UTF-16 index; Cline's fuzzy strategies
    /// report one past the end of a file without a final newline, as Cline does; 0 for a failed
    /// block).
    pub end: u32,
    /// The 1-based line of `start` (0 for a failed block).
    pub start_line: u32,
    /// The 1-based line the matched text ends on, so `startLine..endLine` (inclusive) are the
    /// lines it covers; `startLine` when it is empty, 0 for a failed block.
    pub end_line: u32,
    /// How many places the deciding tier found: 1, or more when a `:start_line:` hint chose
    /// among them (`native`); 0 for a failed block. The Cline dialects take the first match and
    /// report 1.
    pub candidates: u32,
    /// The indentation change from the SEARCH text to the file, in columns (`native`; 0
    /// otherwise).
    pub indent_delta: i32,
    /// Whether the replacement was shifted by `indentDelta` because it carried the SEARCH
    /// text's (wrong) indentation rather than the file's (`native`).
    pub reindented: bool,
    /// The differences between the SEARCH text and the file that the match tolerated
    /// (`native`; empty for an exact match and in the Cline dialects).
    #[napi(
        ts_type = "Array<'line_endings' | 'trailing_whitespace' | 'indentation' | 'punctuation' | 'line_number_prefixes' | 'blank_lines' | 'typo'>"
    )]
    pub normalizations: Vec<String>,
    /// Why the block failed (`status === "failed"`), else `null`: an `Error` with a stable
    /// `code` (`search_not_found`, `ambiguous_match`, `overlapping_blocks`,
    /// `malformed_block`, …) and a message written for a model to act on.
    #[napi(ts_type = "Error | null")]
    pub error: BlockError,
}

impl From<&patchloom::BlockReport> for BlockReport {
    fn from(b: &patchloom::BlockReport) -> Self {
        let status = match b.status {
            patchloom::BlockStatus::Applied => "applied",
            patchloom::BlockStatus::Failed => "failed",
            _ => "unknown",
        };
        BlockReport {
            index: index(b.index),
            status: status.to_owned(),
            strategy: b.strategy.name().to_owned(),
            start: index(b.start.utf16),
            end: index(b.end.utf16),
            start_line: count(b.start.line),
            end_line: count(b.end_line),
            candidates: count(b.candidates),
            // Clamped, so the cast cannot truncate.
            indent_delta: b.indent_delta.clamp(i32::MIN as isize, i32::MAX as isize) as i32,
            reindented: b.reindented,
            normalizations: b
                .normalizations
                .iter()
                .map(|n| n.name().to_owned())
                .collect(),
            error: BlockError(b.error.clone()),
        }
    }
}

/// A block's `error`: `null`, or a failed block's error converted to a JavaScript `Error` (with
/// its `code`) by [`errors::js_error`], the same conversion as a thrown core error. (An
/// `Option` field would leave the property out instead of setting it to `null`.)
pub struct BlockError(Option<patchloom::Error>);

impl ToNapiValue for BlockError {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        match val.0 {
            Some(e) => Ok(errors::js_error(&Env::from_raw(env), &e).raw()),
            // SAFETY: the caller guarantees a valid `env` (this function's contract).
            None => unsafe { Null::to_napi_value(env, Null) },
        }
    }
}

/// How the preview changed in one `push`: at `start`, `removed` units were replaced by
/// `inserted`. Apply it to your own copy of the preview instead of reading the whole preview
/// after every push:
/// `view = view.slice(0, u.start) + u.inserted + view.slice(u.start + u.removed)`.
/// In the Cline dialects the splice is always at the end of the preview; in `native` it may lie
/// in the middle (where the streaming block is).
#[napi(object, object_from_js = false)]
pub struct Update {
    /// Where the splice starts in the preview before the push (UTF-16 index).
    pub start: u32,
    /// How many UTF-16 units the splice removes there.
    pub removed: u32,
    /// The text it inserts there.
    pub inserted: String,
    /// How many blocks complete lines have completed so far.
    pub blocks_completed: u32,
    /// The reports of the blocks this push completed.
    pub completed: Vec<BlockReport>,
}

impl From<patchloom::Update<'_>> for Update {
    fn from(u: patchloom::Update<'_>) -> Self {
        Update {
            start: index(u.start.utf16),
            removed: index(u.removed.utf16),
            inserted: u.inserted.into_owned(),
            blocks_completed: index(u.blocks_completed),
            completed: u.completed.iter().map(BlockReport::from).collect(),
        }
    }
}

/// The result of a finished diff.
#[napi(object, object_from_js = false)]
pub struct Outcome {
    /// The new file content.
    pub new_content: String,
    /// Cline's `matchIndices` for the final call: block starts in the original as UTF-16
    /// indices, sorted (`cline-v1`); always empty in `cline-v2`; in `native`, the starts of the
    /// applied blocks, sorted.
    pub match_indices: Vec<u32>,
    /// One report per block, in completion order: the applied ones, and in `native` with the
    /// `"partial"` policy the failed ones too (`blocks.filter((b) => b.status === "failed")`).
    pub blocks: Vec<BlockReport>,
}

impl From<patchloom::Outcome> for Outcome {
    fn from(o: patchloom::Outcome) -> Self {
        Outcome {
            match_indices: indices(&o.match_indices),
            blocks: o.blocks.iter().map(BlockReport::from).collect(),
            new_content: o.new_content,
        }
    }
}

/// Options of a `StreamingApplier`.
#[napi(object)]
pub struct ApplierOptions {
    /// How the diff is read and applied: `"cline-v1"` (the default; Cline's
    /// `constructNewFileContent` v1), `"cline-v2"`, or `"native"` (tolerant matching that
    /// refuses ambiguous or stale edits; see `applyDiff`). An unknown name throws an `Error`
    /// with `code === "invalid_dialect"`.
    #[napi(ts_type = "'cline-v1' | 'cline-v2' | 'native'")]
    pub dialect: Option<String>,
    /// What `native` does when some blocks fail: `"all_or_nothing"` (the default: `finish`
    /// throws and nothing is applied) or `"partial"` (`finish` applies the blocks that matched
    /// and reports the others with `status === "failed"`). The Cline dialects ignore it. An
    /// unknown name throws an `Error` with `code === "invalid_policy"`.
    #[napi(ts_type = "'all_or_nothing' | 'partial'")]
    pub policy: Option<String>,
}

/// Options of `applyDiff`.
#[napi(object)]
pub struct ApplyOptions {
    /// How the diff is read and applied: `"native"` (the default), `"cline-v1"` or
    /// `"cline-v2"`. An unknown name throws an `Error` with `code === "invalid_dialect"`.
    #[napi(ts_type = "'native' | 'cline-v1' | 'cline-v2'")]
    pub dialect: Option<String>,
    /// What `native` does when some blocks fail: `"all_or_nothing"` (the default: throw, apply
    /// nothing) or `"partial"` (apply the blocks that matched, report the others with
    /// `status === "failed"`). The Cline dialects ignore it. An unknown name throws an `Error`
    /// with `code === "invalid_policy"`.
    #[napi(ts_type = "'all_or_nothing' | 'partial'")]
    pub policy: Option<String>,
}

/// How often `constructNewFileContent` resumed a previous call instead of starting over.
#[napi(object)]
pub struct ResumeCacheStats {
    /// Calls that resumed a kept stream (pushed only the diff's new suffix).
    pub hits: f64,
    /// Calls computed from scratch.
    pub misses: f64,
    /// Streams kept now.
    pub entries: u32,
    /// The most streams kept at once (0: the cache is off).
    pub capacity: u32,
}

/// A 1-based, inclusive range of lines.
#[napi(object)]
pub struct LineRange {
    /// The first line (1-based).
    pub start: u32,
    /// The last line (1-based, inclusive, `>= start`). For a deletion `start === end`: the line
    /// where the removed text was.
    pub end: u32,
}

/// What `strReplace` and `insert` return.
#[napi(object)]
pub struct Edit {
    /// The whole text after the edit.
    pub new_content: String,
    /// How many places were changed (1 unless `replaceAll` replaced several).
    pub replacements: u32,
    /// The adjustments that were needed to apply the edit, in this fixed order, each at most
    /// once: `trailing_whitespace` (stripped from the new text's lines; never for `.md`/`.mdx`),
    /// `line_endings` (the old text's LF line endings matched the file's CRLF and the new text
    /// was written with CRLF; for inserts, the text was converted to the file's line ending),
    /// `curly_quotes` (the old text matched only with curly quotes folded; the new text was
    /// written in the file's quote style), `desanitized` (the old text matched only after
    /// mapping API-shortened tags such as `<fnr>` back), `deleted_line_ending` (a deleted text
    /// that ended its line took its line ending with it).
    #[napi(
        ts_type = "Array<'trailing_whitespace' | 'line_endings' | 'curly_quotes' | 'desanitized' | 'deleted_line_ending'>"
    )]
    pub normalizations: Vec<String>,
    /// The lines of `newContent` the first change occupies, so hosts can show a snippet.
    pub first_edit: LineRange,
}

impl From<patchloom::ops::Edit> for Edit {
    fn from(e: patchloom::ops::Edit) -> Self {
        Edit {
            replacements: count(e.replacements),
            normalizations: e
                .normalizations
                .iter()
                .map(|n| n.as_str().to_owned())
                .collect(),
            first_edit: LineRange {
                start: count(e.first_edit.start),
                end: count(e.first_edit.end),
            },
            new_content: e.new_content,
        }
    }
}

/// What `insertContent` returns: Roo's new file text and `editType`.
#[napi(object)]
pub struct InsertedContent {
    /// The file's new text, exactly as Roo's tool computed it.
    pub new_content: String,
    /// `"create"` when the file did not exist (its content is the inserted text), else
    /// `"modify"`.
    #[napi(ts_type = "'create' | 'modify'")]
    pub edit_type: String,
}

impl From<patchloom::ops::InsertedContent> for InsertedContent {
    fn from(r: patchloom::ops::InsertedContent) -> Self {
        InsertedContent {
            edit_type: r.edit_type.as_str().to_owned(),
            new_content: r.new_content,
        }
    }
}

/// What `write` returns: the content to write and which fixes changed it.
#[napi(object)]
pub struct Written {
    /// The cleaned-up file content.
    pub new_content: String,
    /// The names of the fixes that changed something, in pipeline order.
    #[napi(
        ts_type = "Array<'strip_markdown_fences' | 'fix_model_html_escaping' | 'remove_invalid_chars'>"
    )]
    pub fixes_applied: Vec<String>,
}

impl From<patchloom::fixes::Written> for Written {
    fn from(w: patchloom::fixes::Written) -> Self {
        Written {
            fixes_applied: w.fixes_applied.iter().map(|f| (*f).to_owned()).collect(),
            new_content: w.new_content,
        }
    }
}

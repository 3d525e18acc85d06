//! The plain objects returned to JavaScript, and their conversion from the core's types.
//!
//! Every position is a JavaScript string index (UTF-16 code units), taken from the offsets the
//! core tracks in every unit, so nothing here rescans text. Indices fit in `u32`: V8 strings are
//! shorter than 2^30 units.

use hunkloom::Position;
use hunkloom::roo::DiffResult as CoreResult;
use napi::bindgen_prelude::{JsObjectValue, Null, Object, ToNapiValue};
use napi::{Env, JsValue, sys};
use napi::{Property, PropertyAttributes};
use napi_derive::napi;

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

impl From<hunkloom::cline::ResumedContent> for NewFileContent {
    fn from(r: hunkloom::cline::ResumedContent) -> Self {
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
    /// Cline dialects throw instead.) `"already_applied"` only in `native`: the file already
    /// holds the block's replacement where its SEARCH text would have been (a retried edit), so
    /// nothing changed; `start` and `end` say where the replacement is.
    #[napi(ts_type = "'applied' | 'failed' | 'already_applied'")]
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
    ///
    /// `roo`: `similarity` (the window most similar to the SEARCH text, at or above the fuzzy
    /// threshold), or `unmatched` for a failed block.
    #[napi(
        ts_type = "'exact' | 'line_trimmed' | 'block_anchor' | 'exact_anywhere' | 'empty_search_new_file' | 'empty_search_whole_file' | 'line_endings' | 'trailing_whitespace' | 'indentation' | 'punctuation' | 'line_number_prefix' | 'blank_lines' | 'typo' | 'unmatched' | 'similarity'"
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

impl From<&hunkloom::BlockReport> for BlockReport {
    fn from(b: &hunkloom::BlockReport) -> Self {
        BlockReport {
            index: index(b.index),
            status: b.status.as_str().to_owned(),
            strategy: b.strategy.as_str().to_owned(),
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
                .map(|n| n.as_str().to_owned())
                .collect(),
            error: BlockError(b.error.clone()),
        }
    }
}

/// How many numbers [`pack_outcome`] writes per block.
pub const PACKED_BLOCK: usize = 10;

/// The position of `value` in `all` (a closed set's `ALL`, the order `names()` lists it in).
fn position<T: PartialEq>(all: &[T], value: &T) -> u32 {
    all.iter().position(|v| v == value).map_or(u32::MAX, count)
}

/// Writes `outcome`'s block reports and match indices as numbers into `into`, for the
/// JavaScript layer to build the same objects as the [`Outcome`] conversion as literals (far
/// cheaper than defining a dozen properties per block through N-API; lib/outcome.js reads this
/// layout): the block count, [`PACKED_BLOCK`] numbers per block (index, status, strategy as
/// positions in `names()`' lists, start, end, startLine, endLine, candidates, indentDelta as
/// two's complement, then `reindented` in bit 0 and each normalization's bit above it), then
/// the match-index count and the indices. `false` (nothing to read) when `into` is too short
/// or a block failed: a failed block's `error` is an `Error` object, so the caller returns the
/// [`Outcome`] conversion instead.
pub fn pack_outcome(outcome: &hunkloom::Outcome, into: &mut [u32]) -> bool {
    let blocks = &outcome.blocks;
    let needed = 2 + blocks.len() * PACKED_BLOCK + outcome.match_indices.len();
    if into.len() < needed || blocks.iter().any(|b| b.error.is_some()) {
        return false;
    }
    into[0] = count(blocks.len());
    for (b, slot) in blocks.iter().zip(into[1..].chunks_exact_mut(PACKED_BLOCK)) {
        let mut flags = u32::from(b.reindented);
        for n in &b.normalizations {
            flags |= 2 << position(hunkloom::Normalization::ALL, n);
        }
        let indent_delta = b.indent_delta.clamp(i32::MIN as isize, i32::MAX as isize) as i32;
        slot.copy_from_slice(&[
            index(b.index),
            position(hunkloom::BlockStatus::ALL, &b.status),
            position(hunkloom::Strategy::ALL, &b.strategy),
            index(b.start.utf16),
            index(b.end.utf16),
            count(b.start.line),
            count(b.end_line),
            count(b.candidates),
            indent_delta as u32,
            flags,
        ]);
    }
    let at = 1 + blocks.len() * PACKED_BLOCK;
    into[at] = count(outcome.match_indices.len());
    for (slot, p) in into[at + 1..].iter_mut().zip(&outcome.match_indices) {
        *slot = index(p.utf16);
    }
    true
}

/// A block's `error`: `null`, or a failed block's error converted to a JavaScript `Error` (with
/// its `code`) by [`errors::js_error`], the same conversion as a thrown core error. (An
/// `Option` field would leave the property out instead of setting it to `null`.)
pub struct BlockError(Option<hunkloom::Error>);

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

impl From<hunkloom::Update<'_>> for Update {
    fn from(u: hunkloom::Update<'_>) -> Self {
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

impl From<hunkloom::Outcome> for Outcome {
    fn from(o: hunkloom::Outcome) -> Self {
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
    /// `constructNewFileContent` v1), `"cline-v2"`, `"native"` (tolerant matching that
    /// refuses ambiguous or stale edits; see `applyDiff`), `"roo"` (Roo Code's `apply_diff`;
    /// Roo sorts the blocks before applying any, so the preview stays the original and `finish`
    /// applies the diff), or for a unified diff `"udiff"` (streamed hunk by hunk) or
    /// `"udiff-strict"` (`git apply`, applied by `finish`). An unknown name throws an `Error`
    /// with `code === "invalid_dialect"`.
    #[napi(ts_type = "'cline-v1' | 'cline-v2' | 'native' | 'roo' | 'udiff' | 'udiff-strict'")]
    pub dialect: Option<String>,
    /// What `native` does when some blocks fail: `"all_or_nothing"` (the default: `finish`
    /// throws and nothing is applied) or `"partial"` (`finish` applies the blocks that matched
    /// and reports the others with `status === "failed"`). The Cline dialects ignore it. An
    /// unknown name throws an `Error` with `code === "invalid_policy"`.
    #[napi(ts_type = "'all_or_nothing' | 'partial'")]
    pub policy: Option<String>,
    /// `roo` only: the similarity a window needs to be replaced (Roo's `fuzzyThreshold`,
    /// default 1.0).
    pub fuzzy_threshold: Option<f64>,
    /// `roo` only: the lines searched around a `:start_line:` hint (Roo's `bufferLines`,
    /// default 40); a non-negative integer, else a `RangeError`.
    pub buffer_lines: Option<u32>,
    /// `udiff-strict` only: count each hunk's lines from its body instead of trusting its
    /// `@@` header, as `git apply --recount` does.
    /// @default false
    pub recount: Option<bool>,
}

/// Options of `applyDiff`.
#[napi(object)]
pub struct ApplyOptions {
    /// How the diff is read and applied: `"native"` (the default), `"cline-v1"`, `"cline-v2"`,
    /// `"roo"`, or for a unified diff `"udiff"` or `"udiff-strict"`. An unknown name throws an
    /// `Error` with `code === "invalid_dialect"`.
    #[napi(ts_type = "'native' | 'cline-v1' | 'cline-v2' | 'roo' | 'udiff' | 'udiff-strict'")]
    pub dialect: Option<String>,
    /// What `native` does when some blocks fail: `"all_or_nothing"` (the default: throw, apply
    /// nothing) or `"partial"` (apply the blocks that matched, report the others with
    /// `status === "failed"`). The Cline dialects ignore it. An unknown name throws an `Error`
    /// with `code === "invalid_policy"`.
    #[napi(ts_type = "'all_or_nothing' | 'partial'")]
    pub policy: Option<String>,
    /// `roo` only: the similarity a window needs to be replaced (Roo's `fuzzyThreshold`,
    /// default 1.0).
    pub fuzzy_threshold: Option<f64>,
    /// `roo` only: the lines searched around a `:start_line:` hint (Roo's `bufferLines`,
    /// default 40); a non-negative integer, else a `RangeError`.
    pub buffer_lines: Option<u32>,
    /// `udiff-strict` only: count each hunk's lines from its body instead of trusting its
    /// `@@` header, as `git apply --recount` does.
    /// @default false
    pub recount: Option<bool>,
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
        ts_type = "Array<'trailing_whitespace' | 'line_endings' | 'curly_quotes' | 'desanitized' | 'deleted_line_ending' | 'already_applied' | 'view_prefixes'>"
    )]
    pub normalizations: Vec<String>,
    /// The lines of `newContent` the first change occupies, so hosts can show a snippet.
    pub first_edit: LineRange,
}

impl From<hunkloom::ops::Edit> for Edit {
    fn from(e: hunkloom::ops::Edit) -> Self {
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

impl From<hunkloom::ops::InsertedContent> for InsertedContent {
    fn from(r: hunkloom::ops::InsertedContent) -> Self {
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

impl From<hunkloom::fixes::Written> for Written {
    fn from(w: hunkloom::fixes::Written) -> Self {
        Written {
            fixes_applied: w.fixes_applied.iter().map(|f| (*f).to_owned()).collect(),
            new_content: w.new_content,
        }
    }
}

/// A value or `null` (an `Option` field would leave the property out instead).
pub struct OrNull<T>(pub Option<T>);

impl<T: ToNapiValue> ToNapiValue for OrNull<T> {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        match val.0 {
            // SAFETY: the caller guarantees a valid `env` (this function's contract).
            Some(value) => unsafe { T::to_napi_value(env, value) },
            // SAFETY: as above.
            None => unsafe { Null::to_napi_value(env, Null) },
        }
    }
}

/// Files by path, as a plain JavaScript object. Its properties are defined, not assigned, so a
/// file named `__proto__` is an own property like any other (an assignment would set the
/// object's prototype instead).
pub struct FileMap(pub std::collections::BTreeMap<String, String>);

impl ToNapiValue for FileMap {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        let env = Env::from_raw(env);
        let mut object = Object::new(&env)?;
        let attributes = PropertyAttributes::Writable
            | PropertyAttributes::Enumerable
            | PropertyAttributes::Configurable;
        let properties = val
            .0
            .into_iter()
            .map(|(path, text)| {
                Property::new()
                    .with_utf8_name(&path)?
                    .with_napi_value(&env, text)
                    .map(|p| p.with_property_attributes(attributes))
            })
            .collect::<napi::Result<Vec<Property>>>()?;
        object.define_properties(&properties)?;
        Ok(object.raw())
    }
}

/// Options of a `Workspace`.
#[napi(object)]
pub struct WorkspaceOptions {
    /// The ignore file's name at the root, in gitignore syntax (default `".hunkloomignore"`;
    /// e.g. `".clineignore"`; `""`: none). Matching paths are refused (`path_ignored`).
    pub ignore_file: Option<String>,
    /// Files larger than this many bytes are refused before they are read
    /// (`file_too_large`; default 1 GiB). A non-negative integer.
    pub max_file_size: Option<f64>,
    /// How many edits per file `undo` can take back (default 5; 0 keeps none). A non-negative
    /// integer.
    pub undo_depth: Option<u32>,
    /// Up to how many bytes of each file read are kept, so that an edit of a file that
    /// changed since can be merged around the changes (default 4 MiB; 0 keeps none, so a
    /// changed file is always refused with `stale_file`). A non-negative integer.
    pub max_kept_read: Option<f64>,
    /// Refuse a `write` of an existing file, or a `strReplace` whose new text stands in for
    /// code with a placeholder line such as `// ... existing code ...`
    /// (`omission_placeholder`; default `true`).
    pub omission_guard: Option<bool>,
    /// How many milliseconds a call waits for its turn (another call editing the same file,
    /// another commit in the root, in any process) before it throws `lock_timeout` having
    /// written nothing (default 5000). A non-negative integer.
    pub lock_timeout: Option<f64>,
    /// Globs (gitignore syntax, relative to the root, e.g. `".env*"`, `"secrets/**"`) of paths
    /// that can be read but never written (`path_protected`).
    pub protect: Option<Vec<String>>,
    /// Whether the default protected paths apply (default `true`): anything inside `.git`,
    /// `.hg`, `.svn` or `.jj`, and the ignore file. `false` is the explicit way to let edits
    /// reach them.
    pub protect_defaults: Option<bool>,
    /// Whether a file in a legacy encoding (windows-1251, Latin-1, Shift_JIS, …) is detected,
    /// read as text and written back in it (default `true`); `false` throws
    /// `unsupported_encoding` for every file that is not UTF-8 or UTF-16.
    pub legacy_encodings: Option<bool>,
    /// Whether a write waits for the disk: `"full"` (the default: every file and directory
    /// flushed with fsync before the call returns) or `"none"` (nothing flushed: scratch trees,
    /// tests, benchmarks; a power cut may lose the last writes, never tear a file). Another name
    /// throws an `Error` with `code === "invalid_input"`.
    #[napi(ts_type = "'full' | 'none'")]
    pub durability: Option<String>,
}

/// Options of the function `strReplace`.
#[napi(object)]
pub struct StrReplaceOptions {
    /// Refuse a `newStr` that stands in for lines of `oldStr` with a placeholder line such as
    /// `// ... existing code ...` (`omission_placeholder`; default `true`).
    pub omission_guard: Option<bool>,
}

/// A region another writer changed after the file was read, around which an edit was merged.
/// Lines are 1-based; `count === 0` means lines were only removed (just before `start`),
/// `readCount === 0` that lines were only added.
#[napi(object, object_from_js = false)]
pub struct ExternalChange {
    /// The first line of the region in the file as written.
    pub start: u32,
    /// How many lines it holds in the file as written.
    pub count: u32,
    /// The first line it replaced in the text that was read.
    pub read_start: u32,
    /// How many lines of the text that was read it replaced.
    pub read_count: u32,
}

impl ExternalChange {
    fn list(changes: &[hunkloom_fs::ExternalChange]) -> Vec<ExternalChange> {
        let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        changes
            .iter()
            .map(|c| ExternalChange {
                start: n(c.start),
                count: n(c.count),
                read_start: n(c.read_start),
                read_count: n(c.read_count),
            })
            .collect()
    }
}

/// What a `Workspace` edit (or `undo`) did.
#[napi(object, object_from_js = false)]
pub struct EditOutcome {
    /// The absolute path written or removed (symlinks in it resolved; the destination, for a
    /// move).
    pub path: String,
    /// What was done: `"create"` (a new file; an undo re-creating a deleted one), `"update"`,
    /// `"delete"` (an undo removing a created file) or `"move"`.
    #[napi(ts_type = "'create' | 'update' | 'delete' | 'move'")]
    pub kind: String,
    /// Whether the bytes on disk changed (`false` for an edit to identical content, which
    /// writes nothing).
    pub changed: bool,
    /// The decoded text the file now holds, line endings as on disk (`null` if it was
    /// removed).
    #[napi(ts_type = "string | null")]
    pub new_content: OrNull<String>,
    /// The file's encoding, kept from the old file (new files: `"utf-8"`).
    #[napi(ts_type = "'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | (string & {})")]
    pub encoding: String,
    /// What the operation reported: an `Edit` for `strReplace` and `insert`, an `Outcome` for
    /// `applyDiff` (tell them apart with `"blocks" in report`), `null` for `write` and `undo`.
    /// Its `newContent` and positions are in the text the operation saw: with CRLF read as LF
    /// for `strReplace`, `insert` and `native`, unchanged for the Cline dialects (the file's
    /// own text is `newContent` above).
    #[napi(ts_type = "Edit | Outcome | null")]
    pub report: OrNull<Report>,
    /// Where the file had changed on disk since it was read, when the edit was computed
    /// against the text that was read and merged around those changes (they did not touch the
    /// lines it changes); empty when the file was unchanged since it was read.
    pub external_changes: Vec<ExternalChange>,
}

/// An `EditOutcome`'s `report`.
pub enum Report {
    /// `strReplace`, `insert`.
    Edit(Edit),
    /// `applyDiff`.
    Diff(Outcome),
}

impl ToNapiValue for Report {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        match val {
            // SAFETY: the caller guarantees a valid `env` (this function's contract).
            Report::Edit(edit) => unsafe { Edit::to_napi_value(env, edit) },
            // SAFETY: as above.
            Report::Diff(outcome) => unsafe { Outcome::to_napi_value(env, outcome) },
        }
    }
}

impl From<hunkloom_fs::EditOutcome> for EditOutcome {
    fn from(o: hunkloom_fs::EditOutcome) -> Self {
        let report = match o.report {
            hunkloom_fs::Report::Edit(edit) => Some(Report::Edit(Edit::from(edit))),
            hunkloom_fs::Report::Diff(outcome) => Some(Report::Diff(Outcome::from(outcome))),
            _ => None,
        };
        EditOutcome {
            external_changes: ExternalChange::list(&o.external_changes),
            path: o.path.to_string_lossy().into_owned(),
            kind: o.kind.as_str().to_owned(),
            changed: o.changed,
            new_content: OrNull(o.new_content),
            encoding: o.encoding.as_str().to_owned(),
            report: OrNull(report),
        }
    }
}

/// Options of `applyPatch`.
#[napi(object)]
pub struct PatchOptions {
    /// Whose `apply_patch` to reproduce: `"codex"` (the default; line endings kept) or
    /// `"cline"` (Cline's `apply_patch` tool, byte for byte: its fuzz, warnings and error
    /// messages); or, for a unified diff of several files (a git patch), `"udiff"` (each
    /// hunk placed by its text) or `"udiff-strict"` (`git apply`); or, for a model's reply in
    /// one of aider's edit formats, `"aider"`, `"aider-fenced"` or `"aider-whole"` (applied as
    /// aider 0.86 applies it, `files` being its chat files; `"aider-native"` without aider's
    /// guesses, each block placed by the native engine or refused); or `"native"`: a `*** Begin
    /// Patch` patch (or, with `path`, a bare body) read as the model meant it — each section in
    /// exactly one place of its file or the patch refused, `+` lines re-indented as their context
    /// was found, line endings and the final-newline state kept. An unknown name throws an
    /// `Error` with `code === "invalid_dialect"`.
    #[napi(
        ts_type = "'codex' | 'cline' | 'udiff' | 'udiff-strict' | 'aider' | 'aider-fenced' | 'aider-whole' | 'aider-native' | 'native'"
    )]
    pub dialect: Option<String>,
    /// What a failing hunk does: `"all_or_nothing"` (the default: throw, change nothing) or
    /// `"partial"` (keep the hunks before it, as Codex leaves them on disk, and report it in
    /// `failure`). An unknown name throws an `Error` with `code === "invalid_policy"`.
    #[napi(ts_type = "'all_or_nothing' | 'partial'")]
    pub policy: Option<String>,
    /// `udiff-strict` only: count each hunk's lines from its body, as `git apply --recount`.
    /// @default false
    pub recount: Option<bool>,
}

/// The options of `applyPatch` for a bare per-file body.
#[napi(object)]
pub struct PatchBodyOptions {
    /// The one file a bare body (a V4A body, without the `*** Begin Patch` envelope) is for;
    /// then the patch text is read as Codex reads it inside `*** Begin Patch` /
    /// `*** Update File: <path>` / `*** End Patch`. The `codex` and `native` dialects only.
    pub path: Option<String>,
    /// `"default"` (the body updates `path`) or `"create"` (it adds `path`: `*** Add File:`);
    /// only with `path`.
    #[napi(ts_type = "'default' | 'create'")]
    pub mode: Option<String>,
}

/// What `applyPatch` returns.
#[napi(object, object_from_js = false)]
pub struct PatchResult {
    /// The whole file map afterwards: the files given, with added, updated and moved files
    /// in and deleted files and move sources out.
    #[napi(ts_type = "Record<string, string>")]
    pub files: FileMap,
    /// The paths removed (deleted files and the sources of moves), in order.
    pub deleted: Vec<String>,
    /// One change per hunk, in patch order (Cline: per action, in the order it keeps them).
    pub changes: Vec<PatchChange>,
    /// Notes that did not stop the patch (Cline's skipped chunks); empty in `codex`.
    pub warnings: Vec<PatchWarning>,
    /// Cline's fuzz score (0 for exact matches; 1, 100, 1000 and 10000 per looser match);
    /// always 0 in `codex`.
    pub fuzz: f64,
    /// With `policy: "partial"`: the hunk that failed (the changes before it were applied),
    /// else `null`.
    #[napi(ts_type = "PatchFailure | null")]
    pub failure: OrNull<PatchFailure>,
}

impl PatchResult {
    /// `plan` applied to `files`: the whole file map afterwards, with the plan's report.
    pub fn of(
        plan: &hunkloom::patch::Plan,
        mut files: std::collections::BTreeMap<String, String>,
    ) -> Self {
        let deleted = plan.apply_to(&mut files);
        PatchResult {
            files: FileMap(files),
            deleted,
            changes: plan.changes.iter().map(PatchChange::from).collect(),
            warnings: plan.warnings.iter().map(PatchWarning::from).collect(),
            // Exact below 2^53.
            fuzz: plan.fuzz as f64,
            failure: OrNull(plan.failure.as_ref().map(PatchFailure::from)),
        }
    }
}

/// One file change of a patch.
#[napi(object, object_from_js = false)]
pub struct PatchChange {
    /// The path the hunk names (the source of a move), as written in the patch.
    pub path: String,
    /// `"add"` (create, or overwrite), `"update"` (and move, with `moveTo`) or `"delete"`.
    #[napi(ts_type = "'add' | 'update' | 'delete'")]
    pub kind: String,
    /// The destination of an update's `*** Move to:`, else `null`.
    #[napi(ts_type = "string | null")]
    pub move_to: OrNull<String>,
    /// An update's 1-based line, in the original file, where each applied chunk starts
    /// (empty for adds and deletes).
    pub start_lines: Vec<u32>,
}

impl From<&hunkloom::patch::FileChange> for PatchChange {
    fn from(c: &hunkloom::patch::FileChange) -> Self {
        use hunkloom::patch::ChangeKind;
        let (move_to, start_lines) = match &c.kind {
            ChangeKind::Update {
                move_to,
                start_lines,
                ..
            } => (
                move_to.clone(),
                start_lines.iter().map(|&l| count(l)).collect(),
            ),
            _ => (None, Vec::new()),
        };
        let kind = c.kind.as_str();
        PatchChange {
            path: c.path.clone(),
            kind: kind.to_owned(),
            move_to: OrNull(move_to),
            start_lines,
        }
    }
}

/// A note about a patch that did not stop it.
#[napi(object, object_from_js = false)]
pub struct PatchWarning {
    /// The file concerned.
    pub path: String,
    /// The 0-based index of the chunk concerned, or `null`.
    #[napi(ts_type = "number | null")]
    pub chunk_index: OrNull<u32>,
    /// What happened (Cline's exact text in `cline`).
    pub message: String,
    /// The chunk's context lines, cut at 200 UTF-16 units plus `...` (Cline), or `null`.
    #[napi(ts_type = "string | null")]
    pub context: OrNull<String>,
}

impl From<&hunkloom::patch::Warning> for PatchWarning {
    fn from(w: &hunkloom::patch::Warning) -> Self {
        PatchWarning {
            path: w.path.clone(),
            chunk_index: OrNull(w.chunk_index.map(count)),
            message: w.message.clone(),
            context: OrNull(w.context.clone()),
        }
    }
}

/// The hunk that stopped a `policy: "partial"` patch.
#[napi(object, object_from_js = false)]
pub struct PatchFailure {
    /// The 0-based index of the hunk (Cline: of the action).
    pub hunk: u32,
    /// Why it failed: an `Error` with the core's `code` and message, as `applyPatch` would
    /// have thrown with the default policy.
    #[napi(ts_type = "Error")]
    pub error: BlockError,
}

impl From<&hunkloom::patch::HunkFailure> for PatchFailure {
    fn from(f: &hunkloom::patch::HunkFailure) -> Self {
        PatchFailure {
            hunk: count(f.hunk),
            error: BlockError(Some(f.error.clone())),
        }
    }
}

/// One file a `Workspace.applyPatch` changed, in its final state.
#[napi(object, object_from_js = false)]
pub struct PatchedFile {
    /// The path as the patch names it (the destination, for a move).
    pub path: String,
    /// For a move, the source path as the patch names it, else `null`.
    #[napi(ts_type = "string | null")]
    pub moved_from: OrNull<String>,
    /// The absolute path written or removed (symlinks resolved; the destination, for a move).
    pub resolved: String,
    /// What happened on disk: `"create"` (an Add of a missing file), `"update"` (also an Add
    /// over an existing file), `"delete"` or `"move"` (also onto an existing file, which is
    /// replaced).
    #[napi(ts_type = "'create' | 'update' | 'delete' | 'move'")]
    pub kind: String,
    /// The decoded text before (the source's, for a move; `null` for a create).
    #[napi(ts_type = "string | null")]
    pub old_content: OrNull<String>,
    /// The decoded text after (`null` for a delete).
    #[napi(ts_type = "string | null")]
    pub new_content: OrNull<String>,
    /// The encoding the file is written in (its old one, if it had one; new files `"utf-8"`).
    #[napi(ts_type = "'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | (string & {})")]
    pub encoding: String,
    /// Whether the bytes on disk changed (`false` for an update to identical content).
    pub changed: bool,
    /// Where the file had changed on disk since it was read, when its hunks were planned
    /// against the text that was read and merged around those changes; else empty.
    pub external_changes: Vec<ExternalChange>,
}

impl From<hunkloom_fs::PatchedFile> for PatchedFile {
    fn from(f: hunkloom_fs::PatchedFile) -> Self {
        PatchedFile {
            external_changes: ExternalChange::list(&f.external_changes),
            path: f.path,
            moved_from: OrNull(f.moved_from),
            resolved: f.resolved.to_string_lossy().into_owned(),
            kind: f.kind.as_str().to_owned(),
            old_content: OrNull(f.old_content),
            new_content: OrNull(f.new_content),
            encoding: f.encoding.as_str().to_owned(),
            changed: f.changed,
        }
    }
}

/// What `Workspace.applyPatch` did.
#[napi(object, object_from_js = false)]
pub struct PatchOutcome {
    /// Each file changed, in the order the patch first names it (its net change: a file the
    /// patch names twice appears once).
    pub files: Vec<PatchedFile>,
    /// Notes that did not stop the patch (Cline's skipped chunks); empty in `codex`.
    pub warnings: Vec<PatchWarning>,
    /// Cline's fuzz score; always 0 in `codex`.
    pub fuzz: f64,
    /// With `policy: "partial"`: the hunk that failed, after the hunks before it were
    /// committed (what Codex leaves on disk), else `null`.
    #[napi(ts_type = "PatchFailure | null")]
    pub failure: OrNull<PatchFailure>,
}

impl From<hunkloom_fs::PatchOutcome> for PatchOutcome {
    fn from(o: hunkloom_fs::PatchOutcome) -> Self {
        PatchOutcome {
            files: o.files.into_iter().map(PatchedFile::from).collect(),
            warnings: o.warnings.iter().map(PatchWarning::from).collect(),
            // Exact below 2^53.
            fuzz: o.fuzz as f64,
            failure: OrNull(o.failure.as_ref().map(PatchFailure::from)),
        }
    }
}

/// What one tool call returns: the text to send back to the model, whether it is an error, a
/// stable code, and for edits the file's text before and after.
#[napi(object, object_from_js = false)]
pub struct ToolResult {
    /// The exact text for the model (the tool result's content).
    pub output: String,
    /// Whether the call failed (the tool result's `is_error`).
    pub is_error: bool,
    /// A stable snake_case code of the failure (`not_found`, `invalid_parameter`, …); `""` on
    /// success.
    pub code: String,
    /// The file the call was about, when it named one.
    pub path: Option<String>,
    /// The file's text before an edit.
    pub old_content: Option<String>,
    /// The file's text after an edit.
    pub new_content: Option<String>,
}

impl From<hunkloom_tools::ToolResult> for ToolResult {
    fn from(r: hunkloom_tools::ToolResult) -> Self {
        ToolResult {
            output: r.output,
            is_error: r.is_error,
            code: r.code,
            path: r.path,
            old_content: r.old_content,
            new_content: r.new_content,
        }
    }
}

/// One entry of `failParts`: a block that was not applied, and why (Roo's exact text).
#[napi(object, object_from_js = false)]
pub struct DiffFailPart {
    /// Always `false`.
    #[napi(ts_type = "false")]
    pub success: bool,
    /// Roo's message for this block.
    pub error: String,
}

/// What `MultiSearchReplaceDiffStrategy.applyDiff` resolves to: Roo's `DiffResult`, with the
/// same properties present. `{ success: true, content, failParts }` when at least one block
/// applied (`failParts` lists the blocks that did not, possibly none); `{ success: false,
/// failParts }` when none did; `{ success: false, error }` when the diff's markers are out of
/// sequence or no block could be read.
#[napi(object, object_from_js = false)]
pub struct DiffResult {
    /// Whether at least one block applied.
    pub success: bool,
    /// The new file content (when `success`).
    pub content: Option<String>,
    /// Why nothing was tried (Roo's exact text).
    pub error: Option<String>,
    /// The blocks that were not applied, in the order Roo tried them (absent with `error`).
    pub fail_parts: Option<Vec<DiffFailPart>>,
}

impl From<CoreResult> for DiffResult {
    fn from(r: CoreResult) -> Self {
        let parts = |errors: &[hunkloom::Error]| {
            Some(
                errors
                    .iter()
                    .map(|e| DiffFailPart {
                        success: false,
                        error: e.message().to_owned(),
                    })
                    .collect(),
            )
        };
        let empty = DiffResult {
            success: false,
            content: None,
            error: None,
            fail_parts: None,
        };
        match r {
            CoreResult::Applied {
                content,
                fail_parts,
            } => DiffResult {
                success: true,
                content: Some(content),
                fail_parts: parts(&fail_parts),
                ..empty
            },
            CoreResult::NotApplied { fail_parts } => DiffResult {
                fail_parts: parts(&fail_parts),
                ..empty
            },
            CoreResult::Invalid { error } => DiffResult {
                error: Some(error.message().to_owned()),
                ..empty
            },
            // The core may report more kinds of result later; none exist today.
            _ => empty,
        }
    }
}

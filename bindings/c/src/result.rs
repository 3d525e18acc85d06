//! [`hl_result`]: a successful outcome (new content, match positions, block reports), and the
//! position units C can ask for.

use std::ffi::c_char;
use std::ptr;

use engine::{BlockReport, BlockStatus, Position};

use crate::args::{get_text, get_value};
use crate::ffi_guard::guard_void;
use crate::position::hl_position;
use crate::status::hl_status;
use crate::text::CText;

/// The unit of a position or length: one of the `HL_UNIT_` values.
///
/// A plain integer type rather than an enum so that any value a host passes is well-defined:
/// unknown values are rejected with `HL_STATUS_OUT_OF_RANGE`.
#[allow(non_camel_case_types)]
pub type hl_unit = u32;

/// UTF-8 bytes (what C indexes by).
pub const HL_UNIT_BYTES: hl_unit = 0;
/// UTF-16 code units (JavaScript string indices; Cline's `matchIndices` unit).
pub const HL_UNIT_UTF16: hl_unit = 1;
/// Unicode code points (scalar values; Python `str` indices).
pub const HL_UNIT_CODE_POINTS: hl_unit = 2;
/// 1-based line numbers (one more than the number of `\n` before the position).
pub const HL_UNIT_LINES: hl_unit = 3;

/// Whether a block was applied: one of the `HL_BLOCK_` values.
#[allow(non_camel_case_types)]
pub type hl_block_status = u32;

/// The block's SEARCH text was found and its REPLACE text applied.
pub const HL_BLOCK_APPLIED: hl_block_status = 0;
/// The block was not applied (`native` with `HL_POLICY_PARTIAL`, or `roo`): the block's
/// `error_code` and `error_message` say why.
pub const HL_BLOCK_FAILED: hl_block_status = 1;
/// The block's edit is already in the file, so it changed nothing (`native`): its SEARCH text is
/// nowhere and its REPLACE text is in one place, which `start` and `end` give (a retried call).
pub const HL_BLOCK_ALREADY_APPLIED: hl_block_status = 2;

/// What happened to one SEARCH/REPLACE block, as filled in by `hl_result_block`.
///
/// Every pointer in it is owned by the result and valid until `hl_result_free`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hl_block {
    /// The block's number among completed blocks, from 0, in completion order.
    pub index: usize,
    /// How its SEARCH text was located: the engine's stable snake_case name, NUL-terminated,
    /// `strategy_len` bytes. The Cline dialects: `exact`, `line_trimmed`, `block_anchor`,
    /// `exact_anywhere`, `empty_search_new_file`, `empty_search_whole_file`; `native`: `exact`,
    /// `line_endings`, `trailing_whitespace`, `indentation`, `punctuation`, `line_number_prefix`,
    /// `blank_lines`, `typo`, `empty_search_new_file`, and `unmatched` for a failed block. Later
    /// versions may add names.
    pub strategy: *const c_char,
    /// The length of `strategy` in bytes.
    pub strategy_len: usize,
    /// Where the matched text starts in the original (all zero for a failed block).
    pub start: hl_position,
    /// Where the matched text ends in the original (Cline's fuzzy tiers may report one past the
    /// end of a file without a final newline; all zero for a failed block).
    pub end: hl_position,
    /// `HL_BLOCK_APPLIED`, `HL_BLOCK_ALREADY_APPLIED` (`native`: nothing changed), or
    /// `HL_BLOCK_FAILED` (only in `native` with `HL_POLICY_PARTIAL`; with the default policy a
    /// failure refuses the whole diff instead).
    pub status: hl_block_status,
    /// The 1-based line the matched text ends on (`start.line` when it is empty; 0 for a failed
    /// block), so the block replaced lines `start.line` to `end_line` of the original.
    pub end_line: usize,
    /// How many places the deciding `native` tier found: 1, or more when a Roo `:start_line:`
    /// hint chose among them; 0 for a failed block. The Cline dialects take the first match,
    /// reported as 1.
    pub candidates: usize,
    /// The indentation change from the SEARCH text to the file, in columns (`native`; negative
    /// when the file is indented less; 0 in the Cline dialects).
    pub indent_delta: isize,
    /// Whether the replacement was shifted by `indent_delta` because it carried the SEARCH
    /// text's indentation rather than the file's (`native`).
    pub reindented: bool,
    /// How many differences between the SEARCH text and the file the match tolerated (`native`;
    /// 0 for an exact match and in the Cline dialects); read their names with
    /// `hl_result_block_normalization`.
    pub normalization_count: usize,
    /// For a failed block, the engine's stable code (e.g. `search_not_found`, `ambiguous_match`,
    /// `overlapping_blocks`, `malformed_block`), NUL-terminated, `error_code_len` bytes; NULL
    /// (and length 0) for an applied block.
    pub error_code: *const c_char,
    /// The length of `error_code` in bytes.
    pub error_code_len: usize,
    /// For a failed block, the message written for the model (which block, why, the closest
    /// window with its lines), UTF-8, NUL-terminated, `error_message_len` bytes; NULL (and length
    /// 0) for an applied block.
    pub error_message: *const c_char,
    /// The length of `error_message` in bytes.
    pub error_message_len: usize,
}

/// A block report with its texts kept NUL-terminated for C.
#[derive(Debug)]
struct Block {
    report: BlockReport,
    strategy: CText,
    /// The normalisations' stable names, in the engine's order.
    normalizations: Vec<CText>,
    /// A failed block's code and message.
    error: Option<(CText, CText)>,
}

impl Block {
    fn new(report: &BlockReport) -> Self {
        Block {
            strategy: CText::from_str(report.strategy.as_str()),
            normalizations: report
                .normalizations
                .iter()
                .map(|n| CText::from_str(n.as_str()))
                .collect(),
            error: report
                .error
                .as_ref()
                .map(|e| (CText::from_str(e.code()), CText::from_str(e.message()))),
            report: report.clone(),
        }
    }

    fn to_c(&self) -> hl_block {
        let r = &self.report;
        let (error_code, error_code_len, error_message, error_message_len) = match &self.error {
            Some((code, message)) => (code.as_ptr(), code.len(), message.as_ptr(), message.len()),
            None => (ptr::null(), 0, ptr::null(), 0),
        };
        hl_block {
            index: r.index,
            strategy: self.strategy.as_ptr(),
            strategy_len: self.strategy.len(),
            start: r.start.into(),
            end: r.end.into(),
            status: block_status_value(r.status),
            end_line: r.end_line,
            candidates: r.candidates,
            indent_delta: r.indent_delta,
            reindented: r.reindented,
            normalization_count: self.normalizations.len(),
            error_code,
            error_code_len,
            error_message,
            error_message_len,
        }
    }
}

/// The C value of a block status.
fn block_status_value(status: BlockStatus) -> hl_block_status {
    match status {
        BlockStatus::Applied => HL_BLOCK_APPLIED,
        BlockStatus::Failed => HL_BLOCK_FAILED,
        BlockStatus::AlreadyApplied => HL_BLOCK_ALREADY_APPLIED,
        // Caught by the unit tests; becomes HL_STATUS_PANIC if it ever slipped through.
        other => unreachable!("block status {other:?} has no HL_BLOCK_ value"),
    }
}

/// The outcome of a successful call: the new content, Cline's `matchIndices` and (for
/// `hl_apply_diff`, `hl_applier_finish` and `hl_applier_snapshot`) one report per completed
/// block.
///
/// Owned by the caller, who frees it with `hl_result_free`. Immutable, so it may be read from
/// several threads at once.
#[derive(Debug)]
pub struct hl_result {
    content: CText,
    matches: Vec<Position>,
    blocks: Vec<Block>,
}

impl hl_result {
    /// A result on the heap, for C.
    pub(crate) fn boxed(
        content: CText,
        matches: Vec<Position>,
        blocks: &[BlockReport],
    ) -> Box<Self> {
        let blocks = blocks.iter().map(Block::new).collect();
        Box::new(hl_result {
            content,
            matches,
            blocks,
        })
    }
}

/// The new file content (for a partial call or a snapshot, the content so far).
///
/// On success `*content` points to `*content_len` bytes of UTF-8 followed by a NUL (the content
/// itself may contain NUL characters: use the length), owned by `result` and valid until
/// `hl_result_free(result)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `hl_result`; `content` and `content_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_result_content(
    result: *const hl_result,
    content: *mut *const c_char,
    content_len: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe {
        get_text(result, content, content_len, |r| {
            Ok((r.content.as_ptr(), r.content.len()))
        })
    }
}

/// How many match indices the result has (Cline's `matchIndices.length`: one per applied block
/// in v1, none in v2; in `native`, one per applied block).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `hl_result`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_result_match_count(
    result: *const hl_result,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(result, count, |r| Ok(r.matches.len())) }
}

/// Match index `index` (from 0, in Cline's order; in `native`, in file order) in `unit`: where
/// that block's SEARCH text starts in the original. `HL_UNIT_UTF16` gives Cline's own
/// `matchIndices[index]`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index >= hl_result_match_count` or `unit` is not a
/// `HL_UNIT_` value; `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*value` is untouched then.
///
/// # Safety
/// `result` must be a live `hl_result`; `value` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_result_match_index(
    result: *const hl_result,
    index: usize,
    unit: hl_unit,
    value: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(result, value, |r| {
            let p = r.matches.get(index).ok_or(hl_status::OutOfRange)?;
            let v = in_unit(*p, unit)?;
            Ok(v)
        })
    }
}

/// How many block reports the result has: the blocks completed so far, in completion order (in
/// `native` with `HL_POLICY_PARTIAL`, the failed blocks too). Results of
/// `hl_construct_new_file_content` have none (Cline's function reports none).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `hl_result`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_result_block_count(
    result: *const hl_result,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe { get_value(result, count, |r| Ok(r.blocks.len())) }
}

/// Fills `*block` with block report `index` (from 0). Its pointers (`strategy`, and for a failed
/// block `error_code` and `error_message`) are owned by `result` and valid until
/// `hl_result_free(result)`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index >= hl_result_block_count`;
/// `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*block` is untouched then.
///
/// # Safety
/// `result` must be a live `hl_result`; `block` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_result_block(
    result: *const hl_result,
    index: usize,
    block: *mut hl_block,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(result, block, |r| {
            let filled = r.blocks.get(index).ok_or(hl_status::OutOfRange)?.to_c();
            Ok(filled)
        })
    }
}

/// The stable snake_case name of normalisation `index` (from 0, in a fixed order, each at most
/// once) of block report `block`: what the `native` match tolerated between the SEARCH text and
/// the file: `line_endings`, `trailing_whitespace`, `indentation`, `punctuation`,
/// `line_number_prefixes`, `blank_lines` or `typo`; later versions may add names.
///
/// On success `*name` points to `*name_len` bytes of NUL-terminated ASCII, owned by `result` and
/// valid until `hl_result_free(result)`.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `block >= hl_result_block_count` or `index` is not below
/// the block's `normalization_count`; `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*name`
/// and `*name_len` are untouched then.
///
/// # Safety
/// `result` must be a live `hl_result`; `name` and `name_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_result_block_normalization(
    result: *const hl_result,
    block: usize,
    index: usize,
    name: *mut *const c_char,
    name_len: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and writable out-pointers are this function's contract.
    unsafe {
        get_text(result, name, name_len, |r| {
            let n = r
                .blocks
                .get(block)
                .and_then(|b| b.normalizations.get(index))
                .ok_or(hl_status::OutOfRange)?;
            Ok((n.as_ptr(), n.len()))
        })
    }
}

/// How many of the result's block reports have status `HL_BLOCK_FAILED` (only `native` with
/// `HL_POLICY_PARTIAL` reports failed blocks; 0 means every block was applied).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `hl_result`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_result_failed_count(
    result: *const hl_result,
    count: *mut usize,
) -> hl_status {
    // SAFETY: forwarded: a live handle and a writable out-pointer are this function's contract.
    unsafe {
        get_value(result, count, |r| {
            let failed = r
                .blocks
                .iter()
                .filter(|b| b.report.status == BlockStatus::Failed)
                .count();
            Ok(failed)
        })
    }
}

/// Frees a result. NULL is allowed and does nothing. Pointers obtained from it become invalid.
///
/// # Safety
/// `result` must be NULL or a `hl_result` from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_result_free(result: *mut hl_result) {
    guard_void(|| {
        if !result.is_null() {
            // SAFETY: a non-NULL `result` was made by `Box::into_raw` in this library and is
            // freed once (the caller's contract).
            drop(unsafe { Box::from_raw(result) });
        }
    })
}

/// `p` in `unit`.
fn in_unit(p: Position, unit: hl_unit) -> Result<usize, hl_status> {
    Ok(match unit {
        HL_UNIT_BYTES => p.bytes,
        HL_UNIT_UTF16 => p.utf16,
        HL_UNIT_CODE_POINTS => p.chars,
        HL_UNIT_LINES => p.line,
        _ => return Err(hl_status::OutOfRange),
    })
}

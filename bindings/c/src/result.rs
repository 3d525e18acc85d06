//! [`pl_result`]: a successful outcome (new content, match positions, block reports), and the
//! position units C can ask for.

use std::ffi::c_char;

use engine::{BlockReport, Position};

use crate::args::{Out, handle};
use crate::error::Failure;
use crate::ffi_guard::{guard, guard_void};
use crate::status::pl_status;
use crate::text::CText;

/// The unit of a position or length: one of the `PL_UNIT_` values.
///
/// A plain integer type rather than an enum so that any value a host passes is well-defined:
/// unknown values are rejected with `PL_STATUS_OUT_OF_RANGE`.
#[allow(non_camel_case_types)]
pub type pl_unit = u32;

/// UTF-8 bytes (what C indexes by).
pub const PL_UNIT_BYTES: pl_unit = 0;
/// UTF-16 code units (JavaScript string indices; Cline's `matchIndices` unit).
pub const PL_UNIT_UTF16: pl_unit = 1;
/// Unicode code points (scalar values; Python `str` indices).
pub const PL_UNIT_CODE_POINTS: pl_unit = 2;
/// 1-based line numbers (one more than the number of `\n` before the position).
pub const PL_UNIT_LINES: pl_unit = 3;

/// A position in the original text, in every unit at once.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pl_position {
    /// UTF-8 byte offset.
    pub bytes: usize,
    /// UTF-16 code-unit offset.
    pub utf16: usize,
    /// Unicode code-point offset.
    pub code_points: usize,
    /// 1-based line number.
    pub line: usize,
}

impl From<Position> for pl_position {
    fn from(p: Position) -> Self {
        pl_position {
            bytes: p.bytes,
            utf16: p.utf16,
            code_points: p.chars,
            line: p.line,
        }
    }
}

/// What happened to one SEARCH/REPLACE block, as filled in by `pl_result_block`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pl_block {
    /// The block's number among completed blocks, from 0, in completion order.
    pub index: usize,
    /// How its SEARCH text was located: the engine's stable snake_case name (`exact`,
    /// `line_trimmed`, `block_anchor`, ...), NUL-terminated, `strategy_len` bytes, owned by the
    /// result and valid until `pl_result_free`.
    pub strategy: *const c_char,
    /// The length of `strategy` in bytes.
    pub strategy_len: usize,
    /// Where the matched text starts in the original.
    pub start: pl_position,
    /// Where the matched text ends in the original (Cline's fuzzy tiers may report one past the
    /// end of a file without a final newline).
    pub end: pl_position,
}

/// A block report with its strategy name kept NUL-terminated for C.
#[derive(Debug)]
struct Block {
    report: BlockReport,
    strategy: CText,
}

/// The outcome of a successful call: the new content, Cline's `matchIndices` and (for
/// `pl_applier_finish` and `pl_applier_snapshot`) one report per completed block.
///
/// Owned by the caller, who frees it with `pl_result_free`. Immutable, so it may be read from
/// several threads at once.
#[derive(Debug)]
pub struct pl_result {
    content: CText,
    matches: Vec<Position>,
    blocks: Vec<Block>,
}

impl pl_result {
    /// A result on the heap, for C.
    pub(crate) fn boxed(
        content: CText,
        matches: Vec<Position>,
        blocks: &[BlockReport],
    ) -> Box<Self> {
        let blocks = blocks
            .iter()
            .map(|b| Block {
                report: b.clone(),
                strategy: CText::from_str(b.strategy.name()),
            })
            .collect();
        Box::new(pl_result {
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
/// `pl_result_free(result)`.
///
/// @return `PL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `pl_result`; `content` and `content_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pl_result_content(
    result: *const pl_result,
    content: *mut *const c_char,
    content_len: *mut usize,
) -> pl_status {
    guard(|| {
        let (content, content_len) = (Out::new(content)?, Out::new(content_len)?);
        // SAFETY: the caller passes a live pl_result (this function's contract).
        let r = unsafe { handle(result) }?;
        // SAFETY: both out-pointers are non-NULL and writable (this function's contract).
        unsafe {
            content.write(r.content.as_ptr());
            content_len.write(r.content.len());
        }
        Ok(())
    })
}

/// How many match indices the result has (Cline's `matchIndices.length`: one per applied block
/// in v1, none in v2).
///
/// @return `PL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `pl_result`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pl_result_match_count(
    result: *const pl_result,
    count: *mut usize,
) -> pl_status {
    guard(|| {
        let count = Out::new(count)?;
        // SAFETY: the caller passes a live pl_result (this function's contract).
        let r = unsafe { handle(result) }?;
        // SAFETY: `count` is non-NULL and writable (this function's contract).
        unsafe { count.write(r.matches.len()) };
        Ok(())
    })
}

/// Match index `index` (from 0, in Cline's order) in `unit`: where that block's SEARCH text
/// starts in the original. `PL_UNIT_UTF16` gives Cline's own `matchIndices[index]`.
///
/// @return `PL_STATUS_OUT_OF_RANGE` if `index >= pl_result_match_count` or `unit` is not a
/// `PL_UNIT_` value; `PL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*value` is untouched then.
///
/// # Safety
/// `result` must be a live `pl_result`; `value` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pl_result_match_index(
    result: *const pl_result,
    index: usize,
    unit: pl_unit,
    value: *mut usize,
) -> pl_status {
    guard(|| {
        let value = Out::new(value)?;
        // SAFETY: the caller passes a live pl_result (this function's contract).
        let r = unsafe { handle(result) }?;
        let p = r.matches.get(index).ok_or(pl_status::OutOfRange)?;
        let v = in_unit(*p, unit)?;
        // SAFETY: `value` is non-NULL and writable (this function's contract).
        unsafe { value.write(v) };
        Ok(())
    })
}

/// How many block reports the result has: the blocks completed so far, in completion order.
/// Results of `pl_construct_new_file_content` have none (Cline's function reports none).
///
/// @return `PL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `result` must be a live `pl_result`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pl_result_block_count(
    result: *const pl_result,
    count: *mut usize,
) -> pl_status {
    guard(|| {
        let count = Out::new(count)?;
        // SAFETY: the caller passes a live pl_result (this function's contract).
        let r = unsafe { handle(result) }?;
        // SAFETY: `count` is non-NULL and writable (this function's contract).
        unsafe { count.write(r.blocks.len()) };
        Ok(())
    })
}

/// Fills `*block` with block report `index` (from 0). Its `strategy` pointer is owned by
/// `result` and valid until `pl_result_free(result)`.
///
/// @return `PL_STATUS_OUT_OF_RANGE` if `index >= pl_result_block_count`;
/// `PL_STATUS_NULL_ARGUMENT` if a pointer is NULL. `*block` is untouched then.
///
/// # Safety
/// `result` must be a live `pl_result`; `block` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pl_result_block(
    result: *const pl_result,
    index: usize,
    block: *mut pl_block,
) -> pl_status {
    guard(|| {
        let block = Out::new(block)?;
        // SAFETY: the caller passes a live pl_result (this function's contract).
        let r = unsafe { handle(result) }?;
        let b = r.blocks.get(index).ok_or(pl_status::OutOfRange)?;
        let filled = pl_block {
            index: b.report.index,
            strategy: b.strategy.as_ptr(),
            strategy_len: b.strategy.len(),
            start: b.report.start.into(),
            end: b.report.end.into(),
        };
        // SAFETY: `block` is non-NULL and writable (this function's contract).
        unsafe { block.write(filled) };
        Ok(())
    })
}

/// Frees a result. NULL is allowed and does nothing. Pointers obtained from it become invalid.
///
/// # Safety
/// `result` must be NULL or a `pl_result` from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pl_result_free(result: *mut pl_result) {
    guard_void(|| {
        if !result.is_null() {
            // SAFETY: a non-NULL `result` was made by `Box::into_raw` in this library and is
            // freed once (the caller's contract).
            drop(unsafe { Box::from_raw(result) });
        }
    })
}

/// `p` in `unit`.
fn in_unit(p: Position, unit: pl_unit) -> Result<usize, Failure> {
    Ok(match unit {
        PL_UNIT_BYTES => p.bytes,
        PL_UNIT_UTF16 => p.utf16,
        PL_UNIT_CODE_POINTS => p.chars,
        PL_UNIT_LINES => p.line,
        _ => return Err(pl_status::OutOfRange.into()),
    })
}

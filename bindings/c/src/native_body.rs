//! `hl_native_body_applier`: one V4A body applied the native way while it streams
//! (`hunkloom::patch::native::NativeBodyApplier`) behind a handle, like `hl_aider_applier` (a
//! second call while one runs: `HL_STATUS_CONCURRENT_USE`; after finish:
//! `HL_STATUS_ALREADY_FINISHED`; a panic retires the handle: `HL_STATUS_PANIC`). The report
//! of each placed section comes back as JSON text.

use std::ffi::c_char;

use engine::patch::native::{ChunkReport, NativeBodyApplier};
use hunkloom_handle::Handle;
use serde_json::{Value, json};

use crate::args::{Out, bytes_arg, handle, str_arg};
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::{guard, guard_void, guard_with_error};
use crate::owned_text::hl_text;
use crate::status::hl_status;
use crate::utf8::Pending;
use crate::v4a::{hl_v4a_mode, mode_of};

/// One V4A body applied the native way while it streams (create with
/// `hl_native_body_applier_new`, free with `hl_native_body_applier_free`). Use it from one
/// thread at a time.
pub struct hl_native_body_applier {
    handle: Handle<Inner>,
}

struct Inner {
    engine: NativeBodyApplier<'static>,
    /// The bytes of a character the last push left unfinished.
    pending: Pending,
}

/// The JSON array of chunk reports: `{"index", "line", "context_lines", "removed", "added",
/// "strategy", "normalizations", "candidates", "chosen_by", "already_applied",
/// "indent_delta"}` each.
fn chunk_reports_json(chunks: &[ChunkReport]) -> String {
    let all: Vec<Value> = chunks
        .iter()
        .map(|c| {
            json!({
                "index": c.index,
                "line": c.line,
                "context_lines": c.context_lines,
                "removed": c.removed,
                "added": c.added,
                "strategy": c.strategy.as_str(),
                "normalizations": c.normalizations.iter().map(|n| n.as_str()).collect::<Vec<_>>(),
                "candidates": c.candidates,
                "chosen_by": c.chosen_by.map(|b| b.as_str()),
                "already_applied": c.already_applied,
                "indent_delta": c.indent_delta,
            })
        })
        .collect();
    Value::Array(all).to_string()
}

/// Creates an applier of one body to the file text `input` (`input_len` bytes of UTF-8,
/// copied) in `mode` (`HL_V4A_MODE_DEFAULT` updates it, `HL_V4A_MODE_CREATE` makes a new
/// file). On success `*applier` receives a new applier the caller frees with
/// `hl_native_body_applier_free`.
///
/// @return `HL_STATUS_INVALID_OPTION` (with `*error`, code `invalid_dialect`) for an unknown
/// `mode`; `HL_STATUS_NULL_ARGUMENT`, `HL_STATUS_INVALID_UTF8`.
///
/// # Safety
/// `input` must point to `input_len` readable bytes (or be NULL with 0); `applier` and `error`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_native_body_applier_new(
    input: *const c_char,
    input_len: usize,
    mode: hl_v4a_mode,
    applier: *mut *mut hl_native_body_applier,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(applier)?;
        // SAFETY: the caller passes `input_len` readable bytes (this function's contract).
        let input = unsafe { str_arg(input, input_len) }?;
        let engine = NativeBodyApplier::new(input.to_owned(), mode_of(mode)?);
        let boxed = Box::new(hl_native_body_applier {
            handle: Handle::new(
                "applier",
                Inner {
                    engine,
                    pending: Pending::default(),
                },
            ),
        });
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(boxed)) };
        Ok(())
    })
}

/// Feeds the next `chunk_len` bytes of the body (a chunk may end inside a UTF-8 character: its
/// bytes wait for the next push).
///
/// @return `HL_STATUS_EDIT_REJECTED` (with `*error`) once a section cannot be read or placed,
/// and again on every later call (codes as for `hl_apply_patch_body` with
/// `HL_PATCH_DIALECT_NATIVE`); `HL_STATUS_INVALID_UTF8` for bytes that are not UTF-8 (nothing
/// changes); `HL_STATUS_ALREADY_FINISHED`, `HL_STATUS_CONCURRENT_USE` (with `*error`),
/// `HL_STATUS_PANIC`, `HL_STATUS_NULL_ARGUMENT`.
///
/// # Safety
/// `applier` must be a live applier; `chunk` `chunk_len` readable bytes (or NULL with 0);
/// `error` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_native_body_applier_push(
    applier: *const hl_native_body_applier,
    chunk: *const c_char,
    chunk_len: usize,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        // SAFETY: the caller passes `chunk_len` readable bytes (this function's contract).
        let bytes = unsafe { bytes_arg(chunk, chunk_len) }?;
        // SAFETY: a live applier (this function's contract).
        let a = unsafe { handle(applier) }?;
        a.handle.with(|inner| -> Result<(), Failure> {
            let joined = inner
                .pending
                .join(bytes)
                .map_err(|_| Failure::from(hl_status::InvalidUtf8))?;
            inner.engine.push(&joined.text)?;
            inner.pending = joined.pending;
            Ok(())
        })??;
        Ok(())
    })
}

/// The input with the sections placed so far applied: `*text` receives a new `hl_text` (free
/// it with `hl_text_free`).
///
/// @return `HL_STATUS_NULL_ARGUMENT`, `HL_STATUS_ALREADY_FINISHED`, `HL_STATUS_CONCURRENT_USE`,
/// `HL_STATUS_PANIC`.
///
/// # Safety
/// `applier` must be a live applier; `text` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_native_body_applier_preview(
    applier: *const hl_native_body_applier,
    text: *mut *mut hl_text,
) -> hl_status {
    guard(|| {
        let out = Out::new(text)?;
        // SAFETY: a live applier (this function's contract).
        let a = unsafe { handle(applier) }?;
        let preview = a.handle.with(|inner| inner.engine.preview())?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_text::boxed(preview))) };
        Ok(())
    })
}

/// The reports of the sections placed so far, as a JSON array (see `hl_native_body_applier_finish`):
/// `*chunks` receives a new `hl_text` (free it with `hl_text_free`).
///
/// @return as `hl_native_body_applier_preview`.
///
/// # Safety
/// `applier` must be a live applier; `chunks` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_native_body_applier_chunks(
    applier: *const hl_native_body_applier,
    chunks: *mut *mut hl_text,
) -> hl_status {
    guard(|| {
        let out = Out::new(chunks)?;
        // SAFETY: a live applier (this function's contract).
        let a = unsafe { handle(applier) }?;
        let text = a
            .handle
            .with(|inner| chunk_reports_json(inner.engine.chunks()))?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_text::boxed(text))) };
        Ok(())
    })
}

/// Ends the body: `*new_content` receives the new text and `*chunks_json` a JSON array with a
/// report per section that changes something (`{"index", "line", "context_lines", "removed",
/// "added", "strategy", "normalizations", "candidates", "chosen_by", "already_applied",
/// "indent_delta"}`), both new `hl_text`s the caller frees with `hl_text_free`. The applier
/// is finished afterwards either way.
///
/// @return `HL_STATUS_EDIT_REJECTED` (with `*error`) for the body's refusal;
/// `HL_STATUS_INVALID_UTF8` if the body ended inside a character; `HL_STATUS_ALREADY_FINISHED`,
/// `HL_STATUS_CONCURRENT_USE`, `HL_STATUS_PANIC`, `HL_STATUS_NULL_ARGUMENT`.
///
/// # Safety
/// `applier` must be a live applier; `new_content`, `chunks_json` and `error` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_native_body_applier_finish(
    applier: *const hl_native_body_applier,
    new_content: *mut *mut hl_text,
    chunks_json: *mut *mut hl_text,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let (out, out_chunks) = (Out::new(new_content)?, Out::new(chunks_json)?);
        // SAFETY: a live applier (this function's contract).
        let a = unsafe { handle(applier) }?;
        a.handle.with(|inner| {
            if inner.pending.is_empty() {
                Ok(())
            } else {
                Err(Failure::from(hl_status::InvalidUtf8))
            }
        })??;
        let outcome = a.handle.finish(|mut inner| inner.engine.finish())??;
        let chunks = chunk_reports_json(&outcome.chunks);
        // SAFETY: both are non-NULL and writable (this function's contract).
        unsafe {
            out.write(Box::into_raw(hl_text::boxed(outcome.new_content)));
            out_chunks.write(Box::into_raw(hl_text::boxed(chunks)));
        }
        Ok(())
    })
}

/// Frees an applier, finished or not. NULL is allowed and does nothing.
///
/// # Safety
/// `applier` must be NULL or an applier from `hl_native_body_applier_new` not yet freed, and
/// not in use by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_native_body_applier_free(applier: *mut hl_native_body_applier) {
    guard_void(|| {
        if !applier.is_null() {
            // SAFETY: from hl_native_body_applier_new and not yet freed (this function's
            // contract).
            drop(unsafe { Box::from_raw(applier) });
        }
    });
}

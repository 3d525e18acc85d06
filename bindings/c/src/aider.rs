//! `hl_aider_applier`: the engine's streaming aider-reply applier behind a handle, like
//! `hl_applier` (a second call while one runs: `HL_STATUS_CONCURRENT_USE`; after finish:
//! `HL_STATUS_ALREADY_FINISHED`; a panic retires the handle: `HL_STATUS_PANIC`).

use std::collections::BTreeMap;
use std::ffi::c_char;

use engine::patch::aider::AiderApplier;
use hunkloom_handle::Handle;

use crate::args::{Out, bytes_arg, handle, str_arg};
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::{guard, guard_void, guard_with_error};
use crate::owned_text::hl_text;
use crate::patch::{
    HL_PATCH_DIALECT_AIDER, files_arg, hl_patch_file, hl_patch_options, hl_patch_result,
};
use crate::status::hl_status;
use crate::text::CText;
use crate::utf8::Pending;

/// A model's reply in one of aider's edit formats, applied while it streams (create with
/// `hl_aider_applier_new`, free with `hl_aider_applier_free`). Use it from one thread at a
/// time.
pub struct hl_aider_applier {
    handle: Handle<Inner>,
}

struct Inner {
    engine: AiderApplier,
    /// The chat files as given, for the result of finish.
    files: BTreeMap<String, String>,
    /// The bytes of a character the last push left unfinished.
    pending: Pending,
    /// The paths the last push changed, NUL-terminated for C.
    changed: Vec<CText>,
}

/// Creates an applier of a reply over `files` (`file_count` entries, copied), aider's chat
/// files. `options` NULL means `HL_PATCH_DIALECT_AIDER`, all or nothing; else
/// `options->dialect` must be `HL_PATCH_DIALECT_AIDER`, `_AIDER_FENCED`, `_AIDER_WHOLE` or
/// `_AIDER_NATIVE`, and `options->policy` is as for
/// `hl_apply_patch`. On success `*applier` receives a new applier the caller frees with
/// `hl_aider_applier_free`.
///
/// @return `HL_STATUS_INVALID_OPTION` (with `*error`, code `invalid_dialect`) for another
/// dialect; `HL_STATUS_NULL_ARGUMENT`, `HL_STATUS_INVALID_UTF8` as for `hl_apply_patch`.
///
/// # Safety
/// `files` must point to `file_count` valid entries (or be NULL with 0); `options` NULL or a
/// `hl_patch_options`; `applier` and `error` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_aider_applier_new(
    files: *const hl_patch_file,
    file_count: usize,
    options: *const hl_patch_options,
    applier: *mut *mut hl_aider_applier,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(applier)?;
        // SAFETY: the caller passes `file_count` valid entries (this function's contract).
        let files = unsafe { files_arg(files, file_count) }?;
        // SAFETY: `options` is NULL or points to a hl_patch_options (this function's contract).
        let options = unsafe { options.as_ref() }
            .copied()
            .unwrap_or(hl_patch_options {
                dialect: HL_PATCH_DIALECT_AIDER,
                ..hl_patch_options::default()
            });
        let engine = AiderApplier::new(files.clone(), &options.to_engine()?)?;
        let boxed = Box::new(hl_aider_applier {
            handle: Handle::new(
                "applier",
                Inner {
                    engine,
                    files,
                    pending: Pending::default(),
                    changed: Vec::new(),
                },
            ),
        });
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(boxed)) };
        Ok(())
    })
}

/// Feeds the next `chunk_len` bytes of the reply (a chunk may end inside a UTF-8 character:
/// its bytes wait for the next push); `*changed_count` receives how many paths' previews
/// changed, read with `hl_aider_applier_changed`.
///
/// @return the status `hl_apply_patch` gives a reply that does not parse (with `*error`: aider's
/// text) once the reply can no longer parse (a block without a file name); `HL_STATUS_INVALID_UTF8` for bytes that are not UTF-8
/// (nothing changes); `HL_STATUS_ALREADY_FINISHED`, `HL_STATUS_CONCURRENT_USE` (with `*error`),
/// `HL_STATUS_PANIC`, `HL_STATUS_NULL_ARGUMENT`.
///
/// # Safety
/// `applier` must be a live applier; `chunk` `chunk_len` readable bytes (or NULL with 0);
/// `changed_count` and `error` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_aider_applier_push(
    applier: *const hl_aider_applier,
    chunk: *const c_char,
    chunk_len: usize,
    changed_count: *mut usize,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(changed_count)?;
        // SAFETY: the caller passes `chunk_len` readable bytes (this function's contract).
        let bytes = unsafe { bytes_arg(chunk, chunk_len) }?;
        // SAFETY: a live applier (this function's contract).
        let a = unsafe { handle(applier) }?;
        let count = a.handle.with(|inner| -> Result<usize, Failure> {
            let joined = inner
                .pending
                .join(bytes)
                .map_err(|_| Failure::from(hl_status::InvalidUtf8))?;
            let paths = inner.engine.push(&joined.text)?;
            inner.pending = joined.pending;
            inner.changed = paths.iter().map(|p| CText::from_str(p)).collect();
            Ok(inner.changed.len())
        })??;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(count) };
        Ok(())
    })
}

/// The `index`-th path the last push changed: `*path` points to `*path_len` bytes of UTF-8
/// and a NUL, owned by the applier and valid until its next push, finish or free.
///
/// @return `HL_STATUS_OUT_OF_RANGE` for an index past the count; `HL_STATUS_NULL_ARGUMENT`;
/// `HL_STATUS_ALREADY_FINISHED`, `HL_STATUS_CONCURRENT_USE`, `HL_STATUS_PANIC`.
///
/// # Safety
/// `applier` must be a live applier; `path` and `path_len` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_aider_applier_changed(
    applier: *const hl_aider_applier,
    index: usize,
    path: *mut *const c_char,
    path_len: *mut usize,
) -> hl_status {
    guard(|| {
        let (out, out_len) = (Out::new(path)?, Out::new(path_len)?);
        // SAFETY: a live applier (this function's contract).
        let a = unsafe { handle(applier) }?;
        let (ptr, len) = a.handle.with(|inner| {
            inner
                .changed
                .get(index)
                .map(|t| (t.as_ptr(), t.len()))
                .ok_or(hl_status::OutOfRange)
        })??;
        // SAFETY: both are non-NULL and writable (this function's contract).
        unsafe {
            out.write(ptr);
            out_len.write(len);
        }
        Ok(())
    })
}

/// The file at `path` (`path_len` bytes of UTF-8) as the reply so far leaves it: `*text`
/// receives a new `hl_text` (free it with `hl_text_free`), or NULL for a path that is neither a
/// chat file nor written by the reply.
///
/// @return `HL_STATUS_NULL_ARGUMENT`, `HL_STATUS_INVALID_UTF8`, `HL_STATUS_ALREADY_FINISHED`,
/// `HL_STATUS_CONCURRENT_USE`, `HL_STATUS_PANIC`.
///
/// # Safety
/// `applier` must be a live applier; `path` `path_len` readable bytes; `text` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_aider_applier_preview(
    applier: *const hl_aider_applier,
    path: *const c_char,
    path_len: usize,
    text: *mut *mut hl_text,
) -> hl_status {
    guard(|| {
        let out = Out::new(text)?;
        // SAFETY: the caller passes `path_len` readable bytes (this function's contract).
        let path = unsafe { str_arg(path, path_len) }?;
        // SAFETY: a live applier (this function's contract).
        let a = unsafe { handle(applier) }?;
        let preview = a
            .handle
            .with(|inner| inner.engine.preview(path).map(str::to_owned))?;
        let boxed = preview.map_or(std::ptr::null_mut(), |t| Box::into_raw(hl_text::boxed(t)));
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(boxed) };
        Ok(())
    })
}

/// Ends the reply: `*result` receives what `hl_apply_patch` gives for the whole reply (free it
/// with `hl_patch_result_free`). The applier is finished afterwards either way.
///
/// @return as `hl_apply_patch` (with `*error` for the engine's errors: aider's texts);
/// `HL_STATUS_INVALID_UTF8` if the reply ended inside a character; `HL_STATUS_ALREADY_FINISHED`.
///
/// # Safety
/// `applier` must be a live applier; `result` and `error` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_aider_applier_finish(
    applier: *const hl_aider_applier,
    result: *mut *mut hl_patch_result,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result)?;
        // SAFETY: a live applier (this function's contract).
        let a = unsafe { handle(applier) }?;
        a.handle.with(|inner| {
            if inner.pending.is_empty() {
                Ok(())
            } else {
                Err(Failure::from(hl_status::InvalidUtf8))
            }
        })??;
        let (plan, files) = a.handle.finish(|mut inner| {
            let plan = inner.engine.finish();
            (plan, inner.files)
        })?;
        let boxed = hl_patch_result::boxed(plan?, files);
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(boxed)) };
        Ok(())
    })
}

/// Frees an applier, finished or not. NULL is allowed and does nothing.
///
/// # Safety
/// `applier` must be NULL or an applier from `hl_aider_applier_new` not yet freed, and not in
/// use by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_aider_applier_free(applier: *mut hl_aider_applier) {
    guard_void(|| {
        if !applier.is_null() {
            // SAFETY: from hl_aider_applier_new and not yet freed (this function's contract).
            drop(unsafe { Box::from_raw(applier) });
        }
    });
}

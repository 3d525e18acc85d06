//! [`hl_applier`]: the engine's [`StreamingApplier`] for C.
//!
//! The engine owns the streaming state. The handle adds what C needs around it: the unfinished
//! UTF-8 character of the last push (see `utf8.rs`), a NUL-terminated copy of the preview (see
//! [`CPreview`]), the inserted text of the last push, all in a [`Handle`], the lifecycle every
//! binding shares: `finish` consumes the engine while the C handle stays valid until
//! `hl_applier_free`, a host's threading mistake becomes `HL_STATUS_CONCURRENT_USE` instead of a
//! data race, and a panic retires the handle (`HL_STATUS_PANIC` from then on).

use std::ffi::c_char;

use engine::StreamingApplier;
use hunkloom_handle::Handle;

use crate::args::{Out, bytes_arg, handle, str_arg};
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::{guard, guard_void, guard_with_error};
use crate::options::hl_applier_options;
use crate::result::hl_result;
use crate::status::hl_status;
use crate::text::CText;
use crate::utf8::Pending;

/// A diff applied to one original text while the diff streams in.
///
/// Create it with `hl_applier_new`, feed the diff with `hl_applier_push` in chunks of any size
/// (even single bytes), read `hl_applier_preview` whenever you like, end it with
/// `hl_applier_finish`, and always release it with `hl_applier_free`.
///
/// Threads: an applier may be moved to another thread, but must never be used by two threads at
/// the same time (lock around it if you share it). A call that overlaps another call on the
/// same applier is detected and refused with `HL_STATUS_CONCURRENT_USE` (except
/// `hl_applier_free`, which must never overlap anything).
#[derive(Debug)]
pub struct hl_applier {
    pub(crate) handle: Handle<Inner>,
}

/// The state behind a `hl_applier` until it finishes.
#[derive(Debug)]
pub(crate) struct Inner {
    engine: StreamingApplier,
    /// An unfinished UTF-8 character at the end of the pushes so far.
    pending: Pending,
    /// The engine's preview, NUL-terminated, brought up to date when C reads it.
    preview: CPreview,
    /// What the last push inserted, NUL-terminated.
    inserted: CText,
}

/// How the preview changed in one push: replace `removed` bytes at byte offset `start` of the
/// preview as it was before the push with the `inserted_len` bytes at `inserted`.
///
/// A UI keeping its own copy of the preview applies this splice instead of copying the whole
/// preview per push. In the Cline dialects the splice is always at the end of the preview; in
/// `native` it may lie anywhere (the block being streamed may be in the middle of the file).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hl_update {
    /// Where the splice starts, in bytes of the preview before the push.
    pub start: usize,
    /// How many bytes of the old preview are replaced.
    pub removed: usize,
    /// The inserted text: UTF-8, NUL-terminated, owned by the applier and valid until the next
    /// `hl_applier_push`, `hl_applier_finish` or `hl_applier_free` on it.
    pub inserted: *const c_char,
    /// The length of `inserted` in bytes.
    pub inserted_len: usize,
    /// How many blocks complete lines have completed so far.
    pub blocks_completed: usize,
}

/// The NUL-terminated copy of the engine's preview that `hl_applier_preview` hands out.
///
/// A push whose splice ends at the end of the preview (every push in the Cline dialects, whose
/// preview grows at its end) is applied to the copy at once: that costs the splice, not the
/// file. A splice anywhere else (a `native` block in the middle of the file) would move the
/// whole rest of the copy on every push, so it only marks the copy stale, and the next
/// `hl_applier_preview` copies the engine's preview again: pushes stay proportional to their
/// chunks, and a host pays for a whole copy only when it reads a preview that changed.
#[derive(Debug)]
struct CPreview {
    text: CText,
    /// `text` no longer equals the engine's preview; rebuilt on the next read.
    stale: bool,
}

impl CPreview {
    /// A copy that is rebuilt on its first read (the preview is empty in the Cline dialects, the
    /// whole original in `native`: copied only if a host asks for it).
    fn new() -> Self {
        CPreview {
            text: CText::new(),
            stale: true,
        }
    }

    /// Follows one push: replace `removed` bytes at `start` with `inserted`.
    fn follow(&mut self, start: usize, removed: usize, inserted: &str) {
        if self.stale || (removed == 0 && inserted.is_empty()) {
            return;
        }
        if start + removed == self.text.len() {
            self.text.splice(start..start + removed, inserted);
        } else {
            self.stale = true;
        }
    }

    /// The copy, brought up to date with the engine's `preview` if a push made it stale.
    fn read(&mut self, engine: &StreamingApplier) -> &CText {
        if self.stale {
            self.text.set(engine.preview());
            self.stale = false;
        }
        &self.text
    }
}

/// Runs `body` on the state behind `applier`: a call that overlaps another one is refused
/// (`HL_STATUS_CONCURRENT_USE`), a call after finish fails with `HL_STATUS_ALREADY_FINISHED`, and
/// a panic inside retires the handle (`HL_STATUS_PANIC`, then and for every later call).
///
/// # Safety
/// `applier` must be NULL or a live `hl_applier` (not freed, and not being freed meanwhile).
unsafe fn with_applier<R>(
    applier: *const hl_applier,
    body: impl FnOnce(&mut Inner) -> Result<R, Failure>,
) -> Result<R, Failure> {
    // SAFETY: forwarded from this function's contract.
    let a = unsafe { handle(applier) }?;
    a.handle.with(body)?
}

/// Creates an applier for `original` (UTF-8, `original_len` bytes, copied).
///
/// `options` may be NULL for the defaults (dialect `HL_DIALECT_CLINE_V1`, for drop-in safety;
/// set `HL_DIALECT_NATIVE` for the robust dialect, and `HL_POLICY_PARTIAL` to keep the blocks
/// that matched when others fail). On success `*applier` receives a new applier owned by the
/// caller, who must free it with `hl_applier_free`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if `applier` is NULL or `original` is NULL with a non-zero
/// length; `HL_STATUS_INVALID_UTF8` if `original` is not UTF-8; `HL_STATUS_INVALID_OPTION` if
/// `options->dialect` is not a `HL_DIALECT_` value or `options->policy` not a `HL_POLICY_` value.
/// `*applier` is untouched then.
///
/// # Safety
/// `original` must point to `original_len` readable bytes (or be NULL with length 0); `options`
/// must be NULL or point to a `hl_applier_options`; `applier` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_applier_new(
    original: *const c_char,
    original_len: usize,
    options: *const hl_applier_options,
    applier: *mut *mut hl_applier,
) -> hl_status {
    guard(|| {
        let out = Out::new(applier)?;
        // SAFETY: the caller passes `original_len` readable bytes (this function's contract).
        let original = unsafe { str_arg(original, original_len) }?;
        // SAFETY: `options` is NULL or points to a hl_applier_options (this function's contract).
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        let engine = StreamingApplier::new(original, options.to_engine()?);
        let inner = Inner {
            engine,
            pending: Pending::default(),
            preview: CPreview::new(),
            inserted: CText::new(),
        };
        let handle = Box::new(hl_applier {
            handle: Handle::new("applier", inner),
        });
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(handle)) };
        Ok(())
    })
}

/// Feeds the next `chunk_len` bytes of the diff and fills `*update` with how the preview changed.
///
/// The chunk may end in the middle of a UTF-8 character: its bytes are kept and completed by the
/// next push. `chunk` may be NULL when `chunk_len` is 0. A diff the engine rejects is not a push
/// failure: the push succeeds and `hl_applier_snapshot` / `hl_applier_finish` report the error.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if `applier` or `update` is NULL, or `chunk` is NULL with a
/// non-zero length; `HL_STATUS_INVALID_UTF8` if the chunk contains bytes that are not UTF-8
/// (nothing changes: the chunk is dropped whole); `HL_STATUS_ALREADY_FINISHED` after
/// `hl_applier_finish`; `HL_STATUS_CONCURRENT_USE` if another call on the applier is in progress;
/// `HL_STATUS_PANIC` if the applier is poisoned. `*update` is untouched then.
///
/// # Safety
/// `applier` must be a live applier not used by another thread meanwhile; `chunk` must point to
/// `chunk_len` readable bytes (or be NULL with length 0); `update` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_applier_push(
    applier: *mut hl_applier,
    chunk: *const c_char,
    chunk_len: usize,
    update: *mut hl_update,
) -> hl_status {
    guard(|| {
        let out = Out::new(update)?;
        // SAFETY: the caller passes `chunk_len` readable bytes (this function's contract).
        let chunk = unsafe { bytes_arg(chunk, chunk_len) }?;
        // SAFETY: the caller passes a live applier used by this thread only (this function's
        // contract).
        let filled = unsafe { with_applier(applier, |a| push(a, chunk)) }?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(filled) };
        Ok(())
    })
}

fn push(a: &mut Inner, chunk: &[u8]) -> Result<hl_update, Failure> {
    let Inner {
        engine,
        pending,
        preview,
        inserted,
    } = a;
    let joined = pending.join(chunk).map_err(|_| hl_status::InvalidUtf8)?;
    let update = engine.push(&joined.text);
    let (start, removed) = (update.start.bytes, update.removed.bytes);
    preview.follow(start, removed, &update.inserted);
    inserted.set(&update.inserted);
    *pending = joined.pending;
    Ok(hl_update {
        start,
        removed,
        inserted: inserted.as_ptr(),
        inserted_len: inserted.len(),
        blocks_completed: update.blocks_completed,
    })
}

/// What the file looks like after the diff pushed so far (in the Cline dialects: Cline's partial
/// `newContent`, which ends where the streamed edits end; in `native`: the whole file, with the
/// blocks placed so far replaced and the current block's replacement flowing in).
///
/// On success `*preview` points to `*preview_len` bytes of UTF-8 followed by a NUL, owned by the
/// applier and valid until the next `hl_applier_push`, `hl_applier_finish` or `hl_applier_free`
/// on it. In the Cline dialects each push extends the applier's copy at its end, so reading it
/// costs no copy. In `native` a push usually changes the middle of the file, so the first read
/// after such a push copies the whole preview (pushes themselves never do): read it when you
/// show it, not after every push, or apply each `hl_update` to your own copy instead.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL; `HL_STATUS_ALREADY_FINISHED` after
/// `hl_applier_finish` (use the result's content); `HL_STATUS_CONCURRENT_USE` if another call on
/// the applier is in progress; `HL_STATUS_PANIC` if the applier is poisoned.
///
/// # Safety
/// `applier` must be a live applier not used by another thread meanwhile; `preview` and
/// `preview_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_applier_preview(
    applier: *mut hl_applier,
    preview: *mut *const c_char,
    preview_len: *mut usize,
) -> hl_status {
    guard(|| {
        let (out, out_len) = (Out::new(preview)?, Out::new(preview_len)?);
        // SAFETY: the caller passes a live applier used by this thread only (this function's
        // contract).
        let (ptr, len) = unsafe {
            with_applier(applier, |a| {
                let text = a.preview.read(&a.engine);
                Ok((text.as_ptr(), text.len()))
            })
        }?;
        // SAFETY: both out-pointers are non-NULL and writable (this function's contract).
        unsafe {
            out.write(ptr);
            out_len.write(len);
        }
        Ok(())
    })
}

/// What Cline's partial call `constructNewFileContent(<diff so far>, original, false)` returns:
/// on success `*result` receives a new result (content = the preview, Cline's partial
/// `matchIndices`, the blocks completed so far) owned by the caller, who frees it with
/// `hl_result_free`. The applier keeps streaming. In `native`: the preview, the starts of the
/// blocks placed so far (file order) and the blocks completed so far.
///
/// @return `HL_STATUS_EDIT_REJECTED` (with `*error`: a new `hl_error` the caller frees with
/// `hl_error_free`) if the diff so far is rejected (in `native`: the first failed block's error,
/// whatever the policy); an error caused only by the unfinished last line may be withdrawn by
/// later pushes. `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL;
/// `HL_STATUS_ALREADY_FINISHED` or `HL_STATUS_CONCURRENT_USE` (with `*error`) after
/// `hl_applier_finish` or during another call on the applier; `HL_STATUS_PANIC` if the applier is
/// poisoned. `*result` is set only on success, `*error` only with the statuses
/// that say so.
///
/// # Safety
/// `applier` must be a live applier not used by another thread meanwhile; `result` and `error`
/// must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_applier_snapshot(
    applier: *mut hl_applier,
    result: *mut *mut hl_result,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result)?;
        // SAFETY: the caller passes a live applier used by this thread only (this function's
        // contract).
        let snapshot = unsafe {
            with_applier(applier, |a| {
                let inner = &a.engine;
                if let Some(e) = inner.error() {
                    return Err(e.clone().into());
                }
                let content = CText::from_str(inner.preview());
                let blocks = inner.completed_blocks();
                Ok(hl_result::boxed(content, inner.match_indices(), &blocks))
            })
        }?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(snapshot)) };
        Ok(())
    })
}

/// Ends the diff: on success `*result` receives a new result (the final content, Cline's
/// `matchIndices`, one report per block) owned by the caller, who frees it with
/// `hl_result_free`. In `native` it equals what `hl_apply_diff` gives for the whole diff with
/// the same policy, in any chunking (with `HL_POLICY_PARTIAL`, failed blocks are reported in the
/// result instead of refusing it).
///
/// Afterwards the applier is finished, whether the diff was accepted or not: pushes, previews,
/// snapshots and finishes return `HL_STATUS_ALREADY_FINISHED`. The handle stays valid; free it
/// with `hl_applier_free` as always.
///
/// @return `HL_STATUS_EDIT_REJECTED` (with `*error`: a new `hl_error` the caller frees with
/// `hl_error_free`; in the Cline dialects its message is Cline's exact text) if the engine
/// rejects the diff (in `native`, codes such as `ambiguous_match`, `search_not_found`,
/// `overlapping_blocks`); `HL_STATUS_ALREADY_FINISHED` (with `*error`) if already finished;
/// `HL_STATUS_CONCURRENT_USE` (with `*error`) if another call on the applier is in progress;
/// `HL_STATUS_INVALID_UTF8` if the pushed bytes end inside a UTF-8 character (nothing changes:
/// push the rest and finish again); `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL;
/// `HL_STATUS_PANIC` if the applier is poisoned. `*result` is set only on success, `*error` only
/// with the statuses that say so.
///
/// # Safety
/// `applier` must be a live applier not used by another thread meanwhile; `result` and `error`
/// must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_applier_finish(
    applier: *mut hl_applier,
    result: *mut *mut hl_result,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result)?;
        // SAFETY: the caller passes a live applier used by this thread only (this function's
        // contract).
        let finished = unsafe { finish(applier) }?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(finished)) };
        Ok(())
    })
}

/// Ends the stream: refused while a UTF-8 character is incomplete (the handle keeps
/// streaming then), else the handle finishes, whatever the outcome.
///
/// # Safety
/// As for [`with_applier`].
unsafe fn finish(applier: *const hl_applier) -> Result<Box<hl_result>, Failure> {
    // SAFETY: forwarded from this function's contract.
    let a = unsafe { handle(applier) }?;
    a.handle.with(|a| {
        if a.pending.is_empty() {
            Ok(())
        } else {
            Err(Failure::from(hl_status::InvalidUtf8))
        }
    })??;
    // The streaming buffers go with the state: they are no longer reachable from C.
    let outcome = a.handle.finish(|a| a.engine.finish())??;
    let content = CText::from_string(outcome.new_content);
    Ok(hl_result::boxed(
        content,
        outcome.match_indices,
        &outcome.blocks,
    ))
}

/// Frees an applier, finished or not. NULL is allowed and does nothing. Pointers obtained from
/// it (previews, inserted texts) become invalid; results and errors it produced stay valid.
///
/// # Safety
/// `applier` must be NULL or an applier from `hl_applier_new` not yet freed, and not in use by
/// another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_applier_free(applier: *mut hl_applier) {
    guard_void(|| {
        if !applier.is_null() {
            // SAFETY: a non-NULL `applier` was made by `Box::into_raw` in `hl_applier_new` and is
            // freed once (the caller's contract).
            drop(unsafe { Box::from_raw(applier) });
        }
    })
}

#[cfg(test)]
mod tests {
    use engine::{ApplierOptions, Dialect};

    use super::*;

    const ORIGINAL: &str = "head\nkeep 1\nold\nkeep 2\ntail\n";
    const DIFF: &str = "------- SEARCH\nold\n=======\nnew 1\nnew 2\n+++++++ REPLACE\n";

    /// Streams `DIFF` per character into an engine and a `CPreview` following it, reading the
    /// copy after the pushes `read_after` picks: every read equals the engine's preview.
    fn follow(dialect: Dialect, read_after: impl Fn(usize) -> bool) -> Vec<bool> {
        let options = ApplierOptions::new().dialect(dialect);
        let mut engine = StreamingApplier::new(ORIGINAL, options);
        let mut copy = CPreview::new();
        let mut stale_after_push = Vec::new();
        for (i, c) in DIFF.char_indices() {
            let update = engine.push(&DIFF[i..i + c.len_utf8()]);
            copy.follow(update.start.bytes, update.removed.bytes, &update.inserted);
            stale_after_push.push(copy.stale);
            if read_after(i) {
                let text = copy.read(&engine);
                // SAFETY: a CText's pointer holds `len` bytes and a NUL.
                let read = unsafe {
                    std::slice::from_raw_parts(text.as_ptr().cast::<u8>(), text.len() + 1)
                };
                let want = [engine.preview().as_bytes(), b"\0"].concat();
                assert_eq!(read, want, "{dialect:?} after byte {i}");
                assert!(!copy.stale);
            }
        }
        stale_after_push
    }

    #[test]
    fn the_copy_equals_the_engines_preview_however_often_it_is_read() {
        for dialect in [Dialect::ClineV1, Dialect::ClineV2, Dialect::Native] {
            for every in [1, 2, 7, usize::MAX] {
                follow(dialect, |i| every != usize::MAX && i % every == 0);
            }
        }
    }

    #[test]
    fn only_a_splice_inside_the_preview_makes_the_copy_stale() {
        // Cline previews grow at their end: once read, the copy is kept by tail splices.
        for dialect in [Dialect::ClineV1, Dialect::ClineV2] {
            let stale = follow(dialect, |i| i == 0);
            assert!(stale[1..].iter().all(|s| !s), "{dialect:?}: {stale:?}");
        }
        // A native block in mid-file: its pushes leave the copy stale instead of moving the
        // rest of the file, until a read rebuilds it.
        let stale = follow(Dialect::Native, |i| i == 0);
        assert!(stale.iter().any(|s| *s), "native: {stale:?}");
    }
}

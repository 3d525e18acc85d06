//! [`hl_edit_stream`]: a text-editor or toolset call applied while its argument JSON streams
//! in, for C.
//!
//! The core stream lives in a [`Handle`] (a call that overlaps another is
//! `HL_STATUS_CONCURRENT_USE`, a call after finish `HL_STATUS_ALREADY_FINISHED`, a panic retires
//! it); the stream keeps the editor or toolset that made it alive, so freeing that first is
//! safe. Next
//! to it: the unfinished UTF-8 character of the last push, and NUL-terminated copies of what C
//! reads (the inserted text, the preview, the command and the path).

use std::ffi::c_char;
use std::sync::Arc;

use hunkloom_handle::{Handle, Shared};
use hunkloom_tools::{EditStream, ToolHost};

use crate::applier::hl_update;
use crate::args::{Out, bytes_arg, handle, str_arg};
use crate::failure::{Failure, hl_error};
use crate::ffi_guard::{guard, guard_void, guard_with_error};
use crate::owned_text::hl_text;
use crate::status::hl_status;
use crate::text::CText;
use crate::text_editor::{hl_text_editor, to_json_text};
use crate::toolset::hl_toolset;
use crate::utf8::Pending;

/// One tool call applied while its argument JSON streams in: a text editor's call, or a
/// toolset tool's (the text-editor tools and the native `apply_diff` and `apply_lazy` have a
/// preview, the others run at finish).
///
/// Create it with `hl_text_editor_stream_new` or `hl_toolset_stream_new`, push each piece of
/// the call's argument JSON with `hl_text_editor_stream_push` exactly as the model API delivers
/// it (split anywhere, even inside a UTF-8 character or an escape), read
/// `hl_text_editor_stream_text` whenever you like, run the call with `hl_text_editor_stream_finish`, and always release it with
/// `hl_text_editor_stream_free`.
///
/// Threads: a stream may be moved to another thread, but must never be used by two threads at
/// the same time; a call that overlaps another call on it is refused with
/// `HL_STATUS_CONCURRENT_USE` (except `hl_text_editor_stream_free`, which must never overlap
/// anything). Streams of one editor or toolset are independent of each other.
#[derive(Debug)]
pub struct hl_edit_stream {
    /// The editor or toolset that made the stream, which answers its call.
    host: Arc<Shared<dyn ToolHost>>,
    handle: Handle<Inner>,
}

/// The state behind a `hl_edit_stream`.
#[derive(Debug)]
struct Inner {
    stream: EditStream,
    pending: Pending,
    inserted: CText,
    preview: CText,
    command: CText,
    path: CText,
}

/// Creates a stream for one tool call answered by `editor`. On success `*stream` receives a new
/// stream owned by the caller, who frees it with `hl_text_editor_stream_free`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if `editor` or `stream` is NULL; `HL_STATUS_PANIC` if the
/// editor is poisoned. `*stream` is set only on success.
///
/// # Safety
/// `editor` must be a live editor (not freed, and not being freed meanwhile); `stream` must be
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_editor_stream_new(
    editor: *const hl_text_editor,
    stream: *mut *mut hl_edit_stream,
) -> hl_status {
    guard(|| {
        let out = Out::new(stream)?;
        // SAFETY: the caller passes a live editor (this function's contract).
        let editor = unsafe { handle(editor) }?;
        let made = editor.handle.with(|editor| editor.stream())?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(boxed(editor.handle.clone(), made)) };
        Ok(())
    })
}

/// Creates a stream for one call of the toolset's tool `name` (`name_len` bytes of UTF-8),
/// pushed, read, finished and freed with the `hl_text_editor_stream_` functions: a text-editor
/// tool (the `anthropic` and `openhands` editors, the `native` set's
/// `str_replace_based_edit_tool`) has a preview, as have the `native` set's `apply_diff` (its
/// `diff` applied by the native streaming applier as it arrives, once `path` is complete) and
/// `apply_lazy` (once complete) and `apply_patch` (its `*** Begin Patch` envelope file by
/// file, `HL_STREAM_PATH` naming the file shown), the `codex` set's `apply_patch` (the same
/// way), and the `openai` set's `apply_patch` of one
/// operation (its V4A `diff`, each section once placed); the other tools are read as the
/// pieces arrive and run by
/// `hl_text_editor_stream_finish`, which gives what `hl_toolset_call` gives for the
/// whole argument text (an unknown name too: code `unknown_tool`).
///
/// @return `HL_STATUS_NULL_ARGUMENT` if `toolset` or `stream` is NULL, or `name` is NULL with a
/// non-zero length; `HL_STATUS_INVALID_UTF8`; `HL_STATUS_PANIC` if the toolset is poisoned.
/// `*stream` is set only on success.
///
/// # Safety
/// `toolset` must be a live toolset (not freed, and not being freed meanwhile); `name` must
/// point to `name_len` readable bytes (or be NULL with length 0); `stream` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_toolset_stream_new(
    toolset: *const hl_toolset,
    name: *const c_char,
    name_len: usize,
    stream: *mut *mut hl_edit_stream,
) -> hl_status {
    guard(|| {
        let out = Out::new(stream)?;
        // SAFETY: readable bytes of this length (this function's contract).
        let name = unsafe { str_arg(name, name_len) }?;
        // SAFETY: the caller passes a live toolset (this function's contract).
        let toolset = unsafe { handle(toolset) }?;
        let made = toolset.handle.with(|toolset| toolset.stream(name))?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(boxed(toolset.handle.clone(), made)) };
        Ok(())
    })
}

/// A new C stream of `stream`, answered by `host`.
fn boxed(host: Arc<Shared<dyn ToolHost>>, stream: EditStream) -> *mut hl_edit_stream {
    let inner = Inner {
        stream,
        pending: Pending::default(),
        inserted: CText::new(),
        preview: CText::new(),
        command: CText::new(),
        path: CText::new(),
    };
    Box::into_raw(Box::new(hl_edit_stream {
        host,
        handle: Handle::new("edit stream", inner),
    }))
}

/// Runs `body` on the stream's state and its host.
///
/// # Safety
/// `stream` must be NULL or a live `hl_edit_stream`.
unsafe fn with_stream<R>(
    stream: *const hl_edit_stream,
    body: impl FnOnce(&mut Inner, &dyn ToolHost) -> Result<R, Failure>,
) -> Result<R, Failure> {
    // SAFETY: forwarded from this function's contract.
    let s = unsafe { handle(stream) }?;
    s.handle
        .with(|inner| s.host.with(|host| body(inner, host)))??
}

/// Takes the next `piece_len` bytes of the call's argument JSON and fills `*update` with how the
/// preview changed (byte offsets; `blocks_completed` is 0). A piece may end inside a UTF-8
/// character: its bytes are kept and completed by the next push.
///
/// Each push costs the length of its piece, except the one that places the edit (a read of the
/// file) and the one that completes the arguments (the call planned as `hl_text_editor_call`
/// runs it). JSON that is malformed is not a push failure: `hl_text_editor_stream_finish`
/// answers it with an error result.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if `stream` or `update` is NULL, or `piece` is NULL with a
/// non-zero length; `HL_STATUS_INVALID_UTF8` if the piece holds bytes that are not UTF-8 (it is
/// dropped whole); `HL_STATUS_ALREADY_FINISHED` after `hl_text_editor_stream_finish`;
/// `HL_STATUS_CONCURRENT_USE` if another call on the stream is in progress; `HL_STATUS_PANIC`
/// if the stream or its editor is poisoned. `*update` is untouched then.
///
/// # Safety
/// `stream` must be a live stream; `piece` must point to `piece_len` readable bytes (or be NULL
/// with length 0); `update` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_editor_stream_push(
    stream: *mut hl_edit_stream,
    piece: *const c_char,
    piece_len: usize,
    update: *mut hl_update,
) -> hl_status {
    guard(|| {
        let out = Out::new(update)?;
        // SAFETY: the caller passes `piece_len` readable bytes (this function's contract).
        let piece = unsafe { bytes_arg(piece, piece_len) }?;
        // SAFETY: the caller passes a live stream (this function's contract).
        let filled = unsafe {
            with_stream(stream, |inner, host| {
                let joined = inner
                    .pending
                    .join(piece)
                    .map_err(|_| hl_status::InvalidUtf8)?;
                let update = inner.stream.push(host, &joined.text);
                inner.inserted.set(&update.inserted);
                let filled = hl_update {
                    start: update.start.bytes,
                    removed: update.removed.bytes,
                    inserted: inner.inserted.as_ptr(),
                    inserted_len: inner.inserted.len(),
                    blocks_completed: 0,
                };
                inner.pending = joined.pending;
                Ok(filled)
            })
        }?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(filled) };
        Ok(())
    })
}

/// Which text a `hl_text_editor_stream_text` call reads.
#[allow(non_camel_case_types)]
pub type hl_stream_text = u32;

/// The preview: the target file's text with the edit applied as far as it has streamed, and
/// exactly the text the call will leave once the arguments are complete. None before the edit
/// is placed, for `view` and `undo_edit`, and for a call that will fail.
pub const HL_STREAM_PREVIEW: hl_stream_text = 0;
/// The command (an `apply_patch` operation's `type`), once its value is complete.
pub const HL_STREAM_COMMAND: hl_stream_text = 1;
/// The path (an `apply_patch` operation's `path`; for a `*** Begin Patch` envelope, the file
/// the preview shows now), once its value is complete.
pub const HL_STREAM_PATH: hl_stream_text = 2;

/// Reads one of the stream's texts (`which`: a `HL_STREAM_` value). On success `*text` points
/// to `*text_len` bytes of UTF-8 followed by a NUL, owned by the stream and valid until the
/// next call on it, or is NULL (length 0) when there is no such text yet.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL; `HL_STATUS_OUT_OF_RANGE` if `which`
/// is not a `HL_STREAM_` value; `HL_STATUS_ALREADY_FINISHED`, `HL_STATUS_CONCURRENT_USE`,
/// `HL_STATUS_PANIC` as for a push.
///
/// # Safety
/// `stream` must be a live stream; `text` and `text_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_editor_stream_text(
    stream: *mut hl_edit_stream,
    which: hl_stream_text,
    text: *mut *const c_char,
    text_len: *mut usize,
) -> hl_status {
    guard(|| {
        let (out, out_len) = (Out::new(text)?, Out::new(text_len)?);
        // SAFETY: the caller passes a live stream (this function's contract).
        let (ptr, len) = unsafe {
            with_stream(stream, |inner, _| {
                let (value, copy) = match which {
                    HL_STREAM_PREVIEW => (inner.stream.preview(), &mut inner.preview),
                    HL_STREAM_COMMAND => (inner.stream.command(), &mut inner.command),
                    HL_STREAM_PATH => (inner.stream.path(), &mut inner.path),
                    _ => return Err(hl_status::OutOfRange.into()),
                };
                Ok(match value {
                    Some(value) => {
                        copy.set(value);
                        (copy.as_ptr(), copy.len())
                    }
                    None => (std::ptr::null(), 0),
                })
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

/// Runs the call: on success `*result_json` receives a new `hl_text` (freed with
/// `hl_text_free`) holding exactly what `hl_text_editor_call` (or `hl_toolset_call`) gives
/// for the whole argument text. Text that is not a complete JSON object (malformed, cut off, or ending inside a UTF-8
/// character) is an error result with code `invalid_arguments`, not a failure. The stream is
/// finished afterwards either way.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if a pointer is NULL; with `*error` (a new `hl_error`
/// freed with `hl_error_free`): `HL_STATUS_ALREADY_FINISHED` if it was finished before,
/// `HL_STATUS_CONCURRENT_USE`, `HL_STATUS_PANIC`. `*result_json` is set only on success.
///
/// # Safety
/// `stream` must be a live stream; `result_json` and `error` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_editor_stream_finish(
    stream: *mut hl_edit_stream,
    result_json: *mut *mut hl_text,
    error: *mut *mut hl_error,
) -> hl_status {
    guard_with_error(error, || {
        let out = Out::new(result_json)?;
        // SAFETY: the caller passes a live stream (this function's contract).
        let s = unsafe { handle(stream) }?;
        let result = s.handle.finish(|mut inner| {
            s.host.with(|host| {
                if !inner.pending.is_empty() {
                    // The unfinished character, read as a lossy decoder reads it.
                    inner.stream.push(host, "\u{FFFD}");
                }
                inner.stream.finish(host)
            })
        })??;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(Box::into_raw(hl_text::boxed(to_json_text(&result)))) };
        Ok(())
    })
}

/// Frees a stream (finished or not; an unfinished call is dropped without writing anything).
/// NULL is allowed and does nothing.
///
/// # Safety
/// `stream` must be NULL or a stream from `hl_text_editor_stream_new` not yet freed, and not in
/// use by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_text_editor_stream_free(stream: *mut hl_edit_stream) {
    guard_void(|| {
        if !stream.is_null() {
            // SAFETY: a non-NULL `stream` was made by `Box::into_raw` in
            // `hl_text_editor_stream_new` and is freed once (the caller's contract).
            drop(unsafe { Box::from_raw(stream) });
        }
    })
}

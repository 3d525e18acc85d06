//! Safe wrappers over the exported functions, as a careful C host would write them: every status
//! checked, every returned text checked for its NUL terminator, every handle freed.

use std::ffi::c_char;
use std::ptr;

use hunkloom_c::*;

/// What a call produced: content and match positions, or an error (the core runner's type).
pub(super) use hunkloom_testkit::ClineOutcome as Observed;

/// An owned error read back through the C accessors.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct CError {
    pub(super) status: hl_status,
    pub(super) code: String,
    pub(super) message: String,
}

pub(super) fn cptr(s: &[u8]) -> *const c_char {
    s.as_ptr().cast()
}

/// Reads `(ptr, len)` text handed out by the library, checking the NUL after it.
///
/// # Safety
/// `ptr` must point to `len + 1` readable bytes.
pub(super) unsafe fn read_text(ptr: *const c_char, len: usize) -> Result<String, String> {
    if ptr.is_null() {
        return Err("NULL text".into());
    }
    // SAFETY: the caller's contract.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len + 1) };
    if bytes[len] != 0 {
        return Err("text not NUL-terminated".into());
    }
    String::from_utf8(bytes[..len].to_vec()).map_err(|_| "text out is not UTF-8".to_string())
}

/// Reads a live `hl_error` (without freeing it).
pub(super) fn read_error(status: hl_status, error: *const hl_error) -> Result<CError, String> {
    let (mut code, mut code_len) = (ptr::null(), 0);
    let (mut msg, mut msg_len) = (ptr::null(), 0);
    // SAFETY: `error` is a live hl_error; the out-pointers are locals.
    unsafe {
        check(hl_error_code(error, &mut code, &mut code_len))?;
        check(hl_error_message(error, &mut msg, &mut msg_len))?;
        Ok(CError {
            status,
            code: read_text(code, code_len)?,
            message: read_text(msg, msg_len)?,
        })
    }
}

fn check(status: hl_status) -> Result<(), String> {
    match status {
        hl_status::Ok => Ok(()),
        other => Err(format!("accessor failed: {other:?}")),
    }
}

/// A successful outcome read back through the C accessors: content, match positions, blocks.
pub(super) type Taken = (String, Vec<hl_position>, Vec<BlockView>);

/// Consumes the outcome of a call that hands out `result` or `error`: reads and frees whichever
/// the status says was written, and checks the other was not.
pub(super) fn take_outcome(
    status: hl_status,
    result: *mut hl_result,
    error: *mut hl_error,
    original: &str,
) -> Result<Result<(String, Vec<hl_position>), CError>, String> {
    Ok(take_full(status, result, error, original)?.map(|(content, matches, _)| (content, matches)))
}

/// [`take_outcome`], with the block reports.
pub(super) fn take_full(
    status: hl_status,
    result: *mut hl_result,
    error: *mut hl_error,
    original: &str,
) -> Result<Result<Taken, CError>, String> {
    let out = match status {
        hl_status::Ok => {
            if !error.is_null() {
                return Err("error written on success".into());
            }
            let read = read_result(result, original)
                .and_then(|(content, matches)| Ok((content, matches, read_blocks(result)?)));
            // SAFETY: `result` came from the library and is freed once.
            unsafe { hl_result_free(result) };
            Ok(read?)
        }
        hl_status::EditRejected
        | hl_status::InvalidOption
        | hl_status::AlreadyFinished
        | hl_status::ConcurrentUse
        | hl_status::EngineError => {
            if !result.is_null() {
                return Err("result written on failure".into());
            }
            if error.is_null() {
                return Err(format!("{status:?} without an error"));
            }
            let read = read_error(status, error);
            // SAFETY: `error` came from the library and is freed once.
            unsafe { hl_error_free(error) };
            Err(read?)
        }
        other => return Err(format!("unexpected status {other:?}")),
    };
    Ok(out)
}

/// Reads a result's content and match positions in every unit, checking each unit against an
/// independent count over `original`.
fn read_result(
    result: *const hl_result,
    original: &str,
) -> Result<(String, Vec<hl_position>), String> {
    let (mut content, mut content_len, mut count) = (ptr::null(), 0, 0);
    // SAFETY: `result` is a live hl_result; the out-pointers are locals.
    unsafe {
        check(hl_result_content(result, &mut content, &mut content_len))?;
        check(hl_result_match_count(result, &mut count))?;
    }
    // SAFETY: the library hands out `content_len` bytes plus a NUL.
    let content = unsafe { read_text(content, content_len) }?;
    let mut positions = Vec::with_capacity(count);
    for i in 0..count {
        let mut p = [0usize; 4];
        for (unit, slot) in [
            HL_UNIT_BYTES,
            HL_UNIT_UTF16,
            HL_UNIT_CODE_POINTS,
            HL_UNIT_LINES,
        ]
        .into_iter()
        .zip(p.iter_mut())
        {
            // SAFETY: `result` is a live hl_result; `slot` is a local.
            check(unsafe { hl_result_match_index(result, i, unit, slot) })?;
        }
        let position = hl_position {
            bytes: p[0],
            utf16: p[1],
            code_points: p[2],
            line: p[3],
        };
        let before = original
            .get(..position.bytes)
            .ok_or("match not on a char boundary")?;
        let want = hl_position {
            bytes: position.bytes,
            utf16: before.encode_utf16().count(),
            code_points: before.chars().count(),
            line: before.matches('\n').count() + 1,
        };
        if position != want {
            return Err(format!("match {i} is {position:?}, counted {want:?}"));
        }
        positions.push(position);
    }
    let mut unused = 7;
    // SAFETY: `result` is a live hl_result; `unused` is a local.
    let past_end = unsafe { hl_result_match_index(result, count, HL_UNIT_BYTES, &mut unused) };
    if past_end != hl_status::OutOfRange || unused != 7 {
        return Err(format!("index past the end gave {past_end:?}"));
    }
    Ok((content, positions))
}

/// A block report read back through `hl_result_block` and `hl_result_block_normalization`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct BlockView {
    pub(super) index: usize,
    pub(super) status: hl_block_status,
    pub(super) strategy: String,
    pub(super) start: hl_position,
    pub(super) end: hl_position,
    pub(super) end_line: usize,
    pub(super) candidates: usize,
    pub(super) indent_delta: isize,
    pub(super) reindented: bool,
    pub(super) normalizations: Vec<String>,
    /// A failed block's code and message.
    pub(super) error: Option<(String, String)>,
}

/// Reads every block report of a live result, checking the failed count, that an error comes
/// exactly with `HL_BLOCK_FAILED`, and that indices past the end are refused.
pub(super) fn read_blocks(result: *const hl_result) -> Result<Vec<BlockView>, String> {
    let (mut count, mut failed) = (0, 0);
    // SAFETY: `result` is a live hl_result; the out-pointers are locals.
    unsafe {
        check(hl_result_block_count(result, &mut count))?;
        check(hl_result_failed_count(result, &mut failed))?;
    }
    let mut blocks = Vec::with_capacity(count);
    for i in 0..count {
        let mut b = std::mem::MaybeUninit::<hl_block>::uninit();
        // SAFETY: `result` is live; `b` is a local, initialised by a successful call.
        let b = unsafe {
            check(hl_result_block(result, i, b.as_mut_ptr()))?;
            b.assume_init()
        };
        let mut normalizations = Vec::with_capacity(b.normalization_count);
        for n in 0..b.normalization_count {
            let (mut name, mut name_len) = (ptr::null(), 0);
            // SAFETY: `result` is live; the out-pointers are locals; the library hands out
            // `name_len` bytes plus a NUL.
            normalizations.push(unsafe {
                check(hl_result_block_normalization(
                    result,
                    i,
                    n,
                    &mut name,
                    &mut name_len,
                ))?;
                read_text(name, name_len)?
            });
        }
        let (mut name, mut name_len) = (ptr::null(), 7);
        // SAFETY: as above; this index is one past the end.
        let past = unsafe {
            hl_result_block_normalization(
                result,
                i,
                b.normalization_count,
                &mut name,
                &mut name_len,
            )
        };
        if past != hl_status::OutOfRange || !name.is_null() || name_len != 7 {
            return Err(format!("normalization past the end gave {past:?}"));
        }
        let error = if b.error_code.is_null() {
            if !b.error_message.is_null() || b.error_code_len != 0 || b.error_message_len != 0 {
                return Err(format!("block {i}: a message without a code"));
            }
            None
        } else {
            // SAFETY: the library hands out the lengths plus a NUL.
            unsafe {
                Some((
                    read_text(b.error_code, b.error_code_len)?,
                    read_text(b.error_message, b.error_message_len)?,
                ))
            }
        };
        if error.is_some() != (b.status == HL_BLOCK_FAILED) {
            return Err(format!(
                "block {i}: status {} with error {error:?}",
                b.status
            ));
        }
        blocks.push(BlockView {
            index: b.index,
            status: b.status,
            // SAFETY: the library hands out `strategy_len` bytes plus a NUL.
            strategy: unsafe { read_text(b.strategy, b.strategy_len) }?,
            start: b.start,
            end: b.end,
            end_line: b.end_line,
            candidates: b.candidates,
            indent_delta: b.indent_delta,
            reindented: b.reindented,
            normalizations,
            error,
        });
    }
    let counted = blocks
        .iter()
        .filter(|b| b.status == HL_BLOCK_FAILED)
        .count();
    if counted != failed {
        return Err(format!(
            "hl_result_failed_count {failed}, counted {counted}"
        ));
    }
    Ok(blocks)
}

/// The vectors' view of an outcome: content plus UTF-16 match indices, or Cline's message.
pub(super) fn observed(
    outcome: Result<(String, Vec<hl_position>), CError>,
) -> Result<Observed, String> {
    Ok(match outcome {
        Ok((new_content, positions)) => Observed::Content {
            new_content,
            match_indices: positions.iter().map(|p| p.utf16).collect(),
        },
        Err(e) => {
            let kind = engine::ErrorKind::ALL
                .iter()
                .find(|k| k.code() == e.code)
                .ok_or_else(|| format!("code {:?} is not an engine code", e.code))?;
            if hunkloom_c::testing::status_of(*kind) != e.status {
                return Err(format!("code {} came with {:?}", e.code, e.status));
            }
            Observed::Error(e.message)
        }
    })
}

/// `hl_construct_new_file_content` on Rust strings.
pub(super) fn construct(
    diff: &[u8],
    original: &[u8],
    is_final: bool,
    version: hl_cline_version,
) -> (hl_status, *mut hl_result, *mut hl_error) {
    let (mut result, mut error) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: the texts are live slices; the out-pointers are locals.
    let status = unsafe {
        hl_construct_new_file_content(
            cptr(diff),
            diff.len(),
            cptr(original),
            original.len(),
            is_final,
            version,
            &mut result,
            &mut error,
        )
    };
    (status, result, error)
}

/// `hl_apply_diff` on Rust strings (`options` `None` passes NULL).
pub(super) fn apply(
    diff: &[u8],
    original: &[u8],
    options: Option<&hl_apply_options>,
) -> (hl_status, *mut hl_result, *mut hl_error) {
    let (mut result, mut error) = (ptr::null_mut(), ptr::null_mut());
    let options = options.map_or(ptr::null(), |o| o as *const hl_apply_options);
    // SAFETY: the texts are live slices; options is NULL or a local; the out-pointers are locals.
    let status = unsafe {
        hl_apply_diff(
            cptr(diff),
            diff.len(),
            cptr(original),
            original.len(),
            options,
            &mut result,
            &mut error,
        )
    };
    (status, result, error)
}

/// An applier handle freed on drop.
pub(super) struct Applier(pub(super) *mut hl_applier);

impl Applier {
    pub(super) fn new(original: &[u8], dialect: hl_dialect) -> Result<Applier, hl_status> {
        Applier::with_options(
            original,
            hl_applier_options {
                dialect,
                ..Default::default()
            },
        )
    }

    pub(super) fn with_options(
        original: &[u8],
        options: hl_applier_options,
    ) -> Result<Applier, hl_status> {
        let mut handle = ptr::null_mut();
        // SAFETY: `original` is a live slice; options and out-pointer are locals.
        let status =
            unsafe { hl_applier_new(cptr(original), original.len(), &options, &mut handle) };
        match status {
            hl_status::Ok if !handle.is_null() => Ok(Applier(handle)),
            hl_status::Ok => Err(hl_status::NullArgument),
            other => Err(other),
        }
    }

    /// Pushes `chunk`, returning the splice with an owned copy of the inserted text.
    pub(super) fn push(&mut self, chunk: &[u8]) -> Result<(usize, usize, String, usize), String> {
        let mut update = hl_update {
            start: 0,
            removed: 0,
            inserted: ptr::null(),
            inserted_len: 0,
            blocks_completed: 0,
        };
        // SAFETY: live handle, live slice, local out-struct.
        let status = unsafe { hl_applier_push(self.0, cptr(chunk), chunk.len(), &mut update) };
        if status != hl_status::Ok {
            return Err(format!("push: {status:?}"));
        }
        // SAFETY: the library hands out `inserted_len` bytes plus a NUL.
        let inserted = unsafe { read_text(update.inserted, update.inserted_len) }?;
        Ok((
            update.start,
            update.removed,
            inserted,
            update.blocks_completed,
        ))
    }

    /// Pushes every piece while keeping the host's copy of the preview through the splices
    /// alone (starting from `mirror`), then checks that copy equals the applier's preview.
    pub(super) fn push_mirrored(
        &mut self,
        pieces: &[&[u8]],
        mut mirror: String,
    ) -> Result<(), String> {
        for piece in pieces {
            let (start, removed, inserted, _) = self.push(piece)?;
            if start + removed > mirror.len() || !mirror.is_char_boundary(start) {
                return Err(format!("splice {start}+{removed} outside {}", mirror.len()));
            }
            mirror.replace_range(start..start + removed, &inserted);
        }
        if self.preview().map_err(|s| format!("preview: {s:?}"))? != mirror {
            return Err("the splices do not rebuild the preview".into());
        }
        Ok(())
    }

    pub(super) fn preview(&mut self) -> Result<String, hl_status> {
        let (mut p, mut len) = (ptr::null(), 0);
        // SAFETY: live handle, local out-pointers.
        match unsafe { hl_applier_preview(self.0, &mut p, &mut len) } {
            // SAFETY: the library hands out `len` bytes plus a NUL.
            hl_status::Ok => Ok(unsafe { read_text(p, len) }.map_err(|_| hl_status::Panic)?),
            other => Err(other),
        }
    }

    /// `hl_applier_snapshot` (`finish == false`) or `hl_applier_finish`, raw.
    pub(super) fn end(&mut self, finish: bool) -> (hl_status, *mut hl_result, *mut hl_error) {
        let (mut result, mut error) = (ptr::null_mut(), ptr::null_mut());
        // SAFETY: live handle, local out-pointers.
        let status = unsafe {
            if finish {
                hl_applier_finish(self.0, &mut result, &mut error)
            } else {
                hl_applier_snapshot(self.0, &mut result, &mut error)
            }
        };
        (status, result, error)
    }
}

impl Drop for Applier {
    fn drop(&mut self) {
        // SAFETY: the handle came from hl_applier_new and is freed once.
        unsafe { hl_applier_free(self.0) }
    }
}

/// `hl_resume_cache_stats`, which cannot fail with a live out-pointer.
pub(super) fn cache_stats() -> hl_cache_stats {
    let mut stats = hl_cache_stats::default();
    // SAFETY: `stats` is a local.
    assert_eq!(unsafe { hl_resume_cache_stats(&mut stats) }, hl_status::Ok);
    stats
}

/// Sets the resume cache's capacity for as long as the value lives, then restores the one
/// before. Hold [`resume_cache_lock`](super::resume_cache_lock) meanwhile.
pub(super) struct CacheCapacity(usize);

impl CacheCapacity {
    pub(super) fn set(capacity: usize) -> Self {
        let before = cache_stats().capacity;
        assert_eq!(hl_resume_cache_set_capacity(capacity), hl_status::Ok);
        CacheCapacity(before)
    }
}

impl Drop for CacheCapacity {
    fn drop(&mut self) {
        hl_resume_cache_set_capacity(self.0);
    }
}

/// Reads and frees a `hl_text` handed over by a successful call.
pub(super) fn take_text(text: *mut hl_text) -> String {
    let (mut p, mut len) = (ptr::null(), 0);
    // SAFETY: a live hl_text and locals.
    assert_eq!(
        unsafe { hl_text_content(text, &mut p, &mut len) },
        hl_status::Ok
    );
    // SAFETY: the library hands out `len` bytes plus a NUL.
    let s = unsafe { read_text(p, len) }.expect("text");
    // SAFETY: handed over by the library; freed once.
    unsafe { hl_text_free(text) };
    s
}

/// Pushes `pieces` into an edit stream (each must be accepted), applying every update to a copy
/// of the preview; returns that copy.
pub(super) fn push_pieces<'a>(
    stream: *mut hl_edit_stream,
    pieces: impl IntoIterator<Item = &'a [u8]>,
) -> Vec<u8> {
    let mut rebuilt: Vec<u8> = Vec::new();
    for piece in pieces {
        let mut update = hl_update {
            start: 0,
            removed: 0,
            inserted: ptr::null(),
            inserted_len: 0,
            blocks_completed: 0,
        };
        // SAFETY: a live stream, a live slice and a local.
        let status =
            unsafe { hl_text_editor_stream_push(stream, cptr(piece), piece.len(), &mut update) };
        assert_eq!(status, hl_status::Ok);
        // SAFETY: the inserted text is valid until the next call on the stream.
        let inserted = unsafe {
            std::slice::from_raw_parts(update.inserted.cast::<u8>(), update.inserted_len)
        };
        rebuilt.splice(
            update.start..update.start + update.removed,
            inserted.iter().copied(),
        );
    }
    rebuilt
}

/// One of the stream's texts (`HL_STREAM_`), `None` when it has none.
pub(super) fn stream_text(stream: *mut hl_edit_stream, which: hl_stream_text) -> Option<String> {
    let (mut text, mut len) = (ptr::null::<c_char>(), 0usize);
    // SAFETY: a live stream and locals.
    let status = unsafe { hl_text_editor_stream_text(stream, which, &mut text, &mut len) };
    assert_eq!(status, hl_status::Ok);
    if text.is_null() {
        return None;
    }
    // SAFETY: `len` bytes of UTF-8 owned by the stream until its next call.
    let bytes = unsafe { std::slice::from_raw_parts(text.cast::<u8>(), len) };
    Some(String::from_utf8(bytes.to_vec()).expect("UTF-8"))
}

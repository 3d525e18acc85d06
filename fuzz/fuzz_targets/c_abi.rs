//! The C ABI driven through its `extern "C"` functions, as a C host would call them: random
//! sequences of calls on up to three applier handles (new, push of arbitrary bytes — so
//! UTF-8 characters split across pushes and bytes that are not UTF-8 —, preview, snapshot,
//! finish, free) mixed with the one-shot calls, NULL pointers wherever the contract allows
//! them (a NULL text with a non-zero length, NULL out-parameters and options), and option
//! values outside their enums. Every call must return a status (no panic may cross, no
//! crash); every text handed out must be NUL-terminated UTF-8 of its stated length; a
//! successful push's splice must rebuild the preview. Nothing the contract forbids (a freed or
//! foreign handle, a wrong length) is ever passed.

#![no_main]

use std::ffi::c_char;
use std::ptr;

use arbitrary::Arbitrary;
use hl_c::*;
use libfuzzer_sys::fuzz_target;

/// The options of the Roo and unified-diff dialects: a threshold anywhere in and around
/// `0..=1` (NaN and out-of-range values included), any buffer size, and `--recount`.
#[derive(Arbitrary, Debug)]
struct Extra {
    fuzzy_threshold: f64,
    buffer_lines: u32,
    recount: bool,
}

#[derive(Arbitrary, Debug)]
enum Call {
    New {
        slot: u8,
        original: Vec<u8>,
        dialect: u32,
        policy: u32,
        extra: Extra,
        no_options: bool,
    },
    Push {
        slot: u8,
        chunk: Vec<u8>,
        null_chunk: bool,
        null_update: bool,
    },
    Preview {
        slot: u8,
        null_out: bool,
    },
    Snapshot {
        slot: u8,
    },
    Finish {
        slot: u8,
        null_error: bool,
    },
    Free {
        slot: u8,
    },
    ApplyDiff {
        diff: Vec<u8>,
        original: Vec<u8>,
        dialect: u32,
        policy: u32,
        extra: Extra,
        null_result: bool,
    },
    StrReplace {
        content: Vec<u8>,
        exists: bool,
        old: Vec<u8>,
        new: Vec<u8>,
        replace_all: bool,
    },
}

/// A live applier and the preview a host keeps by applying each push's splice.
struct Slot {
    applier: *mut hl_applier,
    mirror: Vec<u8>,
}

const SLOTS: usize = 3;

/// `(ptr, len)` of `bytes`, or NULL with its length when `null` (which the library refuses
/// without reading, unless the length is 0).
fn arg(bytes: &[u8], null: bool) -> (*const c_char, usize) {
    if null {
        (ptr::null(), bytes.len())
    } else {
        (bytes.as_ptr().cast(), bytes.len())
    }
}

/// A text handed out by the library: `len` bytes of UTF-8 then a NUL.
fn text(ptr: *const c_char, len: usize) -> Vec<u8> {
    assert!(!ptr.is_null(), "NULL text with status OK");
    // SAFETY: the library promises `len` bytes plus a NUL at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len + 1) };
    assert_eq!(bytes[len], 0, "text not NUL-terminated");
    assert!(std::str::from_utf8(&bytes[..len]).is_ok(), "text not UTF-8");
    bytes[..len].to_vec()
}

/// Checks a failed call's error (code and message readable) and frees it.
fn drop_error(status: hl_status, error: *mut hl_error) {
    if error.is_null() {
        return;
    }
    assert_ne!(status, hl_status::Ok, "an error with status OK");
    let (mut p, mut n) = (ptr::null(), 0);
    // SAFETY: `error` is a live error; the out-pointers are locals.
    unsafe {
        assert_eq!(hl_error_code(error, &mut p, &mut n), hl_status::Ok);
        assert!(!text(p, n).is_empty(), "empty error code");
        assert_eq!(hl_error_message(error, &mut p, &mut n), hl_status::Ok);
        text(p, n);
        hl_error_free(error);
    }
}

/// Reads a result's content and blocks, then frees it.
fn drop_result(result: *mut hl_result) {
    if result.is_null() {
        return;
    }
    let (mut p, mut n) = (ptr::null(), 0);
    let mut count = 0;
    // SAFETY: `result` is a live result; the out-pointers are locals.
    unsafe {
        assert_eq!(hl_result_content(result, &mut p, &mut n), hl_status::Ok);
        text(p, n);
        assert_eq!(hl_result_block_count(result, &mut count), hl_status::Ok);
        hl_result_free(result);
    }
}

fuzz_target!(|calls: Vec<Call>| {
    let mut slots: [Option<Slot>; SLOTS] = [None, None, None];
    for call in calls.into_iter().take(64) {
        match call {
            Call::New {
                slot,
                original,
                dialect,
                policy,
                extra,
                no_options,
            } => {
                let i = usize::from(slot) % SLOTS;
                let options = hl_applier_options {
                    dialect: dialect % 8,
                    policy: policy % 4,
                    fuzzy_threshold: extra.fuzzy_threshold,
                    buffer_lines: extra.buffer_lines,
                    recount: extra.recount,
                };
                let opts: *const hl_applier_options = if no_options { ptr::null() } else { &options };
                let mut applier = ptr::null_mut();
                let (p, n) = arg(&original, false);
                // SAFETY: `original` is readable for its length; the out-pointer is a local.
                let status = unsafe { hl_applier_new(p, n, opts, &mut applier) };
                if status == hl_status::Ok {
                    assert!(!applier.is_null());
                    if let Some(old) = slots[i].take() {
                        // SAFETY: a live applier of this loop, freed once.
                        unsafe { hl_applier_free(old.applier) };
                    }
                    // The host's copy starts as the first preview (the original in `native`,
                    // empty in the Cline dialects, whose preview is their output so far).
                    let (mut pp, mut pn) = (ptr::null(), 0);
                    // SAFETY: a live applier; locals.
                    let st = unsafe { hl_applier_preview(applier, &mut pp, &mut pn) };
                    assert_eq!(st, hl_status::Ok, "the first preview");
                    let _ = original;
                    slots[i] = Some(Slot {
                        applier,
                        mirror: text(pp, pn),
                    });
                } else {
                    assert!(applier.is_null(), "out-parameter written on failure");
                }
            }
            Call::Push {
                slot,
                chunk,
                null_chunk,
                null_update,
            } => {
                let Some(s) = slots[usize::from(slot) % SLOTS].as_mut() else {
                    continue;
                };
                let mut update = hl_update {
                    start: 0,
                    removed: 0,
                    inserted: ptr::null(),
                    inserted_len: 0,
                    blocks_completed: 0,
                };
                let (p, n) = arg(&chunk, null_chunk);
                let out: *mut hl_update = if null_update { ptr::null_mut() } else { &mut update };
                // SAFETY: a live applier; `chunk` readable for its length or NULL; `out` a
                // local or NULL.
                let status = unsafe { hl_applier_push(s.applier, p, n, out) };
                if status == hl_status::Ok && !null_update {
                    let inserted = text(update.inserted, update.inserted_len);
                    assert!(update.start + update.removed <= s.mirror.len(), "splice out of range");
                    s.mirror
                        .splice(update.start..update.start + update.removed, inserted);
                    let (mut pp, mut pn) = (ptr::null(), 0);
                    // SAFETY: a live applier; locals.
                    let st = unsafe { hl_applier_preview(s.applier, &mut pp, &mut pn) };
                    if st == hl_status::Ok {
                        assert_eq!(text(pp, pn), s.mirror, "the splices rebuild the preview");
                    }
                } else {
                    // The host did not see a splice (none given, or the push failed): take
                    // the preview as it is.
                    let (mut pp, mut pn) = (ptr::null(), 0);
                    // SAFETY: a live applier; locals.
                    if unsafe { hl_applier_preview(s.applier, &mut pp, &mut pn) } == hl_status::Ok {
                        s.mirror = text(pp, pn);
                    }
                }
            }
            Call::Preview { slot, null_out } => {
                let Some(s) = slots[usize::from(slot) % SLOTS].as_ref() else {
                    continue;
                };
                let (mut pp, mut pn) = (ptr::null(), 0);
                let out: *mut *const c_char = if null_out { ptr::null_mut() } else { &mut pp };
                // SAFETY: a live applier; `out` a local or NULL.
                let status = unsafe { hl_applier_preview(s.applier, out, &mut pn) };
                if null_out {
                    assert_eq!(status, hl_status::NullArgument);
                } else if status == hl_status::Ok {
                    text(pp, pn);
                }
            }
            Call::Snapshot { slot } => {
                let Some(s) = slots[usize::from(slot) % SLOTS].as_ref() else {
                    continue;
                };
                let (mut result, mut error) = (ptr::null_mut(), ptr::null_mut());
                // SAFETY: a live applier; locals.
                let status = unsafe { hl_applier_snapshot(s.applier, &mut result, &mut error) };
                drop_error(status, error);
                drop_result(result);
            }
            Call::Finish { slot, null_error } => {
                let Some(s) = slots[usize::from(slot) % SLOTS].as_ref() else {
                    continue;
                };
                let (mut result, mut error) = (ptr::null_mut(), ptr::null_mut());
                let err: *mut *mut hl_error = if null_error { ptr::null_mut() } else { &mut error };
                // SAFETY: a live applier; locals or NULL.
                let status = unsafe { hl_applier_finish(s.applier, &mut result, err) };
                drop_error(status, error);
                drop_result(result);
            }
            Call::Free { slot } => {
                if let Some(s) = slots[usize::from(slot) % SLOTS].take() {
                    // SAFETY: a live applier of this loop, freed once.
                    unsafe { hl_applier_free(s.applier) };
                }
            }
            Call::ApplyDiff {
                diff,
                original,
                dialect,
                policy,
                extra,
                null_result,
            } => {
                let options = hl_apply_options {
                    dialect: dialect % 8,
                    policy: policy % 4,
                    fuzzy_threshold: extra.fuzzy_threshold,
                    buffer_lines: extra.buffer_lines,
                    recount: extra.recount,
                };
                let (mut result, mut error) = (ptr::null_mut(), ptr::null_mut());
                let out: *mut *mut hl_result = if null_result { ptr::null_mut() } else { &mut result };
                let (d, dn) = arg(&diff, false);
                let (o, on) = arg(&original, false);
                // SAFETY: texts readable for their lengths; locals or NULL.
                let status = unsafe { hl_apply_diff(d, dn, o, on, &options, out, &mut error) };
                drop_error(status, error);
                drop_result(result);
            }
            Call::StrReplace {
                content,
                exists,
                old,
                new,
                replace_all,
            } => {
                let (mut edit, mut error) = (ptr::null_mut(), ptr::null_mut());
                let (c, cn) = arg(&content, false);
                let (o, on) = arg(&old, false);
                let (n, nn) = arg(&new, false);
                // SAFETY: texts readable for their lengths; locals.
                let status = unsafe {
                    hl_str_replace(
                        c,
                        cn,
                        exists,
                        o,
                        on,
                        n,
                        nn,
                        replace_all,
                        ptr::null(),
                        0,
                        &mut edit,
                        &mut error,
                    )
                };
                drop_error(status, error);
                if !edit.is_null() {
                    let (mut p, mut len) = (ptr::null(), 0);
                    // SAFETY: a live edit; locals.
                    unsafe {
                        assert_eq!(hl_edit_content(edit, &mut p, &mut len), hl_status::Ok);
                        text(p, len);
                        hl_edit_free(edit);
                    }
                }
            }
        }
    }
    for s in slots.into_iter().flatten() {
        // SAFETY: live appliers of this loop, freed once.
        unsafe { hl_applier_free(s.applier) };
    }
});

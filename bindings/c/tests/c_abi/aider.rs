//! The aider corpora through `hl_apply_patch` in `HL_PATCH_DIALECT_AIDER`, `_AIDER_FENCED` and
//! `_AIDER_WHOLE`, checked as the core's runner (`crates/hunkloom/tests/aider_vectors.rs`)
//! checks them (`hunkloom_testkit::aider::check`), and the block replies through
//! `HL_PATCH_DIALECT_AIDER_NATIVE` (never other files than aider's where aider applied the
//! reply: `hunkloom_testkit::aider::native_verdict`). Prints `aider-<name>: <passed>/<total>
//! passed` and `aider-native-<name>: ...` (visible with `--nocapture`).

use std::collections::BTreeMap;

use hunkloom_testkit::aider::{
    AIDER_CORPORA, AiderCase, Answer, NativeVerdict, check, native_verdict,
};

use super::patch_ffi::apply_patch;
use hunkloom_c::*;

fn answer(case: &AiderCase, policy: hl_policy) -> Answer {
    let dialect = match case.dialect() {
        "aider-fenced" => HL_PATCH_DIALECT_AIDER_FENCED,
        "aider-whole" => HL_PATCH_DIALECT_AIDER_WHOLE,
        _ => HL_PATCH_DIALECT_AIDER,
    };
    answer_in(case, dialect, policy)
}

fn answer_in(case: &AiderCase, dialect: hl_patch_dialect, policy: hl_policy) -> Answer {
    let files: Vec<(&str, &str)> = case
        .files
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let options = hl_patch_options {
        dialect,
        policy,
        recount: false,
    };
    match apply_patch(&case.reply, &files, Some(options))? {
        Ok(out) => Ok(out.files.into_iter().collect::<BTreeMap<_, _>>()),
        Err(e) => Err(e.message),
    }
}

#[test]
fn aider_vectors_through_the_c_abi() {
    let mut failures = Vec::new();
    for name in AIDER_CORPORA {
        let cases: Vec<AiderCase> = hunkloom_testkit::load_jsonl(name);
        let mut passed = 0;
        for case in &cases {
            let all = answer(case, HL_POLICY_ALL_OR_NOTHING);
            let partial = answer(case, HL_POLICY_PARTIAL);
            match check(case, &all, &partial) {
                Ok(()) => passed += 1,
                Err(why) => failures.push(format!("{} {why}", case.id)),
            }
        }
        let label = name.trim_start_matches("aider/").trim_end_matches(".jsonl");
        println!("aider-{label}: {passed}/{} passed", cases.len());
        let (mut correct, mut refused, mut wrong) = (0, 0, 0);
        for case in cases.iter().filter(|c| c.format != "whole") {
            let native = answer_in(
                case,
                HL_PATCH_DIALECT_AIDER_NATIVE,
                HL_POLICY_ALL_OR_NOTHING,
            );
            match native_verdict(case, &native) {
                NativeVerdict::Correct => correct += 1,
                NativeVerdict::Refused => refused += 1,
                NativeVerdict::Wrong(why) => {
                    wrong += 1;
                    failures.push(format!("{} aider-native wrong: {why}", case.id));
                }
                NativeVerdict::BothRefused | NativeVerdict::Unscored => {}
            }
        }
        println!(
            "aider-native-{label}: {correct}/{} correct, {refused} refused, {wrong} wrong",
            correct + refused + wrong
        );
    }
    hunkloom_testkit::assert_no_failures(&failures, 10, "aider case");
}

/// The reply pushed through `hl_aider_applier_*` in `pieces` (byte slices, so a piece may end
/// inside a character): the files after finish, or the error's message.
fn streamed(
    case: &AiderCase,
    dialect: hl_patch_dialect,
    pieces: &[&[u8]],
) -> Result<Answer, String> {
    use super::ffi::read_error;
    use super::patch_ffi::read_patch_result;
    let pairs: Vec<(&str, &str)> = case
        .files
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let files = super::patch_ffi::c_files(&pairs);
    let options = hl_patch_options {
        dialect,
        policy: HL_POLICY_ALL_OR_NOTHING,
        recount: false,
    };
    let (mut applier, mut error) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: every pointer is a live local of the stated length.
    let status = unsafe {
        hl_aider_applier_new(
            files.as_ptr(),
            files.len(),
            &options,
            &mut applier,
            &mut error,
        )
    };
    if status != hl_status::Ok {
        return Err(format!("new: {status:?}"));
    }
    let fail = |status: hl_status, error: *mut hl_error, applier: *mut hl_aider_applier| {
        let read = read_error(status, error);
        // SAFETY: handed over by the call that failed; freed once. The applier is freed once.
        unsafe {
            hl_error_free(error);
            hl_aider_applier_free(applier);
        }
        read.map(|e| Err(e.message))
    };
    for piece in pieces {
        let mut changed = 0;
        // SAFETY: a live applier; the piece is a live slice.
        let status = unsafe {
            hl_aider_applier_push(
                applier,
                piece.as_ptr().cast(),
                piece.len(),
                &mut changed,
                &mut error,
            )
        };
        if status != hl_status::Ok {
            return fail(status, error, applier);
        }
        for i in 0..changed {
            let (mut path, mut len) = (std::ptr::null(), 0);
            // SAFETY: a live applier; the out-pointers are locals.
            let status = unsafe { hl_aider_applier_changed(applier, i, &mut path, &mut len) };
            if status != hl_status::Ok {
                return Err(format!("changed: {status:?}"));
            }
        }
    }
    let mut result = std::ptr::null_mut();
    // SAFETY: a live applier; the out-pointers are locals.
    let status = unsafe { hl_aider_applier_finish(applier, &mut result, &mut error) };
    if status != hl_status::Ok {
        return fail(status, error, applier);
    }
    let read = read_patch_result(result);
    // SAFETY: handed over by finish; each freed once.
    unsafe {
        hl_patch_result_free(result);
        hl_aider_applier_free(applier);
    }
    Ok(Ok(read?.files.into_iter().collect()))
}

#[test]
fn aider_replies_stream_through_the_c_abi_to_the_one_shot_result() {
    let mut failures = Vec::new();
    for name in AIDER_CORPORA {
        let cases: Vec<AiderCase> = hunkloom_testkit::load_jsonl(name);
        for case in &cases {
            let dialect = match case.dialect() {
                "aider-fenced" => HL_PATCH_DIALECT_AIDER_FENCED,
                "aider-whole" => HL_PATCH_DIALECT_AIDER_WHOLE,
                _ => HL_PATCH_DIALECT_AIDER,
            };
            let want = answer_in(case, dialect, HL_POLICY_ALL_OR_NOTHING);
            let bytes = case.reply.as_bytes();
            // Every 7 bytes (cutting characters) and per line.
            let sevens: Vec<&[u8]> = bytes.chunks(7).collect();
            let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
            for pieces in [sevens, lines] {
                match streamed(case, dialect, &pieces) {
                    Ok(got) if got == want => {}
                    other => {
                        failures.push(format!("{} {:?}", case.id, other.err()));
                        break;
                    }
                }
            }
        }
    }
    hunkloom_testkit::assert_no_failures(&failures, 10, "streamed aider case");
}

#[test]
fn the_preview_follows_the_reply_through_the_c_abi() {
    let (path, text) = ("app.py", "x = 1\n");
    let files = [hl_patch_file {
        path: path.as_ptr().cast(),
        path_len: path.len(),
        content: text.as_ptr().cast(),
        content_len: text.len(),
    }];
    let (mut applier, mut error) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: live locals; NULL options (aider, all or nothing).
    let status = unsafe {
        hl_aider_applier_new(
            files.as_ptr(),
            1,
            std::ptr::null(),
            &mut applier,
            &mut error,
        )
    };
    assert_eq!(status, hl_status::Ok);
    let reply = "app.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n";
    let mut changed = 0;
    // SAFETY: a live applier and live locals.
    let status = unsafe {
        hl_aider_applier_push(
            applier,
            reply.as_ptr().cast(),
            reply.len(),
            &mut changed,
            &mut error,
        )
    };
    assert_eq!((status, changed), (hl_status::Ok, 1));
    let (mut p, mut len) = (std::ptr::null(), 0);
    // SAFETY: a live applier and live locals.
    assert_eq!(
        unsafe { hl_aider_applier_changed(applier, 0, &mut p, &mut len) },
        hl_status::Ok
    );
    // SAFETY: `len` bytes owned by the applier until its next push.
    assert_eq!(
        unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) },
        b"app.py"
    );
    // SAFETY: as above.
    assert_eq!(
        unsafe { hl_aider_applier_changed(applier, 1, &mut p, &mut len) },
        hl_status::OutOfRange
    );
    let mut preview = std::ptr::null_mut();
    // SAFETY: a live applier and live locals.
    let status = unsafe {
        hl_aider_applier_preview(applier, path.as_ptr().cast(), path.len(), &mut preview)
    };
    assert_eq!(status, hl_status::Ok);
    let (mut c, mut clen) = (std::ptr::null(), 0);
    // SAFETY: a live text, freed once below.
    unsafe {
        assert_eq!(hl_text_content(preview, &mut c, &mut clen), hl_status::Ok);
        assert_eq!(std::slice::from_raw_parts(c.cast::<u8>(), clen), b"x = 2\n");
        hl_text_free(preview);
        hl_aider_applier_free(applier);
    }
}

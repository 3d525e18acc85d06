//! What only the C layer does, checked through the exported functions: NULL arguments,
//! out-parameters left alone on failure, UTF-8 checks and the buffering of split characters,
//! statuses and error codes, the lifecycle after finish, and panics.

use std::ffi::{CStr, c_char};
use std::ptr;

use engine::cline::{Version, construct_new_file_content};
use engine::{ErrorKind, StreamingApplier};

use super::ffi::{Applier, CError, Observed, construct, cptr, observed, read_text, take_outcome};
use hunkloom_c::*;

const ORIGINAL: &str = "a\n\u{1F680} b\nc\n";
const DIFF: &str =
    "------- SEARCH\n\u{1F680} b\n=======\n\u{e9}t\u{e9} \u{20ac}\n+++++++ REPLACE\n";
const NEW: &str = "a\n\u{e9}t\u{e9} \u{20ac}\nc\n";
const MISSING: &str = "------- SEARCH\nnot there\n=======\nx\n+++++++ REPLACE\n";

/// A value no call may write over on failure.
const SENTINEL: usize = 0xDEAD;

fn sentinel<T>() -> *mut T {
    SENTINEL as *mut T
}

/// Runs a stateless call that must fail with an engine error; returns it.
fn construct_error(diff: &str, original: &str, version: hl_cline_version) -> CError {
    let (status, result, error) = construct(diff.as_bytes(), original.as_bytes(), true, version);
    match take_outcome(status, result, error, original) {
        Ok(Err(e)) => e,
        other => panic!("expected an engine error, got {other:?}"),
    }
}

#[test]
fn search_not_found_carries_clines_message_and_the_engines_code() {
    let e = construct_error(MISSING, ORIGINAL, HL_CLINE_V1);
    let engine_error =
        construct_new_file_content(MISSING, ORIGINAL, true, Version::V1).expect_err("rejected");
    assert_eq!(e.status, hl_status::EditRejected);
    assert_eq!(e.code, "search_not_found");
    assert_eq!(e.code, engine_error.code());
    assert_eq!(e.message, engine_error.message());
    assert!(
        e.message
            .starts_with("The SEARCH block:\nnot there\n...does not match anything"),
        "{}",
        e.message
    );
}

#[test]
fn an_unknown_version_is_clines_invalid_version_error() {
    for (version, text) in [(3, "v3"), (0, "v0"), (u32::MAX, "v4294967295")] {
        let e = construct_error(DIFF, ORIGINAL, version);
        assert_eq!(e.status, hl_status::InvalidOption);
        assert_eq!(e.code, "invalid_version");
        let engine_error = text.parse::<Version>().expect_err("unknown");
        assert_eq!(e.message, engine_error.message());
        assert_eq!(
            e.message,
            format!("Invalid version '{text}' for file content constructor")
        );
    }
}

#[test]
fn every_engine_error_kind_has_a_status_family() {
    for &kind in ErrorKind::ALL {
        let status = hunkloom_c::testing::status_of(kind);
        assert_ne!(
            status,
            hl_status::EngineError,
            "{kind:?} needs a family in error.rs"
        );
        // Engine errors come with a `hl_error`, from EDIT_REJECTED on; a caught panic is the
        // plain PANIC status.
        assert!(
            status as u32 >= hl_status::EditRejected as u32
                || (kind == ErrorKind::InternalError && status == hl_status::Panic),
            "{kind:?} -> {status:?}"
        );
    }
}

#[test]
fn each_status_documents_every_code_of_its_families() {
    let header = include_str!("../../../../include/hunkloom.h");
    let start = header.find("typedef enum hl_status {").expect("hl_status");
    let body = &header[start..start + header[start..].find("} hl_status;").expect("end")];
    for &kind in ErrorKind::ALL {
        let status = hunkloom_c::testing::status_of(kind);
        let name = format!("HL_STATUS_{} =", screaming(&format!("{status:?}")));
        let at = body
            .find(&name)
            .unwrap_or_else(|| panic!("{name} in the header"));
        // The enumerator's doc comment: from the end of the previous enumerator to its name.
        let doc_start = body[..at]
            .rfind(" = ")
            .map_or(0, |i| i + body[i..].find('\n').unwrap_or(0));
        let doc = &body[doc_start..at];
        assert!(
            doc.contains(&format!("`{}`", kind.code())),
            "the doc of {name} does not name `{}`",
            kind.code()
        );
    }
}

/// `EditRejected` -> `EDIT_REJECTED`.
fn screaming(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.char_indices() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

#[test]
fn the_stateless_call_returns_content_and_matches_in_every_unit() {
    let (status, result, error) =
        construct(DIFF.as_bytes(), ORIGINAL.as_bytes(), true, HL_CLINE_V1);
    let (content, matches) = take_outcome(status, result, error, ORIGINAL)
        .expect("well-formed")
        .expect("applied");
    assert_eq!(content, NEW);
    let want = hl_position {
        bytes: 2,
        utf16: 2,
        code_points: 2,
        line: 2,
    };
    assert_eq!(matches, vec![want]);
}

#[test]
fn match_index_rejects_unknown_units_and_indices() {
    let (status, result, error) =
        construct(DIFF.as_bytes(), ORIGINAL.as_bytes(), true, HL_CLINE_V1);
    assert_eq!((status, error), (hl_status::Ok, ptr::null_mut()));
    let mut value = SENTINEL;
    // SAFETY: `result` is live until freed below; `value` is a local.
    unsafe {
        assert_eq!(
            hl_result_match_index(result, 0, 4, &mut value),
            hl_status::OutOfRange
        );
        assert_eq!(
            hl_result_match_index(result, 0, u32::MAX, &mut value),
            hl_status::OutOfRange
        );
        assert_eq!(
            hl_result_match_index(result, usize::MAX, HL_UNIT_BYTES, &mut value),
            hl_status::OutOfRange
        );
        assert_eq!(value, SENTINEL);
        assert_eq!(
            hl_result_match_index(result, 0, HL_UNIT_LINES, &mut value),
            hl_status::Ok
        );
        assert_eq!(value, 2);
        let mut count = SENTINEL;
        assert_eq!(hl_result_block_count(result, &mut count), hl_status::Ok);
        assert_eq!(count, 0, "Cline's function reports no blocks");
        hl_result_free(result);
    }
}

#[test]
fn null_pointers_are_a_status_and_leave_out_parameters_alone() {
    let d = DIFF.as_bytes();
    let o = ORIGINAL.as_bytes();
    let mut result: *mut hl_result = sentinel();
    let mut error: *mut hl_error = sentinel();
    // SAFETY: every non-NULL pointer below is live; NULL ones are what is being tested.
    unsafe {
        let null_cases = [
            hl_construct_new_file_content(
                ptr::null(),
                1,
                cptr(o),
                o.len(),
                true,
                1,
                &mut result,
                &mut error,
            ),
            hl_construct_new_file_content(
                cptr(d),
                d.len(),
                ptr::null(),
                1,
                true,
                1,
                &mut result,
                &mut error,
            ),
            hl_construct_new_file_content(
                cptr(d),
                d.len(),
                cptr(o),
                o.len(),
                true,
                1,
                ptr::null_mut(),
                &mut error,
            ),
            hl_construct_new_file_content(
                cptr(d),
                d.len(),
                cptr(o),
                o.len(),
                true,
                1,
                &mut result,
                ptr::null_mut(),
            ),
        ];
        for (i, status) in null_cases.into_iter().enumerate() {
            assert_eq!(status, hl_status::NullArgument, "case {i}");
        }
        assert_eq!((result, error), (sentinel(), sentinel()));

        let mut applier: *mut hl_applier = sentinel();
        assert_eq!(
            hl_applier_new(ptr::null(), 1, ptr::null(), &mut applier),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_new(cptr(o), o.len(), ptr::null(), ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(applier, sentinel());

        let mut update = hl_update {
            start: SENTINEL,
            removed: SENTINEL,
            inserted: ptr::null(),
            inserted_len: SENTINEL,
            blocks_completed: SENTINEL,
        };
        let mut text: *const c_char = sentinel::<c_char>();
        let mut len = SENTINEL;
        assert_eq!(
            hl_applier_push(ptr::null_mut(), cptr(d), d.len(), &mut update),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_preview(ptr::null_mut(), &mut text, &mut len),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_snapshot(ptr::null_mut(), &mut result, &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_finish(ptr::null_mut(), &mut result, &mut error),
            hl_status::NullArgument
        );

        let mut a = Applier::new(o, HL_DIALECT_CLINE_V1).expect("new");
        assert_eq!(
            hl_applier_push(a.0, ptr::null(), 1, &mut update),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_push(a.0, cptr(d), d.len(), ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_preview(a.0, ptr::null_mut(), &mut len),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_preview(a.0, &mut text, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_snapshot(a.0, ptr::null_mut(), &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_snapshot(a.0, &mut result, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_finish(a.0, ptr::null_mut(), &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_applier_finish(a.0, &mut result, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!((update.start, update.inserted_len), (SENTINEL, SENTINEL));
        assert_eq!(
            (text, len),
            (sentinel::<c_char>() as *const c_char, SENTINEL)
        );
        assert_eq!((result, error), (sentinel(), sentinel()));
        // None of that disturbed the applier.
        a.push(d).expect("push");
        let (status, r, e) = a.end(true);
        let (content, _) = take_outcome(status, r, e, ORIGINAL)
            .expect("ok")
            .expect("applied");
        assert_eq!(content, NEW);

        let mut count = SENTINEL;
        let mut block = std::mem::MaybeUninit::<hl_block>::uninit();
        assert_eq!(
            hl_result_content(ptr::null(), &mut text, &mut len),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_result_match_count(ptr::null(), &mut count),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_result_match_index(ptr::null(), 0, 0, &mut count),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_result_block_count(ptr::null(), &mut count),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_result_block(ptr::null(), 0, block.as_mut_ptr()),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_error_code(ptr::null(), &mut text, &mut len),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_error_message(ptr::null(), &mut text, &mut len),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_line_number_from_byte_index(ptr::null(), 1, 0, &mut count),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_line_number_from_byte_index(cptr(o), o.len(), 0, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(count, SENTINEL);

        // The free functions accept NULL.
        hl_applier_free(ptr::null_mut());
        hl_result_free(ptr::null_mut());
        hl_error_free(ptr::null_mut());
    }
}

#[test]
fn a_null_pointer_with_length_zero_is_the_empty_text() {
    let (mut result, mut error) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: NULL with length 0 is allowed; the out-pointers are locals.
    let status = unsafe {
        hl_construct_new_file_content(
            ptr::null(),
            0,
            ptr::null(),
            0,
            true,
            HL_CLINE_V1,
            &mut result,
            &mut error,
        )
    };
    let (content, matches) = take_outcome(status, result, error, "")
        .expect("ok")
        .expect("applied");
    assert_eq!((content.as_str(), matches.len()), ("", 0));
    let mut a = Applier::new(&[], HL_DIALECT_CLINE_V1).expect("empty original");
    let mut update = std::mem::MaybeUninit::<hl_update>::uninit();
    // SAFETY: live handle; NULL with length 0.
    assert_eq!(
        unsafe { hl_applier_push(a.0, ptr::null(), 0, update.as_mut_ptr()) },
        hl_status::Ok
    );
    assert_eq!(a.preview(), Ok(String::new()));
}

#[test]
fn invalid_utf8_is_rejected_everywhere_and_changes_nothing() {
    let bad = b"ok\xff";
    let (status, result, error) = construct(bad, ORIGINAL.as_bytes(), true, HL_CLINE_V1);
    assert_eq!(
        (status, result, error),
        (hl_status::InvalidUtf8, ptr::null_mut(), ptr::null_mut())
    );
    let (status, ..) = construct(DIFF.as_bytes(), b"\xc3(", true, HL_CLINE_V1);
    assert_eq!(status, hl_status::InvalidUtf8);
    assert_eq!(
        Applier::new(b"\xed\xa0\x80", 0).err(),
        Some(hl_status::InvalidUtf8)
    );
    let mut line = SENTINEL;
    // SAFETY: live slice, local out-pointer.
    let status = unsafe { hl_line_number_from_byte_index(cptr(bad), bad.len(), 1, &mut line) };
    assert_eq!((status, line), (hl_status::InvalidUtf8, SENTINEL));

    // A rejected push changes nothing, even with a character pending from the push before.
    let mut a = Applier::new(ORIGINAL.as_bytes(), 0).expect("new");
    let d = DIFF.as_bytes();
    let split = DIFF.find('\u{1F680}').expect("rocket") + 2;
    a.push(&d[..split]).expect("first half of the rocket");
    let before = a.preview();
    for bad in [&b"\xff"[..], b"\x9f\x9a\x80\xff", b"A"] {
        assert_eq!(
            a.push(bad).err().as_deref(),
            Some("push: InvalidUtf8"),
            "{bad:?}"
        );
        assert_eq!(a.preview(), before);
    }
    a.push(&d[split..]).expect("the rest");
    let (status, r, e) = a.end(true);
    let (content, _) = take_outcome(status, r, e, ORIGINAL)
        .expect("ok")
        .expect("applied");
    assert_eq!(content, NEW);
}

#[test]
fn a_character_split_across_pushes_arrives_whole() {
    let d = DIFF.as_bytes();
    let mut a = Applier::new(ORIGINAL.as_bytes(), 0).expect("new");
    let mut engine = StreamingApplier::new(ORIGINAL, Default::default());
    let mut fed = 0;
    for i in 0..d.len() {
        a.push(&d[i..=i]).expect("byte");
        // The engine sees complete characters only: compare at every character boundary.
        if DIFF.is_char_boundary(i + 1) {
            engine.push(&DIFF[fed..=i]);
            fed = i + 1;
            assert_eq!(
                a.preview().expect("preview"),
                engine.preview(),
                "after byte {i}"
            );
        }
    }
    let (status, r, e) = a.end(true);
    let (content, _) = take_outcome(status, r, e, ORIGINAL)
        .expect("ok")
        .expect("applied");
    assert_eq!(content, NEW);
}

#[test]
fn finishing_inside_a_character_is_invalid_utf8_and_recoverable() {
    let d = DIFF.as_bytes();
    let cut = d.len() - 1 - "\n+++++++ REPLACE\n".len(); // inside the euro sign
    assert!(!DIFF.is_char_boundary(cut));
    let mut a = Applier::new(ORIGINAL.as_bytes(), 0).expect("new");
    a.push(&d[..cut]).expect("push");
    let (status, result, error) = a.end(true);
    assert_eq!(
        (status, result, error),
        (hl_status::InvalidUtf8, ptr::null_mut(), ptr::null_mut())
    );
    a.push(&d[cut..]).expect("the rest");
    let (status, r, e) = a.end(true);
    let (content, _) = take_outcome(status, r, e, ORIGINAL)
        .expect("ok")
        .expect("applied");
    assert_eq!(content, NEW);
}

#[test]
fn after_finish_every_call_is_already_finished_and_free_still_works() {
    for diff in [DIFF, MISSING] {
        let mut a = Applier::new(ORIGINAL.as_bytes(), 0).expect("new");
        a.push(diff.as_bytes()).expect("push");
        let (status, r, e) = a.end(true);
        let first = take_outcome(status, r, e, ORIGINAL).expect("ok");
        assert_eq!(first.is_ok(), diff == DIFF);
        assert_eq!(
            a.push(b"more").err().as_deref(),
            Some("push: AlreadyFinished")
        );
        assert_eq!(a.preview(), Err(hl_status::AlreadyFinished));
        for finish in [false, true] {
            let (status, r, e) = a.end(finish);
            let err = take_outcome(status, r, e, ORIGINAL)
                .expect("ok")
                .expect_err("finished");
            assert_eq!(err.status, hl_status::AlreadyFinished);
            assert_eq!(err.code, "already_finished");
            assert_eq!(err.message, engine::Error::already_finished().message());
        }
    }
}

#[test]
fn snapshots_follow_clines_partial_calls() {
    let diff = format!(
        "{DIFF}------- SEARCH\nc\n=======\nC\n+++++++ REPLACE\n------- SEARCH\nnope\n=======\nx\n+++++++ REPLACE\n"
    );
    for (dialect, version) in [
        (HL_DIALECT_CLINE_V1, Version::V1),
        (HL_DIALECT_CLINE_V2, Version::V2),
    ] {
        let mut a = Applier::new(ORIGINAL.as_bytes(), dialect).expect("new");
        let cline = |prefix: &str, is_final: bool| match construct_new_file_content(
            prefix, ORIGINAL, is_final, version,
        ) {
            Ok(x) => Observed::Content {
                new_content: x.new_content.clone(),
                match_indices: x.match_indices_utf16(),
            },
            Err(e) => Observed::Error(e.message().to_owned()),
        };
        let mut fed = 0;
        let mut rejected = 0;
        for end in diff
            .char_indices()
            .map(|(i, _)| i)
            .skip(1)
            .chain([diff.len()])
        {
            a.push(&diff.as_bytes()[fed..end]).expect("push");
            fed = end;
            let (status, r, e) = a.end(false);
            let got = observed(take_outcome(status, r, e, ORIGINAL).expect("ok"));
            let want = cline(&diff[..end], false);
            rejected += usize::from(matches!(want, Observed::Error(_)));
            assert_eq!(got, Ok(want), "{version}, prefix of {end} bytes");
        }
        assert!(rejected > 0, "the third block is rejected before the end");
        let (status, r, e) = a.end(true);
        let got = observed(take_outcome(status, r, e, ORIGINAL).expect("ok"));
        assert_eq!(got, Ok(cline(&diff, true)), "{version} final");
    }
}

#[test]
fn finished_and_snapshot_results_report_blocks() {
    let diff = format!("{DIFF}------- SEARCH\nc\n=======\nC\n+++++++ REPLACE\n");
    let mut a = Applier::new(ORIGINAL.as_bytes(), HL_DIALECT_CLINE_V1).expect("new");
    let (_, _, _, completed) = a.push(diff.as_bytes()).expect("push");
    assert_eq!(completed, 2);
    for finish in [false, true] {
        let (status, r, e) = a.end(finish);
        assert_eq!((status, e), (hl_status::Ok, ptr::null_mut()));
        let mut count = 0;
        let mut block = std::mem::MaybeUninit::<hl_block>::uninit();
        // SAFETY: `r` is live until freed; out-pointers are locals.
        unsafe {
            assert_eq!(hl_result_block_count(r, &mut count), hl_status::Ok);
            assert_eq!(count, 2);
            assert_eq!(hl_result_block(r, 1, block.as_mut_ptr()), hl_status::Ok);
            let block = block.assume_init();
            assert_eq!(
                read_text(block.strategy, block.strategy_len).as_deref(),
                Ok("exact")
            );
            assert_eq!((block.index, block.start.line, block.end.line), (1, 3, 4));
            assert_eq!(
                (block.start.bytes, block.start.utf16),
                (ORIGINAL.len() - 2, 7)
            );
            let mut untouched = std::mem::MaybeUninit::<hl_block>::uninit();
            assert_eq!(
                hl_result_block(r, 2, untouched.as_mut_ptr()),
                hl_status::OutOfRange
            );
            hl_result_free(r);
        }
    }
}

#[test]
fn an_overlapping_call_is_refused_with_concurrent_use() {
    let mut a = Applier::new(ORIGINAL.as_bytes(), HL_DIALECT_CLINE_V1).expect("new");
    // SAFETY: the handle is live for the whole test.
    let handle = unsafe { hunkloom_c::testing::applier_handle(a.0) };
    super::while_busy(handle, || {
        assert_eq!(a.push(b"x").err().as_deref(), Some("push: ConcurrentUse"));
        assert_eq!(a.preview(), Err(hl_status::ConcurrentUse));
        let (status, r, e) = a.end(true);
        let err = take_outcome(status, r, e, ORIGINAL)
            .expect("ok")
            .expect_err("refused");
        assert_eq!(
            (err.status, err.code.as_str()),
            (hl_status::ConcurrentUse, "concurrent_use")
        );
    });
    // Nothing was done meanwhile, and the applier works once the other call is over.
    a.push(DIFF.as_bytes()).expect("push");
    let (status, r, e) = a.end(true);
    let (content, _) = take_outcome(status, r, e, ORIGINAL)
        .expect("ok")
        .expect("applied");
    assert_eq!(content, NEW);
}

#[test]
fn appliers_work_from_several_threads() {
    let handles: Vec<_> = (0..4)
        .map(|i| {
            std::thread::spawn(move || {
                let mut a = Applier::new(ORIGINAL.as_bytes(), HL_DIALECT_CLINE_V1).expect("new");
                for piece in DIFF.as_bytes().chunks(i + 1) {
                    a.push(piece).expect("push");
                }
                let (status, r, e) = a.end(true);
                take_outcome(status, r, e, ORIGINAL)
                    .expect("ok")
                    .expect("applied")
                    .0
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().expect("thread"), NEW);
    }
}

#[test]
fn an_unknown_dialect_is_an_invalid_option() {
    let mut applier: *mut hl_applier = sentinel();
    for options in [
        hl_applier_options {
            dialect: 9,
            policy: 0,
            ..Default::default()
        },
        hl_applier_options {
            dialect: HL_DIALECT_NATIVE,
            policy: 2,
            ..Default::default()
        },
    ] {
        // SAFETY: live slice and options, local out-pointer.
        let status = unsafe { hl_applier_new(cptr(b"x"), 1, &options, &mut applier) };
        assert_eq!((status, applier), (hl_status::InvalidOption, sentinel()));
    }
}

#[test]
fn a_panic_becomes_a_status_and_retires_only_that_applier() {
    let mut a = Applier::new(ORIGINAL.as_bytes(), 0).expect("new");
    let mut b = Applier::new(ORIGINAL.as_bytes(), 0).expect("new");
    a.push(b"------- SEARCH\n").expect("push");
    // SAFETY: the handle is live.
    unsafe { hunkloom_c::testing::applier_handle(a.0) }.inject_panic();
    assert_eq!(a.push(b"a\n").err().as_deref(), Some("push: Panic"));
    assert_eq!(a.push(b"a\n").err().as_deref(), Some("push: Panic"));
    assert_eq!(a.preview(), Err(hl_status::Panic));
    let (status, r, e) = a.end(true);
    assert_eq!(
        (status, r, e),
        (hl_status::Panic, ptr::null_mut(), ptr::null_mut())
    );
    b.push(DIFF.as_bytes()).expect("the other applier is fine");
    drop(a); // hl_applier_free on the poisoned handle
    let status = hunkloom_c::testing::panicking_call();
    assert_eq!(status, hl_status::Panic);
}

#[test]
fn returned_texts_are_nul_terminated_and_versions_are_static() {
    // SAFETY: static NUL-terminated strings.
    let version = unsafe { CStr::from_ptr(hl_version()) };
    assert_eq!(version.to_str(), Ok(env!("CARGO_PKG_VERSION")));
    let mut line = 0;
    let text = "a\nb\n\u{1F680}";
    for (byte, want) in [(0, 1), (1, 1), (2, 2), (4, 3), (5, 3), (1000, 3)] {
        // SAFETY: live slice, local out-pointer.
        let status = unsafe {
            hl_line_number_from_byte_index(cptr(text.as_bytes()), text.len(), byte, &mut line)
        };
        assert_eq!((status, line), (hl_status::Ok, want), "byte {byte}");
    }
}

#[test]
fn handles_cross_threads_as_documented() {
    fn send<T: Send>() {}
    fn send_sync<T: Send + Sync>() {}
    send::<hl_applier>();
    send_sync::<hl_result>();
    send_sync::<hl_error>();
}

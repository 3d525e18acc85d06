//! The V4A corpus (`openai-v4a/v4a.jsonl`) through `hl_apply_v4a`, judged as the core's runner
//! judges it (`hunkloom-testkit`'s `v4a` module): the reference's text, or an engine error
//! (`HL_STATUS_EDIT_REJECTED`) with its exact message. Prints `v4a c-abi: <passed>/<total>
//! passed` (visible with `--nocapture`, as `make test-c` runs it). No row is skipped.

use hunkloom_testkit::Tally;
use hunkloom_testkit::v4a::{self, CORPUS};

use super::ffi::{read_error, take_text};
use super::ops_ffi::apply_v4a;
use hunkloom_c::*;

#[test]
fn v4a_vectors_through_hl_apply_v4a() {
    let mut tally = Tally::default();
    for row in v4a::load() {
        let mode = match row.mode.as_str() {
            "create" => HL_V4A_MODE_CREATE,
            _ => HL_V4A_MODE_DEFAULT,
        };
        let outcome = match apply_v4a(row.input.as_bytes(), row.diff.as_bytes(), mode) {
            Ok(Ok(text)) => v4a::judge(&row, Ok(&text)),
            Ok(Err(e)) if e.status == hl_status::EditRejected => v4a::judge(&row, Err(&e.message)),
            Ok(Err(e)) => Err(format!("{e:?}")),
            Err(status) => Err(format!("binding status {status:?}")),
        };
        tally.record("c-abi", &row.id, outcome);
    }
    tally.print_parts(CORPUS);
    hunkloom_testkit::assert_no_failures(&tally.failures, 5, "failures");
}

/// Every row with an intended result through `hl_apply_patch_body` with
/// `HL_PATCH_DIALECT_NATIVE`: the intended text or a refusal (`HL_STATUS_EDIT_REJECTED`), never
/// another text, and at least 80% intended. Prints `v4a native c-abi: …`.
#[test]
fn v4a_bodies_read_natively_through_hl_apply_patch_body() {
    use hunkloom_testkit::v4a::{Verdict, codex_path};

    use super::patch_ffi::apply_patch_body;

    let options = hl_patch_options {
        dialect: HL_PATCH_DIALECT_NATIVE,
        ..hl_patch_options::default()
    };
    let mut counts = [0usize; 3];
    let mut wrong = Vec::new();
    for row in v4a::load() {
        let Some(intended) = row.intended.as_deref() else {
            continue;
        };
        let (mode, path) = (
            match row.mode.as_str() {
                "create" => HL_V4A_MODE_CREATE,
                _ => HL_V4A_MODE_DEFAULT,
            },
            codex_path(&row.mode),
        );
        let files: Vec<(&str, &str)> = if mode == HL_V4A_MODE_CREATE {
            Vec::new()
        } else {
            vec![(path, row.input.as_str())]
        };
        let verdict = match apply_patch_body(path, &row.diff, mode, &files, Some(options)) {
            Ok(Ok(out)) => {
                let text = out
                    .files
                    .iter()
                    .find(|(p, _)| p == path)
                    .map(|(_, t)| t.as_str());
                Verdict::of(intended, Ok(text.unwrap_or_default()))
            }
            Ok(Err(e)) if e.status == hl_status::EditRejected => Verdict::Refused,
            other => panic!("{}: {other:?}", row.id),
        };
        counts[verdict as usize] += 1;
        if verdict == Verdict::Wrong {
            wrong.push(row.id.clone());
        }
    }
    let total: usize = counts.iter().sum();
    println!(
        "v4a native c-abi: {}/{total} correct, {} refused, {} wrong",
        counts[0], counts[1], counts[2]
    );
    assert!(wrong.is_empty(), "{wrong:?}");
    assert!(counts[0] * 5 >= total * 4, "{counts:?}");
}

/// Every row's body through `hl_native_body_applier` in 7-byte pieces (cutting UTF-8
/// characters), against the core's one-shot `apply_body`: the same text and chunk reports, or
/// a refusal with the same message; the preview before `finish` shows the sections placed.
#[test]
fn v4a_bodies_stream_through_hl_native_body_applier() {
    use std::ptr;

    use engine::patch::native::apply_body;
    use engine::patch::v4a::V4aMode;

    let mut compared = 0;
    for row in v4a::load() {
        let (mode, c_mode) = match row.mode.as_str() {
            "create" => (V4aMode::Create, HL_V4A_MODE_CREATE),
            _ => (V4aMode::Default, HL_V4A_MODE_DEFAULT),
        };
        let want = apply_body(&row.input, &row.diff, mode);
        let (mut applier, mut error) = (ptr::null_mut(), ptr::null_mut());
        // SAFETY: a live string and out-parameters.
        let status = unsafe {
            hl_native_body_applier_new(
                row.input.as_ptr().cast(),
                row.input.len(),
                c_mode,
                &mut applier,
                &mut error,
            )
        };
        assert_eq!(status, hl_status::Ok, "{}", row.id);
        let mut refused = None;
        for piece in row.diff.as_bytes().chunks(7) {
            // SAFETY: a live applier and a live buffer.
            let status = unsafe {
                hl_native_body_applier_push(applier, piece.as_ptr().cast(), piece.len(), &mut error)
            };
            if status != hl_status::Ok {
                refused = Some(read_error(status, error).expect("an error"));
                // SAFETY: written by the failed push; freed once.
                unsafe { hl_error_free(error) };
                break;
            }
        }
        let got = match refused {
            Some(e) => Err(e),
            None => {
                let (mut text, mut chunks) = (ptr::null_mut(), ptr::null_mut());
                // SAFETY: a live applier and out-parameters.
                let status = unsafe {
                    hl_native_body_applier_finish(applier, &mut text, &mut chunks, &mut error)
                };
                if status == hl_status::Ok {
                    Ok((take_text(text), take_text(chunks)))
                } else {
                    let e = read_error(status, error).expect("an error");
                    // SAFETY: written by the failed finish; freed once.
                    unsafe { hl_error_free(error) };
                    Err(e)
                }
            }
        };
        // SAFETY: made above, freed once.
        unsafe { hl_native_body_applier_free(applier) };
        match (&want, &got) {
            (Ok(w), Ok((text, chunks))) => {
                assert_eq!(&w.new_content, text, "{}", row.id);
                let chunks: serde_json::Value = serde_json::from_str(chunks).expect("JSON");
                assert_eq!(
                    chunks.as_array().map(Vec::len),
                    Some(w.chunks.len()),
                    "{}",
                    row.id
                );
                for (c, r) in chunks.as_array().into_iter().flatten().zip(&w.chunks) {
                    assert_eq!(c["line"], r.line, "{}", row.id);
                    assert_eq!(c["strategy"], r.strategy.as_str(), "{}", row.id);
                }
            }
            (Err(w), Err(e)) => {
                assert_eq!(
                    (e.status, e.message.as_str()),
                    (hl_status::EditRejected, w.message()),
                    "{}",
                    row.id
                );
            }
            _ => panic!("{}: want {want:?}, got {got:?}", row.id),
        }
        compared += 1;
    }
    println!("v4a native c-abi streamed: {compared} bodies as the one-shot reading");
}

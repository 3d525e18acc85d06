//! `hl_error_match_count` and `hl_error_match`: every place an ambiguous text matched, in every
//! unit, as the other languages report it.

use std::ptr;

use super::ffi::cptr;
use hunkloom_c::*;

/// `hl_str_replace(content, old, "x")`: the status and the error (or NULL).
fn refused(content: &str, old: &str) -> (hl_status, *mut hl_error) {
    let (mut edit, mut error) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        hl_str_replace(
            cptr(content.as_bytes()),
            content.len(),
            true,
            cptr(old.as_bytes()),
            old.len(),
            cptr(b"x"),
            1,
            false,
            ptr::null(),
            0,
            &mut edit,
            &mut error,
        )
    };
    assert!(edit.is_null(), "no edit on a refusal");
    (status, error)
}

fn matches(error: *const hl_error) -> Vec<hl_match> {
    let mut count = usize::MAX;
    // SAFETY: a live error; a local out-pointer.
    assert_eq!(
        unsafe { hl_error_match_count(error, &mut count) },
        hl_status::Ok
    );
    (0..count)
        .map(|i| {
            let mut m = hl_match::default();
            // SAFETY: as above.
            assert_eq!(unsafe { hl_error_match(error, i, &mut m) }, hl_status::Ok);
            m
        })
        .collect()
}

#[test]
fn an_ambiguity_lists_every_match_in_every_unit() {
    let content = "é = 1\ny\né = 1\n";
    let (status, error) = refused(content, "é = 1\n");
    assert_eq!(status, hl_status::EditRejected);
    let found = matches(error);
    assert_eq!(found.len(), 2);
    let second = found[1];
    assert_eq!(
        (
            second.start.bytes,
            second.start.utf16,
            second.start.code_points
        ),
        (9, 8, 8)
    );
    assert_eq!(&content[second.start.bytes..second.end.bytes], "é = 1\n");
    assert_eq!(
        (second.start.line, second.last_line, second.end.line),
        (3, 3, 4)
    );
    assert_eq!(found[0].start.line, 1);
    let mut m = hl_match::default();
    // SAFETY: a live error; bad index, then NULL pointers.
    unsafe {
        assert_eq!(hl_error_match(error, 2, &mut m), hl_status::OutOfRange);
        assert_eq!(
            hl_error_match(error, 0, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_error_match_count(error, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_error_match_count(ptr::null(), &mut 0),
            hl_status::NullArgument
        );
        hl_error_free(error);
    }
}

#[test]
fn other_errors_have_no_matches() {
    let (status, error) = refused("a\n", "nope");
    assert_eq!(status, hl_status::EditRejected);
    assert!(matches(error).is_empty());
    // SAFETY: freed once.
    unsafe { hl_error_free(error) };
}

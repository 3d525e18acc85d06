//! The tool operations' C layer, checked through the exported functions against the engine:
//! results and errors carried over unchanged (codes, messages, status families), a missing file
//! kept apart from an empty one, NULL arguments, invalid UTF-8 in every text, and out-parameters
//! left alone on failure.

use std::ffi::c_char;
use std::ptr;

use engine::ops::{self, Convention, LineArg};

use super::ffi::{CError, cptr};
use super::ops_ffi::{
    EditOut, Line, OneFix, apply_model_content_fixes, insert, insert_content, one_fix, str_replace,
    str_replace_with, write,
};
use hunkloom_c::*;

/// A value no failing call may write.
const SENTINEL: usize = 0xDEAD;

fn sentinel<T>() -> *mut T {
    SENTINEL as *mut T
}

/// The engine's edit as the C accessors should show it.
fn edit_out(e: ops::Edit) -> EditOut {
    EditOut {
        content: e.new_content,
        replacements: e.replacements,
        normalizations: e
            .normalizations
            .iter()
            .map(|n| n.as_str().to_owned())
            .collect(),
        first_lines: (e.first_edit.start, e.first_edit.end),
    }
}

/// The engine's error as the C accessors should show it.
fn c_error(e: engine::Error) -> CError {
    CError {
        status: hunkloom_c::testing::status_of(e.kind()),
        code: e.code().to_owned(),
        message: e.message().to_owned(),
    }
}

fn engine_str_replace(
    content: Option<&str>,
    old: &str,
    new: &str,
    replace_all: bool,
    path: Option<&str>,
) -> Result<EditOut, CError> {
    ops::str_replace(content, old, new, replace_all, path)
        .map(edit_out)
        .map_err(c_error)
}

/// An old text and a new one that stands in for most of it with a placeholder line.
const OMITTING_OLD: &str = "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a + b + c\n";
const OMITTING_NEW: &str = "def f():\n    # ... existing code ...\n    return 0\n";

#[test]
fn str_replace_with_switches_the_omission_guard_and_defaults_as_str_replace() {
    let (old, new) = (OMITTING_OLD.as_bytes(), OMITTING_NEW.as_bytes());
    let guarded = str_replace_with(Some(old), old, new, None).expect("call");
    assert_eq!(guarded.expect_err("guarded").code, "omission_placeholder");
    let off = hl_str_replace_options {
        no_omission_guard: true,
        ..Default::default()
    };
    let written = str_replace_with(Some(old), old, new, Some(&off))
        .expect("call")
        .expect("unguarded");
    assert_eq!(written.content, OMITTING_NEW);
    let default = str_replace_with(Some(b"a b"), b"a", b"c", None)
        .expect("call")
        .expect("applies");
    assert_eq!(default.content, "c b");
}

/// `str_replace`'s arguments: content (`None`: missing), old, new, replace_all, path.
type StrReplaceCase<'a> = (Option<&'a str>, &'a str, &'a str, bool, Option<&'a str>);

#[test]
fn str_replace_carries_the_engines_edit_and_errors() {
    let curly = "say(\u{201C}hi\u{201D})\nit\u{2019}s\n";
    let cases: &[StrReplaceCase<'_>] = &[
        // Curly quotes in the file, straight ones from the model: the file's style is kept.
        (
            Some(curly),
            "say(\"hi\")",
            "say(\"bye\")",
            false,
            Some("a.py"),
        ),
        (Some(curly), "it's", "it's not", false, None),
        (Some("a  \nb\n"), "b", "c  ", false, Some("x.py")),
        (Some("a\nb\n"), "b", "c  ", false, Some("README.MD")),
        (Some("aaa"), "aa", "b", true, None),
        (Some("x\ny\nz\n"), "y", "", false, None),
        (Some("a\r\nb\r\n"), "a\nb", "c\nd", false, None),
        (
            Some("\u{1F680} go\n"),
            "\u{1F680}",
            "\u{1F6F8}",
            false,
            None,
        ),
        (Some("<function_results>x"), "<fnr>x", "<fnr>y", false, None),
        (None, "", "new file\n", false, None),
        (Some(""), "", "new file\n", false, None),
        (Some("  \n"), "", "new", false, None),
        // Errors.
        (Some("a"), "a", "a", false, None),
        (Some("a"), "", "b", false, None),
        (None, "a", "b", false, None),
        (Some("abc"), "x\ny", "z", false, None),
        (Some("a a a"), "a", "b", false, None),
        (Some(OMITTING_OLD), OMITTING_OLD, OMITTING_NEW, false, None),
    ];
    for &(content, old, new, all, path) in cases {
        let want = engine_str_replace(content, old, new, all, path);
        let got = str_replace(
            content.map(str::as_bytes),
            old.as_bytes(),
            new.as_bytes(),
            all,
            path.map(str::as_bytes),
        )
        .unwrap_or_else(|s| panic!("{content:?} {old:?}: status {s:?}"));
        assert_eq!(got, want, "{content:?} {old:?} {new:?}");
        let path_bytes = path.map(str::as_bytes).unwrap_or_default();
        let options = hl_str_replace_options {
            replace_all: all,
            path: cptr(path_bytes),
            path_len: path_bytes.len(),
            ..Default::default()
        };
        let with = str_replace_with(
            content.map(str::as_bytes),
            old.as_bytes(),
            new.as_bytes(),
            Some(&options),
        )
        .unwrap_or_else(|s| panic!("{content:?} {old:?}: status {s:?}"));
        assert_eq!(with, want, "with options: {content:?} {old:?} {new:?}");
    }
    // The ones the C test spells out.
    let e = str_replace(Some(b"abc"), b"x\ny", b"z", false, None).expect("call");
    let e = e.expect_err("not found");
    assert_eq!(
        (e.status, e.code.as_str()),
        (hl_status::EditRejected, "not_found")
    );
    assert_eq!(
        e.message,
        "String to replace not found in file.\nString: x\ny"
    );
    let ok = str_replace(
        Some(curly.as_bytes()),
        b"say(\"hi\")",
        b"say(\"bye\")",
        false,
        None,
    )
    .expect("call")
    .expect("applied");
    assert_eq!(ok.content, "say(\u{201C}bye\u{201D})\nit\u{2019}s\n");
    assert_eq!(ok.normalizations, ["curly_quotes"]);
    assert_eq!((ok.replacements, ok.first_lines), (1, (1, 1)));
}

#[test]
fn a_missing_file_is_not_an_empty_one() {
    // Missing: an old text is file_not_found. Empty: it is not found in the file.
    let missing = str_replace(None, b"a", b"b", false, None).expect("call");
    assert_eq!(missing.expect_err("missing").code, "file_not_found");
    let empty = str_replace(Some(b""), b"a", b"b", false, None).expect("call");
    assert_eq!(empty.expect_err("empty").code, "not_found");
    // `content_exists` true with (NULL, 0) is the existing empty file.
    let (mut edit, mut error) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: NULL with length 0 is allowed; live slices; local out-pointers.
    let status = unsafe {
        hl_str_replace(
            ptr::null(),
            0,
            true,
            cptr(b"a"),
            1,
            cptr(b"b"),
            1,
            false,
            ptr::null(),
            0,
            &mut edit,
            &mut error,
        )
    };
    assert_eq!(status, hl_status::EditRejected);
    assert!(edit.is_null());
    // SAFETY: the error came from the library and is freed once.
    unsafe { hl_error_free(error) };

    // Missing with content is contradictory: refused before anything else, nothing written.
    let (mut edit, mut error) = (sentinel(), sentinel());
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        hl_str_replace(
            cptr(b"x"),
            1,
            false,
            cptr(b""),
            0,
            cptr(b"y"),
            1,
            false,
            ptr::null(),
            0,
            &mut edit,
            &mut error,
        )
    };
    assert_eq!(
        (status, edit, error),
        (hl_status::OutOfRange, sentinel(), sentinel())
    );
    let mut text = sentinel();
    let mut edit_type = SENTINEL as hl_edit_type;
    let mut error = sentinel();
    // SAFETY: live slices; local out-pointers.
    let status = unsafe {
        hl_insert_content(
            cptr(b"x"),
            1,
            false,
            cptr(b"1"),
            1,
            cptr(b"y"),
            1,
            &mut text,
            &mut edit_type,
            &mut error,
        )
    };
    assert_eq!(status, hl_status::OutOfRange);
    assert_eq!((text, error), (sentinel(), sentinel()));
    assert_eq!(edit_type, SENTINEL as hl_edit_type);

    // Roo: a missing file is created; an existing empty one is modified.
    let created = insert_content(None, Line::Text(b"1"), Some(b"x"))
        .expect("call")
        .expect("ok");
    assert_eq!(created, ("x".to_owned(), HL_EDIT_TYPE_CREATE));
    let modified = insert_content(Some(b""), Line::Text(b"1"), Some(b"x"))
        .expect("call")
        .expect("ok");
    assert_eq!(modified, ("x\n".to_owned(), HL_EDIT_TYPE_MODIFY));
}

#[test]
fn insert_follows_both_conventions_and_rejects_unknown_values() {
    let file = "a\r\nb\r\n";
    for (convention, c) in [
        (HL_INSERT_BEFORE, Convention::Before),
        (HL_INSERT_AFTER, Convention::After),
    ] {
        for line in 0..=4 {
            let want = ops::insert(file, line, "x\ny", c)
                .map(edit_out)
                .map_err(c_error);
            let got = insert(file.as_bytes(), line, b"x\ny", convention).expect("call");
            assert_eq!(got, want, "{c} {line}");
        }
    }
    let after = insert(file.as_bytes(), 1, b"x", HL_INSERT_AFTER)
        .expect("call")
        .expect("ok");
    assert_eq!(after.content, "a\r\nx\r\nb\r\n");
    let before = insert(file.as_bytes(), 1, b"x", HL_INSERT_BEFORE)
        .expect("call")
        .expect("ok");
    assert_eq!(before.content, "x\r\na\r\nb\r\n");
    let e = insert(file.as_bytes(), 3, b"x", HL_INSERT_AFTER)
        .expect("call")
        .expect_err("past the end");
    assert_eq!(
        (e.status, e.code.as_str()),
        (hl_status::EditRejected, "invalid_line")
    );
    assert_eq!(
        e.message,
        "Invalid `insert_line` parameter: 3. It should be within the range of lines of the \
         file: [0, 2]"
    );
    let e = insert(file.as_bytes(), 1, b"x", 2)
        .expect("call")
        .expect_err("unknown convention");
    assert_eq!(
        (e.status, e.code.as_str()),
        (hl_status::InvalidOption, "invalid_convention")
    );
    assert_eq!(
        e.message,
        "unknown insert convention '2': expected one of before, after"
    );
}

#[test]
fn insert_content_reads_the_line_like_the_tool() {
    let original = "a\nb";
    let cases: &[(Line<'_>, LineArg)] = &[
        (Line::Text(b"2"), LineArg::Text("2".into())),
        (Line::Text(b" 2abc"), LineArg::Text(" 2abc".into())),
        (Line::Text(b"0"), LineArg::Text("0".into())),
        (Line::Text(b"-1"), LineArg::Text("-1".into())),
        (Line::Text(b"x"), LineArg::Text("x".into())),
        (Line::Text(b""), LineArg::Text(String::new())),
        (Line::Missing, LineArg::Missing),
        (Line::Number(1.5), LineArg::Number(1.5)),
        (Line::Number(-3.0), LineArg::Number(-3.0)),
        (Line::Number(f64::NAN), LineArg::Missing),
        (Line::Number(f64::INFINITY), LineArg::Number(f64::INFINITY)),
    ];
    for exists in [true, false] {
        let o = exists.then_some(original);
        for (line, arg) in cases {
            let want = ops::insert_content(o, arg.clone(), Some("X"))
                .map(|r| {
                    let t = match r.edit_type {
                        ops::EditType::Create => HL_EDIT_TYPE_CREATE,
                        _ => HL_EDIT_TYPE_MODIFY,
                    };
                    (r.new_content, t)
                })
                .map_err(c_error);
            let got = insert_content(o.map(str::as_bytes), *line, Some(b"X")).expect("call");
            assert_eq!(got, want, "{exists} {line:?}");
        }
    }
    // An omitted content is the empty text, as in Roo.
    let omitted = insert_content(Some(b"a"), Line::Text(b"1"), None).expect("call");
    assert_eq!(omitted.expect("ok").0, "\na");
}

#[test]
fn write_and_the_fixes_match_the_engine() {
    let cases: &[(&str, Option<&str>, Option<&str>)] = &[
        (
            "```js\nif (a &lt; b) go();\n```",
            Some("src/a.js"),
            Some("gpt-4o"),
        ),
        ("```\n&lt;a&gt;\n```", Some("x.xml"), Some("gpt-4o")),
        ("x &gt; 1\u{FFFD}", None, Some("claude-3")),
        ("x &gt; 1\u{FFFD}", None, None),
        ("x &gt; 1\u{FFFD}", Some(""), Some("")),
        ("plain", None, None),
    ];
    for &(text, path, model) in cases {
        let want = engine::fixes::write(text, path, model);
        let got = write(
            text.as_bytes(),
            path.map(str::as_bytes),
            model.map(str::as_bytes),
        )
        .expect("ok");
        assert_eq!(got.0, want.new_content, "{text:?}");
        assert_eq!(got.1, want.fixes_applied, "{text:?}");
        let want = engine::fixes::apply_model_content_fixes(text, model, path);
        let got = apply_model_content_fixes(
            text.as_bytes(),
            model.map(str::as_bytes),
            path.map(str::as_bytes),
        );
        assert_eq!(got, Ok(want));
        for (fix, f) in [
            (
                OneFix::StripMarkdownFences,
                engine::fixes::strip_markdown_fences as fn(&str) -> String,
            ),
            (
                OneFix::FixModelHtmlEscaping,
                engine::fixes::fix_model_html_escaping,
            ),
            (
                OneFix::RemoveInvalidChars,
                engine::fixes::remove_invalid_chars,
            ),
        ] {
            assert_eq!(one_fix(fix, text.as_bytes()), Ok(f(text)), "{fix:?}");
        }
    }
    let (content, names) = write("```\nx &amp; y\u{FFFD}\n```".as_bytes(), None, None).expect("ok");
    assert_eq!(content, "x & y");
    assert_eq!(
        names,
        [
            "strip_markdown_fences",
            "fix_model_html_escaping",
            "remove_invalid_chars"
        ]
    );
}

#[test]
fn invalid_utf8_in_any_text_is_a_status_and_writes_nothing() {
    let bad = &b"a\xff"[..];
    let ok = &b"a"[..];
    assert_eq!(
        str_replace(Some(bad), ok, b"b", false, None).err(),
        Some(hl_status::InvalidUtf8)
    );
    assert_eq!(
        str_replace(Some(ok), bad, b"b", false, None).err(),
        Some(hl_status::InvalidUtf8)
    );
    assert_eq!(
        str_replace(Some(ok), ok, bad, false, None).err(),
        Some(hl_status::InvalidUtf8)
    );
    assert_eq!(
        str_replace(Some(ok), ok, b"b", false, Some(bad)).err(),
        Some(hl_status::InvalidUtf8)
    );
    assert_eq!(
        insert(bad, 0, ok, HL_INSERT_AFTER).err(),
        Some(hl_status::InvalidUtf8)
    );
    assert_eq!(
        insert(ok, 0, bad, HL_INSERT_AFTER).err(),
        Some(hl_status::InvalidUtf8)
    );
    // UTF-8 is checked before the convention: no engine error for a bad text.
    assert_eq!(insert(ok, 0, bad, 9).err(), Some(hl_status::InvalidUtf8));
    for (original, line, content) in [
        (Some(bad), Line::Text(b"1"), Some(ok)),
        (Some(ok), Line::Text(b"\xc3"), Some(ok)),
        (Some(ok), Line::Text(b"1"), Some(bad)),
        (Some(ok), Line::Number(1.0), Some(bad)),
    ] {
        assert_eq!(
            insert_content(original, line, content).err(),
            Some(hl_status::InvalidUtf8),
            "{line:?}"
        );
    }
    assert_eq!(write(bad, None, None).err(), Some(hl_status::InvalidUtf8));
    assert_eq!(
        write(ok, Some(bad), None).err(),
        Some(hl_status::InvalidUtf8)
    );
    assert_eq!(
        write(ok, None, Some(bad)).err(),
        Some(hl_status::InvalidUtf8)
    );
    assert_eq!(
        apply_model_content_fixes(ok, Some(bad), None),
        Err(hl_status::InvalidUtf8)
    );
    assert_eq!(
        apply_model_content_fixes(ok, None, Some(bad)),
        Err(hl_status::InvalidUtf8)
    );
    for fix in [
        OneFix::StripMarkdownFences,
        OneFix::FixModelHtmlEscaping,
        OneFix::RemoveInvalidChars,
    ] {
        assert_eq!(one_fix(fix, bad), Err(hl_status::InvalidUtf8));
    }
}

#[test]
fn null_pointers_are_a_status_and_leave_out_parameters_alone() {
    let t = cptr(b"a");
    let null = ptr::null::<c_char>();
    let mut edit: *mut hl_edit = sentinel();
    let mut text: *mut hl_text = sentinel();
    let mut error: *mut hl_error = sentinel();
    let mut edit_type = SENTINEL as hl_edit_type;
    let mut fixes = SENTINEL as hl_fix;
    // SAFETY: every non-NULL pointer below is live; NULL ones are what is being tested.
    unsafe {
        let cases = [
            hl_str_replace(
                null, 1, true, t, 1, t, 1, true, null, 0, &mut edit, &mut error,
            ),
            hl_str_replace(
                t, 1, true, null, 1, t, 1, true, null, 0, &mut edit, &mut error,
            ),
            hl_str_replace(
                t, 1, true, t, 1, null, 1, true, null, 0, &mut edit, &mut error,
            ),
            hl_str_replace(t, 1, true, t, 1, t, 1, true, null, 1, &mut edit, &mut error),
            hl_str_replace(
                t,
                1,
                true,
                t,
                0,
                t,
                1,
                true,
                null,
                0,
                ptr::null_mut(),
                &mut error,
            ),
            hl_str_replace(
                t,
                1,
                true,
                t,
                0,
                t,
                1,
                true,
                null,
                0,
                &mut edit,
                ptr::null_mut(),
            ),
            hl_insert(null, 1, 0, t, 1, HL_INSERT_AFTER, &mut edit, &mut error),
            hl_insert(t, 1, 0, null, 1, HL_INSERT_AFTER, &mut edit, &mut error),
            hl_insert(t, 1, 0, t, 1, HL_INSERT_AFTER, ptr::null_mut(), &mut error),
            hl_insert(t, 1, 0, t, 1, HL_INSERT_AFTER, &mut edit, ptr::null_mut()),
            // With an unknown convention too: the NULL is found first, no error is made.
            hl_insert(t, 1, 0, t, 1, 9, ptr::null_mut(), &mut error),
            hl_insert_content(
                null,
                1,
                true,
                t,
                1,
                t,
                1,
                &mut text,
                &mut edit_type,
                &mut error,
            ),
            hl_insert_content(
                t,
                1,
                true,
                null,
                1,
                t,
                1,
                &mut text,
                &mut edit_type,
                &mut error,
            ),
            hl_insert_content(
                t,
                1,
                true,
                t,
                1,
                null,
                1,
                &mut text,
                &mut edit_type,
                &mut error,
            ),
            hl_insert_content(
                t,
                1,
                true,
                t,
                1,
                t,
                1,
                ptr::null_mut(),
                &mut edit_type,
                &mut error,
            ),
            hl_insert_content(
                t,
                1,
                true,
                t,
                1,
                t,
                1,
                &mut text,
                ptr::null_mut(),
                &mut error,
            ),
            hl_insert_content(
                t,
                1,
                true,
                t,
                1,
                t,
                1,
                &mut text,
                &mut edit_type,
                ptr::null_mut(),
            ),
            hl_insert_content_number(
                null,
                1,
                true,
                1.0,
                t,
                1,
                &mut text,
                &mut edit_type,
                &mut error,
            ),
            hl_insert_content_number(
                t,
                1,
                true,
                1.0,
                null,
                1,
                &mut text,
                &mut edit_type,
                &mut error,
            ),
            hl_insert_content_number(
                t,
                1,
                true,
                1.0,
                t,
                1,
                ptr::null_mut(),
                &mut edit_type,
                &mut error,
            ),
            hl_insert_content_number(
                t,
                1,
                true,
                1.0,
                t,
                1,
                &mut text,
                ptr::null_mut(),
                &mut error,
            ),
            hl_insert_content_number(
                t,
                1,
                true,
                1.0,
                t,
                1,
                &mut text,
                &mut edit_type,
                ptr::null_mut(),
            ),
            // A rejected line with no place for the error: NULL, not an engine status.
            hl_insert_content_number(
                t,
                1,
                true,
                -1.0,
                t,
                1,
                &mut text,
                &mut edit_type,
                ptr::null_mut(),
            ),
            hl_write(null, 1, null, 0, null, 0, &mut text, &mut fixes),
            hl_write(t, 1, null, 1, null, 0, &mut text, &mut fixes),
            hl_write(t, 1, null, 0, null, 1, &mut text, &mut fixes),
            hl_write(t, 1, null, 0, null, 0, ptr::null_mut(), &mut fixes),
            hl_write(t, 1, null, 0, null, 0, &mut text, ptr::null_mut()),
            hl_apply_model_content_fixes(null, 1, null, 0, null, 0, &mut text),
            hl_apply_model_content_fixes(t, 1, null, 1, null, 0, &mut text),
            hl_apply_model_content_fixes(t, 1, null, 0, null, 1, &mut text),
            hl_apply_model_content_fixes(t, 1, null, 0, null, 0, ptr::null_mut()),
            hl_strip_markdown_fences(null, 1, &mut text),
            hl_strip_markdown_fences(t, 1, ptr::null_mut()),
            hl_fix_model_html_escaping(null, 1, &mut text),
            hl_fix_model_html_escaping(t, 1, ptr::null_mut()),
            hl_remove_invalid_chars(null, 1, &mut text),
            hl_remove_invalid_chars(t, 1, ptr::null_mut()),
        ];
        for (i, status) in cases.into_iter().enumerate() {
            assert_eq!(status, hl_status::NullArgument, "case {i}");
        }
        assert_eq!((edit, text, error), (sentinel(), sentinel(), sentinel()));
        assert_eq!(edit_type, SENTINEL as hl_edit_type);
        assert_eq!(fixes, SENTINEL as hl_fix);

        // The accessors.
        let mut live = ptr::null_mut();
        let mut no_error = ptr::null_mut();
        assert_eq!(
            hl_str_replace(
                t,
                1,
                true,
                t,
                1,
                cptr(b"b"),
                1,
                false,
                null,
                0,
                &mut live,
                &mut no_error
            ),
            hl_status::Ok
        );
        let mut p = sentinel::<c_char>().cast_const();
        let mut n = SENTINEL;
        let mut range = hl_line_range {
            start: SENTINEL,
            end: SENTINEL,
        };
        let accessor_cases = [
            hl_edit_content(ptr::null(), &mut p, &mut n),
            hl_edit_content(live, ptr::null_mut(), &mut n),
            hl_edit_content(live, &mut p, ptr::null_mut()),
            hl_edit_replacements(ptr::null(), &mut n),
            hl_edit_replacements(live, ptr::null_mut()),
            hl_edit_normalization_count(ptr::null(), &mut n),
            hl_edit_normalization_count(live, ptr::null_mut()),
            hl_edit_normalization_name(ptr::null(), 0, &mut p, &mut n),
            hl_edit_normalization_name(live, 0, ptr::null_mut(), &mut n),
            hl_edit_normalization_name(live, 0, &mut p, ptr::null_mut()),
            hl_edit_first_line_range(ptr::null(), &mut range),
            hl_edit_first_line_range(live, ptr::null_mut()),
            hl_text_content(ptr::null(), &mut p, &mut n),
        ];
        for (i, status) in accessor_cases.into_iter().enumerate() {
            assert_eq!(status, hl_status::NullArgument, "accessor case {i}");
        }
        assert_eq!(
            hl_edit_normalization_name(live, 0, &mut p, &mut n),
            hl_status::OutOfRange,
            "no normalisation"
        );
        assert_eq!((p, n), (sentinel::<c_char>().cast_const(), SENTINEL));
        assert_eq!(
            range,
            hl_line_range {
                start: SENTINEL,
                end: SENTINEL
            }
        );
        hl_edit_free(live);

        let mut owned = ptr::null_mut();
        assert_eq!(hl_remove_invalid_chars(t, 1, &mut owned), hl_status::Ok);
        assert_eq!(
            hl_text_content(owned, ptr::null_mut(), &mut n),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_text_content(owned, &mut p, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!((p, n), (sentinel::<c_char>().cast_const(), SENTINEL));
        hl_text_free(owned);

        // The free functions accept NULL.
        hl_edit_free(ptr::null_mut());
        hl_text_free(ptr::null_mut());
    }
}

#[test]
fn a_null_pointer_with_length_zero_is_the_empty_text() {
    // Empty old and new on an existing empty file: old == new.
    let e = str_replace(Some(b""), b"", b"", false, None)
        .expect("call")
        .expect_err("same");
    assert_eq!(e.code, "old_equals_new");
    let mut text = ptr::null_mut();
    // SAFETY: NULL with length 0; local out-pointer.
    assert_eq!(
        unsafe { hl_strip_markdown_fences(ptr::null(), 0, &mut text) },
        hl_status::Ok
    );
    let (mut p, mut n) = (ptr::null(), SENTINEL);
    // SAFETY: live text; local out-pointers; the library hands out `n` bytes plus a NUL.
    unsafe {
        assert_eq!(hl_text_content(text, &mut p, &mut n), hl_status::Ok);
        assert_eq!(super::ffi::read_text(p, n).as_deref(), Ok(""));
        hl_text_free(text);
    }
}

#[test]
fn new_handles_cross_threads_as_documented() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<hl_edit>();
    send_sync::<hl_text>();
}

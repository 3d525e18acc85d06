//! The file layer and multi-file patches through the C ABI: `hl_workspace_*` on a temporary
//! directory (every refusal by status and code with nothing on disk changed, bytes kept, undo,
//! options, out-parameters left alone on failure, NULL arguments, invalid UTF-8 paths,
//! overlapping calls, panics) and `hl_apply_patch`'s C layer (the engine's plan carried over,
//! NULL and UTF-8 checks, option values, the partial policy's failure).

use std::collections::BTreeMap;
use std::ffi::c_char;
use std::path::Path;
use std::ptr;

use engine::patch::{PatchOptions, plan_patch};

use super::ffi::{CError, read_error, read_text};
use super::patch_ffi::{ChangeOut, apply_patch};
use hunkloom_c::*;

/// A value no failing call may write.
const SENTINEL: usize = 0x5E5E;

fn sentinel<T>() -> *mut T {
    SENTINEL as *mut T
}

fn c(s: &[u8]) -> (*const c_char, usize) {
    (s.as_ptr().cast(), s.len())
}

/// An open workspace on a fresh temporary directory, freed on drop.
struct Ws {
    dir: tempfile::TempDir,
    ws: *mut hl_workspace,
}

impl Ws {
    fn new() -> Ws {
        Ws::with(None)
    }

    fn with(options: Option<hl_workspace_options>) -> Ws {
        let dir = tempfile::tempdir().expect("temporary directory");
        let ws = open(dir.path(), options).expect("opens");
        Ws { dir, ws }
    }

    fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.path().join(name)
    }

    fn put(&self, name: &str, bytes: &[u8]) {
        std::fs::write(self.path(name), bytes).expect("writes");
    }

    fn get(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).expect("reads")
    }

    fn read(&self, path: &str) -> Result<String, CError> {
        let (p, n) = c(path.as_bytes());
        let (mut text, mut error) = (sentinel::<hl_text>(), sentinel::<hl_error>());
        // SAFETY: a live workspace and locals.
        let status = unsafe { hl_workspace_read(self.ws, p, n, &mut text, &mut error) };
        if status == hl_status::Ok {
            assert_eq!(error, sentinel(), "error written on success");
            let (mut t, mut len) = (ptr::null(), 0);
            // SAFETY: a live hl_text and locals.
            assert_eq!(
                unsafe { hl_text_content(text, &mut t, &mut len) },
                hl_status::Ok
            );
            // SAFETY: the library hands out `len` bytes plus a NUL.
            let s = unsafe { read_text(t, len) }.expect("text");
            // SAFETY: handed over by hl_workspace_read; freed once.
            unsafe { hl_text_free(text) };
            Ok(s)
        } else {
            assert_eq!(text, sentinel(), "text written on failure");
            Err(take_error(status, error))
        }
    }

    fn str_replace(&self, path: &str, old: &str, new: &str) -> Result<Outcome, CError> {
        let ((p, pn), (o, on), (n, nn)) =
            (c(path.as_bytes()), c(old.as_bytes()), c(new.as_bytes()));
        // SAFETY: a live workspace and locals.
        edit(|out, err| unsafe {
            hl_workspace_str_replace(self.ws, p, pn, o, on, n, nn, false, out, err)
        })
    }

    fn write(&self, path: &str, content: &str) -> Result<Outcome, CError> {
        let ((p, pn), (t, tn)) = (c(path.as_bytes()), c(content.as_bytes()));
        // SAFETY: a live workspace and locals.
        edit(|out, err| unsafe { hl_workspace_write(self.ws, p, pn, t, tn, out, err) })
    }

    fn insert(&self, path: &str, line: usize, text: &str, conv: u32) -> Result<Outcome, CError> {
        let ((p, pn), (t, tn)) = (c(path.as_bytes()), c(text.as_bytes()));
        // SAFETY: a live workspace and locals.
        edit(|out, err| unsafe { hl_workspace_insert(self.ws, p, pn, line, t, tn, conv, out, err) })
    }

    fn apply_diff(
        &self,
        path: &str,
        diff: &str,
        options: Option<hl_apply_options>,
    ) -> Result<Outcome, CError> {
        let ((p, pn), (d, dn)) = (c(path.as_bytes()), c(diff.as_bytes()));
        let opts = options.as_ref().map_or(ptr::null(), ptr::from_ref);
        // SAFETY: a live workspace and locals.
        edit(|out, err| unsafe { hl_workspace_apply_diff(self.ws, p, pn, d, dn, opts, out, err) })
    }

    fn undo(&self, path: &str) -> Result<Outcome, CError> {
        let (p, pn) = c(path.as_bytes());
        // SAFETY: a live workspace and locals.
        edit(|out, err| unsafe { hl_workspace_undo(self.ws, p, pn, out, err) })
    }
}

impl Drop for Ws {
    fn drop(&mut self) {
        // SAFETY: made by hl_workspace_open; freed once.
        unsafe { hl_workspace_free(self.ws) };
    }
}

fn open(root: &Path, options: Option<hl_workspace_options>) -> Result<*mut hl_workspace, CError> {
    let root = root.to_str().expect("UTF-8 temporary path");
    let (r, n) = c(root.as_bytes());
    let (mut ws, mut error) = (sentinel::<hl_workspace>(), sentinel::<hl_error>());
    let opts = options.as_ref().map_or(ptr::null(), ptr::from_ref);
    // SAFETY: locals.
    let status = unsafe { hl_workspace_open(r, n, opts, &mut ws, &mut error) };
    if status == hl_status::Ok {
        assert_eq!(error, sentinel(), "error written on success");
        Ok(ws)
    } else {
        assert_eq!(ws, sentinel(), "workspace written on failure");
        Err(take_error(status, error))
    }
}

/// Reads and frees the error a failing call handed over (it must have handed one over).
fn take_error(status: hl_status, error: *mut hl_error) -> CError {
    assert!(
        !error.is_null() && error != sentinel(),
        "{status:?} without an error"
    );
    let e = read_error(status, error).expect("error accessors");
    // SAFETY: handed over by the library; freed once.
    unsafe { hl_error_free(error) };
    e
}

/// What a `hl_edit_outcome` holds, read back through its accessors.
#[derive(Debug)]
struct Outcome {
    path: String,
    kind: String,
    changed: bool,
    content: Option<String>,
    encoding: String,
    /// `hl_edit_outcome_edit`: the replacements, when there is an edit report.
    replacements: Option<usize>,
    /// `hl_edit_outcome_result`: the block count, when there is a diff report.
    blocks: Option<usize>,
    /// `hl_edit_outcome_external_change`: the regions merged around.
    external: Vec<hl_external_change>,
}

fn edit(
    call: impl FnOnce(*mut *mut hl_edit_outcome, *mut *mut hl_error) -> hl_status,
) -> Result<Outcome, CError> {
    let (mut outcome, mut error) = (sentinel::<hl_edit_outcome>(), sentinel::<hl_error>());
    let status = call(&mut outcome, &mut error);
    if status != hl_status::Ok {
        assert_eq!(outcome, sentinel(), "outcome written on failure");
        return Err(take_error(status, error));
    }
    assert_eq!(error, sentinel(), "error written on success");
    let read = read_outcome(outcome);
    // SAFETY: handed over by the library; freed once.
    unsafe { hl_edit_outcome_free(outcome) };
    Ok(read)
}

fn read_outcome(o: *const hl_edit_outcome) -> Outcome {
    let text = |f: unsafe extern "C" fn(
        *const hl_edit_outcome,
        *mut *const c_char,
        *mut usize,
    ) -> hl_status| {
        let (mut p, mut n) = (ptr::null(), 0);
        // SAFETY: a live outcome and locals.
        assert_eq!(unsafe { f(o, &mut p, &mut n) }, hl_status::Ok);
        // SAFETY: the library hands out `n` bytes plus a NUL.
        unsafe { read_text(p, n) }.expect("text")
    };
    let (mut changed, mut exists) = (false, false);
    let (mut p, mut n) = (ptr::null(), 0);
    let (mut e, mut r) = (
        sentinel::<hl_edit>().cast_const(),
        sentinel::<hl_result>().cast_const(),
    );
    // SAFETY: a live outcome and locals.
    unsafe {
        assert_eq!(hl_edit_outcome_changed(o, &mut changed), hl_status::Ok);
        assert_eq!(
            hl_edit_outcome_content(o, &mut p, &mut n, &mut exists),
            hl_status::Ok
        );
        assert_eq!(hl_edit_outcome_edit(o, &mut e), hl_status::Ok);
        assert_eq!(hl_edit_outcome_result(o, &mut r), hl_status::Ok);
    }
    // SAFETY: the library hands out `n` bytes plus a NUL.
    let content = unsafe { read_text(p, n) }.expect("content");
    assert!(exists || content.is_empty());
    let replacements = (!e.is_null()).then(|| {
        let mut count = 0;
        // SAFETY: a borrowed, live hl_edit.
        assert_eq!(
            unsafe { hl_edit_replacements(e, &mut count) },
            hl_status::Ok
        );
        count
    });
    let blocks = (!r.is_null()).then(|| {
        let mut count = 0;
        // SAFETY: a borrowed, live hl_result.
        assert_eq!(
            unsafe { hl_result_block_count(r, &mut count) },
            hl_status::Ok
        );
        count
    });
    let mut count = usize::MAX;
    // SAFETY: a live outcome and a local.
    assert_eq!(
        unsafe { hl_edit_outcome_external_change_count(o, &mut count) },
        hl_status::Ok
    );
    let external = (0..count)
        .map(|i| {
            let mut change = hl_external_change::default();
            // SAFETY: as above.
            assert_eq!(
                unsafe { hl_edit_outcome_external_change(o, i, &mut change) },
                hl_status::Ok
            );
            change
        })
        .collect();
    let mut beyond = hl_external_change::default();
    // SAFETY: as above; an index past the end.
    assert_eq!(
        unsafe { hl_edit_outcome_external_change(o, count, &mut beyond) },
        hl_status::OutOfRange
    );
    Outcome {
        external,
        path: text(hl_edit_outcome_path),
        kind: text(hl_edit_outcome_kind),
        changed,
        content: exists.then_some(content),
        encoding: text(hl_edit_outcome_encoding),
        replacements,
        blocks,
    }
}

fn code(r: Result<impl std::fmt::Debug, CError>) -> (hl_status, String) {
    match r {
        Err(e) => (e.status, e.code),
        Ok(v) => panic!("expected an error, got {v:?}"),
    }
}

#[test]
fn read_edit_stale_undo_round_trip() {
    let w = Ws::new();
    // Create without a read, then every operation.
    let made = w.write("a.txt", "one\ntwo\n").expect("creates");
    assert_eq!((made.kind.as_str(), made.changed), ("create", true));
    assert_eq!(made.encoding, "utf-8");
    assert!(made.path.ends_with("a.txt") && Path::new(&made.path).is_absolute());
    assert_eq!(w.read("a.txt").expect("reads"), "one\ntwo\n");
    let o = w.str_replace("a.txt", "two", "TWO").expect("replaces");
    assert_eq!(
        (o.kind.as_str(), o.replacements, o.blocks),
        ("update", Some(1), None)
    );
    assert_eq!(o.content.as_deref(), Some("one\nTWO\n"));
    let o = w
        .insert("a.txt", 0, "zero", HL_INSERT_AFTER)
        .expect("inserts");
    assert_eq!(o.content.as_deref(), Some("zero\none\nTWO\n"));
    let diff = "------- SEARCH\none\n=======\nONE\n+++++++ REPLACE\n";
    let o = w.apply_diff("a.txt", diff, None).expect("applies");
    assert_eq!((o.replacements, o.blocks), (None, Some(1)));
    assert_eq!(w.get("a.txt"), b"zero\nONE\nTWO\n");
    // The same content again: nothing written.
    let o = w.write("a.txt", "zero\nONE\nTWO\n").expect("writes");
    assert!(!o.changed);

    // Changed behind the workspace's back: refused, nothing written.
    w.put("a.txt", b"other\n");
    assert_eq!(
        code(w.str_replace("a.txt", "other", "x")),
        (hl_status::StaleFile, "stale_file".into())
    );
    assert_eq!(w.get("a.txt"), b"other\n");
    // Never read: refused.
    w.put("b.txt", b"b\n");
    assert_eq!(
        code(w.write("b.txt", "c\n")),
        (hl_status::StaleFile, "not_read".into())
    );
    assert_eq!(w.get("b.txt"), b"b\n");
    // Undo after a fresh read and edit; then a second undo of the earlier no-op-free history.
    w.read("a.txt").expect("reads");
    w.str_replace("a.txt", "other", "again").expect("replaces");
    let o = w.undo("a.txt").expect("undoes");
    assert_eq!(o.content.as_deref(), Some("other\n"));
    assert_eq!(w.get("a.txt"), b"other\n");
    // Undo of a create removes the file: no content.
    w.write("new.txt", "n\n").expect("creates");
    let o = w.undo("new.txt").expect("undoes");
    assert_eq!((o.kind.as_str(), o.content), ("delete", None));
    assert!(!w.path("new.txt").exists());
    assert_eq!(
        code(w.undo("new.txt")),
        (hl_status::EditRejected, "nothing_to_undo".into())
    );
}

#[test]
fn an_edit_merges_around_lines_changed_since_the_read() {
    let w = Ws::new();
    let lines: Vec<String> = (1..=10).map(|i| format!("line {i}\n")).collect();
    w.put("a.txt", lines.concat().as_bytes());
    w.read("a.txt").expect("read");
    let mut changed = lines.clone();
    changed[1] = "line two, edited elsewhere\n".to_owned();
    w.put("a.txt", changed.concat().as_bytes());
    let outcome = w
        .str_replace("a.txt", "line 8\n", "line eight\n")
        .expect("merged");
    changed[7] = "line eight\n".to_owned();
    assert_eq!(w.get("a.txt"), changed.concat().into_bytes());
    assert_eq!(
        outcome.external,
        vec![hl_external_change {
            start: 2,
            count: 1,
            read_start: 2,
            read_count: 1
        }]
    );
    assert!(
        w.str_replace("a.txt", "line 9\n", "line nine\n")
            .expect("unchanged since")
            .external
            .is_empty()
    );
}

#[test]
fn refusals_carry_the_file_layers_codes() {
    let w = Ws::new();
    let refused = [
        (
            "../outside.txt",
            hl_status::PathRefused,
            "path_outside_root",
        ),
        ("/etc/passwd", hl_status::PathRefused, "path_outside_root"),
        ("//server/share/x", hl_status::PathRefused, "unc_path"),
        ("nb.ipynb", hl_status::PathRefused, "notebook_not_supported"),
        ("missing.txt", hl_status::EditRejected, "file_not_found"),
    ];
    for (path, status, want) in refused {
        assert_eq!(code(w.read(path)), (status, want.to_owned()), "{path}");
    }
    assert_eq!(
        code(w.write("../x.txt", "x")),
        (hl_status::PathRefused, "path_outside_root".into())
    );
    // Binary content: refused, untouched.
    w.put("binary.txt", b"caf\xe9\0\n");
    assert_eq!(
        code(w.read("binary.txt")),
        (hl_status::UnsupportedFile, "unsupported_encoding".into())
    );
    assert_eq!(w.get("binary.txt"), b"caf\xe9\0\n");
    // cp1251 text: read in its encoding; a character it lacks is refused.
    let text = "# Тестовый файл с кириллицей\nтекст = \"Привет, мир!\"\n";
    let cp1251 = hunkloom_testkit::cp1251(text);
    w.put("ru.txt", &cp1251);
    assert_eq!(w.read("ru.txt").expect("reads"), text);
    assert_eq!(
        code(w.str_replace("ru.txt", "Привет", "✓")),
        (hl_status::EditRejected, "unrepresentable_text".into())
    );
    assert_eq!(w.get("ru.txt"), cp1251);
    let strict = Ws::with(Some(hl_workspace_options {
        no_legacy_encodings: true,
        ..Default::default()
    }));
    strict.put("ru.txt", &cp1251);
    assert_eq!(
        code(strict.read("ru.txt")),
        (hl_status::UnsupportedFile, "unsupported_encoding".into())
    );
    // The operation's own codes, and an unknown convention or dialect.
    w.put("t.txt", b"a\n");
    w.read("t.txt").expect("reads");
    assert_eq!(
        code(w.str_replace("t.txt", "zzz", "y")),
        (hl_status::EditRejected, "not_found".into())
    );
    assert_eq!(
        code(w.insert("t.txt", 1, "x", 9)),
        (hl_status::InvalidOption, "invalid_convention".into())
    );
    let bad = hl_apply_options {
        dialect: 42,
        policy: 0,
        ..Default::default()
    };
    assert_eq!(
        code(w.apply_diff("t.txt", "", Some(bad))),
        (hl_status::InvalidOption, "invalid_dialect".into())
    );
    assert_eq!(w.get("t.txt"), b"a\n");
    // A missing root.
    let gone = w.path("no-such-dir");
    assert_eq!(
        code(open(&gone, None)),
        (hl_status::IoError, "io_error".into())
    );
}

#[test]
fn bytes_survive_crlf_bom_and_utf16() {
    let w = Ws::new();
    w.put("crlf.txt", b"a\r\nb\r\nc");
    w.read("crlf.txt").expect("reads");
    w.str_replace("crlf.txt", "a\nb", "A\nB").expect("replaces");
    assert_eq!(w.get("crlf.txt"), b"A\r\nB\r\nc");
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend("x\r\ny\r\n".encode_utf16().flat_map(u16::to_le_bytes));
    w.put("u16.txt", &utf16);
    assert_eq!(w.read("u16.txt").expect("reads"), "x\r\ny\r\n");
    let o = w.str_replace("u16.txt", "y", "z").expect("replaces");
    assert_eq!(o.encoding, "utf-16le");
    let mut want = vec![0xFF, 0xFE];
    want.extend("x\r\nz\r\n".encode_utf16().flat_map(u16::to_le_bytes));
    assert_eq!(w.get("u16.txt"), want);
    w.put("bom.txt", b"\xEF\xBB\xBFhi\n");
    w.read("bom.txt").expect("reads");
    assert_eq!(
        w.write("bom.txt", "ho\n").expect("writes").encoding,
        "utf-8-bom"
    );
    assert_eq!(w.get("bom.txt"), b"\xEF\xBB\xBFho\n");
}

#[test]
fn options_reach_the_file_layer() {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(dir.path().join(".clineignore"), "secret/\n").expect("writes");
    std::fs::write(dir.path().join("big.txt"), "12345").expect("writes");
    let name = b".clineignore";
    let options = hl_workspace_options {
        ignore_file: name.as_ptr().cast(),
        ignore_file_len: name.len(),
        max_file_size: 4,
        no_undo: true,
        ..Default::default()
    };
    let ws = open(dir.path(), Some(options)).expect("opens");
    let w = Ws { dir, ws };
    assert_eq!(
        code(w.read("secret/k.txt")),
        (hl_status::PathRefused, "path_ignored".into())
    );
    assert_eq!(
        code(w.read("big.txt")),
        (hl_status::UnsupportedFile, "file_too_large".into())
    );
    w.write("s.txt", "ok").expect("creates");
    assert_eq!(
        code(w.undo("s.txt")),
        (hl_status::EditRejected, "nothing_to_undo".into())
    );
    // The defaults: `.hunkloomignore`, and an undo history.
    let d = Ws::new();
    d.put(".hunkloomignore", b"*.log\n");
    let ws = open(d.dir.path(), None).expect("opens");
    let again = Ws {
        dir: tempfile::tempdir().expect("spare"),
        ws,
    };
    assert_eq!(
        code(again.read(d.path("x.log").to_str().expect("UTF-8"))).1,
        "path_ignored"
    );
    // The root accessor: canonical.
    let (mut p, mut n) = (ptr::null(), 0);
    // SAFETY: a live workspace and locals.
    assert_eq!(
        unsafe { hl_workspace_root(w.ws, &mut p, &mut n) },
        hl_status::Ok
    );
    // SAFETY: the library hands out `n` bytes plus a NUL.
    let root = unsafe { read_text(p, n) }.expect("root");
    assert_eq!(
        Path::new(&root),
        std::fs::canonicalize(w.dir.path()).expect("canonical")
    );
}

#[test]
fn null_arguments_and_invalid_utf8() {
    let w = Ws::new();
    w.put("a.txt", b"a\n");
    let bad = b"a\xff.txt";
    let (mut text, mut error) = (sentinel::<hl_text>(), sentinel::<hl_error>());
    let (mut out, mut ws) = (sentinel::<hl_edit_outcome>(), sentinel::<hl_workspace>());
    // SAFETY: every pointer is NULL, a local, or a live workspace; lengths match.
    unsafe {
        // Invalid UTF-8 paths (and root, and ignore-file name): refused before any file access.
        assert_eq!(
            hl_workspace_read(w.ws, bad.as_ptr().cast(), bad.len(), &mut text, &mut error),
            hl_status::InvalidUtf8
        );
        assert_eq!(
            hl_workspace_write(
                w.ws,
                bad.as_ptr().cast(),
                bad.len(),
                ptr::null(),
                0,
                &mut out,
                &mut error
            ),
            hl_status::InvalidUtf8
        );
        assert_eq!(
            hl_workspace_str_replace(
                w.ws,
                c"a.txt".as_ptr(),
                5,
                bad.as_ptr().cast(),
                bad.len(),
                ptr::null(),
                0,
                false,
                &mut out,
                &mut error
            ),
            hl_status::InvalidUtf8
        );
        assert_eq!(
            hl_workspace_undo(w.ws, bad.as_ptr().cast(), bad.len(), &mut out, &mut error),
            hl_status::InvalidUtf8
        );
        assert_eq!(
            hl_workspace_open(
                bad.as_ptr().cast(),
                bad.len(),
                ptr::null(),
                &mut ws,
                &mut error
            ),
            hl_status::InvalidUtf8
        );
        let opts = hl_workspace_options {
            ignore_file: bad.as_ptr().cast(),
            ignore_file_len: bad.len(),
            ..Default::default()
        };
        let root = w.dir.path().to_str().expect("UTF-8");
        assert_eq!(
            hl_workspace_open(root.as_ptr().cast(), root.len(), &opts, &mut ws, &mut error),
            hl_status::InvalidUtf8
        );
        // NULL handles, out-parameters, and texts with a length.
        assert_eq!(
            hl_workspace_read(ptr::null_mut(), c"a.txt".as_ptr(), 5, &mut text, &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_read(w.ws, ptr::null(), 5, &mut text, &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_read(w.ws, c"a.txt".as_ptr(), 5, ptr::null_mut(), &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_read(w.ws, c"a.txt".as_ptr(), 5, &mut text, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_write(
                w.ws,
                c"a.txt".as_ptr(),
                5,
                ptr::null(),
                3,
                &mut out,
                &mut error
            ),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_insert(
                w.ws,
                c"a.txt".as_ptr(),
                5,
                0,
                c"x".as_ptr(),
                1,
                0,
                ptr::null_mut(),
                &mut error
            ),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_apply_diff(
                ptr::null_mut(),
                c"a.txt".as_ptr(),
                5,
                ptr::null(),
                0,
                ptr::null(),
                &mut out,
                &mut error
            ),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_undo(w.ws, c"a.txt".as_ptr(), 5, &mut out, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_open(ptr::null(), 1, ptr::null(), &mut ws, &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_open(c".".as_ptr(), 1, ptr::null(), ptr::null_mut(), &mut error),
            hl_status::NullArgument
        );
        let (mut p, mut n) = (sentinel::<c_char>().cast_const(), SENTINEL);
        assert_eq!(
            hl_workspace_root(ptr::null(), &mut p, &mut n),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_root(w.ws, ptr::null_mut(), &mut n),
            hl_status::NullArgument
        );
        assert_eq!((p, n), (sentinel::<c_char>().cast_const(), SENTINEL));
        let mut b = true;
        assert_eq!(
            hl_edit_outcome_changed(ptr::null(), &mut b),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_edit_outcome_content(ptr::null(), &mut p, &mut n, &mut b),
            hl_status::NullArgument
        );
        hl_workspace_free(ptr::null_mut());
        hl_edit_outcome_free(ptr::null_mut());
    }
    // Nothing was written by any failing call, and nothing changed on disk.
    assert_eq!(
        (text, error, out, ws),
        (sentinel(), sentinel(), sentinel(), sentinel())
    );
    assert_eq!(w.get("a.txt"), b"a\n");
    assert_eq!(
        code(w.write("a.txt", "b\n")),
        (hl_status::StaleFile, "not_read".into())
    );
}

#[test]
fn threads_calling_at_once_all_land_and_a_panic_retires() {
    let w = Ws::new();
    // Sixteen lines with a blank line between each two, so no two edits are adjacent.
    let text: String = (0..16).map(|i| format!("line {i}\n\n")).collect();
    w.put("a.txt", text.as_bytes());
    assert_eq!(w.read("a.txt").expect("reads"), text);
    /// The workspace, shared by the threads below.
    struct Across<'a>(&'a Ws);
    // SAFETY: an `hl_workspace` may be called from many threads at once (its documented
    // contract, which this test checks); `Ws` only holds its pointer and a directory.
    unsafe impl Sync for Across<'_> {}
    let across = Across(&w);
    let results: Vec<_> = std::thread::scope(|s| {
        let across = &across;
        let threads: Vec<_> = (0..16)
            .map(|i| {
                s.spawn(move || {
                    across
                        .0
                        .str_replace("a.txt", &format!("line {i}\n"), &format!("LINE {i}\n"))
                        .map(drop)
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("thread"))
            .collect()
    });
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(w.get("a.txt"), text.replace("line", "LINE").into_bytes());
    // Two threads editing the same line: the first lands, the second is stale_file.
    let results: Vec<_> = std::thread::scope(|s| {
        let across = &across;
        let threads: Vec<_> = ["x", "y"]
            .into_iter()
            .map(|who| {
                s.spawn(move || {
                    across
                        .0
                        .str_replace("a.txt", "LINE 7\n", &format!("{who}\n"))
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("thread"))
            .collect()
    });
    let codes: Vec<_> = results
        .into_iter()
        .filter_map(|r| r.err())
        .map(|e| code(Err::<(), _>(e)))
        .collect();
    assert_eq!(codes.len(), 1, "{codes:?}");
    assert!(
        codes[0] == (hl_status::StaleFile, "stale_file".into())
            || codes[0] == (hl_status::EditRejected, "not_found".into()),
        "{codes:?}"
    );
    w.put("a.txt", b"a\n");
    assert_eq!(w.read("a.txt").expect("reads"), "a\n");
    // SAFETY: a live workspace for the whole test.
    let handle = unsafe { hunkloom_c::testing::workspace_handle(w.ws) };

    handle.inject_panic();
    let (p, pn) = c(b"a.txt");
    let (mut out, mut error) = (sentinel::<hl_edit_outcome>(), sentinel::<hl_error>());
    // SAFETY: a live workspace and locals.
    let status = unsafe { hl_workspace_write(w.ws, p, pn, p, pn, &mut out, &mut error) };
    assert_eq!(status, hl_status::Panic);
    assert_eq!((out, error), (sentinel(), sentinel()));
    assert_eq!(w.get("a.txt"), b"a\n");
    // Retired from then on (not busy: the call ended); freeing is still fine (on drop).
    let (mut text, mut error) = (sentinel::<hl_text>(), sentinel::<hl_error>());
    // SAFETY: a live workspace and locals.
    let status = unsafe { hl_workspace_read(w.ws, p, pn, &mut text, &mut error) };
    assert_eq!(status, hl_status::Panic);
    assert_eq!(handle.phase(), hunkloom_handle::Phase::Retired);
}

#[test]
fn apply_patch_carries_the_engines_plan() {
    let files = [
        ("a.txt", "one\r\ntwo\r\n"),
        ("gone.txt", "bye\n"),
        ("old.txt", "x\n"),
    ];
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** Delete File: gone.txt\n\
                 *** Add File: n.txt\n+new\n*** Update File: old.txt\n*** Move to: moved.txt\n@@\n-x\n+y\n*** End Patch\n";
    let out = apply_patch(patch, &files, None)
        .expect("C layer")
        .expect("applies");
    let map: BTreeMap<String, String> = files
        .iter()
        .map(|(p, c)| (p.to_string(), c.to_string()))
        .collect();
    let mut want = map.clone();
    let plan = plan_patch(patch, &map, &PatchOptions::default()).expect("plans");
    let deleted = plan.apply_to(&mut want);
    assert_eq!(out.files, want.into_iter().collect::<Vec<_>>());
    assert_eq!(out.deleted, deleted);
    assert_eq!(out.files[0], ("a.txt".into(), "one\r\nTWO\r\n".into()));
    assert_eq!(out.changes.len(), plan.changes.len());
    assert_eq!(
        out.changes[3],
        ChangeOut {
            path: "old.txt".into(),
            kind: HL_PATCH_CHANGE_UPDATE,
            content: "y\n".into(),
            move_to: Some("moved.txt".into()),
            start_lines: vec![1],
        }
    );
    assert_eq!(out.changes[1].kind, HL_PATCH_CHANGE_DELETE);
    assert_eq!(out.changes[2].kind, HL_PATCH_CHANGE_ADD);
    assert_eq!(
        (out.fuzz, out.warnings.len(), out.failure.is_none()),
        (0, 0, true)
    );

    // Refusals: the engine's code and message.
    let e = apply_patch(
        "*** Begin Patch\n*** Update File: nope\n@@\n-a\n+b\n*** End Patch\n",
        &files,
        None,
    )
    .expect("C layer")
    .expect_err("refused");
    let engine = plan_patch(
        "*** Begin Patch\n*** Update File: nope\n@@\n-a\n+b\n*** End Patch\n",
        &map,
        &PatchOptions::default(),
    )
    .expect_err("refused");
    assert_eq!(
        (e.status, e.code.as_str(), e.message.as_str()),
        (hl_status::EditRejected, engine.code(), engine.message())
    );
    let e = apply_patch("not a patch", &[], None)
        .expect("C layer")
        .expect_err("refused");
    assert_eq!(e.code, "invalid_patch");
    // A path given twice in `files` is refused, whichever entry the patch would have read.
    let twice = [("a.txt", "one\n"), ("b.txt", "b\n"), ("a.txt", "two\n")];
    let e = apply_patch(patch, &twice, None)
        .expect("C layer")
        .expect_err("refused");
    assert_eq!(
        (e.status, e.code.as_str(), e.message.as_str()),
        (
            hl_status::EditRejected,
            "duplicate_patch_path",
            "the file a.txt is given twice in files"
        )
    );
    for (options, code) in [
        (
            hl_patch_options {
                dialect: 99,
                policy: 0,
                recount: false,
            },
            "invalid_dialect",
        ),
        (
            hl_patch_options {
                dialect: 0,
                policy: 5,
                recount: false,
            },
            "invalid_policy",
        ),
    ] {
        let e = apply_patch(patch, &files, Some(options))
            .expect("C layer")
            .expect_err("refused");
        assert_eq!(
            (e.status, e.code.as_str()),
            (hl_status::InvalidOption, code)
        );
    }

    // The partial policy keeps the hunks before the failure and reports it.
    let partial = hl_patch_options {
        dialect: HL_PATCH_DIALECT_CODEX,
        policy: HL_POLICY_PARTIAL,
        recount: false,
    };
    let failing = "*** Begin Patch\n*** Add File: n.txt\n+new\n*** Update File: a.txt\n@@\n-zzz\n+y\n*** End Patch\n";
    let out = apply_patch(failing, &files, Some(partial))
        .expect("C layer")
        .expect("plans");
    let (hunk, e) = out.failure.expect("a failure");
    assert_eq!((hunk, e.code.as_str()), (1, "patch_context_not_found"));
    assert!(out.files.iter().any(|(p, c)| p == "n.txt" && c == "new\n"));
    assert_eq!(out.changes.len(), 1);
}

#[test]
fn apply_patch_null_arguments_and_invalid_utf8() {
    let patch = b"*** Begin Patch\n*** Add File: n\n+x\n*** End Patch\n";
    let bad = b"p\xff";
    let good = hl_patch_file {
        path: c"a".as_ptr(),
        path_len: 1,
        content: ptr::null(),
        content_len: 0,
    };
    let cases: Vec<(Vec<hl_patch_file>, usize, &[u8], hl_status)> = vec![
        (vec![], 2, patch, hl_status::NullArgument),
        (
            vec![hl_patch_file {
                path: bad.as_ptr().cast(),
                path_len: 2,
                ..good
            }],
            1,
            patch,
            hl_status::InvalidUtf8,
        ),
        (
            vec![hl_patch_file {
                content: bad.as_ptr().cast(),
                content_len: 2,
                ..good
            }],
            1,
            patch,
            hl_status::InvalidUtf8,
        ),
        (
            vec![hl_patch_file {
                path: ptr::null(),
                path_len: 1,
                ..good
            }],
            1,
            patch,
            hl_status::NullArgument,
        ),
        (
            vec![good],
            1,
            b"*** Begin Patch\n\xff",
            hl_status::InvalidUtf8,
        ),
        (vec![good], usize::MAX, patch, hl_status::OutOfRange),
    ];
    for (files, count, text, want) in cases {
        let (mut result, mut error) = (sentinel::<hl_patch_result>(), sentinel::<hl_error>());
        let f = if files.is_empty() {
            ptr::null()
        } else {
            files.as_ptr()
        };
        // SAFETY: `count` exceeds `files` only where the call must refuse before reading.
        let status = unsafe {
            hl_apply_patch(
                text.as_ptr().cast(),
                text.len(),
                f,
                count,
                ptr::null(),
                &mut result,
                &mut error,
            )
        };
        assert_eq!(status, want, "{count} {:?}", String::from_utf8_lossy(text));
        assert_eq!((result, error), (sentinel(), sentinel()));
    }
    // SAFETY: NULL out-parameters; nothing is read past the stated lengths.
    unsafe {
        let mut error = sentinel::<hl_error>();
        assert_eq!(
            hl_apply_patch(
                patch.as_ptr().cast(),
                patch.len(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
                &mut error
            ),
            hl_status::NullArgument
        );
        let mut result = sentinel::<hl_patch_result>();
        assert_eq!(
            hl_apply_patch(
                patch.as_ptr().cast(),
                patch.len(),
                ptr::null(),
                0,
                ptr::null(),
                &mut result,
                ptr::null_mut()
            ),
            hl_status::NullArgument
        );
        let mut n = SENTINEL;
        assert_eq!(
            hl_patch_result_file_count(ptr::null(), &mut n),
            hl_status::NullArgument
        );
        let mut hunk = SENTINEL;
        assert_eq!(
            hl_patch_result_failure(ptr::null(), &mut hunk, &mut error),
            hl_status::NullArgument
        );
        assert_eq!((n, hunk, error), (SENTINEL, SENTINEL, sentinel()));
        hl_patch_result_free(ptr::null_mut());
    }
}

/// What `hl_workspace_apply_patch` gave: the files, their count, the failing hunk and code.
type PatchApplied = (Vec<PatchedOut>, usize, Option<(usize, String)>);

/// A `hl_patched_file` read back: (path, moved_from, kind, old, new, encoding, changed).
type PatchedOut = (
    String,
    Option<String>,
    String,
    Option<String>,
    Option<String>,
    String,
    bool,
);

/// `hl_workspace_apply_patch`: the changed files and the fuzz, or the error.
fn ws_apply_patch(
    w: &Ws,
    patch: &str,
    options: Option<hl_patch_options>,
) -> Result<PatchApplied, CError> {
    let (p, n) = c(patch.as_bytes());
    let (mut outcome, mut error) = (sentinel::<hl_patch_outcome>(), sentinel::<hl_error>());
    let opts = options.as_ref().map_or(ptr::null(), ptr::from_ref);
    // SAFETY: a live workspace and locals.
    let status = unsafe { hl_workspace_apply_patch(w.ws, p, n, opts, &mut outcome, &mut error) };
    if status != hl_status::Ok {
        assert_eq!(outcome, sentinel(), "outcome written on failure");
        return Err(take_error(status, error));
    }
    assert_eq!(error, sentinel(), "error written on success");
    let (mut count, mut warnings, mut fuzz) = (0, 0, 1);
    // SAFETY: a live outcome and locals.
    unsafe {
        assert_eq!(
            hl_patch_outcome_file_count(outcome, &mut count),
            hl_status::Ok
        );
        assert_eq!(
            hl_patch_outcome_warning_count(outcome, &mut warnings),
            hl_status::Ok
        );
        assert_eq!(hl_patch_outcome_fuzz(outcome, &mut fuzz), hl_status::Ok);
    }
    let mut files = Vec::new();
    for i in 0..=count {
        // SAFETY: zeroed is a valid hl_patched_file (NULL pointers, false, 0).
        let mut f: hl_patched_file = unsafe { std::mem::zeroed() };
        // SAFETY: a live outcome and a local.
        let status = unsafe { hl_patch_outcome_file(outcome, i, &mut f) };
        if i == count {
            assert_eq!((status, f.path), (hl_status::OutOfRange, ptr::null()));
            break;
        }
        assert_eq!(status, hl_status::Ok);
        let opt = |present: bool, p: *const c_char, n: usize| {
            // SAFETY: the library hands out `n` bytes plus a NUL.
            let t = unsafe { read_text(p, n) }.expect("text");
            assert!(present || t.is_empty());
            present.then_some(t)
        };
        // SAFETY: the library hands out `len` bytes plus a NUL for each text.
        let text = |p, n| unsafe { read_text(p, n) }.expect("text");
        let resolved = text(f.resolved, f.resolved_len);
        assert!(Path::new(&resolved).is_absolute());
        files.push((
            text(f.path, f.path_len),
            opt(f.has_moved_from, f.moved_from, f.moved_from_len),
            text(f.kind, f.kind_len),
            opt(f.has_old_content, f.old_content, f.old_content_len),
            opt(f.has_new_content, f.new_content, f.new_content_len),
            text(f.encoding, f.encoding_len),
            f.changed,
        ));
    }
    let (mut hunk, mut failure) = (SENTINEL, sentinel::<hl_error>());
    // SAFETY: a live outcome and locals.
    assert_eq!(
        unsafe { hl_patch_outcome_failure(outcome, &mut hunk, &mut failure) },
        hl_status::Ok
    );
    let failure = (!failure.is_null()).then(|| (hunk, take_error(hl_status::Ok, failure).code));
    // SAFETY: handed over by hl_workspace_apply_patch; freed once.
    unsafe { hl_patch_outcome_free(outcome) };
    assert_eq!((fuzz, warnings), (0, 0));
    Ok((files, count, failure))
}

#[test]
fn workspace_apply_patch_commits_all_or_nothing() {
    let w = Ws::new();
    w.put("app.py", b"def greet():\r\n    print('hi')\r\n");
    w.put("old.txt", b"bye\n");
    let patch = "*** Begin Patch\n*** Update File: app.py\n@@ def greet():\n-    print('hi')\n+    print('hello')\n\
                 *** Delete File: old.txt\n*** Add File: notes.md\n+changed\n*** End Patch\n";
    let (files, count, failure) = ws_apply_patch(&w, patch, None).expect("applies");
    assert_eq!((count, failure), (3, None));
    assert_eq!(
        files[0],
        (
            "app.py".into(),
            None,
            "update".into(),
            Some("def greet():\r\n    print('hi')\r\n".into()),
            Some("def greet():\r\n    print('hello')\r\n".into()),
            "utf-8".into(),
            true
        )
    );
    assert_eq!(
        (files[1].2.as_str(), files[1].4.as_deref()),
        ("delete", None)
    );
    assert_eq!(
        (files[2].2.as_str(), files[2].3.as_deref()),
        ("create", None)
    );
    assert_eq!(w.get("app.py"), b"def greet():\r\n    print('hello')\r\n");
    assert!(!w.path("old.txt").exists());
    assert_eq!(w.get("notes.md"), b"changed\n");
    // Written files count as read and can be undone.
    w.undo("app.py").expect("undoes");
    assert_eq!(w.get("app.py"), b"def greet():\r\n    print('hi')\r\n");

    // A failing hunk: nothing written.
    let failing = "*** Begin Patch\n*** Add File: x.txt\n+x\n*** Update File: app.py\n@@\n-nope\n+y\n*** End Patch\n";
    assert_eq!(
        code(ws_apply_patch(&w, failing, None)),
        (hl_status::EditRejected, "patch_context_not_found".into())
    );
    assert!(!w.path("x.txt").exists());
    // The partial policy commits the hunks before it and reports it.
    let partial = hl_patch_options {
        dialect: HL_PATCH_DIALECT_CODEX,
        policy: HL_POLICY_PARTIAL,
        recount: false,
    };
    let (_, count, failure) = ws_apply_patch(&w, failing, Some(partial)).expect("partial");
    assert_eq!(
        (count, failure),
        (1, Some((1, "patch_context_not_found".into())))
    );
    assert_eq!(w.get("x.txt"), b"x\n");
    // A file read here and changed since: stale; a path outside the root: refused.
    w.read("notes.md").expect("reads");
    w.put("notes.md", b"other\n");
    let p = "*** Begin Patch\n*** Update File: notes.md\n@@\n-other\n+more\n*** End Patch\n";
    assert_eq!(
        code(ws_apply_patch(&w, p, None)),
        (hl_status::StaleFile, "stale_file".into())
    );
    let p = "*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch\n";
    assert_eq!(
        code(ws_apply_patch(&w, p, None)),
        (hl_status::PathRefused, "path_outside_root".into())
    );
    assert_eq!(
        code(ws_apply_patch(
            &w,
            p,
            Some(hl_patch_options {
                dialect: 9,
                policy: 0,
                recount: false,
            })
        ))
        .1,
        "invalid_dialect"
    );

    // NULL arguments and invalid UTF-8: nothing written.
    let (mut outcome, mut error) = (sentinel::<hl_patch_outcome>(), sentinel::<hl_error>());
    let bad = b"*** Begin Patch\n\xff";
    // SAFETY: NULL or live pointers with their stated lengths.
    unsafe {
        assert_eq!(
            hl_workspace_apply_patch(
                w.ws,
                bad.as_ptr().cast(),
                bad.len(),
                ptr::null(),
                &mut outcome,
                &mut error
            ),
            hl_status::InvalidUtf8
        );
        assert_eq!(
            hl_workspace_apply_patch(
                ptr::null_mut(),
                p.as_ptr().cast(),
                p.len(),
                ptr::null(),
                &mut outcome,
                &mut error
            ),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_apply_patch(
                w.ws,
                p.as_ptr().cast(),
                p.len(),
                ptr::null(),
                ptr::null_mut(),
                &mut error
            ),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_workspace_apply_patch(w.ws, ptr::null(), 4, ptr::null(), &mut outcome, &mut error),
            hl_status::NullArgument
        );
        let mut n = SENTINEL;
        assert_eq!(
            hl_patch_outcome_file_count(ptr::null(), &mut n),
            hl_status::NullArgument
        );
        assert_eq!(n, SENTINEL);
        hl_patch_outcome_free(ptr::null_mut());
    }
    assert_eq!((outcome, error), (sentinel(), sentinel()));
}

#[test]
fn a_patch_reports_the_regions_it_was_merged_around_per_file() {
    let w = Ws::new();
    let lines: Vec<String> = (1..=10).map(|i| format!("line {i}\n")).collect();
    w.put("a.txt", lines.concat().as_bytes());
    w.read("a.txt").expect("read");
    let mut changed = lines.clone();
    changed[1] = "line two, edited elsewhere\n".to_owned();
    w.put("a.txt", changed.concat().as_bytes());
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n line 7\n-line 8\n+line eight\n*** End Patch\n";
    let (p, n) = c(patch.as_bytes());
    let (mut outcome, mut error) = (sentinel::<hl_patch_outcome>(), sentinel::<hl_error>());
    // SAFETY: a live workspace and locals.
    let status =
        unsafe { hl_workspace_apply_patch(w.ws, p, n, ptr::null(), &mut outcome, &mut error) };
    assert_eq!(status, hl_status::Ok);
    changed[7] = "line eight\n".to_owned();
    assert_eq!(w.get("a.txt"), changed.concat().into_bytes());
    let (mut count, mut change) = (SENTINEL, hl_external_change::default());
    // SAFETY: a live outcome and locals.
    unsafe {
        assert_eq!(
            hl_patch_outcome_external_change_count(outcome, 0, &mut count),
            hl_status::Ok
        );
        assert_eq!(count, 1);
        assert_eq!(
            hl_patch_outcome_external_change(outcome, 0, 0, &mut change),
            hl_status::Ok
        );
        let mut untouched = hl_external_change::default();
        assert_eq!(
            hl_patch_outcome_external_change(outcome, 0, 1, &mut untouched),
            hl_status::OutOfRange
        );
        let mut none = SENTINEL;
        assert_eq!(
            hl_patch_outcome_external_change_count(outcome, 1, &mut none),
            hl_status::OutOfRange
        );
        assert_eq!((untouched, none), (hl_external_change::default(), SENTINEL));
        assert_eq!(
            hl_patch_outcome_external_change_count(outcome, 0, ptr::null_mut()),
            hl_status::NullArgument
        );
        hl_patch_outcome_free(outcome);
    }
    assert_eq!(
        change,
        hl_external_change {
            start: 2,
            count: 1,
            read_start: 2,
            read_count: 1
        }
    );
}

#[test]
fn the_omission_guard_and_the_kept_reads_are_options() {
    let old = "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a + b + c\n";
    let new = "def f():\n    # ... existing code ...\n    return 0\n";
    let guarded = Ws::new();
    guarded.put("f.py", old.as_bytes());
    guarded.read("f.py").expect("read");
    for refused in [
        guarded.write("f.py", new),
        guarded.str_replace("f.py", old, new),
    ] {
        assert_eq!(
            code(refused),
            (hl_status::EditRejected, "omission_placeholder".into())
        );
    }
    assert_eq!(guarded.get("f.py"), old.as_bytes());
    let unguarded = Ws::with(Some(hl_workspace_options {
        no_omission_guard: true,
        ..Default::default()
    }));
    unguarded.put("f.py", old.as_bytes());
    unguarded.read("f.py").expect("read");
    unguarded.write("f.py", new).expect("written as given");
    assert_eq!(unguarded.get("f.py"), new.as_bytes());

    // No kept read: an edit of a file changed since its read is refused, not merged.
    let strict = Ws::with(Some(hl_workspace_options {
        no_kept_read: true,
        ..Default::default()
    }));
    strict.put("a.txt", b"one\ntwo\nthree\nfour\nfive\n");
    strict.read("a.txt").expect("read");
    strict.put("a.txt", b"ONE\ntwo\nthree\nfour\nfive\n");
    assert_eq!(
        code(strict.str_replace("a.txt", "five\n", "5\n")),
        (hl_status::StaleFile, "stale_file".into())
    );
}

#[test]
fn protected_paths_and_globs() {
    let globs = b".env*\nkeys/**\n";
    let w = Ws::with(Some(hl_workspace_options {
        protect: globs.as_ptr().cast(),
        protect_len: globs.len(),
        ..Default::default()
    }));
    std::fs::create_dir(w.path(".git")).expect("mkdir");
    w.put(".git/config", b"[core]\n");
    w.put(".env", b"KEY=1\n");
    assert_eq!(w.read(".git/config").expect("reads"), "[core]\n");
    assert_eq!(
        code(w.write(".git/config", "x\n")),
        (hl_status::PathRefused, "path_protected".into())
    );
    assert_eq!(w.read(".env").expect("reads"), "KEY=1\n");
    assert_eq!(
        code(w.write(".env", "KEY=2\n")),
        (hl_status::PathRefused, "path_protected".into())
    );
    assert_eq!(w.get(".git/config"), b"[core]\n");
    let off = Ws::with(Some(hl_workspace_options {
        no_protect_defaults: true,
        ..Default::default()
    }));
    std::fs::create_dir(off.path(".git")).expect("mkdir");
    assert!(off.write(".git/config", "[core]\n").is_ok());
    let bad = b"[z-a]";
    let err = open(
        off.dir.path(),
        Some(hl_workspace_options {
            protect: bad.as_ptr().cast(),
            protect_len: bad.len(),
            ..Default::default()
        }),
    )
    .expect_err("invalid glob");
    assert_eq!(
        (err.status, err.code.as_str()),
        (hl_status::InvalidOption, "invalid_glob")
    );
}

#[test]
fn damaged_calls_are_refused_and_replays_change_nothing_through_the_abi() {
    let w = Ws::new();
    let body: String = std::iter::once("def main():\n".to_owned())
        .chain((0..30).map(|i| format!("    step_{i}()\n")))
        .collect();
    w.put("app.py", body.as_bytes());
    w.read("app.py").expect("reads");
    assert_eq!(
        code(w.write("app.py", "def main():\n    step_0(")),
        (hl_status::EditRejected, "suspected_truncation".into())
    );
    assert_eq!(
        code(w.str_replace("app.py", "    step_1()\n", "[... 9 lines truncated ...]\n")),
        (hl_status::EditRejected, "truncation_notice".into())
    );
    assert_eq!(w.get("app.py"), body.as_bytes());
    let first = w
        .str_replace("app.py", "    step_1()\n", "    step_1(x=1)\n")
        .expect("edit");
    assert!(first.changed);
    let again = w
        .str_replace("app.py", "    step_1()\n", "    step_1(x=1)\n")
        .expect("replay");
    assert!(!again.changed);
    assert_eq!(again.replacements, Some(0));
    let off = Ws::with(Some(hl_workspace_options {
        no_damaged_call_guard: true,
        ..Default::default()
    }));
    off.put("app.py", body.as_bytes());
    off.read("app.py").expect("reads");
    off.write("app.py", "def main():\n    step_0(")
        .expect("the guard is off");
}

//! The text-editor tool through the C ABI: every case of the text-editor corpora's main and
//! crash sets replayed through `hl_text_editor_new` / `hl_text_editor_call` with the input and
//! the result as JSON text (printing `text-editor-<set>: N/M passed`, as the Rust runner
//! `crates/hunkloom-tools/tests/text_editor_vectors.rs` does), then what the C layer adds: the
//! JSON in and out, statuses and codes, NULL arguments, invalid UTF-8, out-parameters left
//! alone, options, overlapping calls, panics and the schema.
//!
//! The same cases again with every call streamed through `hl_text_editor_stream_*`: the call's
//! JSON (non-ASCII as is and as `\uXXXX` escapes) pushed whole, a character at a time, in the
//! runners' seeded random pieces, or in seeded random byte runs that cut UTF-8 characters; the
//! updates must rebuild the preview, the preview before finish must be the text the call leaves
//! (none for a failure, `view` and `undo_edit`), and finish must give what the call gives. Each
//! case is streamed in one of the eight forms, in turn; `HUNKLOOM_TE_STREAM=all` streams every
//! case in all eight.
//!
//! The `*-differences` sets document where hunkloom keeps bytes a reference rewrites; the Rust
//! runner checks that behaviour on the core, and nothing in it depends on the C layer.

use std::ffi::c_char;
use std::path::Path;
use std::ptr;

use hunkloom_testkit::text_editor::{
    CorpusSet, TEXT_EDITOR_CORPORA, TextEditorCase, fresh_root, load_text_editor_corpus,
    materialize, read_tree, tree_difference, with_root, without_root,
};
use hunkloom_testkit::{Chunking, SEED, json_text, split_random_bytes};
use serde_json::{Value, json};

use super::ffi::{CError, push_pieces, read_error, stream_text, take_text};
use hunkloom_c::*;

/// A value no failing call may write.
const SENTINEL: usize = 0x5E5E;

fn sentinel<T>() -> *mut T {
    SENTINEL as *mut T
}

fn c(s: &[u8]) -> (*const c_char, usize) {
    (s.as_ptr().cast(), s.len())
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

/// An editor made through `hl_text_editor_new`, freed on drop.
struct Editor {
    ptr: *mut hl_text_editor,
}

impl Editor {
    fn new(
        root: &Path,
        profile: hl_profile,
        options: Option<hl_text_editor_options>,
    ) -> Result<Editor, CError> {
        let root = root.to_str().expect("UTF-8 temporary path");
        let (r, n) = c(root.as_bytes());
        let (mut editor, mut error) = (sentinel::<hl_text_editor>(), sentinel::<hl_error>());
        let opts = options.as_ref().map_or(ptr::null(), ptr::from_ref);
        // SAFETY: locals.
        let status = unsafe { hl_text_editor_new(r, n, profile, opts, &mut editor, &mut error) };
        if status == hl_status::Ok {
            assert_eq!(error, sentinel(), "error written on success");
            Ok(Editor { ptr: editor })
        } else {
            assert_eq!(editor, sentinel(), "editor written on failure");
            Err(take_error(status, error))
        }
    }

    /// One call with `input` as JSON text; the result's JSON parsed back.
    fn call_text(&self, input: &[u8]) -> Result<Value, CError> {
        let (p, n) = c(input);
        let (mut result, mut error) = (sentinel::<hl_text>(), sentinel::<hl_error>());
        // SAFETY: a live editor and locals.
        let status = unsafe { hl_text_editor_call(self.ptr, p, n, &mut result, &mut error) };
        if status == hl_status::Ok {
            assert_eq!(error, sentinel(), "error written on success");
            Ok(serde_json::from_str(&take_text(result)).expect("the result is JSON"))
        } else {
            assert_eq!(result, sentinel(), "result written on failure");
            Err(take_error(status, error))
        }
    }

    /// One call streamed in `form`, its preview checked; the finish's result parsed back.
    fn stream(&self, input: &Value, form: Form) -> Result<Value, String> {
        let text = json_text(input, form.ascii);
        let pieces: Vec<&[u8]> = match form.cut {
            Cut::Chars(chunking) => chunking
                .split(&text)
                .into_iter()
                .map(str::as_bytes)
                .collect(),
            Cut::Bytes => split_random_bytes(text.as_bytes(), SEED),
        };
        let mut stream = sentinel::<hl_edit_stream>();
        // SAFETY: a live editor and a local.
        assert_eq!(
            unsafe { hl_text_editor_stream_new(self.ptr, &mut stream) },
            hl_status::Ok
        );
        let rebuilt = push_pieces(stream, pieces);
        let preview = stream_text(stream, HL_STREAM_PREVIEW);
        let (mut result, mut error) = (sentinel::<hl_text>(), sentinel::<hl_error>());
        // SAFETY: a live stream and locals.
        let status = unsafe { hl_text_editor_stream_finish(stream, &mut result, &mut error) };
        // SAFETY: made by hl_text_editor_stream_new, freed once.
        unsafe { hl_text_editor_stream_free(stream) };
        assert_eq!(status, hl_status::Ok);
        let result: Value = serde_json::from_str(&take_text(result)).expect("the result is JSON");
        if preview.as_deref().unwrap_or_default().as_bytes() != rebuilt {
            return Err(format!(
                "the updates give {:?}, the preview is {preview:?}",
                String::from_utf8_lossy(&rebuilt)
            ));
        }
        let edit = matches!(
            input["command"].as_str(),
            Some("create" | "str_replace" | "insert")
        );
        let left = match (&result["new_content"], result["is_error"] == true || !edit) {
            (_, true) => None,
            (Value::String(text), false) => Some(text.clone()),
            _ => input["path"]
                .as_str()
                .and_then(|p| std::fs::read_to_string(p).ok()),
        };
        if preview != left {
            return Err(format!(
                "the preview before finish is {preview:?}, the call left {left:?}"
            ));
        }
        Ok(result)
    }

    fn call(&self, input: &Value) -> Value {
        self.call_text(input.to_string().as_bytes())
            .unwrap_or_else(|e| panic!("call failed for {input}: {e:?}"))
    }
}

impl Drop for Editor {
    fn drop(&mut self) {
        // SAFETY: made by hl_text_editor_new, freed once.
        unsafe { hl_text_editor_free(self.ptr) };
    }
}

fn profile_value(name: &str) -> hl_profile {
    match name {
        "anthropic" => HL_PROFILE_ANTHROPIC,
        "openhands" => HL_PROFILE_OPENHANDS,
        "native" => HL_PROFILE_NATIVE,
        other => panic!("unknown profile {other}"),
    }
}

/// How a stream's pieces are cut.
#[derive(Clone, Copy, Debug)]
enum Cut {
    Chars(Chunking),
    Bytes,
}

/// One way of streaming a call: the cut, and whether non-ASCII characters are escaped.
#[derive(Clone, Copy, Debug)]
struct Form {
    cut: Cut,
    ascii: bool,
}

const FORMS: [Form; 8] = {
    const fn form(cut: Cut, ascii: bool) -> Form {
        Form { cut, ascii }
    }
    [
        form(Cut::Chars(Chunking::Whole), false),
        form(Cut::Chars(Chunking::Whole), true),
        form(Cut::Chars(Chunking::Char), false),
        form(Cut::Chars(Chunking::Char), true),
        form(Cut::Chars(Chunking::Random(SEED)), false),
        form(Cut::Chars(Chunking::Random(SEED)), true),
        form(Cut::Bytes, false),
        form(Cut::Bytes, true),
    ]
};

/// `Err(why)` at the first call that does not give what the case records; `form`: each call
/// streamed so.
fn run_case(case: &TextEditorCase, form: Option<Form>) -> Result<(), String> {
    let (_dir, root) = fresh_root();
    materialize(&root, &case.tree);
    let editor = Editor::new(&root, profile_value(&case.profile), None)
        .map_err(|e| format!("hl_text_editor_new: {e:?}"))?;
    let root_text = root.to_string_lossy();
    let mut before = case.tree.clone();
    for (i, expected) in case.calls.iter().enumerate() {
        let at = format!("#{i} ({})", expected.kind);
        let input = with_root(&expected.input, &root_text);
        let result = match form {
            None => editor.call(&input),
            Some(form) => editor
                .stream(&input, form)
                .map_err(|e| format!("{at} streamed {form:?}: {e}"))?,
        };
        let output = without_root(result["output"].as_str().ok_or("no output")?, &root_text);
        let is_error = result["is_error"].as_bool().ok_or("no is_error")?;
        let code = result["code"].as_str().ok_or("no code")?;
        let tree = read_tree(&root);
        if case.crash_call == Some(i) {
            if !is_error || output.is_empty() {
                return Err(format!("{at}: not an error result: {output:?}"));
            }
            return match tree_difference(&before, &tree) {
                Some(diff) => Err(format!("{at}: the tree changed: {diff}")),
                None => Ok(()),
            };
        }
        let want = expected.output.as_deref().unwrap_or_default();
        if output != want {
            return Err(format!("{at}: output\n  want {want:?}\n  got  {output:?}"));
        }
        if Some(is_error) != expected.is_error {
            return Err(format!(
                "{at}: is_error: want {:?}, got {is_error}",
                expected.is_error
            ));
        }
        if is_error == code.is_empty() {
            return Err(format!(
                "{at}: code {code:?} does not fit is_error {is_error}"
            ));
        }
        if let Some(diff) = tree_difference(&expected.tree, &tree) {
            return Err(format!("{at}: tree: {diff}"));
        }
        before = tree;
    }
    Ok(())
}

#[test]
fn text_editor_vectors_through_the_c_api() {
    let mut failures = Vec::new();
    for name in TEXT_EDITOR_CORPORA {
        if CorpusSet::of(name) == CorpusSet::Differences {
            continue;
        }
        let cases = load_text_editor_corpus(name);
        assert!(!cases.is_empty(), "{name}");
        let mut passed = 0;
        for case in &cases {
            match run_case(case, None) {
                Ok(()) => passed += 1,
                Err(why) => failures.push(format!("{} {why}", case.id)),
            }
        }
        let label = name
            .trim_start_matches("text-editor/")
            .trim_end_matches(".jsonl");
        println!("text-editor-{label}: {passed}/{} passed", cases.len());
        let every = std::env::var("HUNKLOOM_TE_STREAM").is_ok_and(|v| v == "all");
        let (mut passed, mut total) = (0, 0);
        for (n, case) in cases.iter().enumerate() {
            let forms = if every {
                &FORMS[..]
            } else {
                std::slice::from_ref(&FORMS[n % FORMS.len()])
            };
            for &form in forms {
                total += 1;
                match run_case(case, Some(form)) {
                    Ok(()) => passed += 1,
                    Err(why) => failures.push(format!("{} {why}", case.id)),
                }
            }
        }
        println!("text-editor-{label} streamed: {passed}/{total} passed");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn results_cross_as_json_objects() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let editor = Editor::new(dir.path(), HL_PROFILE_DEFAULT, None).expect("opens");
    let created = editor.call(&json!({"command": "create", "path": "a.txt", "file_text": "x\r\n"}));
    let path = created["path"].as_str().expect("path").to_owned();
    assert_eq!(
        created,
        json!({"output": format!("File created successfully at: {path}"), "is_error": false,
               "code": "", "path": path, "old_content": null, "new_content": "x\r\n"})
    );
    // `native` (the default): an edit needs a view first; the model's "\n" matches "\r\n".
    let edit = json!({"command": "str_replace", "path": "a.txt", "old_str": "x", "new_str": "y"});
    editor.call(&json!({"command": "view", "path": "a.txt"}));
    let edited = editor.call(&edit);
    assert_eq!(edited["is_error"], false);
    assert_eq!(
        (&edited["old_content"], &edited["new_content"]),
        (&json!("x\r\n"), &json!("y\r\n"))
    );
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("reads"),
        b"y\r\n"
    );
    // The same call again is a replay: done, nothing changed.
    let replay = editor.call(&edit);
    assert_eq!(replay["is_error"], false);
    assert!(
        replay["output"]
            .as_str()
            .is_some_and(|o| o.contains("already has this edit"))
    );
    // A model's mistake is a result.
    let missing = editor.call(
        &json!({"command": "str_replace", "path": "a.txt", "old_str": "zzz", "new_str": "q"}),
    );
    assert_eq!(
        (&missing["is_error"], &missing["code"]),
        (&json!(true), &json!("not_found"))
    );
    let none = editor.call(&json!({"command": "view"}));
    assert_eq!(
        (&none["code"], &none["path"]),
        (&json!("missing_parameter"), &Value::Null)
    );
    // Text that is not JSON, or JSON that is not an object, is the host's mistake.
    let refused: [(&[u8], &str); 4] = [
        (b"{\"command\": ", "not JSON"),
        (b"[\"view\"]", "not an array"),
        (b"", "not JSON"),
        (b"null", "not null"),
    ];
    for (input, words) in refused {
        let e = editor.call_text(input).expect_err("refused");
        assert_eq!(
            (e.status, e.code.as_str()),
            (hl_status::InvalidOption, "invalid_input")
        );
        assert!(e.message.contains(words), "{}", e.message);
    }
    // Reads still work afterwards: a refused input changes nothing.
    assert_eq!(
        editor.call(&json!({"command": "view", "path": "a.txt"}))["is_error"],
        false
    );
}

#[test]
fn options_and_profiles() {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(dir.path().join("big.txt"), "x".repeat(100)).expect("writes");
    std::fs::write(dir.path().join("a.txt"), "a\n").expect("writes");
    let small = hl_text_editor_options {
        max_file_size: 50,
        ..Default::default()
    };
    let editor = Editor::new(dir.path(), HL_PROFILE_NATIVE, Some(small)).expect("opens");
    let view = editor.call(&json!({"command": "view", "path": "big.txt"}));
    assert_eq!(view["code"], "file_too_large");

    let edit = json!({"command": "str_replace", "path": "a.txt", "old_str": "a", "new_str": "b"});
    let no_read = hl_text_editor_options {
        require_read: HL_REQUIRE_READ_NO,
        ..Default::default()
    };
    let editor = Editor::new(dir.path(), HL_PROFILE_DEFAULT, Some(no_read)).expect("opens");
    assert_eq!(editor.call(&edit)["is_error"], false);
    let read = hl_text_editor_options {
        require_read: HL_REQUIRE_READ_YES,
        ..Default::default()
    };
    // The reference profiles need absolute paths; with the option they also need a view.
    let editor = Editor::new(dir.path(), HL_PROFILE_ANTHROPIC, Some(read)).expect("opens");
    let root = dir.path().canonicalize().expect("root");
    let absolute = root.join("a.txt").to_string_lossy().into_owned();
    let edit = json!({"command": "str_replace", "path": absolute, "old_str": "b", "new_str": "c"});
    assert_eq!(editor.call(&edit)["code"], "not_read");
    let relative = editor.call(&json!({"command": "view", "path": "a.txt"}));
    assert_eq!(relative["code"], "relative_path");

    let e = Editor::new(dir.path(), 4, None).err().expect("refused");
    assert_eq!(
        (e.status, e.code.as_str()),
        (hl_status::InvalidOption, "invalid_profile")
    );
    assert!(e.message.contains("'4'"), "{}", e.message);
    let e = Editor::new(&dir.path().join("nope"), HL_PROFILE_DEFAULT, None)
        .err()
        .expect("refused");
    assert_eq!(
        (e.status, e.code.as_str()),
        (hl_status::IoError, "io_error")
    );
}

#[test]
fn null_arguments_invalid_utf8_and_out_of_range() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let root = dir.path().to_str().expect("UTF-8").as_bytes().to_vec();
    let (r, rn) = c(&root);
    let (mut editor, mut error) = (sentinel::<hl_text_editor>(), sentinel::<hl_error>());
    let bad_opts = hl_text_editor_options {
        require_read: 9,
        ..Default::default()
    };
    // SAFETY: every pointer is NULL, a local or a live buffer of the given length.
    unsafe {
        assert_eq!(
            hl_text_editor_new(r, rn, 0, ptr::null(), ptr::null_mut(), &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_text_editor_new(r, rn, 0, ptr::null(), &mut editor, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_text_editor_new(ptr::null(), 3, 0, ptr::null(), &mut editor, &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_text_editor_new(c(b"\xff").0, 1, 0, ptr::null(), &mut editor, &mut error),
            hl_status::InvalidUtf8
        );
        assert_eq!(
            hl_text_editor_new(r, rn, 0, &bad_opts, &mut editor, &mut error),
            hl_status::OutOfRange
        );
    }
    assert_eq!((editor, error), (sentinel(), sentinel()));

    let live = Editor::new(dir.path(), HL_PROFILE_DEFAULT, None).expect("opens");
    let input = br#"{"command": "view", "path": "."}"#;
    let (i, n) = c(input);
    let mut result = sentinel::<hl_text>();
    // SAFETY: as above.
    unsafe {
        assert_eq!(
            hl_text_editor_call(ptr::null_mut(), i, n, &mut result, &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_text_editor_call(live.ptr, i, n, ptr::null_mut(), &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_text_editor_call(live.ptr, i, n, &mut result, ptr::null_mut()),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_text_editor_call(live.ptr, ptr::null(), 2, &mut result, &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_text_editor_call(live.ptr, c(b"\"\xff\"").0, 3, &mut result, &mut error),
            hl_status::InvalidUtf8
        );
        assert_eq!(
            hl_text_editor_schema(0, ptr::null(), 0, ptr::null_mut(), &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_text_editor_schema(0, ptr::null(), 1, &mut result, &mut error),
            hl_status::NullArgument
        );
        assert_eq!(
            hl_text_editor_schema(0, c(b"\xff").0, 1, &mut result, &mut error),
            hl_status::InvalidUtf8
        );
        hl_text_editor_free(ptr::null_mut());
    }
    assert_eq!((result, error), (sentinel(), sentinel()));
    // `(NULL, 0)` is the empty text: not JSON, the host's mistake.
    let (mut result, mut error) = (sentinel::<hl_text>(), sentinel::<hl_error>());
    // SAFETY: a live editor and locals.
    let status = unsafe { hl_text_editor_call(live.ptr, ptr::null(), 0, &mut result, &mut error) };
    assert_eq!(take_error(status, error).code, "invalid_input");
    assert_eq!(result, sentinel());
}

#[test]
fn threads_calling_at_once_all_land_and_a_panic_retires() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let editor = Editor::new(dir.path(), HL_PROFILE_DEFAULT, None).expect("opens");
    let text: String = (0..8).map(|i| format!("line {i}\n\n")).collect();
    std::fs::write(dir.path().join("a.txt"), &text).expect("writes");
    let view = json!({"command": "view", "path": "a.txt"});
    assert_eq!(editor.call(&view)["is_error"], false);
    /// The editor, shared by the threads below.
    struct Across<'a>(&'a Editor);
    // SAFETY: an `hl_text_editor` may be called from many threads at once (its documented
    // contract, which this test checks); `Editor` only holds its pointer.
    unsafe impl Sync for Across<'_> {}
    let across = Across(&editor);
    let results: Vec<Value> = std::thread::scope(|s| {
        let across = &across;
        let threads: Vec<_> = (0..8)
            .map(|i| {
                s.spawn(move || {
                    across
                        .0
                        .call(&json!({"command": "str_replace", "path": "a.txt",
                        "old_str": format!("line {i}\n"), "new_str": format!("LINE {i}\n")}))
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("thread"))
            .collect()
    });
    for result in &results {
        assert_eq!(result["is_error"], false, "{result}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).expect("reads"),
        text.replace("line", "LINE")
    );
    // SAFETY: a live editor for the whole test.
    let handle = unsafe { hunkloom_c::testing::text_editor_handle(editor.ptr) };

    handle.inject_panic();
    let create = json!({"command": "create", "path": "b.txt", "file_text": "x"}).to_string();
    let (i, n) = c(create.as_bytes());
    let (mut result, mut error) = (sentinel::<hl_text>(), sentinel::<hl_error>());
    // SAFETY: a live editor and locals.
    let status = unsafe { hl_text_editor_call(editor.ptr, i, n, &mut result, &mut error) };
    assert_eq!(status, hl_status::Panic);
    assert_eq!((result, error), (sentinel(), sentinel()));
    assert!(!dir.path().join("b.txt").exists());
    // Retired from then on; freeing is still fine (on drop).
    // SAFETY: a live editor and locals.
    let status = unsafe { hl_text_editor_call(editor.ptr, i, n, &mut result, &mut error) };
    assert_eq!(status, hl_status::Panic);
    assert_eq!(handle.phase(), hunkloom_handle::Phase::Retired);
}

#[test]
fn schemas_per_profile() {
    let schema = |profile: hl_profile, name: &[u8]| -> Result<Value, CError> {
        let (p, n) = c(name);
        let (mut text, mut error) = (sentinel::<hl_text>(), sentinel::<hl_error>());
        // SAFETY: locals and a live buffer.
        let status = unsafe { hl_text_editor_schema(profile, p, n, &mut text, &mut error) };
        if status == hl_status::Ok {
            assert_eq!(error, sentinel());
            Ok(serde_json::from_str(&take_text(text)).expect("JSON"))
        } else {
            assert_eq!(text, sentinel());
            Err(take_error(status, error))
        }
    };
    let commands = |v: &Value| v["input_schema"]["properties"]["command"]["enum"].clone();
    for (value, profile, name) in [
        (
            HL_PROFILE_DEFAULT,
            hunkloom_tools::Profile::Native,
            "str_replace_based_edit_tool",
        ),
        (
            HL_PROFILE_NATIVE,
            hunkloom_tools::Profile::Native,
            "str_replace_based_edit_tool",
        ),
        (
            HL_PROFILE_ANTHROPIC,
            hunkloom_tools::Profile::Anthropic,
            "str_replace_editor",
        ),
        (
            HL_PROFILE_OPENHANDS,
            hunkloom_tools::Profile::OpenHands,
            "str_replace_editor",
        ),
    ] {
        let got = schema(value, b"").expect("schema");
        assert_eq!(got, hunkloom_tools::schema(profile));
        assert_eq!(got["name"], name);
    }
    let newest = schema(HL_PROFILE_ANTHROPIC, b"str_replace_based_edit_tool").expect("schema");
    assert_eq!(newest["name"], "str_replace_based_edit_tool");
    assert_eq!(
        commands(&newest),
        json!(["view", "create", "str_replace", "insert"])
    );
    let e = schema(7, b"").expect_err("unknown profile");
    assert_eq!(
        (e.status, e.code.as_str()),
        (hl_status::InvalidOption, "invalid_profile")
    );
}

#[test]
fn the_editor_crosses_threads_as_documented() {
    fn send_sync<T: Send + Sync>() {}
    fn unwind_safe<T: std::panic::UnwindSafe + std::panic::RefUnwindSafe>() {}
    // Sync: an overlapping call from another thread is refused, not a race.
    send_sync::<hl_text_editor>();
    unwind_safe::<hl_text_editor>();
    send_sync::<hl_text_editor_options>();
}

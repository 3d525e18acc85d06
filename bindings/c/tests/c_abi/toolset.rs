//! The toolsets through the C ABI: every case of the toolset corpora replayed through
//! `hl_toolset_new` / `hl_toolset_call` with inputs and results as JSON text (printing
//! `toolset-<set>: N/M passed`, as the Rust runner does), then every other case again with
//! its calls streamed through `hl_toolset_stream_new` in seeded random byte runs (which cut
//! UTF-8 characters; non-ASCII as is and as `\uXXXX` escapes, in turn; the Rust runner streams
//! every case in six forms), the updates rebuilding the preview and
//! the preview before finish being the text the call leaves; then `hl_toolset_tools`, an
//! unknown profile and a non-object input.

use std::ffi::c_char;
use std::ptr;

use hunkloom_testkit::toolsets::{
    Answer, Replayed, TOOLSET_CORPORA, ToolsetCase, load_toolset_corpus, replay,
};
use hunkloom_testkit::{SEED, json_text, split_random_bytes};
use serde_json::{Value, json};

use super::ffi::{CError, push_pieces, read_error, stream_text, take_text};
use hunkloom_c::*;

fn c(s: &str) -> (*const c_char, usize) {
    (s.as_ptr().cast(), s.len())
}

fn take_error(status: hl_status, error: *mut hl_error) -> CError {
    let e = read_error(status, error).expect("error accessors");
    // SAFETY: handed over by the library; freed once.
    unsafe { hl_error_free(error) };
    e
}

/// A toolset over `root` as `profile`, or the error.
fn open(root: &str, profile: &str) -> Result<*mut hl_toolset, CError> {
    let (r, rl) = c(root);
    let (p, pl) = c(profile);
    let (mut t, mut e) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: valid buffers and out-parameters.
    let status = unsafe { hl_toolset_new(r, rl, p, pl, ptr::null(), &mut t, &mut e) };
    match status {
        hl_status::Ok => Ok(t),
        s => Err(take_error(s, e)),
    }
}

/// One call; the result object.
fn call(t: *mut hl_toolset, name: &str, input: &str) -> Result<Value, CError> {
    let (n, nl) = c(name);
    let (i, il) = c(input);
    let (mut out, mut e) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: a live toolset, valid buffers and out-parameters.
    let status = unsafe { hl_toolset_call(t, n, nl, i, il, &mut out, &mut e) };
    match status {
        hl_status::Ok => Ok(serde_json::from_str(&take_text(out)).expect("JSON")),
        s => Err(take_error(s, e)),
    }
}

/// One call whose JSON (non-ASCII escaped when `ascii`) is pushed in seeded random byte runs
/// through `hl_toolset_stream_new`; the result object once the preview is checked.
fn streamed(t: *mut hl_toolset, name: &str, input: &Value, ascii: bool) -> Result<Value, String> {
    let text = json_text(input, ascii);
    let (n, nl) = c(name);
    let mut stream = ptr::null_mut();
    // SAFETY: a live toolset, a valid buffer and a local.
    let status = unsafe { hl_toolset_stream_new(t, n, nl, &mut stream) };
    assert_eq!(status, hl_status::Ok);
    let rebuilt = push_pieces(stream, split_random_bytes(text.as_bytes(), SEED));
    let preview = stream_text(stream, HL_STREAM_PREVIEW);
    let (mut out, mut e) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: a live stream and locals.
    let status = unsafe { hl_text_editor_stream_finish(stream, &mut out, &mut e) };
    // SAFETY: made above, freed once.
    unsafe { hl_text_editor_stream_free(stream) };
    assert_eq!(status, hl_status::Ok);
    let result: Value = serde_json::from_str(&take_text(out)).expect("JSON");
    if preview.as_deref().unwrap_or_default().as_bytes() != rebuilt {
        return Err(format!("the updates do not give the preview {preview:?}"));
    }
    if preview.is_some()
        && (result["is_error"] == true || result["new_content"].as_str() != preview.as_deref())
    {
        return Err(format!(
            "the preview before finish is {preview:?}, the call gave {result}"
        ));
    }
    Ok(result)
}

/// Frees a toolset when dropped.
struct Owned(*mut hl_toolset);

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: made by `open`, freed once.
        unsafe { hl_toolset_free(self.0) };
    }
}

/// The case replayed; with `streamed_ascii` set, every call streamed (escaped when it is true).
fn run_case(case: &ToolsetCase, streamed_ascii: Option<bool>) -> Result<Replayed, String> {
    replay(
        case,
        |root| {
            open(&root.to_string_lossy(), &case.profile)
                .map(Owned)
                .map_err(|e| format!("{e:?}"))
        },
        |t, tool, input| {
            let result = match streamed_ascii {
                None => call(t.0, tool, &input.to_string()).map_err(|e| format!("{e:?}"))?,
                Some(ascii) => streamed(t.0, tool, input, ascii)?,
            };
            Ok(Answer {
                output: result["output"].as_str().unwrap_or_default().to_owned(),
                is_error: result["is_error"].as_bool().unwrap_or_default(),
                code: result["code"].as_str().unwrap_or_default().to_owned(),
            })
        },
    )
}

#[test]
fn toolset_vectors_through_the_c_api() {
    let mut failures = Vec::new();
    for name in TOOLSET_CORPORA {
        let cases = load_toolset_corpus(name);
        let label = name
            .trim_start_matches("toolsets/")
            .trim_end_matches(".jsonl");
        for streaming in [false, true] {
            let (mut passed, mut total) = (0, 0);
            for (n, case) in cases.iter().enumerate() {
                if streaming && n % 2 == 1 {
                    continue;
                }
                total += 1;
                match run_case(case, streaming.then_some(n % 4 == 2)) {
                    Ok(_) => passed += 1,
                    Err(why) => failures.push(format!("{} {why}", case.id)),
                }
            }
            let how = if streaming { " streamed" } else { "" };
            println!("toolset-{label}{how}: {passed}/{total} passed");
        }
    }
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn tools_unknown_profiles_and_non_object_inputs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().to_string_lossy().into_owned();
    let t = open(&root, "openai").expect("open");
    let (mut out, mut e) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: a live toolset and out-parameters.
    assert_eq!(
        unsafe { hl_toolset_tools(t, &mut out, &mut e) },
        hl_status::Ok
    );
    let tools: Value = serde_json::from_str(&take_text(out)).expect("JSON");
    assert_eq!(tools[0]["name"], "apply_patch");
    assert_eq!(tools[0]["input_schema"]["required"][0], "operation");
    let created = call(
        t,
        "apply_patch",
        r#"{"operation": {"type": "create_file", "path": "a.py", "diff": "+x = 1\n"}}"#,
    )
    .expect("result");
    assert_eq!(created["output"], "Created a.py");
    let unknown = call(t, "nope", "{}").expect("result");
    assert_eq!(
        (unknown["is_error"].as_bool(), unknown["code"].as_str()),
        (Some(true), Some("unknown_tool"))
    );
    let e = call(t, "apply_patch", "[1]").expect_err("not an object");
    assert_eq!(
        (e.status, e.code.as_str()),
        (hl_status::InvalidOption, "invalid_input")
    );
    // SAFETY: made above, freed once.
    unsafe { hl_toolset_free(t) };
    let e = open(&root, "gpt").expect_err("unknown profile");
    assert_eq!(
        (e.status, e.code.as_str()),
        (hl_status::InvalidOption, "invalid_profile")
    );
}

#[test]
fn the_anthropic_toolset_answers_str_replace_based_edit_tool_with_max_characters() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("root");
    std::fs::write(root.join("a.txt"), "abcdef\nghijkl\n").expect("write");
    let root_s = root.to_string_lossy().into_owned();
    let (r, rl) = c(&root_s);
    let (p, pl) = c("anthropic");
    let options = hl_toolset_options {
        max_characters: 10,
        ..Default::default()
    };
    let (mut t, mut e) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: valid buffers and out-parameters.
    let status = unsafe { hl_toolset_new(r, rl, p, pl, &options, &mut t, &mut e) };
    assert_eq!(status, hl_status::Ok);
    let file = root.join("a.txt").to_string_lossy().into_owned();
    let view = call(
        t,
        "str_replace_based_edit_tool",
        &json!({"command": "view", "path": file}).to_string(),
    )
    .expect("call");
    assert!(
        view["output"]
            .as_str()
            .unwrap_or_default()
            .contains("     2\tghi<response clipped>"),
        "{view}"
    );
    let undo = call(
        t,
        "str_replace_based_edit_tool",
        &json!({"command": "undo_edit", "path": file}).to_string(),
    )
    .expect("call");
    assert_eq!(undo["code"], "unknown_command");
    // SAFETY: a live toolset, freed once.
    unsafe { hl_toolset_free(t) };
}

#[test]
fn the_native_toolset_serves_its_six_tools_and_read_only_keeps_read_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.txt"), "a\n").expect("write");
    let root = dir.path().to_string_lossy().into_owned();
    let tools_of = |t: *mut hl_toolset| -> Value {
        let (mut out, mut e) = (ptr::null_mut(), ptr::null_mut());
        // SAFETY: a live toolset and out-parameters.
        assert_eq!(
            unsafe { hl_toolset_tools(t, &mut out, &mut e) },
            hl_status::Ok
        );
        serde_json::from_str(&take_text(out)).expect("JSON")
    };
    let t = open(&root, "").expect("open");
    let tools = tools_of(t);
    let names: Vec<&str> = tools
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "str_replace_based_edit_tool",
            "apply_diff",
            "apply_lazy",
            "apply_patch",
            "read_file",
            "undo_edit"
        ]
    );
    assert_eq!(tools[4]["read_only"], true);
    assert_eq!(tools[4]["title"], "Read a file");
    let read = call(t, "read_file", r#"{"path": "a.txt"}"#).expect("result");
    assert_eq!(read["output"], "     1\ta\n");
    // SAFETY: made above, freed once.
    unsafe { hl_toolset_free(t) };

    let (r, rl) = c(&root);
    let (p, pl) = c("native");
    let options = hl_toolset_options {
        read_only: true,
        ..Default::default()
    };
    let (mut t, mut e) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: valid buffers and out-parameters.
    let status = unsafe { hl_toolset_new(r, rl, p, pl, &options, &mut t, &mut e) };
    assert_eq!(status, hl_status::Ok);
    assert_eq!(tools_of(t)[0]["name"], "read_file");
    let refused = call(t, "apply_diff", r#"{"path": "a.txt", "diff": ""}"#).expect("result");
    assert_eq!(refused["code"], "read_only");
    // SAFETY: made above, freed once.
    unsafe { hl_toolset_free(t) };
}

#[test]
fn semantics_native_reads_the_openai_operations_and_gemini_replacements_natively() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.py"), "x = 1\ny = 2\nx = 1\ny = 2\n").expect("write");
    let root = dir.path().to_string_lossy().into_owned();
    let (r, rl) = c(&root);
    let (p, pl) = c("openai");
    let options = hl_toolset_options {
        semantics: HL_SEMANTICS_NATIVE,
        ..Default::default()
    };
    let (mut t, mut e) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: valid buffers and out-parameters.
    let status = unsafe { hl_toolset_new(r, rl, p, pl, &options, &mut t, &mut e) };
    assert_eq!(status, hl_status::Ok);
    let op = r#"{"operation": {"type": "update_file", "path": "a.py", "diff": " x = 1\n-y = 2\n+y = 3\n"}}"#;
    let refused = call(t, "apply_patch", op).expect("result");
    assert_eq!(refused["is_error"], true);
    assert!(
        refused["output"]
            .as_str()
            .is_some_and(|o| o.contains("at lines 1 and 3"))
    );
    // SAFETY: made above, freed once.
    unsafe { hl_toolset_free(t) };
    // Gemini's replace: refused in two places, naming them.
    let (g, gl) = c("gemini");
    // SAFETY: valid buffers and out-parameters.
    let status = unsafe { hl_toolset_new(r, rl, g, gl, &options, &mut t, &mut e) };
    assert_eq!(status, hl_status::Ok);
    let replace = r#"{"file_path": "a.py", "instruction": "y", "old_string": "y = 2", "new_string": "y = 3"}"#;
    let refused = call(t, "replace", replace).expect("result");
    assert_eq!(refused["code"], "multiple_matches");
    assert!(
        refused["output"]
            .as_str()
            .is_some_and(|o| o.contains("starting at lines 2, 4"))
    );
    // SAFETY: made above, freed once.
    unsafe { hl_toolset_free(t) };
    let bad = hl_toolset_options {
        semantics: 7,
        ..Default::default()
    };
    // SAFETY: valid buffers and out-parameters.
    let status = unsafe { hl_toolset_new(r, rl, p, pl, &bad, &mut t, &mut e) };
    assert_eq!(status, hl_status::OutOfRange);
}

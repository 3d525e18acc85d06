//! A text-editor call streamed one byte of argument JSON at a time
//! ([`TextEditor::stream`](hunkloom_tools::TextEditor::stream)) next to the same call made
//! whole (`serde_json` parse plus [`TextEditor::call`](hunkloom_tools::TextEditor::call)), as a
//! host makes each: a `create` with a 200 KB `file_text`, and a `str_replace` whose `new_str`
//! is 2,000 lines. Both write the file (atomically, with fsync), so the difference is what the
//! streaming adds: decoding each piece and following the preview. The bench prints the
//! streamed call as a multiple of the whole one. Then the native toolset's `apply_diff` with
//! 20 SEARCH/REPLACE blocks over a 200 KB file, streamed (each block applied by the native
//! streaming applier as its lines arrive) and whole, and the `openai` set's `apply_patch` with
//! 20 V4A sections over a 200 KB file and the native set's `apply_patch` with the same
//! sections in a `*** Begin Patch` envelope, streamed and whole. Then a `str_replace` on 10 KB with
//! `durability` full and none: their difference is the fsync floor of a call on this machine.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hunkloom_tools::{
    Durability, EditorOptions, Profile, Semantics, TextEditor, ToolResult, Toolset, ToolsetOptions,
    ToolsetProfile,
};
use serde_json::json;

/// The call made whole, as a host with the complete JSON text does.
fn whole(editor: &TextEditor, text: &str) -> ToolResult {
    let input: serde_json::Value = serde_json::from_str(text).expect("JSON");
    editor.call(&input).expect("an object")
}

/// The call streamed one byte (here one character: the texts are ASCII) at a time.
fn streamed(editor: &TextEditor, text: &str) -> ToolResult {
    streamed_in(editor, text, 1)
}

/// The call streamed in pieces of `size` bytes (the texts are ASCII).
fn streamed_in(editor: &TextEditor, text: &str, size: usize) -> ToolResult {
    let mut stream = editor.stream();
    for i in (0..text.len()).step_by(size) {
        black_box(stream.push(editor, &text[i..(i + size).min(text.len())]));
    }
    stream.finish(editor)
}

/// The median of `runs` timings of `f` after `reset`.
fn median(runs: usize, mut reset: impl FnMut(), mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            reset();
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let root = dir.path().canonicalize().expect("canonical root");
    let editor =
        TextEditor::new(&root, EditorOptions::new().profile(Profile::Anthropic)).expect("editor");

    let created = root.join("created.txt");
    let file_text: String = (0..5_000)
        .map(|i| format!("line {i:05} of the created file, some text\n"))
        .collect::<String>();
    assert!(file_text.len() >= 200_000);
    // The members in the order models send them (the schema's), the text last.
    let create = format!(
        r#"{{"command": "create", "path": {}, "file_text": {}}}"#,
        json!(created.display().to_string()),
        json!(file_text)
    );

    let edited = root.join("edited.py");
    let original: String = (0..2_000).map(|i| format!("x_{i} = {i}\n")).collect();
    let new_str: String = (0..2_000)
        .map(|i| format!("    y_{i} = compute({i})\n"))
        .collect();
    let replace = format!(
        r#"{{"command": "str_replace", "path": {}, "old_str": "x_1000 = 1000\n", "new_str": {}}}"#,
        json!(edited.display().to_string()),
        json!(new_str)
    );
    let reset_edited = || std::fs::write(&edited, &original).expect("reset");
    let remove_created = || {
        let _ = std::fs::remove_file(&created);
    };

    // Checked once: the streamed call leaves what the whole one leaves.
    for (text, reset) in [
        (&create, &remove_created as &dyn Fn()),
        (&replace, &reset_edited as &dyn Fn()),
    ] {
        reset();
        let a = whole(&editor, text);
        let file_a = std::fs::read(target(text)).expect("written");
        reset();
        let b = streamed(&editor, text);
        assert!(!a.is_error, "{}", a.output);
        assert_eq!(a, b);
        assert_eq!(std::fs::read(target(text)).expect("written"), file_a);
    }

    let mut group = c.benchmark_group("edit_stream");
    for (name, text, reset) in [
        ("create 200 KB", &create, &remove_created as &dyn Fn()),
        (
            "str_replace 2000-line new_str",
            &replace,
            &reset_edited as &dyn Fn(),
        ),
    ] {
        group.bench_function(format!("{name}: call (whole JSON)"), |b| {
            b.iter_batched(reset, |()| whole(&editor, text), BatchSize::PerIteration)
        });
        group.bench_function(format!("{name}: stream (1-byte pieces)"), |b| {
            b.iter_batched(reset, |()| streamed(&editor, text), BatchSize::PerIteration)
        });
        let call = median(31, reset, || {
            whole(&editor, text);
        });
        let stream = median(31, reset, || {
            streamed(&editor, text);
        });
        print_ratio(name, stream, call, text.len());
        // Model APIs send a few tokens per delta: 8-byte pieces are nearer what a host sees.
        let typical = median(31, reset, || {
            streamed_in(&editor, text, 8);
        });
        println!(
            "edit_stream {name}: 8-byte stream {:.2} ms = {:.2}x the whole call",
            typical.as_secs_f64() * 1e3,
            typical.as_secs_f64() / call.as_secs_f64()
        );
    }
    group.finish();
    toolset_diff(c);
    toolset_operation(c);
    toolset_patch(c);
    durability(c);
}

/// The native set's `apply_diff`: 20 blocks over a 200 KB file, streamed one byte at a time
/// and made whole.
fn toolset_diff(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let toolset = Toolset::new(dir.path(), ToolsetOptions::new()).expect("toolset");
    let path = dir.path().join("big.py");
    let original = big_file();
    let diff: String = (0..20)
        .map(|b| {
            let i = b * 400 + 7;
            format!(
                "<<<<<<< SEARCH\nvalue_{i:04} = compute({i}, 'text')\n=======\n\
                 value_{i:04} = compute({i}, 'edited')\n>>>>>>> REPLACE\n"
            )
        })
        .collect();
    let text = format!(r#"{{"path": "big.py", "diff": {}}}"#, json!(diff));
    let reset = || write_and_read(&toolset, &path, &original);
    let name = "apply_diff 20 blocks on 200 KB";
    compare_tool(c, name, &toolset, "apply_diff", &text, &path, &reset);
}

/// The `openai` set's `apply_patch`: one `update_file` operation of 20 V4A sections over a
/// 200 KB file, streamed one byte at a time (each section placed and shown as it completes)
/// and made whole, read as the Agents SDK reads it and natively.
fn toolset_operation(c: &mut Criterion) {
    let original = big_file();
    let diff = v4a_sections();
    let text = format!(
        r#"{{"operation": {{"type": "update_file", "path": "big.py", "diff": {}}}}}"#,
        json!(diff)
    );
    for semantics in [Semantics::Reference, Semantics::Native] {
        let dir = tempfile::tempdir().expect("temporary directory");
        let options = ToolsetOptions::new()
            .profile(ToolsetProfile::OpenAi)
            .semantics(semantics);
        let toolset = Toolset::new(dir.path(), options).expect("toolset");
        let path = dir.path().join("big.py");
        let reset = || std::fs::write(&path, &original).expect("reset");
        let name = format!("openai apply_patch 20 sections on 200 KB ({semantics})");
        compare_tool(c, &name, &toolset, "apply_patch", &text, &path, &reset);
    }
}

/// The native set's `apply_patch`: a `*** Begin Patch` envelope of one file with 20 sections
/// over a 200 KB file, streamed one byte at a time (each section placed and shown as the line
/// after it arrives) and made whole.
fn toolset_patch(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let toolset = Toolset::new(dir.path(), ToolsetOptions::new()).expect("toolset");
    let path = dir.path().join("big.py");
    let original = big_file();
    let body = v4a_sections();
    let patch = format!("*** Begin Patch\n*** Update File: big.py\n{body}*** End Patch\n");
    let text = json!({ "patch": patch }).to_string();
    let reset = || write_and_read(&toolset, &path, &original);
    let name = "native apply_patch 20 sections on 200 KB";
    compare_tool(c, name, &toolset, "apply_patch", &text, &path, &reset);
}

/// 20 V4A sections over [`big_file`], one every 400 lines, each changing one line.
fn v4a_sections() -> String {
    (0..20)
        .map(|b| {
            let i = b * 400 + 7;
            format!(
                "@@\n-value_{i:04} = compute({i}, 'text')\n+value_{i:04} = compute({i}, 'edited')\n"
            )
        })
        .collect()
}

/// Writes `original` to `big.py` at `path` and reads it through the native set (which edits
/// only what was read).
fn write_and_read(toolset: &Toolset, path: &Path, original: &str) {
    std::fs::write(path, original).expect("reset");
    let read = toolset
        .call("read_file", &json!({"path": "big.py", "end_line": 1}))
        .expect("read");
    assert!(!read.is_error, "{}", read.output);
}

/// A 200 KB file of 8,000 distinct lines.
fn big_file() -> String {
    let original: String = (0..8_000)
        .map(|i| format!("value_{i:04} = compute({i}, 'text')\n"))
        .collect();
    assert!(original.len() >= 200_000);
    original
}

/// A toolset call of `tool` with the argument JSON `text`, which edits `path`, made whole and
/// streamed one byte at a time (after `reset` each): checked to leave the same file and
/// result, benched, and its ratio printed.
fn compare_tool(
    c: &mut Criterion,
    name: &str,
    toolset: &Toolset,
    tool: &str,
    text: &str,
    path: &Path,
    reset: &dyn Fn(),
) {
    let whole = || {
        let input: serde_json::Value = serde_json::from_str(text).expect("JSON");
        toolset.call(tool, &input).expect("object")
    };
    let streamed = || {
        let mut stream = toolset.stream(tool);
        for i in 0..text.len() {
            black_box(stream.push(toolset, &text[i..i + 1]));
        }
        let preview = stream.preview().map(str::to_owned);
        (preview, stream.finish(toolset))
    };
    reset();
    let a = whole();
    let file_a = std::fs::read(path).expect("written");
    reset();
    let (preview, b) = streamed();
    assert!(!a.is_error, "{}", a.output);
    assert_eq!(a, b);
    assert_eq!(std::fs::read(path).expect("written"), file_a);
    assert_eq!(preview.map(String::into_bytes), Some(file_a), "the preview");

    let mut group = c.benchmark_group("edit_stream");
    group.bench_function(format!("{name}: call (whole JSON)"), |b| {
        b.iter_batched(reset, |()| whole(), BatchSize::PerIteration)
    });
    group.bench_function(format!("{name}: stream (1-byte pieces)"), |b| {
        b.iter_batched(reset, |()| streamed(), BatchSize::PerIteration)
    });
    group.finish();
    let call = median(31, reset, || {
        whole();
    });
    let stream = median(31, reset, || {
        streamed();
    });
    print_ratio(name, stream, call, text.len());
}

/// Prints a streamed call's median as a multiple of the whole call's.
fn print_ratio(name: &str, stream: Duration, call: Duration, pushes: usize) {
    println!(
        "edit_stream {name}: 1-byte stream {:.2} ms = {:.2}x the whole call ({:.2} ms), {pushes} pushes",
        stream.as_secs_f64() * 1e3,
        stream.as_secs_f64() / call.as_secs_f64(),
        call.as_secs_f64() * 1e3,
    );
}

/// A `str_replace` on a 10 KB file with `durability` full and none: the difference is what
/// flushing the file and its directory costs per call on this machine (the fsync floor).
fn durability(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let root = dir.path().canonicalize().expect("canonical root");
    let path = root.join("ten.py");
    let original: String = (0..700).map(|i| format!("value_{i:03} = {i}\n")).collect();
    assert!(original.len() >= 10_000);
    let reset = || std::fs::write(&path, &original).expect("reset");
    let call = json!({"command": "str_replace", "path": path.display().to_string(),
                      "old_str": "value_200 = 200", "new_str": "value_200 = -200"});
    let mut group = c.benchmark_group("durability");
    let mut medians = Vec::new();
    for durability in Durability::ALL {
        let editor = TextEditor::new(
            &root,
            EditorOptions::new()
                .profile(Profile::Anthropic)
                .durability(*durability),
        )
        .expect("editor");
        group.bench_function(format!("str_replace 10 KB, durability {durability}"), |b| {
            b.iter_batched(
                reset,
                |()| editor.call(&call).expect("object"),
                BatchSize::PerIteration,
            )
        });
        medians.push(median(51, reset, || {
            assert!(!editor.call(&call).expect("object").is_error);
        }));
    }
    group.finish();
    println!(
        "durability str_replace 10 KB: full {:.3} ms, none {:.3} ms: the fsync floor is {:.3} ms a call",
        medians[0].as_secs_f64() * 1e3,
        medians[1].as_secs_f64() * 1e3,
        (medians[0].as_secs_f64() - medians[1].as_secs_f64()) * 1e3
    );
}

/// The file a call's JSON names.
fn target(text: &str) -> std::path::PathBuf {
    let input: serde_json::Value = serde_json::from_str(text).expect("JSON");
    Path::new(input["path"].as_str().expect("path")).to_path_buf()
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);

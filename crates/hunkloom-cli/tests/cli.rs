//! The `hunkloom` binary end to end.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `hunkloom args` in the directory `cwd` (the default workspace root).
fn hunkloom(cwd: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hunkloom"))
        .current_dir(cwd)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hunkloom");
    let mut input = child.stdin.take().expect("stdin");
    // A command that refuses its arguments exits before reading its input: a closed pipe
    // then is its answer, not a failure of the test.
    match input.write_all(stdin.unwrap_or("").as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("write stdin"),
    }
    drop(input);
    child.wait_with_output().expect("wait")
}

const DIFF: &str = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n";

#[test]
fn apply_writes_the_new_content() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("f.txt");
    let diff = dir.path().join("edit.txt");
    std::fs::write(&file, "a\nb\nc\n").expect("write");
    std::fs::write(&diff, DIFF).expect("write");
    let out = hunkloom(
        dir.path(),
        &[
            "apply",
            "--diff",
            diff.to_str().unwrap(),
            file.to_str().unwrap(),
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "a\nB\nc\n");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(leftovers.len(), 2, "no temporary file is left behind");
}

#[test]
fn dry_run_prints_a_unified_diff_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "a\nb\nc\n").expect("write");
    let out = hunkloom(
        dir.path(),
        &["apply", "--dry-run", "--diff", "-", file.to_str().unwrap()],
        Some(DIFF),
    );
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).expect("utf8");
    assert!(stdout.contains("-b\n+B\n"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "a\nb\nc\n");
}

#[test]
fn a_failed_edit_exits_nonzero_and_leaves_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "a\nb\nc\n").expect("write");
    let diff = "------- SEARCH\nnot there\n=======\nx\n+++++++ REPLACE\n";
    let out = hunkloom(
        dir.path(),
        &[
            "apply",
            "--diff",
            "-",
            "--dialect",
            "cline-v2",
            file.to_str().unwrap(),
        ],
        Some(diff),
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).expect("utf8");
    assert!(stderr.contains("[search_not_found]"), "{stderr}");
    assert!(
        stderr.contains("The SEARCH block:\nnot there\n...does not match anything in the file.")
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "a\nb\nc\n");
}

#[test]
fn native_is_the_default_and_refuses_ambiguous_edits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("f.txt");
    // CRLF file, LF diff with lost indentation: the native dialect applies it.
    std::fs::write(&file, "fn f() {\r\n    b();\r\n}\r\n").expect("write");
    let diff = "<<<<<<< SEARCH\nb();\n=======\n    c();\n>>>>>>> REPLACE\n";
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", file.to_str().unwrap()],
        Some(diff),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "fn f() {\r\n    c();\r\n}\r\n"
    );
    // The same text twice: refused, file untouched.
    std::fs::write(&file, "x\ny\nx\n").expect("write");
    let diff = "------- SEARCH\nx\n=======\nz\n+++++++ REPLACE\n";
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", file.to_str().unwrap()],
        Some(diff),
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).expect("utf8");
    assert!(stderr.contains("[ambiguous_match]"), "{stderr}");
    assert!(
        stderr.contains("matches 2 places: line 1, line 3"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "x\ny\nx\n");
}

#[test]
fn dialect_cline_v1_keeps_the_old_behaviour() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "x\ny\nx\n").expect("write");
    let diff = "------- SEARCH\nx\n=======\nz\n+++++++ REPLACE\n";
    let out = hunkloom(
        dir.path(),
        &[
            "apply",
            "--diff",
            "-",
            "--dialect",
            "cline-v1",
            file.to_str().unwrap(),
        ],
        Some(diff),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "z\ny\nx\n");
}

#[test]
fn unknown_dialect_is_refused() {
    let out = hunkloom(
        Path::new("."),
        &["apply", "--diff", "-", "--dialect", "v9", "x"],
        Some(""),
    );
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown dialect 'v9'"));
}

#[test]
fn usage_errors_exit_2_with_the_usage_like_claps_own() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clap_own = hunkloom(dir.path(), &["apply", "--no-such-flag"], None);
    assert_eq!(clap_own.status.code(), Some(2));
    for (args, stdin, says) in [
        (vec!["apply", "--diff", "-"], DIFF, "FILE is required"),
        (
            vec![
                "apply",
                "--diff",
                "-",
                "--partial",
                "--dialect",
                "cline-v1",
                "f.txt",
            ],
            DIFF,
            "--partial applies to the native and udiff dialects",
        ),
        (
            vec!["apply", "--diff", "-", "f.txt"],
            "*** Begin Patch\n*** Delete File: f.txt\n*** End Patch\n",
            "names its own files",
        ),
        (
            vec!["apply", "--patch", "-", "--dialect", "v9"],
            "*** Begin Patch\n*** End Patch\n",
            "unknown patch dialect 'v9'",
        ),
    ] {
        let out = hunkloom(dir.path(), &args, Some(stdin));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(stderr.contains("Usage: hunkloom apply"), "{stderr}");
    }
    // A refused edit is not a usage error.
    std::fs::write(dir.path().join("f.txt"), "x\n").expect("write");
    let out = hunkloom(dir.path(), &["apply", "--diff", "-", "f.txt"], Some(DIFF));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn partial_writes_the_blocks_that_matched_and_reports_the_rest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "a\nb\nc\n").expect("write");
    let diff = format!("{DIFF}------- SEARCH\nzzz\n=======\nZ\n+++++++ REPLACE\n");
    let out = hunkloom(dir.path(), &["apply", "--diff", "-", "f.txt"], Some(&diff));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "a\nb\nc\n");
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "--partial", "--dry-run", "f.txt"],
        Some(&diff),
    );
    assert_eq!(out.status.code(), Some(1), "a block was not applied");
    assert!(String::from_utf8_lossy(&out.stdout).contains("-b\n+B\n"));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "a\nb\nc\n");
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "--partial", "f.txt"],
        Some(&diff),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "a\nB\nc\n");
    assert!(stderr.contains("1 block(s) applied"), "{stderr}");
    assert!(
        stderr.contains("block 2 not applied: [search_not_found]"),
        "{stderr}"
    );
    assert!(stderr.contains("1 of 2 block(s) not applied"), "{stderr}");
    // Every block matched: success.
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "--partial", "f.txt"],
        Some("------- SEARCH\nc\n=======\nC\n+++++++ REPLACE\n"),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "a\nB\nC\n");
}

#[test]
fn demo_streams_and_shows_the_diff() {
    let out = hunkloom(Path::new("."), &["demo", "--delay-ms", "0"], None);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).expect("utf8");
    assert!(stdout.contains("block 3 applied (exact)"), "{stdout}");
    assert!(stdout.contains("+++ b/inventory.py"));
    assert!(stdout.contains("3 blocks applied"));
}

#[test]
fn crlf_and_bom_files_round_trip() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("f.txt");
    std::fs::write(&file, b"\xEF\xBB\xBFa\r\nb\r\nc\r\n").expect("write");
    let out = hunkloom(dir.path(), &["apply", "--diff", "-", "f.txt"], Some(DIFF));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&file).expect("read"),
        b"\xEF\xBB\xBFa\r\nB\r\nc\r\n"
    );
    let names: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(names.len(), 1, "no temporary file is left behind");
}

#[test]
fn utf16_and_latin1_files_round_trip_and_binary_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let utf16 = |s: &str| -> Vec<u8> {
        let mut out = vec![0xFF, 0xFE];
        s.encode_utf16().for_each(|u| out.extend(u.to_le_bytes()));
        out
    };
    std::fs::write(dir.path().join("w.txt"), utf16("a\nb\nc\n")).expect("write");
    let out = hunkloom(dir.path(), &["apply", "--diff", "-", "w.txt"], Some(DIFF));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(dir.path().join("w.txt")).expect("read"),
        utf16("a\nB\nc\n")
    );
    // Latin-1 text is edited and stays Latin-1.
    std::fs::write(
        dir.path().join("l.txt"),
        b"a\nb\ncaf\xE9 cr\xE8me br\xFBl\xE9e\n",
    )
    .expect("write");
    let out = hunkloom(dir.path(), &["apply", "--diff", "-", "l.txt"], Some(DIFF));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(dir.path().join("l.txt")).expect("read"),
        b"a\nB\ncaf\xE9 cr\xE8me br\xFBl\xE9e\n"
    );
    // Binary content is refused and left alone.
    std::fs::write(dir.path().join("bin.txt"), b"a\nb\ncaf\xE9\0\n").expect("write");
    let out = hunkloom(dir.path(), &["apply", "--diff", "-", "bin.txt"], Some(DIFF));
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("[unsupported_encoding]"), "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("bin.txt")).expect("read"),
        b"a\nb\ncaf\xE9\0\n"
    );
}

#[test]
fn a_file_outside_the_root_is_refused() {
    let root = tempfile::tempdir().expect("tempdir");
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let file = elsewhere.path().join("f.txt");
    std::fs::write(&file, "a\nb\nc\n").expect("write");
    for args in [
        vec!["apply", "--diff", "-", file.to_str().unwrap()],
        vec![
            "apply",
            "--diff",
            "-",
            "--root",
            root.path().to_str().unwrap(),
            file.to_str().unwrap(),
        ],
    ] {
        let out = hunkloom(root.path(), &args, Some(DIFF));
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("[path_outside_root]"), "{stderr}");
        assert!(stderr.contains("Pass --root DIR"), "{stderr}");
    }
    assert_eq!(std::fs::read(&file).expect("read"), b"a\nb\nc\n");
    // With --root naming its directory, the same file is edited.
    let out = hunkloom(
        root.path(),
        &[
            "apply",
            "--diff",
            "-",
            "--root",
            elsewhere.path().to_str().unwrap(),
            file.to_str().unwrap(),
        ],
        Some(DIFF),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&file).expect("read"), b"a\nB\nc\n");
}

#[test]
fn a_missing_file_is_created_by_an_empty_search_and_otherwise_suggested() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("notes.txt"), "a\nb\n").expect("write");
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "note.txt"],
        Some(DIFF),
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("[file_not_found]"), "{stderr}");
    assert!(stderr.contains("Did you mean notes.txt?"), "{stderr}");
    let create = "------- SEARCH\n=======\nhello\n+++++++ REPLACE\n";
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "--dialect", "cline-v1", "new.txt"],
        Some(create),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("new.txt")).expect("read"),
        "hello\n"
    );
}

// ---- multi-file patches --------------------------------------------------------------------

const PATCH: &str = "*** Begin Patch\n\
    *** Update File: a.txt\n@@\n one\n-two\n+TWO\n\
    *** Update File: old/b.txt\n*** Move to: new/b.txt\n@@\n-b\n+B\n\
    *** Add File: c.txt\n+created\n\
    *** End Patch\n";

/// A directory with a CRLF file and a BOM file for [`PATCH`].
fn patch_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.txt"), b"one\r\ntwo\r\nthree\r\n").expect("write");
    std::fs::create_dir(dir.path().join("old")).expect("mkdir");
    std::fs::write(dir.path().join("old/b.txt"), b"\xEF\xBB\xBFb\n").expect("write");
    dir
}

fn assert_patched(dir: &Path) {
    assert_eq!(
        std::fs::read(dir.join("a.txt")).expect("read"),
        b"one\r\nTWO\r\nthree\r\n"
    );
    assert_eq!(
        std::fs::read(dir.join("new/b.txt")).expect("read"),
        b"\xEF\xBB\xBFB\n"
    );
    assert!(!dir.join("old/b.txt").exists());
    assert_eq!(
        std::fs::read(dir.join("c.txt")).expect("read"),
        b"created\n"
    );
}

fn assert_unpatched(dir: &Path) {
    assert_eq!(
        std::fs::read(dir.join("a.txt")).expect("read"),
        b"one\r\ntwo\r\nthree\r\n"
    );
    assert_eq!(
        std::fs::read(dir.join("old/b.txt")).expect("read"),
        b"\xEF\xBB\xBFb\n"
    );
    assert!(!dir.join("new").exists() && !dir.join("c.txt").exists());
}

#[test]
fn apply_patch_from_a_file_changes_every_file_and_keeps_their_bytes() {
    let dir = patch_tree();
    let patch_file = tempfile::NamedTempFile::new().expect("temp");
    std::fs::write(patch_file.path(), PATCH).expect("write");
    let out = hunkloom(
        dir.path(),
        &["apply", "--patch", patch_file.path().to_str().unwrap()],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_patched(dir.path());
    assert!(stderr.contains("updated a.txt"), "{stderr}");
    assert!(stderr.contains("moved old/b.txt -> new/b.txt"), "{stderr}");
    assert!(stderr.contains("created c.txt"), "{stderr}");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names.len(), 4, "no temporary or journal file: {names:?}");
}

#[test]
fn apply_patch_reads_stdin_with_a_root() {
    let dir = patch_tree();
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let out = hunkloom(
        elsewhere.path(),
        &[
            "apply",
            "--patch",
            "-",
            "--root",
            dir.path().to_str().unwrap(),
        ],
        Some(PATCH),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_patched(dir.path());
    assert_eq!(std::fs::read_dir(elsewhere.path()).expect("dir").count(), 0);
}

#[test]
fn plain_apply_recognises_a_patch_by_its_first_marker() {
    let dir = patch_tree();
    let wrapped = format!("<<'EOF'\n{PATCH}EOF\n");
    let out = hunkloom(dir.path(), &["apply", "--diff", "-"], Some(&wrapped));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_patched(dir.path());
    // The shell command a model writes around it, with any heredoc delimiter.
    let dir = patch_tree();
    let command = format!("apply_patch <<'PATCH'\n{PATCH}PATCH\n");
    let out = hunkloom(dir.path(), &["apply", "--diff", "-"], Some(&command));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_patched(dir.path());
    // A FILE argument makes no sense for a patch.
    let out = hunkloom(dir.path(), &["apply", "--diff", "-", "a.txt"], Some(PATCH));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("names its own files"));
}

#[test]
fn patch_dry_run_prints_a_diff_per_file_and_writes_nothing() {
    let dir = patch_tree();
    let out = hunkloom(
        dir.path(),
        &["apply", "--dry-run", "--patch", "-"],
        Some(PATCH),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("utf8");
    assert!(stdout.contains("--- a/a.txt\n+++ b/a.txt\n"), "{stdout}");
    assert!(stdout.contains("-two\r\n+TWO\r\n"), "{stdout}");
    assert!(
        stdout.contains("--- a/old/b.txt\n+++ b/new/b.txt\n"),
        "{stdout}"
    );
    assert!(stdout.contains("--- /dev/null\n+++ b/c.txt\n"), "{stdout}");
    assert!(stdout.contains("+created\n"), "{stdout}");
    assert_unpatched(dir.path());
}

#[test]
fn a_failing_hunk_writes_nothing_unless_partial() {
    let dir = patch_tree();
    let patch = "*** Begin Patch\n*** Add File: c.txt\n+created\n\
                 *** Update File: a.txt\n@@\n-missing\n+x\n*** End Patch\n";
    let out = hunkloom(dir.path(), &["apply", "--patch", "-"], Some(patch));
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("[patch_context_not_found]"), "{stderr}");
    assert_unpatched(dir.path());

    let out = hunkloom(
        dir.path(),
        &["apply", "--patch", "-", "--partial"],
        Some(patch),
    );
    assert!(!out.status.success(), "the failure still fails the command");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("created c.txt"), "{stderr}");
    assert!(stderr.contains("hunk 2 failed"), "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("c.txt")).expect("read"),
        b"created\n"
    );
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"one\r\ntwo\r\nthree\r\n"
    );
}

#[test]
fn a_patch_leaving_the_root_is_refused() {
    let dir = patch_tree();
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n\
                 *** Add File: ../escaped.txt\n+x\n*** End Patch\n";
    let out = hunkloom(dir.path(), &["apply", "--patch", "-"], Some(patch));
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("[path_outside_root]"), "{stderr}");
    assert!(stderr.contains("Pass --root DIR"), "{stderr}");
    assert_unpatched(dir.path());
    assert!(
        !dir.path()
            .parent()
            .expect("parent")
            .join("escaped.txt")
            .exists()
    );
}

#[test]
fn patch_dialects_are_codex_cline_and_native() {
    let dir = patch_tree();
    let out = hunkloom(
        dir.path(),
        &["apply", "--patch", "-", "--dialect", "cline"],
        Some(PATCH),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Cline's own results, with the CRLF lines and the BOM kept.
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"one\r\nTWO\r\nthree\r\n"
    );
    assert_eq!(
        std::fs::read(dir.path().join("new/b.txt")).expect("read"),
        b"\xEF\xBB\xBFB\n"
    );
    // Cline joins an added file's lines without a final newline.
    assert_eq!(
        std::fs::read(dir.path().join("c.txt")).expect("read"),
        b"created"
    );
    let out = hunkloom(
        dir.path(),
        &["apply", "--patch", "-", "--dialect", "vim"],
        Some(PATCH),
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown patch dialect 'vim'"), "{stderr}");

    // The native reading: the same files, and a created file that ends with its newline.
    let dir = patch_tree();
    let out = hunkloom(
        dir.path(),
        &["apply", "--patch", "-", "--dialect", "native"],
        Some(PATCH),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_patched(dir.path());
    // Lines found in two places are refused, naming them; nothing is written.
    std::fs::write(dir.path().join("d.txt"), "x\ny\nx\ny\n").expect("write");
    let twice = "*** Begin Patch\n*** Update File: d.txt\n x\n-y\n+Y\n*** End Patch\n";
    let out = hunkloom(
        dir.path(),
        &["apply", "--patch", "-", "--dialect", "native"],
        Some(twice),
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("at lines 1 and 3"), "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("d.txt")).expect("read"),
        b"x\ny\nx\ny\n"
    );
}

#[test]
fn dialect_v4a_applies_a_body_and_creates_with_create() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("app.py");
    std::fs::write(
        &file,
        "class A:\r\n    def f(self):\r\n        return 1\r\n",
    )
    .expect("write");
    let body = "@@ def f(self):\n-        return 1\n+        return 2\n";
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "--dialect", "v4a", "app.py"],
        Some(body),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("app.py: 1 section(s) applied"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "class A:\r\n    def f(self):\r\n        return 2\r\n"
    );

    // A failing body exits non-zero with the reference's message and writes nothing.
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "--dialect", "v4a", "app.py"],
        Some(body),
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("[patch_context_not_found] Invalid Context 2:\n        return 1"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "class A:\r\n    def f(self):\r\n        return 2\r\n"
    );

    // `--create` makes a new file and refuses an existing one.
    let out = hunkloom(
        dir.path(),
        &[
            "apply",
            "--diff",
            "-",
            "--dialect",
            "v4a",
            "--create",
            "new.txt",
        ],
        Some("+one\n+two\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("new.txt")).expect("read"),
        "one\ntwo"
    );
    let out = hunkloom(
        dir.path(),
        &[
            "apply",
            "--diff",
            "-",
            "--dialect",
            "v4a",
            "--create",
            "app.py",
        ],
        Some("+x\n"),
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("[file_exists]"));
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "--create", "other.txt"],
        Some("+x\n"),
    );
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--create applies to --dialect v4a only")
    );
}

const LAZY_FILE: &str = "def load(path):\r\n    return open(path).read()\r\n\r\ndef save(path, text):\r\n    open(path, \"w\").write(text)\r\n";

#[test]
fn apply_lazy_merges_a_snippet_and_keeps_the_line_endings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("store.py");
    std::fs::write(&file, LAZY_FILE).expect("write");
    let snippet = "# ... existing code ...\ndef save(path, text):\n    log(path)\n    open(path, \"w\").write(text)\n";
    let out = hunkloom(
        dir.path(),
        &["apply", "--lazy", "-", "store.py"],
        Some(snippet),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hunkloom: store.py: lazy edit merged\n"
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        LAZY_FILE.replace("text):\r\n", "text):\r\n    log(path)\r\n")
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
}

#[test]
fn apply_lazy_refuses_what_it_cannot_place_and_leaves_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("store.txt");
    std::fs::write(&file, LAZY_FILE).expect("write");
    let snippet_path = dir.path().join("snippet.txt");
    std::fs::write(&snippet_path, "# ...\ndef gone():\n    pass\n# ...\n").expect("write");
    let snippet = snippet_path.to_str().unwrap();
    let out = hunkloom(
        dir.path(),
        &["apply", "--lazy", snippet, "--lang", "py", "store.txt"],
        None,
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("hunkloom: store.txt left unchanged: [lazy_no_anchor] segment 1"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), LAZY_FILE);
    // A dry run prints the merge and writes nothing.
    std::fs::write(
        &snippet_path,
        "# ...\ndef save(path, text):\n    log(path)\n    open(path, \"w\").write(text)\n",
    )
    .expect("write");
    let out = hunkloom(
        dir.path(),
        &[
            "apply",
            "--dry-run",
            "--lazy",
            snippet,
            "--lang",
            "python",
            "store.txt",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("+    log(path)\r\n"));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), LAZY_FILE);
    let out = hunkloom(
        dir.path(),
        &["apply", "--lazy", snippet, "--lang", "cobol", "store.txt"],
        None,
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown language 'cobol'"));
    let out = hunkloom(
        dir.path(),
        &["apply", "--lazy", snippet, "--diff", snippet, "store.txt"],
        None,
    );
    assert!(!out.status.success(), "--lazy and --diff are exclusive");
}

#[test]
fn the_roo_dialect_applies_as_roo_code_does_at_its_threshold() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("f.py");
    std::fs::write(&file, "def f():\n    return sum(items)\n").expect("write");
    // A typo in SEARCH: refused at Roo's default threshold, applied at 0.9.
    let diff = "<<<<<<< SEARCH\n    return sum(itms)\n=======\n    return 0\n>>>>>>> REPLACE";
    let args = |extra: &[&'static str]| {
        let mut a = vec!["apply", "--diff", "-", "--dialect", "roo"];
        a.extend_from_slice(extra);
        a
    };
    let mut strict = args(&[]);
    strict.push(file.to_str().unwrap());
    let out = hunkloom(dir.path(), &strict, Some(diff));
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).expect("utf8");
    assert!(
        stderr.contains(
            "[search_not_found] No sufficiently similar match found (94% similar, needs 100%)"
        ),
        "{stderr}"
    );
    let mut loose = args(&["--fuzzy-threshold", "0.9"]);
    loose.push(file.to_str().unwrap());
    let out = hunkloom(dir.path(), &loose, Some(diff));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "def f():\n    return 0\n"
    );
}

#[test]
fn a_unified_diff_applies_to_a_file_or_as_a_patch() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.py"), "def f():\r\n    return 1\r\n").expect("write");
    std::fs::write(dir.path().join("b.txt"), "x\ny\n").expect("write");
    // One file: line numbers and counts off, LF diff on a CRLF file.
    let one =
        "--- a/a.py\n+++ b/a.py\n@@ -10,3 +10,3 @@\n def f():\n-    return 1\n+    return 2\n";
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "--dialect", "udiff", "a.py"],
        Some(one),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(dir.path().join("a.py")).expect("read"),
        b"def f():\r\n    return 2\r\n"
    );
    // git refuses the same diff (wrong counts); --recount repairs them; the file is untouched
    // by the refusal.
    let strict = one
        .replace("return 1", "return 2")
        .replace("+    return 2", "+    return 3");
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "--dialect", "udiff-strict", "a.py"],
        Some(&strict),
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("[invalid_patch] error: corrupt patch at line 7"),
        "{stderr}"
    );
    // Without FILE, a git patch of several files, all or nothing.
    let patch = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\r\n-    return 2\r\n+    return 3\r\ndiff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+Y\n";
    let bad = patch.replace("-y\n", "-q\n");
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "--dialect", "udiff-strict"],
        Some(&bad),
    );
    assert!(!out.status.success());
    assert_eq!(
        std::fs::read(dir.path().join("b.txt")).expect("read"),
        b"x\ny\n"
    );
    assert_eq!(
        std::fs::read(dir.path().join("a.py")).expect("read"),
        b"def f():\r\n    return 2\r\n"
    );
    for dialect in ["udiff-strict", "udiff"] {
        let text = if dialect == "udiff" {
            patch
                .replace("return 2", "return 3")
                .replace("+    return 3", "+    return 4")
                .replace("-y\n+Y", "-Y\n+y")
        } else {
            patch.to_owned()
        };
        let out = hunkloom(
            dir.path(),
            &["apply", "--patch", "-", "--dialect", dialect],
            Some(&text),
        );
        assert!(
            out.status.success(),
            "{dialect}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(
        std::fs::read(dir.path().join("a.py")).expect("read"),
        b"def f():\r\n    return 4\r\n"
    );
    assert_eq!(
        std::fs::read(dir.path().join("b.txt")).expect("read"),
        b"x\ny\n"
    );
}

#[test]
fn recount_is_for_udiff_strict() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.txt"), "a\nb\n").expect("write");
    let diff = "--- a/a.txt\n+++ b/a.txt\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n";
    let out = hunkloom(
        dir.path(),
        &[
            "apply",
            "--diff",
            "-",
            "--dialect",
            "udiff-strict",
            "--recount",
            "a.txt",
        ],
        Some(diff),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"a\nB\n"
    );
    let out = hunkloom(
        dir.path(),
        &[
            "apply",
            "--diff",
            "-",
            "--dialect",
            "udiff",
            "--recount",
            "a.txt",
        ],
        Some(diff),
    );
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--recount applies to --dialect udiff-strict only")
    );
}

#[test]
fn an_edit_already_in_the_file_says_unchanged_and_check_tells_ci_whether_it_is_in() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("f.txt"), "a\nb\nc\n").expect("write");
    let run = |args: &[&str]| hunkloom(dir.path(), args, Some(DIFF));
    // --check before: it would change the file, so exit 1, and nothing is written.
    let out = run(&["apply", "--check", "--diff", "-", "f.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("would change"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).expect("read"),
        "a\nb\nc\n"
    );
    let out = run(&["apply", "--diff", "-", "f.txt"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 block(s) applied"));
    // The same diff again: nothing to do, said so, exit 0; --check agrees.
    for args in [
        &["apply", "--diff", "-", "f.txt"][..],
        &["apply", "--check", "--diff", "-", "f.txt"][..],
    ] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(
            stderr.contains("f.txt: unchanged (already applied)"),
            "{stderr}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).expect("read"),
        "a\nB\nc\n"
    );
    // A patch: --check exits 1 while it would change files, 0 once it is in.
    let dir = patch_tree();
    let out = hunkloom(
        dir.path(),
        &["apply", "--check", "--patch", "-"],
        Some(PATCH),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_unpatched(dir.path());
    let out = hunkloom(
        dir.path(),
        &["apply", "--check", "--dry-run", "--patch", "-"],
        Some(PATCH),
    );
    assert_eq!(out.status.code(), Some(2), "--check and --dry-run conflict");
    // Applied, then sent again (a retried call): unchanged, exit 0; --check agrees.
    let out = hunkloom(dir.path(), &["apply", "--patch", "-"], Some(PATCH));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = snapshot_of(dir.path());
    for args in [
        &["apply", "--patch", "-"][..],
        &["apply", "--check", "--patch", "-"][..],
    ] {
        let out = hunkloom(dir.path(), args, Some(PATCH));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.contains("unchanged"), "{stderr}");
    }
    assert_eq!(snapshot_of(dir.path()), after);
}

/// Every file under `dir` with its bytes.
fn snapshot_of(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut files: Vec<_> = walk(dir)
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("read");
            (p, bytes)
        })
        .collect();
    files.sort();
    files
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn a_unified_diff_given_as_a_search_replace_diff_is_named_as_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("f.txt"), "x\n").expect("write");
    let udiff = "--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-x\n+y\n";
    let out = hunkloom(dir.path(), &["apply", "--diff", "-", "f.txt"], Some(udiff));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("[malformed_block]") && stderr.contains("unified diff"),
        "{stderr}"
    );
    assert!(stderr.contains("`udiff` dialect"), "{stderr}");
    // With the dialect it says, it applies.
    let out = hunkloom(
        dir.path(),
        &["apply", "--dialect", "udiff", "--diff", "-", "f.txt"],
        Some(udiff),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).expect("read"),
        "y\n"
    );
}

#[test]
fn protected_paths_are_refused_and_protect_adds_globs() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    std::fs::write(dir.path().join(".git/config"), "[core]\n").expect("write");
    std::fs::write(dir.path().join("Cargo.lock"), "x\n").expect("write");
    let diff =
        "------- SEARCH\n[core]\n=======\n[core]\n\thooksPath = /tmp/evil\n+++++++ REPLACE\n";
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", ".git/config"],
        Some(diff),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("[path_protected]"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".git/config")).expect("read"),
        "[core]\n"
    );
    let lock = "------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n";
    let out = hunkloom(
        dir.path(),
        &["apply", "--protect", "*.lock", "--diff", "-", "Cargo.lock"],
        Some(lock),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("[path_protected]"));
    let out = hunkloom(
        dir.path(),
        &["apply", "--diff", "-", "Cargo.lock"],
        Some(lock),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_aider_reply_applies_to_the_files_it_names_keeping_line_endings() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("app.py"),
        "def f():\r\n    x = 1\r\n    y = 2\r\n",
    )
    .expect("write");
    let reply = "Here it is.\n\napp.py\n```python\n<<<<<<< SEARCH\n    x = 1\n=======\n    x = 2\n    z = 3\n>>>>>>> REPLACE\n```\n\nnew.py\n```python\n<<<<<<< SEARCH\n=======\nprint()\n>>>>>>> REPLACE\n```\n";
    let out = hunkloom(
        dir.path(),
        &["apply", "--patch", "-", "--dialect", "aider"],
        Some(reply),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // aider itself would write the file with `\n`; the workspace keeps the file's own endings.
    assert_eq!(
        std::fs::read(dir.path().join("app.py")).expect("read"),
        b"def f():\r\n    x = 2\r\n    z = 3\r\n    y = 2\r\n"
    );
    assert_eq!(
        std::fs::read(dir.path().join("new.py")).expect("read"),
        b"print()\n"
    );
    // A block that matches nothing: aider's text, and nothing written.
    let miss = reply
        .replace("x = 1", "q = 9")
        .replace("new.py", "other.py");
    let out = hunkloom(
        dir.path(),
        &["apply", "--patch", "-", "--dialect", "aider"],
        Some(&miss),
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("# 1 SEARCH/REPLACE block failed to match!"),
        "{stderr}"
    );
    assert!(!dir.path().join("other.py").exists());
}

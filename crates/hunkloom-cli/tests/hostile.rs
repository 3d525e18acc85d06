//! Hostile files and inputs through `hunkloom apply`: as the FILE, as the `--diff`/`--patch`
//! source and as a file a patch names. Each exits with a `[code]` on standard error and every
//! file byte-identical, or succeeds; none runs past a deadline. Prints one line per case,
//! `hostile <input> cli <how>: <code or ok>, files unchanged` (rows of `RELIABILITY.md`).

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DIFF: &str = "------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n";

/// Files under `dir` (not recursing), name → bytes, special files by type, big ones by size.
fn snapshot(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| {
            let path = e.expect("entry").path();
            let meta = std::fs::symlink_metadata(&path).expect("meta");
            let what = if meta.is_file() && meta.len() <= 1 << 20 {
                format!("{:?}", std::fs::read(&path).expect("read"))
            } else {
                format!(
                    "{:?} {} {:?}",
                    meta.file_type(),
                    meta.len(),
                    meta.modified().ok()
                )
            };
            (path.display().to_string(), what)
        })
        .collect();
    out.sort();
    out
}

/// Runs `hunkloom args` in `dir` (the root) with `stdin`, killing it after 20 s; the exit
/// status and the code in brackets on standard error (`ok` on success).
fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hunkloom"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    {
        use std::io::Write;
        let mut input = child.stdin.take().expect("stdin");
        let _ = input.write_all(stdin);
    }
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .expect("stderr")
                .read_to_string(&mut err)
                .expect("stderr");
            if status.success() {
                return "ok".to_owned();
            }
            assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
            let code = err
                .split_once('[')
                .and_then(|(_, rest)| rest.split_once(']'))
                .map(|(code, _)| code.to_owned());
            return code.unwrap_or_else(|| panic!("{args:?}: no [code] in {err:?}"));
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("{args:?} still running after 20 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn sh(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd)
        .args(args)
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs one case: the code must be `want`, and on a refusal nothing in `dir` may change.
fn case(dir: &Path, input: &str, how: &str, args: &[&str], stdin: &[u8], want: &str) {
    let before = snapshot(dir);
    let got = run(dir, args, stdin);
    if got != "ok" {
        assert_eq!(snapshot(dir), before, "{input} {how}: files changed");
    }
    let files = if got == "ok" {
        "applied"
    } else {
        "files unchanged"
    };
    println!("hostile {input} cli {how}: {got}, {files}");
    assert_eq!(got, want, "{input} {how}");
}

#[test]
fn hostile_files_as_the_file_edited() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    std::fs::write(p.join("e.diff"), DIFF).expect("write");
    std::fs::write(p.join("empty"), "").expect("write");
    assert!(sh("mkfifo", &[&p.join("fifo").to_string_lossy()]));
    std::fs::create_dir(p.join("sub")).expect("mkdir");
    std::os::unix::fs::symlink("loop2", p.join("loop1")).expect("symlink");
    std::os::unix::fs::symlink("loop1", p.join("loop2")).expect("symlink");
    let f = std::fs::File::create(p.join("sparse")).expect("create");
    f.set_len(2 << 30).expect("set_len");
    drop(f);
    std::fs::write(p.join("binary.txt"), b"caf\xe9\0 x\n").expect("write");
    for (input, file, want) in [
        ("fifo", "fifo", "io_error"),
        ("directory", "sub", "io_error"),
        ("symlink-loop", "loop1", "io_error"),
        ("sparse-2GiB", "sparse", "file_too_large"),
        (
            "invalid-UTF-8-binary-content",
            "binary.txt",
            "unsupported_encoding",
        ),
        ("0-byte", "empty", "search_not_found"),
    ] {
        case(
            p,
            input,
            "FILE",
            &["apply", "--diff", "e.diff", file],
            b"",
            want,
        );
        let patch =
            format!("*** Begin Patch\n*** Update File: {file}\n@@\n-x\n+y\n*** End Patch\n");
        let want = if input == "0-byte" {
            "patch_context_not_found"
        } else {
            want
        };
        case(
            p,
            input,
            "patch",
            &["apply", "--patch", "-"],
            patch.as_bytes(),
            want,
        );
    }
    if sh("mknod", &[&p.join("null").to_string_lossy(), "c", "1", "3"]) {
        case(
            p,
            "device",
            "FILE",
            &["apply", "--diff", "e.diff", "null"],
            b"",
            "io_error",
        );
    } else {
        println!("hostile device cli: skipped (mknod needs root)");
    }
    std::fs::write(p.join("a.txt"), "x\n").expect("write");
    if sh("chattr", &["+i", &p.join("a.txt").to_string_lossy()]) {
        let got = run(p, &["apply", "--diff", "e.diff", "a.txt"], b"");
        assert!(sh("chattr", &["-i", &p.join("a.txt").to_string_lossy()]));
        println!("hostile immutable-file cli FILE: {got}, files unchanged");
        assert_eq!(got, "io_error");
        assert_eq!(std::fs::read(p.join("a.txt")).expect("read"), b"x\n");
    } else {
        println!("hostile immutable-file cli: skipped (chattr +i is not supported here)");
    }
}

#[test]
fn hostile_edit_sources() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    std::fs::write(p.join("a.txt"), "x\n").expect("write");
    assert!(sh("mkfifo", &[&p.join("fifo").to_string_lossy()]));
    std::fs::create_dir(p.join("sub")).expect("mkdir");
    std::fs::write(
        p.join("bad.diff"),
        b"------- SEARCH\nx\xff\n=======\ny\n+++++++ REPLACE\n",
    )
    .expect("write");
    /// (input, how it is given, arguments, standard input, expected code)
    type Case<'a> = (&'a str, &'a str, &'a [&'a str], &'a [u8], &'a str);
    let cases: [Case; 8] = [
        // A FIFO nobody writes to reads as an empty edit, at once.
        (
            "fifo",
            "--diff",
            &["apply", "--diff", "fifo", "a.txt"],
            b"",
            "malformed_block",
        ),
        (
            "fifo",
            "--patch",
            &["apply", "--patch", "fifo"],
            b"",
            "invalid_patch",
        ),
        (
            "device",
            "--diff",
            &["apply", "--diff", "/dev/zero", "a.txt"],
            b"",
            "io_error",
        ),
        (
            "directory",
            "--diff",
            &["apply", "--diff", "sub", "a.txt"],
            b"",
            "io_error",
        ),
        (
            "invalid-UTF-8-diff",
            "--diff",
            &["apply", "--diff", "bad.diff", "a.txt"],
            b"",
            "unsupported_encoding",
        ),
        (
            "invalid-UTF-8-diff",
            "stdin",
            &["apply", "--diff", "-", "a.txt"],
            b"------- SEARCH\n\xff\n",
            "unsupported_encoding",
        ),
        (
            "NUL-in-diff",
            "stdin",
            &["apply", "--diff", "-", "a.txt"],
            b"------- SEARCH\nx\0\n=======\ny\n+++++++ REPLACE\n",
            "search_not_found",
        ),
        (
            "missing",
            "--diff",
            &["apply", "--diff", "nothing.diff", "a.txt"],
            b"",
            "io_error",
        ),
    ];
    for (input, how, args, stdin, want) in cases {
        case(p, input, how, args, stdin, want);
    }
}

#[test]
fn many_blocks_through_the_command() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    // 10^4 here (a debug build); the release bindings' tests take 10^6.
    let n = 10_000;
    let original: String = (0..n).map(|i| format!("let v{i} = f({i});\n")).collect();
    let diff: String = (0..n)
        .map(|i| {
            format!(
                "------- SEARCH\nlet v{i} = f({i});\n=======\nlet v{i} = g({i});\n+++++++ REPLACE\n"
            )
        })
        .collect();
    std::fs::write(p.join("m.rs"), &original).expect("write");
    let t = Instant::now();
    case(
        p,
        "10^4-blocks",
        "stdin",
        &["apply", "--diff", "-", "m.rs"],
        diff.as_bytes(),
        "ok",
    );
    println!("hostile 10^4-blocks cli: {:.1?}", t.elapsed());
    assert_eq!(
        std::fs::read_to_string(p.join("m.rs")).expect("read"),
        original.replace("= f(", "= g(")
    );
}

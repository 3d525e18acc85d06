//! Hostile files and inputs through the file layer: each gets a stable code and leaves every
//! file byte-identical, or succeeds; none hangs (each call runs under a deadline), none
//! panics. Prints one line per case, `hostile <input> <op>: <code or ok>, files unchanged`,
//! the rows of `RELIABILITY.md`'s table for Rust.

#![cfg(unix)]

mod common;

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// Every file under `dir` as [`common::snapshot`] has it, except that a file over 64 MiB (the
/// sparse one) is its length and modification time rather than its bytes.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let path = entry.expect("entry").path();
        let meta = std::fs::symlink_metadata(&path).expect("meta");
        if meta.is_file() && meta.len() > 64 << 20 {
            let stamp = format!("{} bytes, {:?}", meta.len(), meta.modified().ok());
            out.push((path.display().to_string(), stamp.into_bytes()));
        } else if meta.is_dir() {
            out.extend(snapshot(&path));
        } else if meta.is_file() {
            out.push((
                path.display().to_string(),
                std::fs::read(&path).expect("read"),
            ));
        } else {
            out.push((
                path.display().to_string(),
                format!("{:?}", meta.file_type()).into_bytes(),
            ));
        }
    }
    out.sort();
    out
}
use hunkloom::ApplyOptions;
use hunkloom::patch::PatchOptions;
use hunkloom_fs::{Workspace, WorkspaceOptions};

/// The longest any single call may take.
const DEADLINE: Duration = Duration::from_secs(20);

const DIFF: &str = "------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n";

/// Runs `f` on another thread; panics if it panics or outlives the deadline.
fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: still running after {DEADLINE:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: panicked"),
    }
}

/// The outcome's code (`ok` for success).
fn code<T>(r: &hunkloom::Result<T>) -> String {
    match r {
        Ok(_) => "ok".to_owned(),
        Err(e) => e.code().to_owned(),
    }
}

/// Every operation on `name` in a workspace on `dir` (read first where the op needs it): the
/// code of each, asserting the directory is byte-identical after each refusal. Returns the
/// codes by op name.
fn every_op(dir: &Path, input: &str, name: &str) -> Vec<(&'static str, String)> {
    type Op = fn(&mut Workspace, &str) -> hunkloom::Result<()>;
    let ops: [(&str, Op); 6] = [
        ("read", |ws, p| ws.read(p).map(drop)),
        ("str_replace", |ws, p| {
            let _ = ws.read(p);
            ws.str_replace(p, "x", "y", false).map(drop)
        }),
        ("apply_diff", |ws, p| {
            let _ = ws.read(p);
            ws.apply_diff(p, DIFF, &ApplyOptions::default()).map(drop)
        }),
        ("write", |ws, p| {
            let _ = ws.read(p);
            ws.write(p, "new\n").map(drop)
        }),
        ("apply_patch", |ws, p| {
            let patch =
                format!("*** Begin Patch\n*** Update File: {p}\n@@\n-x\n+y\n*** End Patch\n");
            ws.apply_patch(&patch, &PatchOptions::new()).map(drop)
        }),
        ("undo", |ws, p| ws.undo(p).map(drop)),
    ];
    let mut out = Vec::new();
    for (op, f) in ops {
        let before = snapshot(dir);
        let (d, n) = (dir.to_path_buf(), name.to_owned());
        let r = bounded(&format!("{input} {op}"), move || {
            let mut ws = Workspace::open(&d, WorkspaceOptions::new()).expect("open");
            f(&mut ws, &n)
        });
        let c = code(&r);
        if r.is_err() {
            assert_eq!(snapshot(dir), before, "{input} {op} ({c}) changed files");
        }
        let files = if r.is_ok() {
            "applied"
        } else {
            "files unchanged"
        };
        println!("hostile {input} {op}: {c}, {files}");
        out.push((op, c));
    }
    out
}

/// Asserts every op was refused with one of `codes` (`undo`: also `nothing_to_undo`).
fn all_refused(results: &[(&str, String)], codes: &[&str]) {
    for (op, c) in results {
        let fine = codes.contains(&c.as_str()) || (*op == "undo" && c == "nothing_to_undo");
        assert!(fine, "{op}: {c}, expected one of {codes:?}");
    }
}

fn run(cmd: &str, args: &[&str]) -> bool {
    std::process::Command::new(cmd)
        .args(args)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn fifo_device_directory_and_symlink_loop_are_refused_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    std::fs::write(p.join("a.txt"), "x\n").expect("write");
    assert!(run("mkfifo", &[&p.join("fifo").to_string_lossy()]));
    std::fs::create_dir(p.join("sub")).expect("mkdir");
    std::os::unix::fs::symlink("loop2", p.join("loop1")).expect("symlink");
    std::os::unix::fs::symlink("loop1", p.join("loop2")).expect("symlink");
    all_refused(&every_op(p, "fifo", "fifo"), &["io_error"]);
    all_refused(&every_op(p, "directory", "sub"), &["io_error"]);
    all_refused(&every_op(p, "symlink-loop", "loop1"), &["io_error"]);
    // A device node needs root (CI runs as root); elsewhere the case is skipped, saying why.
    if run("mknod", &[&p.join("null").to_string_lossy(), "c", "1", "3"]) {
        all_refused(&every_op(p, "device", "null"), &["io_error"]);
    } else {
        println!("hostile device: skipped (mknod needs root)");
    }
}

#[test]
fn empty_file_and_sparse_2_gib_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    std::fs::write(p.join("empty"), "").expect("write");
    let results = every_op(p, "0-byte", "empty");
    // Reading works; edits that need text refuse (`not_found`, `search_not_found`...) or,
    // for a write, succeed.
    assert_eq!(results[0].1, "ok");
    assert_eq!(results[3].1, "ok");
    // 2 GiB of holes: nothing on disk, refused by its size before a byte is read.
    let f = std::fs::File::create(p.join("sparse")).expect("create");
    f.set_len(2 << 30).expect("set_len");
    drop(f);
    let t = std::time::Instant::now();
    all_refused(&every_op(p, "sparse-2GiB", "sparse"), &["file_too_large"]);
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}

#[test]
fn a_symlink_swapped_in_after_the_read_is_not_followed_blindly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let outside = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    std::fs::write(p.join("a.txt"), "x\n").expect("write");
    std::fs::write(p.join("b.txt"), "x\n").expect("write");
    std::fs::write(outside.path().join("o.txt"), "x\n").expect("write");
    let ws = Workspace::open(p, WorkspaceOptions::new()).expect("open");
    ws.read("a.txt").expect("read");
    // Replaced by a link to a file inside the root that was never read: not_read.
    std::fs::remove_file(p.join("a.txt")).expect("rm");
    std::os::unix::fs::symlink("b.txt", p.join("a.txt")).expect("symlink");
    let before = snapshot(p);
    let e = ws
        .str_replace("a.txt", "x", "y", false)
        .expect_err("refused");
    println!(
        "hostile symlink-swap(inside) str_replace: {}, files unchanged",
        e.code()
    );
    assert_eq!(e.code(), "not_read");
    assert_eq!(snapshot(p), before);
    // Replaced by a link leading out of the root: refused as outside.
    std::fs::remove_file(p.join("a.txt")).expect("rm");
    std::os::unix::fs::symlink(outside.path().join("o.txt"), p.join("a.txt")).expect("symlink");
    let before = snapshot(p);
    let e = ws.write("a.txt", "y\n").expect_err("refused");
    println!(
        "hostile symlink-swap(outside) write: {}, files unchanged",
        e.code()
    );
    assert_eq!(e.code(), "path_outside_root");
    assert_eq!(snapshot(p), before);
    assert_eq!(
        std::fs::read(outside.path().join("o.txt")).expect("read"),
        b"x\n"
    );
}

#[test]
fn a_file_growing_while_it_is_read_and_edited() {
    const MAX_LINES: u64 = 100_000;
    const BURST: u64 = 64;
    const PAUSE: Duration = Duration::from_micros(200);
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().to_path_buf();
    std::fs::write(p.join("log.txt"), "x\n").expect("write");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (p, stop) = (p.clone(), stop.clone());
        std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(p.join("log.txt"))
                .expect("open");
            // Bounded, so the test's cost and disk use do not depend on the machine's speed:
            // bursts with a pause between them, and at most `MAX_LINES` (about 1.3 MB) in all.
            let mut n = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) && n < MAX_LINES {
                writeln!(f, "line {n}").expect("append");
                n += 1;
                if n.is_multiple_of(BURST) {
                    std::thread::sleep(PAUSE);
                }
            }
            n
        })
    };
    let mut codes = std::collections::BTreeMap::<String, usize>::new();
    for _ in 0..50 {
        let q = p.clone();
        let c = bounded("growing", move || {
            let ws = Workspace::open(&q, WorkspaceOptions::new()).expect("open");
            let text = ws.read("log.txt")?;
            assert!(text.starts_with("x\n"));
            ws.str_replace("log.txt", "x\n", "X\n", false).map(drop)
        });
        *codes.entry(code(&c)).or_default() += 1;
        if c.is_ok() {
            // Put it back so the next round has an `x` to replace.
            let text = std::fs::read_to_string(p.join("log.txt")).expect("read");
            assert!(text.starts_with("X\n"), "the edit landed: {:?}", &text[..2]);
        }
        let text = std::fs::read(p.join("log.txt")).expect("read");
        let rest = text[2..].to_vec();
        let mut fixed = b"x\n".to_vec();
        fixed.extend(rest);
        std::fs::write(p.join("log.txt"), fixed).expect("write");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let appended = writer.join().expect("writer");
    println!(
        "hostile growing-file read+str_replace: {codes:?} over 50 rounds ({appended} lines appended)"
    );
    for c in codes.keys() {
        assert!(["ok", "stale_file"].contains(&c.as_str()), "unexpected {c}");
    }
}

#[test]
fn an_immutable_file_and_directory_refuse_edits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    std::fs::write(p.join("a.txt"), "x\n").expect("write");
    // Permission bits do not stop root; the immutable attribute does, where the file system
    // has it (ext4, xfs, btrfs; not tmpfs or overlay).
    if !run("chattr", &["+i", &p.join("a.txt").to_string_lossy()]) {
        println!("hostile immutable: skipped (chattr +i is not supported here)");
        return;
    }
    let results = every_op(p, "immutable-file", "a.txt");
    assert!(run("chattr", &["-i", &p.join("a.txt").to_string_lossy()]));
    assert_eq!(results[0].1, "ok");
    for (op, c) in &results[1..] {
        assert!(
            ["io_error", "nothing_to_undo"].contains(&c.as_str()),
            "{op}: {c}"
        );
    }
    std::fs::create_dir(p.join("locked")).expect("mkdir");
    std::fs::write(p.join("locked/b.txt"), "x\n").expect("write");
    assert!(run("chattr", &["+i", &p.join("locked").to_string_lossy()]));
    let results = every_op(p, "immutable-directory", "locked/b.txt");
    assert!(run("chattr", &["-i", &p.join("locked").to_string_lossy()]));
    for (op, c) in &results[1..] {
        assert!(
            ["io_error", "nothing_to_undo"].contains(&c.as_str()),
            "{op}: {c}"
        );
    }
    common::assert_no_leftovers(p);
}

#[test]
fn odd_bytes_in_names_and_contents() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    // A name that is not UTF-8 (Linux allows any bytes but `/` and NUL).
    let name = std::ffi::OsStr::from_bytes(b"bad-\xff.txt");
    std::fs::write(p.join(name), "x\n").expect("write");
    let ws = Workspace::open(p, WorkspaceOptions::new()).expect("open");
    ws.read(name).expect("read");
    ws.str_replace(name, "x", "y", false).expect("edit");
    assert_eq!(std::fs::read(p.join(name)).expect("read"), b"y\n");
    println!("hostile non-UTF-8-name str_replace: ok");
    // A NUL in a path is refused before any system call.
    let before = snapshot(p);
    let e = ws.read("a\0b").expect_err("NUL");
    println!("hostile NUL-in-path read: {}, files unchanged", e.code());
    assert_eq!(e.code(), "io_error");
    let e = ws.write("a\0b", "x").expect_err("NUL");
    assert_eq!(e.code(), "io_error");
    assert_eq!(snapshot(p), before);
    // NUL bytes in content are text like any other.
    std::fs::write(p.join("nul.bin"), b"a\0b\nx\n").expect("write");
    ws.read("nul.bin").expect("read");
    ws.str_replace("nul.bin", "a\0b", "c\0d", false)
        .expect("edit");
    assert_eq!(
        std::fs::read(p.join("nul.bin")).expect("read"),
        b"c\0d\nx\n"
    );
    println!("hostile NUL-in-content str_replace: ok");
    // Bytes that are not UTF-8 and look binary (a NUL): refused, never rewritten. (Legacy
    // text is edited in its encoding: tests/encodings.rs.)
    std::fs::write(p.join("binary.dat"), b"caf\xe9\0 x\n").expect("write");
    all_refused(
        &every_op(p, "invalid-UTF-8-binary-content", "binary.dat"),
        &["unsupported_encoding"],
    );
}

/// A file of one long line, edited at its end: succeeds within the deadline. 10 MB here (a debug
/// build reads, hashes and decodes ~10 MB/s); the bindings' tests (release builds) take 100 MB.
#[test]
fn a_10_mb_single_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().to_path_buf();
    let mut line = vec![b'a'; 10 << 20];
    line.extend_from_slice(b"END");
    std::fs::write(p.join("big.txt"), &line).expect("write");
    let t = std::time::Instant::now();
    let q = p.clone();
    bounded("100 MB line", move || {
        let ws = Workspace::open(&q, WorkspaceOptions::new()).expect("open");
        ws.read("big.txt").expect("read");
        ws.str_replace("big.txt", "aEND", "aFIN", false)
            .expect("edit");
    });
    let got = std::fs::read(p.join("big.txt")).expect("read");
    assert_eq!(got.len(), line.len());
    assert!(got.ends_with(b"aFIN"));
    println!("hostile 10MB-line str_replace: ok in {:.1?}", t.elapsed());
}

/// Many blocks in one diff through the file layer (10^4 here, in a debug build; the release
/// bindings' tests take 10^6).
#[test]
fn many_blocks_in_one_diff() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().to_path_buf();
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
    let t = std::time::Instant::now();
    let q = p.clone();
    bounded("many blocks", move || {
        let ws = Workspace::open(&q, WorkspaceOptions::new()).expect("open");
        ws.read("m.rs").expect("read");
        ws.apply_diff("m.rs", &diff, &ApplyOptions::default())
            .expect("applies");
    });
    let got = std::fs::read_to_string(p.join("m.rs")).expect("read");
    assert_eq!(got, original.replace("= f(", "= g("));
    println!("hostile 10^4-blocks apply_diff: ok in {:.1?}", t.elapsed());
}

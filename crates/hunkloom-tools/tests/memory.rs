//! A ranged `view` of a 50 MB file raises the process's peak memory by less than 8 MB: the
//! file layer reads it in pieces and keeps only the lines shown.
//!
//! The view runs in a child process (this test binary again, with `HUNKLOOM_MEMORY_CHILD` set)
//! so that the peak it reports (`VmHWM` in `/proc/self/status`) is the view's alone, not that
//! of other tests or of writing the file.

#![cfg(target_os = "linux")]

use std::io::Write;
use std::process::Command;

use hunkloom_tools::{EditorOptions, TextEditor};
use serde_json::json;

/// The process's peak resident memory in KiB.
fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

const CHILD: &str = "HUNKLOOM_MEMORY_CHILD";
const MIB: u64 = 1 << 20;

#[test]
fn a_ranged_view_of_a_50_mb_file_stays_under_8_mb() {
    if let Ok(root) = std::env::var(CHILD) {
        return child(&root);
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut file =
        std::io::BufWriter::new(std::fs::File::create(dir.path().join("big.log")).expect("create"));
    let mut written = 0u64;
    let mut n = 0u64;
    while written < 50 * MIB {
        let line = format!(
            "{n:>9} event=request path=/api/items/{n} status=200 ms={}\n",
            n % 997
        );
        file.write_all(line.as_bytes()).expect("write");
        written += line.len() as u64;
        n += 1;
    }
    file.flush().expect("flush");
    drop(file);
    std::fs::write(dir.path().join("small.txt"), "a\nb\n").expect("write");
    let out = Command::new(std::env::current_exe().expect("exe"))
        .args([
            "--exact",
            "a_ranged_view_of_a_50_mb_file_stays_under_8_mb",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, dir.path())
        .output()
        .expect("child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("ranged view of a 50 MB file: peak +"),
        "{stdout}"
    );
}

fn child(root: &str) {
    let editor = TextEditor::new(root, EditorOptions::new()).expect("editor");
    // Warm up: the editor's own allocations, a small view.
    let small = editor
        .call(&json!({"command": "view", "path": "small.txt"}))
        .expect("call");
    assert!(!small.is_error, "{}", small.output);
    let before = peak_kib();
    let result = editor
        .call(&json!({"command": "view", "path": "big.log", "view_range": [400_000, 400_020]}))
        .expect("call");
    let after = peak_kib();
    assert!(!result.is_error, "{}", result.output);
    assert!(
        result.output.contains("\n400000\t   399999 event="),
        "{}",
        &result.output[..200]
    );
    assert_eq!(result.output.lines().count(), 22, "{}", result.output);
    let grown = after.saturating_sub(before);
    println!(
        "ranged view of a 50 MB file: peak +{:.2} MB ({} KiB before, {} KiB after)",
        grown as f64 / 1024.0,
        before,
        after
    );
    assert!(grown < 8 * 1024, "the peak grew by {grown} KiB");
}

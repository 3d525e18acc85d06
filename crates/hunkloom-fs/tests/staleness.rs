//! Read tracking: staleness is decided by content, not by the modification time.

mod common;

use std::time::{Duration, SystemTime};

use common::{setup, snapshot};
use hunkloom_fs::{Workspace, WorkspaceOptions};

fn set_mtime(path: &std::path::Path, time: SystemTime) {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .expect("open");
    file.set_modified(time).expect("set_modified");
}

fn mtime(path: &std::path::Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .expect("mtime")
}

#[test]
fn a_touch_without_a_change_is_allowed() {
    let (dir, ws) = setup(&[("a.txt", b"a\nb\n")]);
    let path = dir.path().join("a.txt");
    ws.read("a.txt").expect("read");
    set_mtime(&path, SystemTime::now() + Duration::from_secs(3600));
    ws.str_replace("a.txt", "b", "B", false)
        .expect("a touch is not a change");
    assert_eq!(std::fs::read(&path).expect("read"), b"a\nB\n");
}

#[test]
fn a_change_is_refused_even_with_the_old_modification_time() {
    let (dir, ws) = setup(&[("a.txt", b"a\nb\n")]);
    let path = dir.path().join("a.txt");
    ws.read("a.txt").expect("read");
    let before = mtime(&path);
    // Same size, other content, and the time set back: only the hash can tell.
    std::fs::write(&path, "a\nc\n").expect("write");
    set_mtime(&path, before);
    assert_eq!(mtime(&path), before);
    let snap = snapshot(dir.path());
    let err = ws.str_replace("a.txt", "a", "A", false).expect_err("stale");
    assert_eq!(err.code(), "stale_file");
    assert_eq!(snapshot(dir.path()), snap);
    // Reading again makes it editable.
    ws.read("a.txt").expect("read");
    ws.str_replace("a.txt", "a", "A", false).expect("fresh");
    assert_eq!(std::fs::read(&path).expect("read"), b"A\nc\n");
}

#[test]
fn a_plain_change_is_refused() {
    let (dir, ws) = setup(&[("a.txt", b"a\n")]);
    ws.read("a.txt").expect("read");
    std::fs::write(dir.path().join("a.txt"), "a\nmore\n").expect("write");
    let err = ws.write("a.txt", "x").expect_err("stale");
    assert_eq!(err.code(), "stale_file");
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"a\nmore\n"
    );
    // A file deleted behind the workspace cannot be read any more.
    std::fs::remove_file(dir.path().join("a.txt")).expect("rm");
    ws.read("a.txt").expect_err("gone");
}

#[test]
fn a_second_workspace_on_the_same_root_sees_stale_file() {
    let (dir, first) = setup(&[("a.txt", b"one\ntwo\n")]);
    let second = Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
    first.read("a.txt").expect("read");
    second.read("a.txt").expect("read");
    first
        .str_replace("a.txt", "one", "ONE", false)
        .expect("first edits");
    let err = second
        .str_replace("a.txt", "two", "TWO", false)
        .expect_err("second is stale");
    assert_eq!(err.code(), "stale_file");
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"ONE\ntwo\n"
    );
    // The first one's own edit does not make its view stale.
    first
        .str_replace("a.txt", "two", "TWO", false)
        .expect("consecutive edits");
}

#[test]
fn a_change_between_plan_and_commit_is_caught() {
    let (dir, ws) = setup(&[("a.txt", b"a\n"), ("b.txt", b"b\n")]);
    ws.read("a.txt").expect("read");
    ws.read("b.txt").expect("read");
    let changes = vec![
        ws.plan(
            "a.txt",
            &hunkloom_fs::Op::Write {
                content: "A\n".into(),
            },
        )
        .expect("plan"),
        ws.plan(
            "b.txt",
            &hunkloom_fs::Op::Write {
                content: "B\n".into(),
            },
        )
        .expect("plan"),
    ];
    std::fs::write(dir.path().join("b.txt"), "changed\n").expect("write");
    let snap = snapshot(dir.path());
    let err = ws.commit(changes).expect_err("stale");
    assert_eq!(err.code(), "stale_file");
    assert_eq!(snapshot(dir.path()), snap);
}

#[test]
fn peek_reads_without_counting_as_a_read() {
    let (_dir, ws) = setup(&[("a.txt", b"a\r\nb\r\n")]);
    assert_eq!(ws.peek("a.txt").expect("peek"), "a\r\nb\r\n");
    let err = ws
        .str_replace("a.txt", "a", "A", false)
        .expect_err("not read");
    assert_eq!(err.code(), "not_read");
    ws.read("a.txt").expect("read");
    ws.str_replace("a.txt", "a", "A", false).expect("read now");
    assert_eq!(ws.peek("missing.txt").unwrap_err().code(), "file_not_found");
    assert_eq!(ws.peek("../x").unwrap_err().code(), "path_outside_root");
}

//! Permissions, symlinks, undo, and the multi-file change API.

mod common;

use common::{assert_no_leftovers, setup, snapshot};
use hunkloom_fs::{ChangeKind, Op, Workspace, WorkspaceOptions};

#[cfg(unix)]
#[test]
fn permissions_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, ws) = setup(&[("run.sh", b"echo hi\n")]);
    let path = dir.path().join("run.sh");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o751)).expect("chmod");
    ws.read("run.sh").expect("read");
    ws.str_replace("run.sh", "hi", "hello", false)
        .expect("edit");
    let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
    assert_eq!(mode & 0o777, 0o751);
    // A moved file keeps them too.
    let change = ws.plan_move("run.sh", "bin/run.sh", None).expect("plan");
    ws.commit(vec![change]).expect("move");
    let moved = dir.path().join("bin/run.sh");
    let mode = std::fs::metadata(&moved)
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o751);
    assert_no_leftovers(dir.path());
}

#[cfg(unix)]
#[test]
fn editing_through_a_symlink_edits_the_target_and_keeps_the_link() {
    let (dir, ws) = setup(&[("real/config.txt", b"a = 1\n")]);
    std::os::unix::fs::symlink("real/config.txt", dir.path().join("config.txt")).expect("link");
    assert_eq!(ws.read("config.txt").expect("read"), "a = 1\n");
    ws.str_replace("config.txt", "1", "2", false).expect("edit");
    let link = dir.path().join("config.txt");
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("meta")
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_link(&link).expect("link"),
        std::path::Path::new("real/config.txt")
    );
    assert_eq!(
        std::fs::read(dir.path().join("real/config.txt")).expect("read"),
        b"a = 2\n"
    );
    // The target counts as read under either name.
    ws.str_replace("real/config.txt", "2", "3", false)
        .expect("edit");
    assert_no_leftovers(dir.path());
}

#[test]
fn undo_restores_previous_contents_in_order() {
    let (dir, ws) = setup(&[("a.txt", b"v0\n")]);
    let path = dir.path().join("a.txt");
    ws.read("a.txt").expect("read");
    for i in 1..=3 {
        ws.write("a.txt", &format!("v{i}\n")).expect("write");
    }
    for i in (0..3).rev() {
        let outcome = ws.undo("a.txt").expect("undo");
        assert_eq!(
            outcome.new_content.as_deref(),
            Some(format!("v{i}\n").as_str())
        );
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            format!("v{i}\n")
        );
    }
    assert_eq!(
        ws.undo("a.txt").expect_err("empty").code(),
        "nothing_to_undo"
    );
    assert_no_leftovers(dir.path());
}

#[test]
fn undo_is_bounded_and_removes_created_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let options = WorkspaceOptions::new().undo_depth(2);
    let ws = Workspace::open(dir.path(), options).expect("open");
    for i in 0..4 {
        ws.write("n.txt", &format!("{i}")).expect("write");
    }
    ws.undo("n.txt").expect("undo 1");
    ws.undo("n.txt").expect("undo 2");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("n.txt")).expect("read"),
        "1"
    );
    assert_eq!(
        ws.undo("n.txt").expect_err("bounded").code(),
        "nothing_to_undo"
    );
    // Undoing a creation removes the file.
    ws.write("m.txt", "m").expect("create");
    let outcome = ws.undo("m.txt").expect("undo");
    assert_eq!(outcome.kind, ChangeKind::Delete);
    assert!(!dir.path().join("m.txt").exists());
}

#[test]
fn undo_is_refused_if_the_file_changed_since_the_edit() {
    let (dir, ws) = setup(&[("a.txt", b"a\n")]);
    ws.read("a.txt").expect("read");
    ws.write("a.txt", "b\n").expect("write");
    std::fs::write(dir.path().join("a.txt"), "user\n").expect("write");
    let snap = snapshot(dir.path());
    assert_eq!(ws.undo("a.txt").expect_err("changed").code(), "stale_file");
    assert_eq!(snapshot(dir.path()), snap);
}

#[test]
fn undo_restores_a_deleted_file() {
    let (dir, ws) = setup(&[("a.txt", b"\xEF\xBB\xBFkeep\r\n")]);
    ws.read("a.txt").expect("read");
    let change = ws.plan_delete("a.txt").expect("plan");
    ws.commit(vec![change]).expect("delete");
    assert!(!dir.path().join("a.txt").exists());
    ws.undo("a.txt").expect("undo");
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"\xEF\xBB\xBFkeep\r\n"
    );
}

#[test]
fn a_multi_file_change_commits_every_kind() {
    let files: &[(&str, &[u8])] = &[
        ("upd.txt", b"a\r\nb\r\n"),
        ("del.txt", b"gone\n"),
        ("mv.txt", b"x\n"),
    ];
    let (dir, ws) = setup(files);
    for f in ["upd.txt", "del.txt", "mv.txt"] {
        ws.read(f).expect("read");
    }
    let changes = vec![
        ws.plan(
            "upd.txt",
            &Op::SetText {
                text: "a\nB\n".into(),
            },
        )
        .expect("plan"),
        ws.plan(
            "dir/new.txt",
            &Op::Write {
                content: "new\n".into(),
            },
        )
        .expect("plan"),
        ws.plan_delete("del.txt").expect("plan"),
        ws.plan_move(
            "mv.txt",
            "moved.txt",
            Some(&Op::StrReplace {
                old: "x".into(),
                new: "y".into(),
                replace_all: false,
            }),
        )
        .expect("plan"),
    ];
    let kinds: Vec<ChangeKind> = changes.iter().map(|c| c.kind()).collect();
    assert_eq!(
        kinds,
        [
            ChangeKind::Update,
            ChangeKind::Create,
            ChangeKind::Delete,
            ChangeKind::Move
        ]
    );
    assert!(changes[3].moved_from().is_some());
    let done = ws.commit(changes).expect("commit");
    assert!(done.iter().all(|d| d.changed));
    let after = snapshot(dir.path());
    let names: Vec<&str> = after.keys().map(String::as_str).collect();
    assert_eq!(names, ["dir/new.txt", "moved.txt", "upd.txt"]);
    assert_eq!(after["upd.txt"], b"a\r\nB\r\n");
    assert_eq!(after["moved.txt"], b"y\n");
    // Each file's change can be taken back.
    for f in ["upd.txt", "dir/new.txt", "del.txt", "moved.txt", "mv.txt"] {
        ws.undo(f).expect("undo");
    }
    let names: Vec<String> = snapshot(dir.path()).into_keys().collect();
    assert_eq!(names, ["del.txt", "mv.txt", "upd.txt"]);
}

#[test]
fn an_identical_write_changes_nothing() {
    let (dir, ws) = setup(&[("a.txt", b"same\n")]);
    ws.read("a.txt").expect("read");
    let outcome = ws.write("a.txt", "same\n").expect("write");
    assert!(!outcome.changed);
    assert_eq!(snapshot(dir.path()).len(), 1);
}

#[test]
fn v4a_bodies_update_create_and_refuse_without_writing() {
    use hunkloom::patch::v4a::V4aMode;
    use hunkloom_fs::Report;
    // A UTF-16 file with a BOM and CRLF endings keeps its encoding; the text is the reference's.
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend("a\r\nb\r\n".encode_utf16().flat_map(u16::to_le_bytes));
    let (dir, ws) = setup(&[("app.txt", &utf16)]);
    ws.read("app.txt").expect("read");
    let outcome = ws
        .apply_v4a("app.txt", "@@\n a\n-b\n+B\n", V4aMode::Default)
        .expect("update");
    let Report::V4a(report) = &outcome.report else {
        panic!("{:?}", outcome.report)
    };
    assert_eq!((report.sections.len(), report.sections[0].line), (1, 1));
    let mut want = vec![0xFF, 0xFE];
    want.extend("a\r\nB\r\n".encode_utf16().flat_map(u16::to_le_bytes));
    assert_eq!(
        std::fs::read(dir.path().join("app.txt")).expect("read"),
        want
    );

    // A failing body writes nothing and carries the reference's message.
    let before = snapshot(dir.path());
    let e = ws
        .apply_v4a("app.txt", "-zzz\n+y\n", V4aMode::Default)
        .unwrap_err();
    assert_eq!(
        (e.code(), e.message()),
        ("patch_context_not_found", "Invalid Context 0:\nzzz")
    );
    // Create mode makes a new file (without a final newline, as the reference does) and
    // refuses an existing one.
    let e = ws
        .apply_v4a("app.txt", "+x\n", V4aMode::Create)
        .unwrap_err();
    assert_eq!(e.code(), "file_exists");
    assert_eq!(snapshot(dir.path()), before);
    let created = ws
        .apply_v4a("new.txt", "+one\n+two\n", V4aMode::Create)
        .expect("create");
    assert_eq!(created.kind, ChangeKind::Create);
    assert_eq!(
        std::fs::read(dir.path().join("new.txt")).expect("read"),
        b"one\ntwo"
    );
    let e = ws
        .apply_v4a("missing.txt", "+x\n", V4aMode::Default)
        .unwrap_err();
    assert_eq!(e.code(), "file_not_found");
    assert_no_leftovers(dir.path());
}

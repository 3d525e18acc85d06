//! `WorkspaceOptions::durability`: `none` skips the flushes and nothing else — the same files,
//! the same atomic replacement, nothing left behind, for one-file and several-file commits.

mod common;

use common::{assert_no_leftovers, snapshot};
use hunkloom_fs::{Durability, Op, Workspace, WorkspaceOptions};

/// Runs the same edits under `durability`; returns the tree after them.
fn edits(durability: Durability) -> std::collections::BTreeMap<String, Vec<u8>> {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").expect("write");
    std::fs::write(dir.path().join("b.txt"), "x\r\ny\r\n").expect("write");
    let ws =
        Workspace::open(dir.path(), WorkspaceOptions::new().durability(durability)).expect("open");
    assert_eq!(ws.options().durability, durability);
    ws.read("a.txt").expect("read");
    ws.str_replace("a.txt", "two", "2", false)
        .expect("one file");
    ws.write("new/c.txt", "created\n")
        .expect("a new file and its directory");
    ws.read("b.txt").expect("read");
    let changes = vec![
        ws.plan(
            "a.txt",
            &Op::Write {
                content: "one\n2\nthree\n".to_owned(),
            },
        )
        .expect("plan a"),
        ws.plan(
            "b.txt",
            &Op::SetText {
                text: "x\ny\nz\n".to_owned(),
            },
        )
        .expect("plan b"),
    ];
    ws.commit(changes).expect("two files, through the journal");
    ws.undo("b.txt").expect("undo");
    let tree = snapshot(dir.path());
    assert_no_leftovers(dir.path());
    tree
}

#[test]
fn no_durability_writes_the_same_files_and_leaves_nothing() {
    let full = edits(Durability::Full);
    assert_eq!(full["a.txt"], b"one\n2\nthree\n");
    assert_eq!(full["new/c.txt"], b"created\n");
    assert_eq!(edits(Durability::None), full);
}

#[test]
fn durability_names() {
    assert_eq!(Durability::default(), Durability::Full);
    for d in Durability::ALL {
        assert_eq!(d.as_str().parse::<Durability>().expect("its own name"), *d);
        assert_eq!(d.to_string(), d.as_str());
    }
    let e = "fast".parse::<Durability>().expect_err("not a name");
    assert_eq!(e.code(), "invalid_input");
    assert_eq!(
        e.message(),
        "unknown durability 'fast': expected one of full, none"
    );
}

//! Crash safety of multi-file commits: a fault injected after every step of the commit
//! sequence, as an error (the commit rolls back) and as a crash (the next `Workspace::open`
//! settles it). Every file ends entirely old or entirely new, and nothing is left behind.

mod common;

use std::collections::BTreeMap;

use common::{assert_no_leftovers, snapshot};
use hunkloom_fs::{Change, FaultMode, Op, Workspace, WorkspaceOptions};

type Snapshot = BTreeMap<String, Vec<u8>>;

const FILES: &[(&str, &[u8])] = &[
    ("a.txt", b"a old\r\n"),
    ("sub/b.txt", b"\xEF\xBB\xBFb old\n"),
    ("d.txt", b"d old\n"),
    ("m.txt", b"m old\n"),
];

fn fresh() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in FILES {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    let ws = Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
    for (name, _) in FILES {
        ws.read(name).expect("read");
    }
    (dir, ws)
}

/// Three files: two updates and a creation.
fn three_files(ws: &Workspace) -> Vec<Change> {
    vec![
        ws.plan(
            "a.txt",
            &Op::SetText {
                text: "a new\n".into(),
            },
        )
        .expect("plan"),
        ws.plan(
            "sub/b.txt",
            &Op::Write {
                content: "b new\n".into(),
            },
        )
        .expect("plan"),
        ws.plan(
            "c.txt",
            &Op::Write {
                content: "c new\n".into(),
            },
        )
        .expect("plan"),
    ]
}

/// A delete and a move with an edit (three paths touched).
fn delete_and_move(ws: &Workspace) -> Vec<Change> {
    let edit = Op::Write {
        content: "m new\n".into(),
    };
    vec![
        ws.plan_delete("d.txt").expect("plan"),
        ws.plan_move("m.txt", "sub/m2.txt", Some(&edit))
            .expect("plan"),
    ]
}

/// The state after the commit succeeds, without faults.
fn expected_new(plan: fn(&Workspace) -> Vec<Change>) -> Snapshot {
    let (dir, ws) = fresh();
    let changes = plan(&ws);
    ws.commit(changes).expect("commit");
    snapshot(dir.path())
}

/// Injects `mode` after every step in turn; returns how many steps the commit has.
fn every_step(plan: fn(&Workspace) -> Vec<Change>, mode: FaultMode) -> usize {
    let new = expected_new(plan);
    let mut outcomes = (0, 0);
    for step in 0.. {
        let (dir, ws) = fresh();
        let old = snapshot(dir.path());
        assert_ne!(old, new);
        let changes = plan(&ws);
        ws.inject_fault(step, mode);
        let result = ws.commit(changes);
        if !ws.fault_fired() {
            result.expect("no fault: the commit succeeds");
            assert_eq!(snapshot(dir.path()), new);
            assert!(outcomes.0 > 0, "some fault points must roll back");
            return step;
        }
        let after = match mode {
            // A fault after the commit point (every file replaced, journal `done`) only
            // interrupts the clean-up, which still runs: the commit stands.
            FaultMode::Error if result.is_ok() => snapshot(dir.path()),
            FaultMode::Error => {
                let err = result.expect_err("the fault is an error");
                assert_eq!(err.code(), "io_error");
                let after = snapshot(dir.path());
                assert_eq!(after, old, "step {step}: an error rolls back");
                assert_no_leftovers(dir.path());
                // The workspace stays usable: the same change commits now.
                ws.commit(plan(&ws)).expect("retry");
                assert_eq!(snapshot(dir.path()), new);
                after
            }
            FaultMode::Crash => {
                assert!(result.is_err());
                drop(ws);
                Workspace::open(dir.path(), WorkspaceOptions::new()).expect("recover");
                snapshot(dir.path())
            }
        };
        assert_no_leftovers(dir.path());
        if after == old {
            outcomes.0 += 1;
        } else if after == new {
            outcomes.1 += 1;
        } else {
            panic!("step {step} ({mode:?}): neither all old nor all new: {after:?}");
        }
    }
    unreachable!()
}

#[test]
fn an_error_after_any_step_rolls_the_commit_back() {
    let steps = every_step(three_files, FaultMode::Error);
    assert!(steps >= 9, "{steps} steps");
    every_step(delete_and_move, FaultMode::Error);
}

#[test]
fn a_crash_after_any_step_is_settled_by_the_next_open() {
    let steps = every_step(three_files, FaultMode::Crash);
    assert!(steps >= 9, "{steps} steps");
    every_step(delete_and_move, FaultMode::Crash);
}

/// A one-file call of each kind: the file it touches, that file's content if it succeeds
/// (`None`: removed), and the call (whether it succeeded).
type OneFile = (&'static str, Option<&'static [u8]>, fn(&Workspace) -> bool);

const ONE_FILE: &[OneFile] = &[
    ("a.txt", Some(b"a new\n"), |ws| {
        ws.write("a.txt", "a new\n").is_ok()
    }),
    ("sub/b.txt", Some(b"\xEF\xBB\xBFb new\n"), |ws| {
        ws.str_replace("sub/b.txt", "b old", "b new", false).is_ok()
    }),
    ("sub/new.txt", Some(b"created\n"), |ws| {
        ws.write("sub/new.txt", "created\n").is_ok()
    }),
    ("d.txt", None, |ws| {
        let change = ws.plan_delete("d.txt").expect("plan");
        ws.commit(vec![change]).is_ok()
    }),
];

#[test]
fn a_single_file_edit_is_atomic_too() {
    single_file_edits(false);
}

#[test]
fn a_single_file_edit_is_atomic_on_the_journaled_path_too() {
    // The path of systems and file systems where the root's staging name cannot work.
    single_file_edits(true);
}

fn single_file_edits(journaled: bool) {
    for &(name, new, call) in ONE_FILE {
        for mode in [FaultMode::Error, FaultMode::Crash] {
            let mut steps = 0;
            for step in 0..4 {
                let (dir, ws) = fresh();
                if journaled {
                    ws.journal_single_commits();
                }
                let path = dir.path().join(name);
                let old = std::fs::read(&path).ok();
                ws.inject_fault(step, mode);
                let succeeded = call(&ws);
                let fired = ws.fault_fired();
                drop(ws);
                Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
                let now = std::fs::read(&path).ok();
                let what = format!("{name} {mode:?} after step {step}");
                assert!(now == old || now.as_deref() == new, "{what}");
                if mode == FaultMode::Error && !succeeded {
                    assert_eq!(now, old, "{what}");
                }
                if !fired {
                    assert_eq!(now.as_deref(), new, "{what}");
                } else {
                    steps += 1;
                }
                // One file is replaced by a single rename; until then its new content is at
                // the root's staging name (or, where staging cannot work, at a temporary name
                // an unflushed journal records), so a crash before the rename leaves nothing
                // behind after the next open either (found by the fs_ops fuzz target).
                assert_no_leftovers(dir.path());
                let others: Vec<_> = FILES.iter().filter(|(n, _)| *n != name).collect();
                let tree = snapshot(dir.path());
                for (other, bytes) in others {
                    assert_eq!(tree.get(*other).map(Vec::as_slice), Some(*bytes), "{what}");
                }
            }
            assert!(steps >= 1, "{name} {mode:?}: no step fired");
        }
    }
}

#[test]
fn an_empty_journal_is_removed_at_open() {
    // What a power cut can leave of a one-file commit's unflushed record.
    let (dir, ws) = fresh();
    drop(ws);
    std::fs::write(dir.path().join(".hunkloom-journal"), "").expect("write");
    Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
    assert_no_leftovers(dir.path());
    assert_eq!(snapshot(dir.path()).len(), FILES.len());
}

#[test]
fn a_damaged_journal_stops_open() {
    let (dir, ws) = fresh();
    drop(ws);
    std::fs::write(dir.path().join(".hunkloom-journal"), "nonsense").expect("write");
    let err = Workspace::open(dir.path(), WorkspaceOptions::new()).expect_err("damaged");
    assert_eq!(err.code(), "io_error");
}

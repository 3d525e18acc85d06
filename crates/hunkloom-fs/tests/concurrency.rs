//! Several committers in one root at once: threads with their own `Workspace`, and separate
//! processes. Commits take turns on the root's lock, so no update is lost, no file is torn, and
//! no journal, lock, temporary or backup file is left in the root.

mod common;

use std::path::Path;
use std::process::Command;

use common::{assert_no_leftovers, snapshot};
use hunkloom::patch::PatchOptions;
use hunkloom_fs::{FaultMode, Op, Workspace, WorkspaceOptions};

/// Commits each committer makes.
const ROUNDS: usize = 30;

/// The shared files: a counter line per committer, far enough apart to merge.
fn shared(a: usize, b: usize) -> String {
    format!("A: {a}\nfiller 1\nfiller 2\nfiller 3\nfiller 4\nB: {b}\n")
}

fn seed(root: &Path) {
    for name in ["s1.txt", "sub/s2.txt"] {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, shared(0, 0)).expect("write");
    }
}

/// Committer `who` ("A" or "B") counts its line up to `ROUNDS` in both shared files: on even
/// steps one multi-file patch (which also adds a file of its own), on odd steps two
/// `str_replace` edits and a `write` of a new file; re-reading when a commit finds the files
/// changed under it (an edit merges around the other committer's line, a patch refuses).
/// Returns (commits, retries).
fn committer(root: &Path, who: &str) -> (usize, usize) {
    let ws = Workspace::open(root, WorkspaceOptions::new()).expect("open");
    let (mut commits, mut retries) = (0, 0);
    let mut retry = |e: hunkloom::Error, k: usize| {
        assert_eq!(e.code(), "stale_file", "{who} step {k}: {}", e.message());
        retries += 1;
        assert!(retries < 10 * ROUNDS, "no progress: {}", e.message());
    };
    for k in 0..ROUNDS {
        let n = k + 1;
        if k % 2 == 0 {
            loop {
                ws.read("s1.txt").expect("read");
                ws.read("sub/s2.txt").expect("read");
                let patch = format!(
                    "*** Begin Patch\n\
                     *** Update File: s1.txt\n@@\n-{who}: {k}\n+{who}: {n}\n\
                     *** Update File: sub/s2.txt\n@@\n-{who}: {k}\n+{who}: {n}\n\
                     *** Add File: {who}-{k}.txt\n+{who} {k}\n\
                     *** End Patch\n"
                );
                match ws.apply_patch(&patch, &PatchOptions::new()) {
                    Ok(_) => break,
                    Err(e) => retry(e, k),
                }
            }
            commits += 1;
        } else {
            for file in ["s1.txt", "sub/s2.txt"] {
                loop {
                    ws.read(file).expect("read");
                    let (old, new) = (format!("{who}: {k}\n"), format!("{who}: {n}\n"));
                    match ws.str_replace(file, &old, &new, false) {
                        Ok(_) => break,
                        Err(e) => retry(e, k),
                    }
                }
                commits += 1;
            }
            ws.write(format!("{who}-{k}.txt"), &format!("{who} {k}\n"))
                .expect("write a new file");
            commits += 1;
        }
    }
    (commits, retries)
}

fn assert_all_committed(root: &Path) {
    let files = snapshot(root);
    let text = |name: &str| String::from_utf8(files[name].clone()).expect("utf-8");
    assert_eq!(text("s1.txt"), shared(ROUNDS, ROUNDS));
    assert_eq!(text("sub/s2.txt"), shared(ROUNDS, ROUNDS));
    for who in ["A", "B"] {
        for k in 0..ROUNDS {
            assert_eq!(text(&format!("{who}-{k}.txt")), format!("{who} {k}\n"));
        }
    }
    // Nothing else: no journal, lock, temporary or backup file.
    assert_eq!(files.len(), 2 + 2 * ROUNDS, "{:?}", files.keys());
    assert_no_leftovers(root);
}

#[test]
fn two_workspaces_committing_patches_at_once_lose_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    seed(dir.path());
    let t = std::time::Instant::now();
    let counts: Vec<(usize, usize)> = std::thread::scope(|scope| {
        let workers: Vec<_> = ["A", "B"]
            .into_iter()
            .map(|who| {
                let root = dir.path();
                scope.spawn(move || committer(root, who))
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("committer"))
            .collect()
    });
    assert_all_committed(dir.path());
    let commits: usize = counts.iter().map(|c| c.0).sum();
    let retries: usize = counts.iter().map(|c| c.1).sum();
    println!(
        "concurrency rust 2 threads, own workspaces, one root: {commits} commits, {retries} stale retries, lost: 0, torn: 0 in {:.1?}",
        t.elapsed()
    );
}

/// The environment variable that turns [`child_committer`] into a committer.
const CHILD_ROOT: &str = "HUNKLOOM_TEST_CHILD_ROOT";
const CHILD_WHO: &str = "HUNKLOOM_TEST_CHILD_WHO";

/// Run by [`two_processes_committing_patches_at_once_lose_nothing`] in child processes;
/// does nothing on its own.
#[test]
fn child_committer() {
    if let (Ok(root), Ok(who)) = (std::env::var(CHILD_ROOT), std::env::var(CHILD_WHO)) {
        let (commits, retries) = committer(Path::new(&root), &who);
        println!("committed {commits} retried {retries}");
    }
}

#[test]
fn two_processes_committing_patches_at_once_lose_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    seed(dir.path());
    let exe = std::env::current_exe().expect("test binary");
    let children: Vec<_> = ["A", "B"]
        .into_iter()
        .map(|who| {
            Command::new(&exe)
                .args([
                    "--exact",
                    "child_committer",
                    "--test-threads=1",
                    "--nocapture",
                ])
                .env(CHILD_ROOT, dir.path())
                .env(CHILD_WHO, who)
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    let t = std::time::Instant::now();
    let (mut commits, mut retries) = (0, 0);
    for child in children {
        let out = child.wait_with_output().expect("wait");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text
            .lines()
            // (libtest may print `test child_committer ... ` before it on the same line.)
            .find_map(|l| l.split_once("committed ").map(|(_, rest)| rest))
            .expect("the child's counts");
        let (c, r) = line.split_once(" retried ").expect("counts");
        commits += c.trim().parse::<usize>().expect("commits");
        retries += r.trim().parse::<usize>().expect("retries");
    }
    assert_all_committed(dir.path());
    println!(
        "concurrency rust 2 processes, one root: {commits} commits, {retries} stale retries, lost: 0, torn: 0 in {:.1?}",
        t.elapsed()
    );
}

#[test]
fn a_journal_left_by_a_crash_is_settled_by_the_next_commit_of_another_workspace() {
    let dir = tempfile::tempdir().expect("tempdir");
    seed(dir.path());
    let before = snapshot(dir.path());
    let other = Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
    let crashing = Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
    crashing.read("s1.txt").expect("read");
    crashing.read("sub/s2.txt").expect("read");
    let changes = vec![
        crashing
            .plan(
                "s1.txt",
                &Op::SetText {
                    text: "new\n".into(),
                },
            )
            .expect("plan"),
        crashing
            .plan(
                "sub/s2.txt",
                &Op::SetText {
                    text: "new\n".into(),
                },
            )
            .expect("plan"),
    ];
    // Step 4 is the first rename after the journal moved to `apply`: s1.txt is new, s2 old.
    crashing.inject_fault(4, FaultMode::Crash);
    crashing.commit(changes).expect_err("crashed");
    assert!(crashing.fault_fired());
    assert!(dir.path().join(".hunkloom-journal").exists());
    drop(crashing);
    // The other workspace, opened before the crash, rolls it back before its own commit.
    other.read("s1.txt").expect("read");
    other
        .str_replace("s1.txt", "filler 2", "FILLER 2", false)
        .expect("commit after recovery");
    let mut want = before;
    want.insert(
        "s1.txt".into(),
        shared(0, 0).replace("filler 2", "FILLER 2").into_bytes(),
    );
    assert_eq!(snapshot(dir.path()), want);
    assert_no_leftovers(dir.path());
}

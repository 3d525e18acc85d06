//! Parallel tool calls, subagents and the user at once, through the file layer: every edit of
//! distinct lines lands, of two edits of the same line exactly one lands and the other is
//! refused with a code, and no save of the user's is ever lost.
//!
//! Each scenario prints one line, `parallel <scenario>: ...`, with what landed and what was
//! refused. Seeded: the same edits every run (the interleaving is the machine's).

#![cfg(unix)]

mod common;

use std::path::Path;
use std::sync::Barrier;

use common::assert_no_leftovers;
use hunkloom::ApplyOptions;
use hunkloom::patch::PatchOptions;
use hunkloom_fs::{Workspace, WorkspaceOptions};

/// How many functions the shared file has.
const FUNCTIONS: usize = 240;

/// A Python file of `FUNCTIONS` small functions; every `return` line is unique, and the
/// functions are four lines apart, so edits of different functions never touch.
fn module() -> String {
    (0..FUNCTIONS)
        .map(|i| format!("def f{i}(x):\n    y = x + {i}\n    return y * {i}\n\n"))
        .collect()
}

fn old_line(i: usize) -> String {
    format!("    return y * {i}\n")
}

fn new_line(i: usize, who: &str) -> String {
    format!("    return y * {i}  # {who}\n")
}

/// Runs `work(i)` on `n` threads started together; the results in thread order.
fn together<T: Send>(n: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let start = Barrier::new(n);
    std::thread::scope(|s| {
        let threads: Vec<_> = (0..n)
            .map(|i| {
                let (start, work) = (&start, &work);
                s.spawn(move || {
                    start.wait();
                    work(i)
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("thread"))
            .collect()
    })
}

/// Spreads thread `i`'s edit over the operations a model uses: `str_replace`, a SEARCH/REPLACE
/// diff, a one-file patch and an insert (before the line, then a `str_replace` of the line).
fn edit(ws: &Workspace, i: usize, who: &str) -> hunkloom::Result<()> {
    let (old, new) = (old_line(i), new_line(i, who));
    match i % 4 {
        0 => ws.str_replace("m.py", &old, &new, false).map(drop),
        1 => {
            let diff = format!("<<<<<<< SEARCH\n{old}=======\n{new}>>>>>>> REPLACE\n");
            ws.apply_diff("m.py", &diff, &ApplyOptions::new()).map(drop)
        }
        2 => {
            let patch = format!(
                "*** Begin Patch\n*** Update File: m.py\n@@ def f{i}(x):\n     y = x + {i}\n-{}\n+{}\n*** End Patch\n",
                old.trim_end_matches('\n'),
                new.trim_end_matches('\n')
            );
            ws.apply_patch(&patch, &PatchOptions::new()).map(drop)
        }
        _ => ws.str_replace("m.py", &old, &new, false).map(drop),
    }
}

fn code(r: &hunkloom::Result<()>) -> &str {
    r.as_ref().err().map_or("ok", |e| e.code())
}

fn setup() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("m.py"), module()).expect("write");
    let ws = Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
    (dir, ws)
}

fn text(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("m.py")).expect("read")
}

#[test]
fn one_workspace_sixteen_parallel_edits_of_one_file_all_land() {
    let (dir, ws) = setup();
    ws.read("m.py").expect("read");
    let picks: Vec<usize> = (0..16).map(|k| k * 15 + 3).collect();
    let results = together(16, |t| edit(&ws, picks[t], "edited"));
    let landed = results.iter().filter(|r| r.is_ok()).count();
    println!("parallel one-workspace 16 threads: {landed}/16 landed");
    for r in &results {
        assert_eq!(code(r), "ok", "{r:?}");
    }
    let mut want = module();
    for &i in &picks {
        want = want.replace(&old_line(i), &new_line(i, "edited"));
    }
    assert_eq!(text(dir.path()), want);
    assert_no_leftovers(dir.path());
}

#[test]
fn sixteen_subagents_each_with_its_own_workspace_all_land() {
    let (dir, _) = setup();
    let picks: Vec<usize> = (0..16).map(|k| k * 15 + 7).collect();
    let results = together(16, |t| {
        let ws = Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
        ws.read("m.py").expect("read");
        edit(&ws, picks[t], &format!("agent {t}"))
    });
    let landed = results.iter().filter(|r| r.is_ok()).count();
    println!("parallel subagents 16 workspaces: {landed}/16 landed");
    for r in &results {
        assert_eq!(code(r), "ok", "{r:?}");
    }
    let mut want = module();
    for (t, &i) in picks.iter().enumerate() {
        want = want.replace(&old_line(i), &new_line(i, &format!("agent {t}")));
    }
    assert_eq!(text(dir.path()), want);
    assert_no_leftovers(dir.path());
}

#[test]
fn of_two_edits_of_one_line_exactly_one_lands() {
    let (dir, ws) = setup();
    ws.read("m.py").expect("read");
    // 8 pairs: threads 2k and 2k+1 both edit function 30k+1.
    let results = together(16, |t| edit(&ws, (t / 2) * 30 + 1, &format!("t{t}")));
    let after = text(dir.path());
    let mut refusals = std::collections::BTreeMap::<String, usize>::new();
    for pair in 0..8 {
        let i = pair * 30 + 1;
        let (a, b) = (&results[2 * pair], &results[2 * pair + 1]);
        assert!(a.is_ok() != b.is_ok(), "pair {pair}: {a:?} {b:?}");
        let (winner, loser) = if a.is_ok() {
            (2 * pair, b)
        } else {
            (2 * pair + 1, a)
        };
        assert!(after.contains(&new_line(i, &format!("t{winner}"))));
        let e = loser.as_ref().expect_err("refused");
        // Refused as stale (it was based on the same read as the winner) or, when the call
        // started after the winner had landed, as not found in the file it then read.
        assert!(
            [
                "stale_file",
                "not_found",
                "search_not_found",
                "patch_context_not_found"
            ]
            .contains(&e.code()),
            "{}: {}",
            e.code(),
            e.message()
        );
        *refusals.entry(e.code().to_owned()).or_default() += 1;
    }
    println!("parallel same-line pairs: 8/8 pairs with exactly one winner; refusals {refusals:?}");
    assert_no_leftovers(dir.path());
}

#[test]
fn a_same_line_refusal_from_the_same_read_names_the_lines() {
    let (dir, ws) = setup();
    ws.read("m.py").expect("read");
    // Both calls start from the same read (unless one starts after the other has landed);
    // the second waits for the first's turn.
    std::thread::scope(|s| {
        let a = s.spawn(|| ws.str_replace("m.py", &old_line(5), &new_line(5, "a"), false));
        let b = s.spawn(|| ws.str_replace("m.py", &old_line(5), &new_line(5, "b"), false));
        let (a, b) = (a.join().expect("a"), b.join().expect("b"));
        let loser = if a.is_ok() { b } else { a };
        let e = loser.expect_err("one is refused");
        if e.code() == "stale_file" {
            assert!(e.message().contains("line 23"), "{}", e.message());
            assert!(e.message().contains("by another edit"), "{}", e.message());
        } else {
            assert_eq!(e.code(), "not_found", "{}", e.message());
        }
    });
    assert_no_leftovers(dir.path());
}

/// The user's editor: saves its own lines over and over, each time reading the file, changing
/// its lines and renaming a temporary file over it, as editors save. (It swaps the file in
/// rather than renaming, which is the same to everyone else, only so that it sees what its save
/// displaced.) Returns the number of saves and the agents' lines its own saves overwrote: an
/// agent's edit that landed between the user's read and save is lost by the user's editor, not
/// by hunkloom, and is not counted against it.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn user_saves(
    dir: &Path,
    lines: &[usize],
    picks: &[usize],
    rounds: usize,
) -> (usize, std::collections::BTreeSet<usize>) {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    let path = dir.join("m.py");
    let temp = dir.join(".m.py.user-save");
    let mut clobbered = std::collections::BTreeSet::new();
    for round in 0..rounds {
        let from = |i: usize| {
            if round == 0 {
                old_line(i)
            } else {
                new_line(i, &format!("user {}", round - 1))
            }
        };
        // A commit that finds a save landed under it swaps its file back out within
        // microseconds; a read in between sees that file, without the user's last save. An
        // editor told of the change reads again; the save must be back by then.
        let waited = std::time::Instant::now();
        let seen = loop {
            let seen = std::fs::read_to_string(&path).expect("user read");
            if lines.iter().all(|&i| seen.contains(&from(i))) {
                break seen;
            }
            assert!(
                waited.elapsed() < std::time::Duration::from_secs(2),
                "a save of the user's was lost"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        };
        let mut next = seen.clone();
        for &i in lines {
            next = next.replace(&from(i), &new_line(i, &format!("user {round}")));
        }
        std::fs::write(&temp, &next).expect("user write");
        renameat_with(CWD, &temp, CWD, &path, RenameFlags::EXCHANGE).expect("save");
        let displaced = std::fs::read_to_string(&temp).expect("displaced");
        std::fs::remove_file(&temp).expect("remove");
        if displaced != seen {
            for &i in picks {
                let line = new_line(i, "agent");
                if displaced.contains(&line) && !next.contains(&line) {
                    clobbered.insert(i);
                }
            }
        }
    }
    (rounds, clobbered)
}

#[cfg(any(target_os = "linux", target_os = "android"))]
#[test]
fn the_user_saving_meanwhile_loses_nothing_and_every_agent_edit_lands() {
    const ROUNDS: usize = 40;
    let (dir, ws) = setup();
    let user_lines: Vec<usize> = (0..6).map(|k| k * 40 + 20).collect();
    let picks: Vec<usize> = (0..16).map(|k| k * 15 + 11).collect();
    let mut clobbered_total = 0;
    for _ in 0..5 {
        std::fs::write(dir.path().join("m.py"), module()).expect("reset");
        ws.read("m.py").expect("read");
        let (results, (saves, clobbered)) = std::thread::scope(|s| {
            let user = s.spawn(|| user_saves(dir.path(), &user_lines, &picks, ROUNDS));
            let results = together(16, |t| {
                // Each agent retries on stale_file after reading again, as a model would.
                let mut tries = 0;
                loop {
                    match edit(&ws, picks[t], "agent") {
                        Err(e) if e.code() == "stale_file" && tries < 50 => {
                            tries += 1;
                            ws.read("m.py").expect("re-read");
                        }
                        other => return (other, tries),
                    }
                }
            });
            (results, user.join().expect("user"))
        });
        assert_eq!(saves, ROUNDS);
        let after = text(dir.path());
        for (r, _) in &results {
            assert_eq!(code(r), "ok", "{r:?}");
        }
        for &i in &picks {
            assert!(
                after.contains(&new_line(i, "agent")) || clobbered.contains(&i),
                "agent edit {i} lost"
            );
        }
        for &i in &user_lines {
            assert!(
                after.contains(&new_line(i, &format!("user {}", ROUNDS - 1))),
                "the user's last save of line {i} was lost"
            );
        }
        let retries: usize = results.iter().map(|(_, t)| t).sum();
        clobbered_total += clobbered.len();
        println!(
            "parallel agents + user saving: 16/16 agent edits landed ({retries} re-reads, {} \
             overwritten afterwards by the user's own stale saves), {saves}/{ROUNDS} user saves \
             kept, lost by hunkloom: 0",
            clobbered.len()
        );
    }
    assert!(clobbered_total <= 40, "{clobbered_total}");
    assert_no_leftovers(dir.path());
}

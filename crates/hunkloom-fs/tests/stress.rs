//! The seeded stress test of parallel editing: 8 agent threads in each of 2 processes, each
//! with its own `Workspace` per thread or one shared per process, editing 3 files at once with
//! `str_replace`, `insert`, SEARCH/REPLACE diffs, one-file patches and whole-file writes of
//! files of their own, while the user's editor keeps saving lines of all three files.
//!
//! Checked: every edit of a line no one else edits lands and stays (unless the user's own
//! editor saved over it from a stale buffer, which the user records); of each pair of agents
//! editing the same line exactly one lands and the other is refused with a code; every save of
//! the user's stays; no temporary, backup or journal file is left. Prints
//! `stress: ...` with what happened.

#![cfg(any(target_os = "linux", target_os = "android"))]

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::sync::Barrier;

use common::assert_no_leftovers;
use hunkloom::ApplyOptions;
use hunkloom::ops::Convention;
use hunkloom::patch::PatchOptions;
use hunkloom_fs::{Workspace, WorkspaceOptions};

const FILES: usize = 3;
const FUNCTIONS: usize = 120;
const THREADS: usize = 8;
const PROCESSES: usize = 2;
/// Functions each agent edits alone.
const OWN: usize = 4;
/// Functions the user's editor keeps changing, in every file.
const USER: [usize; 3] = [80, 95, 110];
const USER_ROUNDS: usize = 30;
const SEED: u64 = 0x5eed_2026;

fn name(f: usize) -> String {
    format!("src/m{f}.py")
}

fn module(f: usize) -> String {
    (0..FUNCTIONS)
        .map(|i| format!("def g{f}_{i}(x):\n    y = x + {i}\n    return y * {i}\n\n"))
        .collect()
}

fn ret(i: usize) -> String {
    format!("    return y * {i}\n")
}

fn tagged(i: usize, tag: &str) -> String {
    format!("    return y * {i}  # {tag}\n")
}

/// A small deterministic generator (xorshift64*), so every run makes the same choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One edit an agent makes: which file and function, how, and whether another agent edits the
/// same line.
#[derive(Clone, Debug)]
struct Task {
    file: usize,
    function: usize,
    kind: usize,
    contested: bool,
}

/// The tasks of agent `g` (0..PROCESSES*THREADS): `OWN` functions of its own (0..64), spread
/// over the files, and one contested function (64..72) shared with agent `g ^ 1`, the thread
/// next to it in its process (one of the two shares the process's workspace, the other has its
/// own).
fn tasks(g: usize) -> Vec<Task> {
    let mut rng = Rng(SEED ^ (g as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut out: Vec<Task> = (0..OWN)
        .map(|k| Task {
            file: (g + k) % FILES,
            // Functions 0..64 are the agents' own (16 agents x 4), 64..72 the contested ones.
            function: g * OWN + k,
            kind: rng.below(4),
            contested: false,
        })
        .collect();
    out.push(Task {
        file: (g / 2) % FILES,
        function: 64 + g / 2,
        kind: rng.below(3),
        contested: true,
    });
    out
}

/// What agent `g` writes on a line.
fn tag(g: usize) -> String {
    format!("agent {g}")
}

/// Makes one task's edit, re-reading and trying again on `stale_file` as a model would.
/// Returns the code (`ok` or the refusal).
fn run_task(ws: &Workspace, g: usize, task: &Task) -> String {
    let path = name(task.file);
    let i = task.function;
    let (old, new) = (ret(i), tagged(i, &tag(g)));
    for _ in 0..50 {
        let read = ws.read(&path).expect("read");
        let result = match task.kind {
            0 => ws.str_replace(&path, &old, &new, false).map(drop),
            1 => {
                let diff = format!("<<<<<<< SEARCH\n{old}=======\n{new}>>>>>>> REPLACE\n");
                ws.apply_diff(&path, &diff, &ApplyOptions::new()).map(drop)
            }
            2 => {
                let patch = format!(
                    "*** Begin Patch\n*** Update File: {path}\n@@ def g{}_{i}(x):\n     y = x + {i}\n-{}\n+{}\n*** End Patch\n",
                    task.file,
                    old.trim_end(),
                    new.trim_end()
                );
                ws.apply_patch(&patch, &PatchOptions::new()).map(drop)
            }
            _ => {
                // Insert a line after the function's `y = ...` line, found in the text read.
                let line = read
                    .lines()
                    .position(|l| l == format!("    y = x + {i}"))
                    .expect("the function")
                    + 1;
                let text = format!("    # {}\n", tag(g));
                ws.insert(&path, line, &text, Convention::After).map(drop)
            }
        };
        match result {
            Err(e) if e.code() == "stale_file" => continue,
            Err(e) => return e.code().to_owned(),
            Ok(()) => return "ok".to_owned(),
        }
    }
    "stale_file".to_owned()
}

/// Whether `task`'s edit by agent `g` is in `text`.
fn present(text: &str, g: usize, task: &Task) -> bool {
    if task.kind == 3 {
        text.contains(&format!(
            "    y = x + {}\n    # {}\n",
            task.function,
            tag(g)
        ))
    } else {
        text.contains(&tagged(task.function, &tag(g)))
    }
}

/// The agents of process `p`: threads released together, half of them sharing one workspace
/// and half with one each; each also writes a file of its own. One line per task:
/// `task <g> <k> <code>`.
fn agents(root: &Path, p: usize) -> Vec<(usize, usize, String)> {
    let shared = Workspace::open(root, WorkspaceOptions::new()).expect("open");
    let start = Barrier::new(THREADS);
    std::thread::scope(|s| {
        let threads: Vec<_> = (0..THREADS)
            .map(|t| {
                let (shared, start) = (&shared, &start);
                s.spawn(move || {
                    let own;
                    let ws = if t % 2 == 0 {
                        shared
                    } else {
                        own = Workspace::open(root, WorkspaceOptions::new()).expect("open");
                        &own
                    };
                    let g = p * THREADS + t;
                    start.wait();
                    let mut out = Vec::new();
                    for (k, task) in tasks(g).iter().enumerate() {
                        out.push((g, k, run_task(ws, g, task)));
                    }
                    ws.write(format!("notes/{g}.txt"), &format!("agent {g}\n"))
                        .expect("a file of its own");
                    out
                })
            })
            .collect();
        threads
            .into_iter()
            .flat_map(|t| t.join().expect("agent"))
            .collect()
    })
}

/// The user's editor: saves a change of its lines in every file, `USER_ROUNDS` times each, by
/// writing a temporary file and swapping it in (as a rename, but it sees what it replaced).
/// Returns the agents' functions (file, function, agent) its saves overwrote from a stale
/// buffer: those are lost by the editor, not by hunkloom.
fn user(root: &Path) -> BTreeSet<(usize, usize)> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    let mut clobbered = BTreeSet::new();
    for round in 0..USER_ROUNDS {
        for f in 0..FILES {
            let path = root.join(name(f));
            let from = |i: usize| {
                if round == 0 {
                    ret(i)
                } else {
                    tagged(i, &format!("user {}", round - 1))
                }
            };
            // A commit that swapped its file in over a save swaps it back within microseconds;
            // an editor told of the change reads again.
            let started = std::time::Instant::now();
            let seen = loop {
                let seen = std::fs::read_to_string(&path).expect("user read");
                if USER.iter().all(|&i| seen.contains(&from(i))) {
                    break seen;
                }
                assert!(
                    started.elapsed() < std::time::Duration::from_secs(2),
                    "a save of the user's in {} was lost",
                    name(f)
                );
                std::thread::sleep(std::time::Duration::from_millis(1));
            };
            let mut next = seen.clone();
            for &i in &USER {
                next = next.replace(&from(i), &tagged(i, &format!("user {round}")));
            }
            let temp = root.join(format!("src/.m{f}.py.user"));
            std::fs::write(&temp, &next).expect("user write");
            renameat_with(CWD, &temp, CWD, &path, RenameFlags::EXCHANGE).expect("save");
            let displaced = std::fs::read_to_string(&temp).expect("displaced");
            std::fs::remove_file(&temp).expect("remove");
            if displaced != seen {
                for g in 0..PROCESSES * THREADS {
                    for task in tasks(g).iter().filter(|t| t.file == f) {
                        if present(&displaced, g, task) && !present(&next, g, task) {
                            clobbered.insert((g, task.function));
                        }
                    }
                }
            }
        }
    }
    clobbered
}

const CHILD_ROOT: &str = "HUNKLOOM_STRESS_ROOT";

/// Run by the test in a child process: the agents of process 1; does nothing on its own.
#[test]
fn stress_child() {
    if let Ok(root) = std::env::var(CHILD_ROOT) {
        for (g, k, code) in agents(Path::new(&root), 1) {
            println!("task {g} {k} {code}");
        }
    }
}

#[test]
fn agents_in_threads_and_processes_and_the_user_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    for f in 0..FILES {
        std::fs::write(root.join(name(f)), module(f)).expect("write");
    }
    let child = Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", "stress_child", "--test-threads=1", "--nocapture"])
        .env(CHILD_ROOT, root)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let (mine, clobbered) = std::thread::scope(|s| {
        let user = s.spawn(|| user(root));
        let mine = agents(root, 0);
        (mine, user.join().expect("user"))
    });
    let out = child.wait_with_output().expect("child");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let mut results = mine;
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some(rest) = line.split_once("task ").map(|(_, r)| r) else {
            continue;
        };
        let mut parts = rest.split_whitespace();
        let g: usize = parts.next().and_then(|x| x.parse().ok()).expect("g");
        let k: usize = parts.next().and_then(|x| x.parse().ok()).expect("k");
        results.push((g, k, parts.next().expect("code").to_owned()));
    }
    assert_eq!(
        results.len(),
        PROCESSES * THREADS * (OWN + 1),
        "{results:?}"
    );

    let texts: Vec<String> = (0..FILES)
        .map(|f| std::fs::read_to_string(root.join(name(f))).expect("read"))
        .collect();
    let (mut landed, mut kept, mut refusals) = (0, 0, std::collections::BTreeMap::new());
    for &(g, k, ref code) in &results {
        let task = &tasks(g)[k];
        if !task.contested {
            assert_eq!(code, "ok", "agent {g} task {k} {task:?}");
            landed += 1;
            let there = present(&texts[task.file], g, task);
            assert!(
                there || clobbered.contains(&(g, task.function)),
                "agent {g}'s edit {task:?} was lost"
            );
            kept += usize::from(there);
        }
    }
    // Each contested function: exactly one of its two agents landed, the other was refused.
    for pair in 0..PROCESSES * THREADS / 2 {
        let (a, b) = (2 * pair, 2 * pair + 1);
        let code = |g: usize| {
            results
                .iter()
                .find(|r| r.0 == g && r.1 == OWN)
                .map(|r| r.2.clone())
                .expect("result")
        };
        let (ca, cb) = (code(a), code(b));
        assert!((ca == "ok") != (cb == "ok"), "pair {pair}: {ca} {cb}");
        let loser = if ca == "ok" { cb } else { ca };
        assert!(
            ["not_found", "search_not_found", "patch_context_not_found"].contains(&loser.as_str()),
            "pair {pair}: {loser}"
        );
        *refusals.entry(loser).or_insert(0) += 1;
    }
    for (f, text) in texts.iter().enumerate() {
        for &i in &USER {
            assert!(
                text.contains(&tagged(i, &format!("user {}", USER_ROUNDS - 1))),
                "the user's last save of line {i} in {} was lost",
                name(f)
            );
        }
    }
    for g in 0..PROCESSES * THREADS {
        let note = std::fs::read_to_string(root.join(format!("notes/{g}.txt"))).expect("note");
        assert_eq!(note, format!("agent {g}\n"));
    }
    assert_no_leftovers(root);
    println!(
        "stress: {} agents in {PROCESSES} processes, {FILES} files: {landed}/{landed} own edits \
         landed ({kept} still there, {} overwritten afterwards by the user's own stale saves), \
         {}/{} contested lines with exactly one winner (the other refused: {refusals:?}), \
         {}/{} user saves kept, lost by hunkloom: 0",
        PROCESSES * THREADS,
        landed - kept,
        PROCESSES * THREADS / 2,
        PROCESSES * THREADS / 2,
        USER_ROUNDS * FILES,
        USER_ROUNDS * FILES,
    );
}

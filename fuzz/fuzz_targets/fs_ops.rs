//! The file layer on a temporary directory: random sequences of reads, edits (`str_replace`,
//! diffs, writes, deletes, moves), multi-file patches, undo, changes made behind the
//! workspace's back, and commits that fail or "crash" part-way (injected faults). The oracle,
//! after every step:
//!
//! - a refused plan or a failed commit leaves the tree byte-identical;
//! - a successful commit changes only the files its changes name, each to its planned text;
//! - after a crash, the next `Workspace::open` settles the journal and every file the commit
//!   touched is all old or all new (never a mix within one commit), with no journal, temporary
//!   or backup file left behind.

#![no_main]

use std::collections::BTreeMap;
use std::path::Path;

use arbitrary::Arbitrary;
use hunkloom::ApplyOptions;
use hunkloom::patch::PatchOptions;
use hunkloom_fs::{Change, ChangeKind, Encoding, FaultMode, Op, Workspace, WorkspaceOptions};
use libfuzzer_sys::fuzz_target;

const FILES: [&str; 4] = ["a.txt", "d/b.txt", "c.md", "d/e/f.txt"];

#[derive(Arbitrary, Debug)]
enum Step {
    Read { file: u8 },
    StrReplace { file: u8, from: u8, len: u8, new: String, all: bool },
    Diff { file: u8, line: u8, new: String },
    Write { file: u8, content: String },
    Delete { file: u8 },
    Move { file: u8, to: u8 },
    Patch { hunks: Vec<(u8, u8, String)>, add: Option<(u8, String)> },
    External { file: u8, content: Option<Vec<u8>> },
    Undo { file: u8 },
    Fault { after: u8, crash: bool },
    Reopen,
}

type Tree = BTreeMap<String, Vec<u8>>;

fn tree(root: &Path) -> Tree {
    let mut out = Tree::new();
    walk(root, root, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Tree) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.strip_prefix(root).expect("inside").to_string_lossy().into_owned();
        if p.is_dir() {
            walk(root, &p, out);
        } else {
            out.insert(name, std::fs::read(&p).expect("read"));
        }
    }
}

fn name(i: u8) -> &'static str {
    FILES[usize::from(i) % FILES.len()]
}

/// The text of `bytes` as the file layer decodes the UTF-8 files this target writes.
fn text_of(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)).ok()
}

/// The text of `bytes` in `encoding`, the one a change writes its file in: UTF-8 for what this
/// target writes, a legacy or UTF-16 encoding for a file written behind the workspace's back
/// (`External`) that the file layer detected and keeps.
fn text_in(bytes: &[u8], encoding: Encoding) -> Option<String> {
    match encoding.as_str() {
        "utf-8" | "utf-8-bom" => text_of(bytes).map(str::to_owned),
        name => {
            let codec = encoding_rs::Encoding::for_label(name.as_bytes())?;
            let (text, had_errors) = codec.decode_with_bom_removal(bytes);
            (!had_errors).then(|| text.into_owned())
        }
    }
}

/// Line `line` (mod the line count) of `name`'s current text, with its `\n`.
fn line_of(t: &Tree, name: &str, line: u8) -> Option<String> {
    let text = text_of(t.get(name)?)?;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    (!lines.is_empty()).then(|| lines[usize::from(line) % lines.len()].to_owned())
}

/// The relative path of a change's file.
fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root).expect("inside").to_string_lossy().into_owned()
}

/// Checks the tree after a commit of `changes` against `before`: every file the changes do
/// not name is unchanged, and the named ones are either all as before (`Some(false)`) or all
/// as planned (`Some(true)`); `None` if neither.
fn settled(root: &Path, before: &Tree, after: &Tree, changes: &[Change]) -> Option<bool> {
    let mut touched = Vec::new();
    let mut new_state = BTreeMap::new();
    for c in changes {
        let path = rel(root, c.path());
        if let Some(from) = c.moved_from() {
            touched.push(rel(root, from));
        }
        touched.push(path.clone());
        if c.kind() != ChangeKind::Delete {
            new_state.insert(path, (c.new_text().unwrap_or("").to_owned(), c.encoding()));
        }
    }
    for (k, v) in before.iter().chain(after.iter()) {
        if !touched.contains(k) {
            assert_eq!(before.get(k), after.get(k), "{k} changed but no change names it");
            let _ = v;
        }
    }
    let old = touched.iter().all(|k| before.get(k) == after.get(k));
    let new = touched.iter().all(|k| match (new_state.get(k), after.get(k)) {
        (Some((text, encoding)), Some(bytes)) => text_in(bytes, *encoding).as_ref() == Some(text),
        (None, None) => true,
        _ => false,
    });
    if new {
        Some(true)
    } else if old {
        Some(false)
    } else {
        None
    }
}

fn leftovers(t: &Tree) {
    for k in t.keys() {
        assert!(
            !k.contains("hunkloom-tmp") && !k.contains("hunkloom-bak") && !k.contains(".hunkloom-journal"),
            "left behind: {k}"
        );
    }
}

fuzz_target!(|steps: Vec<Step>| {
    let dir = tempfile::tempdir().expect("tempdir");
    let root_owned = std::fs::canonicalize(dir.path()).expect("canonical");
    let root = root_owned.as_path();
    std::fs::create_dir_all(root.join("d/e")).expect("mkdir");
    std::fs::write(root.join("a.txt"), "one\ntwo\nthree\n").expect("write");
    std::fs::write(root.join("d/b.txt"), "\u{feff}alpha\r\nbeta\r\n").expect("write");
    let mut ws = Workspace::open(root, WorkspaceOptions::new()).expect("open");
    let mut fault: Option<(usize, FaultMode)> = None;
    // The mode of the fault injected into `ws` and not fired yet: a workspace keeps an injected
    // fault until a commit reaches its step, which may be a later commit than the next one.
    let mut armed: Option<FaultMode> = None;
    // FS_OPS_TRACE=1 prints each step (to read a crash input: `fs_ops <artifact>`).
    let trace = std::env::var_os("FS_OPS_TRACE").is_some();
    for step in steps.into_iter().take(24) {
        if trace {
            eprintln!("{step:?}");
        }
        let before = tree(root);
        let planned: Result<Vec<Change>, hunkloom::Error> = match step {
            Step::Read { file } => {
                let _ = ws.read(name(file));
                assert_eq!(tree(root), before, "a read changed the tree");
                continue;
            }
            Step::External { file, content } => {
                let p = root.join(name(file));
                match content {
                    Some(bytes) => std::fs::write(p, bytes).expect("external write"),
                    None => {
                        let _ = std::fs::remove_file(p);
                    }
                }
                continue;
            }
            Step::Fault { after, crash } => {
                let mode = if crash { FaultMode::Crash } else { FaultMode::Error };
                fault = Some((usize::from(after % 12), mode));
                continue;
            }
            Step::Reopen => {
                ws = Workspace::open(root, WorkspaceOptions::new()).expect("reopen");
                armed = None;
                assert_eq!(tree(root), before, "opening changed a settled tree");
                continue;
            }
            Step::Undo { file } => {
                if let Some((after, mode)) = fault.take() {
                    ws.inject_fault(after, mode);
                    armed = Some(mode);
                }
                let r = ws.undo(name(file));
                if ws.fault_fired() {
                    armed = None;
                }
                let after_tree = tree(root);
                if r.is_err() {
                    if ws.fault_fired() {
                        // A crash: settle it, then the one file is old or new, nothing else.
                        ws = Workspace::open(root, WorkspaceOptions::new()).expect("recover");
                        armed = None;
                        let settled_tree = tree(root);
                        leftovers(&settled_tree);
                        for (k, v) in &before {
                            if k != name(file) {
                                assert_eq!(settled_tree.get(k), Some(v), "undo touched {k}");
                            }
                        }
                    } else {
                        assert_eq!(after_tree, before, "a refused undo changed the tree");
                    }
                }
                continue;
            }
            Step::StrReplace { file, from, len, new, all } => {
                let n = name(file);
                let old: String = before
                    .get(n)
                    .and_then(|b| text_of(b))
                    .map(|t| t.chars().skip(usize::from(from)).take(usize::from(len)).collect())
                    .unwrap_or_default();
                ws.plan(n, &Op::StrReplace { old, new, replace_all: all }).map(|c| vec![c])
            }
            Step::Diff { file, line, new } => {
                let n = name(file);
                let search = line_of(&before, n, line).unwrap_or_else(|| "zzz\n".into());
                let search = if search.ends_with('\n') { search } else { format!("{search}\n") };
                let diff = format!("------- SEARCH\n{search}=======\n{new}\n+++++++ REPLACE\n");
                ws.plan(n, &Op::Diff { diff, options: ApplyOptions::default() }).map(|c| vec![c])
            }
            Step::Write { file, content } => {
                ws.plan(name(file), &Op::Write { content }).map(|c| vec![c])
            }
            Step::Delete { file } => ws.plan_delete(name(file)).map(|c| vec![c]),
            Step::Move { file, to } => {
                if name(file) == name(to) {
                    continue;
                }
                ws.plan_move(name(file), name(to), None).map(|c| vec![c])
            }
            Step::Patch { hunks, add } => {
                let mut patch = String::from("*** Begin Patch\n");
                for (file, line, new) in hunks.iter().take(3) {
                    let n = name(*file);
                    let old = line_of(&before, n, *line).unwrap_or_default();
                    let new: String = new.lines().next().unwrap_or("").to_owned();
                    patch.push_str(&format!(
                        "*** Update File: {n}\n@@\n-{}\n+{new}\n",
                        old.trim_end_matches('\n').trim_end_matches('\r')
                    ));
                }
                if let Some((file, line)) = &add {
                    let line = line.lines().next().unwrap_or("");
                    patch.push_str(&format!("*** Add File: {}\n+{line}\n", name(*file)));
                }
                patch.push_str("*** End Patch\n");
                ws.plan_patch(&patch, &PatchOptions::new())
                    .map(|p| p.changes().to_vec())
            }
        };
        let changes = match planned {
            Ok(changes) => changes,
            Err(e) => {
                assert!(!e.code().is_empty());
                assert_eq!(tree(root), before, "a refused plan changed the tree");
                continue;
            }
        };
        if let Some((after, mode)) = fault.take() {
            ws.inject_fault(after, mode);
            armed = Some(mode);
        }
        let crash_armed = armed == Some(FaultMode::Crash);
        let result = ws.commit(changes.clone());
        if ws.fault_fired() {
            armed = None;
        }
        let after = tree(root);
        match result {
            Ok(_) => {
                leftovers(&after);
                assert_eq!(
                    settled(root, &before, &after, &changes),
                    Some(true),
                    "a successful commit did not write what it planned"
                );
            }
            Err(e) if ws.fault_fired() && crash_armed => {
                let _ = e;
                // The process "died": the next open settles the journal, all old or all new.
                ws = Workspace::open(root, WorkspaceOptions::new()).expect("recover");
                let settled_tree = tree(root);
                leftovers(&settled_tree);
                assert!(
                    settled(root, &before, &settled_tree, &changes).is_some(),
                    "a crashed commit left a mix of old and new files"
                );
            }
            Err(e) => {
                assert!(!e.code().is_empty());
                leftovers(&after);
                assert_eq!(after, before, "a failed commit changed the tree ({})", e.code());
            }
        }
    }
});

//! Shared helpers of the integration tests.

#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;
use std::path::Path;

use hunkloom_fs::{Workspace, WorkspaceOptions};

/// Every file under `dir` (hidden ones included), relative path → bytes; symlinks as
/// `-> target`.
pub fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let entry = entry.expect("entry");
        let path = entry.path();
        let rel = path
            .strip_prefix(root)
            .expect("inside")
            .to_string_lossy()
            .into_owned();
        let kind = entry.file_type().expect("file type");
        if kind.is_symlink() {
            let target = std::fs::read_link(&path).expect("link");
            out.insert(rel, format!("-> {}", target.display()).into_bytes());
        } else if kind.is_dir() {
            walk(root, &path, out);
        } else if kind.is_file() {
            out.insert(rel, std::fs::read(&path).expect("read"));
        } else {
            // A FIFO or socket: reading it could block.
            out.insert(rel, b"<special file>".to_vec());
        }
    }
}

/// A fresh directory with `files` written into it, and a workspace on it.
pub fn setup(files: &[(&str, &[u8])]) -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    let ws = Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
    (dir, ws)
}

/// Asserts that no temporary, backup or journal file is left under `dir`.
pub fn assert_no_leftovers(dir: &Path) {
    for name in snapshot(dir).keys() {
        assert!(
            !name.contains("hunkloom-tmp")
                && !name.contains("hunkloom-bak")
                && !name.contains(".hunkloom-journal"),
            "left behind: {name}"
        );
    }
}

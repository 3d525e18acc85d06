//! Every refusal, asserted by code, with nothing on disk changed.

mod common;

use common::{setup, snapshot};
use hunkloom::ops::Convention;
use hunkloom_fs::{Op, Workspace, WorkspaceOptions};

/// Runs `f` and asserts it fails with `code` and leaves the directory byte-identical.
fn refused(dir: &std::path::Path, code: &str, f: impl FnOnce() -> hunkloom::Result<()>) {
    let before = snapshot(dir);
    let err = f().expect_err(code);
    assert_eq!(err.code(), code, "{}", err.message());
    assert_eq!(snapshot(dir), before, "{code} changed the disk");
}

#[test]
fn paths_outside_the_root_are_refused() {
    let (dir, ws) = setup(&[("a.txt", b"a\n")]);
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("x.txt"), "x\n").expect("write");
    let abs = outside.path().join("x.txt");
    refused(dir.path(), "path_outside_root", || {
        ws.read("../x.txt").map(drop)
    });
    refused(dir.path(), "path_outside_root", || {
        ws.read("sub/../../x.txt").map(drop)
    });
    refused(dir.path(), "path_outside_root", || ws.read(&abs).map(drop));
    refused(dir.path(), "path_outside_root", || {
        ws.write(&abs, "y").map(drop)
    });
    refused(dir.path(), "path_outside_root", || {
        ws.write("../new.txt", "y").map(drop)
    });
    assert_eq!(std::fs::read(&abs).expect("read"), b"x\n");
    assert!(
        !dir.path()
            .parent()
            .expect("parent")
            .join("new.txt")
            .exists()
    );
    // An absolute path inside the root is fine, and `..` that stays inside too.
    assert_eq!(ws.read(dir.path().join("a.txt")).expect("read"), "a\n");
    assert_eq!(ws.read("sub/../a.txt").expect("read"), "a\n");
}

#[cfg(unix)]
#[test]
fn symlinks_leading_outside_are_refused() {
    let (dir, ws) = setup(&[]);
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("secret"), "s\n").expect("write");
    std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("link"))
        .expect("symlink");
    std::os::unix::fs::symlink(outside.path(), dir.path().join("dirlink")).expect("symlink");
    std::os::unix::fs::symlink("../escape", dir.path().join("dangling")).expect("symlink");
    refused(dir.path(), "path_outside_root", || {
        ws.read("link").map(drop)
    });
    refused(dir.path(), "path_outside_root", || {
        ws.write("link", "x").map(drop)
    });
    refused(dir.path(), "path_outside_root", || {
        ws.write("dirlink/new", "x").map(drop)
    });
    refused(dir.path(), "path_outside_root", || {
        ws.write("dangling", "x").map(drop)
    });
    assert_eq!(
        std::fs::read(outside.path().join("secret")).expect("read"),
        b"s\n"
    );
}

#[test]
fn unc_paths_are_refused() {
    let (dir, ws) = setup(&[]);
    for p in [r"\\server\share\a.txt", "//server/share/a.txt"] {
        refused(dir.path(), "unc_path", || ws.read(p).map(drop));
        refused(dir.path(), "unc_path", || ws.write(p, "x").map(drop));
    }
}

#[test]
fn ignored_paths_are_refused() {
    let files: &[(&str, &[u8])] = &[
        (".hunkloomignore", b"secrets/\n*.env\n!keep.env\n"),
        ("secrets/key", b"k\n"),
        ("prod.env", b"e\n"),
        ("keep.env", b"k\n"),
    ];
    let (dir, ws) = setup(files);
    refused(dir.path(), "path_ignored", || {
        ws.read("secrets/key").map(drop)
    });
    refused(dir.path(), "path_ignored", || ws.read("prod.env").map(drop));
    refused(dir.path(), "path_ignored", || {
        ws.write("secrets/new", "x").map(drop)
    });
    refused(dir.path(), "path_ignored", || {
        ws.write("new.env", "x").map(drop)
    });
    assert_eq!(ws.read("keep.env").expect("negated"), "k\n");
    // The commit machinery's own files are never editable.
    refused(dir.path(), "path_ignored", || {
        ws.write(".hunkloom-journal", "x").map(drop)
    });
}

#[test]
fn the_ignore_file_name_is_configurable() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join(".clineignore"), "*.lock\n").expect("write");
    std::fs::write(dir.path().join("a.lock"), "l\n").expect("write");
    let options = WorkspaceOptions::new().ignore_file(".clineignore");
    let ws = Workspace::open(dir.path(), options).expect("open");
    refused(dir.path(), "path_ignored", || ws.read("a.lock").map(drop));
    // With the default name, `.clineignore` means nothing.
    let ws = Workspace::open(dir.path(), WorkspaceOptions::new()).expect("open");
    assert_eq!(ws.read("a.lock").expect("read"), "l\n");
}

#[test]
fn notebooks_are_refused() {
    let (dir, ws) = setup(&[("nb.ipynb", b"{}\n")]);
    refused(dir.path(), "notebook_not_supported", || {
        ws.read("nb.ipynb").map(drop)
    });
    refused(dir.path(), "notebook_not_supported", || {
        ws.write("new.IPYNB", "{}").map(drop)
    });
}

#[test]
fn unread_files_are_refused() {
    let (dir, ws) = setup(&[("a.txt", b"a\nb\n")]);
    refused(dir.path(), "not_read", || {
        ws.str_replace("a.txt", "a", "x", false).map(drop)
    });
    refused(dir.path(), "not_read", || {
        ws.insert("a.txt", 0, "x", Convention::After).map(drop)
    });
    refused(dir.path(), "not_read", || ws.write("a.txt", "x").map(drop));
    let diff = "<<<<<<< SEARCH\na\n=======\nx\n>>>>>>> REPLACE\n";
    refused(dir.path(), "not_read", || {
        ws.apply_diff("a.txt", diff, &Default::default()).map(drop)
    });
    refused(dir.path(), "not_read", || ws.plan_delete("a.txt").map(drop));
    // Creating a file needs no read.
    ws.write("new.txt", "n\n").expect("create");
    ws.str_replace("new2.txt", "", "m\n", false)
        .expect("create");
    assert_eq!(
        std::fs::read(dir.path().join("new2.txt")).expect("read"),
        b"m\n"
    );
}

#[test]
fn missing_files_suggest_similar_paths() {
    let files: &[(&str, &[u8])] = &[
        ("src/utils.py", b"u\n"),
        ("src/main.py", b"m\n"),
        ("lib/utils.py", b"l\n"),
        ("docs/readme.md", b"r\n"),
    ];
    let (dir, ws) = setup(files);
    let before = snapshot(dir.path());
    let err = ws.read("src/utls.py").expect_err("missing");
    assert_eq!(err.code(), "file_not_found");
    assert!(
        err.message()
            .contains("Did you mean src/utils.py, lib/utils.py"),
        "{}",
        err.message()
    );
    let err = ws
        .str_replace("utils.py", "u", "v", false)
        .expect_err("missing");
    assert_eq!(err.code(), "file_not_found");
    assert!(err.message().contains("lib/utils.py"), "{}", err.message());
    let err = ws.read("zzzzzzzz/qqqq.rs").expect_err("missing");
    assert_eq!(err.message(), "File does not exist: zzzzzzzz/qqqq.rs.");
    refused(dir.path(), "file_not_found", || {
        ws.insert("nope.txt", 0, "x", Convention::After).map(drop)
    });
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn binary_utf32_and_broken_utf16_files_are_refused_and_untouched() {
    let files: &[(&str, &[u8])] = &[
        ("binary.txt", b"caf\xE9\0\n"),
        ("utf32.txt", b"\xFF\xFE\x00\x00a\x00\x00\x00"),
        ("odd16.txt", b"\xFF\xFEa"),
    ];
    let (dir, ws) = setup(files);
    for name in ["binary.txt", "utf32.txt", "odd16.txt"] {
        refused(dir.path(), "unsupported_encoding", || {
            ws.read(name).map(drop)
        });
        refused(dir.path(), "unsupported_encoding", || {
            ws.write(name, "x").map(drop)
        });
    }
}

#[test]
fn a_legacy_file_is_refused_when_detection_is_off() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("latin1.txt"), b"caf\xE9 cr\xE8me\n").expect("write");
    let ws =
        Workspace::open(dir.path(), WorkspaceOptions::new().legacy_encodings(false)).expect("open");
    refused(dir.path(), "unsupported_encoding", || {
        ws.read("latin1.txt").map(drop)
    });
    refused(dir.path(), "unsupported_encoding", || {
        ws.write("latin1.txt", "x").map(drop)
    });
}

#[test]
fn files_over_the_size_limit_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("big.txt"), "x".repeat(101)).expect("write");
    std::fs::write(dir.path().join("ok.txt"), "x".repeat(100)).expect("write");
    let options = WorkspaceOptions::new().max_file_size(100);
    let ws = Workspace::open(dir.path(), options).expect("open");
    refused(dir.path(), "file_too_large", || {
        ws.read("big.txt").map(drop)
    });
    refused(dir.path(), "file_too_large", || {
        ws.write("big.txt", "y").map(drop)
    });
    assert_eq!(ws.read("ok.txt").expect("at the limit").len(), 100);
    // A sparse file far over the default limit is refused before a byte of it is read.
    let sparse_dir = tempfile::tempdir().expect("tempdir");
    let sparse = std::fs::File::create(sparse_dir.path().join("sparse.txt")).expect("create");
    sparse.set_len(1 << 40).expect("set_len");
    drop(sparse);
    let ws = Workspace::open(sparse_dir.path(), WorkspaceOptions::new()).expect("open");
    let err = ws.read("sparse.txt").expect_err("1 TiB");
    assert_eq!(err.code(), "file_too_large");
    assert_eq!(
        std::fs::metadata(sparse_dir.path().join("sparse.txt"))
            .expect("meta")
            .len(),
        1 << 40
    );
}

#[test]
fn op_errors_change_nothing() {
    let (dir, ws) = setup(&[("a.txt", b"x\ny\nx\n")]);
    ws.read("a.txt").expect("read");
    refused(dir.path(), "multiple_matches", || {
        ws.str_replace("a.txt", "x", "z", false).map(drop)
    });
    refused(dir.path(), "not_found", || {
        ws.str_replace("a.txt", "q", "z", false).map(drop)
    });
    refused(dir.path(), "invalid_line", || {
        ws.insert("a.txt", 9, "z", Convention::After).map(drop)
    });
    let diff = "<<<<<<< SEARCH\nx\n=======\nz\n>>>>>>> REPLACE\n";
    refused(dir.path(), "ambiguous_match", || {
        ws.apply_diff("a.txt", diff, &Default::default()).map(drop)
    });
    refused(dir.path(), "nothing_to_undo", || ws.undo("a.txt").map(drop));
    refused(dir.path(), "file_exists", || {
        ws.plan_move("a.txt", "a.txt", None).map(drop)
    });
}

#[test]
fn a_path_changed_twice_in_one_commit_is_refused() {
    let (dir, ws) = setup(&[("a.txt", b"a\n"), ("b.txt", b"b\n")]);
    ws.read("a.txt").expect("read");
    ws.read("b.txt").expect("read");
    let one = ws
        .plan(
            "a.txt",
            &Op::Write {
                content: "1".into(),
            },
        )
        .expect("plan");
    let two = ws
        .plan(
            "a.txt",
            &Op::Write {
                content: "2".into(),
            },
        )
        .expect("plan");
    refused(dir.path(), "conflicting_changes", || {
        ws.commit(vec![one, two]).map(drop)
    });
    let moved = ws.plan_move("b.txt", "c.txt", None).expect("plan");
    let also = ws.plan_delete("b.txt").expect("plan");
    refused(dir.path(), "conflicting_changes", || {
        ws.commit(vec![moved, also]).map(drop)
    });
}

#[test]
fn elisions_of_an_existing_file_are_refused_unless_the_guard_is_off() {
    let file = "def a():\n    one()\n    two()\n    three()\n";
    let (dir, ws) = setup(&[("a.py", file.as_bytes())]);
    ws.read("a.py").expect("read");
    refused(dir.path(), "omission_placeholder", || {
        ws.write(
            "a.py",
            "def a():\n    # ... existing code ...\n    four()\n",
        )
        .map(drop)
    });
    refused(dir.path(), "omission_placeholder", || {
        ws.str_replace(
            "a.py",
            "    one()\n    two()\n    three()\n",
            "    # ...\n    four()\n",
            false,
        )
        .map(drop)
    });
    // A new file has nothing to elide.
    ws.write("b.py", "# ... existing code ...\n")
        .expect("new file");
    // With the guard off, the content is written as given.
    let off = hunkloom::ops::Guards::NATIVE.omission_placeholders(false);
    let unguarded = Workspace::open(dir.path(), WorkspaceOptions::new().guards(off)).expect("open");
    unguarded.read("a.py").expect("read");
    unguarded
        .write("a.py", "def a():\n    # ...\n")
        .expect("unguarded write");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.py")).expect("read"),
        "def a():\n    # ...\n"
    );
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_before_any_read() {
    let (dir, ws) = setup(&[("a.txt", b"a\n")]);
    let status = std::process::Command::new("mkfifo")
        .arg(dir.path().join("pipe"))
        .status()
        .expect("mkfifo");
    assert!(status.success());
    // Reading a FIFO with no writer would block forever; each of these must return at once.
    refused(dir.path(), "io_error", || ws.read("pipe").map(drop));
    refused(dir.path(), "io_error", || ws.peek("pipe").map(drop));
    refused(dir.path(), "io_error", || ws.write("pipe", "x").map(drop));
    let patch = "*** Begin Patch\n*** Update File: pipe\n@@\n-x\n+y\n*** End Patch\n";
    refused(dir.path(), "io_error", || {
        ws.apply_patch(patch, &hunkloom::patch::PatchOptions::new())
            .map(drop)
    });
    let err = ws.read("pipe").expect_err("refused");
    assert!(
        err.message().contains("not a regular file"),
        "{}",
        err.message()
    );
}

#[test]
fn protected_paths_can_be_read_but_never_written() {
    let files: &[(&str, &[u8])] = &[
        (".git/config", b"[core]\n\tbare = false\n"),
        (".git/HEAD", b"ref: refs/heads/main\n"),
        ("sub/.git", b"gitdir: ../.git/worktrees/sub\n"),
        (".hg/hgrc", b"[ui]\n"),
        (".hunkloomignore", b"secret/\n"),
        (".env", b"KEY=1\n"),
        ("keys/a.pem", b"k\n"),
        ("src/a.txt", b"a\n"),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    let options = WorkspaceOptions::new().protect([".env*", "keys/**"]);
    let ws = Workspace::open(dir.path(), options).expect("open");
    let p = dir.path();
    for name in [
        ".git/config",
        "sub/.git",
        ".hg/hgrc",
        ".hunkloomignore",
        ".env",
        "keys/a.pem",
    ] {
        // Reading is allowed, and so every write after the read is refused by its path alone.
        ws.read(name).expect("reads stay allowed");
        refused(p, "path_protected", || ws.write(name, "x\n").map(drop));
        refused(p, "path_protected", || {
            ws.str_replace(name, "\n", "\nx\n", false).map(drop)
        });
        refused(p, "path_protected", || {
            ws.insert(name, 0, "x\n", Convention::Before).map(drop)
        });
        refused(p, "path_protected", || ws.plan_delete(name).map(drop));
        refused(p, "path_protected", || {
            ws.plan_move(name, "moved.txt", None).map(drop)
        });
    }
    // New files there, a move into it, and a patch touching it (refused whole).
    refused(p, "path_protected", || {
        ws.write(".git/hooks/pre-commit", "#!/bin/sh\n").map(drop)
    });
    ws.read("src/a.txt").expect("read");
    refused(p, "path_protected", || {
        ws.plan_move("src/a.txt", ".git/a.txt", None).map(drop)
    });
    let patch = "*** Begin Patch\n*** Update File: src/a.txt\n@@\n-a\n+b\n\
                 *** Add File: .git/hooks/post-checkout\n+evil\n*** End Patch\n";
    refused(p, "path_protected", || {
        ws.apply_patch(patch, &hunkloom::patch::PatchOptions::new())
            .map(drop)
    });
    // The message says why and that reading is fine.
    let e = ws.write(".git/config", "x\n").expect_err("protected");
    assert!(
        e.message().contains("version-control directory .git"),
        "{}",
        e.message()
    );
    assert!(
        e.message().contains("Reading it is allowed"),
        "{}",
        e.message()
    );
    // Other files are written as ever.
    ws.str_replace("src/a.txt", "a", "b", false).expect("edits");
    // The defaults can be lifted explicitly; the globs still hold.
    let open = Workspace::open(
        p,
        WorkspaceOptions::new()
            .protect_defaults(false)
            .protect([".env*"]),
    )
    .expect("open");
    open.read(".git/config").expect("read");
    open.str_replace(".git/config", "bare = false", "bare = true", false)
        .expect("defaults off");
    open.read(".env").expect("read");
    refused(p, "path_protected", || {
        open.write(".env", "KEY=2\n").map(drop)
    });
    // A glob that is not gitignore syntax refuses the workspace.
    let e =
        Workspace::open(p, WorkspaceOptions::new().protect(["keys/[z-a]"])).expect_err("bad glob");
    assert_eq!(e.code(), "invalid_glob", "{}", e.message());
}

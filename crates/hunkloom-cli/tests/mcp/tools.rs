//! Each tool's success and refusal paths, checked on disk byte for byte.

use std::collections::BTreeMap;

use serde_json::json;

use crate::client::{Mcp, block, read, snapshot, tree};

#[test]
fn read_file_shows_numbered_lines_and_refuses_mistakes() {
    let mut lines = String::new();
    for i in 1..=2100 {
        lines.push_str(&format!("line {i}\r\n"));
    }
    let dir = tree(&[
        ("src/app.py", b"def f():\r\n    return 1\r\n"),
        ("long.txt", lines.as_bytes()),
        ("empty.txt", b""),
        ("secret.env", b"KEY=1\n"),
        (".hunkloomignore", b"*.env\n"),
        ("bin.dat", b"\xff\xfe\x00\xd8garbage\xff"),
    ]);
    let before = snapshot(dir.path());
    let mut mcp = Mcp::start(dir.path(), &[]);
    assert_eq!(
        mcp.ok("read_file", json!({"path": "src/app.py"})),
        "     1\tdef f():\n     2\t    return 1\n"
    );
    let abs = dir.path().join("src/app.py");
    assert_eq!(
        mcp.ok("read_file", json!({"path": abs, "start_line": 2})),
        "     2\t    return 1\n"
    );
    let long = mcp.ok("read_file", json!({"path": "long.txt"}));
    assert!(long.starts_with("     1\tline 1\n"));
    assert!(long.contains("  2000\tline 2000\n"));
    assert!(!long.contains("\tline 2001"));
    assert!(
        long.ends_with("(long.txt has 2100 lines; this shows lines 1-2000. Call read_file with start_line 2001 to read on.)"),
        "{long}"
    );
    assert_eq!(
        mcp.ok(
            "read_file",
            json!({"path": "long.txt", "start_line": 2099, "end_line": 5000})
        ),
        "  2099\tline 2099\n  2100\tline 2100\n"
    );
    assert_eq!(
        mcp.ok("read_file", json!({"path": "empty.txt"})),
        "empty.txt is empty."
    );

    let text = mcp.refused("read_file", json!({"path": "src/ap.py"}), "file_not_found");
    assert!(text.contains("Did you mean src/app.py?"), "{text}");
    mcp.refused("read_file", json!({"path": "src"}), "io_error");
    mcp.refused("read_file", json!({"path": "secret.env"}), "path_ignored");
    mcp.refused(
        "read_file",
        json!({"path": "bin.dat"}),
        "unsupported_encoding",
    );
    mcp.refused(
        "read_file",
        json!({"path": "long.txt", "start_line": 3000}),
        "invalid_view_range",
    );
    mcp.refused(
        "read_file",
        json!({"path": "long.txt", "start_line": 5, "end_line": 4}),
        "invalid_view_range",
    );
    mcp.refused("read_file", json!({}), "missing_parameter");
    mcp.refused("read_file", json!({"path": ""}), "invalid_parameter");
    mcp.refused("read_file", json!({"path": ["a"]}), "invalid_parameter");
    mcp.refused(
        "read_file",
        json!({"path": "src/app.py", "start_line": "2"}),
        "invalid_parameter",
    );
    let text = mcp.refused(
        "read_file",
        json!({"file_path": "src/app.py"}),
        "invalid_parameter",
    );
    assert!(
        text.contains("read_file has no argument `file_path`"),
        "{text}"
    );
    assert!(mcp.close().success());
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn apply_diff_reports_each_block_and_refuses_what_it_cannot_place() {
    let original: &[u8] =
        b"def greet():\r\n    print('hi')\r\n\r\ndef part():\r\n    print('bye')\r\n";
    let dir = tree(&[("app.py", original), ("twice.txt", b"x = 1\ny\nx = 1\n")]);
    let mut mcp = Mcp::start(dir.path(), &[]);

    // An edit of a file not read yet.
    let diff = block("    print('hi')\n", "    print('hello')\n");
    let text = mcp.refused(
        "apply_diff",
        json!({"path": "app.py", "diff": diff}),
        "not_read",
    );
    assert!(text.contains("Call read_file on it first"), "{text}");
    assert!(
        text.ends_with("Nothing was written: app.py is unchanged."),
        "{text}"
    );
    assert_eq!(read(dir.path().join("app.py")), original);

    mcp.ok("read_file", json!({"path": "app.py"}));
    // Two blocks: one exact, one indented differently (LF text into a CRLF file).
    let diff = block("    print('hi')\n", "    print('hello')\n")
        + &block("print('bye')\n", "print('ciao')\n");
    let text = mcp.ok("apply_diff", json!({"path": "app.py", "diff": diff}));
    assert!(text.starts_with("Applied 2 blocks to app.py:\n"), "{text}");
    assert!(
        text.contains("- block 1: replaced line 2 (strategy: exact)"),
        "{text}"
    );
    assert!(
        text.contains(
            "- block 2: replaced line 5 (strategy: indentation; tolerated: indentation; the \
             replacement was re-indented by +4 columns to match the file)"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("app.py now has 5 lines. undo_edit takes this edit back."),
        "{text}"
    );
    let edited: &[u8] =
        b"def greet():\r\n    print('hello')\r\n\r\ndef part():\r\n    print('ciao')\r\n";
    assert_eq!(read(dir.path().join("app.py")), edited);

    // Refusals leave the file as it is.
    let refusals = [
        (block("    nothing('here')\n", "x\n"), "search_not_found"),
        (
            "<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n".to_owned(),
            "malformed_block",
        ),
        (
            block("    print('hello')\n", "    a()\n")
                + &block("    print('hello')\n", "    b()\n"),
            "overlapping_blocks",
        ),
    ];
    for (diff, code) in refusals {
        let text = mcp.refused("apply_diff", json!({"path": "app.py", "diff": diff}), code);
        assert!(
            text.ends_with("Nothing was written: app.py is unchanged."),
            "{text}"
        );
        assert_eq!(read(dir.path().join("app.py")), edited);
    }
    mcp.ok("read_file", json!({"path": "twice.txt"}));
    let text = mcp.refused(
        "apply_diff",
        json!({"path": "twice.txt", "diff": block("x = 1\n", "x = 2\n")}),
        "ambiguous_match",
    );
    assert!(text.contains("matches 2 places: line 1, line 3."), "{text}");

    // Someone else changes the file: the next edit is refused until it is read again.
    let theirs: &[u8] = b"def greet():\r\n    print('HELLO')\r\n";
    std::fs::write(dir.path().join("app.py"), theirs).expect("write");
    let diff = block("def greet():\n", "def welcome():\n");
    let text = mcp.refused(
        "apply_diff",
        json!({"path": "app.py", "diff": diff}),
        "stale_file",
    );
    assert!(text.contains("Call read_file on it"), "{text}");
    assert_eq!(read(dir.path().join("app.py")), theirs);
    mcp.ok("read_file", json!({"path": "app.py"}));
    mcp.ok("apply_diff", json!({"path": "app.py", "diff": diff}));
    assert_eq!(
        read(dir.path().join("app.py")),
        b"def welcome():\r\n    print('HELLO')\r\n"
    );

    // An empty SEARCH creates a file; a non-empty one on a missing file is refused.
    let text = mcp.ok(
        "apply_diff",
        json!({"path": "pkg/new.py", "diff": block("", "x = 1\n")}),
    );
    assert!(text.starts_with("Created pkg/new.py:"), "{text}");
    assert_eq!(read(dir.path().join("pkg/new.py")), b"x = 1\n");
    let text = mcp.refused(
        "apply_diff",
        json!({"path": "pkg/other.py", "diff": block("y\n", "z\n")}),
        "file_not_found",
    );
    assert!(text.contains("empty SEARCH"), "{text}");
    assert!(!dir.path().join("pkg/other.py").exists());

    mcp.refused("apply_diff", json!({"path": "app.py"}), "missing_parameter");
    mcp.refused(
        "apply_diff",
        json!({"path": "app.py", "diff": 3}),
        "invalid_parameter",
    );
    assert!(mcp.close().success());
}

/// Files for the patch tests: a CRLF file, a UTF-16 one, one to delete, one to move.
fn patch_tree() -> tempfile::TempDir {
    tree(&[
        ("src/app.py", b"def greet():\r\n    print('hi')\r\n"),
        ("src/util.py", b"A = 1\nB = 2\n"),
        ("old.txt", b"gone\n"),
        ("utf16.txt", b"\xff\xfea\x00\n\x00"),
    ])
}

const PATCH: &str = "*** Begin Patch
*** Update File: src/app.py
@@ def greet():
-    print('hi')
+    print('hello')
*** Add File: docs/notes.md
+notes
*** Delete File: old.txt
*** Update File: src/util.py
*** Move to: src/helpers.py
@@
 A = 1
-B = 2
+B = 3
*** Update File: utf16.txt
-a
+b
*** End Patch
";

#[test]
fn apply_patch_changes_every_file_or_none() {
    let dir = patch_tree();
    let before = snapshot(dir.path());
    let mut mcp = Mcp::start(dir.path(), &[]);

    // The last hunk fails: nothing is written.
    let failing = PATCH.replace(
        "+b\n",
        "+b\n*** Update File: src/app.py\n@@\n-not there\n+x\n",
    );
    let text = mcp.refused(
        "apply_patch",
        json!({"patch": failing}),
        "patch_context_not_found",
    );
    assert!(
        text.ends_with("Nothing was written: no file has changed."),
        "{text}"
    );
    assert_eq!(snapshot(dir.path()), before);
    for (patch, code) in [
        ("*** Update File: a\n", "invalid_patch"),
        ("*** Begin Patch\n*** End Patch\n", "empty_patch"),
        (
            "*** Begin Patch\n*** Update File: nope.txt\n@@\n-a\n+b\n*** End Patch\n",
            "patch_file_not_found",
        ),
        (
            "*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch\n",
            "path_outside_root",
        ),
    ] {
        mcp.refused("apply_patch", json!({"patch": patch}), code);
        assert_eq!(snapshot(dir.path()), before);
    }

    let text = mcp.ok("apply_patch", json!({"patch": PATCH}));
    assert_eq!(
        text,
        "Patch applied: 5 files changed.\n\
         - updated src/app.py (2 lines)\n\
         - created docs/notes.md (1 line)\n\
         - deleted old.txt\n\
         - moved src/util.py -> src/helpers.py (2 lines)\n\
         - updated utf16.txt (1 line)\n\
         undo_edit takes back each file's change (for a move, undo both paths)."
    );
    let after = snapshot(dir.path());
    let expected: BTreeMap<String, Vec<u8>> = [
        ("docs/notes.md", b"notes\n".to_vec()),
        (
            "src/app.py",
            b"def greet():\r\n    print('hello')\r\n".to_vec(),
        ),
        ("src/helpers.py", b"A = 1\nB = 3\n".to_vec()),
        ("utf16.txt", b"\xff\xfeb\x00\n\x00".to_vec()),
    ]
    .into_iter()
    .map(|(p, b)| (p.to_owned(), b))
    .collect();
    assert_eq!(after, expected);

    // Each file's change is taken back by undo_edit (a move: both paths).
    for path in [
        "src/app.py",
        "docs/notes.md",
        "old.txt",
        "src/helpers.py",
        "src/util.py",
        "utf16.txt",
    ] {
        mcp.ok("undo_edit", json!({"path": path}));
    }
    assert_eq!(snapshot(dir.path()), before);
    mcp.refused("apply_patch", json!({}), "missing_parameter");
    assert!(mcp.close().success());
}

#[test]
fn undo_edit_takes_back_the_last_edit_unless_the_file_changed() {
    let dir = tree(&[("a.txt", b"one\r\ntwo\r\n")]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    mcp.refused("undo_edit", json!({"path": "a.txt"}), "nothing_to_undo");
    mcp.ok("read_file", json!({"path": "a.txt"}));
    mcp.ok(
        "apply_diff",
        json!({"path": "a.txt", "diff": block("two\n", "2\n")}),
    );
    mcp.ok(
        "apply_diff",
        json!({"path": "a.txt", "diff": block("one\n", "1\n")}),
    );
    assert_eq!(read(dir.path().join("a.txt")), b"1\r\n2\r\n");
    let text = mcp.ok("undo_edit", json!({"path": "a.txt"}));
    assert_eq!(
        text,
        "Undid the last edit of a.txt: its previous content is back (2 lines)."
    );
    assert_eq!(read(dir.path().join("a.txt")), b"one\r\n2\r\n");

    // Changed behind the server's back: the undo is refused and the change kept.
    std::fs::write(dir.path().join("a.txt"), b"theirs\n").expect("write");
    let text = mcp.refused("undo_edit", json!({"path": "a.txt"}), "stale_file");
    assert!(text.ends_with("Nothing was undone."), "{text}");
    assert_eq!(read(dir.path().join("a.txt")), b"theirs\n");

    // A created file is removed again.
    mcp.ok(
        "apply_diff",
        json!({"path": "b.txt", "diff": block("", "b\n")}),
    );
    let text = mcp.ok("undo_edit", json!({"path": "b.txt"}));
    assert_eq!(text, "Undid the creation of b.txt: the file is removed.");
    assert!(!dir.path().join("b.txt").exists());
    assert!(mcp.close().success());
}

#[test]
fn the_text_editor_answers_in_each_profile() {
    let dir = tree(&[("a.txt", b"alpha\r\nbeta\r\n")]);
    let root = dir.path().canonicalize().expect("canonical");
    let abs = root.join("a.txt").display().to_string();
    let tool = "str_replace_based_edit_tool";

    // native: relative paths, view before edit, the file's line endings kept.
    let mut mcp = Mcp::start(&root, &[]);
    let edit =
        json!({"command": "str_replace", "path": "a.txt", "old_str": "beta", "new_str": "BETA"});
    mcp.refused(tool, edit.clone(), "not_read");
    let view = mcp.ok(tool, json!({"command": "view", "path": "a.txt"}));
    assert!(view.contains("     1\talpha\n     2\tbeta"), "{view}");
    mcp.ok(tool, edit);
    assert_eq!(read(root.join("a.txt")), b"alpha\r\nBETA\r\n");
    mcp.refused(
        tool,
        json!({"command": "view", "path": "../x"}),
        "path_outside_root",
    );
    mcp.refused(
        tool,
        json!({"command": "fly", "path": "a.txt"}),
        "unknown_command",
    );
    mcp.refused(tool, json!({"path": "a.txt"}), "missing_parameter");
    mcp.ok(tool, json!({"command": "undo_edit", "path": "a.txt"}));
    assert_eq!(read(root.join("a.txt")), b"alpha\r\nbeta\r\n");

    // The editor and the workspace tools share the root but not their records: an edit by
    // one makes the file stale for the other.
    mcp.ok("read_file", json!({"path": "a.txt"}));
    mcp.ok(tool, json!({"command": "view", "path": "a.txt"}));
    mcp.ok(
        "apply_diff",
        json!({"path": "a.txt", "diff": block("alpha\n", "ALPHA\n")}),
    );
    mcp.refused(
        tool,
        json!({"command": "str_replace", "path": "a.txt", "old_str": "beta", "new_str": "b"}),
        "stale_file",
    );
    assert_eq!(read(root.join("a.txt")), b"ALPHA\r\nbeta\r\n");
    assert!(mcp.close().success());

    // anthropic: absolute paths, the reference's texts.
    let mut mcp = Mcp::start(&root, &["--profile", "anthropic"]);
    mcp.refused(
        tool,
        json!({"command": "view", "path": "a.txt"}),
        "relative_path",
    );
    let created = root.join("new.txt").display().to_string();
    let text = mcp.ok(
        tool,
        json!({"command": "create", "path": created, "file_text": "n\n"}),
    );
    assert_eq!(text, format!("File created successfully at: {created}"));
    mcp.ok(
        tool,
        json!({"command": "str_replace", "path": abs, "old_str": "ALPHA", "new_str": "alpha"}),
    );
    assert_eq!(read(root.join("a.txt")), b"alpha\r\nbeta\r\n");
    assert_eq!(read(root.join("new.txt")), b"n\n");
    assert!(mcp.close().success());
}

#[cfg(unix)]
#[test]
fn no_path_leaves_the_root() {
    let outside = tree(&[("secret.txt", b"secret\n")]);
    let dir = tree(&[("a.txt", b"a\n")]);
    std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).expect("symlink");
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        dir.path().join("link.txt"),
    )
    .expect("symlink");
    let outside_before = snapshot(outside.path());
    let inside_before = snapshot(dir.path());
    let secret = outside.path().join("secret.txt").display().to_string();
    let elsewhere = outside.path().join("new.txt").display().to_string();
    let editor = "str_replace_based_edit_tool";

    let mut mcp = Mcp::start(dir.path(), &[]);
    for path in [
        "../x.txt",
        "sub/../../x.txt",
        &secret,
        "out/secret.txt",
        "link.txt",
    ] {
        mcp.refused("read_file", json!({"path": path}), "path_outside_root");
        mcp.refused(
            "apply_diff",
            json!({"path": path, "diff": block("", "x\n")}),
            "path_outside_root",
        );
        mcp.refused("undo_edit", json!({"path": path}), "path_outside_root");
        mcp.refused(
            editor,
            json!({"command": "view", "path": path}),
            "path_outside_root",
        );
    }
    for path in ["../new.txt", &elsewhere, "out/new.txt"] {
        mcp.refused(
            "apply_diff",
            json!({"path": path, "diff": block("", "x\n")}),
            "path_outside_root",
        );
        mcp.refused(
            "apply_patch",
            json!({"patch": format!("*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch\n")}),
            "path_outside_root",
        );
        mcp.refused(
            editor,
            json!({"command": "create", "path": path, "file_text": "x"}),
            "path_outside_root",
        );
    }
    mcp.refused(
        "apply_patch",
        json!({"patch": "*** Begin Patch\n*** Update File: a.txt\n*** Move to: ../moved.txt\n@@\n-a\n+b\n*** End Patch\n"}),
        "path_outside_root",
    );
    assert!(mcp.close().success());
    assert_eq!(snapshot(outside.path()), outside_before);
    assert_eq!(snapshot(dir.path()), inside_before);
    assert!(
        !dir.path()
            .parent()
            .expect("parent")
            .join("new.txt")
            .exists()
    );
}

#[test]
fn a_10_mb_file_is_read_in_windows_and_edited_exactly() {
    let mut text = String::with_capacity(10_500_000);
    let mut n = 0;
    while text.len() < 10_000_000 {
        n += 1;
        text.push_str(&format!(
            "{n:>8} the quick brown fox jumps over the lazy dog\r\n"
        ));
    }
    let dir = tree(&[("big.txt", text.as_bytes())]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    let first = mcp.ok("read_file", json!({"path": "big.txt"}));
    assert_eq!(
        first.lines().count(),
        2002,
        "2000 lines, a blank line and the note"
    );
    assert!(
        first.contains(&format!("(big.txt has {n} lines;")),
        "{}",
        &first[first.len() - 200..]
    );
    let last = mcp.ok(
        "read_file",
        json!({"path": "big.txt", "start_line": n, "end_line": n}),
    );
    assert_eq!(
        last,
        format!("{n:>6}\t{n:>8} the quick brown fox jumps over the lazy dog\n")
    );
    let search = format!("{n:>8} the quick brown fox jumps over the lazy dog\n");
    let text_after = mcp.ok(
        "apply_diff",
        json!({"path": "big.txt", "diff": block(&search, "the end\n")}),
    );
    assert!(
        text_after.contains(&format!("block 1: replaced line {n} (strategy: exact)")),
        "{text_after}"
    );
    let expected = format!("{}the end\r\n", &text[..text.len() - search.len() - 1]);
    assert!(read(dir.path().join("big.txt")) == expected.as_bytes());
    mcp.ok("undo_edit", json!({"path": "big.txt"}));
    assert!(read(dir.path().join("big.txt")) == text.as_bytes());
    assert!(mcp.close().success());
}

#[test]
fn an_edit_merged_around_changes_since_the_read_says_where_they_are() {
    let lines: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    let dir = tree(&[("a.txt", lines.as_bytes()), ("b.txt", lines.as_bytes())]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    mcp.ok("read_file", json!({"path": "a.txt"}));
    mcp.ok("read_file", json!({"path": "b.txt"}));
    let theirs = lines.replace("line 2\n", "line two, edited elsewhere\n");
    std::fs::write(dir.path().join("a.txt"), &theirs).expect("write");
    std::fs::write(dir.path().join("b.txt"), &theirs).expect("write");

    let text = mcp.ok(
        "apply_diff",
        json!({"path": "a.txt", "diff": block("line 8\n", "line eight\n")}),
    );
    assert!(
        text.contains(
            "a.txt had changed since it was read: the edit was merged around those changes (line 2)"
        ),
        "{text}"
    );
    assert_eq!(
        read(dir.path().join("a.txt")),
        theirs.replace("line 8\n", "line eight\n").into_bytes()
    );

    let patch = "*** Begin Patch\n*** Update File: b.txt\n@@\n line 7\n-line 8\n+line eight\n*** End Patch\n";
    let text = mcp.ok("apply_patch", json!({"patch": patch}));
    assert!(
        text.contains(
            "b.txt had changed since it was read: the edit was merged around those changes (line 2)"
        ),
        "{text}"
    );
    // An edit of a file unchanged since its last write says nothing of the kind.
    let text = mcp.ok(
        "apply_diff",
        json!({"path": "a.txt", "diff": block("line 9\n", "line nine\n")}),
    );
    assert!(!text.contains("had changed"), "{text}");
}

#[test]
fn apply_lazy_merges_a_snippet_or_refuses_it_and_writes_nothing() {
    let file = "package main\r\n\r\nfunc (s *Server) Start() error {\r\n\treturn nil\r\n}\r\n\r\nfunc (s *Server) Stop() error {\r\n\treturn nil\r\n}\r\n";
    let dir = tree(&[("server.go", file.as_bytes())]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    let snippet = "// ... existing code ...\nfunc (s *Server) Start() error {\n\ts.ready = true\n\treturn nil\n}\n\nfunc (s *Server) Stop() error {\n// ... existing code ...\n";
    mcp.refused(
        "apply_lazy",
        json!({"path": "server.go", "snippet": snippet}),
        "not_read",
    );
    mcp.ok("read_file", json!({"path": "server.go"}));
    let text = mcp.ok(
        "apply_lazy",
        json!({"path": "server.go", "snippet": snippet}),
    );
    assert!(
        text.starts_with("Merged the snippet into server.go"),
        "{text}"
    );
    let merged = file.replace(
        "Start() error {\r\n",
        "Start() error {\r\n\ts.ready = true\r\n",
    );
    assert_eq!(read(dir.path().join("server.go")), merged.as_bytes());
    // A part whose last line, `}`, closes every function is refused, never guessed.
    let before = snapshot(dir.path());
    let vague = "// ...\nfunc (s *Server) Stop() error {\n\ts.ready = false\n\treturn nil\n}\n";
    let text = mcp.refused(
        "apply_lazy",
        json!({"path": "server.go", "snippet": vague}),
        "lazy_ambiguous",
    );
    assert!(
        text.contains("its last 2 lines (from `return nil`) occur at 2 places"),
        "{text}"
    );
    assert!(
        text.ends_with("Nothing was written: server.go is unchanged."),
        "{text}"
    );
    assert_eq!(snapshot(dir.path()), before);
    mcp.ok("undo_edit", json!({"path": "server.go"}));
    assert_eq!(read(dir.path().join("server.go")), file.as_bytes());
    assert!(mcp.close().success());
}

#[test]
fn the_native_text_editor_merges_a_lazy_create_over_a_file() {
    let file = "def a():\n    return 1\n\n\ndef b():\n    return 2\n";
    let dir = tree(&[("m.py", file.as_bytes())]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    let editor = "str_replace_based_edit_tool";
    mcp.ok(editor, json!({"command": "view", "path": "m.py"}));
    let lazy = "# ... existing code ...\ndef b():\n    b = 2\n    return b\n";
    mcp.refused(
        editor,
        json!({"command": "create", "path": "m.py", "file_text": lazy}),
        "lazy_no_anchor",
    );
    assert_eq!(read(dir.path().join("m.py")), file.as_bytes());
    let lazy = "# ... existing code ...\ndef b():\n    b = 2\n    return 2\n";
    let text = mcp.ok(
        editor,
        json!({"command": "create", "path": "m.py", "file_text": lazy}),
    );
    assert!(text.contains("merged into it as a lazy edit"), "{text}");
    assert_eq!(
        read(dir.path().join("m.py")),
        file.replace("def b():\n", "def b():\n    b = 2\n")
            .as_bytes()
    );
    assert!(mcp.close().success());
}

#[test]
fn sixteen_apply_diff_requests_sent_at_once_all_land() {
    let text: String = (0..240)
        .map(|i| format!("def f{i}(x):\n    return x * {i}\n\n"))
        .collect();
    let dir = tree(&[("m.py", text.as_bytes())]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    let picks: Vec<usize> = (0..16).map(|k| k * 15 + 3).collect();
    // Every request is sent before any answer is read, as a host with parallel tool calls does;
    // the read first: calls on one file run in the order they arrived, so the edits follow it.
    mcp.send(&json!({"jsonrpc": "2.0", "id": 999, "method": "tools/call",
        "params": {"name": "read_file", "arguments": {"path": "m.py"}}}));
    for (n, &i) in picks.iter().enumerate() {
        let diff = block(
            &format!("    return x * {i}\n"),
            &format!("    return x * {i}  # edited\n"),
        );
        mcp.send(
            &json!({"jsonrpc": "2.0", "id": 1000 + n, "method": "tools/call",
            "params": {"name": "apply_diff", "arguments": {"path": "m.py", "diff": diff}}}),
        );
    }
    let mut answered = BTreeMap::new();
    while answered.len() < picks.len() + 1 {
        let message = mcp.next();
        if let Some(id) = message.get("id").and_then(serde_json::Value::as_u64) {
            answered.insert(id, message);
        }
    }
    for (id, message) in &answered {
        assert_eq!(message["result"]["isError"], false, "{id}: {message}");
    }
    let mut want = text.clone();
    for &i in &picks {
        want = want.replace(
            &format!("    return x * {i}\n"),
            &format!("    return x * {i}  # edited\n"),
        );
    }
    assert_eq!(read(dir.path().join("m.py")), want.into_bytes());
    println!("parallel mcp: 16 apply_diff requests sent at once: 16/16 landed");
}

#[test]
fn protected_paths_are_read_but_never_written_and_protect_adds_globs() {
    let dir = tree(&[
        (".git/config", b"[core]\n"),
        (".env", b"KEY=1\n"),
        ("a.txt", b"a\n"),
    ]);
    let mut mcp = Mcp::start(dir.path(), &["--protect", ".env*"]);
    mcp.ok("read_file", json!({"path": ".git/config"}));
    let diff = block("[core]\n", "[core]\n\thooksPath = /tmp/evil\n");
    mcp.refused(
        "apply_diff",
        json!({"path": ".git/config", "diff": diff}),
        "path_protected",
    );
    mcp.ok("read_file", json!({"path": ".env"}));
    let diff = block("KEY=1\n", "KEY=2\n");
    mcp.refused(
        "apply_diff",
        json!({"path": ".env", "diff": diff}),
        "path_protected",
    );
    let edit = json!({"command": "create", "path": ".git/hooks/pre-commit", "file_text": "x"});
    let result = mcp.call("str_replace_based_edit_tool", edit);
    assert!(
        result.is_error() && result.code() == "path_protected",
        "{}",
        result.text()
    );
    assert_eq!(read(dir.path().join(".git/config")), b"[core]\n");
    assert_eq!(read(dir.path().join(".env")), b"KEY=1\n");
    assert!(!dir.path().join(".git/hooks").exists());
}

#[test]
fn legacy_files_damaged_calls_and_replays_through_the_server() {
    let text = "# Тестовый файл с кириллицей\nтекст = \"Привет, мир!\"\n";
    let cp1251 = hunkloom_testkit::cp1251(text);
    let dir = tree(&[("ru.py", &cp1251), ("app.py", b"def main():\n    run()\n")]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    let view = mcp.call(
        "str_replace_based_edit_tool",
        json!({"command": "view", "path": "ru.py"}),
    );
    assert!(
        view.text().contains("Привет") && view.text().contains("encoded in windows-1251"),
        "{}",
        view.text()
    );
    mcp.ok("read_file", json!({"path": "ru.py"}));
    mcp.refused(
        "apply_diff",
        json!({"path": "ru.py", "diff": block("текст = \"Привет, мир!\"\n", "текст = \"Привет, мир ✓\"\n")}),
        "unrepresentable_text",
    );
    assert_eq!(read(dir.path().join("ru.py")), cp1251);
    mcp.ok("read_file", json!({"path": "app.py"}));
    let edit = json!({"command": "str_replace", "path": "app.py", "old_str": "    run()", "new_str": "    run()\n[... 40 lines truncated ...]"});
    let result = mcp.call("str_replace_based_edit_tool", edit);
    assert!(
        result.is_error() && result.code() == "truncation_notice",
        "{}",
        result.text()
    );
    let patch = "*** Begin Patch\n*** Update File: app.py\n@@\n-    run()\n+    run(fast=True)\n*** End Patch\n";
    mcp.ok("apply_patch", json!({"patch": patch}));
    let after = read(dir.path().join("app.py"));
    let replay = mcp.ok("apply_patch", json!({"patch": patch}));
    assert_eq!(read(dir.path().join("app.py")), after);
    println!("mcp replayed apply_patch: {replay}");
}

#[test]
fn the_openai_profile_serves_apply_patch_as_the_agents_sdk_answers_it() {
    let dir = tree(&[("app.py", b"x = 1\ny = 2\n")]);
    let mut mcp = Mcp::start(dir.path(), &["--profile", "openai"]);
    let names: Vec<String> = mcp
        .tools()
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(names, ["apply_patch"]);
    let updated = mcp.ok(
        "apply_patch",
        json!({"operation": {"type": "update_file", "path": "app.py", "diff": "@@\n x = 1\n-y = 2\n+y = 3\n"}}),
    );
    assert_eq!(updated, "Updated app.py");
    assert_eq!(read(dir.path().join("app.py")), b"x = 1\ny = 3\n");
    let created = mcp.ok(
        "apply_patch",
        json!({"operation": {"type": "create_file", "path": "new.txt", "diff": "+hello\n"}}),
    );
    assert_eq!(created, "Created new.txt");
    assert_eq!(read(dir.path().join("new.txt")), b"hello");
    let result = mcp.call(
        "apply_patch",
        json!({"operation": {"type": "delete_file", "path": "../x"}}),
    );
    assert!(result.is_error(), "{}", result.text());
    assert_eq!(result.text(), "apply_patch path must not escape root: ../x");
    assert_eq!(result.code(), "path_outside_root");
}

#[test]
fn the_codex_profile_serves_apply_patch_and_exec_command_as_codex_answers_them() {
    let dir = tree(&[("app.py", b"x = 1\n")]);
    let mut mcp = Mcp::start(dir.path(), &["--profile", "codex"]);
    let names: Vec<String> = mcp
        .tools()
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(names, ["apply_patch", "exec_command"]);
    let patch = "*** Begin Patch\n*** Update File: app.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n";
    let applied = mcp.ok("apply_patch", json!({"input": patch}));
    assert!(
        applied.starts_with("Exit code: 0\nWall time: "),
        "{applied}"
    );
    assert!(
        applied.ends_with("Success. Updated the following files:\nM app.py\n"),
        "{applied}"
    );
    assert_eq!(read(dir.path().join("app.py")), b"x = 2\n");
    let shell = mcp.call("exec_command", json!({"cmd": "ls -la"}));
    assert!(
        shell.is_error() && shell.code() == "not_an_edit",
        "{}",
        shell.text()
    );
}

#[test]
fn the_gemini_profile_serves_replace_write_file_and_read_file_as_the_gemini_cli_answers_them() {
    let dir = tree(&[("app.py", b"def f():\n    x = 1\n")]);
    let mut mcp = Mcp::start(dir.path(), &["--profile", "gemini"]);
    let names: Vec<String> = mcp
        .tools()
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(names, ["replace", "write_file", "read_file"]);
    let root = std::fs::canonicalize(dir.path()).expect("root");
    let edited = mcp.ok(
        "replace",
        json!({"file_path": "app.py", "instruction": "Set x to 2.",
               "old_string": "x = 1", "new_string": "x = 2"}),
    );
    assert_eq!(
        edited,
        format!(
            "Successfully modified file: {}/app.py (1 replacements). Here is the updated \
             code:\ndef f():\n    x = 2\n",
            root.display()
        )
    );
    assert_eq!(read(dir.path().join("app.py")), b"def f():\n    x = 2\n");
    let missing = mcp.call(
        "replace",
        json!({"file_path": "app.py", "old_string": "a", "new_string": "b"}),
    );
    assert!(missing.is_error(), "{}", missing.text());
    assert_eq!(
        missing.text(),
        "params must have required property 'instruction'"
    );
    let blocked = mcp.call(
        "write_file",
        json!({"file_path": ".git/config", "content": "x"}),
    );
    assert!(blocked.is_error() && blocked.text().starts_with("Path not in workspace: "));
    assert_eq!(
        mcp.ok("read_file", json!({"file_path": "app.py"})),
        "def f():\n    x = 2\n"
    );
}

#[test]
fn apply_patch_takes_an_aider_reply_with_format_aider() {
    let dir = tree(&[("app.py", b"def f():\n    x = 1\n")]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    let reply = "app.py\n```python\n<<<<<<< SEARCH\n    x = 1\n=======\n    x = 2\n>>>>>>> REPLACE\n```\n\nnew.py\n```python\n<<<<<<< SEARCH\n=======\nprint()\n>>>>>>> REPLACE\n```\n";
    mcp.ok("apply_patch", json!({"patch": reply, "format": "aider"}));
    assert_eq!(read(dir.path().join("app.py")), b"def f():\n    x = 2\n");
    assert_eq!(read(dir.path().join("new.py")), b"print()\n");
    let missed = mcp.call(
        "apply_patch",
        json!({"patch": reply.replace("x = 1", "y = 9"), "format": "aider-native"}),
    );
    assert!(missed.is_error(), "{}", missed.text());
    let wrong = mcp.call("apply_patch", json!({"patch": reply, "format": "cline"}));
    assert!(
        wrong.is_error() && wrong.code() == "invalid_parameter",
        "{}",
        wrong.text()
    );
}

#[test]
fn the_anthropic_profile_serves_its_editor_as_text_editor_20250728() {
    let dir = tree(&[("a.txt", b"abcdef\nghijkl\n")]);
    let root = dir.path().canonicalize().expect("canonical");
    let path = root.join("a.txt").display().to_string();
    let tool = "str_replace_based_edit_tool";
    let mut mcp = Mcp::start(&root, &["--profile", "anthropic", "--max-characters", "10"]);
    let view = mcp.ok(tool, json!({"command": "view", "path": path}));
    assert!(
        view.contains("     1\tabcdef\n     2\tghi<response clipped>"),
        "{view}"
    );
    mcp.ok(
        tool,
        json!({"command": "str_replace", "path": path, "old_str": "abcdef", "new_str": "ABCDEF"}),
    );
    // The newest editor has no undo_edit: the reference's text, and the edit stays.
    let undo = mcp.call(tool, json!({"command": "undo_edit", "path": path}));
    assert!(
        undo.is_error() && undo.code() == "unknown_command",
        "{}",
        undo.text()
    );
    assert!(
        undo.text().starts_with("Unrecognized command undo_edit."),
        "{}",
        undo.text()
    );
    assert_eq!(read(root.join("a.txt")), b"ABCDEF\nghijkl\n");
    assert!(mcp.close().success());
}

#[test]
fn read_only_keeps_each_profiles_reading_tools() {
    let dir = tree(&[("app.py", b"x = 1\n")]);
    let mut mcp = Mcp::start(dir.path(), &["--profile", "gemini", "--read-only"]);
    let tools = mcp.tools();
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["read_file"]);
    assert_eq!(tools[0]["annotations"]["readOnlyHint"], true);
    assert_eq!(
        mcp.ok("read_file", json!({"file_path": "app.py"})),
        "x = 1\n"
    );
    let response = mcp.request(
        "tools/call",
        json!({"name": "write_file", "arguments": {"file_path": "app.py", "content": "y"}}),
    );
    assert_eq!(response["error"]["code"], -32602, "{response}");
    assert!(mcp.close().success());
    assert_eq!(read(dir.path().join("app.py")), b"x = 1\n");

    let status = std::process::Command::new(env!("CARGO_BIN_EXE_hunkloom"))
        .args(["mcp", "--profile", "openai", "--read-only"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run");
    assert!(!status.status.success());
    assert!(
        String::from_utf8_lossy(&status.stderr).contains("--read-only has no tools to offer"),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
}

#[test]
fn semantics_native_reads_a_codex_patch_natively() {
    let dir = tree(&[("a.txt", b"x\ny\nx\ny\n")]);
    let mut mcp = Mcp::start(dir.path(), &["--profile", "codex", "--semantics", "native"]);
    let patch = "*** Begin Patch\n*** Update File: a.txt\n x\n-y\n+Y\n*** End Patch\n";
    // Codex's own reading takes the first copy; the native one refuses, naming both.
    let refused = mcp.call("apply_patch", json!({"input": patch}));
    assert!(refused.is_error(), "{}", refused.text());
    assert!(
        refused.text().contains("at lines 1 and 3"),
        "{}",
        refused.text()
    );
    let at_end = patch.replace("+Y\n", "+Y\n*** End of File\n");
    let done = mcp.ok("apply_patch", json!({"input": at_end}));
    assert!(
        done.contains("Success. Updated the following files:"),
        "{done}"
    );
    assert_eq!(read(dir.path().join("a.txt")), b"x\ny\nx\nY\n");
    assert!(mcp.close().success());
}

#[test]
fn semantics_native_serves_gemini_and_copilot_tools() {
    let dir = tree(&[("a.py", b"class A:\n    def f(self):\n        return 1\n")]);
    let mut mcp = Mcp::start(
        dir.path(),
        &["--profile", "gemini", "--semantics", "native"],
    );
    // The CLI's `replace`, with the old text re-indented: placed as whole lines.
    let input = json!({"file_path": "a.py", "instruction": "Return 2.",
        "old_string": "def f(self):\n    return 1", "new_string": "def f(self):\n    return 2"});
    let done = mcp.ok("replace", input);
    assert!(done.contains("(1 replacements)"), "{done}");
    assert_eq!(
        read(dir.path().join("a.py")),
        b"class A:\n    def f(self):\n        return 2\n"
    );
    assert!(mcp.close().success());
    let mut mcp = Mcp::start(
        dir.path(),
        &["--profile", "copilot", "--semantics", "native"],
    );
    let root = dir.path().canonicalize().expect("root");
    let item = json!({"filePath": root.join("a.py").display().to_string(),
        "oldString": "return 2", "newString": "return 3"});
    let done = mcp.ok("replace_string_in_file", item);
    assert!(done.contains("successfully edited"), "{done}");
    assert_eq!(
        read(dir.path().join("a.py")),
        b"class A:\n    def f(self):\n        return 3\n"
    );
    assert!(mcp.close().success());
}

#[test]
fn durability_none_serves_the_same_edits_and_a_bad_name_is_a_usage_error() {
    let dir = tree(&[("a.txt", b"one\n")]);
    let mut mcp = Mcp::start(dir.path(), &["--durability", "none"]);
    mcp.ok("read_file", json!({"path": "a.txt"}));
    mcp.ok(
        "apply_diff",
        json!({"path": "a.txt", "diff": block("one\n", "two\n")}),
    );
    assert_eq!(read(dir.path().join("a.txt")), b"two\n");
    assert!(mcp.close().success());
    let mut bad = Mcp::spawn(dir.path(), &["mcp", "--durability", "fast"]);
    assert_eq!(bad.wait().code(), Some(2));
    assert!(
        bad.logs().contains("unknown durability 'fast'"),
        "{}",
        bad.logs()
    );
}

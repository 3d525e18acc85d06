//! `Workspace::apply_patch`: multi-file patches committed all or none, with every path checked
//! and every file's bytes kept.

mod common;

use std::collections::BTreeMap;

use common::{assert_no_leftovers, setup, snapshot};
use hunkloom::Policy;
use hunkloom::patch::{PatchDialect, PatchOptions};
use hunkloom_fs::{ChangeKind, Encoding, FaultMode, Workspace, WorkspaceOptions};

fn wrap(body: &str) -> String {
    format!("*** Begin Patch\n{body}\n*** End Patch\n")
}

fn codex() -> PatchOptions {
    PatchOptions::new()
}

fn utf16le(text: &str) -> Vec<u8> {
    let mut out = vec![0xFF, 0xFE];
    out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

fn utf16be(text: &str) -> Vec<u8> {
    let mut out = vec![0xFE, 0xFF];
    out.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    out
}

// ---- three files, all or none -------------------------------------------------------------

const THREE: &[(&str, &[u8])] = &[
    ("a.txt", b"a1\r\na2\r\na3\r\n"),
    ("sub/b.txt", b"\xEF\xBB\xBFb1\nb2\n"),
    ("c.txt", b"c1\nc2\n"),
];

/// Updates a CRLF file, moves a BOM file, deletes a third and adds a fourth.
fn three_file_patch() -> String {
    wrap(
        "*** Update File: a.txt\n@@\n a1\n-a2\n+A2\n\
         *** Update File: sub/b.txt\n*** Move to: moved/b.txt\n@@\n-b2\n+B2\n\
         *** Delete File: c.txt\n\
         *** Add File: d.txt\n+d1",
    )
}

fn expected_new() -> BTreeMap<String, Vec<u8>> {
    BTreeMap::from([
        ("a.txt".into(), b"a1\r\nA2\r\na3\r\n".to_vec()),
        ("moved/b.txt".into(), b"\xEF\xBB\xBFb1\nB2\n".to_vec()),
        ("d.txt".into(), b"d1\n".to_vec()),
    ])
}

#[test]
fn a_three_file_patch_commits_every_file() {
    let (dir, ws) = setup(THREE);
    let outcome = ws
        .apply_patch(&three_file_patch(), &codex())
        .expect("apply");
    assert_eq!(snapshot(dir.path()), expected_new());
    assert_no_leftovers(dir.path());
    let kinds: Vec<(&str, ChangeKind)> = outcome
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("a.txt", ChangeKind::Update),
            ("moved/b.txt", ChangeKind::Move),
            ("c.txt", ChangeKind::Delete),
            ("d.txt", ChangeKind::Create),
        ]
    );
    let moved = &outcome.files[1];
    assert_eq!(moved.moved_from.as_deref(), Some("sub/b.txt"));
    assert_eq!(moved.encoding, Encoding::Utf8Bom);
    assert_eq!(moved.old_content.as_deref(), Some("b1\nb2\n"));
    assert_eq!(moved.new_content.as_deref(), Some("b1\nB2\n"));
    assert!(outcome.files.iter().all(|f| f.changed));
    assert!(outcome.failure.is_none() && outcome.warnings.is_empty());
}

/// The report of an applied patch (whose texts move out of the commit) is the report its plan
/// gives (whose texts are copies), for every kind of file change: update, move, delete,
/// create, a move onto an existing file, and an update to identical content.
#[test]
fn an_applied_patch_reports_what_its_plan_reports() {
    let files: &[(&str, &[u8])] = &[
        ("a.txt", b"a1\r\na2\r\na3\r\n"),
        ("sub/b.txt", b"\xEF\xBB\xBFb1\nb2\n"),
        ("c.txt", b"c1\nc2\n"),
        ("e.txt", b"e1\n"),
        ("f.txt", b"f1\n"),
        ("g.txt", b"g1\ng2\n"),
    ];
    let patch = wrap(
        "*** Update File: a.txt\n@@\n a1\n-a2\n+A2\n\
         *** Update File: sub/b.txt\n*** Move to: moved/b.txt\n@@\n-b2\n+B2\n\
         *** Delete File: c.txt\n\
         *** Add File: d.txt\n+d1\n\
         *** Update File: e.txt\n*** Move to: f.txt\n@@\n-e1\n+E1\n\
         *** Add File: g.txt\n+g1\n+g2",
    );
    let (planned_dir, planning) = setup(files);
    let mut planned = planning.plan_patch(&patch, &codex()).expect("plan");
    let (dir, ws) = setup(files);
    let mut applied = ws.apply_patch(&patch, &codex()).expect("apply");
    for f in &mut planned.files {
        f.resolved = f
            .resolved
            .strip_prefix(planned_dir.path())
            .unwrap()
            .to_path_buf();
    }
    for f in &mut applied.files {
        f.resolved = f.resolved.strip_prefix(dir.path()).unwrap().to_path_buf();
    }
    assert_eq!(applied.files, planned.files);
    let texts: Vec<(&str, Option<&str>, Option<&str>)> = applied
        .files
        .iter()
        .map(|f| {
            (
                f.path.as_str(),
                f.old_content.as_deref(),
                f.new_content.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        texts,
        [
            (
                "a.txt",
                Some("a1\r\na2\r\na3\r\n"),
                Some("a1\r\nA2\r\na3\r\n")
            ),
            ("moved/b.txt", Some("b1\nb2\n"), Some("b1\nB2\n")),
            ("c.txt", Some("c1\nc2\n"), None),
            ("d.txt", None, Some("d1\n")),
            ("f.txt", Some("e1\n"), Some("E1\n")),
            ("g.txt", Some("g1\ng2\n"), Some("g1\ng2\n")),
        ]
    );
    assert_eq!(applied.files[4].kind, ChangeKind::Move);
    assert!(!applied.files[5].changed);
}

/// A fault after every step of the commit: as an error the patch is rolled back; as a crash
/// the next `Workspace::open` settles it. Every file ends entirely old or entirely new, and
/// before the commit point always old; nothing is left behind.
#[test]
fn a_fault_at_any_commit_step_leaves_every_file_as_it_was() {
    for mode in [FaultMode::Error, FaultMode::Crash] {
        let mut rolled_back = 0;
        for step in 0.. {
            let (dir, ws) = setup(THREE);
            let old = snapshot(dir.path());
            ws.inject_fault(step, mode);
            let result = ws.apply_patch(&three_file_patch(), &codex());
            if !ws.fault_fired() {
                result.expect("no fault: the patch applies");
                assert_eq!(snapshot(dir.path()), expected_new());
                assert!(step >= 9, "{step} steps");
                assert!(rolled_back >= step - 1, "{mode:?}: {rolled_back}/{step}");
                break;
            }
            if mode == FaultMode::Crash {
                assert!(result.is_err());
                drop(ws);
                Workspace::open(dir.path(), WorkspaceOptions::new()).expect("recover");
            } else if let Err(e) = &result {
                assert_eq!(e.code(), "io_error");
            }
            let after = snapshot(dir.path());
            assert_no_leftovers(dir.path());
            if after == old {
                rolled_back += 1;
                if mode == FaultMode::Error {
                    assert!(result.is_err(), "step {step}: a rollback reports the error");
                }
            } else {
                assert_eq!(
                    after,
                    expected_new(),
                    "{mode:?} step {step}: all old or all new"
                );
            }
        }
    }
}

// ---- policies ------------------------------------------------------------------------------

#[test]
fn all_or_nothing_writes_nothing_and_partial_commits_the_hunks_before_the_failure() {
    let patch = wrap(
        "*** Add File: created.txt\n+hello\n\
         *** Update File: a.txt\n@@\n-not there\n+x",
    );
    let (dir, ws) = setup(&[("a.txt", b"a\n")]);
    let old = snapshot(dir.path());
    let err = ws
        .apply_patch(&patch, &codex())
        .expect_err("context missing");
    assert_eq!(err.code(), "patch_context_not_found");
    assert_eq!(snapshot(dir.path()), old);

    let outcome = ws
        .apply_patch(&patch, &codex().policy(Policy::Partial))
        .expect("partial");
    let failure = outcome.failure.expect("the failure is reported");
    assert_eq!(failure.hunk, 1);
    assert_eq!(failure.error.code(), "patch_context_not_found");
    assert_eq!(outcome.files.len(), 1);
    assert_eq!(
        std::fs::read(dir.path().join("created.txt")).expect("read"),
        b"hello\n"
    );
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"a\n"
    );
}

#[test]
fn plan_patch_writes_nothing() {
    let (dir, ws) = setup(THREE);
    let old = snapshot(dir.path());
    let plan = ws.plan_patch(&three_file_patch(), &codex()).expect("plan");
    assert_eq!(plan.files.len(), 4);
    assert_eq!(plan.changes().len(), 4);
    assert_eq!(snapshot(dir.path()), old);
}

// ---- paths ---------------------------------------------------------------------------------

#[test]
fn path_refusals_refuse_the_whole_patch_and_change_nothing() {
    let files: &[(&str, &[u8])] = &[
        ("a.txt", b"a\n"),
        ("secret/key.txt", b"k\n"),
        (".hunkloomignore", b"secret/\n"),
    ];
    let update_a = "*** Update File: a.txt\n@@\n-a\n+A\n";
    let cases = [
        (
            format!("{update_a}*** Update File: a.txt\n*** Move to: ../escaped.txt\n@@\n-A\n+B"),
            "path_outside_root",
        ),
        (
            format!("{update_a}*** Add File: ../outside.txt\n+x"),
            "path_outside_root",
        ),
        (
            format!("{update_a}*** Add File: secret/new.txt\n+x"),
            "path_ignored",
        ),
        (
            format!("{update_a}*** Update File: secret/key.txt\n@@\n-k\n+K"),
            "path_ignored",
        ),
        (
            format!("{update_a}*** Update File: a.txt\n*** Move to: secret/a.txt\n@@\n-A\n+B"),
            "path_ignored",
        ),
        (
            format!("{update_a}*** Delete File: secret/key.txt"),
            "path_ignored",
        ),
        (
            format!("{update_a}*** Add File: nb.ipynb\n+{{}}"),
            "notebook_not_supported",
        ),
        (
            format!("{update_a}*** Add File: //server/share/x\n+x"),
            "unc_path",
        ),
        (
            format!("{update_a}*** Add File: .hunkloom-journal\n+x"),
            "path_ignored",
        ),
    ];
    for (body, code) in cases {
        for policy in [Policy::AllOrNothing, Policy::Partial] {
            // The root is a subdirectory, so what lies outside it is inside `dir` too.
            let dir = tempfile::tempdir().expect("tempdir");
            let root = dir.path().join("root");
            for (name, bytes) in files {
                let path = root.join(name);
                std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
                std::fs::write(path, bytes).expect("write");
            }
            let ws = Workspace::open(&root, WorkspaceOptions::new()).expect("open");
            let old = snapshot(dir.path());
            let err = ws
                .apply_patch(&wrap(&body), &codex().policy(policy))
                .expect_err(code);
            assert_eq!(err.code(), code, "{body}");
            assert_eq!(snapshot(dir.path()), old, "{body}");
        }
    }
}

#[test]
fn two_spellings_of_one_file_conflict() {
    let (dir, ws) = setup(&[("a.txt", b"a\nb\n")]);
    let old = snapshot(dir.path());
    let patch = wrap("*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: ./a.txt\n@@\n-b\n+B");
    let err = ws.apply_patch(&patch, &codex()).expect_err("conflict");
    assert_eq!(err.code(), "conflicting_changes");
    assert_eq!(snapshot(dir.path()), old);
}

#[test]
fn a_missing_file_is_refused_with_suggestions() {
    let (dir, ws) = setup(&[("src/utils.py", b"x\n")]);
    let old = snapshot(dir.path());
    let err = ws
        .apply_patch(&wrap("*** Update File: src/utls.py\n@@\n-x\n+y"), &codex())
        .expect_err("missing");
    assert_eq!(err.code(), "patch_file_not_found");
    assert!(
        err.message().contains("Did you mean src/utils.py?"),
        "{err}"
    );
    assert_eq!(snapshot(dir.path()), old);
}

// ---- read before edit ----------------------------------------------------------------------

#[test]
fn a_file_read_here_and_changed_since_is_stale_and_one_never_read_is_accepted() {
    let (dir, ws) = setup(&[("a.txt", b"a\n"), ("b.txt", b"b\n")]);
    ws.read("a.txt").expect("read");
    std::fs::write(dir.path().join("a.txt"), "a\nchanged\n").expect("write");
    let old = snapshot(dir.path());
    let patch = wrap("*** Update File: b.txt\n@@\n-b\n+B\n*** Update File: a.txt\n@@\n-a\n+A");
    for policy in [Policy::AllOrNothing, Policy::Partial] {
        let err = ws
            .apply_patch(&patch, &codex().policy(policy))
            .expect_err("stale");
        assert_eq!(err.code(), "stale_file");
        assert_eq!(snapshot(dir.path()), old);
    }
    // Read again: the patch applies, also to b.txt, which was never read.
    ws.read("a.txt").expect("read");
    ws.apply_patch(&patch, &codex()).expect("apply");
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"A\nchanged\n"
    );
    assert_eq!(
        std::fs::read(dir.path().join("b.txt")).expect("read"),
        b"B\n"
    );
    // Written files count as read; each can be undone.
    ws.str_replace("b.txt", "B", "BB", false).expect("edit");
    ws.undo("b.txt").expect("undo the edit");
    ws.undo("b.txt").expect("undo the patch");
    assert_eq!(
        std::fs::read(dir.path().join("b.txt")).expect("read"),
        b"b\n"
    );
}

// ---- bytes ---------------------------------------------------------------------------------

#[test]
fn crlf_bom_and_utf16_files_round_trip_byte_exactly() {
    let crlf = "one\r\ntwo\r\nthree\r\n";
    let mixed = "one\r\ntwo\rthree\nfour\r\nlast";
    let (dir, ws) = setup(&[
        ("crlf.txt", crlf.as_bytes()),
        ("bom.txt", b"\xEF\xBB\xBFone\r\ntwo\r\nthree\r\n"),
        ("le.txt", &utf16le(crlf)),
        ("be.txt", &utf16be("one\ntwo\nthree")),
        ("mixed.txt", mixed.as_bytes()),
    ]);
    let update = |path: &str| format!("*** Update File: {path}\n@@\n one\n-two\n+TWO\n+added\n");
    let mut body: String = ["crlf.txt", "bom.txt", "le.txt", "be.txt"]
        .iter()
        .map(|p| update(p))
        .collect();
    body.push_str("*** Update File: mixed.txt\n@@\n-three\n+THREE");
    let outcome = ws.apply_patch(&wrap(&body), &codex()).expect("apply");
    let read = |p: &str| std::fs::read(dir.path().join(p)).expect("read");
    assert_eq!(read("crlf.txt"), b"one\r\nTWO\r\nadded\r\nthree\r\n");
    assert_eq!(
        read("bom.txt"),
        b"\xEF\xBB\xBFone\r\nTWO\r\nadded\r\nthree\r\n"
    );
    assert_eq!(read("le.txt"), utf16le("one\r\nTWO\r\nadded\r\nthree\r\n"));
    // Codex's planner ends an updated file with a line ending (its scenario 014).
    assert_eq!(read("be.txt"), utf16be("one\nTWO\nadded\nthree\n"));
    // Untouched lines keep `\r\n` and a lone `\r`; the replaced line takes the ending of the
    // line after it (Codex's scenario 024), and the unterminated last line that of the line
    // before it.
    assert_eq!(read("mixed.txt"), b"one\r\ntwo\rTHREE\r\nfour\r\nlast\r\n");
    let encodings: Vec<Encoding> = outcome.files.iter().map(|f| f.encoding).collect();
    assert_eq!(
        encodings,
        [
            Encoding::Utf8,
            Encoding::Utf8Bom,
            Encoding::Utf16Le,
            Encoding::Utf16Be,
            Encoding::Utf8
        ]
    );
    assert_no_leftovers(dir.path());
}

#[test]
fn the_cline_dialect_keeps_crlf_lines_too() {
    let (dir, ws) = setup(&[("w.txt", b"\xEF\xBB\xBFalpha\r\nbeta\r\ngamma\r\n")]);
    let patch = wrap("*** Update File: w.txt\n@@\n alpha\n-beta\n+BETA\n gamma");
    ws.apply_patch(&patch, &codex().dialect(PatchDialect::Cline))
        .expect("apply");
    assert_eq!(
        std::fs::read(dir.path().join("w.txt")).expect("read"),
        b"\xEF\xBB\xBFalpha\r\nBETA\r\ngamma\r\n"
    );
}

#[test]
fn a_file_in_no_readable_encoding_is_refused_untouched() {
    let (dir, ws) = setup(&[("binary.txt", b"caf\xE9\0\n"), ("ok.txt", b"ok\n")]);
    let old = snapshot(dir.path());
    let patch =
        wrap("*** Update File: ok.txt\n@@\n-ok\n+OK\n*** Update File: binary.txt\n@@\n-x\n+y");
    let err = ws.apply_patch(&patch, &codex()).expect_err("binary");
    assert_eq!(err.code(), "unsupported_encoding");
    assert_eq!(snapshot(dir.path()), old);
}

// ---- net changes ---------------------------------------------------------------------------

#[test]
fn a_file_named_twice_is_committed_once_in_its_final_state() {
    let (dir, ws) = setup(&[("gone.txt", b"x\n")]);
    let patch = wrap(
        "*** Add File: new.txt\n+one\n\
         *** Update File: new.txt\n@@\n-one\n+two\n\
         *** Add File: tmp.txt\n+t\n\
         *** Delete File: tmp.txt\n\
         *** Delete File: gone.txt\n\
         *** Add File: gone.txt\n+back",
    );
    let outcome = ws.apply_patch(&patch, &codex()).expect("apply");
    let snap = snapshot(dir.path());
    assert_eq!(
        snap,
        BTreeMap::from([
            ("gone.txt".into(), b"back\n".to_vec()),
            ("new.txt".into(), b"two\n".to_vec()),
        ])
    );
    let kinds: Vec<(&str, ChangeKind)> = outcome
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("new.txt", ChangeKind::Create),
            ("gone.txt", ChangeKind::Update)
        ]
    );
}

#[test]
fn a_move_over_an_existing_file_replaces_it_in_the_sources_encoding() {
    let (dir, ws) = setup(&[
        ("from.txt", &utf16le("x\r\n")),
        ("to.txt", b"old destination\n"),
    ]);
    let patch = wrap("*** Update File: from.txt\n*** Move to: to.txt\n@@\n-x\n+y");
    let outcome = ws.apply_patch(&patch, &codex()).expect("apply");
    assert_eq!(
        snapshot(dir.path()),
        BTreeMap::from([("to.txt".into(), utf16le("y\r\n"))])
    );
    assert_eq!(outcome.files.len(), 1);
    assert_eq!(outcome.files[0].kind, ChangeKind::Move);
    assert_eq!(outcome.files[0].moved_from.as_deref(), Some("from.txt"));
}

#[cfg(unix)]
#[test]
fn a_moved_file_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, ws) = setup(&[("run.sh", b"echo a\n")]);
    let script = dir.path().join("run.sh");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o750)).expect("chmod");
    let patch = wrap("*** Update File: run.sh\n*** Move to: bin/run.sh\n@@\n-echo a\n+echo b");
    ws.apply_patch(&patch, &codex()).expect("apply");
    let moved = std::fs::metadata(dir.path().join("bin/run.sh")).expect("moved");
    assert_eq!(moved.permissions().mode() & 0o777, 0o750);
    assert!(!script.exists());
}

// ---- unified diffs (git patches) ----------------------------------------------------------

/// A git patch that updates a CRLF file, adds one and deletes one.
const GIT_PATCH: &str = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n a1\r\n-a2\r\n+A2\r\n a3\r\ndiff --git a/d.txt b/d.txt\nnew file mode 100644\n--- /dev/null\n+++ b/d.txt\n@@ -0,0 +1 @@\n+d1\ndiff --git a/c.txt b/c.txt\ndeleted file mode 100644\n--- a/c.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-c1\n-c2\n";

#[test]
fn a_git_patch_commits_every_file_in_both_udiff_dialects() {
    for dialect in [PatchDialect::Udiff, PatchDialect::UdiffStrict] {
        let (dir, ws) = setup(THREE);
        let outcome = ws
            .apply_patch(GIT_PATCH, &PatchOptions::new().dialect(dialect))
            .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        let kinds: Vec<ChangeKind> = outcome.files.iter().map(|f| f.kind).collect();
        assert_eq!(
            kinds,
            [ChangeKind::Update, ChangeKind::Create, ChangeKind::Delete],
            "{dialect}"
        );
        let after = snapshot(dir.path());
        assert_eq!(after["a.txt"], b"a1\r\nA2\r\na3\r\n", "{dialect}");
        assert_eq!(after["d.txt"], b"d1\n", "{dialect}");
        assert!(!after.contains_key("c.txt"), "{dialect}");
        assert_no_leftovers(dir.path());
    }
}

#[test]
fn a_git_patch_that_fails_anywhere_writes_nothing() {
    // The last file's hunk does not match: nothing is written, in either dialect.
    let bad = GIT_PATCH.replace("-c2\n", "-c9\n");
    for dialect in [PatchDialect::Udiff, PatchDialect::UdiffStrict] {
        let (dir, ws) = setup(THREE);
        let before = snapshot(dir.path());
        let err = ws
            .apply_patch(&bad, &PatchOptions::new().dialect(dialect))
            .unwrap_err();
        assert!(
            ["search_not_found", "patch_context_not_found"].contains(&err.code()),
            "{dialect}: {err}"
        );
        assert_eq!(snapshot(dir.path()), before, "{dialect}");
    }
}

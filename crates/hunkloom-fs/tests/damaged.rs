//! Damaged tool calls never reach disk (`hunkloom::ops::damage`, on by default in the file
//! layer): a cut-off write, a view's line numbers, clipping notices, and replayed calls.

mod common;

use common::{setup, snapshot};
use hunkloom::ops::{Convention, Guards, Normalization};
use hunkloom_fs::{Report, Workspace, WorkspaceOptions};

/// A 40-line Python file.
fn module() -> String {
    let mut text = String::from("def main():\n");
    for i in 0..38 {
        text.push_str(&format!("    step_{i}()\n"));
    }
    text.push_str("main()\n");
    text
}

fn normalizations(report: &Report) -> Vec<Normalization> {
    match report {
        Report::Edit(edit) => edit.normalizations.clone(),
        other => panic!("not an edit report: {other:?}"),
    }
}

#[test]
fn a_cut_off_write_over_a_long_file_is_refused_and_overwrite_means_it() {
    let (dir, ws) = setup(&[("app.py", module().as_bytes())]);
    ws.read("app.py").expect("read");
    let before = snapshot(dir.path());
    let cut = "def main():\n    step_0()\n    step_1(";
    let e = ws.write("app.py", cut).expect_err("cut off");
    assert_eq!(e.code(), "suspected_truncation");
    assert!(
        e.message().contains("3 line(s) where the file has 40"),
        "{}",
        e.message()
    );
    assert_eq!(snapshot(dir.path()), before);
    // A shorter file written whole is a rewrite.
    ws.write("app.py", "def main():\n    pass\n")
        .expect("a complete short file");
    ws.write("app.py", &module()).expect("back");
    // The caller that means a cut-looking shorter file says so.
    ws.overwrite("app.py", "x = 1").expect("overwrite");
    assert_eq!(
        std::fs::read(dir.path().join("app.py")).expect("read"),
        b"x = 1"
    );
}

#[test]
fn view_line_numbers_are_removed_when_certain_and_refused_otherwise() {
    let (dir, ws) = setup(&[("app.py", module().as_bytes())]);
    ws.read("app.py").expect("read");
    let outcome = ws
        .str_replace(
            "app.py",
            "    step_3()\n    step_4()\n",
            "     4\t    step_3(fast=True)\n     5\t    step_4()\n",
            false,
        )
        .expect("prefixes removed");
    assert!(normalizations(&outcome.report).contains(&Normalization::ViewPrefixes));
    let text = std::fs::read_to_string(dir.path().join("app.py")).expect("read");
    assert!(
        text.contains("\n    step_3(fast=True)\n    step_4()\n"),
        "{text}"
    );
    // Claude Code's arrow form, in an insert.
    ws.insert("app.py", 1, "     2→    setup()\n", Convention::After)
        .expect("insert");
    let text = std::fs::read_to_string(dir.path().join("app.py")).expect("read");
    assert!(text.starts_with("def main():\n    setup()\n"), "{text}");
    // Numbers that do not run on.
    let before = snapshot(dir.path());
    let e = ws
        .str_replace(
            "app.py",
            "    step_7()\n",
            "     8\t    a()\n    12\t    b()\n",
            false,
        )
        .expect_err("uncertain");
    assert_eq!(e.code(), "line_number_prefixes");
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn clipping_notices_are_refused_unless_the_text_already_has_them() {
    let (dir, ws) = setup(&[
        ("app.py", module().as_bytes()),
        (
            "notes.md",
            b"A view shows <response clipped> when it cuts.\n",
        ),
    ]);
    ws.read("app.py").expect("read");
    let before = snapshot(dir.path());
    let e = ws
        .str_replace(
            "app.py",
            "    step_5()\n",
            "    step_5()\n[... 30 lines truncated ...]\n",
            false,
        )
        .expect_err("notice");
    assert_eq!(e.code(), "truncation_notice");
    let mut clipped = module();
    clipped.push_str("<response clipped><NOTE>To save on context only part of this file has been shown to you.</NOTE>\n");
    assert_eq!(
        ws.write("app.py", &clipped).expect_err("notice").code(),
        "truncation_notice"
    );
    assert_eq!(
        ws.insert("app.py", 2, "(file truncated)\n", Convention::After)
            .expect_err("notice")
            .code(),
        "truncation_notice"
    );
    assert_eq!(snapshot(dir.path()), before);
    // A file about such notices keeps them.
    ws.read("notes.md").expect("read");
    ws.write(
        "notes.md",
        "A view shows <response clipped> when it cuts; see below.\n",
    )
    .expect("the notice was there");
}

#[test]
fn a_replayed_edit_is_already_applied_and_changes_nothing() {
    let (dir, ws) = setup(&[("app.py", module().as_bytes())]);
    ws.read("app.py").expect("read");
    ws.str_replace("app.py", "    step_9()\n", "    step_9(retries=3)\n", false)
        .expect("first");
    let after_first = snapshot(dir.path());
    let again = ws
        .str_replace("app.py", "    step_9()\n", "    step_9(retries=3)\n", false)
        .expect("replay");
    assert!(!again.changed);
    assert_eq!(
        normalizations(&again.report),
        vec![Normalization::AlreadyApplied]
    );
    match &again.report {
        Report::Edit(edit) => assert_eq!(edit.replacements, 0),
        other => panic!("{other:?}"),
    }
    assert_eq!(snapshot(dir.path()), after_first);
    // An insert replayed at the same line.
    ws.insert("app.py", 3, "    log()\n", Convention::After)
        .expect("first");
    let after_insert = snapshot(dir.path());
    let again = ws
        .insert("app.py", 3, "    log()\n", Convention::After)
        .expect("replay");
    assert!(!again.changed);
    assert_eq!(
        normalizations(&again.report),
        vec![Normalization::AlreadyApplied]
    );
    assert_eq!(snapshot(dir.path()), after_insert);
    // A text that is not there is still not found.
    assert_eq!(
        ws.str_replace(
            "app.py",
            "    nowhere()\n",
            "    step_9(retries=3)\n    x()\n",
            false
        )
        .expect_err("not found")
        .code(),
        "not_found"
    );
}

#[test]
fn the_rules_are_off_with_the_guard() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.py"), module()).expect("write");
    let ws = Workspace::open(
        dir.path(),
        WorkspaceOptions::new().guards(Guards::NATIVE.damaged_calls(false)),
    )
    .expect("open");
    ws.read("app.py").expect("read");
    ws.write("app.py", "def main():\n    step_0(")
        .expect("as given");
    ws.write("app.py", &module()).expect("back");
    ws.insert("app.py", 1, "     2\tx\n", Convention::After)
        .expect("as given");
    assert!(
        std::fs::read_to_string(dir.path().join("app.py"))
            .expect("read")
            .contains("     2\tx\n")
    );
}

#[test]
fn a_replayed_patch_is_already_applied_and_changes_nothing() {
    use hunkloom::patch::PatchOptions;
    let (dir, ws) = setup(&[("app.py", module().as_bytes())]);
    let patch = "*** Begin Patch\n*** Update File: app.py\n@@\n     step_4()\n-    step_5()\n+    step_5(retries=2)\n*** Add File: notes.md\n+retries added\n*** End Patch\n";
    let first = ws.apply_patch(patch, &PatchOptions::new()).expect("first");
    assert!(first.files.iter().all(|f| f.changed));
    let after = snapshot(dir.path());
    let again = ws.apply_patch(patch, &PatchOptions::new()).expect("replay");
    assert_eq!(again.files.len(), 2);
    assert!(again.files.iter().all(|f| !f.changed));
    assert_eq!(snapshot(dir.path()), after);
    // Half applied is not a replay: refused as before.
    let half = "*** Begin Patch\n*** Update File: app.py\n@@\n-    step_5()\n+    step_5(retries=2)\n@@\n-    nowhere()\n+    step_8(x)\n*** End Patch\n";
    assert_eq!(
        ws.apply_patch(half, &PatchOptions::new())
            .expect_err("not a replay")
            .code(),
        "patch_context_not_found"
    );
    assert_eq!(snapshot(dir.path()), after);
}

//! The `udiff` and `udiff-strict` dialects through the public entry points: placement by text,
//! refusals and their candidates, the final-newline rule, streaming by hunk, the policies and
//! multi-file plans.

use std::collections::BTreeMap;

use crate::patch::{ChangeKind, PatchDialect, PatchOptions, plan_patch};
use crate::{
    ApplierOptions, ApplyOptions, BlockStatus, Dialect, ErrorKind, Policy, StreamingApplier,
    apply_diff,
};

fn udiff(diff: &str, original: &str) -> crate::Result<crate::Outcome> {
    apply_diff(diff, original, &ApplyOptions::new().dialect(Dialect::Udiff))
}

const FILE: &str = "def a():\n    return 1\n\ndef b():\n    return 2\n";

#[test]
fn line_numbers_are_hints_and_counts_may_be_wrong() {
    let diff =
        "--- a/x.py\n+++ b/x.py\n@@ -40,9 +40,2 @@\n def b():\n-    return 2\n+    return 3\n";
    let outcome = udiff(diff, FILE).unwrap();
    assert_eq!(outcome.new_content, FILE.replace("return 2", "return 3"));
    assert_eq!(outcome.blocks[0].start.line, 4);
    assert_eq!(outcome.blocks[0].strategy.as_str(), "exact");
    // git refuses the wrong counts.
    let strict = apply_diff(
        diff,
        FILE,
        &ApplyOptions::new().dialect(Dialect::UdiffStrict),
    );
    assert_eq!(
        strict.unwrap_err().message(),
        "error: corrupt patch at line 7"
    );
}

#[test]
fn context_keeps_the_files_text_and_line_endings() {
    let crlf = FILE.replace('\n', "\r\n");
    // LF diff, context with drifted indentation and trailing spaces.
    let diff = "@@ -4,2 +4,2 @@\n  def b():  \n-    return 2\n+    return [2]\n";
    let outcome = udiff(diff, &crlf).unwrap();
    assert_eq!(outcome.new_content, crlf.replace("return 2", "return [2]"));
    assert!(!outcome.blocks[0].normalizations.is_empty());
}

#[test]
fn ambiguous_hunks_are_refused_with_every_candidate() {
    let twice = "x = 1\ny = 2\nx = 1\ny = 2\n";
    let err = udiff("@@ -3,2 +3,2 @@\n x = 1\n-y = 2\n+y = 3\n", twice).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AmbiguousMatch);
    let lines: Vec<usize> = err.matches().unwrap().iter().map(|m| m.line()).collect();
    assert_eq!(lines, [1, 3], "the header's line 3 does not choose");
}

#[test]
fn not_found_names_the_closest_lines() {
    let err = udiff(
        "@@ -1,2 +1,2 @@\n def a():\n-    return 9\n+    return 0\n",
        FILE,
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SearchNotFound);
    assert!(
        err.message()
            .starts_with("hunk 1 (diff line 1): its context and removed lines were not found"),
        "{}",
        err.message()
    );
    assert!(
        err.message().contains("Closest: lines 1-2"),
        "{}",
        err.message()
    );
}

#[test]
fn already_applied_hunks_change_nothing_and_maybe_applied_ones_are_refused() {
    let diff = "@@ -4,2 +4,2 @@\n def b():\n-    return 0\n+    return 2\n";
    let outcome = udiff(diff, FILE).unwrap();
    assert_eq!(outcome.new_content, FILE);
    assert_eq!(outcome.blocks[0].status, BlockStatus::AlreadyApplied);
    // The old text and the new text are both there: refused.
    let both = "a\nb\nc\n\na\nX\nb\nc\n";
    let err = udiff("@@ -1,3 +1,4 @@\n a\n+X\n b\n c\n", both).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AmbiguousMatch);
    assert!(
        err.message().contains("applied already"),
        "{}",
        err.message()
    );
    // A hunk that truncates the file and adds back a line it removed: its new side is at the
    // same start but its removed lines are still there, so it applies.
    let truncate = "@@ -1,3 +1,2 @@\n a\n-b\n-c\n+b\n";
    assert_eq!(udiff(truncate, "a\nb\nc\n").unwrap().new_content, "a\nb\n");
    // An insertion already made in place is refused.
    let insert = "@@ -1,1 +1,2 @@\n a\n+x\n";
    assert_eq!(
        udiff(insert, "a\nx\ny\n").unwrap_err().kind(),
        ErrorKind::AmbiguousMatch
    );
}

#[test]
fn the_final_newline_changes_only_when_the_hunk_says_so() {
    let no_nl = "a\nb";
    // No marker: the file keeps its missing newline.
    assert_eq!(
        udiff("@@ -1,2 +1,2 @@\n a\n-b\n+c\n", no_nl)
            .unwrap()
            .new_content,
        "a\nc"
    );
    // Marker on the old side only: the newline is added.
    let add = "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n";
    assert_eq!(udiff(add, no_nl).unwrap().new_content, "a\nb\n");
    // Marker on the new side only, same text: the newline goes.
    let remove = "@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n";
    assert_eq!(udiff(remove, "a\nb\n").unwrap().new_content, "a\nb");
    // ... with a changed line too: refused, it is as often a mistake.
    let unclear = "@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n";
    assert_eq!(
        udiff(unclear, "a\nb\n").unwrap_err().kind(),
        ErrorKind::InvalidPatchHunk
    );
    // A marker in the middle of a file says nothing.
    let middle = "@@ -1,2 +1,2 @@\n-a\n+z\n b\n\\ No newline at end of file\n";
    assert_eq!(udiff(middle, "a\nb\nc\n").unwrap().new_content, "z\nb\nc\n");
}

#[test]
fn a_hunk_without_anchor_is_refused_except_in_an_empty_file() {
    let add = "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n";
    assert_eq!(udiff(add, "").unwrap().new_content, "one\ntwo\n");
    assert_eq!(
        udiff(add, "x\n").unwrap_err().kind(),
        ErrorKind::SearchNotFound
    );
}

#[test]
fn all_or_nothing_by_default_partial_on_request() {
    let diff = "@@ -1,2 +1,2 @@\n def a():\n-    return 1\n+    return 10\n@@ -4,2 +4,2 @@\n def b():\n-    return 9\n+    return 90\n";
    let err = udiff(diff, FILE).unwrap_err();
    assert!(
        err.message()
            .contains("No hunk was applied (all or nothing)"),
        "{}",
        err.message()
    );
    let options = ApplyOptions::new()
        .dialect(Dialect::Udiff)
        .policy(Policy::Partial);
    let outcome = apply_diff(diff, FILE, &options).unwrap();
    assert_eq!(outcome.new_content, FILE.replace("return 1", "return 10"));
    assert_eq!(outcome.failed().count(), 1);
    assert_eq!(outcome.blocks[1].status, BlockStatus::Failed);
}

#[test]
fn overlapping_hunks_and_several_files_are_refused() {
    let diff = "@@ -1,2 +1,2 @@\n def a():\n-    return 1\n+    return 10\n@@ -1,2 +1,2 @@\n-def a():\n+def A():\n     return 1\n";
    assert_eq!(
        udiff(diff, FILE).unwrap_err().kind(),
        ErrorKind::OverlappingBlocks
    );
    let two = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-def a():\n+def A():\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-q\n+r\n";
    let err = udiff(two, FILE).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidPatch);
    assert!(
        err.message().contains("2 files (x, y)"),
        "{}",
        err.message()
    );
}

#[test]
fn a_uniformly_shifted_hunk_shifts_its_added_lines() {
    let original = "class A:\n    def f(self):\n        return 1\n";
    let diff = "@@ -2,2 +2,3 @@\n def f(self):\n-    return 1\n+    x = 1\n+    return x\n";
    let outcome = udiff(diff, original).unwrap();
    assert_eq!(
        outcome.new_content,
        "class A:\n    def f(self):\n        x = 1\n        return x\n"
    );
    assert!(outcome.blocks[0].reindented);
}

#[test]
fn hunks_stream_as_they_complete_in_every_chunking() {
    let diff = "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n def a():\n-    return 1\n+    return 10\n@@ -4,2 +4,2 @@\n def b():\n-    return 2\n+    return 20\n";
    let want = udiff(diff, FILE).unwrap();
    for step in [1, 3, 7, diff.len()] {
        let mut applier =
            StreamingApplier::new(FILE, ApplierOptions::new().dialect(Dialect::Udiff));
        let mut view = FILE.to_owned();
        let mut shown_first = None;
        let bytes = diff.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let end = (at + step).min(bytes.len());
            let update = applier.push(&diff[at..end]);
            update.apply_to(&mut view);
            assert_eq!(view, applier.preview());
            if shown_first.is_none() && view.contains("return 10") {
                shown_first = Some(end);
            }
            at = end;
        }
        // The first hunk shows once the second hunk's header arrives, before the diff ends.
        if step < diff.len() {
            assert!(shown_first.is_some_and(|at| at < diff.len()), "step {step}");
        }
        let outcome = applier.finish().unwrap();
        assert_eq!(outcome, want, "step {step}");
    }
}

#[test]
fn strict_previews_the_original_and_applies_at_finish() {
    let diff = "--- a/x.py\n+++ b/x.py\n@@ -4,2 +4,2 @@\n def b():\n-    return 2\n+    return 3\n";
    let mut applier =
        StreamingApplier::new(FILE, ApplierOptions::new().dialect(Dialect::UdiffStrict));
    assert!(applier.push(diff).is_noop());
    assert_eq!(applier.preview(), FILE);
    let outcome = applier.finish().unwrap();
    assert_eq!(outcome.new_content, FILE.replace("return 2", "return 3"));
    assert_eq!(outcome.blocks[0].start.line, 4);
    assert_eq!(outcome.blocks[0].end_line, 5);
}

#[test]
fn recount_counts_the_body() {
    let diff = "--- a/x.py\n+++ b/x.py\n@@ -4,9 +4,9 @@\n def b():\n-    return 2\n+    return 3\n";
    let strict = ApplyOptions::new().dialect(Dialect::UdiffStrict);
    assert_eq!(
        apply_diff(diff, FILE, &strict).unwrap_err().code(),
        "invalid_patch"
    );
    let outcome = apply_diff(diff, FILE, &strict.recount(true)).unwrap();
    assert_eq!(outcome.new_content, FILE.replace("return 2", "return 3"));
}

fn files(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
    entries
        .iter()
        .map(|(p, c)| (p.to_string(), c.to_string()))
        .collect()
}

const PATCH: &str = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\ndiff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+fresh\ndiff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n";

#[test]
fn multi_file_patches_plan_adds_updates_and_deletes_in_both_dialects() {
    let before = files(&[("a.txt", "one\ntwo\n"), ("old.txt", "bye\n")]);
    for dialect in [PatchDialect::Udiff, PatchDialect::UdiffStrict] {
        let plan = plan_patch(PATCH, &before, &PatchOptions::new().dialect(dialect)).unwrap();
        let kinds: Vec<&str> = plan.changes.iter().map(|c| c.kind.as_str()).collect();
        assert_eq!(kinds, ["update", "add", "delete"], "{dialect}");
        let mut after = before.clone();
        plan.apply_to(&mut after);
        assert_eq!(
            after,
            files(&[("a.txt", "one\nTWO\n"), ("new.txt", "fresh\n")]),
            "{dialect}"
        );
    }
}

#[test]
fn multi_file_patches_are_all_or_nothing() {
    let before = files(&[("a.txt", "one\nthree\n"), ("old.txt", "bye\n")]);
    let err = plan_patch(
        PATCH,
        &before,
        &PatchOptions::new().dialect(PatchDialect::Udiff),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SearchNotFound);
    assert!(
        err.message().starts_with("a.txt: hunk 1"),
        "{}",
        err.message()
    );
    let strict = PatchOptions::new().dialect(PatchDialect::UdiffStrict);
    let err = plan_patch(PATCH, &before, &strict).unwrap_err();
    assert_eq!(
        err.message(),
        "error: patch failed: a.txt:1\nerror: a.txt: patch does not apply"
    );
    // A rename moves the file.
    let rename = "diff --git a/a.txt b/b.txt\nsimilarity index 90%\nrename from a.txt\nrename to b.txt\n--- a/a.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n one\n-three\n+3\n";
    for dialect in [PatchDialect::Udiff, PatchDialect::UdiffStrict] {
        let plan = plan_patch(rename, &before, &PatchOptions::new().dialect(dialect)).unwrap();
        match &plan.changes[0].kind {
            ChangeKind::Update {
                new_content,
                move_to,
                ..
            } => {
                assert_eq!(new_content, "one\n3\n");
                assert_eq!(move_to.as_deref(), Some("b.txt"));
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn dialect_names_round_trip() {
    for d in [Dialect::Udiff, Dialect::UdiffStrict] {
        assert_eq!(d.as_str().parse::<Dialect>(), Ok(d));
    }
    for d in [PatchDialect::Udiff, PatchDialect::UdiffStrict] {
        assert_eq!(d.as_str().parse::<PatchDialect>(), Ok(d));
    }
}

//! Staleness by region: an edit of a file that changed on disk since it was read is merged
//! around the external changes when they do not touch the lines it changes, and refused as
//! `stale_file`, naming the lines, when they do.

mod common;

use common::{assert_no_leftovers, setup, snapshot};
use hunkloom::ApplyOptions;
use hunkloom::ops::Convention;
use hunkloom::patch::PatchOptions;
use hunkloom_fs::{EditOutcome, ExternalChange, Workspace, WorkspaceOptions};

/// Ten numbered lines, `\n` endings.
fn ten() -> String {
    (1..=10).map(|i| format!("line {i}\n")).collect()
}

/// `ten()` with line `n` (1-based) replaced by `with`.
fn ten_with(changes: &[(usize, &str)]) -> String {
    (1..=10)
        .map(|i| match changes.iter().find(|(n, _)| *n == i) {
            Some((_, with)) => format!("{with}\n"),
            None => format!("line {i}\n"),
        })
        .collect()
}

/// The regions as `(start, count, read_start, read_count)`.
fn regions(changes: &[ExternalChange]) -> Vec<(usize, usize, usize, usize)> {
    changes
        .iter()
        .map(|c| (c.start, c.count, c.read_start, c.read_count))
        .collect()
}

fn merged(outcome: &EditOutcome) -> Vec<(usize, usize, usize, usize)> {
    regions(&outcome.external_changes)
}

/// A workspace on a root holding `a.txt` = `content`, already read.
fn read_file(content: &[u8]) -> (tempfile::TempDir, Workspace) {
    let (dir, ws) = setup(&[("a.txt", content)]);
    ws.read("a.txt").expect("read");
    (dir, ws)
}

fn disk(dir: &tempfile::TempDir) -> Vec<u8> {
    std::fs::read(dir.path().join("a.txt")).expect("read")
}

fn change_on_disk(dir: &tempfile::TempDir, content: impl AsRef<[u8]>) {
    std::fs::write(dir.path().join("a.txt"), content).expect("write");
}

// ---- merged -------------------------------------------------------------------------------

#[test]
fn str_replace_merges_around_a_change_above() {
    let (dir, ws) = read_file(ten().as_bytes());
    change_on_disk(&dir, ten_with(&[(2, "two, by a formatter")]));
    let outcome = ws
        .str_replace("a.txt", "line 7", "LINE SEVEN", false)
        .expect("merged");
    assert_eq!(
        disk(&dir),
        ten_with(&[(2, "two, by a formatter"), (7, "LINE SEVEN")]).into_bytes()
    );
    assert_eq!(merged(&outcome), vec![(2, 1, 2, 1)]);
    assert_eq!(
        outcome.new_content.as_deref(),
        Some(ten_with(&[(2, "two, by a formatter"), (7, "LINE SEVEN")]).as_str())
    );
}

#[test]
fn insert_merges_around_a_change_below_and_lines_added_elsewhere() {
    let (dir, ws) = read_file(ten().as_bytes());
    // Below: line 9 changed and two lines appended.
    let theirs = ten_with(&[(9, "nine!")]) + "eleven\ntwelve\n";
    change_on_disk(&dir, &theirs);
    let outcome = ws
        .insert("a.txt", 3, "after three\n", Convention::After)
        .expect("merged");
    let want = ten_with(&[(3, "line 3\nafter three"), (9, "nine!")]) + "eleven\ntwelve\n";
    assert_eq!(String::from_utf8(disk(&dir)).expect("utf-8"), want);
    // Line 9 of the read text is line 10 now (the insert added one above it); the two lines
    // appended after line 10 (read) are lines 12-13, an insertion (nothing replaced).
    assert_eq!(merged(&outcome), vec![(10, 1, 9, 1), (12, 2, 11, 0)]);
}

#[test]
fn a_diff_merges_around_a_change_between_its_blocks() {
    let (dir, ws) = read_file(ten().as_bytes());
    change_on_disk(&dir, ten_with(&[(5, "five"), (6, "six")]));
    let diff = "<<<<<<< SEARCH\nline 2\n=======\nLINE 2\n>>>>>>> REPLACE\n\
                <<<<<<< SEARCH\nline 9\n=======\nLINE 9\n>>>>>>> REPLACE\n";
    let outcome = ws
        .apply_diff("a.txt", diff, &ApplyOptions::default())
        .expect("merged");
    assert_eq!(
        disk(&dir),
        ten_with(&[(2, "LINE 2"), (5, "five"), (6, "six"), (9, "LINE 9")]).into_bytes()
    );
    assert_eq!(merged(&outcome), vec![(5, 2, 5, 2)]);
}

#[test]
fn lines_removed_and_added_above_shift_the_edit() {
    let (dir, ws) = read_file(ten().as_bytes());
    // Line 1 removed, two header lines added before line 3.
    let theirs: String = ten()
        .lines()
        .skip(1)
        .take(1)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + "header a\nheader b\n"
        + &ten()
            .lines()
            .skip(2)
            .map(|l| format!("{l}\n"))
            .collect::<String>();
    change_on_disk(&dir, &theirs);
    let outcome = ws
        .str_replace("a.txt", "line 8", "line eight", false)
        .expect("merged");
    assert_eq!(
        String::from_utf8(disk(&dir)).expect("utf-8"),
        theirs.replace("line 8", "line eight")
    );
    assert_eq!(merged(&outcome), vec![(1, 0, 1, 1), (2, 2, 3, 0)]);
    // The merged content counts as read: the next edit applies directly.
    let next = ws
        .str_replace("a.txt", "header a", "header A", false)
        .expect("fresh");
    assert!(next.external_changes.is_empty());
}

#[test]
fn an_unchanged_file_reports_no_external_changes() {
    let (_dir, ws) = read_file(ten().as_bytes());
    let outcome = ws
        .str_replace("a.txt", "line 7", "x", false)
        .expect("fresh");
    assert!(outcome.external_changes.is_empty());
}

// ---- refused ------------------------------------------------------------------------------

/// Asserts a `stale_file` refusal that names `lines`, with nothing written.
fn assert_refused(
    dir: &tempfile::TempDir,
    result: hunkloom_fs::Result<EditOutcome>,
    names: &[&str],
) {
    let before = snapshot(dir.path());
    let err = result.expect_err("refused");
    assert_eq!(err.code(), "stale_file", "{}", err.message());
    for name in names {
        assert!(
            err.message().contains(name),
            "{name:?} in {}",
            err.message()
        );
    }
    assert_eq!(snapshot(dir.path()), before);
    assert_no_leftovers(dir.path());
}

#[test]
fn an_overlapping_change_is_refused_naming_the_lines() {
    let (dir, ws) = read_file(ten().as_bytes());
    change_on_disk(&dir, ten_with(&[(4, "four"), (5, "five")]));
    let result = ws.str_replace("a.txt", "line 5\nline 6", "five-six", false);
    assert_refused(&dir, result, &["changed on disk: lines 4-5", "lines 5-6"]);
}

#[test]
fn an_adjacent_change_is_refused() {
    let (dir, ws) = read_file(ten().as_bytes());
    change_on_disk(&dir, ten_with(&[(6, "six")]));
    let result = ws.str_replace("a.txt", "line 5", "five", false);
    assert_refused(
        &dir,
        result,
        &["changed on disk: line 6", "changes: line 5"],
    );
    // An insert next to a changed line is refused too.
    let result = ws.insert("a.txt", 6, "x\n", Convention::After);
    assert_refused(&dir, result, &["line 6"]);
    // And a diff block, and a change two lines away is fine.
    let diff = "<<<<<<< SEARCH\nline 7\n=======\nseven\n>>>>>>> REPLACE\n";
    let result = ws.apply_diff("a.txt", diff, &ApplyOptions::default());
    assert_refused(&dir, result, &["line 6", "line 7"]);
    ws.str_replace("a.txt", "line 8", "eight", false)
        .expect("two lines away merges");
}

#[test]
fn a_whole_file_change_is_refused() {
    let (dir, ws) = read_file(ten().as_bytes());
    // A formatter rewrote every line (here: CRLF endings).
    change_on_disk(&dir, ten().replace('\n', "\r\n"));
    let result = ws.str_replace("a.txt", "line 7", "seven", false);
    assert_refused(&dir, result, &["lines 1-10"]);
}

#[test]
fn an_edit_that_does_not_apply_to_what_was_read_is_stale() {
    let (dir, ws) = read_file(ten().as_bytes());
    change_on_disk(&dir, ten_with(&[(2, "two")]));
    // "two" is on disk but was never read: the model must read again.
    let result = ws.str_replace("a.txt", "two", "2", false);
    assert_refused(&dir, result, &["Read it again"]);
}

#[test]
fn writes_and_deletes_of_a_changed_file_are_still_refused() {
    let (dir, ws) = read_file(ten().as_bytes());
    change_on_disk(&dir, ten_with(&[(2, "two")]));
    let result = ws.write("a.txt", &ten_with(&[(9, "nine")]));
    assert_refused(&dir, result, &[]);
    assert_eq!(
        ws.plan_delete("a.txt").expect_err("stale").code(),
        "stale_file"
    );
}

// ---- encodings and line endings -----------------------------------------------------------

#[test]
fn a_crlf_file_keeps_its_endings_through_a_merge() {
    let crlf = ten().replace('\n', "\r\n");
    let (dir, ws) = read_file(crlf.as_bytes());
    change_on_disk(&dir, crlf.replace("line 2\r\n", "line two\r\n"));
    // The model's text has LF endings.
    let outcome = ws
        .str_replace("a.txt", "line 7\nline 8", "line 7\nline 7b\nline 8", false)
        .expect("merged");
    assert_eq!(
        String::from_utf8(disk(&dir)).expect("utf-8"),
        crlf.replace("line 2\r\n", "line two\r\n")
            .replace("line 8\r\n", "line 7b\r\nline 8\r\n")
    );
    assert_eq!(merged(&outcome), vec![(2, 1, 2, 1)]);
}

fn utf16le(text: &str) -> Vec<u8> {
    let mut out = vec![0xFF, 0xFE];
    out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

#[test]
fn a_utf16_file_is_merged_on_its_decoded_text() {
    let text = ten().replace("line 1\n", "línea 1 ✓\n");
    let (dir, ws) = read_file(&utf16le(&text));
    let theirs = text.replace("line 9", "línea nueve");
    change_on_disk(&dir, utf16le(&theirs));
    let outcome = ws
        .str_replace("a.txt", "line 4", "línea cuatro", false)
        .expect("merged");
    assert_eq!(
        disk(&dir),
        utf16le(&theirs.replace("line 4", "línea cuatro"))
    );
    assert_eq!(outcome.encoding, hunkloom_fs::Encoding::Utf16Le);
    assert_eq!(merged(&outcome), vec![(9, 1, 9, 1)]);
}

#[test]
fn a_bom_file_is_merged_and_keeps_its_bom() {
    let bom = |s: &str| [b"\xEF\xBB\xBF".as_slice(), s.as_bytes()].concat();
    let (dir, ws) = read_file(&bom(&ten()));
    change_on_disk(&dir, bom(&ten_with(&[(10, "ten")])));
    ws.str_replace("a.txt", "line 1\n", "", false)
        .expect("merged");
    let want = ten_with(&[(10, "ten")]).replacen("line 1\n", "", 1);
    assert_eq!(disk(&dir), bom(&want));
}

// ---- the kept-read limit ------------------------------------------------------------------

#[test]
fn a_file_larger_than_the_kept_read_limit_falls_back_to_refusal() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.txt"), ten()).expect("write");
    let options = WorkspaceOptions::new().max_kept_read(ten().len() as u64 - 1);
    let ws = Workspace::open(dir.path(), options).expect("open");
    ws.read("a.txt").expect("read");
    std::fs::write(dir.path().join("a.txt"), ten_with(&[(1, "one")])).expect("write");
    let before = snapshot(dir.path());
    let err = ws
        .str_replace("a.txt", "line 9", "nine", false)
        .expect_err("hash only");
    assert_eq!(err.code(), "stale_file");
    assert!(
        !err.message().contains("changed on disk"),
        "{}",
        err.message()
    );
    assert_eq!(snapshot(dir.path()), before);
    // At the limit exactly, the text is kept and the edit merges.
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.txt"), ten()).expect("write");
    let options = WorkspaceOptions::new().max_kept_read(ten().len() as u64);
    let ws = Workspace::open(dir.path(), options).expect("open");
    ws.read("a.txt").expect("read");
    std::fs::write(dir.path().join("a.txt"), ten_with(&[(1, "one")])).expect("write");
    ws.str_replace("a.txt", "line 9", "nine", false)
        .expect("kept: merged");
    // 0 keeps nothing.
    assert_eq!(WorkspaceOptions::new().max_kept_read(0).max_kept_read, 0);
}

// ---- patches, per file --------------------------------------------------------------------

#[test]
fn a_patch_merges_each_changed_file_and_refuses_a_touching_change() {
    let (dir, ws) = setup(&[("a.txt", ten().as_bytes()), ("b.txt", ten().as_bytes())]);
    ws.read("a.txt").expect("read");
    ws.read("b.txt").expect("read");
    std::fs::write(dir.path().join("a.txt"), ten_with(&[(9, "nine")])).expect("write");
    let patch = "*** Begin Patch\n\
                 *** Update File: a.txt\n\
                 @@\n line 2\n-line 3\n+LINE 3\n line 4\n\
                 *** Update File: b.txt\n\
                 @@\n line 2\n-line 3\n+LINE 3\n line 4\n\
                 *** End Patch\n";
    let outcome = ws.apply_patch(patch, &PatchOptions::new()).expect("merged");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).expect("read"),
        ten_with(&[(3, "LINE 3"), (9, "nine")])
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b.txt")).expect("read"),
        ten_with(&[(3, "LINE 3")])
    );
    assert_eq!(
        regions(&outcome.files[0].external_changes),
        vec![(9, 1, 9, 1)]
    );
    assert!(outcome.files[1].external_changes.is_empty());

    // Now a change next to the next hunk of b.txt: the whole patch is refused.
    std::fs::write(
        dir.path().join("b.txt"),
        ten_with(&[(3, "LINE 3"), (6, "six")]),
    )
    .expect("write");
    let before = snapshot(dir.path());
    let patch = "*** Begin Patch\n\
                 *** Update File: a.txt\n\
                 @@\n-line 1\n+LINE 1\n\
                 *** Update File: b.txt\n\
                 @@\n-line 7\n+LINE 7\n\
                 *** End Patch\n";
    let err = ws
        .apply_patch(patch, &PatchOptions::new())
        .expect_err("touching");
    assert_eq!(err.code(), "stale_file");
    assert!(err.message().contains("line 6"), "{}", err.message());
    assert_eq!(snapshot(dir.path()), before);
    assert_no_leftovers(dir.path());
}

#[test]
fn a_patch_deleting_a_changed_file_is_refused() {
    let (dir, ws) = read_file(ten().as_bytes());
    change_on_disk(&dir, ten_with(&[(9, "nine")]));
    let patch = "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n";
    let err = ws
        .apply_patch(patch, &PatchOptions::new())
        .expect_err("stale");
    assert_eq!(err.code(), "stale_file");
    assert!(dir.path().join("a.txt").exists());
}

#[test]
fn a_patch_that_does_not_apply_to_what_was_read_is_stale() {
    let (dir, ws) = read_file(ten().as_bytes());
    change_on_disk(&dir, ten_with(&[(2, "two")]));
    let before = snapshot(dir.path());
    // "two" is only on disk: the model never read it.
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch\n";
    let err = ws
        .apply_patch(patch, &PatchOptions::new())
        .expect_err("stale");
    assert_eq!(err.code(), "stale_file", "{}", err.message());
    assert_eq!(snapshot(dir.path()), before);
}

//! Lazy edits through the file layer: `Workspace::apply_lazy` (`Op::Lazy`) and whole-file
//! writes whose markers are merged instead of written. All or nothing: a refusal leaves the
//! disk as it was.

mod common;

use common::{assert_no_leftovers, setup, snapshot};
use hunkloom::lazy::Language;
use hunkloom_fs::{Op, Report, Workspace, WorkspaceOptions};

const FILE: &str = "def a():\r\n    one()\r\n\r\ndef b():\r\n    two()\r\n    three()\r\n";
const SNIPPET: &str =
    "# ... existing code ...\ndef b():\n    two()\n    two_and_a_half()\n    three()\n";

#[test]
fn a_lazy_edit_keeps_the_file_s_line_endings_and_encoding() {
    let mut bytes = vec![0xEF, 0xBB, 0xBF];
    bytes.extend_from_slice(FILE.as_bytes());
    let (dir, ws) = setup(&[("m.py", &bytes)]);
    ws.read("m.py").expect("read");
    let outcome = ws.apply_lazy("m.py", SNIPPET, None).expect("merged");
    assert_eq!(outcome.report, Report::Lazy);
    let mut want = vec![0xEF, 0xBB, 0xBF];
    want.extend_from_slice(
        FILE.replace("two()\r\n", "two()\r\n    two_and_a_half()\r\n")
            .as_bytes(),
    );
    assert_eq!(std::fs::read(dir.path().join("m.py")).expect("read"), want);
    assert_no_leftovers(dir.path());
    // The edit can be taken back.
    ws.undo("m.py").expect("undo");
    assert_eq!(std::fs::read(dir.path().join("m.py")).expect("read"), bytes);
}

#[test]
fn a_refused_lazy_edit_writes_nothing() {
    let (dir, ws) = setup(&[("m.py", FILE.as_bytes()), ("m.txt", FILE.as_bytes())]);
    let before = snapshot(dir.path());
    let err = ws.apply_lazy("m.py", SNIPPET, None).unwrap_err();
    assert_eq!(err.code(), "not_read");
    ws.read("m.py").expect("read");
    let floating = "# ...\ndef c():\n    four()\n# ...\n";
    let err = ws.apply_lazy("m.py", floating, None).unwrap_err();
    assert_eq!(err.code(), "lazy_no_anchor", "{}", err.message());
    let err = ws.apply_lazy("gone.py", SNIPPET, None).unwrap_err();
    assert_eq!(err.code(), "file_not_found");
    assert_eq!(snapshot(dir.path()), before);
    // The language given wins over the extension: in Rust `#` is no comment, so the snippet
    // is the whole file.
    ws.read("m.txt").expect("read");
    let outcome = ws
        .apply_lazy("m.txt", SNIPPET, Some(Language::Rust))
        .expect("whole file");
    assert_eq!(
        outcome.new_content.as_deref(),
        Some(SNIPPET.replace('\n', "\r\n").as_str())
    );
}

#[test]
fn a_whole_file_write_with_markers_is_merged_when_certain() {
    const FILE: &str = "import os\r\n\r\ndef a():\r\n    one()\r\n    one_more()\r\n\r\ndef b():\r\n    two()\r\n    three()\r\n";
    let (dir, ws) = setup(&[("m.py", FILE.as_bytes())]);
    ws.read("m.py").expect("read");
    let lazy = "# ... existing code ...\ndef b():\n    two()\n    three()\n    four()\n";
    let outcome = ws.write("m.py", lazy).expect("merged");
    assert_eq!(outcome.report, Report::Lazy);
    let want = format!("{FILE}    four()\r\n");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("m.py")).expect("read"),
        want
    );
    // Not certain (the last segment's lines are nowhere): refused, nothing written.
    let before = snapshot(dir.path());
    let err = ws
        .edit(
            "m.py",
            &Op::Write {
                content: "def a():\n    # ... existing code ...\n    five()\n".into(),
            },
        )
        .unwrap_err();
    assert_eq!(err.code(), "omission_placeholder");
    assert!(
        err.message().contains("(lazy_no_anchor)"),
        "{}",
        err.message()
    );
    assert_eq!(snapshot(dir.path()), before);
    // With the merge off, the guard refuses as it always did.
    let off = hunkloom::ops::Guards::NATIVE.lazy_merge(false);
    let plain = Workspace::open(dir.path(), WorkspaceOptions::new().guards(off)).expect("open");
    plain.read("m.py").expect("read");
    let err = plain.write("m.py", lazy).unwrap_err();
    assert_eq!(err.code(), "omission_placeholder");
    assert_eq!(snapshot(dir.path()), before);
}

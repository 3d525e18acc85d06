//! Byte-exact round trips through a one-line edit, in every supported encoding and line-ending
//! style, and line-ending preservation as a property.

mod common;

use common::setup;
use hunkloom::ops::Convention;
use hunkloom::{ApplyOptions, Dialect};
use proptest::prelude::*;

fn utf16le(s: &str) -> Vec<u8> {
    let mut out = vec![0xFF, 0xFE];
    s.encode_utf16().for_each(|u| out.extend(u.to_le_bytes()));
    out
}

fn utf16be(s: &str) -> Vec<u8> {
    let mut out = vec![0xFE, 0xFF];
    s.encode_utf16().for_each(|u| out.extend(u.to_be_bytes()));
    out
}

/// Edits line `b` of a file holding `before` and expects exactly `after` on disk.
fn one_line_edit(before: &[u8], after: &[u8]) {
    let (dir, ws) = setup(&[("f.txt", before)]);
    ws.read("f.txt").expect("read");
    ws.str_replace("f.txt", "bé", "BÉ", false).expect("edit");
    assert_eq!(
        std::fs::read(dir.path().join("f.txt")).expect("read"),
        after
    );
    // And back, through the native dialect this time.
    let diff = "<<<<<<< SEARCH\nBÉ\n=======\nbé\n>>>>>>> REPLACE\n";
    ws.apply_diff("f.txt", diff, &ApplyOptions::default())
        .expect("diff");
    assert_eq!(
        std::fs::read(dir.path().join("f.txt")).expect("read"),
        before
    );
}

#[test]
fn utf8() {
    one_line_edit(b"a\nb\xC3\xA9\nc\n", b"a\nB\xC3\x89\nc\n");
}

#[test]
fn utf8_with_bom() {
    one_line_edit(
        b"\xEF\xBB\xBFa\nb\xC3\xA9\nc\n",
        b"\xEF\xBB\xBFa\nB\xC3\x89\nc\n",
    );
}

#[test]
fn utf16_le_and_be_with_bom() {
    one_line_edit(&utf16le("a\r\nbé\r\nc\r\n"), &utf16le("a\r\nBÉ\r\nc\r\n"));
    one_line_edit(&utf16be("a\nbé\nc"), &utf16be("a\nBÉ\nc"));
}

#[test]
fn crlf() {
    one_line_edit("a\r\nbé\r\nc\r\n".as_bytes(), "a\r\nBÉ\r\nc\r\n".as_bytes());
}

#[test]
fn mixed_line_endings() {
    one_line_edit(
        "a\r\nbé\nc\r\nd\n".as_bytes(),
        "a\r\nBÉ\nc\r\nd\n".as_bytes(),
    );
    one_line_edit(
        "a\nbé\r\nc\nd\r\n".as_bytes(),
        "a\nBÉ\r\nc\nd\r\n".as_bytes(),
    );
}

#[test]
fn no_final_newline() {
    one_line_edit("a\r\nbé".as_bytes(), "a\r\nBÉ".as_bytes());
    one_line_edit("bé".as_bytes(), "BÉ".as_bytes());
}

#[test]
fn inserted_lines_take_the_files_ending() {
    let (dir, ws) = setup(&[("f.txt", b"a\r\nb\r\nc\n")]);
    ws.read("f.txt").expect("read");
    ws.insert("f.txt", 1, "x\ny", Convention::After)
        .expect("insert");
    assert_eq!(
        std::fs::read(dir.path().join("f.txt")).expect("read"),
        b"a\r\nx\r\ny\r\nb\r\nc\n"
    );
    // A multi-line replacement takes the ending of the lines it replaces.
    ws.str_replace("f.txt", "b\nc\n", "B\nC\nD\n", false)
        .expect("edit");
    assert_eq!(
        std::fs::read(dir.path().join("f.txt")).expect("read"),
        b"a\r\nx\r\ny\r\nB\r\nC\r\nD\r\n"
    );
}

#[test]
fn cline_dialects_see_the_decoded_text_unchanged() {
    let (dir, ws) = setup(&[("f.txt", b"a\r\nb\r\n")]);
    ws.read("f.txt").expect("read");
    // Cline v1's exact match on the raw text: an LF search does not match CRLF lines, and its
    // line-trimmed fallback writes the REPLACE text as given, exactly as Cline would.
    let diff = "------- SEARCH\nb\r\n=======\nB\r\n+++++++ REPLACE\n";
    let options = ApplyOptions::new().dialect(Dialect::ClineV1);
    let expected = hunkloom::apply_diff(diff, "a\r\nb\r\n", &options).expect("cline");
    ws.apply_diff("f.txt", diff, &options).expect("diff");
    assert_eq!(
        std::fs::read(dir.path().join("f.txt")).expect("read"),
        expected.new_content.as_bytes()
    );
}

#[test]
fn write_writes_the_content_as_given_in_the_files_encoding() {
    let (dir, ws) = setup(&[("f.txt", &utf16le("a\r\n"))]);
    ws.read("f.txt").expect("read");
    ws.write("f.txt", "x\ny\n").expect("write");
    assert_eq!(
        std::fs::read(dir.path().join("f.txt")).expect("read"),
        utf16le("x\ny\n")
    );
}

fn line() -> impl Strategy<Value = String> {
    "[a-c ]{0,4}"
}

fn ending() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("\n"), Just("\r\n")]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    /// Random mixed-ending files, a random line replaced: every other line keeps its bytes,
    /// and the final-newline state is kept.
    #[test]
    fn untouched_lines_are_byte_identical(
        lines in proptest::collection::vec((line(), ending()), 1..12),
        final_newline in any::<bool>(),
        pick in any::<prop::sample::Index>(),
        replacement in "[x-z]{1,3}",
    ) {
        let mut original = String::new();
        for (i, (text, eol)) in lines.iter().enumerate() {
            original.push_str(&format!("L{i}:{text}"));
            if i + 1 < lines.len() || final_newline {
                original.push_str(eol);
            }
        }
        let i = pick.index(lines.len());
        let target = format!("L{i}:{}", lines[i].0);
        let (dir, ws) = setup(&[("f.txt", original.as_bytes())]);
        ws.read("f.txt").expect("read");
        ws.str_replace("f.txt", &target, &format!("L{i}:{replacement}"), false).expect("edit");
        let after = std::fs::read_to_string(dir.path().join("f.txt")).expect("read");
        let old_lines: Vec<&str> = original.split_inclusive('\n').collect();
        let new_lines: Vec<&str> = after.split_inclusive('\n').collect();
        prop_assert_eq!(old_lines.len(), new_lines.len());
        for (j, (old, new)) in old_lines.iter().zip(&new_lines).enumerate() {
            if j == i {
                let eol = if old.ends_with("\r\n") { "\r\n" } else if old.ends_with('\n') { "\n" } else { "" };
                prop_assert_eq!(*new, format!("L{i}:{replacement}{eol}"));
            } else {
                prop_assert_eq!(old, new);
            }
        }
    }
}

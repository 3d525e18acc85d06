//! Files in legacy encodings: detected, edited as text, written back in their encoding with
//! every byte outside the edited lines identical; new text the encoding cannot hold refused
//! (`unrepresentable_text`); the switch that turns detection off.

mod common;

use common::{setup, snapshot};
use hunkloom::ApplyOptions;
use hunkloom_fs::{Encoding, LegacyEncoding, Workspace, WorkspaceOptions};
use proptest::prelude::*;

/// `text` in the legacy encoding named `label`.
fn encoded(label: &str, text: &str) -> Vec<u8> {
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).expect(label);
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{text:?} is not all in {label}");
    bytes.into_owned()
}

/// The cp1251 file of OpenHands' own non-UTF-8 editor tests.
fn cp1251_fixture() -> String {
    [
        "# -*- coding: cp1251 -*-\n\n",
        "# Тестовый файл с кириллицей\n",
        "text = \"Привет, мир!\"\n",
        "numbers = [1, 2, 3, 4, 5]\n",
        "message = \"Это тестовая строка\"\n",
    ]
    .concat()
}

#[test]
fn a_cp1251_file_is_read_edited_and_kept_in_cp1251() {
    let text = cp1251_fixture();
    let (dir, ws) = setup(&[("ru.py", &encoded("cp1251", &text))]);
    assert_eq!(ws.read("ru.py").expect("read"), text);
    let outcome = ws
        .str_replace("ru.py", "Привет, мир!", "Здравствуй, мир!", false)
        .expect("edit");
    assert_eq!(outcome.encoding.as_str(), "windows-1251");
    assert!(outcome.encoding.is_legacy());
    let expected = text.replace("Привет, мир!", "Здравствуй, мир!");
    assert_eq!(
        std::fs::read(dir.path().join("ru.py")).expect("read"),
        encoded("cp1251", &expected)
    );
    // Undo gives back the exact bytes.
    ws.undo("ru.py").expect("undo");
    assert_eq!(
        std::fs::read(dir.path().join("ru.py")).expect("read"),
        encoded("cp1251", &text)
    );
}

#[test]
fn shift_jis_gbk_latin1_and_koi8_files_round_trip_through_an_edit() {
    let cases = [
        (
            "Shift_JIS",
            "# 日本語のコメントです。これはテストファイルです。\nprint('こんにちは')\nx = 1\n",
        ),
        (
            "GBK",
            "// 这是一个简体中文的注释，用于测试编码检测。\nint main() { return 0; }\nx = 1\n",
        ),
        (
            "windows-1252",
            "# Crème brûlée, déjà vu, naïve façade.\nprint('à la carte')\nx = 1\n",
        ),
        (
            "KOI8-U",
            "# Это комментарий на русском языке для проверки.\nprint('привет')\nx = 1\n",
        ),
    ];
    for (label, text) in cases {
        let (dir, ws) = setup(&[("f.txt", &encoded(label, text))]);
        assert_eq!(ws.read("f.txt").expect(label), text, "{label}");
        let diff = "<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n";
        let outcome = ws
            .apply_diff("f.txt", diff, &ApplyOptions::default())
            .expect(label);
        assert_eq!(outcome.encoding.as_str(), label);
        assert_eq!(
            std::fs::read(dir.path().join("f.txt")).expect("read"),
            encoded(label, &text.replace("x = 1", "x = 2")),
            "{label}"
        );
    }
}

#[test]
fn a_character_the_encoding_lacks_is_refused_and_nothing_is_written() {
    let text = cp1251_fixture();
    let (dir, ws) = setup(&[("ru.py", &encoded("cp1251", &text))]);
    ws.read("ru.py").expect("read");
    let before = snapshot(dir.path());
    let e = ws
        .str_replace("ru.py", "мир!", "мир ✓", false)
        .expect_err("✓ is not in cp1251");
    assert_eq!(e.code(), "unrepresentable_text");
    assert!(e.message().contains("windows-1251"), "{}", e.message());
    assert!(e.message().contains("U+2713"), "{}", e.message());
    assert_eq!(snapshot(dir.path()), before);
    // A whole-file write and a patch are refused alike.
    assert_eq!(
        ws.write("ru.py", "emoji 😀\n").expect_err("write").code(),
        "unrepresentable_text"
    );
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn with_detection_off_a_legacy_file_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("ru.py"),
        encoded("cp1251", &cp1251_fixture()),
    )
    .expect("w");
    let ws =
        Workspace::open(dir.path(), WorkspaceOptions::new().legacy_encodings(false)).expect("open");
    assert_eq!(
        ws.read("ru.py").expect_err("refused").code(),
        "unsupported_encoding"
    );
}

#[test]
fn binary_files_are_not_read_as_legacy_text() {
    let (_dir, ws) = setup(&[
        ("a.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00"),
        ("b.bin", &[0xE9, 1, 2, 3, 4, 5, 6, 7, 0xFF, 0x10, 0x11]),
    ]);
    for name in ["a.png", "b.bin"] {
        assert_eq!(
            ws.read(name).expect_err(name).code(),
            "unsupported_encoding"
        );
    }
}

#[test]
fn labels_name_only_editable_legacy_encodings() {
    assert_eq!(
        LegacyEncoding::for_label("cp1251").map(LegacyEncoding::name),
        Some("windows-1251")
    );
    assert!(LegacyEncoding::for_label("utf-16le").is_none());
    assert!(!Encoding::Utf8.is_legacy());
}

/// Lines in one encoding's repertoire.
fn lines_in(alphabet: &'static str) -> impl Strategy<Value = Vec<String>> {
    let chars: Vec<char> = alphabet.chars().collect();
    prop::collection::vec(
        prop::collection::vec(prop::sample::select(chars), 8..40)
            .prop_map(|cs| cs.into_iter().collect::<String>()),
        3..12,
    )
}

const CYRILLIC: &str = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЭЮЯ ,.";
const LATIN1: &str = "abcdefghijklmnopqrstuvwxyzàáâäçèéêëìíîïñòóôöùúûüÿ ,.";
const JAPANESE: &str = "あいうえおかきくけこさしすせそたちつてとなにぬねのアイウエオ日本語漢字、。";

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    /// Any text in a legacy encoding, with one line replaced through the workspace: every other
    /// line's bytes are the same on disk. (Random letter soup can fool the detector into another
    /// legacy encoding that reads the bytes without loss; the edit is then made in that reading,
    /// and the bytes outside it must still be untouched.)
    #[test]
    fn lines_outside_an_edit_keep_their_bytes(
        (label, lines) in prop_oneof![
            lines_in(CYRILLIC).prop_map(|l| ("windows-1251", l)),
            lines_in(LATIN1).prop_map(|l| ("windows-1252", l)),
            lines_in(JAPANESE).prop_map(|l| ("Shift_JIS", l)),
            lines_in(JAPANESE).prop_map(|l| ("EUC-JP", l)),
        ],
        pick in any::<prop::sample::Index>(),
        crlf in any::<bool>(),
    ) {
        let ending = if crlf { "\r\n" } else { "\n" };
        let text: String = lines
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{i}: {l}{ending}"))
            .collect();
        let bytes = encoded(label, &text);
        let (dir, ws) = setup(&[("f.txt", &bytes)]);
        let read = ws.read("f.txt").expect("legacy text is read");
        let read_lines: Vec<&str> = read.split_terminator(ending).collect();
        prop_assert_eq!(read_lines.len(), lines.len());
        let target = pick.index(lines.len());
        let replacement = format!("{target}: replaced line");
        ws.str_replace("f.txt", read_lines[target], &replacement, false).expect("edit");
        let after = std::fs::read(dir.path().join("f.txt")).expect("read");
        let mut expected: Vec<Vec<u8>> = bytes
            .split_inclusive(|&b| b == b'\n')
            .map(<[u8]>::to_vec)
            .collect();
        expected[target] = format!("{replacement}{ending}").into_bytes();
        prop_assert_eq!(after, expected.concat());
    }
}

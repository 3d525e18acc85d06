//! `TextEditor` beyond the vectors: the `native` profile's rules, the options, and the
//! boundaries (paths out of the root, symlinks, binary and non-UTF-8 files, large files, byte
//! faithfulness, nothing left in the root).

use std::path::{Path, PathBuf};

use hunkloom_tools::{EditorOptions, Profile, TextEditor, ToolCode, ToolResult};
use serde_json::{Value, json};

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Fixture {
    fn new(files: &[(&str, &[u8])]) -> Fixture {
        let dir = tempfile::Builder::new()
            .prefix("hl-editor-")
            .tempdir()
            .expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical");
        for (path, bytes) in files {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, bytes).expect("write");
        }
        Fixture { _dir: dir, root }
    }

    fn path(&self, rel: &str) -> String {
        self.root.join(rel).display().to_string()
    }

    fn read(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.root.join(rel)).expect("read")
    }

    fn editor(&self, profile: Profile) -> TextEditor {
        TextEditor::new(&self.root, EditorOptions::new().profile(profile)).expect("editor")
    }

    /// Every file and directory under the root, relative.
    fn listing(&self) -> Vec<String> {
        fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).expect("read_dir") {
                let p = e.expect("entry").path();
                out.push(p.strip_prefix(root).expect("prefix").display().to_string());
                if p.is_dir() && !p.is_symlink() {
                    walk(root, &p, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.root, &self.root, &mut out);
        out.sort();
        out
    }
}

fn call(editor: &mut TextEditor, input: Value) -> ToolResult {
    editor.call(&input).expect("an object input never errs")
}

fn ok(editor: &mut TextEditor, input: Value) -> ToolResult {
    let r = call(editor, input);
    assert!(!r.is_error, "{}", r.output);
    assert!(r.code.is_empty());
    r
}

fn err(editor: &mut TextEditor, input: Value, code: &str) -> ToolResult {
    let r = call(editor, input);
    assert!(r.is_error, "expected {code}, got {}", r.output);
    assert_eq!(r.code, code, "{}", r.output);
    assert_eq!(r.error_code().map(ToolCode::as_str), Some(code));
    r
}

#[test]
fn only_a_non_object_input_is_an_err() {
    let f = Fixture::new(&[("a.txt", b"a")]);
    for profile in Profile::ALL {
        let mut e = f.editor(*profile);
        for bad in [json!(null), json!("view"), json!([1]), json!(3)] {
            let error = e.call(&bad).expect_err("a non-object input");
            assert_eq!(error.code(), "invalid_input");
        }
        let r = call(&mut e, json!({}));
        assert_eq!(r.code, "missing_parameter");
        let r = call(&mut e, json!({"command": "view"}));
        assert_eq!(r.code, "missing_parameter");
        let r = call(&mut e, json!({"command": "view", "path": 5}));
        assert_eq!(r.code, "invalid_parameter");
        // The path is checked first, as in the references.
        let r = call(&mut e, json!({"command": "fly", "path": f.path("")}));
        assert_eq!(r.code, "is_directory", "{}", r.output);
        let r = call(&mut e, json!({"command": "fly", "path": f.path("a.txt")}));
        assert_eq!(r.code, "unknown_command", "{}", r.output);
    }
}

#[test]
fn native_requires_a_view_before_an_edit_and_refuses_stale_files() {
    let f = Fixture::new(&[("a.py", b"x = 1\n")]);
    let mut e = f.editor(Profile::Native);
    assert!(e.requires_read());
    let edit =
        json!({"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "x = 2"});
    let refused = err(&mut e, edit.clone(), "not_read");
    // The native editor's read is its `view` command, and it says so.
    assert!(
        refused
            .output
            .contains("View it first (the `view` command)"),
        "{}",
        refused.output
    );
    assert_eq!(f.read("a.py"), b"x = 1\n");
    ok(&mut e, json!({"command": "view", "path": "a.py"}));
    ok(&mut e, edit);
    // The editor's own edit counts as read.
    ok(
        &mut e,
        json!({"command": "insert", "path": "a.py", "insert_line": 1, "new_str": "y = 3"}),
    );
    assert_eq!(f.read("a.py"), b"x = 2\ny = 3\n");
    // Someone else changes the file: edits and undo are refused until it is viewed again.
    std::fs::write(f.root.join("a.py"), "x = 9\n").expect("write");
    let stale = err(
        &mut e,
        json!({"command": "insert", "path": "a.py", "insert_line": 0, "new_str": "#"}),
        "stale_file",
    );
    assert!(stale.output.contains("View it again"), "{}", stale.output);
    err(
        &mut e,
        json!({"command": "undo_edit", "path": "a.py"}),
        "stale_file",
    );
    assert_eq!(f.read("a.py"), b"x = 9\n");
    // Created files need no view.
    ok(
        &mut e,
        json!({"command": "create", "path": "new/b.py", "file_text": "b\n"}),
    );
    ok(
        &mut e,
        json!({"command": "str_replace", "path": "new/b.py", "old_str": "b", "new_str": "c"}),
    );
    // Reference profiles track nothing, unless asked to.
    let mut a = f.editor(Profile::Anthropic);
    assert!(!a.requires_read());
    let mut strict = TextEditor::new(
        &f.root,
        EditorOptions::new()
            .profile(Profile::Anthropic)
            .require_read(true),
    )
    .expect("editor");
    let edit =
        json!({"command": "str_replace", "path": f.path("a.py"), "old_str": "9", "new_str": "8"});
    err(&mut strict, edit.clone(), "not_read");
    ok(&mut a, edit);
}

#[test]
fn native_merges_an_edit_around_lines_changed_since_the_view_and_says_so() {
    let lines: String = (1..=10).map(|i| format!("line {i}\r\n")).collect();
    let f = Fixture::new(&[("a.txt", lines.as_bytes())]);
    let mut e = f.editor(Profile::Native);
    ok(&mut e, json!({"command": "view", "path": "a.txt"}));
    let theirs = lines.replace("line 2\r\n", "line two, edited elsewhere\r\n");
    std::fs::write(f.root.join("a.txt"), &theirs).expect("write");

    let r = ok(
        &mut e,
        json!({"command": "str_replace", "path": "a.txt", "old_str": "line 8", "new_str": "line eight"}),
    );
    assert!(
        r.output.ends_with(
            " Note: a.txt had changed since you viewed it (line 2); the edit was merged around \
             those changes, which are kept. View those lines before editing them."
        ),
        "{}",
        r.output
    );
    let want = theirs.replace("line 8\r\n", "line eight\r\n");
    assert_eq!(f.read("a.txt"), want.as_bytes());
    assert_eq!(r.new_content.as_deref(), Some(want.as_str()));

    // Its own write counts as read: the next edit is plain.
    let r = ok(
        &mut e,
        json!({"command": "insert", "path": "a.txt", "insert_line": 10, "new_str": "line 11"}),
    );
    assert!(!r.output.contains("Note:"), "{}", r.output);

    // Another change elsewhere, then an insert: merged too.
    let now = String::from_utf8(f.read("a.txt")).expect("utf-8");
    std::fs::write(
        f.root.join("a.txt"),
        now.replace("line 10\r\n", "line ten\r\n"),
    )
    .expect("write");
    let r = ok(
        &mut e,
        json!({"command": "insert", "path": "a.txt", "insert_line": 3, "new_str": "after three"}),
    );
    assert!(r.output.contains("(line 11)"), "{}", r.output);

    // A change that touches the edited lines: refused, naming them, nothing written.
    let before = f.read("a.txt");
    let touched = String::from_utf8(before.clone())
        .expect("utf-8")
        .replace("line 5\r\n", "line five\r\n");
    std::fs::write(f.root.join("a.txt"), &touched).expect("write");
    let r = err(
        &mut e,
        json!({"command": "str_replace", "path": "a.txt", "old_str": "line 4\nline 5", "new_str": "4 and 5"}),
        "not_found",
    );
    assert!(r.output.contains("line 4"), "{}", r.output);
    let r = err(
        &mut e,
        json!({"command": "str_replace", "path": "a.txt", "old_str": "line 6", "new_str": "line six"}),
        "stale_file",
    );
    assert!(
        r.output.contains("line 6") || r.output.contains("lines"),
        "{}",
        r.output
    );
    assert_eq!(f.read("a.txt"), touched.as_bytes());
}

#[test]
fn native_uses_claude_codes_str_replace() {
    let f = Fixture::new(&[
        ("q.md", "say \u{201C}hi\u{201D}  \nkeep\n".as_bytes()),
        ("a.py", b"one\ntwo\nthree\ntwo\n"),
    ]);
    let mut e = TextEditor::new(&f.root, EditorOptions::new().require_read(false)).expect("editor");
    // Curly quotes in the file match straight ones: text within a line takes the file's quote
    // style, whole lines are written as sent; Markdown keeps trailing spaces.
    ok(
        &mut e,
        json!({"command": "str_replace", "path": "q.md", "old_str": "\"hi\"", "new_str": "\"hey\""}),
    );
    assert_eq!(
        f.read("q.md"),
        "say \u{201C}hey\u{201D}  \nkeep\n".as_bytes()
    );
    ok(
        &mut e,
        json!({"command": "str_replace", "path": "q.md", "old_str": "say \"hey\"  ", "new_str": "say \"bye\"  "}),
    );
    assert_eq!(f.read("q.md"), "say \"bye\"  \nkeep\n".as_bytes());
    // Several matches: their start lines.
    let r = err(
        &mut e,
        json!({"command": "str_replace", "path": "a.py", "old_str": "two", "new_str": "2"}),
        "multiple_matches",
    );
    assert_eq!(
        r.output,
        "No replacement was performed. Multiple occurrences of old_str `two` in lines [2, 4]. \
         Please ensure it is unique"
    );
    // old == new is refused; an empty old_str on a file with content too.
    err(
        &mut e,
        json!({"command": "str_replace", "path": "a.py", "old_str": "one", "new_str": "one"}),
        "old_equals_new",
    );
    err(
        &mut e,
        json!({"command": "str_replace", "path": "a.py", "old_str": "", "new_str": "x"}),
        "file_exists",
    );
    // Deleting a whole line removes its newline; trailing whitespace is stripped.
    let r = ok(
        &mut e,
        json!({"command": "str_replace", "path": "a.py", "old_str": "three", "new_str": ""}),
    );
    assert_eq!(f.read("a.py"), b"one\ntwo\ntwo\n");
    assert_eq!(r.old_content.as_deref(), Some("one\ntwo\nthree\ntwo\n"));
    assert_eq!(r.new_content.as_deref(), Some("one\ntwo\ntwo\n"));
    ok(
        &mut e,
        json!({"command": "str_replace", "path": "a.py", "old_str": "one", "new_str": "uno   "}),
    );
    assert_eq!(f.read("a.py"), b"uno\ntwo\ntwo\n");
}

#[test]
fn native_counts_lines_as_editors_do() {
    let f = Fixture::new(&[("a.txt", b"a\nb\n"), ("empty.txt", b"")]);
    let mut e = TextEditor::new(&f.root, EditorOptions::new().require_read(false)).expect("editor");
    let r = ok(&mut e, json!({"command": "view", "path": "a.txt"}));
    assert_eq!(
        r.output,
        "Here's the result of running `cat -n` on a.txt:\n     1\ta\n     2\tb\n"
    );
    let r = err(
        &mut e,
        json!({"command": "insert", "path": "a.txt", "insert_line": 3, "new_str": "x"}),
        "invalid_line",
    );
    assert_eq!(
        r.output,
        "Invalid `insert_line` parameter: 3. It should be within the range of lines of the file: \
         [0, 2]"
    );
    err(
        &mut e,
        json!({"command": "insert", "path": "a.txt", "insert_line": -1, "new_str": "x"}),
        "invalid_line",
    );
    err(
        &mut e,
        json!({"command": "insert", "path": "a.txt", "insert_line": "1", "new_str": "x"}),
        "invalid_parameter",
    );
    ok(
        &mut e,
        json!({"command": "insert", "path": "a.txt", "insert_line": 2, "new_str": "c\n"}),
    );
    assert_eq!(f.read("a.txt"), b"a\nb\nc\n");
    let r = ok(
        &mut e,
        json!({"command": "view", "path": "a.txt", "view_range": [2, 9]}),
    );
    assert_eq!(
        r.output,
        "NOTE: We only show up to 3 since there're only 3 lines in this file.\nHere's the result \
         of running `cat -n` on a.txt:\n     2\tb\n     3\tc\n"
    );
    ok(
        &mut e,
        json!({"command": "insert", "path": "empty.txt", "insert_line": 0, "new_str": "first"}),
    );
    assert_eq!(f.read("empty.txt"), b"first");
}

#[test]
fn bytes_survive_edits_and_undo() {
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("a\r\nb\r\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let f = Fixture::new(&[
        ("crlf.txt", b"a\r\nb\r\n"),
        ("bom.txt", b"\xEF\xBB\xBFa\nb\n"),
        ("u16.txt", &utf16),
        ("tabs.go", b"func f() {\n\tx := 1\n\ty := 2\n}\n"),
    ]);
    for profile in Profile::ALL {
        let mut e = TextEditor::new(
            &f.root,
            EditorOptions::new().profile(*profile).require_read(false),
        )
        .expect("editor");
        for file in ["crlf.txt", "bom.txt", "u16.txt"] {
            let before = f.read(file);
            ok(
                &mut e,
                json!({"command": "str_replace", "path": f.path(file), "old_str": "b", "new_str": "B"}),
            );
            let after = f.read(file);
            assert_ne!(after, before, "{profile} {file}");
            assert_eq!(
                after.starts_with(b"\xEF\xBB\xBF"),
                before.starts_with(b"\xEF\xBB\xBF")
            );
            assert_eq!(
                after.starts_with(b"\xFF\xFE"),
                before.starts_with(b"\xFF\xFE")
            );
            ok(
                &mut e,
                json!({"command": "insert", "path": f.path(file), "insert_line": 1, "new_str": "x"}),
            );
            ok(
                &mut e,
                json!({"command": "undo_edit", "path": f.path(file)}),
            );
            ok(
                &mut e,
                json!({"command": "undo_edit", "path": f.path(file)}),
            );
            assert_eq!(f.read(file), before, "{profile} {file}");
        }
        assert_eq!(f.read("crlf.txt"), b"a\r\nb\r\n");
        // Spaces copied from the Anthropic view match the file's tabs, which stay tabs.
        ok(
            &mut e,
            json!({"command": "str_replace", "path": f.path("tabs.go"),
                   "old_str": if *profile == Profile::Anthropic { "        y := 2" } else { "\ty := 2" },
                   "new_str": if *profile == Profile::Anthropic { "        y := 3" } else { "\ty := 3" }}),
        );
        let text = String::from_utf8(f.read("tabs.go")).expect("utf-8");
        assert!(text.contains("\tx := 1\n"), "{profile}: {text:?}");
        assert!(text.contains("y := 3\n"), "{profile}: {text:?}");
        ok(
            &mut e,
            json!({"command": "undo_edit", "path": f.path("tabs.go")}),
        );
    }
}

#[test]
fn undo_histories_are_keyed_per_profile() {
    let f = Fixture::new(&[("a.txt", b"a\n"), ("d/x", b"")]);
    for profile in Profile::ALL {
        let mut e = TextEditor::new(
            &f.root,
            EditorOptions::new().profile(*profile).require_read(false),
        )
        .expect("editor");
        ok(
            &mut e,
            json!({"command": "str_replace", "path": f.path("a.txt"), "old_str": "a", "new_str": "b"}),
        );
        // `//` and `/./` name the same history everywhere; `dir/..` only in native.
        let other = json!({"command": "undo_edit", "path": f.path("d/../a.txt")});
        if *profile == Profile::Native {
            ok(&mut e, other);
        } else {
            err(&mut e, other, "nothing_to_undo");
            ok(
                &mut e,
                json!({"command": "undo_edit", "path": f.path(".//a.txt")}),
            );
        }
        assert_eq!(f.read("a.txt"), b"a\n");
    }
}

#[test]
fn undo_after_create_keeps_the_file() {
    let f = Fixture::new(&[]);
    for profile in Profile::ALL {
        let mut e = f.editor(*profile);
        let name = format!("{profile}.txt");
        let path = f.path(&name);
        ok(
            &mut e,
            json!({"command": "create", "path": path, "file_text": "hi\n"}),
        );
        let r = ok(&mut e, json!({"command": "undo_edit", "path": path}));
        assert!(r.output.starts_with("Last edit to"), "{}", r.output);
        assert_eq!(f.read(&name), b"hi\n");
        err(
            &mut e,
            json!({"command": "undo_edit", "path": path}),
            "nothing_to_undo",
        );
    }
}

#[test]
fn paths_stay_inside_the_root() {
    let outside = Fixture::new(&[("secret.txt", b"s\n")]);
    let f = Fixture::new(&[("a.txt", b"a\n")]);
    std::os::unix::fs::symlink(outside.root.join("secret.txt"), f.root.join("link.txt"))
        .expect("symlink");
    std::os::unix::fs::symlink(&outside.root, f.root.join("out")).expect("symlink");
    for profile in Profile::ALL {
        let mut e = TextEditor::new(
            &f.root,
            EditorOptions::new().profile(*profile).require_read(false),
        )
        .expect("editor");
        let secret = outside.path("secret.txt");
        for input in [
            json!({"command": "view", "path": secret}),
            json!({"command": "view", "path": f.path("../") + "x"}),
            json!({"command": "view", "path": f.path("link.txt")}),
            json!({"command": "str_replace", "path": f.path("link.txt"), "old_str": "s", "new_str": "t"}),
            json!({"command": "create", "path": f.path("out/new.txt"), "file_text": "x"}),
            json!({"command": "str_replace", "path": f.path("out/secret.txt"), "old_str": "s", "new_str": "t"}),
        ] {
            err(&mut e, input, "path_outside_root");
        }
        assert_eq!(outside.read("secret.txt"), b"s\n");
        assert!(!outside.root.join("new.txt").exists());
    }
    // The reference profiles want absolute paths; native resolves relative ones in the root.
    let mut a = f.editor(Profile::Anthropic);
    let r = err(
        &mut a,
        json!({"command": "view", "path": "./a.txt"}),
        "relative_path",
    );
    assert_eq!(
        r.output,
        "The path a.txt is not an absolute path, it should start with `/`. Maybe you meant a.txt?"
    );
    let mut n = f.editor(Profile::Native);
    ok(&mut n, json!({"command": "view", "path": "./a.txt"}));
    err(
        &mut n,
        json!({"command": "view", "path": "../x"}),
        "path_outside_root",
    );
}

#[test]
fn binary_files_everywhere_and_non_utf8_files_in_anthropic_are_refused_untouched() {
    let f = Fixture::new(&[
        ("bin.dat", b"\x00\x01\x02abc"),
        ("latin1.txt", b"caf\xe9\n"),
    ]);
    let mut o = f.editor(Profile::OpenHands);
    let r = err(
        &mut o,
        json!({"command": "view", "path": f.path("bin.dat")}),
        "unsupported_encoding",
    );
    assert_eq!(
        r.output,
        format!(
            "File validation failed for {}: File appears to be binary and this file type cannot \
             be read or edited by this tool.",
            f.path("bin.dat")
        )
    );
    let mut a = f.editor(Profile::Anthropic);
    let r = err(
        &mut a,
        json!({"command": "str_replace", "path": f.path("latin1.txt"), "old_str": "caf", "new_str": "x"}),
        "unsupported_encoding",
    );
    assert_eq!(
        r.output,
        format!(
            "Ran into 'utf-8' codec can't decode byte 0xe9 in position 3: invalid continuation \
             byte while trying to read {}",
            f.path("latin1.txt")
        )
    );
    let mut n = TextEditor::new(&f.root, EditorOptions::new().require_read(false)).expect("editor");
    err(
        &mut n,
        json!({"command": "view", "path": "bin.dat"}),
        "unsupported_encoding",
    );
    err(
        &mut n,
        json!({"command": "insert", "path": "bin.dat", "insert_line": 0, "new_str": "x"}),
        "unsupported_encoding",
    );
    assert_eq!(f.read("latin1.txt"), b"caf\xe9\n");
    assert_eq!(f.read("bin.dat"), b"\x00\x01\x02abc");
}

#[test]
fn native_and_openhands_edit_a_legacy_file_in_its_encoding() {
    let cp1251 = |s: &str| encoding_rs::WINDOWS_1251.encode(s).0.into_owned();
    let text = "# Тестовый файл с кириллицей\ntext = \"Привет, мир!\"\n";
    let f = Fixture::new(&[("ru.py", &cp1251(text))]);
    let mut n = TextEditor::new(&f.root, EditorOptions::new()).expect("editor");
    let r = ok(&mut n, json!({"command": "view", "path": "ru.py"}));
    assert!(r.output.contains("Привет, мир!"), "{}", r.output);
    assert!(
        r.output.ends_with(
            "\n(This file is encoded in windows-1251; edits are written back in windows-1251, \
             and text with characters it cannot represent is refused.)"
        ),
        "{}",
        r.output
    );
    ok(
        &mut n,
        json!({"command": "str_replace", "path": "ru.py", "old_str": "Привет", "new_str": "Здравствуй"}),
    );
    assert_eq!(
        f.read("ru.py"),
        cp1251(&text.replace("Привет", "Здравствуй"))
    );
    let r = err(
        &mut n,
        json!({"command": "str_replace", "path": "ru.py", "old_str": "мир!", "new_str": "мир ✓"}),
        "unrepresentable_text",
    );
    assert!(r.output.contains("U+2713"), "{}", r.output);
    assert_eq!(
        f.read("ru.py"),
        cp1251(&text.replace("Привет", "Здравствуй"))
    );
    // OpenHands shows the decoded text with no note (its reference's output).
    let mut o = f.editor(Profile::OpenHands);
    let r = ok(&mut o, json!({"command": "view", "path": f.path("ru.py")}));
    assert!(r.output.contains("Здравствуй, мир!") && !r.output.contains("encoded in"));
}

#[test]
fn large_files_are_cut_or_refused() {
    // Just under OpenHands' 10 MiB limit: shown, cut at 16,000 characters with the notice.
    let line = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n";
    let big = line.repeat(10 * 1024 * 1024 / line.len() - 1);
    let f = Fixture::new(&[("big.txt", big.as_bytes())]);
    let mut o = f.editor(Profile::OpenHands);
    let r = ok(
        &mut o,
        json!({"command": "view", "path": f.path("big.txt")}),
    );
    assert!(r.output.ends_with(
        "<response clipped><NOTE>Due to the max output limit, only part of this file has been \
         shown to you. You should retry this tool after you have searched inside the file with \
         `grep -n` in order to find the line numbers of what you are looking for.</NOTE>\n"
    ));
    assert!(r.output.len() < 20_000);
    std::fs::write(f.root.join("big.txt"), format!("{big}{}", line.repeat(40))).expect("grow");
    let r = err(
        &mut o,
        json!({"command": "view", "path": f.path("big.txt")}),
        "file_too_large",
    );
    assert_eq!(
        r.output,
        format!(
            "File validation failed for {}: File is too large (10.0MB). Maximum allowed size is \
             10MB.",
            f.path("big.txt")
        )
    );
    let mut small = TextEditor::new(
        &f.root,
        EditorOptions::new()
            .profile(Profile::Anthropic)
            .max_file_size(100),
    )
    .expect("editor");
    err(
        &mut small,
        json!({"command": "view", "path": f.path("big.txt")}),
        "file_too_large",
    );
}

#[test]
fn nothing_of_the_editor_is_left_in_the_root() {
    let f = Fixture::new(&[("a.txt", b"a\n"), ("d/b.txt", b"b\n")]);
    for profile in Profile::ALL {
        let mut e = TextEditor::new(
            &f.root,
            EditorOptions::new().profile(*profile).require_read(false),
        )
        .expect("editor");
        let before = f.listing();
        for input in [
            json!({"command": "view", "path": f.path("")}),
            json!({"command": "str_replace", "path": f.path("a.txt"), "old_str": "a", "new_str": "A"}),
            json!({"command": "insert", "path": f.path("d/b.txt"), "insert_line": 0, "new_str": "x"}),
            json!({"command": "undo_edit", "path": f.path("a.txt")}),
            json!({"command": "create", "path": f.path("missing/c.txt"), "file_text": "c"}),
            json!({"command": "str_replace", "path": f.path("a.txt"), "old_str": "zzz", "new_str": "A"}),
        ] {
            e.call(&input).expect("call");
        }
        let mut after = f.listing();
        after.retain(|p| !p.starts_with("missing"));
        assert_eq!(after, before, "{profile}");
        let _ = std::fs::remove_dir_all(f.root.join("missing"));
        ok(
            &mut e,
            json!({"command": "undo_edit", "path": f.path("d/b.txt")}),
        );
    }
}

#[test]
fn special_files_are_not_read() {
    let f = Fixture::new(&[]);
    let fifo = f.root.join("pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    for profile in Profile::ALL {
        let mut e = f.editor(*profile);
        let r = err(
            &mut e,
            json!({"command": "view", "path": f.path("pipe")}),
            "io_error",
        );
        assert!(r.output.contains("not a regular file"), "{}", r.output);
    }
}

#[test]
fn create_makes_parents_only_in_native() {
    let f = Fixture::new(&[("file", b"x")]);
    let mut a = f.editor(Profile::Anthropic);
    let path = f.path("no/such/a.txt");
    let r = err(
        &mut a,
        json!({"command": "create", "path": path, "file_text": "x"}),
        "io_error",
    );
    assert_eq!(
        r.output,
        format!(
            "Ran into [Errno 2] No such file or directory: '{path}' while trying to write to {path}"
        )
    );
    let path = f.path("file/a.txt");
    let r = err(
        &mut a,
        json!({"command": "create", "path": path, "file_text": "x"}),
        "io_error",
    );
    assert!(
        r.output.contains("[Errno 20] Not a directory"),
        "{}",
        r.output
    );
    let mut n = f.editor(Profile::Native);
    ok(
        &mut n,
        json!({"command": "create", "path": "no/such/a.txt", "file_text": "x"}),
    );
    assert_eq!(f.read("no/such/a.txt"), b"x");
}

#[test]
fn listings_per_profile() {
    let f = Fixture::new(&[("a.txt", b"a"), ("src/m.rs", b"m"), (".git/HEAD", b"h")]);
    let root = f.root.display().to_string();
    let r = ok(
        &mut f.editor(Profile::Anthropic),
        json!({"command": "view", "path": root}),
    );
    assert_eq!(
        r.output,
        format!(
            "Here's the files and directories up to 2 levels deep in {root}, excluding hidden \
             items:\n{root}\n{root}/a.txt\n{root}/src\n{root}/src/m.rs\n\n"
        )
    );
    let r = ok(
        &mut f.editor(Profile::Native),
        json!({"command": "view", "path": "."}),
    );
    assert_eq!(
        r.output,
        "Here's the files and directories up to 2 levels deep in ., excluding hidden items:\n./\n\
         ./a.txt\n./src/\n./src/m.rs\n\n1 hidden files/directories in this directory are \
         excluded. You can use 'ls -la .' to see them."
    );
}

#[test]
fn results_carry_path_and_contents() {
    let f = Fixture::new(&[("a.txt", b"a\n")]);
    let mut e = f.editor(Profile::OpenHands);
    let path = f.path(".//a.txt");
    let r = ok(
        &mut e,
        json!({"command": "str_replace", "path": path, "old_str": "a", "new_str": "b"}),
    );
    assert_eq!(r.path, Some(f.path("a.txt")));
    assert_eq!(r.old_content.as_deref(), Some("a\n"));
    assert_eq!(r.new_content.as_deref(), Some("b\n"));
    let r = ok(&mut e, json!({"command": "view", "path": f.path("a.txt")}));
    assert_eq!((r.old_content, r.new_content), (None, None));
    let r = ok(
        &mut e,
        json!({"command": "create", "path": f.path("c.txt"), "file_text": "c"}),
    );
    assert_eq!((r.old_content, r.new_content.as_deref()), (None, Some("c")));
    let r = err(&mut e, json!({"command": "view"}), "missing_parameter");
    assert_eq!(r.path, None);
}

#[test]
fn schemas_name_the_tool_per_profile() {
    assert_eq!(
        hunkloom_tools::schema(Profile::Anthropic)["name"],
        "str_replace_editor"
    );
    assert_eq!(
        hunkloom_tools::schema(Profile::Native)["name"],
        "str_replace_based_edit_tool"
    );
}

/// Random calls (seeded): every input gives `Ok`, a result whose `code` is empty exactly when it
/// is not an error, and never a panic; files stay inside the root.
#[test]
fn random_calls_never_panic() {
    use hunkloom_testkit::SplitMix64;
    let f = Fixture::new(&[
        ("a.txt", "one\ntwo\n\tthree\r\nfour".as_bytes()),
        ("d/b.py", b"x = 1\nx = 1\n"),
        ("empty", b""),
        ("bom.txt", b"\xEF\xBB\xBFhi\n"),
        ("bin", b"\x00\x01"),
        ("latin1", b"caf\xe9"),
    ]);
    let mut rng = SplitMix64(0x7e57_ed17);
    let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
    let commands = [
        "view",
        "create",
        "str_replace",
        "insert",
        "undo_edit",
        "rm",
        "",
    ];
    let paths = [
        f.path("a.txt"),
        f.path("d/b.py"),
        f.path("empty"),
        f.path("bom.txt"),
        f.path("bin"),
        f.path("latin1"),
        f.path("d"),
        f.path(""),
        f.path("new.txt"),
        f.path("d/../a.txt"),
        f.path("nope/x"),
        "a.txt".to_owned(),
        "/".to_owned(),
        "".to_owned(),
    ];
    let texts = [
        "",
        "one",
        "two\n",
        "x = 1",
        "\t",
        "  three",
        "\u{201C}q\u{201D}",
        "é\r\n",
    ];
    let values = [
        json!(null),
        json!(-1),
        json!(0),
        json!(1),
        json!(3),
        json!(i64::MAX),
        json!(u64::MAX),
        json!("1"),
        json!(true),
        json!(1.5),
        json!([1, 2]),
        json!([2, -1]),
        json!([0, 0]),
        json!([1]),
        json!([]),
        json!({}),
    ];
    for profile in Profile::ALL {
        let e = f.editor(*profile);
        for _ in 0..600 {
            let mut input = serde_json::Map::new();
            input.insert("command".into(), json!(commands[pick(commands.len())]));
            input.insert("path".into(), json!(paths[pick(paths.len())]));
            for key in ["file_text", "old_str", "new_str"] {
                if pick(3) > 0 {
                    input.insert(key.into(), json!(texts[pick(texts.len())]));
                }
            }
            for key in ["insert_line", "view_range"] {
                if pick(2) > 0 {
                    input.insert(key.into(), values[pick(values.len())].clone());
                }
            }
            let input = Value::Object(input);
            let r = e.call(&input).expect("an object input never errs");
            assert_eq!(r.is_error, !r.code.is_empty(), "{input}: {r:?}");
            assert!(r.is_error || r.error_code().is_none());
            assert!(!r.output.is_empty(), "{input}");
        }
        let _ = std::fs::remove_file(f.root.join("new.txt"));
    }
}

#[test]
fn native_create_over_a_file_merges_a_lazy_edit_when_certain() {
    let file = "import os\r\n\r\ndef load(p):\r\n    return open(p).read()\r\n\r\ndef save(p, t):\r\n    open(p, 'w').write(t)\r\n";
    let f = Fixture::new(&[("s.py", file.as_bytes())]);
    let mut e = f.editor(Profile::Native);
    let lazy = "# ... existing code ...\ndef save(p, t):\n    log(p)\n    open(p, 'w').write(t)\n";
    let create = json!({"command": "create", "path": "s.py", "file_text": lazy});
    err(&mut e, create.clone(), "not_read");
    ok(&mut e, json!({"command": "view", "path": "s.py"}));
    let r = ok(&mut e, create.clone());
    let merged = file.replace("t):\r\n", "t):\r\n    log(p)\r\n");
    assert!(
        r.output
            .starts_with("The file s.py already exists, so the text was merged into it"),
        "{}",
        r.output
    );
    assert_eq!(r.old_content.as_deref(), Some(file));
    assert_eq!(r.new_content.as_deref(), Some(merged.as_str()));
    assert_eq!(f.read("s.py"), merged.as_bytes());
    // Undo gives back the file as it was before the merge.
    ok(&mut e, json!({"command": "undo_edit", "path": "s.py"}));
    assert_eq!(f.read("s.py"), file.as_bytes());
    // A lazy text that cannot be placed for certain is refused, and nothing is written.
    let floating = "# ... existing code ...\ndef close(p):\n    pass\n";
    let r = err(
        &mut e,
        json!({"command": "create", "path": "s.py", "file_text": floating}),
        "lazy_no_anchor",
    );
    assert!(
        r.output
            .starts_with("segment 1 (snippet lines 2-3) cannot be placed"),
        "{}",
        r.output
    );
    assert_eq!(f.read("s.py"), file.as_bytes());
    // A text without markers is no lazy edit: the file exists, as before.
    err(
        &mut e,
        json!({"command": "create", "path": "s.py", "file_text": "x = 1\n"}),
        "file_exists",
    );
    // The reference profiles refuse every create over a file, as their tools do.
    for profile in [Profile::Anthropic, Profile::OpenHands] {
        let mut r = f.editor(profile);
        err(
            &mut r,
            json!({"command": "create", "path": f.path("s.py"), "file_text": lazy}),
            "file_exists",
        );
    }
    assert_eq!(f.read("s.py"), file.as_bytes());
}

#[test]
fn native_says_an_old_str_missing_from_a_file_changed_since_the_view_may_be_why() {
    let f = Fixture::new(&[("a.py", b"x = 1\ny = 2\n")]);
    let mut e = f.editor(Profile::Native);
    ok(&mut e, json!({"command": "view", "path": "a.py"}));
    let edit =
        json!({"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "x = 3"});
    // Unchanged file, text not there: the plain not_found.
    let missing =
        json!({"command": "str_replace", "path": "a.py", "old_str": "z = 0", "new_str": "z = 1"});
    let plain = err(&mut e, missing, "not_found");
    assert!(!plain.output.contains("changed since"), "{}", plain.output);
    // Someone else changed that line since the view: the answer says so.
    std::fs::write(f.root.join("a.py"), "x = 9\ny = 2\n").expect("write");
    let changed = err(&mut e, edit, "not_found");
    assert!(
        changed
            .output
            .contains("The file has changed since you last viewed it"),
        "{}",
        changed.output
    );
    assert_eq!(f.read("a.py"), b"x = 9\ny = 2\n");
}

#[test]
fn native_refuses_damaged_calls_and_answers_replays_as_done() {
    let f = Fixture::new(&[("app.py", b"def main():\n    run()\n    stop()\n")]);
    let mut n = TextEditor::new(&f.root, EditorOptions::new()).expect("editor");
    ok(&mut n, json!({"command": "view", "path": "app.py"}));
    let edit = json!({"command": "str_replace", "path": "app.py", "old_str": "    run()", "new_str": "    run(fast=True)"});
    ok(&mut n, edit.clone());
    let after = f.read("app.py");
    let r = ok(&mut n, edit);
    assert!(r.output.contains("already has this edit"), "{}", r.output);
    assert_eq!(f.read("app.py"), after);
    // A view's line numbers are removed; a clipping notice is refused.
    ok(
        &mut n,
        json!({"command": "insert", "path": "app.py", "insert_line": 3, "new_str": "     4\t    log()\n     5\t    done()"}),
    );
    assert_eq!(
        f.read("app.py"),
        b"def main():\n    run(fast=True)\n    stop()\n    log()\n    done()\n"
    );
    err(
        &mut n,
        json!({"command": "str_replace", "path": "app.py", "old_str": "    log()", "new_str": "    log()\n[... 12 lines truncated ...]"}),
        "truncation_notice",
    );
    // The reference profiles write what they are given.
    let mut o = f.editor(Profile::OpenHands);
    ok(
        &mut o,
        json!({"command": "insert", "path": f.path("app.py"), "insert_line": 0, "new_str": "     1\t# header"}),
    );
    assert!(f.read("app.py").starts_with(b"     1\t# header\n"));
}

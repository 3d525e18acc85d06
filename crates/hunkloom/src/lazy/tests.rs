//! Tests of the lazy merge as a whole: line endings, the refusals and their messages, and the
//! cost bound.

use super::*;

fn go() -> LazyOptions {
    LazyOptions::new().language(Language::Go)
}

const FILE: &str = "package main\n\nfunc a() {\n\tone()\n}\n\nfunc b() {\n\ttwo()\n}\n\nfunc c() {\n\tthree()\n}\n";

#[test]
fn a_segment_between_markers_replaces_its_lines_only() {
    let snippet = "// ... existing code ...\nfunc b() {\n\ttwo()\n\ttwoAndAHalf()\n}\n\nfunc c() {\n// ... existing code ...\n";
    let merged = apply_lazy(snippet, FILE, &go()).expect("merged");
    assert_eq!(
        merged,
        FILE.replace("\ttwo()\n", "\ttwo()\n\ttwoAndAHalf()\n")
    );
    // Its last line, `}`, is no anchor: it closes every function. Refused, never guessed.
    let closing = "// ...\nfunc b() {\n\ttwo()\n\ttwoAndAHalf()\n}\n// ...\n";
    let err = apply_lazy(closing, FILE, &go()).unwrap_err();
    assert_eq!(err.code(), "lazy_ambiguous");
    assert_eq!(
        err.message(),
        "segment 1 (snippet lines 2-5) cannot be placed: its last line `}` occurs at 3 places in \
         the file (lines 5, 9, 13) and no longer run of its lines is unique. Add unchanged lines \
         next to it that occur only once in the file, such as the header of the enclosing \
         function or class."
    );
    let lines: Vec<usize> = err
        .matches()
        .expect("matches")
        .iter()
        .map(|m| m.line())
        .collect();
    assert_eq!(lines, vec![5, 9, 13]);
}

#[test]
fn a_snippet_without_markers_is_the_whole_file() {
    let whole = "package main\n// Retry when ready...\n";
    assert_eq!(apply_lazy(whole, FILE, &go()), Ok(whole.to_owned()));
    assert_eq!(apply_lazy("", FILE, &go()), Ok(String::new()));
}

#[test]
fn crlf_files_keep_their_line_endings_and_a_missing_final_newline() {
    let crlf = FILE.replace('\n', "\r\n");
    let snippet = "// ...\r\nfunc b() {\r\n\ttwo(2)\r\n}\r\n\r\nfunc c() {\r\n// ...\r\n";
    let merged = apply_lazy(snippet, &crlf, &go()).expect("merged");
    assert_eq!(merged, crlf.replace("two()", "two(2)"));
    let open = "a()\nb()\nc()";
    let merged = apply_lazy("// ...\nb()\nc()\nd()\n", open, &go()).expect("appended");
    assert_eq!(merged, "a()\nb()\nc()\nd()\n");
    let merged = apply_lazy("a()\nb2()\nc()\n// ...\n", open, &go()).expect("kept open");
    assert_eq!(merged, "a()\nb2()\nc()");
}

#[test]
fn deletion_comments_remove_the_named_definition() {
    let snippet = "// ...\n// removed b\n// ...\n";
    let merged = apply_lazy(snippet, FILE, &go()).expect("deleted");
    assert_eq!(merged, FILE.replace("func b() {\n\ttwo()\n}\n\n", ""));
    let inline = "// ...\n\tone()\n}\n\n// removed b\n\nfunc c() {\n// ...\n";
    assert_eq!(apply_lazy(inline, FILE, &go()), Ok(merged));
    // An inline deletion comment in a segment that does not cover the definition is refused,
    // not ignored.
    let elsewhere = "// ...\n}\n\n// removed b\n\nfunc c() {\n// ...\n";
    let err = apply_lazy(elsewhere, FILE, &go()).unwrap_err();
    assert_eq!(err.code(), "lazy_conflict");
    assert!(
        err.message()
            .contains("but `b` is not among those lines (it is defined at line 7)"),
        "{err}"
    );
    let err = apply_lazy("// ...\n// removed nope\n// ...\n", FILE, &go()).unwrap_err();
    assert_eq!(err.code(), "lazy_no_anchor");
    assert!(
        err.message()
            .contains("no definition in the file is called `nope`"),
        "{err}"
    );
}

#[test]
fn a_silently_dropped_definition_is_refused() {
    let snippet = "// ...\nfunc a() {\n\tone()\n}\n\nfunc c() {\n\tthree()\n}\n";
    let err = apply_lazy(snippet, FILE, &go()).unwrap_err();
    assert_eq!(err.code(), "lazy_silent_deletion");
    assert_eq!(
        err.message(),
        "segment 1 (snippet lines 2-8) replaces file lines 3-13 but leaves out the definition \
         `b` (line 7) without saying so. To delete it, write `// removed b` where it was; to \
         keep it, write `// ... existing code ...` where it stands."
    );
}

#[test]
fn ambiguous_anchors_are_refused_with_the_candidates() {
    let file = "x = 1\ny = 2\nx = 1\n";
    let err = apply_lazy(
        "# ...\nx = 1\nz = 3\n# ...\n",
        file,
        &LazyOptions::new().path("a.py"),
    )
    .unwrap_err();
    assert_eq!(err.code(), "lazy_ambiguous");
    let lines: Vec<usize> = err
        .matches()
        .expect("matches")
        .iter()
        .map(|m| m.line())
        .collect();
    assert_eq!(lines, vec![1, 3]);
    assert!(
        err.message().contains("its last line `z = 3` occurs nowhere in the file, and its first line `x = 1` occurs at 2 places in the file (lines 1, 3)"),
        "{err}"
    );
    // A segment that occurs twice as it is changes nothing: skipped, not refused.
    assert_eq!(
        apply_lazy(
            "# ...\nx = 1\n# ...\n",
            file,
            &LazyOptions::new().path("a.py")
        ),
        Ok(file.to_owned())
    );
}

#[test]
fn segments_out_of_order_are_refused() {
    let snippet = "// ...\nfunc c() {\n\tthree()\n}\n// ...\nfunc a() {\n\tone()\n}\n// ...\n";
    let err = apply_lazy(snippet, FILE, &go()).unwrap_err();
    assert_eq!(err.code(), "lazy_conflict");
    assert!(err.message().starts_with("segment 2 (snippet lines 6-8) matches file lines 3-5, but segment 1 (snippet lines 2-4) before it matches file lines 11-13"), "{err}");
}

#[test]
fn drifted_indentation_is_mapped_or_refused() {
    let snippet = "// ...\n    two()\n    more()\n}\n\nfunc c() {\n// ...\n";
    let merged = apply_lazy(snippet, FILE, &go()).expect("tabs");
    assert_eq!(merged, FILE.replace("\ttwo()\n", "\ttwo()\n\tmore()\n"));
    let file =
        "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n";
    let bad = "# ...\n  def f(self):\n      return 10\n\n    def g(self):\n# ...\n";
    let err = apply_lazy(bad, file, &LazyOptions::new().path("a.py")).unwrap_err();
    assert_eq!(err.code(), "lazy_indentation");
}

#[test]
fn absent_anchors_and_empty_snippets_are_refused() {
    let err = apply_lazy("// ...\nfunc d() {\n}\n// ...\n", FILE, &go()).unwrap_err();
    assert_eq!(err.code(), "lazy_ambiguous");
    let err = apply_lazy("// ...\nnothing()\n// ...\n", FILE, &go()).unwrap_err();
    assert_eq!(err.code(), "lazy_no_anchor");
    assert!(
        err.message()
            .contains("its first line `nothing()` occurs nowhere"),
        "{err}"
    );
    let err = apply_lazy("// ...\n\n// ... existing code ...\n", FILE, &go()).unwrap_err();
    assert_eq!(err.code(), "lazy_no_anchor");
    let err = apply_lazy("// ...\nx\n// ...\n", "", &go()).unwrap_err();
    assert_eq!(err.code(), "lazy_no_anchor");
}

#[test]
fn the_language_decides_what_a_marker_is() {
    let file = "a = 1\nb = 2\nc = 3\n";
    // In Python `// ...` is code: the snippet is the whole file.
    let snippet = "// ...\nb = 20\n";
    assert_eq!(
        apply_lazy(snippet, file, &LazyOptions::new().path("x.py")),
        Ok(snippet.to_owned())
    );
    let err = apply_lazy(snippet, file, &LazyOptions::new().path("x.ts")).unwrap_err();
    assert_eq!(err.code(), "lazy_no_anchor");
    assert_eq!(
        apply_lazy("# ...\nb = 2\nb2 = 3\nc = 3\n", file, &LazyOptions::new()),
        Ok("a = 1\nb = 2\nb2 = 3\nc = 3\n".to_owned())
    );
}

#[test]
fn is_lazy_tells_markers_from_whole_files() {
    assert!(is_lazy("// ...\nx\n", &go()));
    assert!(is_lazy("x\n// removed f\n", &go()));
    assert!(!is_lazy("x\n// Retry...\n", &go()));
    assert!(!is_lazy("// ...\nx\n", &LazyOptions::new().path("a.py")));
    assert!(is_lazy("x\n    ...\n", &LazyOptions::new().path("a.py")));
}

#[test]
fn options_resolve_the_language() {
    assert_eq!(LazyOptions::new().resolved_language(), Language::Other);
    assert_eq!(
        LazyOptions::new().path("x.rs").resolved_language(),
        Language::Rust
    );
    let both = LazyOptions::new().path("x.rs").language(Language::Java);
    assert_eq!(both.resolved_language(), Language::Java);
}

#[test]
fn types_cross_threads() {
    fn check<T: Send + Sync + 'static>() {}
    check::<LazyOptions>();
    check::<Language>();
}

/// A file of `blocks` blocks of ten lines, nine of them repeated in every block, and a snippet
/// with one segment per second block: each segment is the block's repeated lines followed by
/// the next block's header, so only its whole length is unique. A merge that counted the
/// occurrences of each prefix by scanning would cost blocks² here.
fn repetitive(blocks: usize) -> (String, String) {
    let mut file = String::new();
    let mut snippet = String::from("// ...\n");
    for k in 0..blocks {
        file.push_str(&format!("func f{k}() {{\n"));
        let body = "\tx()\n}\n\n}\n\n\tx()\n}\n\n\n";
        file.push_str(body);
        if k % 2 == 0 && k + 1 < blocks {
            snippet.push_str(&body.replacen("\tx()\n", "", 1)[..]);
            snippet.push_str(&format!("func f{}() {{\n// ...\n", k + 1));
        }
    }
    (file, snippet)
}

#[test]
fn the_cost_is_linear_in_the_file_plus_the_snippet() {
    let mut work = Vec::new();
    for blocks in [200, 800, 3200] {
        let (file, snippet) = repetitive(blocks);
        Work::Lazy.take();
        let merged = apply_lazy(&snippet, &file, &go()).expect("merged");
        let spent = Work::Lazy.take();
        assert_eq!(merged, file);
        let lines = file.lines().count() + snippet.lines().count();
        assert!(spent <= 20 * lines, "{spent} steps for {lines} lines");
        work.push(spent);
    }
    // Four times the input, about four times the work.
    assert!(work[1] <= 5 * work[0] && work[2] <= 5 * work[1], "{work:?}");
}

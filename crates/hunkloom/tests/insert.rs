//! `ops::insert` in both conventions, and its relation to Roo's `insert_content`.

use hunkloom::ops::{Convention, Normalization, insert, insert_content};
use proptest::prelude::*;

/// `(content, line, text, convention, expected content, expected first-edit lines)`.
type Row = (
    &'static str,
    usize,
    &'static str,
    &'static str,
    &'static str,
    (usize, usize),
);

const ROWS: &[Row] = &[
    // Before: Roo's numbering; 0 or past the end appends.
    ("a\nb\nc\n", 1, "x", "before", "x\na\nb\nc\n", (1, 1)),
    ("a\nb\nc\n", 2, "x\ny", "before", "a\nx\ny\nb\nc\n", (2, 3)),
    ("a\nb\nc\n", 3, "x", "before", "a\nb\nx\nc\n", (3, 3)),
    ("a\nb\nc\n", 4, "x", "before", "a\nb\nc\nx\n", (4, 4)),
    ("a\nb\nc\n", 0, "x", "before", "a\nb\nc\nx\n", (4, 4)),
    ("a\nb\nc\n", 99, "x", "before", "a\nb\nc\nx\n", (4, 4)),
    ("a\nb\nc", 0, "x", "before", "a\nb\nc\nx", (4, 4)),
    ("", 0, "x", "before", "x", (1, 1)),
    ("", 1, "x\ny", "before", "x\ny", (1, 2)),
    ("a\nb\n", 2, "x\n", "before", "a\nx\nb\n", (2, 2)),
    ("a\nb\n", 2, "", "before", "a\n\nb\n", (2, 2)),
    // After: Anthropic's numbering; 0 is the top.
    ("a\nb\nc\n", 0, "x", "after", "x\na\nb\nc\n", (1, 1)),
    ("a\nb\nc\n", 1, "x", "after", "a\nx\nb\nc\n", (2, 2)),
    ("a\nb\nc\n", 3, "x\ny", "after", "a\nb\nc\nx\ny\n", (4, 5)),
    ("a\nb\nc", 3, "x", "after", "a\nb\nc\nx", (4, 4)),
    ("", 0, "x", "after", "x", (1, 1)),
    // Line endings come from the file, in both conventions.
    (
        "a\r\nb\r\n",
        2,
        "x\ny",
        "before",
        "a\r\nx\r\ny\r\nb\r\n",
        (2, 3),
    ),
    ("a\r\nb\r\n", 0, "x", "before", "a\r\nb\r\nx\r\n", (3, 3)),
    ("a\r\nb", 0, "x", "before", "a\r\nb\r\nx", (3, 3)),
    (
        "a\r\nb\r\n",
        1,
        "x\ny",
        "after",
        "a\r\nx\r\ny\r\nb\r\n",
        (2, 3),
    ),
    ("a\r\nb", 2, "x", "after", "a\r\nb\r\nx", (3, 3)),
    ("a\nb\n", 1, "x\r\ny\r\n", "after", "a\nx\ny\nb\n", (2, 3)),
];

#[test]
fn both_conventions() {
    let mut failures = Vec::new();
    for &(content, line, text, convention, want, lines) in ROWS {
        let convention: Convention = convention.parse().unwrap();
        match insert(content, line, text, convention) {
            Ok(edit)
                if edit.new_content == want
                    && (edit.first_edit.start, edit.first_edit.end) == lines => {}
            got => failures.push(format!("{content:?} {convention} {line} {text:?}: {got:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn converted_line_endings_are_reported() {
    let edit = insert("a\r\nb\r\n", 1, "x\ny", Convention::After).unwrap();
    assert_eq!(edit.normalizations, [Normalization::LineEndings]);
    let edit = insert("a\r\nb\r\n", 1, "x\r\ny", Convention::After).unwrap();
    assert!(edit.normalizations.is_empty());
}

#[test]
fn after_past_the_end_names_the_valid_range() {
    for (content, line, range) in [("a\nb\nc\n", 4, 3), ("a\nb", 3, 2), ("", 1, 0)] {
        let e = insert(content, line, "x", Convention::After).unwrap_err();
        assert_eq!(e.code(), "invalid_line");
        assert_eq!(
            e.message(),
            format!(
                "Invalid `insert_line` parameter: {line}. It should be within the range of lines \
                 of the file: [0, {range}]"
            )
        );
    }
}

#[test]
fn convention_names_are_checked() {
    let e = "above".parse::<Convention>().unwrap_err();
    assert_eq!(e.code(), "invalid_convention");
}

proptest! {
    /// Where Roo's `\n`-separator model and real line endings agree (an LF file, a text without a
    /// final newline, a line inside the file), `insert_content` is `insert(.., Before)`.
    #[test]
    fn insert_content_is_insert_before_inside_lf_files(
        lines in prop::collection::vec("[ab ]{0,3}", 1..6),
        final_newline in any::<bool>(),
        line in any::<prop::sample::Index>(),
        text in "[xy]{0,2}(\n[xy]{1,2}){0,2}",
    ) {
        let mut content = lines.join("\n");
        if final_newline {
            content.push('\n');
        }
        // Lines as `insert` counts them: a final newline does not start another.
        let count = content.matches('\n').count() + usize::from(!content.is_empty() && !content.ends_with('\n'));
        prop_assume!(count > 0);
        let line = 1 + line.index(count);
        let roo = insert_content(Some(&content), line, Some(&text)).unwrap();
        let ours = insert(&content, line, &text, Convention::Before).unwrap();
        prop_assert_eq!(roo.new_content, ours.new_content);
    }
}

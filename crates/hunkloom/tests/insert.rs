//! `ops::insert` in both conventions, and its relation to Roo's `insert_content`.

use hunkloom::ops::{
    Convention, InsertOptions, LineModel, Normalization, insert, insert_content, insert_with,
};
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

/// `(content, line, text, expected)` for [`LineModel::SplitOnNewline`] (after-convention), as the
/// Anthropic vectors record it.
const SPLIT_ROWS: &[(&str, i64, &str, &str)] = &[
    // A final `\n` is followed by an empty last line, which can be inserted after.
    ("a\nb\n", 2, "x", "a\nb\nx\n"),
    ("a\nb\n", 3, "x", "a\nb\n\nx"),
    // A file without a final newline gets the text on a new line.
    ("a\nb", 2, "x", "a\nb\nx"),
    // A text ending in `\n` adds an empty line; an empty text is one empty line.
    ("a\nb", 1, "x\n", "a\nx\n\nb"),
    ("a\nb", 0, "", "\na\nb"),
    // An empty file is one empty line: 0 and 1 are valid.
    ("", 0, "x", "x\n"),
    ("", 1, "x", "\nx"),
    // `\r` is content.
    ("a\r\nb", 1, "x", "a\r\nx\nb"),
];

/// `(content, line, text, expected)` for [`LineModel::TextFile`], as the OpenHands vectors
/// record it.
const TEXT_FILE_ROWS: &[(&str, i64, &str, &str)] = &[
    ("a\nb\n", 2, "x", "a\nb\nx\n"),
    ("a\nb\n", 0, "x", "x\na\nb\n"),
    // After an unterminated last line the text joins it.
    ("a\nb", 2, "x", "a\nbx\n"),
    ("a\nb", 1, "x\n", "a\nx\n\nb"),
    ("", 0, "x", "x\n"),
    ("", 0, "", "\n"),
];

#[test]
fn split_and_text_file_models() {
    let mut failures = Vec::new();
    for (model, rows) in [
        (LineModel::SplitOnNewline, SPLIT_ROWS),
        (LineModel::TextFile, TEXT_FILE_ROWS),
    ] {
        let options = InsertOptions::new().model(model);
        for &(content, line, text, want) in rows {
            match insert_with(content, line, text, &options) {
                Ok(edit) if edit.new_content == want => {}
                got => failures.push(format!("{model} {content:?} {line} {text:?}: {got:?}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn line_counts_per_model() {
    for (content, lines, split) in [("", 0, 1), ("a", 1, 1), ("a\n", 1, 2), ("a\nb", 2, 2)] {
        assert_eq!(LineModel::Lines.line_count(content), lines, "{content:?}");
        assert_eq!(
            LineModel::TextFile.line_count(content),
            lines,
            "{content:?}"
        );
        assert_eq!(
            LineModel::SplitOnNewline.line_count(content),
            split,
            "{content:?}"
        );
    }
}

#[test]
fn negative_and_past_the_end_lines_are_invalid_line_in_every_model() {
    for &model in LineModel::ALL {
        for convention in [Convention::After, Convention::Before] {
            let options = InsertOptions::new().model(model).convention(convention);
            for line in [-1, i64::MIN] {
                let e = insert_with("a\nb\n", line, "x", &options).unwrap_err();
                assert_eq!(e.code(), "invalid_line", "{model} {convention} {line}");
                assert!(e.message().contains(&line.to_string()), "{}", e.message());
            }
        }
        let after = InsertOptions::new().model(model);
        let count = model.line_count("a\nb\n");
        let e = insert_with("a\nb\n", i64::MAX, "x", &after).unwrap_err();
        assert_eq!(e.code(), "invalid_line");
        let e = insert_with("a\nb\n", count as i64 + 1, "x", &after).unwrap_err();
        assert_eq!(
            e.message(),
            format!(
                "Invalid `insert_line` parameter: {}. It should be within the range of lines of \
                 the file: [0, {count}]",
                count + 1
            )
        );
    }
    // The message of a negative line is the reference's, range included.
    let split = InsertOptions::new().model(LineModel::SplitOnNewline);
    assert_eq!(
        insert_with("a\nb\n", -3, "x", &split)
            .unwrap_err()
            .message(),
        "Invalid `insert_line` parameter: -3. It should be within the range of lines of the file: \
         [0, 3]"
    );
}

#[test]
fn line_model_names_round_trip() {
    for &model in LineModel::ALL {
        assert_eq!(model.as_str().parse::<LineModel>(), Ok(model));
    }
    assert_eq!(
        "split".parse::<LineModel>().unwrap_err().code(),
        "invalid_convention"
    );
}

/// The naive split model: Python's `"\n".join(lines[:n] + text.split("\n") + lines[n:])`.
fn naive_split(content: &str, line: usize, text: &str) -> String {
    let lines: Vec<&str> = content.split('\n').collect();
    let mut out: Vec<&str> = lines[..line].to_vec();
    out.extend(text.split('\n'));
    out.extend(&lines[line..]);
    out.join("\n")
}

/// The naive text-file model: the file's lines as Python iterates them, each piece of the text
/// followed by `\n`.
fn naive_text_file(content: &str, line: usize, text: &str) -> String {
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let mut out: String = lines[..line].concat();
    for piece in text.split('\n') {
        out.push_str(piece);
        out.push('\n');
    }
    out.push_str(&lines[line..].concat());
    out
}

proptest! {
    #[test]
    fn split_models_agree_with_their_naive_oracles(
        content in "[ab\r\n]{0,12}",
        text in "[xy\n]{0,6}",
        line in any::<prop::sample::Index>(),
    ) {
        for (model, naive) in [
            (LineModel::SplitOnNewline, naive_split as fn(&str, usize, &str) -> String),
            (LineModel::TextFile, naive_text_file),
        ] {
            let count = model.line_count(&content);
            let line = line.index(count + 1);
            let options = InsertOptions::new().model(model);
            let edit = insert_with(&content, line as i64, &text, &options).unwrap();
            prop_assert_eq!(&edit.new_content, &naive(&content, line, &text), "{}", model);
            // The first edited line follows the `line` lines kept before, except that the
            // text-file model joins the text onto an unterminated last line.
            let kept: String = content.split_inclusive('\n').take(line).collect();
            let start = if model == LineModel::TextFile && !kept.is_empty() && !kept.ends_with('\n') {
                line
            } else {
                line + 1
            };
            prop_assert_eq!(edit.first_edit.start, start);
            prop_assert_eq!(edit.first_edit.end, start + text.matches('\n').count());
            prop_assert!(insert_with(&content, count as i64 + 1, &text, &options).is_err());
        }
    }
}

//! Inserting whole lines, in either convention, in one of three line models.
//!
//! See [`LineModel`] for how each model counts lines and lays out the text.
//!
//! A line number is signed so that a negative one is error `invalid_line` like any other line
//! out of range (bindings pass the model's number through unchanged).

use super::{Convention, Edit, Normalization, line_range};
use crate::error::{Error, ErrorKind, Result};

/// How [`insert_with`] counts a file's lines and lays out the inserted text. The two reference
/// text editors differ from each other and from hunkloom's own model at the end of a file, so
/// each is explicit.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LineModel {
    /// hunkloom's own: lines end with `\n` or `\r\n`, a final line ending does not start another
    /// line (`"a\nb\n"` has two lines); one trailing line ending of the text is dropped (`""` is
    /// one empty line), its lines take the file's line ending, and whether the file ends with a
    /// line ending is kept.
    #[default]
    Lines,
    /// Anthropic's text editor: the file is `content.split('\n')` (one line more than it has
    /// `\n`: after a final `\n` comes an empty last line, and an empty file is one empty line),
    /// the text is `text.split('\n')`, and all lines are joined with `\n`. So a text ending in
    /// `\n` adds an empty line, and inserting after the last line of a file ending in `\n`
    /// appends after that `\n`.
    SplitOnNewline,
    /// OpenHands' editor, which reads files the way Python iterates a text file: lines are
    /// counted as in [`Lines`](LineModel::Lines), the file's lines are copied as they are, and
    /// each piece of `text.split('\n')` is written followed by `\n`. So a text ending in `\n`
    /// adds an empty line, and inserting after an unterminated last line joins the text onto it.
    TextFile,
}

crate::names!(
    LineModel {
        Lines => "lines",
        SplitOnNewline => "split_on_newline",
        TextFile => "text_file",
    },
    parse: InvalidConvention,
    "insert line model"
);

impl LineModel {
    /// How many lines `content` has in this model: the valid [`Convention::After`] lines are
    /// `0..=line_count`.
    pub fn line_count(self, content: &str) -> usize {
        match self {
            LineModel::Lines | LineModel::TextFile => count_lines(content),
            LineModel::SplitOnNewline => memchr::memchr_iter(b'\n', content.as_bytes()).count() + 1,
        }
    }
}

/// Options of [`insert_with`].
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InsertOptions {
    /// Before or after the line (default [`Convention::After`]).
    pub convention: Convention,
    /// How lines are counted and the text laid out (default [`LineModel::Lines`]).
    pub model: LineModel,
}

impl Default for InsertOptions {
    fn default() -> Self {
        InsertOptions {
            convention: Convention::After,
            model: LineModel::Lines,
        }
    }
}

impl InsertOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the [`convention`](Self::convention).
    pub fn convention(mut self, convention: Convention) -> Self {
        self.convention = convention;
        self
    }

    /// Sets the line [`model`](Self::model).
    pub fn model(mut self, model: LineModel) -> Self {
        self.model = model;
        self
    }
}

/// Inserts `text` as whole lines into `content` at `line`, counted by `convention`, in
/// [`LineModel::Lines`].
///
/// - [`Convention::Before`]: before 1-based line `line`; `0` or a line past the end appends.
/// - [`Convention::After`]: after line `line`; `0` inserts at the top; a line past the end is
///   error `invalid_line`, whose message names the valid range.
pub fn insert(content: &str, line: usize, text: &str, convention: Convention) -> Result<Edit> {
    let line = i64::try_from(line).unwrap_or(i64::MAX);
    insert_with(
        content,
        line,
        text,
        &InsertOptions::new().convention(convention),
    )
}

/// Inserts `text` into `content` at `line`, counted by the options' convention, laid out by
/// their [`LineModel`].
///
/// A negative `line`, or (after-convention) a line past the model's
/// [`line_count`](LineModel::line_count), is error `invalid_line`; its message names the valid
/// range (`Invalid \`insert_line\` parameter: 9. It should be within the range of lines of the
/// file: [0, 4]`).
pub fn insert_with(content: &str, line: i64, text: &str, options: &InsertOptions) -> Result<Edit> {
    crate::memory::reserve(
        crate::memory::WORKING_COPIES.saturating_mul(content.len() + text.len()),
        "the insert",
    )?;
    let lines = options.model.line_count(content);
    let invalid = || {
        let message = match options.convention {
            Convention::After => format!(
                "Invalid `insert_line` parameter: {line}. It should be within the range of \
                 lines of the file: [0, {lines}]"
            ),
            Convention::Before => format!(
                "Invalid line {line}: it should be a line number from 1 (the text goes before \
                 that line), or 0 to append"
            ),
        };
        Error::new(ErrorKind::InvalidLine, message)
    };
    let Ok(line) = usize::try_from(line) else {
        return Err(invalid());
    };
    // The number of file lines that stay before the inserted ones.
    let boundary = match options.convention {
        Convention::Before if line == 0 || line > lines => lines,
        Convention::Before => line - 1,
        Convention::After if line > lines => return Err(invalid()),
        Convention::After => line,
    };
    Ok(match options.model {
        LineModel::Lines => insert_lines(content, boundary, text),
        LineModel::SplitOnNewline => insert_split(content, boundary, lines, text),
        LineModel::TextFile => insert_text_file(content, boundary, text),
    })
}

/// [`LineModel::SplitOnNewline`]: `boundary` of the `lines` pieces of `content` stay before.
fn insert_split(content: &str, boundary: usize, lines: usize, text: &str) -> Edit {
    let mut out = String::with_capacity(content.len() + text.len() + 1);
    let first_edit;
    if boundary == lines {
        out.push_str(content);
        out.push('\n');
        first_edit = line_range(&out, text);
        out.push_str(text);
    } else {
        let at = offset_after_lines(content, boundary);
        out.push_str(&content[..at]);
        first_edit = line_range(&out, text);
        out.push_str(text);
        out.push('\n');
        out.push_str(&content[at..]);
    }
    Edit {
        new_content: out,
        replacements: 1,
        normalizations: Vec::new(),
        first_edit: whole_text_lines(first_edit, text),
    }
}

/// [`LineModel::TextFile`]: `boundary` lines of `content` stay before.
fn insert_text_file(content: &str, boundary: usize, text: &str) -> Edit {
    let at = offset_after_lines(content, boundary);
    let mut out = String::with_capacity(content.len() + text.len() + 1);
    out.push_str(&content[..at]);
    let first_edit = whole_text_lines(line_range(&out, text), text);
    out.push_str(text);
    out.push('\n');
    out.push_str(&content[at..]);
    Edit {
        new_content: out,
        replacements: 1,
        normalizations: Vec::new(),
        first_edit,
    }
}

/// `range` (from [`line_range`], which drops one trailing `\n` of the text) widened to every
/// piece of `text.split('\n')`, as the split models write them all.
fn whole_text_lines(range: super::LineRange, text: &str) -> super::LineRange {
    super::LineRange {
        start: range.start,
        end: range.start + memchr::memchr_iter(b'\n', text.as_bytes()).count(),
    }
}

/// [`LineModel::Lines`]: `boundary` lines of `content` stay before.
fn insert_lines(content: &str, boundary: usize, text: &str) -> Edit {
    let eol = first_eol(content)
        .or_else(|| first_eol(text))
        .unwrap_or("\n");
    let (body, trailing_eol) = match text.strip_suffix("\r\n") {
        Some(body) => (body, Some("\r\n")),
        None => match text.strip_suffix('\n') {
            Some(body) => (body, Some("\n")),
            None => (text, None),
        },
    };
    let mut converted = trailing_eol.is_some_and(|e| e != eol);
    let mut joined = String::with_capacity(body.len() + 16);
    let mut pieces = body.split('\n').peekable();
    while let Some(piece) = pieces.next() {
        if pieces.peek().is_none() {
            // The last piece has no ending; a `\r` there is content.
            joined.push_str(piece);
            break;
        }
        let (piece, crlf) = piece
            .strip_suffix('\r')
            .map_or((piece, false), |p| (p, true));
        converted |= crlf != (eol == "\r\n");
        joined.push_str(piece);
        joined.push_str(eol);
    }

    let at = offset_after_lines(content, boundary);
    let mut out = String::with_capacity(content.len() + joined.len() + 2);
    out.push_str(&content[..at]);
    if at == content.len() && !content.is_empty() && !content.ends_with('\n') {
        // After a last line without an ending: end that line, keep the file unterminated.
        out.push_str(eol);
    }
    let first_edit = line_range(&out, &joined);
    out.push_str(&joined);
    if at < content.len() || content.ends_with('\n') {
        out.push_str(eol);
    }
    out.push_str(&content[at..]);
    Edit {
        new_content: out,
        replacements: 1,
        normalizations: if converted {
            vec![Normalization::LineEndings]
        } else {
            Vec::new()
        },
        first_edit,
    }
}

/// Lines in `content`, a final line ending not starting another.
fn count_lines(content: &str) -> usize {
    let newlines = memchr::memchr_iter(b'\n', content.as_bytes()).count();
    newlines + usize::from(!content.is_empty() && !content.ends_with('\n'))
}

/// The byte offset just after the first `n` lines (their endings included).
fn offset_after_lines(content: &str, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    memchr::memchr_iter(b'\n', content.as_bytes())
        .nth(n - 1)
        .map_or(content.len(), |i| i + 1)
}

/// The first line ending of `s`, if any.
fn first_eol(s: &str) -> Option<&'static str> {
    let i = memchr::memchr(b'\n', s.as_bytes())?;
    Some(if i > 0 && s.as_bytes()[i - 1] == b'\r' {
        "\r\n"
    } else {
        "\n"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ins(content: &str, line: usize, text: &str, c: Convention) -> String {
        insert(content, line, text, c).unwrap().new_content
    }

    #[test]
    fn line_counting() {
        assert_eq!(count_lines(""), 0);
        assert_eq!(count_lines("a"), 1);
        assert_eq!(count_lines("a\n"), 1);
        assert_eq!(count_lines("a\r\nb"), 2);
        assert_eq!(count_lines("\n\n"), 2);
    }

    #[test]
    fn text_line_endings_follow_the_file() {
        let e = insert("a\nb\n", 1, "x\r\ny\r\n", Convention::After).unwrap();
        assert_eq!(e.new_content, "a\nx\ny\nb\n");
        assert_eq!(e.normalizations, [Normalization::LineEndings]);
        let e = insert("a\r\n", 1, "x\r\ny", Convention::After).unwrap();
        assert_eq!(e.new_content, "a\r\nx\r\ny\r\n");
        assert!(e.normalizations.is_empty());
        // A file without line endings takes the text's.
        assert_eq!(ins("a", 1, "x\r\ny", Convention::After), "a\r\nx\r\ny");
        // A lone `\r` is content.
        assert_eq!(ins("a\n", 0, "x\ry", Convention::After), "x\ry\na\n");
    }

    #[test]
    fn ranges_point_at_the_inserted_lines() {
        let e = insert("a\nb", 2, "x\ny", Convention::After).unwrap();
        assert_eq!(e.new_content, "a\nb\nx\ny");
        assert_eq!((e.first_edit.start, e.first_edit.end), (3, 4));
        let e = insert("a\nb\n", 2, "x", Convention::Before).unwrap();
        assert_eq!((e.first_edit.start, e.first_edit.end), (2, 2));
    }
}

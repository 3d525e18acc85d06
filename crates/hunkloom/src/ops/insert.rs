//! Inserting whole lines, in either convention, in the file's own line endings.
//!
//! A file is a sequence of lines, each ended by `\n` or `\r\n` except possibly the last; a final
//! line ending does not start another line (`"a\nb\n"` has two lines). Inserted text is a sequence
//! of lines too: one trailing line ending of it is dropped (`"x\n"` is the line `x`; `""` is one
//! empty line), and its lines are joined with the file's line ending — the first one in the file,
//! or, in a file without any, the text's own first one, else `\n`. Whether the file ends with a
//! line ending is preserved.

use super::{Convention, Edit, Normalization, line_range};
use crate::error::{Error, ErrorKind, Result};

/// Inserts `text` as whole lines into `content` at `line`, counted by `convention`.
///
/// - [`Convention::Before`]: before 1-based line `line`; `0` or a line past the end appends.
/// - [`Convention::After`]: after line `line`; `0` inserts at the top; a line past the end is
///   error `invalid_line`, whose message names the valid range.
pub fn insert(content: &str, line: usize, text: &str, convention: Convention) -> Result<Edit> {
    let lines = count_lines(content);
    // The number of file lines that stay before the inserted ones.
    let boundary = match convention {
        Convention::Before if line == 0 || line > lines => lines,
        Convention::Before => line - 1,
        Convention::After if line > lines => {
            return Err(Error::new(
                ErrorKind::InvalidLine,
                format!(
                    "Invalid `insert_line` parameter: {line}. It should be within the range of \
                     lines of the file: [0, {lines}]"
                ),
            ));
        }
        Convention::After => line,
    };

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
    Ok(Edit {
        new_content: out,
        replacements: 1,
        normalizations: if converted {
            vec![Normalization::LineEndings]
        } else {
            Vec::new()
        },
        first_edit,
    })
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

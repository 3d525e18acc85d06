//! Roo Code's `insert_content` tool, reproduced observably (Roo removed it in December 2025;
//! agents built on it still send its calls).
//!
//! The tool computed `insertGroups(original.split("\n"), [{index: line - 1, elements:
//! content.split("\n")}]).join("\n")`: `\n` is a separator to it, not a line ending. So, unlike
//! [`insert`](super::insert) with [`Convention::Before`](super::Convention::Before), which
//! follows the same line numbering with real line endings, it
//! - joins inserted lines with `\n` even in a `\r\n` file;
//! - appends to a file ending in `\n` as `…\n\nX`: a blank line, and no final newline;
//! - inserts a text ending in `\n` with an extra blank line after it;
//! - gives `"X\n"` for line 1 of an existing empty file, `"\nX"` for line 0.
//!
//! [`insert_content`] reproduces exactly that, plus the tool's argument parsing and messages; the
//! rules are in `tests/vectors/ROO-README.md` and checked by `roo-insert-content.jsonl`.

use crate::error::{Error, ErrorKind, Result};
use crate::text::{is_js_whitespace, js_number_to_string};

/// The tool's `line` argument as it arrived: the XML protocol passes text, the native (JSON)
/// protocol a number, and it may be missing.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub enum LineArg {
    /// Text, read with JavaScript's `parseInt(s, 10)`: `"1.9"` is 1, `" 2 "` is 2, `"2abc"` is 2,
    /// `""` is invalid.
    Text(String),
    /// A JSON number, used as is (`1.5` behaves like 1).
    Number(f64),
    /// No argument (invalid).
    Missing,
}

impl From<&str> for LineArg {
    fn from(s: &str) -> Self {
        LineArg::Text(s.to_owned())
    }
}

impl From<String> for LineArg {
    fn from(s: String) -> Self {
        LineArg::Text(s)
    }
}

impl From<f64> for LineArg {
    fn from(n: f64) -> Self {
        LineArg::Number(n)
    }
}

macro_rules! line_arg_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for LineArg {
            fn from(n: $t) -> Self {
                // Exact for every line number a file can have (below 2^53).
                LineArg::Number(n as f64)
            }
        }
    )*};
}

line_arg_from_int!(i32, i64, u32, u64, usize);

impl<T: Into<LineArg>> From<Option<T>> for LineArg {
    fn from(v: Option<T>) -> Self {
        v.map_or(LineArg::Missing, Into::into)
    }
}

/// Whether `insert_content` created the file or changed an existing one (Roo's `editType`).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EditType {
    /// The file did not exist; its content is the inserted text.
    Create,
    /// The file existed.
    Modify,
}

impl EditType {
    /// Roo's name: `"create"` or `"modify"`.
    pub fn as_str(self) -> &'static str {
        match self {
            EditType::Create => "create",
            EditType::Modify => "modify",
        }
    }
}

/// What [`insert_content`] computed.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsertedContent {
    /// The file's new text, as the tool computed it.
    pub new_content: String,
    /// Whether the file was created or modified.
    pub edit_type: EditType,
}

/// Roo's `insert_content(path, line, content)` on a file whose text is `original` (`None`: the
/// file does not exist), byte-identical with the tool.
///
/// A missing `content` is an empty text (one empty line). Errors, with Roo's messages:
/// `invalid_line_number` (not a number, or negative) and `invalid_line_for_new_file` (a missing
/// file accepts only 0 and 1).
pub fn insert_content(
    original: Option<&str>,
    line: impl Into<LineArg>,
    content: Option<&str>,
) -> Result<InsertedContent> {
    let line = match line.into() {
        LineArg::Text(s) => js_parse_int(&s),
        LineArg::Number(n) => n,
        LineArg::Missing => f64::NAN,
    };
    if line.is_nan() || line < 0.0 {
        return Err(Error::new(
            ErrorKind::InvalidLineNumber,
            "Invalid line number. Must be a non-negative integer.",
        ));
    }
    let content = content.unwrap_or("");
    let Some(original) = original else {
        if line != 0.0 && line != 1.0 {
            return Err(Error::new(
                ErrorKind::InvalidLineForNewFile,
                format!(
                    "Cannot insert content at line {} into a non-existent file. For new files, \
                     'line' must be 0 (to append) or 1 (to insert at the beginning).",
                    js_number_to_string(line)
                ),
            ));
        }
        return Ok(InsertedContent {
            new_content: content.to_owned(),
            edit_type: EditType::Create,
        });
    };

    // insertGroups with index `line - 1`: -1 (line 0) appends; otherwise `slice` truncates the
    // index toward zero and clamps it to the number of `\n`-separated pieces.
    let pieces = 1 + memchr::memchr_iter(b'\n', original.as_bytes()).count();
    let index = if line == 0.0 {
        None
    } else {
        let k = (line - 1.0).trunc().max(0.0);
        // `as` saturates; anything at or past the end appends.
        Some(k as usize).filter(|&k| k < pieces)
    };
    let mut out = String::with_capacity(original.len() + content.len() + 1);
    match index {
        None => {
            out.push_str(original);
            out.push('\n');
            out.push_str(content);
        }
        Some(k) => {
            let at = if k == 0 {
                0
            } else {
                memchr::memchr_iter(b'\n', original.as_bytes())
                    .nth(k - 1)
                    .map_or(original.len(), |i| i + 1)
            };
            out.push_str(&original[..at]);
            out.push_str(content);
            out.push('\n');
            out.push_str(&original[at..]);
        }
    }
    Ok(InsertedContent {
        new_content: out,
        edit_type: EditType::Modify,
    })
}

/// One group of lines for [`insert_groups`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsertGroup {
    /// Where the group goes: before `original[index]`; `-1` appends after everything; other
    /// negative values count from the end, as JavaScript's `slice` does.
    pub index: i64,
    /// The lines to insert.
    pub elements: Vec<String>,
}

/// Roo's `insertGroups(original, groups)`, the array primitive behind `insert_content`, kept for
/// callers porting Roo's multi-group inserts and as the oracle [`insert_content`] is tested
/// against.
///
/// Groups are stable-sorted by index; groups at `-1` are appended at the end in their given
/// order; an index past the end appends.
pub fn insert_groups(original: &[&str], groups: &[InsertGroup]) -> Vec<String> {
    let mut placed: Vec<&InsertGroup> = groups.iter().filter(|g| g.index != -1).collect();
    placed.sort_by_key(|g| g.index);
    let len = original.len();
    // JavaScript's `slice` bound: negative counts from the end; clamped to [0, len].
    let bound = |i: i64| -> usize {
        if i < 0 {
            len.saturating_sub(usize::try_from(i.unsigned_abs()).unwrap_or(usize::MAX))
        } else {
            usize::try_from(i).unwrap_or(usize::MAX).min(len)
        }
    };
    let mut out: Vec<String> = Vec::with_capacity(len + groups.len());
    let mut last = 0;
    for group in placed {
        let end = bound(group.index);
        if last < end {
            out.extend(original[last..end].iter().map(|s| (*s).to_owned()));
        }
        out.extend(group.elements.iter().cloned());
        last = end;
    }
    out.extend(original[last.min(len)..].iter().map(|s| (*s).to_owned()));
    for group in groups.iter().filter(|g| g.index == -1) {
        out.extend(group.elements.iter().cloned());
    }
    out
}

/// JavaScript's `parseInt(s, 10)`: leading whitespace, an optional sign, then the longest run of
/// ASCII digits; `NaN` if there is none.
fn js_parse_int(s: &str) -> f64 {
    let s = s.trim_start_matches(is_js_whitespace);
    let (negative, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return f64::NAN;
    }
    // Rust's float parsing rounds correctly, as V8's parseInt does for decimal digits.
    let value: f64 = rest[..digits].parse().unwrap_or(f64::NAN);
    if negative { -value } else { value }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parse_int_like_javascript() {
        for (s, want) in [
            ("0", 0.0),
            ("12", 12.0),
            ("1.9", 1.0),
            (" 2 ", 2.0),
            ("2abc", 2.0),
            ("\u{FEFF}\t3", 3.0),
            ("-1", -1.0),
            ("+4", 4.0),
            ("0x1A", 0.0),
            ("007", 7.0),
        ] {
            assert_eq!(js_parse_int(s), want, "{s:?}");
        }
        for s in ["", "abc", "-", " ", "\u{0085}1", ".5"] {
            assert!(js_parse_int(s).is_nan(), "{s:?}");
        }
        assert!(js_parse_int("-0").is_sign_negative());
        assert_eq!(js_parse_int(&"9".repeat(400)), f64::INFINITY);
    }

    /// The tool as Roo wrote it, on arrays: the oracle for the direct splice.
    fn oracle(original: &str, line: f64, content: &str) -> String {
        let lines: Vec<&str> = original.split('\n').collect();
        let index = if line == 0.0 {
            -1
        } else {
            (line - 1.0).trunc().min(1e15) as i64
        };
        let group = InsertGroup {
            index,
            elements: content.split('\n').map(str::to_owned).collect(),
        };
        insert_groups(&lines, &[group]).join("\n")
    }

    proptest! {
        #[test]
        fn splice_equals_insert_groups(
            original in "[ab\n\r]{0,12}",
            line in prop_oneof![0.0..12.0f64, (0u32..12).prop_map(f64::from)],
            content in "[xy\n]{0,5}",
        ) {
            let got = insert_content(Some(&original), line, Some(&content)).unwrap();
            prop_assert_eq!(got.new_content, oracle(&original, line, &content));
        }
    }
}

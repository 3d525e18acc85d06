//! Tool-style edits over in-memory text: `str_replace`, line inserts, and Roo's `insert_content`.
//!
//! Agents edit files through tool calls as well as through diffs: Claude Code's Edit tool and
//! Anthropic's text editor tool call `str_replace(old, new)`, Roo called `insert_content` and
//! Anthropic's tool calls `insert`. Each has precise rules users depend on; they are pure functions
//! of the current text, so they live here and every binding shares them.
//!
//! - [`str_replace`]: Claude Code's edit semantics (exact match, then curly quotes folded, then
//!   API desanitisation; uniqueness unless `replace_all`; trailing whitespace and deletion rules),
//!   then the omission-placeholder guard ([`Guards`], on by default).
//!   [`str_replace_with`] also has the literal mode of the text-editor tools
//!   ([`MatchMode::Literal`]) and chooses the guards. Several matches are error
//!   `multiple_matches`, whose [`Error::matches`](crate::Error::matches) lists every place with its span and lines.
//! - [`write()`]: a whole-file write with the write-path content fixes and, for a file that
//!   exists, the omission-placeholder guard against its content ([`WriteOptions`];
//!   [`WriteOptions::cline`] is Cline's `write_to_file`, unguarded).
//! - [`insert`]: a line insert in either [`Convention`], in the file's own line endings;
//!   [`insert_with`] also takes the line models of Anthropic's and OpenHands' text editors
//!   ([`LineModel`]) and a signed line (a negative one is error `invalid_line`).
//! - [`insert_content`]: Roo's removed `insert_content` tool, byte for byte, argument parsing and
//!   messages included.
//!
//! # Example
//!
//! ```
//! use hunkloom::ops::{self, Convention};
//!
//! let file = "print(\u{201C}hi\u{201D})\n";
//! // The model typed straight quotes; the file has curly ones, and keeps them.
//! let edit = ops::str_replace(Some(file), "print(\"hi\")", "print(\"bye\")", false, Some("a.py"))?;
//! assert_eq!(edit.new_content, "print(\u{201C}bye\u{201D})\n");
//!
//! let edit = ops::insert("a\r\nb\r\n", 1, "x", Convention::After)?;
//! assert_eq!(edit.new_content, "a\r\nx\r\nb\r\n");
//! # Ok::<(), hunkloom::Error>(())
//! ```

pub mod damage;
mod desanitize;
mod guard;
mod insert;
mod quotes;
pub mod roo;
mod str_replace;

use std::fmt;

pub use desanitize::DESANITIZATIONS;
pub use guard::{Guards, WriteOptions, check_omission, write};
pub use insert::{InsertOptions, LineModel, insert, insert_with};
pub use roo::{EditType, InsertedContent, LineArg, insert_content};
pub use str_replace::{MatchMode, StrReplaceOptions, str_replace, str_replace_with};

/// The result of [`str_replace`] or [`insert`].
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The whole text after the edit.
    pub new_content: String,
    /// How many places were changed (1 unless `replace_all` replaced several).
    pub replacements: usize,
    /// The adjustments that were needed to apply the edit, in a fixed order, each at most once.
    pub normalizations: Vec<Normalization>,
    /// The lines of `new_content` the first change occupies, so hosts can show a snippet.
    pub first_edit: LineRange,
}

/// A 1-based, inclusive range of lines.
///
/// For a deletion `start == end` is the line where the removed text was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineRange {
    /// The first line (1-based).
    pub start: usize,
    /// The last line (1-based, inclusive, `>= start`).
    pub end: usize,
}

/// An adjustment an operation made so the model's text fits the file; reported so hosts can
/// tell the model (or a log) that its text was not used verbatim.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Normalization {
    /// Trailing whitespace was stripped from lines of the new text (not done for Markdown).
    TrailingWhitespace,
    /// The old text's `\n` line endings were matched as the file's `\r\n`, and the new text was
    /// written with `\r\n` too; for inserts, the text's line endings were converted to the file's.
    LineEndings,
    /// The old text matched only with curly quotes folded to straight ones; the new text was
    /// written in the file's quote style.
    CurlyQuotes,
    /// The old text matched only after mapping API-sanitised tags back (see [`DESANITIZATIONS`]).
    Desanitized,
    /// A deleted text that ended its line took its line ending with it.
    DeletedLineEnding,
    /// The edit was already in the file (a retried call, see [`damage`]): nothing changed, and
    /// [`Edit::replacements`] is 0.
    AlreadyApplied,
    /// Every line of the new text carried a file view's line-number prefix, and they were
    /// removed (see [`damage`]).
    ViewPrefixes,
}

impl Normalization {
    /// A stable snake_case name, as bindings report it.
    pub fn as_str(self) -> &'static str {
        match self {
            Normalization::TrailingWhitespace => "trailing_whitespace",
            Normalization::LineEndings => "line_endings",
            Normalization::CurlyQuotes => "curly_quotes",
            Normalization::Desanitized => "desanitized",
            Normalization::DeletedLineEnding => "deleted_line_ending",
            Normalization::AlreadyApplied => "already_applied",
            Normalization::ViewPrefixes => "view_prefixes",
        }
    }
}

impl fmt::Display for Normalization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which line an [`insert`] is relative to: the two conventions agents use, made explicit because
/// they differ by one line.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Convention {
    /// Roo's `insert_content`: the text goes before 1-based line N; 0 (or a line past the end)
    /// appends.
    Before,
    /// Anthropic's text editor `insert`: the text goes after line N; 0 puts it at the top; a line
    /// past the end is an error.
    After,
}

crate::names!(
    Convention {
        Before => "before",
        After => "after",
    },
    parse: InvalidConvention,
    "insert convention"
);

/// Adds `n` to `list` unless present, keeping the fixed order of [`Normalization`].
fn note(list: &mut Vec<Normalization>, n: Normalization) {
    if let Err(at) = list.binary_search(&n) {
        list.insert(at, n);
    }
}

/// The 1-based lines that `inserted` occupies when it follows `text_before` (the output so far).
fn line_range(text_before: &str, inserted: &str) -> LineRange {
    let start = 1 + memchr::memchr_iter(b'\n', text_before.as_bytes()).count();
    let body = inserted.strip_suffix('\n').unwrap_or(inserted);
    let end = start + memchr::memchr_iter(b'\n', body.as_bytes()).count();
    LineRange { start, end }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn convention_parses_its_names_only() {
        for c in Convention::ALL {
            assert_eq!(c.as_str().parse::<Convention>(), Ok(*c));
        }
        let err = "Before".parse::<Convention>().unwrap_err();
        assert_eq!(err.code(), "invalid_convention");
        assert_eq!(
            err.message(),
            "unknown insert convention 'Before': expected one of before, after"
        );
    }

    #[test]
    fn public_types_cross_threads() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Edit>();
        check::<Normalization>();
        check::<Convention>();
        check::<LineModel>();
        check::<InsertOptions>();
        check::<MatchMode>();
        check::<StrReplaceOptions>();
        check::<Guards>();
        check::<WriteOptions>();
        check::<LineArg>();
        check::<InsertedContent>();
    }

    #[test]
    fn note_keeps_order_and_uniqueness() {
        let mut list = Vec::new();
        note(&mut list, Normalization::CurlyQuotes);
        note(&mut list, Normalization::TrailingWhitespace);
        note(&mut list, Normalization::CurlyQuotes);
        assert_eq!(
            list,
            [
                Normalization::TrailingWhitespace,
                Normalization::CurlyQuotes
            ]
        );
    }
}

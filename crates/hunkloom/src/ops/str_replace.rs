//! `str_replace` with Claude Code's edit-tool semantics.
//!
//! # Finding the old text
//!
//! Tiers, first success wins; each tier counts all its non-overlapping matches, left to right:
//!
//! 1. the old text as given, then (in a file with `\r\n` endings, when the old text has bare `\n`)
//!    with its `\n` written `\r\n`;
//! 2. the same two with curly quotes folded to straight ones on both sides, each match mapped back
//!    to the file's own bytes ([`Normalization::CurlyQuotes`]);
//! 3. tiers 1 and 2 again for the old text with the API's short tags mapped back
//!    ([`DESANITIZATIONS`](super::DESANITIZATIONS)), if that changed it.
//!
//! # Writing the new text
//!
//! The new text gets, in order: trailing whitespace stripped from every line (unless the path is
//! Markdown, where two trailing spaces are a line break), the desanitisations that made the old
//! text match, `\r\n` line endings if those did, and the file's curly-quote style if folding did.
//! Deleting a text that starts a line and is followed by a line ending (after trailing spaces or
//! tabs, which go with it) removes that line ending too, so no empty line is left behind.
//!
//! Claude Code removes the newline after a deletion even when the deleted text starts mid-line,
//! joining two lines; hunkloom does it only for text that starts a line, which is what the rule
//! is for. Claude Code's `replace_all` after a curly-quote match replaces only copies of the first
//! match's exact spelling; hunkloom replaces every match of the tier.
//!
//! # The literal mode
//!
//! `MatchMode::Literal` does what the text-editor tools of Anthropic and OpenHands do: the old
//! text is found exactly as given (byte for byte, left to right, non-overlapping: tier 1 without
//! the `\r\n` spelling) and replaced by the new text exactly as given. Nothing is folded, stripped
//! or added; an old text equal to the new one is a no-op edit, not an error; an empty old text
//! creates only a file that is missing or empty (no whitespace allowance).
//!
//! # Several matches
//!
//! Without `replace_all`, an old text found more than once is error `multiple_matches`, whose
//! [`Error::matches`] lists every place (span and lines) in the searched content.

use std::borrow::Cow;

use memchr::memmem;

use super::desanitize;
use super::quotes::{self, Folded, Style};
use super::{Edit, Guards, LineRange, Normalization, line_range, note};
use crate::error::{Error, ErrorKind, Match, Result};
use crate::text::{js_trim, js_trim_end};

/// How [`str_replace_with`] finds and writes the text.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MatchMode {
    /// Claude Code's edit tool (see [`str_replace`]): the old text is found exactly, then with
    /// the file's `\r\n` endings, then with curly quotes folded, then desanitised; the new text
    /// loses trailing whitespace (not in Markdown) and takes the file's endings and quote style;
    /// a deleted text that starts a line takes its line ending with it; `old == new` is an error.
    #[default]
    ClaudeCode,
    /// What the text-editor tools of Anthropic and OpenHands do: the old text is found exactly as
    /// given (byte for byte, left to right, non-overlapping) and replaced by the new text exactly
    /// as given. Nothing is folded, stripped or added; an old text equal to the new one is a
    /// no-op edit, not an error; an empty old text creates only a file that is missing or empty
    /// (no whitespace allowance).
    Literal,
}

crate::names!(MatchMode {
    ClaudeCode => "claude_code",
    Literal => "literal",
});

/// Options of [`str_replace_with`].
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StrReplaceOptions {
    /// Replace every non-overlapping occurrence instead of requiring exactly one (default false).
    pub replace_all: bool,
    /// How the old text is found and the new one written (default [`MatchMode::ClaudeCode`]).
    pub mode: MatchMode,
    /// The file's path: only decides the trailing-whitespace rule of
    /// [`MatchMode::ClaudeCode`] (`.md` and `.mdx`, any case, keep it).
    pub path: Option<String>,
    /// The guards run on an edit that applies (default [`Guards::NATIVE`]): with
    /// [`Guards::omission_placeholders`], a `new` that elides lines of `old` with a placeholder
    /// line (`// ... existing code ...`) is refused with `omission_placeholder`. Drop-ins of
    /// other tools set [`Guards::NONE`].
    pub guards: Guards,
}

impl StrReplaceOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets [`replace_all`](Self::replace_all).
    pub fn replace_all(mut self, yes: bool) -> Self {
        self.replace_all = yes;
        self
    }

    /// Sets the [`mode`](Self::mode).
    pub fn mode(mut self, mode: MatchMode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets the [`path`](Self::path).
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets the [`guards`](Self::guards).
    pub fn guards(mut self, guards: Guards) -> Self {
        self.guards = guards;
        self
    }
}

/// Replaces `old` with `new` in `content` (`None`: the file does not exist), the way Claude
/// Code's edit tool does: [`str_replace_with`] in [`MatchMode::ClaudeCode`].
///
/// - An empty `old` creates the file: allowed when it does not exist or is empty (whitespace
///   only), else [`ErrorKind::FileExists`].
/// - `old` must occur exactly once unless `replace_all`, which replaces every non-overlapping
///   occurrence from left to right.
/// - `path` only decides the trailing-whitespace rule (`.md` and `.mdx`, any case, keep it).
///
/// Errors (codes): `old_equals_new`, `file_exists`, `file_not_found`, `not_found`,
/// `multiple_matches` (with [`Error::matches`]), with Claude Code's message texts; then the
/// omission-placeholder guard's `omission_placeholder` ([`Guards::NATIVE`]).
pub fn str_replace(
    content: Option<&str>,
    old: &str,
    new: &str,
    replace_all: bool,
    path: Option<&str>,
) -> Result<Edit> {
    let options = StrReplaceOptions {
        replace_all,
        mode: MatchMode::ClaudeCode,
        path: path.map(str::to_owned),
        guards: Guards::NATIVE,
    };
    str_replace_with(content, old, new, &options)
}

/// Replaces `old` with `new` in `content` (`None`: the file does not exist) in the chosen
/// [`MatchMode`]; see [`str_replace`] for the rules of the default mode and
/// [`MatchMode::Literal`] for the other.
///
/// Errors (codes): `old_equals_new` (not in the literal mode), `file_exists`, `file_not_found`,
/// `not_found`, `multiple_matches` (with [`Error::matches`]); then, for an edit that applies,
/// `omission_placeholder` from the [`guards`](StrReplaceOptions::guards).
pub fn str_replace_with(
    content: Option<&str>,
    old: &str,
    new: &str,
    options: &StrReplaceOptions,
) -> Result<Edit> {
    let size = content.map_or(0, str::len) + old.len() + new.len();
    crate::memory::reserve(
        crate::memory::WORKING_COPIES.saturating_mul(size),
        "the replacement",
    )?;
    let literal = options.mode == MatchMode::Literal;
    if old == new && !literal {
        return Err(Error::new(
            ErrorKind::OldEqualsNew,
            "No changes to make: old_string and new_string are exactly the same.",
        ));
    }
    let mut normalizations = Vec::new();
    let new = if literal || options.path.as_deref().is_some_and(is_markdown) {
        Cow::Borrowed(new)
    } else {
        let stripped = strip_trailing_whitespace(new);
        if stripped != new {
            note(&mut normalizations, Normalization::TrailingWhitespace);
        }
        stripped
    };

    if old.is_empty() {
        let has_content = |c: &str| {
            if literal {
                !c.is_empty()
            } else {
                !js_trim(c).is_empty()
            }
        };
        return match content {
            Some(c) if has_content(c) => Err(Error::new(
                ErrorKind::FileExists,
                "Cannot create new file - file already exists.",
            )),
            _ => Ok(Edit {
                first_edit: line_range("", &new),
                new_content: new.into_owned(),
                replacements: 1,
                normalizations,
            }),
        };
    }
    let content =
        content.ok_or_else(|| Error::new(ErrorKind::FileNotFound, "File does not exist."))?;

    let found = if literal {
        find_literal(content, old)
    } else {
        find(content, old)
    };
    let found = found.ok_or_else(|| {
        Error::new(
            ErrorKind::NotFound,
            format!("String to replace not found in file.\nString: {old}"),
        )
    })?;
    if found.spans.len() > 1 && !options.replace_all {
        return Err(Error::new(
            ErrorKind::MultipleMatches,
            format!(
                "Found {} matches of the string to replace, but replace_all is false. To replace \
                 all occurrences, set replace_all to true. To replace only one occurrence, please \
                 provide more context to uniquely identify the instance.",
                found.spans.len()
            ),
        )
        .with_matches(Match::all_in(content, &found.spans)));
    }
    let edit = splice(content, &new, found, normalizations, !literal);
    options.guards.check(old, &new, "new_string")?;
    Ok(edit)
}

/// Whether `path` is Markdown, where trailing spaces are meaningful.
fn is_markdown(path: &str) -> bool {
    let b = path.as_bytes();
    let ends = |suffix: &[u8]| {
        b.len() >= suffix.len() && b[b.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
    };
    ends(b".md") || ends(b".mdx")
}

/// `text` with trailing whitespace (JavaScript's set) removed from every line; line endings
/// (`\r\n`, `\n`, `\r`) are kept.
fn strip_trailing_whitespace(text: &str) -> Cow<'_, str> {
    let mut out = String::new();
    let mut changed = false;
    let mut rest = text;
    loop {
        let (line, eol, tail) = match rest.find(['\r', '\n']) {
            None => (rest, "", ""),
            Some(i) => {
                let eol_len = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                (&rest[..i], &rest[i..i + eol_len], &rest[i + eol_len..])
            }
        };
        let trimmed = js_trim_end(line);
        changed |= trimmed.len() != line.len();
        out.push_str(trimmed);
        out.push_str(eol);
        if eol.is_empty() {
            break;
        }
        rest = tail;
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// Where and how the old text was found.
struct Found {
    /// Byte spans in the file, ascending and disjoint.
    spans: Vec<(usize, usize)>,
    /// Desanitisation entries applied to the old text (to apply to the new one too).
    desanitized: Option<Vec<usize>>,
    /// The old text's `\n` was matched as `\r\n`.
    crlf: bool,
    /// Matched with curly quotes folded.
    folded: bool,
}

/// One spelling of the old text to search for.
struct Needle {
    text: String,
    desanitized: Option<Vec<usize>>,
    crlf: bool,
}

/// Runs the tiers described in the module doc.
fn find(content: &str, old: &str) -> Option<Found> {
    let crlf_file = memmem::find(content.as_bytes(), b"\r\n").is_some();
    let spellings = |text: String, desanitized: Option<Vec<usize>>| {
        let crlf = (crlf_file && has_bare_lf(&text)).then(|| lf_to_crlf(&text));
        let mut v = vec![Needle {
            text,
            desanitized: desanitized.clone(),
            crlf: false,
        }];
        if let Some(text) = crlf {
            v.push(Needle {
                text,
                desanitized,
                crlf: true,
            });
        }
        v
    };
    let mut folded_file: Option<Folded> = None;
    let mut groups = vec![spellings(old.to_owned(), None)];
    if let Some((text, applied)) = desanitize::desanitize(old) {
        groups.push(spellings(text, Some(applied)));
    }
    for group in groups {
        for needle in &group {
            let spans: Vec<(usize, usize)> = memmem::find_iter(content.as_bytes(), &needle.text)
                .map(|at| (at, at + needle.text.len()))
                .collect();
            if !spans.is_empty() {
                return Some(found(spans, needle, false));
            }
        }
        for needle in &group {
            if !quotes::has_quotes(&needle.text) {
                continue;
            }
            let folded = folded_file.get_or_insert_with(|| Folded::new(content));
            let pattern = quotes::fold(&needle.text);
            let spans: Vec<(usize, usize)> = memmem::find_iter(folded.text.as_bytes(), &pattern)
                .map(|at| {
                    (
                        folded.original_offset(at),
                        folded.original_offset(at + pattern.len()),
                    )
                })
                .collect();
            if !spans.is_empty() {
                return Some(found(spans, needle, true));
            }
        }
    }
    None
}

/// Every non-overlapping occurrence of `old`, exactly as given.
fn find_literal(content: &str, old: &str) -> Option<Found> {
    let spans: Vec<(usize, usize)> = memmem::find_iter(content.as_bytes(), old.as_bytes())
        .map(|at| (at, at + old.len()))
        .collect();
    (!spans.is_empty()).then_some(Found {
        spans,
        desanitized: None,
        crlf: false,
        folded: false,
    })
}

fn found(spans: Vec<(usize, usize)>, needle: &Needle, folded: bool) -> Found {
    Found {
        spans,
        desanitized: needle.desanitized.clone(),
        crlf: needle.crlf,
        folded,
    }
}

/// Whether `text` has a `\n` not preceded by `\r`.
fn has_bare_lf(text: &str) -> bool {
    memchr::memchr_iter(b'\n', text.as_bytes()).any(|i| i == 0 || text.as_bytes()[i - 1] != b'\r')
}

/// `text` with every bare `\n` written `\r\n`.
fn lf_to_crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut prev = '\0';
    for c in text.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
}

/// Builds the new content from the matches, in one pass over the file; `line_rule`: a deleted
/// text that starts a line takes its line ending with it.
fn splice(
    content: &str,
    new: &str,
    found: Found,
    mut normalizations: Vec<Normalization>,
    line_rule: bool,
) -> Edit {
    let mut replacement: Cow<'_, str> = Cow::Borrowed(new);
    if let Some(applied) = &found.desanitized {
        note(&mut normalizations, Normalization::Desanitized);
        replacement = Cow::Owned(desanitize::apply(&replacement, applied));
    }
    if found.crlf {
        note(&mut normalizations, Normalization::LineEndings);
        if has_bare_lf(&replacement) {
            replacement = Cow::Owned(lf_to_crlf(&replacement));
        }
    }
    if found.folded {
        note(&mut normalizations, Normalization::CurlyQuotes);
    }
    // One restyled replacement per quote style met (at most four).
    let mut styled: [Option<String>; 4] = Default::default();

    let bytes = content.as_bytes();
    let mut out = String::with_capacity(content.len() + replacement.len());
    let mut first_edit = LineRange::default();
    let mut copied_to = 0;
    for (i, &(start, end)) in found.spans.iter().enumerate() {
        let text: &str = if found.folded {
            let style = Style::of(&content[start..end]);
            styled[style.index()].get_or_insert_with(|| quotes::restyle(&replacement, style))
        } else {
            &replacement
        };
        let mut end = end;
        if line_rule && text.is_empty() && !content[start..end].ends_with('\n') {
            let starts_line = start == 0 || bytes[start - 1] == b'\n';
            // Trailing blanks between the text and the line ending go with the line.
            let blanks = bytes[end..]
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            let eol = if bytes[end + blanks..].starts_with(b"\r\n") {
                2
            } else if bytes[end + blanks..].starts_with(b"\n") {
                1
            } else {
                0
            };
            let next_start = found.spans.get(i + 1).map_or(usize::MAX, |s| s.0);
            if starts_line && eol > 0 && end + blanks + eol <= next_start {
                end += blanks + eol;
                note(&mut normalizations, Normalization::DeletedLineEnding);
            }
        }
        out.push_str(&content[copied_to..start]);
        if i == 0 {
            first_edit = line_range(&out, text);
        }
        out.push_str(text);
        copied_to = end;
    }
    out.push_str(&content[copied_to..]);
    Edit {
        new_content: out,
        replacements: found.spans.len(),
        normalizations,
        first_edit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_trailing_whitespace_per_line_keeping_endings() {
        assert_eq!(
            strip_trailing_whitespace("a \r\nb\t\nc\u{a0}\rd  "),
            "a\r\nb\nc\rd"
        );
        assert!(matches!(
            strip_trailing_whitespace("a\nb"),
            Cow::Borrowed(_)
        ));
        assert_eq!(strip_trailing_whitespace(" \n "), "\n");
    }

    #[test]
    fn markdown_paths_any_case() {
        for p in ["a.md", "A.MD", "x/y.Mdx", ".md"] {
            assert!(is_markdown(p), "{p}");
        }
        for p in ["a.py", "md", "a.mdown", "a.md.txt"] {
            assert!(!is_markdown(p), "{p}");
        }
    }

    #[test]
    fn crlf_conversion_leaves_existing_crlf() {
        assert_eq!(lf_to_crlf("a\nb\r\nc\n"), "a\r\nb\r\nc\r\n");
        assert!(has_bare_lf("\n"));
        assert!(!has_bare_lf("a\r\nb"));
    }
}

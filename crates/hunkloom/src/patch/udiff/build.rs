//! The text a placed hunk writes over its matched lines.
//!
//! - Context lines keep the file's own text and line endings (the hunk's copy only anchored
//!   them, whitespace and all); removed lines go; added lines are written as the hunk gives
//!   them, shifted by the match's indentation change when the whole hunk was indented
//!   uniformly differently, with the line ending of the matched lines (of the file when none).
//! - The final newline: at the end of the file, `\ No newline at end of file` decides only
//!   when the hunk says the newline changes (after its last removed line but not its last
//!   added line, or the reverse); otherwise the file keeps what it has. When the marker
//!   follows only the added lines, the file has a final newline and the last line's text
//!   changes too, the hunk is refused: a model adds that marker by mistake as often as it
//!   means it.

use std::borrow::Cow;

use super::found::Found;
use super::read::{Hunk, HunkLine, describe};
use crate::error::{Error, ErrorKind, Result};
use crate::native::normalize::indent_of;
use crate::patch::model::LineKind;

/// The replacement of the lines `at` matched in `text`, and whether added lines were
/// re-indented.
pub(crate) fn region(text: &str, at: &Found, hunk: &Hunk) -> Result<(String, bool)> {
    let matched = split(&text[at.start..at.end]);
    let eol = matched
        .iter()
        .map(|l| l.1)
        .find(|e| !e.is_empty())
        .unwrap_or_else(|| first_eol(text));
    let mut out: Vec<(Cow<'_, str>, &str)> = Vec::with_capacity(hunk.lines.len());
    let mut reindented = false;
    let mut file = matched.iter();
    for line in &hunk.lines {
        match line.kind {
            LineKind::Context => {
                if let Some(&(content, ending)) = file.next() {
                    out.push((Cow::Borrowed(content), ending));
                }
            }
            LineKind::Remove => {
                file.next();
            }
            LineKind::Add => {
                let shifted = shift(at, &line.text);
                reindented |= matches!(shifted, Cow::Owned(_));
                out.push((shifted, eol));
            }
        }
    }
    // Lines in the middle always end; the last one as the final-newline rule says.
    let n = out.len();
    for line in out.iter_mut().take(n.saturating_sub(1)) {
        if line.1.is_empty() {
            line.1 = eol;
        }
    }
    if let Some(last) = out.last_mut() {
        let wanted = if text.is_empty() {
            // A new file: it ends with a newline unless the hunk says otherwise.
            !hunk.new_side().last().is_some_and(|l| l.no_newline)
        } else if at.end == text.len() {
            final_newline(hunk, text.ends_with('\n'))?
        } else {
            true
        };
        last.1 = match (wanted, last.1.is_empty()) {
            (true, true) => eol,
            (false, _) => "",
            (true, false) => last.1,
        };
    }
    let mut s = String::with_capacity(out.iter().map(|(l, e)| l.len() + e.len()).sum());
    for (line, ending) in &out {
        s.push_str(line);
        s.push_str(ending);
    }
    Ok((s, reindented))
}

/// Whether the file ends with a newline after a hunk at its end, the file having one now when
/// `file_has`.
fn final_newline(hunk: &Hunk, file_has: bool) -> Result<bool> {
    let last_old: Option<&HunkLine> = hunk.old_side().last();
    let last_new: Option<&HunkLine> = hunk.new_side().last();
    let old_marked = last_old.is_some_and(|l| l.no_newline);
    let new_marked = last_new.is_some_and(|l| l.no_newline);
    match (old_marked, new_marked) {
        (false, true) => {
            let same_text = match (last_old, last_new) {
                (Some(o), Some(n)) => o.text == n.text,
                _ => false,
            };
            if file_has && !same_text {
                return Err(Error::new(
                    ErrorKind::InvalidPatchHunk,
                    format!(
                        "{}: `\\ No newline at end of file` follows its last added line but not \
                         its last removed line, so it would also remove the file's final \
                         newline; models add that marker by mistake as often as they mean it. \
                         Send the hunk without the marker to keep the newline, or change the \
                         newline in a hunk of its own.",
                        describe(hunk)
                    ),
                ));
            }
            Ok(false)
        }
        (true, false) => Ok(true),
        _ => Ok(file_has),
    }
}

/// An added line shifted by the match's indentation change (unchanged when there is none).
fn shift<'a>(at: &Found, line: &'a str) -> Cow<'a, str> {
    if at.indent.is_identity() || line.trim().is_empty() {
        return Cow::Borrowed(line);
    }
    let indent = indent_of(line);
    match at.indent.apply(indent) {
        Cow::Borrowed(i) if i.len() == indent.len() => Cow::Borrowed(line),
        i => Cow::Owned(format!("{i}{}", &line[indent.len()..])),
    }
}

/// The lines of `text` as (content, line ending) pairs; a last line may have no ending.
fn split(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (line, tail) = match rest.find('\n') {
            Some(i) => (&rest[..=i], &rest[i + 1..]),
            None => (rest, ""),
        };
        let content = line
            .strip_suffix('\n')
            .map_or(line, |l| l.strip_suffix('\r').unwrap_or(l));
        out.push((content, &line[content.len()..]));
        rest = tail;
    }
    out
}

/// The first line ending of `text`, or `\n`.
fn first_eol(text: &str) -> &'static str {
    match memchr::memchr(b'\n', text.as_bytes()) {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

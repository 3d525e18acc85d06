//! Placing one hunk of the `udiff` dialect: where its context and removed lines are in the
//! file (line numbers are never used), whether it was applied already, and the text that
//! replaces them.
//!
//! 1. The old side (context and removed lines) goes through the `native` cascade
//!    ([`tiers::locate`]): exact, line endings, trailing whitespace, uniform indentation,
//!    punctuation, typo; then through the dialect's own [`anchors`] tier. A tier with several
//!    windows refuses the hunk (`ambiguous_match`, every window listed); the blank-lines and
//!    line-number tiers of `native` are not used (a hunk's lines map one to one).
//! 2. A hunk whose old side is nowhere but whose new side (with at least one added line) is in
//!    exactly one place is already applied: it changes nothing. A hunk whose old side and new
//!    side are both in the file, the new one found as strictly or more, is refused: it may
//!    have been applied already.
//! 3. A hunk with no context or removed line has nothing to place it by (its line numbers are
//!    hints, never trusted): refused, except in an empty file.

use super::anchors;
use super::build;
use super::found::Found;
use super::read::{Hunk, HunkLine, describe};
use crate::error::{Error, ErrorKind, Match, Result};
use crate::native::diagnose;
use crate::native::file_index::FileIndex;
use crate::native::indent::IndentMap;
use crate::native::loose_lines::LooseLineIndex;
use crate::native::search_text::{SearchText, Tier};
use crate::native::tiers::{self, Miss};
use crate::patch::model::LineKind;

/// What a hunk does to the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Replace the matched lines with `text`.
    Edit {
        at: Found,
        text: String,
        /// The added lines were re-indented by `at.indent`.
        reindented: bool,
    },
    /// The new side is already at `at`: nothing to do.
    Applied { at: Found },
}

/// Places `hunk` in `text` (whose line index `index` is built on first need).
pub(crate) fn place(text: &str, index: &FileIndex, hunk: &Hunk) -> Result<Placement> {
    let old: Vec<&HunkLine> = hunk.old_side().collect();
    if old.is_empty() {
        if !text.is_empty() {
            return Err(Error::new(
                ErrorKind::SearchNotFound,
                format!(
                    "{}: it adds lines without any context line or removed line to place them \
                     by (line numbers in @@ headers are only hints). Add the two or three lines \
                     around the insertion as context lines (starting with a space).",
                    describe(hunk)
                ),
            ));
        }
        let at = Found {
            start: 0,
            end: 0,
            first_line: 0,
            line_count: 0,
            tier: Tier::Exact,
            candidates: 1,
            indent: IndentMap::IDENTITY,
            relaxed: 0,
        };
        let (text, reindented) = build::region(text, &at, hunk)?;
        return Ok(Placement::Edit {
            at,
            text,
            reindented,
        });
    }
    match find(text, index, &old) {
        Ok(at) => {
            if let Some(there) = applied_too(text, index, hunk, &at) {
                return Err(both(text, hunk, &at, &there));
            }
            let (text, reindented) = build::region(text, &at, hunk)?;
            Ok(Placement::Edit {
                at,
                text,
                reindented,
            })
        }
        Err(Miss::NotFound) => {
            if hunk.has(LineKind::Add) {
                let new: Vec<&HunkLine> = hunk.new_side().collect();
                if let Ok(at) = find(text, index, &new) {
                    return Ok(Placement::Applied { at });
                }
            }
            Err(not_found(text, index, hunk, &old))
        }
        Err(Miss::Ambiguous { windows, spans, .. }) => {
            let mut spans = spans;
            spans.sort_unstable();
            let listed: Vec<String> = windows.iter().take(5).map(|&w| lines(w)).collect();
            let more = if windows.len() > 5 { ", …" } else { "" };
            Err(Error::new(
                ErrorKind::AmbiguousMatch,
                format!(
                    "{}: its context and removed lines match {} places: {}{more}. Line numbers \
                     in @@ headers do not choose between them; add context lines until the \
                     hunk matches one place.",
                    describe(hunk),
                    windows.len(),
                    listed.join(", ")
                ),
            )
            .with_matches(Match::all_in(text, &spans)))
        }
        Err(Miss::TooRepetitive) => Err(Error::new(
            ErrorKind::AmbiguousMatch,
            format!(
                "{}: its lines are too repetitive to place; include a distinctive context line.",
                describe(hunk)
            ),
        )),
    }
}

/// `(first line 0-based, count)` as `line A` or `lines A-B` (1-based).
fn lines((first, count): (usize, usize)) -> String {
    if count <= 1 {
        format!("line {}", first + 1)
    } else {
        format!("lines {}-{}", first + 1, first + count)
    }
}

/// Where `side` (a hunk's old or new lines) matches `text`: the `native` cascade without its
/// blank-line and line-number tiers, then the [`anchors`] tier.
fn find(text: &str, index: &FileIndex, side: &[&HunkLine]) -> Result<Found, Miss> {
    let search = SearchText {
        lines: side.iter().map(|l| l.text.clone()).collect(),
        eols: side.iter().map(|l| l.eol).collect(),
    };
    match tiers::locate(text, index, &search, None) {
        Ok(l) if !matches!(l.tier, Tier::BlankLines | Tier::LineNumberPrefix) => Ok(l.into()),
        Ok(_) | Err(Miss::NotFound) => {
            let ix = index.loose.get_or_init(|| LooseLineIndex::new(text));
            let pairs: Vec<(&str, &str)> = side.iter().map(|l| (l.text.as_str(), l.eol)).collect();
            anchors::locate(text, ix, &pairs)
        }
        Err(miss) => Err(miss),
    }
}

/// Where the new side of `hunk` already is, when the hunk (with added and context lines that
/// make its new side differ from its old side) finds it as strictly as its old side at `at`,
/// elsewhere or reaching past it.
fn applied_too(text: &str, index: &FileIndex, hunk: &Hunk, at: &Found) -> Option<Found> {
    if !hunk.has(LineKind::Add) || !hunk.has(LineKind::Context) {
        return None;
    }
    let new: Vec<&HunkLine> = hunk.new_side().collect();
    let same = new.len() == at.line_count
        && new
            .iter()
            .zip(hunk.old_side())
            .all(|(n, o)| n.text == o.text);
    if same {
        return None;
    }
    // An old side found exactly is only outdone by a new side found exactly: one lookup of
    // its lines, not the whole cascade (which would read the file once per hunk).
    let there = if at.tier <= Tier::LineEndings {
        exactly(text, index, &new)?
    } else {
        find(text, index, &new).ok().filter(|t| t.tier <= at.tier)?
    };
    // At the same start, a new side no longer than the old one is covered by it: the removed
    // lines are still there, so the hunk is not applied yet (a hunk that truncates the file
    // and adds back a line it removed).
    let covered = there.start == at.start && there.line_count <= at.line_count;
    (!covered).then_some(there)
}

/// The one place `side` occurs byte for byte in `text`, its lines ending as the file's do (the
/// last one may end the file without a newline); `None` if none or several.
fn exactly(text: &str, index: &FileIndex, side: &[&HunkLine]) -> Option<Found> {
    let eol = if index.has_cr(text) { "\r\n" } else { "\n" };
    let mut needle = String::new();
    for line in side {
        needle.push_str(&line.text);
        needle.push_str(eol);
    }
    let mut hits: Vec<(usize, usize)> = index
        .line_aligned_hits(text, &needle)
        .into_iter()
        .map(|s| (s, s + needle.len()))
        .collect();
    let tail = &needle[..needle.len() - eol.len()];
    if !text.ends_with('\n') && text.ends_with(tail) {
        let s = text.len() - tail.len();
        if s == 0 || text.as_bytes()[s - 1] == b'\n' {
            hits.push((s, text.len()));
        }
    }
    let [(start, end)] = hits.as_slice() else {
        return None;
    };
    Some(Found {
        start: *start,
        end: *end,
        first_line: 0,
        line_count: side.len(),
        tier: Tier::Exact,
        candidates: 1,
        indent: IndentMap::IDENTITY,
        relaxed: 0,
    })
}

/// The refusal of a hunk found both before and after.
fn both(text: &str, hunk: &Hunk, old: &Found, new: &Found) -> Error {
    let at = |f: &Found| {
        let first = text[..f.start].bytes().filter(|&b| b == b'\n').count();
        lines((first, f.line_count))
    };
    let mut spans = vec![(old.start, old.end), (new.start, new.end)];
    spans.sort_unstable();
    Error::new(
        ErrorKind::AmbiguousMatch,
        format!(
            "{}: its old text is at {} but its new text is already at {}: it may have been \
             applied already. Check the file and send only what is still to change.",
            describe(hunk),
            at(old),
            at(new)
        ),
    )
    .with_matches(Match::all_in(text, &spans))
}

/// Why `hunk` was not found: the closest window and its first differing line.
fn not_found(text: &str, index: &FileIndex, hunk: &Hunk, old: &[&HunkLine]) -> Error {
    let ix = index.loose.get_or_init(|| LooseLineIndex::new(text));
    let search = SearchText {
        lines: old.iter().map(|l| l.text.clone()).collect(),
        eols: old.iter().map(|l| l.eol).collect(),
    };
    let why = diagnose::not_found(text, ix, hunk.index, &search, &[]);
    let prefix = format!("block {}: the SEARCH text was not found", hunk.index + 1);
    let why = why
        .strip_prefix(&prefix)
        .unwrap_or(&why)
        .replace(" in SEARCH", " in the hunk");
    Error::new(
        ErrorKind::SearchNotFound,
        format!(
            "{}: its context and removed lines were not found (line numbers in @@ headers are \
             only hints){why}",
            describe(hunk)
        ),
    )
}

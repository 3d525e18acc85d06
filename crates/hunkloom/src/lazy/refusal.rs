//! The refusals of a lazy edit, each with a message a model can act on: which segment (by
//! number and snippet lines), why, where in the file, and what to write instead.

use super::language::Language;
use super::place::{Side, Unplaced};
use super::render::Unindentable;
use super::segments::{CodeSegment, Deletion};
use crate::error::{Error, ErrorKind, Match};

/// A code segment as messages name it: its number among the code segments and its lines.
#[derive(Clone, Copy, Debug)]
pub(super) struct Named<'a, 's> {
    /// 1-based among the snippet's code segments.
    pub(super) number: usize,
    pub(super) segment: &'a CodeSegment<'s>,
}

impl std::fmt::Display for Named<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (first, last) = self.segment.snippet_lines;
        if first == last {
            write!(f, "segment {} (snippet line {first})", self.number)
        } else {
            write!(f, "segment {} (snippet lines {first}-{last})", self.number)
        }
    }
}

/// `line` trimmed and cut to 80 characters, in backticks.
fn quote(line: &str) -> String {
    let t = line.trim();
    let cut: String = t.chars().take(80).collect();
    let more = if cut.len() < t.len() { "…" } else { "" };
    format!("`{cut}{more}`")
}

/// 1-based file lines `[start, end)` as `lines a-b` (or `line a`).
fn lines(start: usize, end: usize) -> String {
    if end <= start + 1 {
        format!("line {}", start + 1)
    } else {
        format!("lines {}-{end}", start + 1)
    }
}

/// A list of 1-based line numbers, at most ten, then how many more.
fn line_list(starts: &[usize]) -> String {
    let shown: Vec<String> = starts
        .iter()
        .take(10)
        .map(|s| (s + 1).to_string())
        .collect();
    let more = starts.len().saturating_sub(10);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The marker a model should write in `lang`.
fn marker(lang: Language) -> &'static str {
    if lang.slash() {
        "// ... existing code ..."
    } else {
        "# ... existing code ..."
    }
}

/// The spans of file lines `[start, start + len)` for each start, as [`Match`]es.
fn matches(file: &str, line_starts: &[usize], starts: &[usize], len: usize) -> Box<[Match]> {
    let spans: Vec<(usize, usize)> = starts
        .iter()
        .map(|&s| {
            (
                line_starts[s],
                line_starts[(s + len).min(line_starts.len() - 1)],
            )
        })
        .collect();
    Match::all_in(file, &spans)
}

/// A snippet with nothing but markers and blank lines.
pub(super) fn empty(lang: Language) -> Error {
    Error::new(
        ErrorKind::LazyNoAnchor,
        format!(
            "the snippet holds nothing but `{}` markers: there is no code to merge. Write the \
             changed code with a few unchanged lines around it.",
            marker(lang)
        ),
    )
}

/// A segment that could not be placed. `file` and `line_starts` (one more than the file's
/// lines: the last is the end of the file) give the candidates' spans.
pub(super) fn unplaced(
    seg: Named<'_, '_>,
    why: Unplaced,
    lang: Language,
    file: &str,
    line_starts: &[usize],
) -> Error {
    let lines_of = seg.segment.lines.as_slice();
    let first = quote(lines_of[0]);
    let last = quote(lines_of[lines_of.len() - 1]);
    match why {
        Unplaced::NoAnchor { first: f, last: l } => {
            let what = match (f, l) {
                (true, true) if lines_of.len() > 1 => {
                    format!("neither its first line {first} nor its last line {last} occurs")
                }
                (_, true) if !f => format!("its last line {last} occurs nowhere"),
                _ => format!("its first line {first} occurs nowhere"),
            };
            Error::new(
                ErrorKind::LazyNoAnchor,
                format!(
                    "{seg} cannot be placed: {what} in the file, even ignoring whitespace. Start \
                     and end each segment with unchanged lines copied from the current file (read \
                     it again if it may have changed), and write `{}` for each gap.",
                    marker(lang)
                ),
            )
        }
        Unplaced::Ambiguous {
            side,
            len,
            candidates,
            other_absent,
        } => {
            let (end, shown, other_end, other) = match side {
                Side::Leading => ("first", first, "last", last),
                Side::Trailing => (
                    "last",
                    quote(lines_of[lines_of.len() - len]),
                    "first",
                    first,
                ),
            };
            let absent = if other_absent {
                format!("its {other_end} line {other} occurs nowhere in the file, and ")
            } else {
                String::new()
            };
            let run = if len == 1 {
                format!("{absent}its {end} line {shown} occurs")
            } else {
                format!("{absent}its {end} {len} lines (from {shown}) occur")
            };
            Error::new(
                ErrorKind::LazyAmbiguous,
                format!(
                    "{seg} cannot be placed: {run} at {} places in the file (lines {}) and no \
                     longer run of its lines is unique. Add unchanged lines next to it that \
                     occur only once in the file, such as the header of the enclosing function \
                     or class.",
                    candidates.len(),
                    line_list(&candidates)
                ),
            )
            .with_matches(matches(file, line_starts, &candidates, len))
        }
        Unplaced::Crossing {
            lead: (a, p),
            trail: (b, q),
        } => Error::new(
            ErrorKind::LazyConflict,
            format!(
                "{seg} cannot be placed: its first lines match file {} but its last lines \
                 match file {}, which come before them. Check that the segment's lines are in \
                 the file's order, and split it with `{}` where it skips code.",
                lines(a, a + p),
                lines(b - q, b),
                marker(lang)
            ),
        ),
    }
}

/// Two code segments out of the file's order, or overlapping.
pub(super) fn out_of_order(
    seg: Named<'_, '_>,
    at: (usize, usize),
    previous: Named<'_, '_>,
    previous_at: (usize, usize),
) -> Error {
    Error::new(
        ErrorKind::LazyConflict,
        format!(
            "{seg} matches file {}, but {previous} before it matches file {}: segments must \
             follow the file's order and must not overlap. Put the segments in the order of \
             the file, and give each of them its own unchanged lines.",
            lines(at.0, at.1),
            lines(previous_at.0, previous_at.1)
        ),
    )
}

/// New lines that cannot be re-indented.
pub(super) fn indentation(
    seg: Named<'_, '_>,
    at: (usize, usize),
    why: Unindentable,
    lang: Language,
) -> Error {
    let what = match why {
        Unindentable::Inconsistent => {
            "its unchanged lines are indented differently from the file's, in no consistent \
             way"
            .to_owned()
        }
        Unindentable::Shallow { line, d } => format!(
            "its unchanged lines are indented {d} spaces deeper than the file's, but its new \
             line {} is indented less",
            quote(seg.segment.lines[line])
        ),
    };
    Error::new(
        ErrorKind::LazyIndentation,
        format!(
            "{seg} matches file {} only when whitespace is ignored, and {what}, so its new \
             lines cannot be re-indented safely. Copy the unchanged lines with the file's \
             indentation (and keep `{}` for the gaps).",
            lines(at.0, at.1),
            marker(lang)
        ),
    )
}

/// A segment that drops definitions without a marker or deletion comment. `dropped`: the
/// names and 0-based header lines of what it drops (may be empty when only counts differ).
pub(super) fn silent_deletion(
    seg: Named<'_, '_>,
    at: (usize, usize),
    dropped: &[(&str, usize)],
    count: usize,
    lang: Language,
) -> Error {
    let what = match dropped {
        [] => format!("{count} definition(s) of those lines"),
        [(name, line)] => format!("the definition `{name}` (line {})", line + 1),
        _ => {
            let all: Vec<String> = dropped
                .iter()
                .map(|(name, line)| format!("`{name}` (line {})", line + 1))
                .collect();
            format!("the definitions {}", all.join(", "))
        }
    };
    let comment = if lang.slash() { "//" } else { "#" };
    let name = dropped.first().map_or("NAME", |d| d.0);
    Error::new(
        ErrorKind::LazySilentDeletion,
        format!(
            "{seg} replaces file {} but leaves out {what} without saying so. To delete it, \
             write `{comment} removed {name}` where it was; to keep it, write `{}` where it \
             stands.",
            lines(at.0, at.1),
            marker(lang)
        ),
    )
}

/// An inline deletion comment naming a definition its segment does not drop (`defined`: the
/// 0-based lines where the file defines it).
pub(super) fn inline_deletion_unused(
    seg: Named<'_, '_>,
    at: (usize, usize),
    d: &Deletion<'_>,
    defined: &[usize],
) -> Error {
    let where_ = match defined {
        [] => "the file defines no such name".to_owned(),
        [line] => format!("it is defined at line {}", line + 1),
        all => format!("it is defined at lines {}", line_list(all)),
    };
    Error::new(
        ErrorKind::LazyConflict,
        format!(
            "the deletion comment `{}` (snippet line {}) stands inside {seg}, which replaces file \
             {}, but `{}` is not among those lines ({where_}). Show the lines around `{}` in the \
             segment, or put the comment between markers where `{}` is.",
            d.comment,
            d.snippet_line,
            lines(at.0, at.1),
            d.name,
            d.name,
            d.name
        ),
    )
}

/// A deletion comment naming no definition, or one whose end is not found.
pub(super) fn deletion_not_found(d: &Deletion<'_>, header: Option<usize>) -> Error {
    let why = match header {
        None => format!("no definition in the file is called `{}`", d.name),
        Some(h) => format!(
            "the end of `{}` (line {}) was not found: no `}}` at its indentation closes it",
            d.name,
            h + 1
        ),
    };
    Error::new(
        ErrorKind::LazyNoAnchor,
        format!(
            "the deletion comment `{}` (snippet line {}) cannot be carried out: {why}. Name a \
             function, method or class the file defines, or show the lines around it instead.",
            d.comment, d.snippet_line
        ),
    )
}

/// A deletion comment naming a definition the file has several of.
pub(super) fn deletion_ambiguous(
    d: &Deletion<'_>,
    headers: &[usize],
    file: &str,
    line_starts: &[usize],
) -> Error {
    Error::new(
        ErrorKind::LazyAmbiguous,
        format!(
            "the deletion comment `{}` (snippet line {}) is ambiguous: `{}` is defined at {} \
             places (lines {}). Show the unchanged lines around the one to delete instead, \
             without it.",
            d.comment,
            d.snippet_line,
            d.name,
            headers.len(),
            line_list(headers)
        ),
    )
    .with_matches(matches(file, line_starts, headers, 1))
}

/// A deletion outside the gap where its comment stands (`gap`), or overlapping what `other`
/// removes; `header`: the 0-based lines of the definition's header.
pub(super) fn deletion_misplaced(
    d: &Deletion<'_>,
    header: (usize, usize),
    gap: (usize, usize),
    other: Option<&Deletion<'_>>,
) -> Error {
    let what = format!("`{}` (file {})", d.name, lines(header.0, header.1));
    let why = match other {
        Some(o) => format!(
            "what it removes with {what} overlaps what `{}` (snippet line {}) removes",
            o.comment, o.snippet_line
        ),
        None if gap.0 >= gap.1 => {
            format!("the segments around it leave no gap in the file where {what} could be")
        }
        None => format!(
            "{what} and the lines that go with it do not lie within the gap where the comment \
             stands (file {}, between the segments around it)",
            lines(gap.0, gap.1)
        ),
    };
    Error::new(
        ErrorKind::LazyConflict,
        format!(
            "the deletion comment `{}` (snippet line {}) cannot be carried out: {why}. Put the \
             comment between the segments before and after `{}`, or show the lines around it \
             instead.",
            d.comment, d.snippet_line, d.name
        ),
    )
}

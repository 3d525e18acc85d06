//! Cutting a snippet into segments.
//!
//! Markers split the snippet into segments; a run of markers counts as one. In each segment:
//!
//! - blank lines at its start and end are dropped (the elision absorbs them);
//! - a deletion comment that is then its first or last line becomes a segment of its own, a
//!   *deletion segment* (repeated, dropping blank edges again);
//! - a deletion comment with code on both sides is an *inline* deletion comment: it is removed
//!   from the segment's lines and counted (it allows the segment to drop one definition). When
//!   the line directly above it and the line directly below it are both blank, the blank lines
//!   below it go too, so that two blank runs do not merge.
//!
//! Empty segments vanish. A snippet with no marker and no deletion comment is no lazy edit at
//! all: it is the whole new file.

use std::collections::VecDeque;

use super::language::Language;
use super::markers::{LineKind, classify};

/// A run of code lines to place in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CodeSegment<'s> {
    /// Its lines, without line endings.
    pub(super) lines: Vec<&'s str>,
    /// The 1-based snippet lines of its first and last line (for messages).
    pub(super) snippet_lines: (usize, usize),
    /// Its inline deletion comments: each allows it to drop the definition it names.
    pub(super) inline_deletions: Vec<Deletion<'s>>,
}

/// A deletion comment standing between code segments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Deletion<'s> {
    /// The definition to remove.
    pub(super) name: &'s str,
    /// The comment as written, trimmed.
    pub(super) comment: &'s str,
    /// Its 1-based snippet line.
    pub(super) snippet_line: usize,
}

/// A segment of a lazy snippet, in snippet order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Segment<'s> {
    /// Lines to place.
    Code(CodeSegment<'s>),
    /// A definition to remove.
    Delete(Deletion<'s>),
}

/// How to read a snippet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Snippet<'s> {
    /// No marker and no deletion comment: the snippet is the whole new file.
    WholeFile,
    /// The segments, in snippet order (possibly none).
    Segments(Vec<Segment<'s>>),
}

/// Reads the snippet `lines` (without line endings) in `lang`.
pub(super) fn split<'s>(lines: &[&'s str], lang: Language) -> Snippet<'s> {
    let kinds: Vec<LineKind<'s>> = lines.iter().map(|l| classify(l, lang)).collect();
    if kinds.iter().all(|k| *k == LineKind::Code) {
        return Snippet::WholeFile;
    }
    let mut segments = Vec::new();
    let mut run = Vec::new();
    for (i, kind) in kinds.iter().enumerate() {
        if *kind == LineKind::Marker {
            cut(std::mem::take(&mut run), lines, &kinds, &mut segments);
        } else {
            run.push(i);
        }
    }
    cut(run, lines, &kinds, &mut segments);
    Snippet::Segments(segments)
}

/// Cuts the raw segment `run` (indexes of the snippet lines between two markers) into its
/// deletion and code segments, appended to `out` in order.
fn cut<'s>(run: Vec<usize>, lines: &[&'s str], kinds: &[LineKind<'s>], out: &mut Vec<Segment<'s>>) {
    let blank = |i: &usize| lines[*i].trim().is_empty();
    let deletion = |i: usize| match kinds[i] {
        LineKind::Deletion(name) => Some(Deletion {
            name,
            comment: lines[i].trim(),
            snippet_line: i + 1,
        }),
        _ => None,
    };
    let mut run: VecDeque<usize> = run.into();
    let trim = |run: &mut VecDeque<usize>| {
        while run.front().is_some_and(blank) {
            run.pop_front();
        }
        while run.back().is_some_and(blank) {
            run.pop_back();
        }
    };
    trim(&mut run);
    let mut after = Vec::new();
    loop {
        if let Some(d) = run.front().and_then(|&i| deletion(i)) {
            out.push(Segment::Delete(d));
            run.pop_front();
        } else if let Some(d) = run.back().and_then(|&i| deletion(i)) {
            after.push(Segment::Delete(d));
            run.pop_back();
        } else {
            break;
        }
        trim(&mut run);
    }
    let mut kept: Vec<usize> = Vec::with_capacity(run.len());
    let mut inline_deletions = Vec::new();
    let mut rest = run.into_iter().peekable();
    while let Some(i) = rest.next() {
        let Some(d) = deletion(i) else {
            kept.push(i);
            continue;
        };
        inline_deletions.push(d);
        let above_blank = kept.last().is_some_and(blank);
        if above_blank && rest.peek().is_some_and(blank) {
            while rest.next_if(blank).is_some() {}
        }
    }
    if let (Some(&first), Some(&last)) = (kept.first(), kept.last()) {
        out.push(Segment::Code(CodeSegment {
            lines: kept.iter().map(|&i| lines[i]).collect(),
            snippet_lines: (first + 1, last + 1),
            inline_deletions,
        }));
    }
    out.extend(after.into_iter().rev());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments(snippet: &str) -> Vec<Segment<'_>> {
        let lines: Vec<&str> = snippet.lines().collect();
        match split(&lines, Language::Go) {
            Snippet::Segments(s) => s,
            Snippet::WholeFile => panic!("whole file"),
        }
    }

    fn code<'s>(
        lines: &[&'s str],
        first: usize,
        last: usize,
        inline: &[(&'s str, &'s str, usize)],
    ) -> Segment<'s> {
        Segment::Code(CodeSegment {
            lines: lines.to_vec(),
            snippet_lines: (first, last),
            inline_deletions: inline
                .iter()
                .map(|&(name, comment, snippet_line)| Deletion {
                    name,
                    comment,
                    snippet_line,
                })
                .collect(),
        })
    }

    #[test]
    fn no_marker_is_the_whole_file() {
        assert_eq!(split(&["a", "// b..."], Language::Go), Snippet::WholeFile);
        assert_eq!(split(&[], Language::Go), Snippet::WholeFile);
    }

    #[test]
    fn markers_split_and_blank_edges_go() {
        let s = "// ...\n\na\nb\n\n// ...\n// ... existing code\nc\n// ...\n";
        assert_eq!(
            segments(s),
            vec![code(&["a", "b"], 3, 4, &[]), code(&["c"], 8, 8, &[])]
        );
        assert_eq!(segments("// ...\n\n// ...\n"), vec![]);
    }

    #[test]
    fn deletion_comments_at_edges_become_segments() {
        let s = "a\n\n// removed f\n// ...\n// removed g\n\n// ...\n";
        assert_eq!(
            segments(s),
            vec![
                code(&["a"], 1, 1, &[]),
                Segment::Delete(Deletion {
                    name: "f",
                    comment: "// removed f",
                    snippet_line: 3
                }),
                Segment::Delete(Deletion {
                    name: "g",
                    comment: "// removed g",
                    snippet_line: 5
                }),
            ]
        );
    }

    #[test]
    fn inline_deletion_comments_are_counted_and_blank_runs_do_not_merge() {
        let s = "// ...\n}\n\n// removed f\n\n\nfunc g() {\n// ...\n";
        assert_eq!(
            segments(s),
            vec![code(
                &["}", "", "func g() {"],
                2,
                7,
                &[("f", "// removed f", 4)]
            )]
        );
        let s = "}\n// removed f\n\nfunc g() {\n// ...\n";
        assert_eq!(
            segments(s),
            vec![code(
                &["}", "", "func g() {"],
                1,
                4,
                &[("f", "// removed f", 2)]
            )]
        );
    }
}

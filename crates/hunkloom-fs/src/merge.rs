//! Staleness by region: an edit computed against the text that was read, merged into the file
//! as it is now on disk when the two do not touch the same lines.
//!
//! This is a line-level three-way merge. `base` is the text that was read, `ours` is `base`
//! with the edit applied, `theirs` is the file on disk now. Each side is diffed against `base`
//! line by line (lines keep their endings, so a changed line ending is a changed line), which
//! gives regions of `base` each side replaced. The merge succeeds only if no region of ours
//! overlaps or is adjacent to a region of theirs (an insertion counts as touching the lines on
//! both sides of it); then each side's regions are applied to `base`. Otherwise it is a
//! conflict, and the caller refuses the edit as `stale_file`, naming the lines.
//!
//! # Cost
//!
//! The caller only keeps what was read up to a size ([`WorkspaceOptions::max_kept_read`]);
//! beyond it there is no `base` and a changed file is refused as before. Each line diff
//! (Myers, from `similar`) also has a deadline of [`DIFF_BUDGET`]: past it the diff settles
//! for coarser regions. A coarser diff is still a correct diff, so the merged text is still
//! right; its wider regions can only turn a merge into a refusal, never the reverse.
//!
//! [`WorkspaceOptions::max_kept_read`]: crate::WorkspaceOptions::max_kept_read

use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp};

/// How long each line diff of a merge may search before it settles for coarser regions.
pub(crate) const DIFF_BUDGET: Duration = Duration::from_secs(1);

/// A region of a file that another writer changed after it was read here, reported by an edit
/// that was merged around it ([`EditOutcome::external_changes`]).
///
/// Line numbers are 1-based. A region that only removed lines has `count == 0` (the lines were
/// removed just before line `start`); one that only added lines has `read_count == 0`.
///
/// [`EditOutcome::external_changes`]: crate::EditOutcome::external_changes
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExternalChange {
    /// The first line of the region in the file as written by the edit.
    pub start: usize,
    /// How many lines the region holds in the file as written.
    pub count: usize,
    /// The first line it replaced in the text that was read.
    pub read_start: usize,
    /// How many lines of the text that was read it replaced.
    pub read_count: usize,
}

impl std::fmt::Display for ExternalChange {
    /// Where the region is in the file as written, for a message to a model: `line 2`,
    /// `lines 3-5`, or `lines removed before line 4`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.count {
            0 => write!(f, "lines removed before line {}", self.start),
            1 => write!(f, "line {}", self.start),
            n => write!(f, "lines {}-{}", self.start, self.start + n - 1),
        }
    }
}

/// A region one side replaced: `base` lines `[start, end)` became that side's lines
/// `[new_start, new_end)` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hunk {
    start: usize,
    end: usize,
    new_start: usize,
    new_end: usize,
}

/// Why a merge failed: the regions of each side that touch, for the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Conflict {
    /// The external changes, in lines of the file on disk (1-based start, count).
    pub(crate) theirs: Vec<(usize, usize)>,
    /// The edit's changes, in lines of the text that was read (1-based start, count).
    pub(crate) ours: Vec<(usize, usize)>,
}

impl Conflict {
    /// The first and last line (1-based, of the file on disk) either side's clashing regions
    /// cover, to say which lines to read again.
    pub(crate) fn span(&self) -> (usize, usize) {
        let spans = self.theirs.iter().chain(&self.ours);
        let first = spans.clone().map(|&(start, _)| start).min().unwrap_or(1);
        let last = spans
            .map(|&(start, count)| start + count.saturating_sub(1))
            .max()
            .unwrap_or(first);
        (first, last)
    }

    /// The sentence naming the lines, for the `stale_file` message.
    pub(crate) fn describe(&self) -> String {
        let list = |spans: &[(usize, usize)], empty: &str| {
            spans
                .iter()
                .map(|&(start, count)| match count {
                    0 => format!("{empty} before line {start}"),
                    1 => format!("line {start}"),
                    _ => format!("lines {start}-{}", start + count - 1),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "changed on disk: {}; this edit changes: {} (of the file as read)",
            list(&self.theirs, "lines removed"),
            list(&self.ours, "lines inserted")
        )
    }
}

/// The lines of `text`, each with its ending.
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The regions where `new` differs from `old`, in order, separated by at least one equal line.
fn hunks(old: &[&str], new: &[&str]) -> Vec<Hunk> {
    let deadline = Instant::now().checked_add(DIFF_BUDGET);
    let ops = similar::capture_diff_slices_deadline(Algorithm::Myers, old, new, deadline);
    let mut out: Vec<Hunk> = Vec::new();
    let mut pending: Option<Hunk> = None;
    for op in ops {
        if let DiffOp::Equal { .. } = op {
            out.extend(pending.take());
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        pending = Some(match pending {
            Some(h) => Hunk {
                end: o.end,
                new_end: n.end,
                ..h
            },
            None => Hunk {
                start: o.start,
                end: o.end,
                new_start: n.start,
                new_end: n.end,
            },
        });
    }
    out.extend(pending);
    out
}

/// Whether two regions of `base` overlap or are adjacent (an empty region, an insertion,
/// touches the lines on both sides of it).
fn touches(a: &Hunk, b: &Hunk) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// Merges `ours` (the edit, against `base`) and `theirs` (the file now, against `base`): the
/// merged text and where the external changes sit in it, or the conflict.
pub(crate) fn merge(
    base: &str,
    ours: &str,
    theirs: &str,
) -> Result<(String, Vec<ExternalChange>), Conflict> {
    let (base_lines, our_lines, their_lines) = (lines(base), lines(ours), lines(theirs));
    let mine = hunks(&base_lines, &our_lines);
    let other = hunks(&base_lines, &their_lines);

    // Both lists are sorted and their regions disjoint: sweep for a touching pair.
    let (mut i, mut j) = (0, 0);
    let mut clash_mine = Vec::new();
    let mut clash_other = Vec::new();
    while i < mine.len() && j < other.len() {
        let (m, o) = (&mine[i], &other[j]);
        if touches(m, o) {
            clash_mine.push(*m);
            clash_other.push(*o);
        }
        if m.end < o.end || (m.end == o.end && m.start <= o.start) {
            i += 1;
        } else {
            j += 1;
        }
    }
    if !clash_mine.is_empty() {
        clash_mine.dedup();
        clash_other.dedup();
        return Err(Conflict {
            theirs: clash_other
                .iter()
                .map(|h| (h.new_start + 1, h.new_end - h.new_start))
                .collect(),
            ours: clash_mine
                .iter()
                .map(|h| (h.start + 1, h.end - h.start))
                .collect(),
        });
    }

    let mut out = String::with_capacity(theirs.len() + ours.len().saturating_sub(base.len()));
    let mut written = 0; // lines written so far
    let mut pos = 0; // next base line
    let mut external = Vec::new();
    let (mut i, mut j) = (0, 0);
    loop {
        // The next region, by position in base (disjoint and not adjacent, so order is total).
        let take_mine = match (mine.get(i), other.get(j)) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(m), Some(o)) => m.start < o.start,
        };
        let (hunk, side) = if take_mine {
            i += 1;
            (mine[i - 1], &our_lines)
        } else {
            j += 1;
            (other[j - 1], &their_lines)
        };
        for line in &base_lines[pos..hunk.start] {
            out.push_str(line);
        }
        written += hunk.start - pos;
        let replacement = &side[hunk.new_start..hunk.new_end];
        if !take_mine {
            external.push(ExternalChange {
                start: written + 1,
                count: replacement.len(),
                read_start: hunk.start + 1,
                read_count: hunk.end - hunk.start,
            });
        }
        for line in replacement {
            out.push_str(line);
        }
        written += replacement.len();
        pos = hunk.end;
    }
    for line in &base_lines[pos..] {
        out.push_str(line);
    }
    Ok((out, external))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(start: usize, count: usize, read_start: usize, read_count: usize) -> ExternalChange {
        ExternalChange {
            start,
            count,
            read_start,
            read_count,
        }
    }

    #[test]
    fn regions_read_as_lines_of_the_file_as_written() {
        assert_eq!(change(2, 1, 2, 1).to_string(), "line 2");
        assert_eq!(change(3, 3, 3, 1).to_string(), "lines 3-5");
        assert_eq!(
            change(4, 0, 4, 2).to_string(),
            "lines removed before line 4"
        );
    }

    #[test]
    fn disjoint_changes_merge() {
        let base = "a\nb\nc\nd\ne\n";
        let ours = "a\nb\nC\nd\ne\n";
        let theirs = "A\nb\nc\nd\ne\nf\n";
        let (text, external) = merge(base, ours, theirs).expect("merges");
        assert_eq!(text, "A\nb\nC\nd\ne\nf\n");
        assert_eq!(external, vec![change(1, 1, 1, 1), change(6, 1, 6, 0)]);
    }

    #[test]
    fn positions_follow_the_edit() {
        // The edit adds two lines above the external change.
        let base = "a\nb\nc\nd\ne\n";
        let ours = "a\nx\ny\nb\nc\nd\ne\n";
        let theirs = "a\nb\nc\nd\nE\n";
        let (text, external) = merge(base, ours, theirs).expect("merges");
        assert_eq!(text, "a\nx\ny\nb\nc\nd\nE\n");
        assert_eq!(external, vec![change(7, 1, 5, 1)]);
    }

    #[test]
    fn overlapping_and_adjacent_changes_conflict() {
        let base = "a\nb\nc\nd\n";
        let ours = "a\nB\nc\nd\n";
        for theirs in [
            "a\nb2\nc\nd\n",
            "a2\nb\nc\nd\n",
            "a\nb\nc2\nd\n",
            "a\nx\nb\nc\nd\n",
        ] {
            let conflict = merge(base, ours, theirs).expect_err(theirs);
            assert_eq!(conflict.ours, vec![(2, 1)], "{theirs:?}");
        }
        let conflict = merge(base, ours, "a\nb\nc2\nd\n").expect_err("adjacent");
        assert_eq!(conflict.theirs, vec![(3, 1)]);
        assert!(
            conflict.describe().contains("line 3"),
            "{}",
            conflict.describe()
        );
        // Two lines away is fine.
        assert!(merge(base, ours, "a\nb\nc\nd2\n").is_ok());
    }

    #[test]
    fn a_removal_is_reported_as_an_empty_region() {
        let base = "a\nb\nc\nd\ne\n";
        let ours = "A\nb\nc\nd\ne\n";
        let theirs = "a\nb\nc\ne\n";
        let (text, external) = merge(base, ours, theirs).expect("merges");
        assert_eq!(text, "A\nb\nc\ne\n");
        assert_eq!(external, vec![change(4, 0, 4, 1)]);
    }

    #[test]
    fn no_final_newline_is_kept() {
        let (text, _) = merge("a\nb\nc\nd", "A\nb\nc\nd", "a\nb\nc\nD").expect("merges");
        assert_eq!(text, "A\nb\nc\nD");
    }
}

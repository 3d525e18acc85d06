//! Roo's "middle-out" search: every window of as many lines as the SEARCH text, from the middle
//! of a range outwards (left, right, left, ...), keeping the first window with a strictly higher
//! similarity than all before it.
//!
//! The windows are scored exactly as Roo scores them; the search only skips work whose result
//! cannot change the answer:
//! - each line is normalized once, and a window's normalized length comes from prefix sums;
//! - a window whose length alone bounds its similarity at or below the best so far is not
//!   compared (its distance is at least the difference of the lengths);
//! - the search stops at the first window of similarity 1 (nothing can be strictly higher).
//!
//! So a search costs at most what Roo's does, O(windows × (window + window × ⌈search/64⌉))
//! unit steps, and an exact match near the middle or the hint costs far less.

use super::file::File;
use super::similarity::{Pattern, Scratch, push_normalized, score};

/// The best window: its similarity and index (`None` when no window scored above 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Best {
    pub(super) score: f64,
    pub(super) index: Option<usize>,
}

/// The lines of the range a search reads, normalized once.
struct NormalizedLines {
    first: usize,
    units: Vec<u16>,
    /// `ends[k]`: where line `first + k`'s units end in `units` (start: `ends[k - 1]`).
    ends: Vec<usize>,
    /// `nonempty[k]`: how many of the lines before `first + k` normalize to something.
    nonempty: Vec<usize>,
}

impl NormalizedLines {
    fn new(file: &File<'_>, first: usize, end: usize) -> Self {
        let mut units = Vec::new();
        let mut ends = vec![0];
        let mut nonempty = vec![0];
        let mut scratch = Vec::new();
        for line in file.lines(first..end) {
            scratch.clear();
            push_normalized(line, &mut scratch);
            units.extend_from_slice(&scratch);
            ends.push(units.len());
            nonempty.push(nonempty.last().copied().unwrap_or(0) + usize::from(!scratch.is_empty()));
        }
        NormalizedLines {
            first,
            units,
            ends,
            nonempty,
        }
    }

    /// The normalized length of the window of lines `[i, j)` (absolute indices).
    fn window_len(&self, i: usize, j: usize) -> usize {
        let (a, b) = (i - self.first, j - self.first);
        let count = self.nonempty[b] - self.nonempty[a];
        self.ends[b] - self.ends[a] + count.saturating_sub(1)
    }

    /// Writes the normalized window `[i, j)` into `out`.
    fn window(&self, i: usize, j: usize, out: &mut Vec<u16>) {
        out.clear();
        for k in i - self.first..j - self.first {
            let line = &self.units[self.ends[k]..self.ends[k + 1]];
            if !line.is_empty() {
                if !out.is_empty() {
                    out.push(u16::from(b' '));
                }
                out.extend_from_slice(line);
            }
        }
    }
}

/// Roo's `fuzzySearch(lines, searchChunk, startIndex, endIndex)` over `file`'s lines for a SEARCH text of
/// `search_len` lines (`pattern` its normalized form; `empty` when the SEARCH text itself is
/// `""`, which Roo scores 0 everywhere).
pub(super) fn fuzzy_search(
    file: &File<'_>,
    pattern: &Pattern,
    empty: bool,
    search_len: usize,
    start: f64,
    end: f64,
) -> Best {
    let mut best = Best {
        score: 0.0,
        index: None,
    };
    // Roo's loop runs only while a left index is at or after `start` or a right window ends at
    // or before `end`; both need `start <= end` (then both lie in [0, lines.len()]).
    if empty || start > end || start.is_nan() || end.is_nan() || end < 0.0 {
        return best;
    }
    let (s, e) = (start as i64, end as i64);
    let l = search_len as i64;
    let mid = (s + e).div_euclid(2);
    let right_last = e - l; // the last right index
    let highest = mid.max(right_last);
    if highest < 0 {
        return best;
    }
    let len = file.len();
    let window_end = |i: usize| (i + search_len).min(len);
    let lo = usize::try_from(s).unwrap_or(0).min(len);
    let hi = window_end(usize::try_from(highest).unwrap_or(0).min(len));
    let norm = NormalizedLines::new(file, lo, hi.max(lo));
    let target = pattern.units();
    let mut scratch = Scratch::default();
    let mut window = Vec::new();

    let mut consider = |i: i64, best: &mut Best| {
        let i = usize::try_from(i).unwrap_or(0).min(len);
        let j = window_end(i);
        let w_len = norm.window_len(i, j);
        // The distance is at least the difference of the lengths.
        if w_len != target.len() || w_len == 0 {
            let bound = if w_len == 0 && target.is_empty() {
                1.0
            } else {
                score(w_len.abs_diff(target.len()), w_len, target.len())
            };
            if bound <= best.score {
                return;
            }
        }
        norm.window(i, j, &mut window);
        let sim = pattern.similarity(&window, &mut scratch);
        if sim > best.score {
            *best = Best {
                score: sim,
                index: Some(i),
            };
        }
    };

    let (mut left, mut right) = (mid, mid + 1);
    while left >= s || right <= right_last {
        if left >= s {
            consider(left, &mut best);
            left -= 1;
        }
        if right <= right_last {
            consider(right, &mut best);
            right += 1;
        }
        if best.score >= 1.0 {
            break;
        }
    }
    best
}

//! Matching without indexing the whole file, through anchors.
//!
//! A SEARCH line's *anchor* is its longest run of verbatim bytes: ASCII letters, digits and
//! punctuation other than quotes, `-` and `.`, not followed by a non-ASCII byte (runs end at
//! every other byte: whitespace, those four, anything non-ASCII, and a letter a combining mark
//! may follow). **Claim:** if a file line `f` meets a SEARCH line `s` under any
//! line-preserving rule (tiers 1–5, which the blank-line tier applies to its pairs too), `s`'s
//! anchor `R` occurs in `f`, provided `f` has no zero-width character and none of the three
//! characters NFC maps to ASCII (U+037E, U+1FEF, U+212A). *Proof.* Every one of those rules
//! implies `fold_trimmed(f) == fold_trimmed(s)`, where `fold_trimmed` is NFC, then folding.
//! NFC leaves `R` alone (ASCII characters are starters that compose with nothing before them,
//! and none of `R`'s is followed by a combining mark), so `R` lies in `NFC(trim(s))` (it has
//! no whitespace); folding maps each of its bytes to itself (folding only produces quotes,
//! `-`, `.` and spaces, and only from other characters, or nothing), and no byte of `R` is a
//! dash, so dash collapsing keeps `R` whole: `R` is a substring of `fold_trimmed(s)`, hence of
//! `fold_trimmed(f)`. Conversely each byte of `R` there comes from the same byte of
//! `NFC(trim(f))` (no other character folds to it); between two of them folding dropped
//! nothing, since it drops only zero-width characters (excluded) and a dash right after a dash
//! (the previous byte is a verbatim byte, not a dash). An ASCII character of `NFC(trim(f))`
//! is the same character of `trim(f)` (NFC neither removes characters nor moves starters, and
//! makes ASCII only from ASCII and the three excluded characters), so `R` is a substring of
//! `trim(f)`, so of `f`. ∎
//!
//! Hence every window any tier accepts, except the typo tier, has for each non-blank anchored
//! SEARCH line a file line containing that line's anchor; a typo window has that for all but
//! one line. The line-number tier matches other (stripped) lines, so SEARCH texts with
//! line-number prefixes use the whole-file index instead.
//!
//! So: find the lines containing each anchor (`memmem`). Two anchors found nowhere rule out
//! every tier. Otherwise every window lies around a hit of the two anchored lines with the
//! fewest hits (one of them is not the typo line), so indexing only the neighbourhoods of those
//! hits (wide enough for the blank-line tier's windows) finds every candidate of every tier.
//! Too many hits, or a file with zero-width characters (or the three NFC exceptions), falls back
//! to the whole-file index.

use memchr::memmem;

use super::loose_lines::LooseLineIndex;
use super::normalize::{BLANK, loose_hash};
use super::search_text::SearchText;

/// More hits than this for one anchor (or lines walked around them) and the whole-file index is
/// cheaper.
const MAX_HITS: usize = 256;
const MAX_WALK: usize = 1 << 16;

/// A byte that every tier leaves as it is.
fn verbatim(b: u8) -> bool {
    b.is_ascii_graphic() && !matches!(b, b'\'' | b'"' | b'`' | b'-' | b'.')
}

/// The longest run of verbatim bytes of `line` not followed by a non-ASCII byte (the first of
/// equal ones), if any.
pub(crate) fn anchor(line: &str) -> Option<&str> {
    let b = line.as_bytes();
    let mut best = (0, 0);
    let mut start = 0;
    for i in 0..=b.len() {
        let keeps = i < b.len() && verbatim(b[i]) && b.get(i + 1).is_none_or(u8::is_ascii);
        if !keeps {
            if i - start > best.1 - best.0 {
                best = (start, i);
            }
            start = i + 1;
        }
    }
    // A run of ASCII bytes within `line` is a valid `str`.
    (best.1 > best.0).then(|| &line[best.0..best.1])
}

/// Whether `text` contains a character that folding drops, or one that NFC maps to ASCII (so
/// anchors would not be sound).
pub(crate) fn anchors_unsound(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr3_iter(0xE1, 0xE2, 0xEF, b).any(|i| {
        matches!(
            b.get(i..i + 3),
            Some(
                [0xE2, 0x80, 0x8B..=0x8D]
                    | [0xE2, 0x81, 0xA0]
                    | [0xEF, 0xBB, 0xBF]
                    | [0xE2, 0x84, 0xAA]
                    | [0xE1, 0xBF, 0xAF]
            )
        )
    }) || memmem::find(b, "\u{37E}".as_bytes()).is_some()
}

/// The starts of the lines containing `needle`, in order; `None` past [`MAX_HITS`].
pub(crate) fn hit_lines(text: &str, needle: &str) -> Option<Vec<usize>> {
    let hay = text.as_bytes();
    let finder = memmem::Finder::new(needle.as_bytes());
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = finder.find(&hay[at..]) {
        let hit = at + i;
        if out.len() == MAX_HITS {
            return None;
        }
        out.push(memchr::memrchr(b'\n', &hay[..hit]).map_or(0, |j| j + 1));
        at = memchr::memchr(b'\n', &hay[hit..]).map_or(hay.len(), |j| hit + j + 1);
    }
    Some(out)
}

/// A contiguous run of the file's lines, indexed: its first byte and line, and its index.
#[derive(Debug)]
pub(crate) struct Part {
    pub(crate) byte: usize,
    pub(crate) end: usize,
    pub(crate) line: usize,
    pub(crate) ix: LooseLineIndex,
}

/// The start of the line before the one starting at `s` (`s > 0`).
fn prev_line(hay: &[u8], s: usize) -> usize {
    memchr::memrchr(b'\n', &hay[..s - 1]).map_or(0, |j| j + 1)
}

/// The start of the line after the one starting at `s`, or the end of the text.
fn next_line(hay: &[u8], s: usize) -> usize {
    memchr::memchr(b'\n', &hay[s..]).map_or(hay.len(), |j| s + j + 1)
}

fn is_blank(text: &str, s: usize, e: usize, buf: &mut String) -> bool {
    let line = &text[s..e];
    let line = line.strip_suffix('\n').unwrap_or(line);
    let line = line.strip_suffix('\r').unwrap_or(line);
    loose_hash(line, buf) == BLANK
}

/// The byte range of the lines around the line starting at `s`, walking `back` before it and
/// `fwd` after it. `None` when the walks get too long.
fn around(
    text: &str,
    s: usize,
    back: Walk,
    fwd: Walk,
    walked: &mut usize,
) -> Option<(usize, usize)> {
    let hay = text.as_bytes();
    let mut buf = String::new();
    let mut state = back.start();
    let mut a = s;
    while a > 0 && !state.done(&back) {
        let p = prev_line(hay, a);
        state.step(!is_blank(text, p, a, &mut buf), &back);
        a = p;
        *walked += 1;
    }
    let mut b = next_line(hay, s);
    let mut state = fwd.start();
    while b < hay.len() && !state.done(&fwd) {
        let q = next_line(hay, b);
        state.step(!is_blank(text, b, q, &mut buf), &fwd);
        b = q;
        *walked += 1;
    }
    (*walked <= MAX_WALK).then_some((a, b))
}

/// How far to walk from a hit: at least `lines` lines, and past `nonblank` non-blank lines and
/// then `extra` more lines.
#[derive(Clone, Copy)]
struct Walk {
    lines: usize,
    nonblank: usize,
    extra: usize,
}

/// Lines walked, non-blank ones among them, and how many lines it took to pass `nonblank`.
struct WalkState {
    n: usize,
    nb: usize,
    reached: Option<usize>,
}

impl Walk {
    fn start(&self) -> WalkState {
        WalkState {
            n: 0,
            nb: 0,
            reached: (self.nonblank == 0).then_some(0),
        }
    }
}

impl WalkState {
    fn step(&mut self, nonblank: bool, walk: &Walk) {
        self.n += 1;
        self.nb += usize::from(nonblank);
        if self.reached.is_none() && self.nb >= walk.nonblank {
            self.reached = Some(self.n);
        }
    }

    fn done(&self, walk: &Walk) -> bool {
        self.n >= walk.lines && self.reached.is_some_and(|r| self.n >= r + walk.extra)
    }
}

/// What the anchors say about a SEARCH text.
pub(crate) enum Plan {
    /// No tier can match.
    Nothing,
    /// Every candidate of every tier lies in these parts.
    Parts(Vec<Part>),
}

/// The parts of the file every candidate of `search` lies in, or `None` when the whole-file
/// index should be used.
pub(crate) fn plan(text: &str, search: &SearchText) -> Option<Plan> {
    if search.without_line_numbers().is_some() || anchors_unsound(text) {
        return None;
    }
    let mut buf = String::new();
    let k = search.lines.len();
    let nonblank: Vec<usize> = (0..k)
        .filter(|&j| loose_hash(&search.lines[j], &mut buf) != BLANK)
        .collect();
    let m = nonblank.len();
    let (lead, trail) = (*nonblank.first()?, k - 1 - *nonblank.last()?);
    // (hits, search line, rank among the non-blank lines) of each anchored line.
    let mut found = Vec::new();
    let mut missing = 0;
    for (r, &j) in nonblank.iter().enumerate() {
        let Some(a) = anchor(&search.lines[j]) else {
            continue;
        };
        let hits = hit_lines(text, a)?;
        if hits.is_empty() {
            missing += 1;
        } else {
            found.push((hits, j, r));
        }
    }
    if missing >= 2 {
        return Some(Plan::Nothing);
    }
    if found.len() < 2 {
        return None;
    }
    found.sort_by_key(|(hits, _, _)| hits.len());
    let mut ranges = Vec::new();
    let mut walked = 0;
    for (hits, j, r) in found.iter().take(2) {
        // Line-preserving and typo windows: `j` lines before the hit, `k - 1 - j` after.
        // Blank-line windows: the hit is their `r`-th non-blank line, preceded by `lead` blank
        // lines before the first non-blank one; likewise after.
        let back = Walk {
            lines: *j,
            nonblank: *r,
            extra: lead,
        };
        let fwd = Walk {
            lines: k - 1 - j,
            nonblank: m - 1 - r,
            extra: trail,
        };
        for &s in hits {
            ranges.push(around(text, s, back, fwd, &mut walked)?);
        }
    }
    Some(Plan::Parts(parts(text, ranges)))
}

/// The lines within `k` lines of the line starting at `s`, as a byte range.
pub(crate) fn lines_around(text: &str, s: usize, k: usize) -> Option<(usize, usize)> {
    let walk = Walk {
        lines: k,
        nonblank: 0,
        extra: 0,
    };
    around(text, s, walk, walk, &mut 0)
}

/// The number of lines of `text`, counting on from the last part (if any).
pub(crate) fn line_count(text: &str, last: Option<&Part>) -> usize {
    let (line, from) = last.map_or((0, 0), |p| (p.line + p.ix.len(), p.end));
    let rest = &text.as_bytes()[from..];
    line + memchr::memchr_iter(b'\n', rest).count()
        + usize::from(!rest.is_empty() && !rest.ends_with(b"\n"))
}

/// Indexes the union of `ranges` (line-aligned byte ranges) as disjoint parts.
pub(crate) fn parts(text: &str, mut ranges: Vec<(usize, usize)>) -> Vec<Part> {
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in ranges {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let (mut line, mut counted) = (0, 0);
    merged
        .into_iter()
        .map(|(a, b)| {
            line += memchr::memchr_iter(b'\n', &text.as_bytes()[counted..a]).count();
            counted = a;
            Part {
                byte: a,
                end: b,
                line,
                ix: LooseLineIndex::new(&text[a..b]),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors() {
        assert_eq!(anchor("    let value = compute(x);"), Some("compute(x);"));
        assert_eq!(anchor("say(\"hello_world\")"), Some("hello_world"));
        assert_eq!(anchor("a—b -- c…d"), Some("b"));
        assert_eq!(anchor(" -- ... "), None);
        assert_eq!(anchor("cafe\u{301} latte"), Some("latte"));
        assert_eq!(anchor("caf\u{E9}s"), Some("ca"));
        assert!(anchors_unsound("a\u{200B}b"));
        assert!(anchors_unsound("\u{FEFF}a"));
        assert!(anchors_unsound("a\u{212A}"));
        assert!(anchors_unsound("a\u{37E}"));
        assert!(anchors_unsound("a\u{1FEF}"));
        assert!(!anchors_unsound("a — b “c” é ü"));
    }
}

//! Placing one code segment in the file.
//!
//! For a segment S of m lines in a file O of n lines, at a tier:
//!
//! - **Leading anchor**: the shortest prefix S[0..k) that occurs exactly once in O, at line
//!   `a`, extended to the longest `p` with S[0..p) = O[a..a+p). *Absent* when S[0] occurs
//!   nowhere; *ambiguous* when the prefixes still occur more than once when S runs out, or when
//!   the next longer prefix occurs nowhere.
//! - **Trailing anchor**: the same from the end: the shortest unique suffix, ending at line `b`
//!   (exclusive), extended to the longest `q` with S[m−q..m) = O[b−q..b).
//!
//! Then, in this order:
//!
//! 1. leading unique, reaching the end of the file (a + p = n), trailing not unique: the
//!    segment covers O[a..n) and its lines after the first p are appended;
//! 2. trailing unique, starting at line 0 (b − q = 0), leading not unique: it covers O[0..b)
//!    and its lines before the last q go on top;
//! 3. an anchor ambiguous: if the whole segment occurs twice or more as a block it changes
//!    nothing wherever it is, and is skipped (*context only*); otherwise refused;
//! 4. both unique: it covers O[a..b), which needs a + p ≤ b and b − q ≥ a, or it is refused;
//! 5. otherwise (an anchor absent) the next tier; after the last, refused.
//!
//! Each walk along the segment costs its length (see [`automaton`](super::automaton)); the
//! candidate lines of a refusal are listed with a Z-algorithm pass over the file, only then.

use super::automaton::Walk;
use super::index::{FileIndex, Tier};
use crate::search::run_agreement::all_runs;
use crate::text::Work;

/// Where a code segment goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Range {
    /// The first file line it replaces (0-based).
    pub(super) start: usize,
    /// One past the last file line it replaces.
    pub(super) end: usize,
    /// How many of its first lines are anchors (matched O[start..start+lead)).
    pub(super) lead: usize,
    /// How many of its last lines are anchors (matched O[end-trail..end)).
    pub(super) trail: usize,
    /// The tier it was placed at.
    pub(super) tier: Tier,
}

/// The outcome of placing a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Placed {
    /// It replaces a range of the file.
    Range(Range),
    /// It occurs twice or more as it is, so it changes nothing and is skipped.
    ContextOnly,
}

/// Which end of a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    /// Its first lines.
    Leading,
    /// Its last lines.
    Trailing,
}

/// Why a segment could not be placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Unplaced {
    /// At every tier an anchor was absent: `first` / `last` say whether the first / last line
    /// of the segment occurs nowhere (even ignoring all whitespace).
    NoAnchor {
        /// The first line occurs nowhere.
        first: bool,
        /// The last line occurs nowhere.
        last: bool,
    },
    /// An anchor is ambiguous: its longest run of `len` lines that occurs, occurs at each of
    /// `candidates` (0-based first lines).
    Ambiguous {
        /// The end of the segment that is ambiguous.
        side: Side,
        /// How many lines from that end occur more than once.
        len: usize,
        /// Where they occur: the 0-based first line of each occurrence.
        candidates: Vec<usize>,
        /// The line at the other end occurs nowhere.
        other_absent: bool,
    },
    /// Both anchors are unique but cross: the leading one at O[a..a+p) and the trailing one
    /// at O[b−q..b).
    Crossing {
        /// `(a, p)`.
        lead: (usize, usize),
        /// `(b, q)`.
        trail: (usize, usize),
    },
}

/// One end's anchor at a tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Anchor {
    Absent,
    Ambiguous(usize),
    /// At line `at` (leading: its first line; trailing: one past its last), `extent` lines.
    Unique {
        at: usize,
        extent: usize,
    },
}

impl Anchor {
    fn is_unique(self) -> bool {
        matches!(self, Anchor::Unique { .. })
    }
}

/// Places the segment `lines` in the file of `index` (see the module doc).
pub(super) fn place(lines: &[&str], index: &FileIndex<'_>) -> Result<Placed, Unplaced> {
    let m = lines.len();
    let mut absent = (false, false);
    for tier in Tier::ALL {
        let at = index.at(tier);
        let o = &at.tokens;
        let n = o.len();
        let s: Vec<u32> = lines.iter().map(|l| at.token(l)).collect();
        Work::Lazy.charge(m);
        let lead = match at.leading(&s) {
            Walk::Absent => Anchor::Absent,
            Walk::Ambiguous { len } => Anchor::Ambiguous(len),
            Walk::Unique { len, end } => {
                let a = end + 1 - len;
                let p = s.iter().zip(&o[a..]).take_while(|(x, y)| x == y).count();
                Work::Lazy.charge(p);
                Anchor::Unique { at: a, extent: p }
            }
        };
        let trail = match at.trailing(&s) {
            Walk::Absent => Anchor::Absent,
            Walk::Ambiguous { len } => Anchor::Ambiguous(len),
            Walk::Unique { len, end } => {
                let b = n + len - 1 - end;
                let q = s
                    .iter()
                    .rev()
                    .zip(o[..b].iter().rev())
                    .take_while(|(x, y)| x == y)
                    .count();
                Work::Lazy.charge(q);
                Anchor::Unique { at: b, extent: q }
            }
        };
        match (lead, trail) {
            (Anchor::Unique { at: a, extent: p }, t) if a + p == n && !t.is_unique() => {
                return Ok(Placed::Range(Range {
                    start: a,
                    end: n,
                    lead: p,
                    trail: 0,
                    tier,
                }));
            }
            (l, Anchor::Unique { at: b, extent: q }) if b == q && !l.is_unique() => {
                return Ok(Placed::Range(Range {
                    start: 0,
                    end: b,
                    lead: 0,
                    trail: q,
                    tier,
                }));
            }
            (Anchor::Ambiguous(len), _) | (_, Anchor::Ambiguous(len)) => {
                if at.occurrences(&s) >= 2 {
                    return Ok(Placed::ContextOnly);
                }
                let side = if matches!(lead, Anchor::Ambiguous(_)) {
                    Side::Leading
                } else {
                    Side::Trailing
                };
                let run = match side {
                    Side::Leading => &s[..len],
                    Side::Trailing => &s[m - len..],
                };
                let other = match side {
                    Side::Leading => trail,
                    Side::Trailing => lead,
                };
                return Err(Unplaced::Ambiguous {
                    side,
                    len,
                    candidates: candidates(run, o),
                    other_absent: other == Anchor::Absent,
                });
            }
            (Anchor::Unique { at: a, extent: p }, Anchor::Unique { at: b, extent: q }) => {
                if a + p <= b && b - q >= a {
                    return Ok(Placed::Range(Range {
                        start: a,
                        end: b,
                        lead: p,
                        trail: q,
                        tier,
                    }));
                }
                return Err(Unplaced::Crossing {
                    lead: (a, p),
                    trail: (b, q),
                });
            }
            _ => absent = (lead == Anchor::Absent, trail == Anchor::Absent),
        }
    }
    Err(Unplaced::NoAnchor {
        first: absent.0,
        last: absent.1,
    })
}

/// The 0-based first line of every occurrence of `run` in the file's tokens `o`.
fn candidates(run: &[u32], o: &[u32]) -> Vec<usize> {
    let needle: Vec<u64> = run.iter().map(|&t| u64::from(t)).collect();
    let hay: Vec<u64> = o.iter().map(|&t| u64::from(t)).collect();
    all_runs(&needle, &hay)
}

//! The file's lines as tokens under each whitespace tier, with their automata, built on first
//! use: most segments place at the first tier, so the looser ones are usually never built, and
//! most segments start and end with a line that occurs once in the file, which the token counts
//! answer without any automaton.

use std::borrow::Cow;
use std::cell::OnceCell;

use rustc_hash::FxHashMap;

use super::automaton::{Automaton, Walk};
use crate::text::Work;

/// How two lines are compared, strictest first. A segment is placed at the first tier where
/// its anchors are found; ambiguity at a tier is final (it never falls through).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Tier {
    /// Trailing whitespace ignored (t1).
    Trailing,
    /// Leading and trailing whitespace ignored (t2).
    Edges,
    /// All whitespace ignored (t3).
    All,
}

impl Tier {
    /// Every tier, strictest first.
    pub(super) const ALL: [Tier; 3] = [Tier::Trailing, Tier::Edges, Tier::All];

    /// The key `line` is compared by at this tier.
    pub(super) fn key(self, line: &str) -> Cow<'_, str> {
        match self {
            Tier::Trailing => Cow::Borrowed(line.trim_end()),
            Tier::Edges => Cow::Borrowed(line.trim()),
            Tier::All => {
                let t = line.trim();
                if t.contains(char::is_whitespace) {
                    Cow::Owned(t.chars().filter(|c| !c.is_whitespace()).collect())
                } else {
                    Cow::Borrowed(t)
                }
            }
        }
    }
}

/// A token no file line has (a snippet line found nowhere).
pub(super) const UNKNOWN: u32 = u32::MAX;

/// The file's lines under one tier.
#[derive(Debug)]
pub(super) struct TierIndex<'o> {
    tier: Tier,
    /// Each distinct key's token.
    ids: FxHashMap<Cow<'o, str>, u32>,
    /// The token of each file line.
    pub(super) tokens: Vec<u32>,
    /// How many lines have each token.
    counts: Vec<u32>,
    /// The first line with each token.
    first: Vec<u32>,
    /// The automaton of the tokens, first line to last (built on first use).
    forward: OnceCell<Automaton>,
    /// The automaton of the tokens, last line to first (built on first use).
    backward: OnceCell<Automaton>,
}

impl<'o> TierIndex<'o> {
    fn new(lines: &[&'o str], tier: Tier) -> Self {
        let mut ids: FxHashMap<Cow<'o, str>, u32> = FxHashMap::default();
        let tokens: Vec<u32> = lines
            .iter()
            .map(|line| {
                Work::Lazy.charge(1);
                let next = ids.len() as u32;
                *ids.entry(tier.key(line)).or_insert(next)
            })
            .collect();
        let mut counts = vec![0u32; ids.len()];
        let mut first = vec![u32::MAX; ids.len()];
        for (line, &t) in tokens.iter().enumerate() {
            counts[t as usize] += 1;
            first[t as usize] = first[t as usize].min(line as u32);
        }
        TierIndex {
            tier,
            ids,
            tokens,
            counts,
            first,
            forward: OnceCell::new(),
            backward: OnceCell::new(),
        }
    }

    /// How many file lines have token `t` ([`UNKNOWN`]: none).
    fn count(&self, t: u32) -> u32 {
        self.counts.get(t as usize).copied().unwrap_or(0)
    }

    fn forward(&self) -> &Automaton {
        self.forward
            .get_or_init(|| Automaton::new(self.tokens.iter().copied(), self.tokens.len()))
    }

    fn backward(&self) -> &Automaton {
        self.backward
            .get_or_init(|| Automaton::new(self.tokens.iter().rev().copied(), self.tokens.len()))
    }

    /// The shortest prefix of the tokens `s` that occurs exactly once in the file (see
    /// [`Walk`]; `end` is the index of its last line).
    pub(super) fn leading(&self, s: &[u32]) -> Walk {
        match s.first().map(|&t| self.count(t)) {
            None | Some(0) => Walk::Absent,
            Some(1) => Walk::Unique {
                len: 1,
                end: self.first[s[0] as usize] as usize,
            },
            Some(_) => self.forward().shortest_unique(s.iter().copied()),
        }
    }

    /// The shortest suffix of the tokens `s` that occurs exactly once in the file, as a walk
    /// over the reversed file (`end` is the index of its *first* line counted from the file's
    /// end).
    pub(super) fn trailing(&self, s: &[u32]) -> Walk {
        match s.last().map(|&t| self.count(t)) {
            None | Some(0) => Walk::Absent,
            Some(1) => Walk::Unique {
                len: 1,
                end: self.tokens.len() - 1 - self.first[s[s.len() - 1] as usize] as usize,
            },
            Some(_) => self.backward().shortest_unique(s.iter().rev().copied()),
        }
    }

    /// How many times the tokens `s` (non-empty) occur as a run of lines.
    pub(super) fn occurrences(&self, s: &[u32]) -> usize {
        self.forward().occurrences(s.iter().copied())
    }

    /// The token of a snippet line ([`UNKNOWN`] if no file line has its key).
    pub(super) fn token(&self, line: &str) -> u32 {
        self.ids
            .get(self.tier.key(line).as_ref())
            .copied()
            .unwrap_or(UNKNOWN)
    }
}

/// The file's lines under every tier, each built when first asked for.
#[derive(Debug)]
pub(super) struct FileIndex<'o> {
    lines: &'o [&'o str],
    tiers: [OnceCell<TierIndex<'o>>; 3],
}

impl<'o> FileIndex<'o> {
    /// The index of the file `lines` (without line endings).
    pub(super) fn new(lines: &'o [&'o str]) -> Self {
        FileIndex {
            lines,
            tiers: Default::default(),
        }
    }

    /// The index at `tier`.
    pub(super) fn at(&self, tier: Tier) -> &TierIndex<'o> {
        self.tiers[tier as usize].get_or_init(|| TierIndex::new(self.lines, tier))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The naive oracle: the shortest prefix of `s` occurring exactly once among the windows
    /// of `o`, by counting every window.
    fn naive_leading(o: &[u32], s: &[u32]) -> Walk {
        let count = |k: usize| o.windows(k).filter(|w| *w == &s[..k]).count();
        for k in 1..=s.len().min(o.len()) {
            match count(k) {
                0 if k == 1 => return Walk::Absent,
                0 => return Walk::Ambiguous { len: k - 1 },
                1 => {
                    let at = o.windows(k).position(|w| w == &s[..k]).unwrap_or(0);
                    return Walk::Unique {
                        len: k,
                        end: at + k - 1,
                    };
                }
                _ => {}
            }
        }
        match s.len().min(o.len()) {
            0 => Walk::Absent,
            k if count(k) == 0 => Walk::Ambiguous { len: k - 1 },
            k => Walk::Ambiguous { len: k },
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]
        #[test]
        fn leading_and_trailing_agree_with_counting_windows(
            file in proptest::collection::vec(proptest::sample::select(vec!["}", "", "a", "b", "c"]), 0..40),
            snippet in proptest::collection::vec(proptest::sample::select(vec!["}", "", "a", "b", "c", "new"]), 1..7),
        ) {
            let index = FileIndex::new(&file);
            let at = index.at(Tier::Trailing);
            let s: Vec<u32> = snippet.iter().map(|l| at.token(l)).collect();
            let o = at.tokens.clone();
            prop_assert_eq!(at.leading(&s), naive_leading(&o, &s));
            let (mut ro, mut rs) = (o.clone(), s.clone());
            ro.reverse();
            rs.reverse();
            prop_assert_eq!(at.trailing(&s), naive_leading(&ro, &rs));
            let whole = o.windows(s.len()).filter(|w| *w == s.as_slice()).count();
            prop_assert_eq!(at.occurrences(&s), whole);
        }
    }

    #[test]
    fn keys_per_tier() {
        let line = "\t let  x = 1; \r";
        assert_eq!(Tier::Trailing.key(line), "\t let  x = 1;");
        assert_eq!(Tier::Edges.key(line), "let  x = 1;");
        assert_eq!(Tier::All.key(line), "letx=1;");
        let lines = ["a ", " a", "b"];
        let index = FileIndex::new(&lines);
        assert_eq!(index.at(Tier::Trailing).tokens, vec![0, 1, 2]);
        assert_eq!(index.at(Tier::Edges).tokens, vec![0, 0, 1]);
        assert_eq!(index.at(Tier::Edges).token("a\t"), 0);
        assert_eq!(index.at(Tier::Edges).token("c"), UNKNOWN);
        // Once-only lines answer from the counts; repeated ones walk the automata.
        let edges = index.at(Tier::Edges);
        assert_eq!(edges.leading(&[1]), Walk::Unique { len: 1, end: 2 });
        assert_eq!(edges.trailing(&[1]), Walk::Unique { len: 1, end: 0 });
        assert_eq!(edges.leading(&[0, 1]), Walk::Unique { len: 2, end: 2 });
        assert_eq!(edges.trailing(&[0, 0]), Walk::Unique { len: 2, end: 2 });
        assert_eq!(edges.leading(&[UNKNOWN]), Walk::Absent);
        assert_eq!(edges.leading(&[0, 0, 0]), Walk::Unique { len: 2, end: 1 });
        assert_eq!(edges.leading(&[0, UNKNOWN]), Walk::Ambiguous { len: 1 });
        assert_eq!(edges.occurrences(&[0]), 2);
    }
}

//! The file's lines as tokens under each whitespace tier, with their automata, built on first
//! use (most segments place at the first tier, so the looser ones are usually never built).

use std::borrow::Cow;
use std::cell::OnceCell;

use rustc_hash::FxHashMap;

use super::automaton::Automaton;

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
    /// The automaton of the tokens, first line to last.
    pub(super) forward: Automaton,
    /// The automaton of the tokens, last line to first.
    pub(super) backward: Automaton,
}

impl<'o> TierIndex<'o> {
    fn new(lines: &[&'o str], tier: Tier) -> Self {
        let mut ids: FxHashMap<Cow<'o, str>, u32> = FxHashMap::default();
        let tokens: Vec<u32> = lines
            .iter()
            .map(|line| {
                super::cost::charge(1);
                let next = ids.len() as u32;
                *ids.entry(tier.key(line)).or_insert(next)
            })
            .collect();
        let forward = Automaton::new(tokens.iter().copied(), tokens.len());
        let backward = Automaton::new(tokens.iter().rev().copied(), tokens.len());
        TierIndex {
            tier,
            ids,
            tokens,
            forward,
            backward,
        }
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
    }
}

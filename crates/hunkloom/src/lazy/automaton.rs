//! A suffix automaton over a file's line tokens: how often any run of lines occurs in the
//! file, in time proportional to the run's length.
//!
//! Placing a segment needs the *shortest* prefix (and suffix) of its lines that occurs exactly
//! once in the file. Counting each prefix afresh by a scan would cost the file's length per
//! prefix (or per segment, with a Z-algorithm pass); the automaton is built once per file, per
//! whitespace tier and direction, in time linear in the file, and then answers a whole walk
//! along a segment's lines in time linear in the segment. So a lazy edit costs O(file +
//! snippet) whatever the number of segments or how repetitive the file is.
//!
//! This is the classic construction (Blumer et al.): each state is a class of substrings with
//! the same set of end positions; its `count` is the size of that set (the number of
//! occurrences) and `end` the end of the first one.

use rustc_hash::FxHashMap;

use crate::text::Work;

/// No state / no edge.
const NONE: u32 = u32::MAX;

/// A transition of the automaton, in a per-state linked list (needed to copy a state's
/// transitions when it is split).
#[derive(Clone, Copy, Debug)]
struct Edge {
    token: u32,
    target: u32,
    next: u32,
}

/// The suffix automaton of a token sequence.
#[derive(Debug, Default)]
pub(super) struct Automaton {
    /// The length of the longest substring of each state.
    len: Vec<u32>,
    /// The suffix link of each state.
    link: Vec<u32>,
    /// The index of the last token of the first occurrence of each state's substrings.
    end: Vec<u32>,
    /// The number of occurrences of each state's substrings.
    count: Vec<u32>,
    /// The first edge of each state's list.
    head: Vec<u32>,
    edges: Vec<Edge>,
    /// `(state << 32) | token` to the index of that edge.
    lookup: FxHashMap<u64, u32>,
}

/// How the shortest unique prefix of a walk came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Walk {
    /// The first token occurs nowhere.
    Absent,
    /// Every prefix that occurs at all occurs more than once; `len` is the longest of them.
    Ambiguous {
        /// The length of the longest prefix that occurs (more than once).
        len: usize,
    },
    /// The prefix of `len` tokens occurs exactly once, ending at token `end` (inclusive).
    Unique {
        /// The length of the shortest unique prefix.
        len: usize,
        /// The index of its last token in the sequence.
        end: usize,
    },
}

fn key(state: u32, token: u32) -> u64 {
    (u64::from(state) << 32) | u64::from(token)
}

impl Automaton {
    /// The automaton of `tokens` (`hint`: how many there are, for the allocations).
    pub(super) fn new(tokens: impl IntoIterator<Item = u32>, hint: usize) -> Self {
        let mut a = Automaton {
            len: Vec::with_capacity(2 * hint + 1),
            link: Vec::with_capacity(2 * hint + 1),
            end: Vec::with_capacity(2 * hint + 1),
            count: Vec::with_capacity(2 * hint + 1),
            head: Vec::with_capacity(2 * hint + 1),
            edges: Vec::with_capacity(3 * hint),
            lookup: FxHashMap::with_capacity_and_hasher(3 * hint, Default::default()),
        };
        a.state(0, NONE, 0, 0);
        let mut last = 0;
        for (i, token) in tokens.into_iter().enumerate() {
            last = a.extend(last, token, i as u32);
        }
        a.count_occurrences();
        a
    }

    fn state(&mut self, len: u32, link: u32, end: u32, count: u32) -> u32 {
        self.len.push(len);
        self.link.push(link);
        self.end.push(end);
        self.count.push(count);
        self.head.push(NONE);
        (self.len.len() - 1) as u32
    }

    fn next(&self, state: u32, token: u32) -> Option<u32> {
        self.lookup
            .get(&key(state, token))
            .map(|&e| self.edges[e as usize].target)
    }

    fn add_edge(&mut self, state: u32, token: u32, target: u32) {
        let at = self.edges.len() as u32;
        self.edges.push(Edge {
            token,
            target,
            next: self.head[state as usize],
        });
        self.head[state as usize] = at;
        self.lookup.insert(key(state, token), at);
    }

    /// Appends `token` (the `i`-th) after the state of the whole sequence so far, `last`;
    /// returns the new `last`.
    fn extend(&mut self, last: u32, token: u32, i: u32) -> u32 {
        let cur = self.state(self.len[last as usize] + 1, NONE, i, 1);
        let mut p = last;
        Work::Lazy.charge(1);
        while p != NONE && self.next(p, token).is_none() {
            Work::Lazy.charge(1);
            self.add_edge(p, token, cur);
            p = self.link[p as usize];
        }
        if p == NONE {
            self.link[cur as usize] = 0;
            return cur;
        }
        let Some(q) = self.next(p, token) else {
            unreachable!("the loop stops at a state with the transition")
        };
        if self.len[p as usize] + 1 == self.len[q as usize] {
            self.link[cur as usize] = q;
            return cur;
        }
        let clone = self.state(
            self.len[p as usize] + 1,
            self.link[q as usize],
            self.end[q as usize],
            0,
        );
        let mut e = self.head[q as usize];
        while e != NONE {
            Work::Lazy.charge(1);
            let Edge {
                token,
                target,
                next,
            } = self.edges[e as usize];
            self.add_edge(clone, token, target);
            e = next;
        }
        while p != NONE {
            match self.lookup.get(&key(p, token)) {
                Some(&e) if self.edges[e as usize].target == q => {
                    Work::Lazy.charge(1);
                    self.edges[e as usize].target = clone;
                }
                _ => break,
            }
            p = self.link[p as usize];
        }
        self.link[q as usize] = clone;
        self.link[cur as usize] = clone;
        cur
    }

    /// Sums the occurrence counts up the suffix links, longest states first (a counting sort
    /// by length keeps it linear).
    fn count_occurrences(&mut self) {
        let max = self.len.iter().copied().max().unwrap_or(0) as usize;
        let mut by_len = vec![0u32; max + 2];
        for &l in &self.len {
            by_len[l as usize + 1] += 1;
        }
        for l in 1..by_len.len() {
            by_len[l] += by_len[l - 1];
        }
        let mut order = vec![0u32; self.len.len()];
        for (s, &l) in self.len.iter().enumerate() {
            order[by_len[l as usize] as usize] = s as u32;
            by_len[l as usize] += 1;
        }
        for &s in order.iter().rev() {
            let link = self.link[s as usize];
            if link != NONE {
                self.count[link as usize] += self.count[s as usize];
            }
        }
    }

    /// Walks `tokens` from the start and reports the shortest prefix that occurs exactly once
    /// (see [`Walk`]).
    pub(super) fn shortest_unique(&self, tokens: impl IntoIterator<Item = u32>) -> Walk {
        let mut state = 0;
        let mut walked = 0;
        for token in tokens {
            Work::Lazy.charge(1);
            let Some(next) = self.next(state, token) else {
                return match walked {
                    0 => Walk::Absent,
                    len => Walk::Ambiguous { len },
                };
            };
            state = next;
            walked += 1;
            if self.count[state as usize] == 1 {
                return Walk::Unique {
                    len: walked,
                    end: self.end[state as usize] as usize,
                };
            }
        }
        match walked {
            0 => Walk::Absent,
            len => Walk::Ambiguous { len },
        }
    }

    /// How many times `tokens` (non-empty) occur as a run.
    pub(super) fn occurrences(&self, tokens: impl IntoIterator<Item = u32>) -> usize {
        let mut state = 0;
        for token in tokens {
            Work::Lazy.charge(1);
            match self.next(state, token) {
                Some(next) => state = next,
                None => return 0,
            }
        }
        if state == 0 {
            return 0;
        }
        self.count[state as usize] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The naive oracle: count every window.
    fn naive_count(hay: &[u32], needle: &[u32]) -> usize {
        if needle.is_empty() || needle.len() > hay.len() {
            return 0;
        }
        hay.windows(needle.len()).filter(|w| *w == needle).count()
    }

    fn naive_walk(hay: &[u32], needle: &[u32]) -> Walk {
        let mut last = 0;
        for k in 1..=needle.len() {
            match naive_count(hay, &needle[..k]) {
                0 if k == 1 => return Walk::Absent,
                0 => return Walk::Ambiguous { len: k - 1 },
                1 => {
                    let at = hay.windows(k).position(|w| w == &needle[..k]);
                    return Walk::Unique {
                        len: k,
                        end: at.map_or(0, |a| a + k - 1),
                    };
                }
                _ => last = k,
            }
        }
        if last == 0 {
            Walk::Absent
        } else {
            Walk::Ambiguous { len: last }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]
        #[test]
        fn agrees_with_counting_every_window(
            hay in proptest::collection::vec(0u32..4, 0..60),
            needle in proptest::collection::vec(0u32..5, 1..8),
        ) {
            let a = Automaton::new(hay.iter().copied(), hay.len());
            prop_assert_eq!(a.occurrences(needle.iter().copied()), naive_count(&hay, &needle));
            prop_assert_eq!(a.shortest_unique(needle.iter().copied()), naive_walk(&hay, &needle));
            prop_assert!(a.len.len() <= 2 * hay.len().max(1));
        }
    }

    #[test]
    fn repeated_lines() {
        let hay = [7, 1, 7, 1, 7, 2];
        let a = Automaton::new(hay, hay.len());
        assert_eq!(a.occurrences([7, 1]), 2);
        assert_eq!(
            a.shortest_unique([7, 1, 7, 2]),
            Walk::Unique { len: 4, end: 5 }
        );
        assert_eq!(
            a.shortest_unique([7, 1, 7, 1, 7, 1]),
            Walk::Unique { len: 4, end: 3 }
        );
        assert_eq!(a.shortest_unique([1, 7]), Walk::Ambiguous { len: 2 });
        assert_eq!(a.shortest_unique([9]), Walk::Absent);
        assert_eq!(a.shortest_unique([7, 9]), Walk::Ambiguous { len: 1 });
    }
}

//! Prefix sums over the placed regions, so the offset of a region in the preview is found in
//! O(log regions) instead of by walking every region before it.
//!
//! The preview's offset of a region is its original offset plus, over the regions before it,
//! what they now show minus what they replace. [`RegionSums`] keeps both lengths in a treap
//! (a binary search tree balanced by fixed pseudo-random priorities) ordered by where each
//! region starts, each node holding the sums of its subtree: placing a region, changing what
//! it shows and summing the regions before a place each cost O(log regions) (expected), in
//! whatever order blocks arrive, and memory is O(regions).

use crate::text::TextOffset;
use crate::text::Work;

/// Where a region sits in file order: its start and end bytes in the original (distinct for
/// distinct regions, which never overlap).
pub(super) type Key = (usize, usize);

/// No node.
const NIL: usize = usize::MAX;

/// Prefix sums, in file order, of the regions' displayed lengths (as of the end of the last
/// push) and original lengths.
#[derive(Clone, Debug)]
pub(super) struct RegionSums {
    /// Every node, in the order regions were placed.
    nodes: Vec<Node>,
    /// The root node, or [`NIL`].
    root: usize,
    /// The priority generator's state (SplitMix64 from a fixed seed: deterministic).
    seed: u64,
}

/// One region in the tree.
#[derive(Clone, Debug)]
struct Node {
    key: Key,
    priority: u64,
    left: usize,
    right: usize,
    /// The region's (displayed, original) length.
    own: (TextOffset, TextOffset),
    /// The (displayed, original) lengths summed over this subtree.
    sum: (TextOffset, TextOffset),
}

impl Default for RegionSums {
    fn default() -> Self {
        RegionSums {
            nodes: Vec::new(),
            root: NIL,
            seed: 0x6C6F_6F6D_5EED,
        }
    }
}

/// `a + b` in both lengths.
fn add(a: (TextOffset, TextOffset), b: (TextOffset, TextOffset)) -> (TextOffset, TextOffset) {
    (a.0.add(b.0), a.1.add(b.1))
}

impl RegionSums {
    /// Adds the region at `key` (not present yet) showing `shown` in place of `len`.
    pub(super) fn insert(&mut self, key: Key, shown: TextOffset, len: TextOffset) {
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let id = self.nodes.len();
        self.nodes.push(Node {
            key,
            priority: z ^ (z >> 31),
            left: NIL,
            right: NIL,
            own: (shown, len),
            sum: (shown, len),
        });
        let (left, right) = self.split(self.root, key);
        let left = self.merge(left, id);
        self.root = self.merge(left, right);
    }

    /// Records that the region at `key` (present) now shows `shown`.
    pub(super) fn set_shown(&mut self, key: Key, shown: TextOffset) {
        let mut path = Vec::new();
        let mut at = self.root;
        while at != NIL && self.nodes[at].key != key {
            Work::Stream.charge(1);
            path.push(at);
            let n = &self.nodes[at];
            at = if key < n.key { n.left } else { n.right };
        }
        debug_assert!(at != NIL, "set_shown of a region never inserted");
        if at == NIL {
            return;
        }
        let old = std::mem::replace(&mut self.nodes[at].own.0, shown);
        if old == shown {
            return;
        }
        path.push(at);
        for i in path {
            // Every node on the path includes `old`, so this never underflows.
            let sum = &mut self.nodes[i].sum.0;
            *sum = sum.sub(old).add(shown);
        }
    }

    /// The total (displayed, original) length of the regions before `key` in file order.
    pub(super) fn before(&self, key: Key) -> (TextOffset, TextOffset) {
        let mut total = (TextOffset::default(), TextOffset::default());
        let mut at = self.root;
        while at != NIL {
            Work::Stream.charge(1);
            let n = &self.nodes[at];
            if n.key < key {
                total = add(add(total, self.sum(n.left)), n.own);
                at = n.right;
            } else {
                at = n.left;
            }
        }
        total
    }

    /// The total (displayed, original) length of every region.
    pub(super) fn total(&self) -> (TextOffset, TextOffset) {
        self.sum(self.root)
    }

    fn sum(&self, at: usize) -> (TextOffset, TextOffset) {
        if at == NIL {
            Default::default()
        } else {
            self.nodes[at].sum
        }
    }

    /// Recomputes node `at`'s subtree sum from its children.
    fn pull(&mut self, at: usize) {
        let n = &self.nodes[at];
        let sum = add(add(self.sum(n.left), n.own), self.sum(n.right));
        self.nodes[at].sum = sum;
    }

    /// Splits the subtree at `at` into the keys before `key` and the rest.
    fn split(&mut self, at: usize, key: Key) -> (usize, usize) {
        if at == NIL {
            return (NIL, NIL);
        }
        Work::Stream.charge(1);
        if self.nodes[at].key < key {
            let (l, r) = self.split(self.nodes[at].right, key);
            self.nodes[at].right = l;
            self.pull(at);
            (at, r)
        } else {
            let (l, r) = self.split(self.nodes[at].left, key);
            self.nodes[at].left = r;
            self.pull(at);
            (l, at)
        }
    }

    /// Joins two subtrees, every key of `a` before every key of `b`.
    fn merge(&mut self, a: usize, b: usize) -> usize {
        if a == NIL {
            return b;
        }
        if b == NIL {
            return a;
        }
        Work::Stream.charge(1);
        if self.nodes[a].priority > self.nodes[b].priority {
            let right = self.merge(self.nodes[a].right, b);
            self.nodes[a].right = right;
            self.pull(a);
            a
        } else {
            let left = self.merge(a, self.nodes[b].left);
            self.nodes[b].left = left;
            self.pull(b);
            b
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree's sums agree with plain sums over a sorted list, whatever the order regions
    /// arrive in and however their displayed lengths change.
    #[test]
    fn region_sums_match_plain_sums() {
        let at = |n: usize| TextOffset {
            bytes: n,
            utf16: n / 2,
            chars: n / 3,
        };
        let mut sums = RegionSums::default();
        // (key, shown, len), kept sorted by key: the naive oracle.
        let mut plain: Vec<(Key, TextOffset, TextOffset)> = Vec::new();
        for step in 0..300usize {
            if step % 3 != 2 || plain.is_empty() {
                // A new region at a pseudo-random place (keys distinct: start = 10 * slot).
                let slot = (step * 7919) % 1009;
                let key = (slot * 10, slot * 10 + 5);
                if plain.iter().any(|p| p.0 == key) {
                    continue;
                }
                let (shown, len) = (at(step * 31 % 50), at(step * 5 % 13));
                sums.insert(key, shown, len);
                let i = plain.partition_point(|p| p.0 < key);
                plain.insert(i, (key, shown, len));
            } else {
                let i = step * 17 % plain.len();
                plain[i].1 = at(step * 13 % 70);
                sums.set_shown(plain[i].0, plain[i].1);
            }
            for probe in plain.iter().map(|p| p.0).chain([(0, 0), (usize::MAX, 0)]) {
                let expected = plain
                    .iter()
                    .filter(|p| p.0 < probe)
                    .fold(Default::default(), |(s, l): (TextOffset, TextOffset), p| {
                        (s.add(p.1), l.add(p.2))
                    });
                assert_eq!(sums.before(probe), expected);
            }
            let all = plain
                .iter()
                .fold(Default::default(), |(s, l): (TextOffset, TextOffset), p| {
                    (s.add(p.1), l.add(p.2))
                });
            assert_eq!(sums.total(), all);
        }
    }

    /// Regions arriving in file order (the usual case) or in reverse keep the tree shallow.
    #[test]
    fn region_sums_stay_shallow() {
        for reverse in [false, true] {
            let mut sums = RegionSums::default();
            let n = 100_000;
            for i in 0..n {
                let i = if reverse { n - 1 - i } else { i };
                sums.insert(
                    (i * 2, i * 2 + 1),
                    TextOffset::default(),
                    TextOffset::default(),
                );
            }
            fn depth(s: &RegionSums, at: usize) -> usize {
                if at == NIL {
                    return 0;
                }
                1 + depth(s, s.nodes[at].left).max(depth(s, s.nodes[at].right))
            }
            let d = depth(&sums, sums.root);
            assert!(d < 64, "depth {d} for {n} regions");
        }
    }
}

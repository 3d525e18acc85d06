//! Prefix sums over the placed regions, so the offset of a region in the preview is found in
//! O(log regions) instead of by walking every region before it.
//!
//! The preview's offset of a region is its original offset plus, over the regions before it,
//! what they now show minus what they replace. [`RegionSums`] keeps both lengths in a Fenwick
//! tree: rebuilt when a region is inserted (O(regions), once per placed block) and updated in
//! O(log regions) when a push changes what a region shows.

use super::cost::charge;
use crate::text::TextOffset;

/// Prefix sums, in file order, of the regions' displayed lengths (as of the end of the last
/// push) and original lengths.
#[derive(Clone, Debug, Default)]
pub(super) struct RegionSums {
    /// Each region's displayed length as last recorded.
    shown: Vec<TextOffset>,
    /// Node `i` (1-based) sums (displayed, original) over the `i & -i` regions ending at `i`.
    tree: Vec<(TextOffset, TextOffset)>,
}

impl RegionSums {
    /// Every region's (displayed, original) length, in file order; O(regions).
    pub(super) fn rebuild(&mut self, lengths: impl Iterator<Item = (TextOffset, TextOffset)>) {
        self.shown.clear();
        self.tree.clear();
        self.tree.push(Default::default());
        for (shown, len) in lengths {
            self.shown.push(shown);
            self.tree.push((shown, len));
        }
        let n = self.shown.len();
        for i in 1..=n {
            let parent = i + (i & i.wrapping_neg());
            if parent <= n {
                let (shown, len) = self.tree[i];
                let p = &mut self.tree[parent];
                *p = (p.0.add(shown), p.1.add(len));
            }
        }
    }

    /// Records that region `at` (in file order) now shows `shown`.
    pub(super) fn set_shown(&mut self, at: usize, shown: TextOffset) {
        let old = std::mem::replace(&mut self.shown[at], shown);
        if old == shown {
            return;
        }
        let mut i = at + 1;
        while i < self.tree.len() {
            charge(1);
            // Every node above `at` includes `old`, so this never underflows.
            let node = &mut self.tree[i].0;
            *node = node.sub(old).add(shown);
            i += i & i.wrapping_neg();
        }
    }

    /// The total (displayed, original) length of the first `count` regions.
    pub(super) fn prefix(&self, count: usize) -> (TextOffset, TextOffset) {
        let (mut shown, mut len) = (TextOffset::default(), TextOffset::default());
        let mut i = count;
        while i > 0 {
            charge(1);
            let (s, l) = self.tree[i];
            shown = shown.add(s);
            len = len.add(l);
            i &= i - 1;
        }
        (shown, len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The prefix sums agree with plain sums after rebuilds and updates.
    #[test]
    fn region_sums_match_plain_sums() {
        let at = |n: usize| TextOffset {
            bytes: n,
            utf16: n / 2,
            chars: n / 3,
        };
        let mut shown: Vec<TextOffset> = (0..37).map(|i| at(i * 7 % 11)).collect();
        let lens: Vec<TextOffset> = (0..37).map(|i| at(i * 5 % 13)).collect();
        let mut sums = RegionSums::default();
        sums.rebuild(shown.iter().copied().zip(lens.iter().copied()));
        for step in 0..200 {
            let i = step * 17 % shown.len();
            shown[i] = at(step * 31 % 50);
            sums.set_shown(i, shown[i]);
            for count in 0..=shown.len() {
                let plain = shown[..count].iter().zip(&lens[..count]).fold(
                    Default::default(),
                    |(s, l): (TextOffset, TextOffset), (a, b)| (s.add(*a), l.add(*b)),
                );
                assert_eq!(sums.prefix(count), plain);
            }
        }
    }
}

//! [`KeyIndex`]: the positions of every line of a file by the hash of its key (the line, or the
//! line under a looser comparison), so a search visits only the positions of the line it looks
//! for instead of scanning the file. The V4A and Codex readings place many hunks in one file
//! with it; both still compare the lines themselves (a hash only proposes a position).

use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

/// Every line's key hash and position packed in one `u64` (the hash's high bits above the
/// position's), sorted: the positions of one hash are a run, ascending. Packing halves the
/// entries and makes the sort a sort of integers — the index of a file is built on the first
/// search past the scanning budget, and the sort was most of that search.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyIndex {
    entries: Vec<u64>,
    /// How many low bits hold the position.
    position_bits: u32,
}

impl KeyIndex {
    /// The index of `keys`, the key of each line in order.
    pub(crate) fn new<K: AsRef<str>>(keys: impl ExactSizeIterator<Item = K>) -> Self {
        let position_bits = usize::BITS - keys.len().leading_zeros();
        let mut entries: Vec<u64> = keys
            .enumerate()
            .map(|(i, k)| Self::pack(hash(k.as_ref()), i, position_bits))
            .collect();
        entries.sort_unstable();
        KeyIndex {
            entries,
            position_bits,
        }
    }

    /// `h`'s high bits above position `i`.
    fn pack(h: u64, i: usize, position_bits: u32) -> u64 {
        Self::prefix(h, position_bits) | i as u64
    }

    /// `h`'s high bits, where the packed entries hold them.
    fn prefix(h: u64, position_bits: u32) -> u64 {
        h.checked_shr(position_bits)
            .and_then(|high| high.checked_shl(position_bits))
            .unwrap_or(0)
    }

    /// The positions whose key may be `key` (same hash bits), ascending, from `from` on.
    pub(crate) fn positions(&self, key: &str, from: usize) -> impl Iterator<Item = usize> + '_ {
        let (run, first) = self.run(hash(key), from);
        let mask = self.mask();
        run[first..].iter().map(move |e| (e & mask) as usize)
    }

    /// How many positions from `from` on [`positions`](Self::positions) gives.
    pub(crate) fn count(&self, key: &str, from: usize) -> usize {
        let (run, first) = self.run(hash(key), from);
        run.len() - first
    }

    /// The low bits that hold a position.
    fn mask(&self) -> u64 {
        1u64.checked_shl(self.position_bits)
            .map_or(u64::MAX, |b| b - 1)
    }

    /// The entries whose hash bits are `h`'s, by ascending position, and where those from
    /// position `from` on begin among them.
    fn run(&self, h: u64, from: usize) -> (&[u64], usize) {
        let prefix = Self::prefix(h, self.position_bits);
        let start = self.entries.partition_point(|&e| e < prefix);
        let len = self.entries[start..].partition_point(|&e| e & !self.mask() == prefix);
        let run = &self.entries[start..start + len];
        (
            run,
            run.partition_point(|&e| ((e & self.mask()) as usize) < from),
        )
    }
}

fn hash(s: &str) -> u64 {
    FxBuildHasher.hash_one(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_come_in_order_from_the_start_given() {
        let index = KeyIndex::new(["a", "b", "a", "c", "a"].into_iter());
        assert_eq!(index.positions("a", 0).collect::<Vec<_>>(), [0, 2, 4]);
        assert_eq!(index.positions("a", 1).collect::<Vec<_>>(), [2, 4]);
        assert_eq!(index.count("a", 3), 1);
        assert_eq!(index.positions("z", 0).count(), 0);
    }

    #[test]
    fn every_line_is_found_at_its_positions_in_a_large_index() {
        let keys: Vec<String> = (0..5000).map(|i| format!("line {}", i % 1234)).collect();
        let index = KeyIndex::new(keys.iter());
        for probe in [0, 1, 617, 1233] {
            let key = format!("line {probe}");
            let want: Vec<usize> = (0..keys.len()).filter(|&i| keys[i] == key).collect();
            for from in [0, 1, 1234, 2000, 4999, 5000] {
                let got: Vec<usize> = index
                    .positions(&key, from)
                    .filter(|&i| keys[i] == key)
                    .collect();
                let expected: Vec<usize> = want.iter().copied().filter(|&i| i >= from).collect();
                assert_eq!(got, expected, "{key} from {from}");
                assert!(index.count(&key, from) >= expected.len());
            }
        }
    }
}

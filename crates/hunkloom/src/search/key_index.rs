//! [`KeyIndex`]: the positions of every line of a file by the hash of its key (the line, or the
//! line under a looser comparison), so a search visits only the positions of the line it looks
//! for instead of scanning the file. The V4A and Codex readings place many hunks in one file
//! with it; both still compare the lines themselves (a hash only proposes a position).

use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

/// Every line's `(key hash, position)`, sorted: the positions of one hash are a run, ascending.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyIndex {
    entries: Vec<(u64, usize)>,
}

impl KeyIndex {
    /// The index of `keys`, the key of each line in order.
    pub(crate) fn new<K: AsRef<str>>(keys: impl Iterator<Item = K>) -> Self {
        let mut entries: Vec<(u64, usize)> = keys
            .enumerate()
            .map(|(i, k)| (hash(k.as_ref()), i))
            .collect();
        entries.sort_unstable();
        KeyIndex { entries }
    }

    /// The positions whose key may be `key` (same hash), ascending, from position `from` on.
    pub(crate) fn positions(&self, key: &str, from: usize) -> impl Iterator<Item = usize> + '_ {
        let run = self.run(hash(key));
        run[run.partition_point(|e| e.1 < from)..]
            .iter()
            .map(|e| e.1)
    }

    /// How many positions from `from` on [`positions`](Self::positions) gives.
    pub(crate) fn count(&self, key: &str, from: usize) -> usize {
        let run = self.run(hash(key));
        run.len() - run.partition_point(|e| e.1 < from)
    }

    /// The entries whose hash is `h`, by ascending position.
    fn run(&self, h: u64) -> &[(u64, usize)] {
        let start = self.entries.partition_point(|e| e.0 < h);
        let len = self.entries[start..].partition_point(|e| e.0 == h);
        &self.entries[start..start + len]
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
}

//! What the engine learns about the original once and reuses for every block: whether it holds
//! a `\r`, its loose line index ([`LooseLineIndex`]), and, once many blocks have searched it,
//! an index of its exact lines ([`ExactLines`]).
//!
//! The exact tier first searches the whole file with `memmem` (cheapest for a few blocks and
//! nothing to build). Each search costs O(file), so a diff of n blocks over a file of m bytes
//! would cost O(n·m); once the searches have read the file [`SCANS_BEFORE_INDEX`] times, the
//! file's lines are hashed into buckets once (O(m)), and each later block looks up its rarest
//! line and checks those places only: O(k + places × block) for a block of k lines (expected,
//! over the hash). Both give the same candidates, in the same order (the tests check one against the
//! other).

use std::cell::{Cell, OnceCell};
use std::hash::Hasher;

use memchr::memmem;
use rustc_hash::FxHasher;

use super::loose_lines::LooseLineIndex;
use crate::text::Work;

/// Whole-file searches read before the exact lines are indexed.
const SCANS_BEFORE_INDEX: usize = 8;

/// Facts about one original text, computed when first needed.
#[derive(Clone, Debug, Default)]
pub(crate) struct FileIndex {
    /// The original's lines under the loose key, built on the first tolerant match.
    pub(crate) loose: OnceCell<LooseLineIndex>,
    /// Whether the original holds a `\r`.
    has_cr: OnceCell<bool>,
    /// Bytes read by whole-file searches so far.
    scanned: Cell<usize>,
    /// The exact lines, once searches have read the file often enough (`None` for a text too
    /// large to index in 32-bit offsets).
    exact: OnceCell<Option<ExactLines>>,
}

impl FileIndex {
    /// An index whose exact lines are used from the first search, with the loose index
    /// already built if `loose` (the states an engine can be in, for the tests).
    #[cfg(test)]
    pub(crate) fn warmed(text: &str, loose: bool) -> Self {
        let ix = FileIndex {
            scanned: Cell::new(usize::MAX),
            ..FileIndex::default()
        };
        if loose {
            ix.loose.get_or_init(|| LooseLineIndex::new(text));
        }
        ix
    }

    /// Whether `text` (the original) holds a `\r`; scanned once.
    pub(crate) fn has_cr(&self, text: &str) -> bool {
        *self
            .has_cr
            .get_or_init(|| memchr::memchr(b'\r', text.as_bytes()).is_some())
    }

    /// The starts of the line-aligned occurrences of `needle` in `text` (the original), in
    /// increasing order, overlapping ones included. `needle` is whole lines, each ending in
    /// `\n`, and is not empty.
    pub(crate) fn line_aligned_hits(&self, text: &str, needle: &str) -> Vec<usize> {
        debug_assert!(needle.ends_with('\n'));
        let indexed = self.scanned.get() >= SCANS_BEFORE_INDEX.saturating_mul(text.len());
        if indexed && let Some(lines) = self.exact.get_or_init(|| ExactLines::new(text)) {
            return lines.hits(text, needle);
        }
        self.scanned
            .set(self.scanned.get().saturating_add(text.len()));
        Work::Search.charge(text.len());
        scan_hits(text, needle)
    }
}

/// Line-aligned `memmem` hits of `needle` in `text`: the reference the index must agree with.
fn scan_hits(text: &str, needle: &str) -> Vec<usize> {
    let finder = memmem::Finder::new(needle.as_bytes());
    let hay = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = finder.find(&hay[at..]) {
        let start = at + i;
        at = start + 1;
        if start == 0 || hay[start - 1] == b'\n' {
            out.push(start);
        }
    }
    out
}

/// The lines of a text (each with its `\n`, the last one possibly without), hashed into a
/// table of buckets (a counting sort by bucket: built in O(lines), each lookup reads one bucket,
/// two cache misses rather than a binary search's twenty).
#[derive(Clone, Debug)]
pub(crate) struct ExactLines {
    /// `starts[i]` is where line `i` begins; `starts[len]` is the text's length.
    starts: Vec<u32>,
    /// Bucket `b` holds `entries[heads[b]..heads[b + 1]]`.
    heads: Vec<u32>,
    /// (hash of the line's bytes, line), by bucket, lines increasing within a bucket.
    entries: Vec<(u32, u32)>,
    /// `hash >> shift` is a line's bucket.
    shift: u32,
}

impl ExactLines {
    /// Indexes `text`; `None` when it is too large for 32-bit offsets.
    fn new(text: &str) -> Option<Self> {
        u32::try_from(text.len()).ok()?;
        let mut starts: Vec<u32> = Vec::with_capacity(text.len() / 32 + 2);
        starts.push(0);
        // (Offsets fit: the text's length does.)
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i as u32 + 1));
        if *starts.last().unwrap_or(&0) as usize != text.len() {
            starts.push(text.len() as u32);
        }
        let bytes = text.as_bytes();
        let hashes: Vec<u32> = starts
            .windows(2)
            .map(|w| line_hash(&bytes[w[0] as usize..w[1] as usize]))
            .collect();
        let bits = hashes
            .len()
            .max(1)
            .next_power_of_two()
            .trailing_zeros()
            .max(1);
        let shift = 32 - bits;
        let mut heads = vec![0u32; (1 << bits) + 1];
        for &h in &hashes {
            heads[(h >> shift) as usize + 1] += 1;
        }
        for b in 1..heads.len() {
            heads[b] += heads[b - 1];
        }
        let mut fill = heads.clone();
        let mut entries = vec![(0u32, 0u32); hashes.len()];
        for (line, &h) in hashes.iter().enumerate() {
            let slot = &mut fill[(h >> shift) as usize];
            entries[*slot as usize] = (h, line as u32);
            *slot += 1;
        }
        Some(ExactLines {
            starts,
            heads,
            entries,
            shift,
        })
    }

    /// The lines whose bytes hash like `line`'s, in increasing order.
    fn places(&self, line: &[u8]) -> Vec<u32> {
        let h = line_hash(line);
        let b = (h >> self.shift) as usize;
        let bucket = &self.entries[self.heads[b] as usize..self.heads[b + 1] as usize];
        bucket.iter().filter(|e| e.0 == h).map(|e| e.1).collect()
    }

    /// What [`scan_hits`] finds, from the places of the needle's rarest line.
    fn hits(&self, text: &str, needle: &str) -> Vec<usize> {
        let bytes = needle.as_bytes();
        let mut best: Option<(usize, Vec<u32>)> = None;
        for (j, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
            let places = self.places(line);
            let empty = places.is_empty();
            if best.as_ref().is_none_or(|(_, b)| places.len() < b.len()) {
                best = Some((j, places));
            }
            if empty {
                break;
            }
        }
        let Some((j, places)) = best else {
            return Vec::new();
        };
        let hay = text.as_bytes();
        let mut out = Vec::new();
        Work::Search.charge(bytes.len() + places.len());
        // Places are in increasing line order, so the starts come out increasing.
        for line in places {
            let Some(first) = (line as usize).checked_sub(j) else {
                continue;
            };
            let start = self.starts[first] as usize;
            if hay[start..].starts_with(bytes) {
                out.push(start);
            }
        }
        out
    }
}

/// The hash of one line's bytes (its line ending included).
fn line_hash(line: &[u8]) -> u32 {
    let mut h = FxHasher::default();
    h.write(line);
    let x = h.finish();
    (x ^ (x >> 32)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index finds what the scan finds: every line-aligned occurrence, overlapping ones
    /// included, on texts of few distinct lines (many repeats) and needles of 1–4 lines.
    #[test]
    fn index_hits_equal_scan_hits() {
        let words = ["a", "b", "", "a b", "  a"];
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..300 {
            let lines = next(30);
            let mut text = String::new();
            for _ in 0..lines {
                text.push_str(words[next(words.len())]);
                text.push('\n');
            }
            if next(2) == 0 {
                text.pop();
            }
            let lines = ExactLines::new(&text).expect("small");
            for _ in 0..20 {
                let mut needle = String::new();
                for _ in 0..1 + next(4) {
                    needle.push_str(words[next(words.len())]);
                    needle.push('\n');
                }
                assert_eq!(
                    lines.hits(&text, &needle),
                    scan_hits(&text, &needle),
                    "{text:?} {needle:?}"
                );
            }
        }
    }

    /// After enough whole-file searches the index answers, with the same hits.
    #[test]
    fn switches_to_the_index() {
        let text: String = (0..100).map(|i| format!("line {}\n", i % 7)).collect();
        let ix = FileIndex::default();
        let needle = "line 3\nline 4\n";
        let first = ix.line_aligned_hits(&text, needle);
        for _ in 0..SCANS_BEFORE_INDEX + 2 {
            assert_eq!(ix.line_aligned_hits(&text, needle), first);
        }
        assert!(matches!(ix.exact.get(), Some(Some(_))));
        assert_eq!(first.len(), 14);
    }
}

//! Roo's similarity of two texts: `1 − levenshtein / max length`, both texts first normalized
//! (typographic quotes, dashes, the ellipsis and NBSP to ASCII, every whitespace run to one
//! space, trimmed), in UTF-16 code units as JavaScript counts them.
//!
//! The distance is Myers' bit-parallel algorithm (Hyyrö's form for patterns longer than one
//! word): O(⌈m/64⌉·n) for texts of m and n units, the same bound as the `fastest-levenshtein`
//! package Roo calls. Any correct edit distance gives the same number, so the scores, and the
//! `f64` arithmetic made from them, are Roo's exactly.

use rustc_hash::FxHashMap;

use crate::text::is_js_whitespace;

/// Appends `text`'s normalized form to `out` (with one space before it if `out` is not empty
/// and `text` normalizes to something), as UTF-16 units.
pub(super) fn push_normalized(text: &str, out: &mut Vec<u16>) {
    let mut pending_space = !out.is_empty();
    let mut wrote = false;
    for c in text.chars() {
        let mapped: &str = match c {
            '\u{201C}' | '\u{201D}' => "\"",
            '\u{2018}' | '\u{2019}' => "'",
            '\u{2026}' => "...",
            '\u{2014}' | '\u{2013}' => "-",
            c if is_js_whitespace(c) => {
                pending_space |= wrote;
                continue;
            }
            _ => {
                if pending_space {
                    out.push(u16::from(b' '));
                    pending_space = false;
                }
                wrote = true;
                let mut buf = [0u16; 2];
                out.extend_from_slice(c.encode_utf16(&mut buf));
                continue;
            }
        };
        if pending_space {
            out.push(u16::from(b' '));
            pending_space = false;
        }
        wrote = true;
        out.extend(mapped.bytes().map(u16::from));
    }
}

/// The normalized form of `text`.
pub(super) fn normalized(text: &str) -> Vec<u16> {
    let mut out = Vec::new();
    push_normalized(text, &mut out);
    out
}

/// Roo's score from an edit distance and the two normalized lengths, in Roo's `f64` arithmetic.
pub(super) fn score(distance: usize, a_len: usize, b_len: usize) -> f64 {
    1.0 - distance as f64 / a_len.max(b_len) as f64
}

/// A normalized SEARCH text prepared for many distance computations (its per-unit bit masks).
pub(super) struct Pattern {
    units: Vec<u16>,
    words: usize,
    ascii: Vec<u64>,
    other: FxHashMap<u16, Vec<u64>>,
}

impl Pattern {
    pub(super) fn new(units: Vec<u16>) -> Self {
        let words = units.len().div_ceil(64).max(1);
        let mut ascii = vec![0u64; 128 * words];
        let mut other: FxHashMap<u16, Vec<u64>> = FxHashMap::default();
        for (i, &u) in units.iter().enumerate() {
            let bit = 1u64 << (i % 64);
            if u < 128 {
                ascii[usize::from(u) * words + i / 64] |= bit;
            } else {
                other.entry(u).or_insert_with(|| vec![0; words])[i / 64] |= bit;
            }
        }
        Pattern {
            units,
            words,
            ascii,
            other,
        }
    }

    /// The normalized text.
    pub(super) fn units(&self) -> &[u16] {
        &self.units
    }

    /// The masks of `u`'s positions, or `None` if it does not occur.
    fn peq(&self, u: u16) -> Option<&[u64]> {
        if u < 128 {
            let at = usize::from(u) * self.words;
            Some(&self.ascii[at..at + self.words])
        } else {
            self.other.get(&u).map(Vec::as_slice)
        }
    }

    /// Roo's similarity of this SEARCH text and the normalized `text`.
    pub(super) fn similarity(&self, text: &[u16], scratch: &mut Scratch) -> f64 {
        if text == self.units.as_slice() {
            return 1.0;
        }
        score(self.distance(text, scratch), self.units.len(), text.len())
    }

    /// The Levenshtein distance between this pattern and `text`.
    pub(super) fn distance(&self, text: &[u16], scratch: &mut Scratch) -> usize {
        let m = self.units.len();
        if m == 0 {
            return text.len();
        }
        if text.is_empty() {
            return m;
        }
        let words = self.words;
        scratch.pv.clear();
        scratch.pv.resize(words, !0);
        scratch.mv.clear();
        scratch.mv.resize(words, 0);
        let last_bit = 1u64 << ((m - 1) % 64);
        let mut score = m;
        for &u in text {
            let peq = self.peq(u);
            // The horizontal delta entering the top of the first word: row 0 counts up by one.
            let mut h_in: i8 = 1;
            for w in 0..words {
                let eq = match peq {
                    Some(p) => p[w],
                    None => 0,
                };
                let high = if w + 1 == words { last_bit } else { 1 << 63 };
                h_in = advance(&mut scratch.pv[w], &mut scratch.mv[w], eq, h_in, high);
            }
            if h_in > 0 {
                score += 1;
            } else if h_in < 0 {
                score -= 1;
            }
        }
        score
    }
}

/// Buffers reused across distance computations.
#[derive(Default)]
pub(super) struct Scratch {
    pv: Vec<u64>,
    mv: Vec<u64>,
}

/// One column step of one 64-row word (Myers 1999, `advance_block`): updates the vertical
/// deltas and returns the horizontal delta leaving the row `high` marks.
#[inline]
fn advance(pv: &mut u64, mv: &mut u64, eq: u64, h_in: i8, high: u64) -> i8 {
    let (p, m) = (*pv, *mv);
    let xv = eq | m;
    let eq = if h_in < 0 { eq | 1 } else { eq };
    let xh = ((eq & p).wrapping_add(p) ^ p) | eq;
    let mut ph = m | !(xh | p);
    let mut mh = p & xh;
    let h_out = if ph & high != 0 {
        1
    } else if mh & high != 0 {
        -1
    } else {
        0
    };
    ph <<= 1;
    mh <<= 1;
    if h_in < 0 {
        mh |= 1;
    } else if h_in > 0 {
        ph |= 1;
    }
    *pv = mh | !(xv | ph);
    *mv = ph & xv;
    h_out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(a: &[u16], b: &[u16]) -> usize {
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, &x) in a.iter().enumerate() {
            let mut cur = vec![i + 1; b.len() + 1];
            for (j, &y) in b.iter().enumerate() {
                cur[j + 1] = (prev[j] + usize::from(x != y))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1);
            }
            prev = cur;
        }
        prev[b.len()]
    }

    #[test]
    fn bit_parallel_distance_equals_the_textbook_one() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut scratch = Scratch::default();
        for _ in 0..400 {
            let len_a = (next() % 200) as usize;
            let len_b = (next() % 200) as usize;
            let alphabet = 2 + next() % 5;
            let unit = |n: u64| -> u16 {
                if n.is_multiple_of(7) {
                    0x4E00 + (n % 3) as u16
                } else {
                    b'a' as u16 + (n % alphabet) as u16
                }
            };
            let a: Vec<u16> = (0..len_a).map(|_| unit(next())).collect();
            let b: Vec<u16> = (0..len_b).map(|_| unit(next())).collect();
            let p = Pattern::new(a.clone());
            assert_eq!(p.distance(&b, &mut scratch), naive(&a, &b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn normalization_folds_punctuation_and_whitespace() {
        let n = normalized("  \u{201C}a\u{201D}\t\u{2014}\u{00A0} b\u{2026}\n");
        assert_eq!(String::from_utf16(&n).unwrap(), "\"a\" - b...");
        let mut out = normalized("x");
        push_normalized("   ", &mut out);
        push_normalized(" y ", &mut out);
        assert_eq!(String::from_utf16(&out).unwrap(), "x y");
    }
}

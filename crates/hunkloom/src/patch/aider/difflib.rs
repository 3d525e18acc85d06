//! Python's `difflib.SequenceMatcher` (its `ratio`, `quick_ratio` and `real_quick_ratio`, with
//! the default `autojunk`) and `get_close_matches`, which decide aider's file-name guesses and
//! its "Did you mean" hints.

use std::collections::HashMap;
use std::hash::Hash;

/// `2.0 * matches / length`, or 1 for two empty sequences.
fn ratio_of(matches: usize, length: usize) -> f64 {
    if length == 0 {
        1.0
    } else {
        2.0 * matches as f64 / length as f64
    }
}

/// A `SequenceMatcher(None, a, b)`.
pub(super) struct SequenceMatcher<'a, T> {
    a: &'a [T],
    b: &'a [T],
    /// Where each element of `b` occurs (popular elements removed when `b` has 200 or more).
    b2j: HashMap<&'a T, Vec<usize>>,
}

impl<'a, T: Eq + Hash> SequenceMatcher<'a, T> {
    pub(super) fn new(a: &'a [T], b: &'a [T]) -> Self {
        let mut b2j: HashMap<&T, Vec<usize>> = HashMap::new();
        for (j, elt) in b.iter().enumerate() {
            b2j.entry(elt).or_default().push(j);
        }
        if b.len() >= 200 {
            let most = b.len() / 100 + 1;
            b2j.retain(|_, indices| indices.len() <= most);
        }
        SequenceMatcher { a, b, b2j }
    }

    /// `find_longest_match(alo, ahi, blo, bhi)` (no junk: only popular elements cannot start
    /// a match, though the match may extend over them).
    fn longest(&self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> (usize, usize, usize) {
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
        let mut j2len: HashMap<usize, usize> = HashMap::new();
        for i in alo..ahi {
            let mut next: HashMap<usize, usize> = HashMap::new();
            if let Some(js) = self.b2j.get(&self.a[i]) {
                for &j in js {
                    if j < blo {
                        continue;
                    }
                    if j >= bhi {
                        break;
                    }
                    let k = j
                        .checked_sub(1)
                        .and_then(|p| j2len.get(&p))
                        .copied()
                        .unwrap_or(0)
                        + 1;
                    next.insert(j, k);
                    if k > bestsize {
                        besti = i + 1 - k;
                        bestj = j + 1 - k;
                        bestsize = k;
                    }
                }
            }
            j2len = next;
        }
        while besti > alo && bestj > blo && self.a[besti - 1] == self.b[bestj - 1] {
            besti -= 1;
            bestj -= 1;
            bestsize += 1;
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && self.a[besti + bestsize] == self.b[bestj + bestsize]
        {
            bestsize += 1;
        }
        (besti, bestj, bestsize)
    }

    /// The total size of `get_matching_blocks()`.
    fn matches(&self) -> usize {
        let mut queue = vec![(0, self.a.len(), 0, self.b.len())];
        let mut total = 0;
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let (i, j, k) = self.longest(alo, ahi, blo, bhi);
            if k > 0 {
                total += k;
                if alo < i && blo < j {
                    queue.push((alo, i, blo, j));
                }
                if i + k < ahi && j + k < bhi {
                    queue.push((i + k, ahi, j + k, bhi));
                }
            }
        }
        total
    }

    /// `ratio()`.
    pub(super) fn ratio(&self) -> f64 {
        ratio_of(self.matches(), self.a.len() + self.b.len())
    }

    /// `quick_ratio()`: the multiset intersection's size.
    fn quick_ratio(&self) -> f64 {
        let mut available: HashMap<&T, usize> = HashMap::new();
        for elt in self.b {
            *available.entry(elt).or_default() += 1;
        }
        let mut matches = 0;
        for elt in self.a {
            if let Some(n) = available.get_mut(elt)
                && *n > 0
            {
                *n -= 1;
                matches += 1;
            }
        }
        ratio_of(matches, self.a.len() + self.b.len())
    }

    /// `real_quick_ratio()`.
    fn real_quick_ratio(&self) -> f64 {
        ratio_of(self.a.len().min(self.b.len()), self.a.len() + self.b.len())
    }
}

/// `difflib.get_close_matches(word, possibilities, n=1, cutoff)`: the best possibility scoring
/// at least `cutoff` (ties to the greater string, as `heapq.nlargest` on `(score, x)` does).
pub(super) fn closest_match<'p>(
    word: &str,
    possibilities: &'p [String],
    cutoff: f64,
) -> Option<&'p str> {
    let word: Vec<char> = word.chars().collect();
    let mut best: Option<(f64, &str)> = None;
    for x in possibilities {
        let chars: Vec<char> = x.chars().collect();
        let s = SequenceMatcher::new(&chars, &word);
        if s.real_quick_ratio() >= cutoff && s.quick_ratio() >= cutoff {
            let score = s.ratio();
            if score >= cutoff {
                let better = match best {
                    None => true,
                    Some((b, bx)) => score > b || (score == b && x.as_str() > bx),
                };
                if better {
                    best = Some((score, x));
                }
            }
        }
    }
    best.map(|(_, x)| x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(a: &str, b: &str) -> f64 {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        SequenceMatcher::new(&a, &b).ratio()
    }

    #[test]
    fn ratios_are_pythons() {
        // Values printed by CPython 3.11's difflib.
        assert_eq!(ratio("abcd", "bcde"), 0.75);
        assert_eq!(ratio("", ""), 1.0);
        assert!(
            (ratio(
                "private Thread currentThread;",
                "private volatile Thread currentThread;"
            ) - 0.8656716417910447)
                .abs()
                < 1e-15
        );
    }

    #[test]
    fn close_matches_pick_the_best() {
        let names = vec![
            "app.py".to_owned(),
            "apple.py".to_owned(),
            "main.py".to_owned(),
        ];
        assert_eq!(closest_match("app.pyy", &names, 0.8), Some("app.py"));
        assert_eq!(closest_match("zzz", &names, 0.8), None);
    }
}

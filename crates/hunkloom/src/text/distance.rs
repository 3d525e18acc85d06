//! Edit distances, in one place for every dialect and layer that measures how far two texts
//! are: over any unit (`char`s, UTF-16 code units, bytes), so each caller counts in the unit
//! its reference counts in.

/// The Levenshtein distance (insertions, deletions, substitutions) between `a` and `b`, two
/// rows at a time.
pub fn edit_distance<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    edit_distance_within(a, b, usize::MAX).unwrap_or(usize::MAX)
}

/// [`edit_distance`] if it is at most `cap`; `None` as soon as every cell of a row exceeds it
/// (the distance can only grow from there).
pub fn edit_distance_within<T: PartialEq>(a: &[T], b: &[T], cap: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > cap {
        return None;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        let mut best = row[0];
        for (j, y) in b.iter().enumerate() {
            let value = (diagonal + usize::from(x != y))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = value;
            best = best.min(value);
        }
        if best > cap {
            return None;
        }
    }
    Some(row[b.len()]).filter(|&d| d <= cap)
}

/// The optimal-string-alignment distance: [`edit_distance`] that also counts swapping two
/// adjacent units as one edit (`teh` → `the`).
pub fn osa_distance<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let (n, m) = (a.len(), b.len());
    // Three rows: two back (for swaps), one back, and the current one.
    let mut two_back = vec![0usize; m + 1];
    let mut one_back: Vec<usize> = (0..=m).collect();
    let mut row = vec![0usize; m + 1];
    for i in 1..=n {
        row[0] = i;
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (one_back[j] + 1)
                .min(row[j - 1] + 1)
                .min(one_back[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(two_back[j - 2] + 1);
            }
            row[j] = v;
        }
        std::mem::swap(&mut two_back, &mut one_back);
        std::mem::swap(&mut one_back, &mut row);
    }
    one_back[m]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn distances_count_edits() {
        assert_eq!(edit_distance(&chars("kitten"), &chars("sitting")), 3);
        assert_eq!(edit_distance(&chars(""), &chars("abc")), 3);
        assert_eq!(edit_distance(&chars("é"), &chars("e")), 1);
        assert_eq!(edit_distance(b"flaw", b"lawn"), 2);
        assert_eq!(
            edit_distance_within(&chars("kitten"), &chars("sitting"), 2),
            None
        );
        assert_eq!(
            edit_distance_within(&chars("kitten"), &chars("sitting"), 3),
            Some(3)
        );
        assert_eq!(edit_distance_within(&chars("a"), &chars("abcd"), 2), None);
        assert_eq!(osa_distance(&chars("teh"), &chars("the")), 1);
        assert_eq!(edit_distance(&chars("teh"), &chars("the")), 2);
        assert_eq!(osa_distance(&chars("ca"), &chars("abc")), 3);
        assert_eq!(osa_distance(&chars("kitten"), &chars("sitting")), 3);
    }
}

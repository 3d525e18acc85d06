//! Run agreement: for every position of a haystack of line keys, how many lines from there
//! (or up to there) agree with a needle (the Z-algorithm's matching phase), in time linear in
//! both and without copies; and from that, every run of the needle.
//!
//! This is the contract of the `native` tiers: each tier counts all its candidates in the whole
//! file (two or more are ambiguous), and the typo tier wants windows where all lines but one
//! agree. (For the first run only, stopping there, see
//! [`first_accepted`](super::first_accepted).)

/// `out[i]` = the number of leading lines of `needle` that `hay[i..]` agrees with.
pub(crate) fn common_prefixes(needle: &[u64], hay: &[u64]) -> Vec<u32> {
    lcp(needle.len(), |j| needle[j], hay.len(), |i| hay[i])
}

/// `out[i]` = the number of trailing lines of `needle` that `hay[..=i]` agrees with.
pub(crate) fn common_suffixes(needle: &[u64], hay: &[u64]) -> Vec<u32> {
    let (m, n) = (needle.len(), hay.len());
    let mut out = lcp(m, |j| needle[m - 1 - j], n, |i| hay[n - 1 - i]);
    out.reverse();
    out
}

/// Every `i` where `needle` occurs in `hay` (overlapping occurrences included).
pub(crate) fn all_runs(needle: &[u64], hay: &[u64]) -> Vec<usize> {
    if needle.is_empty() {
        return Vec::new();
    }
    common_prefixes(needle, hay)
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n as usize == needle.len())
        .map(|(i, _)| i)
        .collect()
}

/// For each `i < n`, the longest common prefix of `hay[i..]` and `needle` (given by index).
fn lcp(m: usize, needle: impl Fn(usize) -> u64, n: usize, hay: impl Fn(usize) -> u64) -> Vec<u32> {
    let mut out = vec![0u32; n];
    if m == 0 {
        return out;
    }
    // z[j]: the longest common prefix of needle and needle[j..].
    let mut z = vec![0usize; m];
    z[0] = m;
    let (mut l, mut r) = (0, 0);
    for j in 1..m {
        let mut k = if j < r { (r - j).min(z[j - l]) } else { 0 };
        while j + k < m && needle(k) == needle(j + k) {
            k += 1;
        }
        z[j] = k;
        if j + k > r {
            (l, r) = (j, j + k);
        }
    }
    // The same over the haystack: hay[l..r] agrees with needle[..r - l].
    let (mut l, mut r) = (0, 0);
    for (i, slot) in out.iter_mut().enumerate() {
        let mut k = if i < r { (r - i).min(z[i - l]) } else { 0 };
        while k < m && i + k < n && hay(i + k) == needle(k) {
            k += 1;
        }
        *slot = k as u32;
        if i + k > r {
            (l, r) = (i, i + k);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive_prefix(needle: &[u64], hay: &[u64], i: usize) -> u32 {
        needle
            .iter()
            .zip(&hay[i..])
            .take_while(|(a, b)| a == b)
            .count() as u32
    }

    proptest! {
        #[test]
        fn agrees_with_naive(
            hay in proptest::collection::vec(prop_oneof![Just(1u64), Just(3), Just(5)], 0..40),
            needle in proptest::collection::vec(prop_oneof![Just(1u64), Just(3), Just(5)], 1..6),
        ) {
            let pre = common_prefixes(&needle, &hay);
            let suf = common_suffixes(&needle, &hay);
            for i in 0..hay.len() {
                prop_assert_eq!(pre[i], naive_prefix(&needle, &hay, i));
                let want = needle.iter().rev().zip(hay[..=i].iter().rev())
                    .take_while(|(a, b)| a == b).count() as u32;
                prop_assert_eq!(suf[i], want);
            }
            let occ: Vec<usize> = (0..hay.len())
                .filter(|&i| hay[i..].starts_with(&needle))
                .collect();
            prop_assert_eq!(all_runs(&needle, &hay), occ);
        }
    }
}

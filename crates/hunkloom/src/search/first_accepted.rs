//! The first accepted run: searching a sequence of line keys for a run of line keys from a
//! start position, in scan order, stopping at the first run the caller confirms
//! (Knuth–Morris–Pratt), in time linear in both.
//!
//! This is the contract of Cline's line-trimmed tier: the earliest match at or after the
//! previous block wins, and keys are hashes, so the caller re-checks each hit against the text
//! and a collision only costs a retry. (For every run, or how far each position agrees, see
//! [`run_agreement`](super::run_agreement).)

/// The first `i >= from` where `needle` occurs in `hay` and `accept(i)` holds. `accept` confirms
/// a hash match against the real text, so a hash collision only costs a retry.
pub(crate) fn first_accepted_run(
    needle: &[u64],
    hay: &[u64],
    from: usize,
    mut accept: impl FnMut(usize) -> bool,
) -> Option<usize> {
    let m = needle.len();
    if m == 0 {
        return (from <= hay.len()).then_some(from);
    }
    let fail = failure_table(needle);
    let mut j = 0;
    for (i, h) in hay.iter().enumerate().skip(from) {
        while j > 0 && *h != needle[j] {
            j = fail[j - 1];
        }
        if *h == needle[j] {
            j += 1;
        }
        if j == m {
            let start = i + 1 - m;
            if accept(start) {
                return Some(start);
            }
            j = fail[j - 1];
        }
    }
    None
}

/// `fail[k]`: the length of the longest proper border of `needle[..=k]`.
fn failure_table(needle: &[u64]) -> Vec<usize> {
    let mut fail = vec![0; needle.len()];
    let mut k = 0;
    for i in 1..needle.len() {
        while k > 0 && needle[i] != needle[k] {
            k = fail[k - 1];
        }
        if needle[i] == needle[k] {
            k += 1;
        }
        fail[i] = k;
    }
    fail
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive(hay: &[u64], needle: &[u64], from: usize, reject: &[usize]) -> Option<usize> {
        (from..=hay.len().saturating_sub(needle.len()))
            .filter(|&i| i + needle.len() <= hay.len())
            .find(|&i| hay[i..i + needle.len()] == *needle && !reject.contains(&i))
    }

    proptest! {
        #[test]
        fn agrees_with_naive(
            hay in proptest::collection::vec(0u64..3, 0..40),
            needle in proptest::collection::vec(0u64..3, 1..5),
            from in 0usize..45,
            reject in proptest::collection::vec(0usize..40, 0..3),
        ) {
            let got = first_accepted_run(&needle, &hay, from, |i| !reject.contains(&i));
            prop_assert_eq!(got, naive(&hay, &needle, from, &reject));
        }
    }
}

//! Exact substring search, as JavaScript's `indexOf(needle, from)`.

use memchr::memmem;

/// The byte offset of the first occurrence of a non-empty `needle` at or after `from`; `None`
/// when `from` is past the end, as in JavaScript.
///
/// A long needle is found by its first [`PREFIX`] bytes, each candidate checked whole: building
/// a searcher costs time in the needle's length (a SEARCH text is often hundreds of bytes, and a
/// diff has many), while the scan runs as fast for the prefix. A needle whose prefix keeps
/// matching where the needle does not (more than [`MISSES`] times) is searched whole from
/// there, so the search stays linear.
pub(crate) fn find_exact(text: &str, needle: &str, from: usize) -> Option<usize> {
    debug_assert!(!needle.is_empty());
    let hay = text.as_bytes().get(from..)?;
    let needle = needle.as_bytes();
    if needle.len() <= PREFIX {
        return memmem::find(hay, needle).map(|i| i + from);
    }
    let prefix = memmem::Finder::new(&needle[..PREFIX]);
    let mut at = 0;
    for _ in 0..MISSES {
        let candidate = at + prefix.find(&hay[at..])?;
        if hay[candidate..].starts_with(needle) {
            return Some(candidate + from);
        }
        at = candidate + 1;
    }
    memmem::find(&hay[at..], needle).map(|i| i + at + from)
}

/// How many bytes of a long needle the scan looks for.
const PREFIX: usize = 48;

/// How many false candidates of the prefix before the whole needle is searched.
const MISSES: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Texts and needles over two letters and a newline, so a long needle's prefix has
        /// many false candidates: the answer is always `str::find`'s.
        #[test]
        fn equals_str_find(
            text in "[ab\n]{0,400}",
            needle in "[ab\n]{1,120}",
            copies in 0usize..4,
            from in 0usize..420,
        ) {
            let mut text = text;
            for _ in 0..copies {
                text.insert_str(text.len() / 2, &needle);
            }
            let want = text.get(from..).and_then(|t| t.find(needle.as_str()).map(|i| i + from));
            prop_assert_eq!(find_exact(&text, &needle, from), want);
        }
    }

    #[test]
    fn a_prefix_that_keeps_matching_falls_back_to_the_whole_needle() {
        let needle = format!("{}b", "a".repeat(100));
        let text = format!("{}{}", "a".repeat(5000), needle);
        assert_eq!(find_exact(&text, &needle, 0), Some(5000));
        assert_eq!(find_exact(&text, &needle, 5001), None);
    }
}

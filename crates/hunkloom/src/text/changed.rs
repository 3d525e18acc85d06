//! Where a new text differs from an old one, as one span: what a binding needs to hand back a
//! large result as a splice of the caller's own string (in JavaScript, two slices of the
//! original around the changed piece) instead of a copy of the whole text.

use super::TextOffset;

/// The one span of `old` that `new` replaces, and what it puts there: `old[start..end]`
/// became `inserted`, and everything before `start` and after `end` is equal in both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangedSpan<'a> {
    /// Where the change starts in `old` (and in `new`).
    pub start: TextOffset,
    /// Where it ends in `old`.
    pub end: TextOffset,
    /// The text `new` has between `start` and the common end.
    pub inserted: &'a str,
}

/// How many bytes compared at a time before the exact byte is looked for: equal runs are
/// skipped by `memcmp`, which is far faster than a byte loop.
const BLOCK: usize = 4096;

/// The span of `old` that `new` replaces: the common prefix and suffix (on character
/// boundaries, not overlapping) are left out. Equal texts give an empty span at the end.
///
/// ```
/// use hunkloom::text::changed_span;
///
/// let span = changed_span("a = 1\nb = 2\nc = 3\n", "a = 1\nb = 20\nc = 3\n");
/// assert_eq!((span.start.bytes, span.end.bytes, span.inserted), (11, 11, "0"));
/// let span = changed_span("é1", "é2");
/// assert_eq!((span.start.utf16, span.end.utf16, span.inserted), (1, 2, "2"));
/// ```
pub fn changed_span<'a>(old: &str, new: &'a str) -> ChangedSpan<'a> {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = common_prefix(a, b);
    while !old.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = a.len().min(b.len()) - prefix;
    let mut suffix = common_suffix(&a[prefix..], &b[prefix..]).min(room);
    while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    let start = TextOffset::of(&old[..prefix]);
    let end = start + TextOffset::of(&old[prefix..a.len() - suffix]);
    ChangedSpan {
        start,
        end,
        inserted: &new[prefix..b.len() - suffix],
    }
}

/// The length of the longest common prefix of `a` and `b`.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= n && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..n]
        .iter()
        .zip(&b[at..n])
        .position(|(x, y)| x != y)
        .unwrap_or(n - at)
}

/// The length of the longest common suffix of `a` and `b`.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut len = 0;
    while len + BLOCK <= n
        && a[a.len() - len - BLOCK..a.len() - len] == b[b.len() - len - BLOCK..b.len() - len]
    {
        len += BLOCK;
    }
    len + a[..a.len() - len]
        .iter()
        .rev()
        .zip(b[..b.len() - len].iter().rev())
        .position(|(x, y)| x != y)
        .unwrap_or(n - len)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `old` with its span replaced is `new`, and the span is as small as the texts allow.
    fn check(old: &str, new: &str) {
        let span = changed_span(old, new);
        let rebuilt = format!(
            "{}{}{}",
            &old[..span.start.bytes],
            span.inserted,
            &old[span.end.bytes..]
        );
        assert_eq!(rebuilt, new, "{old:?} -> {new:?}");
        assert_eq!(span.start, TextOffset::of(&old[..span.start.bytes]));
        assert_eq!(span.end, TextOffset::of(&old[..span.end.bytes]));
    }

    #[test]
    fn every_small_change_rebuilds_the_new_text() {
        let texts = [
            "", "a", "ab", "aXb", "é", "éé", "a😀b", "😀😀", "x\r\ny", "aaaa", "aa",
        ];
        for old in texts {
            for new in texts {
                check(old, new);
            }
        }
    }

    #[test]
    fn large_texts_are_compared_in_blocks() {
        let old: String = (0..20_000).map(|i| format!("line {i} é\n")).collect();
        for at in [
            0,
            5,
            BLOCK - 1,
            BLOCK,
            BLOCK + 1,
            old.len() / 2,
            old.len() - 3,
        ] {
            let at = (0..=at)
                .rev()
                .find(|&i| old.is_char_boundary(i))
                .unwrap_or(0);
            let mut new = old.clone();
            new.insert_str(at, "INSERTED");
            check(&old, &new);
            let span = changed_span(&old, &new);
            assert_eq!(span.inserted.len(), "INSERTED".len(), "at {at}");
        }
        check(&old, &old);
        check(&old, "");
        check("", &old);
    }
}

//! The matching cascade of the Codex dialect (documented once, in the [module docs](super)).
//!
//! Tiers, each scanning every candidate position before the next is tried; the first position
//! wins: exact, trailing whitespace ignored, surrounding whitespace ignored, typographic
//! punctuation folded (after trimming). Comparisons borrow the file's lines; only the last tier
//! builds keys, once per file and once per pattern.

use std::cell::{Cell, OnceCell};

use super::lines::Lines;
use crate::search::key_index::KeyIndex;

/// A file's lines, with each looser tier's keys (the trimmed lines, the folded keys) built on
/// the first search that reaches that tier: a patch of many hunks trims every line of the file
/// once, not once per hunk.
pub(super) struct Haystack<'a> {
    file: &'a Lines<'a>,
    trimmed_end: OnceCell<Vec<&'a str>>,
    trimmed: OnceCell<Vec<&'a str>>,
    folded: OnceCell<Vec<String>>,
    /// Each tier's index of its keys, built once scans have passed twice the file's lines: a
    /// patch of one or a few hunks is placed by scanning, one of many without a scan each.
    indexes: [OnceCell<KeyIndex>; 4],
    /// Lines passed by direct scans so far.
    scanned: Cell<usize>,
}

impl<'a> Haystack<'a> {
    pub(super) fn new(file: &'a Lines<'a>) -> Self {
        Haystack {
            file,
            trimmed_end: OnceCell::new(),
            trimmed: OnceCell::new(),
            folded: OnceCell::new(),
            indexes: Default::default(),
            scanned: Cell::new(0),
        }
    }

    fn trimmed_end(&self) -> &[&'a str] {
        self.trimmed_end
            .get_or_init(|| self.file.texts().iter().map(|l| l.trim_end()).collect())
    }

    fn trimmed(&self) -> &[&'a str] {
        self.trimmed
            .get_or_init(|| self.file.texts().iter().map(|l| l.trim()).collect())
    }

    pub(super) fn len(&self) -> usize {
        self.file.len()
    }

    fn folded(&self) -> &[String] {
        self.folded
            .get_or_init(|| self.file.texts().iter().map(|l| fold(l)).collect())
    }

    /// The first position at or after `start` where `pattern` matches (see the module docs);
    /// with `eof`, only the position that ends at the end of the file. An empty pattern matches
    /// at `start`.
    pub(super) fn seek(&self, pattern: &[&str], start: usize, eof: bool) -> Option<usize> {
        if pattern.is_empty() {
            return Some(start);
        }
        let n = self.file.len();
        if pattern.len() > n {
            return None;
        }
        let last = n - pattern.len();
        let first = if eof { last.max(start) } else { start };
        if first > last {
            return None;
        }
        let trimmed_end: Vec<&str> = pattern.iter().map(|p| p.trim_end()).collect();
        let trimmed: Vec<&str> = pattern.iter().map(|p| p.trim()).collect();
        let exact = match self
            .scans()
            .then(|| self.file.find_exact(pattern, first, last))
        {
            Some(Some(found)) => {
                self.passed(found, first, last);
                found
            }
            _ => self.find(Tier::Exact, self.file.texts(), pattern, first, last),
        };
        exact
            .or_else(|| self.find(Tier::TrimEnd, self.trimmed_end(), &trimmed_end, first, last))
            .or_else(|| self.find(Tier::Trim, self.trimmed(), &trimmed, first, last))
            .or_else(|| {
                let keys: Vec<String> = pattern.iter().map(|p| fold(p)).collect();
                let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                self.find(Tier::Fold, self.folded(), &keys, first, last)
            })
    }

    /// Whether searches still scan the lines directly: until they have passed twice the
    /// file's lines, after which each tier searches through its index.
    fn scans(&self) -> bool {
        self.scanned.get() < 2 * self.file.len()
    }

    /// Counts the lines a direct scan from `first` passed.
    fn passed(&self, found: Option<usize>, first: usize, last: usize) {
        let end = found.map_or(last + 1, |p| p + 1);
        self.scanned
            .set(self.scanned.get() + end.saturating_sub(first));
    }

    /// The first window of `keys` (the file's lines under `tier`'s key) from `first` to
    /// `last` equal to `want`: a direct scan, or the positions of `want`'s rarest line in the
    /// tier's index once scans have passed enough lines (the same first window either way).
    fn find<K: AsRef<str>>(
        &self,
        tier: Tier,
        keys: &[K],
        want: &[&str],
        first: usize,
        last: usize,
    ) -> Option<usize> {
        let m = want.len();
        let window_is = |p: usize| {
            keys[p..p + m]
                .iter()
                .zip(want)
                .all(|(k, w)| k.as_ref() == *w)
        };
        if self.scans() {
            let found = (first..=last).find(|&p| window_is(p));
            self.passed(found, first, last);
            return found;
        }
        let index = self.indexes[tier as usize].get_or_init(|| KeyIndex::new(keys.iter()));
        let j = (0..m)
            .min_by_key(|&j| index.count(want[j], first + j))
            .unwrap_or(0);
        index
            .positions(want[j], first + j)
            .map(|i| i - j)
            .take_while(|&p| p <= last)
            .find(|&p| window_is(p))
    }
}

/// The tiers of the cascade, strictest first.
#[derive(Clone, Copy, Debug)]
enum Tier {
    Exact,
    TrimEnd,
    Trim,
    Fold,
}

/// The key of the last tier: trimmed, with typographic dashes, quotes and spaces folded to
/// ASCII — exactly Codex's table. (The `native` dialect's fold is looser: it also collapses
/// dash runs and drops zero-width characters, which would match where Codex does not.)
pub(super) fn fold(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{2018}'..='\u{201B}' => '\'',
            '\u{201C}'..='\u{201F}' => '"',
            '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patch::lines::split;

    /// Seeks over `lines` each ended by `\n` (the exact tier's substring search) and by `\r\n`
    /// (its line-by-line comparison), and through the tiers' indexes: all must agree.
    fn seek(lines: &[&str], pattern: &[&str], start: usize, eof: bool) -> Option<usize> {
        let lf: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let by_text = Haystack::new(&split(&lf)).seek(pattern, start, eof);
        let crlf: String = lines.iter().map(|l| format!("{l}\r\n")).collect();
        let by_line = Haystack::new(&split(&crlf)).seek(pattern, start, eof);
        assert_eq!(by_text, by_line, "{lines:?} {pattern:?}");
        if lines.last().is_some_and(|l| !l.is_empty()) {
            // The last line unterminated.
            let open = lines.join("\n");
            let by_text = Haystack::new(&split(&open)).seek(pattern, start, eof);
            assert_eq!(by_text, by_line, "{lines:?} {pattern:?} unterminated");
        }
        // After the scans' budget: through each tier's index.
        let file = split(&lf);
        let indexed = Haystack::new(&file);
        indexed.scanned.set(usize::MAX / 2);
        assert_eq!(
            indexed.seek(pattern, start, eof),
            by_line,
            "{lines:?} {pattern:?} indexed"
        );
        by_text
    }

    /// The naive oracle: one tier at a time, by allocation.
    fn naive(lines: &[&str], pattern: &[&str], start: usize, eof: bool) -> Option<usize> {
        if pattern.is_empty() {
            return Some(start);
        }
        if pattern.len() > lines.len() {
            return None;
        }
        let last = lines.len() - pattern.len();
        let first = if eof { last.max(start) } else { start };
        let keys: [fn(&str) -> String; 4] = [
            |s| s.to_string(),
            |s| s.trim_end().to_string(),
            |s| s.trim().to_string(),
            fold,
        ];
        keys.iter().find_map(|key| {
            (first..=last)
                .find(|&i| (0..pattern.len()).all(|j| key(lines[i + j]) == key(pattern[j])))
        })
    }

    #[test]
    fn cascade_prefers_stricter_tiers_over_earlier_positions() {
        let lines = ["foo ", "bar", "foo", "bar"];
        assert_eq!(seek(&lines, &["foo", "bar"], 0, false), Some(2));
        assert_eq!(seek(&lines, &["foo", "bar"], 3, false), None);
        assert_eq!(
            seek(&["  foo\t", " bar"], &["foo", "bar"], 0, false),
            Some(0)
        );
        assert_eq!(
            seek(
                &["a \u{2013} b \u{201C}q\u{201D}"],
                &["a - b \"q\""],
                0,
                false
            ),
            Some(0)
        );
        assert_eq!(seek(&["x"], &[], 1, false), Some(1));
        assert_eq!(seek(&["x"], &["x", "y"], 0, false), None);
    }

    #[test]
    fn end_of_file_only_matches_at_the_end() {
        let lines = ["a", "b", "a", "b"];
        assert_eq!(seek(&lines, &["a"], 0, true), None);
        assert_eq!(seek(&lines, &["b"], 0, true), Some(3));
        assert_eq!(seek(&lines, &["a", "b"], 0, true), Some(2));
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_the_naive_oracle(
            lines in proptest::collection::vec("[ ab\u{2013}-]{0,3}", 0..8),
            pattern in proptest::collection::vec("[ ab\u{2013}-]{0,3}", 0..3),
            start in 0usize..9,
            eof: bool,
        ) {
            let l: Vec<&str> = lines.iter().map(String::as_str).collect();
            let p: Vec<&str> = pattern.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(seek(&l, &p, start, eof), naive(&l, &p, start, eof));
        }
    }
}

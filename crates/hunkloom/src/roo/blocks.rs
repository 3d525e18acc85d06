//! Reading blocks out of a diff the way Roo's block pattern does (a global regular expression
//! with lazy sections), without its backtracking.
//!
//! Roo's pattern, in words: a line `<<<<<<< SEARCH` (or `SEARCH>`) at the start of the diff or
//! after a `\n`, then any whitespace up to the last `\n` of that run; optionally a line
//! `:start_line:` + digits, one `:end_line:` + digits, and one `-------`, each followed by
//! whitespace up to a `\n`; then the SEARCH text, up to the first line starting `=======` (only
//! whitespace, containing a `\n`, after it); then the REPLACE text, up to the first line that is
//! `>>>>>>> REPLACE` followed by `\n` or the end of the diff.
//!
//! Every quantifier of that pattern is greedy or lazy in a way that makes the match at a given
//! start unique: the header's whitespace choices only move text that contains no separator, and
//! the first separator is the only one that can succeed (a later one leaves less room for the
//! REPLACE marker). So for each candidate start this module takes the greedy header, the first
//! separator and the first REPLACE marker after it, found by binary search in lists made once:
//! O(n log n) for a diff of n bytes, where the regular expression can take O(n²).

use crate::text::is_js_whitespace;

/// One block as Roo's pattern captures it.
#[derive(Clone, Debug)]
pub(super) struct RawBlock {
    /// The `:start_line:` hint as JavaScript's `Number(digits)` reads it, 0 without one.
    pub(super) start_line: f64,
    pub(super) search: String,
    pub(super) replace: String,
}

const SEARCH: &str = "<<<<<<< SEARCH";
const SEP: &str = "=======";
const REPLACE: &str = ">>>>>>> REPLACE";

/// Every block of `diff`, in diff order.
pub(super) fn blocks(diff: &str) -> Vec<RawBlock> {
    let b = diff.as_bytes();
    // Separators: (line start, where the text after it starts).
    let mut seps: Vec<(usize, usize)> = Vec::new();
    // REPLACE markers that may end a block: their line starts.
    let mut replaces: Vec<usize> = Vec::new();
    for start in line_starts(b).filter(|&s| s > 0) {
        let rest = &diff[start..];
        if rest.starts_with(SEP) {
            if let Some(after) = whitespace_to_newline(diff, start + SEP.len()) {
                seps.push((start, after));
            }
        } else if rest.starts_with(REPLACE) {
            let end = start + REPLACE.len();
            if end == b.len() || b[end] == b'\n' {
                replaces.push(start);
            }
        }
    }

    let mut out = Vec::new();
    let mut from = 0; // matchAll's lastIndex
    for start in line_starts(b) {
        if start < from || !diff[start..].starts_with(SEARCH) {
            continue;
        }
        if let Some((block, end)) = block_at(diff, start, &seps, &replaces) {
            out.push(block);
            from = end;
        }
    }
    out
}

/// The start of every line: 0 and each position after a `\n`.
fn line_starts(b: &[u8]) -> impl Iterator<Item = usize> + '_ {
    std::iter::once(0).chain(memchr::memchr_iter(b'\n', b).map(|i| i + 1))
}

/// After whitespace from `at`: the position after the last `\n` of the whitespace run starting
/// there (the greedy `\s*\n`), or `None` if the run has no `\n`.
fn whitespace_to_newline(s: &str, at: usize) -> Option<usize> {
    let mut last = None;
    for (i, c) in s[at..].char_indices() {
        if !is_js_whitespace(c) {
            break;
        }
        if c == '\n' {
            last = Some(at + i + 1);
        }
    }
    last
}

/// `prefix`, then whitespace, then ASCII digits, then whitespace up to a `\n`, at `at`: the
/// digits and the position after that `\n`.
fn line_hint<'a>(s: &'a str, at: usize, prefix: &str) -> Option<(&'a str, usize)> {
    let rest = s[at..].strip_prefix(prefix)?;
    let ws = rest.len() - rest.trim_start_matches(is_js_whitespace).len();
    let digits_at = at + prefix.len() + ws;
    let digits_len = s[digits_at..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    if digits_len == 0 {
        return None;
    }
    let after = whitespace_to_newline(s, digits_at + digits_len)?;
    Some((&s[digits_at..digits_at + digits_len], after))
}

/// The block whose SEARCH marker line starts at `start`, and where its match ends.
fn block_at(
    diff: &str,
    start: usize,
    seps: &[(usize, usize)],
    replaces: &[usize],
) -> Option<(RawBlock, usize)> {
    let mut at = start + SEARCH.len();
    if diff.as_bytes().get(at) == Some(&b'>') {
        at += 1;
    }
    at = whitespace_to_newline(diff, at)?;
    let mut start_line = 0.0;
    if let Some((digits, after)) = line_hint(diff, at, ":start_line:") {
        // Digits only, so this parses, rounding as `Number()` does.
        start_line = digits.parse().unwrap_or(f64::INFINITY);
        at = after;
    }
    if let Some((_, after)) = line_hint(diff, at, ":end_line:") {
        at = after;
    }
    if diff[at..].starts_with("-------")
        && let Some(after) = whitespace_to_newline(diff, at + "-------".len())
    {
        at = after;
    }
    let search_from = at;
    let i = seps.partition_point(|&(s, _)| s < search_from);
    let &(sep, replace_from) = seps.get(i)?;
    let j = replaces.partition_point(|&r| r < replace_from);
    let &end_marker = replaces.get(j)?;
    // Each section ends before the `\n` that precedes its closing marker, if it has text.
    let search = &diff[search_from..(sep - 1).max(search_from)];
    let replace = &diff[replace_from..(end_marker - 1).max(replace_from)];
    Some((
        RawBlock {
            start_line,
            search: search.to_owned(),
            replace: replace.to_owned(),
        },
        end_marker + REPLACE.len(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(diff: &str) -> Vec<(f64, String, String)> {
        blocks(diff)
            .into_iter()
            .map(|b| (b.start_line, b.search, b.replace))
            .collect()
    }

    fn one(start: f64, s: &str, r: &str) -> Vec<(f64, String, String)> {
        vec![(start, s.to_owned(), r.to_owned())]
    }

    #[test]
    fn reads_hints_dashes_and_sections() {
        let d = "x\n<<<<<<< SEARCH\n:start_line: 12 \n:end_line:13\n-------\na\nb\n=======\nc\n>>>>>>> REPLACE\n";
        assert_eq!(parse(d), one(12.0, "a\nb", "c"));
    }

    #[test]
    fn blank_lines_after_markers_vanish() {
        let d = "<<<<<<< SEARCH\n\n\na\n=======\n\nb\n>>>>>>> REPLACE";
        assert_eq!(parse(d), one(0.0, "a", "b"));
    }

    #[test]
    fn empty_sections() {
        assert_eq!(
            parse("<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE"),
            one(0.0, "", "")
        );
    }

    #[test]
    fn a_replace_marker_needs_a_newline_or_the_end() {
        assert!(parse("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE  \n").is_empty());
        // In CRLF only a final marker closes a block; the first runs on to it.
        let d = "<<<<<<< SEARCH\r\na\r\n=======\r\nb\r\n>>>>>>> REPLACE\r\n<<<<<<< SEARCH\r\nc\r\n=======\r\nd\r\n>>>>>>> REPLACE";
        let got = parse(d);
        assert_eq!(got.len(), 1);
        assert!(got[0].2.contains("<<<<<<< SEARCH"));
    }

    #[test]
    fn a_bad_hint_stays_in_the_search_text() {
        let d = "<<<<<<< SEARCH\n:start_line: x\n-------\na\n=======\nb\n>>>>>>> REPLACE";
        assert_eq!(parse(d), one(0.0, ":start_line: x\n-------\na", "b"));
    }

    #[test]
    fn ten_dashes_are_content() {
        let d = "<<<<<<< SEARCH\n----------\na\n=======\nb\n>>>>>>> REPLACE";
        assert_eq!(parse(d), one(0.0, "----------\na", "b"));
    }
}

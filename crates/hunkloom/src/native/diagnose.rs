//! Failure messages written for a model to act on: which block, why, the closest window with its
//! line numbers and how much of it matches, and whether the edit seems applied already. Short,
//! and never the whole file.

use rustc_hash::FxHashMap;

use super::loose_lines::LooseLineIndex;
use super::normalize::{BLANK, loose_hash};
use super::search_text::{SearchText, Tier};
use super::sparse::{self, Part};
use crate::search::run_agreement::all_runs;

/// Lines quoted in a message are cut to this many characters.
const QUOTE: usize = 80;
/// A SEARCH line that occurs more often than this in the file says nothing about where the
/// closest window is, so it casts no vote.
const MAX_VOTES_PER_LINE: usize = 64;
/// Ambiguous candidates listed in a message.
const LISTED: usize = 5;

/// The file's lines as the diagnostics see them: the whole-file index, or parts of it around
/// the SEARCH lines' anchors (see [`sparse`]).
trait Lines {
    /// The number of lines of the file.
    fn len(&self) -> usize;
    /// Where each of `hashes` occurs among the non-blank lines.
    fn positions_of(&self, hashes: &[u64]) -> FxHashMap<u64, Vec<u32>>;
    /// Line `i`'s loose hash and content, if it is indexed.
    fn line(&self, i: usize) -> Option<(u64, &str)>;
}

struct Whole<'a>(&'a str, &'a LooseLineIndex);

impl Lines for Whole<'_> {
    fn len(&self) -> usize {
        self.1.len()
    }
    fn positions_of(&self, hashes: &[u64]) -> FxHashMap<u64, Vec<u32>> {
        self.1.positions_of(hashes)
    }
    fn line(&self, i: usize) -> Option<(u64, &str)> {
        (i < self.1.len()).then(|| (self.1.loose[i], self.1.content(self.0, i)))
    }
}

struct Sparse<'a> {
    text: &'a str,
    parts: Vec<Part>,
    len: usize,
}

impl Lines for Sparse<'_> {
    fn len(&self) -> usize {
        self.len
    }
    fn positions_of(&self, hashes: &[u64]) -> FxHashMap<u64, Vec<u32>> {
        let mut out: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
        for p in &self.parts {
            for (h, lines) in p.ix.positions_of(hashes) {
                let all = out.entry(h).or_default();
                all.extend(lines.iter().map(|&i| i + p.line as u32));
            }
        }
        out
    }
    fn line(&self, i: usize) -> Option<(u64, &str)> {
        let p = self
            .parts
            .iter()
            .find(|p| p.line <= i && i < p.line + p.ix.len())?;
        let text = &self.text[p.byte..p.end];
        Some((p.ix.loose[i - p.line], p.ix.content(text, i - p.line)))
    }
}

/// Why block `block` (0-based) matched nothing, with the closest window and the already-applied
/// check, over the whole-file index.
pub(crate) fn not_found(
    text: &str,
    ix: &LooseLineIndex,
    block: usize,
    search: &SearchText,
    replace: &[String],
) -> String {
    let keys = loose_keys(&search.lines);
    let applied = already_applied(ix, &keys, replace);
    explain(&Whole(text, ix), block, search, &keys, applied)
}

/// [`not_found`] without the whole-file index, when every non-blank SEARCH line has an anchor
/// (see [`sparse`]): every line with the same loose key as a SEARCH line contains its anchor,
/// so indexing the lines within the SEARCH text's length of each anchor hit finds every vote
/// and every line of the closest window. `None` when that does not apply, or when the
/// REPLACE text may be in the file (then the whole-file index decides).
pub(crate) fn not_found_sparse(
    text: &str,
    block: usize,
    search: &SearchText,
    replace: &[String],
) -> Option<String> {
    if sparse::anchors_unsound(text) {
        return None;
    }
    let keys = loose_keys(&search.lines);
    let wanted = loose_keys(replace);
    if wanted.iter().any(|h| *h != BLANK && !keys.contains(h)) {
        // Applied only if every non-blank REPLACE line is in the file; an anchor found
        // nowhere rules that out.
        let absent = replace
            .iter()
            .zip(&wanted)
            .filter(|(_, h)| **h != BLANK)
            .filter_map(|(l, _)| sparse::anchor(l))
            .any(|a| sparse::hit_lines(text, a).is_some_and(|h| h.is_empty()));
        if !absent {
            return None;
        }
    }
    let k = search.lines.len();
    let mut ranges = Vec::new();
    for (line, _) in search.lines.iter().zip(&keys).filter(|(_, h)| **h != BLANK) {
        for s in sparse::hit_lines(text, sparse::anchor(line)?)? {
            ranges.push(sparse::lines_around(text, s, k)?);
        }
    }
    let parts = sparse::parts(text, ranges);
    let len = sparse::line_count(text, parts.last());
    let lines = Sparse { text, parts, len };
    Some(explain(&lines, block, search, &keys, None))
}

fn loose_keys(lines: &[String]) -> Vec<u64> {
    let mut buf = String::new();
    lines.iter().map(|l| loose_hash(l, &mut buf)).collect()
}

fn explain(
    ix: &dyn Lines,
    block: usize,
    search: &SearchText,
    keys: &[u64],
    applied: Option<(usize, usize)>,
) -> String {
    let mut msg = format!("block {}: the SEARCH text was not found", block + 1);
    if let Some(lines) = applied {
        msg.push_str(&format!(
            ", but its REPLACE text is already at {}: was this block applied already?",
            span(lines)
        ));
        return msg;
    }
    let positions = ix.positions_of(keys);
    let mut votes: FxHashMap<isize, u32> = FxHashMap::default();
    for (j, h) in keys.iter().enumerate().filter(|(_, h)| **h != BLANK) {
        match positions.get(h) {
            Some(ps) if ps.len() <= MAX_VOTES_PER_LINE => {
                for &p in ps {
                    *votes.entry(p as isize - j as isize).or_default() += 1;
                }
            }
            _ => {}
        }
    }
    let nonblank = keys.iter().filter(|&&h| h != BLANK).count();
    let best = votes
        .iter()
        .map(|(&start, &n)| (n, std::cmp::Reverse(start)))
        .max()
        .map(|(n, std::cmp::Reverse(start))| (start, n));
    let Some((start, n)) = best else {
        msg.push_str(" and none of its lines is in the file; re-read the file before editing it.");
        return msg;
    };
    let first = start.max(0) as usize;
    let last = ((start + keys.len() as isize) as usize)
        .min(ix.len())
        .max(first + 1)
        - 1;
    msg.push_str(&format!(
        ". Closest: {} ({n} of {nonblank} lines match)",
        span((first, last - first + 1))
    ));
    let line = |i: isize| usize::try_from(i).ok().and_then(|i| ix.line(i));
    let differing = (0..keys.len())
        .find(|&j| keys[j] != BLANK && line(start + j as isize).is_none_or(|(h, _)| h != keys[j]));
    if let Some(j) = differing
        && let Some((_, content)) = line(start + j as isize)
    {
        msg.push_str(&format!(
            "; line {} is `{}` in the file but `{}` in SEARCH",
            start + j as isize + 1,
            quote(content),
            quote(&search.lines[j])
        ));
    }
    msg.push_str(". The file may have changed: re-read it and copy the lines exactly.");
    msg
}

/// Where the REPLACE text already is, if it is somewhere and differs from the SEARCH text.
fn already_applied(
    ix: &LooseLineIndex,
    search: &[u64],
    replace: &[String],
) -> Option<(usize, usize)> {
    let mut buf = String::new();
    let wanted: Vec<u64> = replace
        .iter()
        .map(|l| loose_hash(l, &mut buf))
        .filter(|&h| h != BLANK)
        .collect();
    // Only a replacement that brings a line of its own says anything about being applied.
    if !wanted.iter().any(|h| !search.contains(h)) {
        return None;
    }
    let c = *all_runs(&wanted, &ix.nonblank_loose).first()?;
    let first = ix.nonblank[c] as usize;
    let last = ix.nonblank[c + wanted.len() - 1] as usize;
    Some((first, last + 1 - first))
}

/// Block `block` matched several places.
pub(crate) fn ambiguous(block: usize, tier: Tier, windows: &[(usize, usize)]) -> String {
    let listed: Vec<String> = windows.iter().take(LISTED).map(|&w| span(w)).collect();
    let more = if windows.len() > LISTED { ", …" } else { "" };
    format!(
        "block {}: the SEARCH text matches {} places{}: {}{more}. Include more surrounding \
         lines so that it matches exactly one place.",
        block + 1,
        windows.len(),
        tier_note(tier),
        listed.join(", ")
    )
}

/// Block `block` matched too many similar windows to place.
pub(crate) fn too_repetitive(block: usize) -> String {
    format!(
        "block {}: the SEARCH text is too repetitive to place; include a distinctive line.",
        block + 1
    )
}

/// Block `block`'s region overlaps an earlier block's.
pub(crate) fn overlapping(block: usize, lines: (usize, usize), other: usize) -> String {
    format!(
        "block {} ({}) overlaps block {}; merge them into one block.",
        block + 1,
        span(lines),
        other + 1
    )
}

/// An empty SEARCH text for a file that is not empty.
pub(crate) fn empty_search(block: usize) -> String {
    format!(
        "block {}: the SEARCH part is empty but the file is not; copy the lines to replace \
         into it.",
        block + 1
    )
}

/// A block the diff ended inside (a response cut off); `why` says where.
pub(crate) fn incomplete(block: usize, why: &str) -> String {
    format!(
        "block {}: the diff ended inside the block, {why}: the response was cut off. Send the \
         block again in full, ending with its REPLACE marker.",
        block + 1
    )
}

/// A block whose markers are out of place.
pub(crate) fn malformed(block: usize, why: &str) -> String {
    format!("block {}: malformed: {why}.", block + 1)
}

fn tier_note(tier: Tier) -> &'static str {
    match tier {
        Tier::Exact => "",
        Tier::LineEndings => " (ignoring line endings)",
        Tier::TrailingWhitespace => " (ignoring trailing whitespace)",
        Tier::Indentation => " (ignoring indentation)",
        Tier::Punctuation => " (ignoring whitespace and typographic punctuation)",
        Tier::LineNumberPrefix => " (after removing line numbers)",
        Tier::BlankLines => " (ignoring blank lines)",
        Tier::Typo => " (allowing one typo)",
    }
}

/// `(first line 0-based, count)` as `lines A-B` (1-based).
fn span((first, count): (usize, usize)) -> String {
    if count <= 1 {
        format!("line {}", first + 1)
    } else {
        format!("lines {}-{}", first + 1, first + count)
    }
}

fn quote(line: &str) -> String {
    let t = line.trim();
    match t.char_indices().nth(QUOTE) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(lines: &[&str]) -> SearchText {
        SearchText {
            lines: lines.iter().map(|l| l.to_string()).collect(),
            eols: vec!["\n"; lines.len()],
        }
    }

    #[test]
    fn closest_window_and_already_applied() {
        let text = "fn a() {\n    let x = 1;\n    if x <= 2 {\n        go();\n    }\n}\n";
        let ix = LooseLineIndex::new(text);
        let s = search(&["    let x = 1;", "    if x < 2 {", "        go();"]);
        let msg = not_found(text, &ix, 0, &s, &[]);
        assert!(msg.starts_with("block 1: the SEARCH text was not found. Closest: lines 2-4 (2 of 3 lines match); line 3 is `if x <= 2 {` in the file but `if x < 2 {` in SEARCH"), "{msg}");
        let replace = vec!["    if x <= 2 {".to_owned()];
        let msg = not_found(text, &ix, 1, &s, &replace);
        assert!(msg.contains("already at line 3"), "{msg}");
        let deletion = vec!["    let x = 1;".to_owned()];
        let msg = not_found(text, &ix, 1, &s, &deletion);
        assert!(msg.contains("Closest: lines 2-4"), "{msg}");
        assert!(ambiguous(0, Tier::Exact, &[(0, 2), (9, 2)]).contains("lines 1-2, lines 10-11"));
    }
}

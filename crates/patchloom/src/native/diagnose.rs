//! Failure messages written for a model to act on: which block, why, the closest window with its
//! line numbers and how much of it matches, and whether the edit seems applied already. Short,
//! and never the whole file.

use rustc_hash::FxHashMap;

use super::index::FileIndex;
use super::normalize::{BLANK, loose_hash};
use super::seq::occurrences;
use super::tiers::{SearchText, Tier};

/// Lines quoted in a message are cut to this many characters.
const QUOTE: usize = 80;
/// A SEARCH line that occurs more often than this in the file says nothing about where the
/// closest window is, so it casts no vote.
const MAX_VOTES_PER_LINE: usize = 64;
/// Ambiguous candidates listed in a message.
const LISTED: usize = 5;

/// Why block `block` (0-based) matched nothing, with the closest window and the already-applied
/// check.
pub(crate) fn not_found(
    text: &str,
    ix: &FileIndex,
    block: usize,
    search: &SearchText,
    replace: &[String],
) -> String {
    let mut buf = String::new();
    let keys: Vec<u64> = search
        .lines
        .iter()
        .map(|l| loose_hash(l, &mut buf))
        .collect();
    let mut msg = format!("block {}: the SEARCH text was not found", block + 1);
    if let Some(lines) = already_applied(ix, &keys, replace) {
        msg.push_str(&format!(
            ", but its REPLACE text is already at {}: was this block applied already?",
            span(lines)
        ));
        return msg;
    }
    let positions = ix.positions_of(&keys);
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
    let differing = (0..keys.len()).find(|&j| {
        let i = start + j as isize;
        keys[j] != BLANK && (i < 0 || i as usize >= ix.len() || ix.loose[i as usize] != keys[j])
    });
    if let Some(j) = differing {
        let i = start + j as isize;
        if i >= 0 && (i as usize) < ix.len() {
            msg.push_str(&format!(
                "; line {} is `{}` in the file but `{}` in SEARCH",
                i + 1,
                quote(ix.content(text, i as usize)),
                quote(&search.lines[j])
            ));
        }
    }
    msg.push_str(". The file may have changed: re-read it and copy the lines exactly.");
    msg
}

/// Where the REPLACE text already is, if it is somewhere and differs from the SEARCH text.
fn already_applied(ix: &FileIndex, search: &[u64], replace: &[String]) -> Option<(usize, usize)> {
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
    let c = *occurrences(&wanted, &ix.nonblank_loose).first()?;
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
        let ix = FileIndex::new(text);
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

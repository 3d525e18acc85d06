//! The `udiff` dialect's own tier, after the `native` cascade finds nothing: context lines
//! compared without their surrounding whitespace, line by line.
//!
//! A hunk's context lines only anchor it (the file keeps its own text for them), so a context
//! line whose indentation drifted, or that lost its leading space (a model writing ` ` as the
//! first character of an indented line, or no prefix at all), still anchors it; removed lines
//! are compared the same way. Every line must still match one file line (blank with blank), in
//! order, and the window must be the only one in the file.

use super::found::Found;
use crate::native::indent::IndentMap;
use crate::native::loose_lines::LooseLineIndex;
use crate::native::normalize::{fold_trimmed, indent_of, loose_hash};
use crate::native::search_text::Tier;
use crate::native::tiers::Miss;
use crate::search::run_agreement::all_runs;

/// Windows checked per hunk before it is refused as too repetitive.
const BUDGET: usize = 100_000;

/// Where `lines` (a hunk's old side, each with its line ending) match the file `text`, indexed
/// by `ix`, with each line compared by its trimmed, punctuation-folded text: the only window,
/// or why not.
pub(crate) fn locate(
    text: &str,
    ix: &LooseLineIndex,
    lines: &[(&str, &str)],
) -> Result<Found, Miss> {
    let mut buf = String::new();
    let keys: Vec<u64> = lines.iter().map(|(l, _)| loose_hash(l, &mut buf)).collect();
    let k = keys.len();
    let folded: Vec<String> = lines.iter().map(|(l, _)| fold_trimmed(l)).collect();
    let mut budget = BUDGET;
    let mut found = Vec::new();
    for first in all_runs(&keys, &ix.loose) {
        budget = budget.checked_sub(1).ok_or(Miss::TooRepetitive)?;
        let same = (0..k).all(|j| fold_trimmed(ix.content(text, first + j)) == folded[j]);
        if same {
            found.push(first);
        }
    }
    match found.as_slice() {
        [] => Err(Miss::NotFound),
        [first] => {
            let (first, relaxed) = (*first, relaxed(text, ix, *first, lines));
            Ok(Found {
                start: ix.start(first),
                end: ix.start(first + k),
                first_line: first,
                line_count: k,
                tier: Tier::Indentation,
                candidates: 1,
                indent: IndentMap::IDENTITY,
                relaxed,
            })
        }
        many => Err(Miss::Ambiguous {
            tier: Tier::Indentation,
            windows: many.iter().map(|&f| (f, k)).collect(),
            spans: many
                .iter()
                .map(|&f| (ix.start(f), ix.start(f + k)))
                .collect(),
        }),
    }
}

/// The kinds of difference the window at `first` tolerated, one bit per tier.
fn relaxed(text: &str, ix: &LooseLineIndex, first: usize, lines: &[(&str, &str)]) -> u8 {
    let mut bits = 0;
    for (j, (s, eol)) in lines.iter().enumerate() {
        let f = ix.content(text, first + j);
        let file_eol = ix.eol(text, first + j);
        if !file_eol.is_empty() && file_eol != *eol {
            bits |= Tier::LineEndings.bit();
        }
        let indent = indent_of(f) != indent_of(s);
        bits |= if f == *s {
            0
        } else if f.trim_end() == s.trim_end() {
            Tier::TrailingWhitespace.bit()
        } else if f.trim_start() == s.trim_start() {
            Tier::Indentation.bit()
        } else if f.trim() == s.trim() {
            Tier::Indentation.bit() | Tier::TrailingWhitespace.bit()
        } else if indent {
            Tier::Punctuation.bit() | Tier::Indentation.bit()
        } else {
            Tier::Punctuation.bit()
        };
    }
    bits
}

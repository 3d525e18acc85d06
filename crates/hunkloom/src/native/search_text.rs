//! What the `native` cascade matches with: its tiers, strictest first, and the SEARCH text of a
//! block. Below the cascade ([`tiers`](super::tiers)) and the modules it calls, which all speak
//! of them.

use super::normalize::split_line_number;
use crate::report::Normalization;
use crate::report::Strategy;

/// The tiers, strictest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Tier {
    Exact,
    LineEndings,
    TrailingWhitespace,
    Indentation,
    Punctuation,
    LineNumberPrefix,
    BlankLines,
    Typo,
}

impl Tier {
    pub(crate) fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The public name of the tier, as a block's or hunk's report gives it.
    pub(crate) fn strategy(self) -> Strategy {
        match self {
            Tier::Exact => Strategy::Exact,
            Tier::LineEndings => Strategy::LineEndings,
            Tier::TrailingWhitespace => Strategy::TrailingWhitespace,
            Tier::Indentation => Strategy::Indentation,
            Tier::Punctuation => Strategy::Punctuation,
            Tier::LineNumberPrefix => Strategy::LineNumberPrefix,
            Tier::BlankLines => Strategy::BlankLines,
            Tier::Typo => Strategy::Typo,
        }
    }
}

/// The differences a match tolerated, from the bits of the tiers it relaxed
/// ([`Tier::bit`]), in the order of the tiers.
pub(crate) fn normalizations(relaxed: u8) -> Vec<Normalization> {
    [
        (Tier::LineEndings, Normalization::LineEndings),
        (Tier::TrailingWhitespace, Normalization::TrailingWhitespace),
        (Tier::Indentation, Normalization::Indentation),
        (Tier::Punctuation, Normalization::Punctuation),
        (Tier::LineNumberPrefix, Normalization::LineNumberPrefixes),
        (Tier::BlankLines, Normalization::BlankLines),
        (Tier::Typo, Normalization::Typo),
    ]
    .into_iter()
    .filter(|(t, _)| relaxed & t.bit() != 0)
    .map(|(_, n)| n)
    .collect()
}

/// The SEARCH part of a block: content lines and the diff's line ending of each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SearchText {
    pub(crate) lines: Vec<String>,
    pub(crate) eols: Vec<&'static str>,
}

impl SearchText {
    pub(crate) fn joined(&self) -> String {
        let mut s = String::new();
        for (l, e) in self.lines.iter().zip(&self.eols) {
            s.push_str(l);
            s.push_str(e);
        }
        s
    }

    /// The SEARCH without read-tool line-number prefixes, and the first line's number, when
    /// every line carries one and the numbers run consecutively.
    pub(crate) fn without_line_numbers(&self) -> Option<(SearchText, usize)> {
        let mut first = None;
        let mut lines = Vec::with_capacity(self.lines.len());
        for (j, line) in self.lines.iter().enumerate() {
            let (n, rest) = match split_line_number(line) {
                Some(found) => found,
                None if line.trim().is_empty() && first.is_some() => (first? + j, ""),
                None => return None,
            };
            let start = *first.get_or_insert(n);
            if n != start + j {
                return None;
            }
            lines.push(rest.to_owned());
        }
        Some((
            SearchText {
                lines,
                eols: self.eols.clone(),
            },
            first?,
        ))
    }
}

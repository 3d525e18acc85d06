//! The report of a completed `native` block: its status, where it went, the tier that decided
//! and every difference the match tolerated, in the dialect-neutral [`BlockReport`].

use super::region::Region;
use super::tiers::Tier;
use crate::error::Error;
use crate::matching::Strategy;
use crate::stream::{BlockReport, BlockStatus, Normalization};
use crate::text::Position;

/// The report of block `index`: failed with `error`, else placed at `region` (a block with
/// neither is reported unmatched).
pub(super) fn block_report(
    index: usize,
    error: Option<&Error>,
    region: Option<&Region>,
) -> BlockReport {
    let mut report = BlockReport::cline(
        index,
        Strategy::Unmatched,
        Position::default(),
        Position::default(),
        false,
    );
    report.candidates = 0;
    if let Some(error) = error {
        report.status = BlockStatus::Failed;
        report.error = Some(error.clone());
        report.end_line = 0;
        return report;
    }
    let Some(r) = region else {
        return report;
    };
    let at = &r.at;
    report.strategy = if at.line_count == 0 {
        Strategy::EmptySearchNewFile
    } else {
        strategy(at.tier)
    };
    report.start = r.start;
    report.end = r.end;
    report.end_line = if at.line_count == 0 {
        r.start.line
    } else {
        at.first_line + at.line_count
    };
    report.candidates = at.candidates;
    report.indent_delta = at.indent.columns();
    report.reindented = r.reindented();
    report.normalizations = [
        (Tier::LineEndings, Normalization::LineEndings),
        (Tier::TrailingWhitespace, Normalization::TrailingWhitespace),
        (Tier::Indentation, Normalization::Indentation),
        (Tier::Punctuation, Normalization::Punctuation),
        (Tier::LineNumberPrefix, Normalization::LineNumberPrefixes),
        (Tier::BlankLines, Normalization::BlankLines),
        (Tier::Typo, Normalization::Typo),
    ]
    .into_iter()
    .filter(|(t, _)| at.used(*t))
    .map(|(_, n)| n)
    .collect();
    report
}

/// The public name of the tier that placed a block.
fn strategy(tier: Tier) -> Strategy {
    match tier {
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

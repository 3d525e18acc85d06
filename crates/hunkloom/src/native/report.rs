//! The report of a completed `native` block: its status, where it went (or, already applied,
//! where its REPLACE text already is), the tier that decided
//! and every difference the match tolerated, in the dialect-neutral [`BlockReport`].

use super::region::Region;
use super::tiers::{Located, Tier};
use crate::error::Error;
use crate::matching::Strategy;
use crate::stream::{BlockReport, BlockStatus, Normalization};
use crate::text::Position;

/// Where an already-applied block's REPLACE text is.
#[derive(Clone, Debug)]
pub(super) struct AlreadyThere {
    pub(super) at: Located,
    pub(super) start: Position,
    pub(super) end: Position,
}

/// The report of block `index`: failed with `error`, else placed at `region`, else already
/// applied at `applied` (a block with none of them is reported unmatched).
pub(super) fn block_report(
    index: usize,
    error: Option<&Error>,
    region: Option<&Region>,
    applied: Option<&AlreadyThere>,
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
    let (at, start, end) = match (region, applied) {
        (Some(r), _) => {
            report.reindented = r.reindented();
            (&r.at, r.start, r.end)
        }
        (None, Some(a)) => {
            report.status = BlockStatus::AlreadyApplied;
            (&a.at, a.start, a.end)
        }
        (None, None) => return report,
    };
    report.strategy = if at.line_count == 0 {
        Strategy::EmptySearchNewFile
    } else {
        strategy(at.tier)
    };
    report.start = start;
    report.end = end;
    report.end_line = if at.line_count == 0 {
        start.line
    } else {
        at.first_line + at.line_count
    };
    report.candidates = at.candidates;
    report.indent_delta = at.indent.columns();
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

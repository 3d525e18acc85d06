//! The report of a completed `native` block: its status, where it went (or, already applied,
//! where its REPLACE text already is), the tier that decided
//! and every difference the match tolerated, in the dialect-neutral [`BlockReport`].

use super::region::Region;
use super::search_text::normalizations;
use super::tiers::Located;
use crate::error::Error;
use crate::report::Strategy;
use crate::report::{BlockReport, BlockStatus};
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
        at.tier.strategy()
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
    report.normalizations = normalizations(at.relaxed);
    report
}

//! [`Found`]: where a side of a hunk matched the file, as the placement tiers, the anchors
//! and the building of the replacement all speak of it.

use crate::native::indent::IndentMap;
use crate::native::search_text::Tier;
use crate::native::tiers::Located;

/// Where a side of a hunk matched the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// The matched lines in bytes of the file (whole lines, with their endings).
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// The first line (0-based; only set by tiers that count lines) and the number of lines.
    pub(crate) first_line: usize,
    pub(crate) line_count: usize,
    /// The tier that decided.
    pub(crate) tier: Tier,
    /// How many windows that tier found (1).
    pub(crate) candidates: usize,
    /// The uniform indentation change from the hunk to the file.
    pub(crate) indent: IndentMap,
    /// Every kind of difference tolerated, one bit per [`Tier`].
    pub(crate) relaxed: u8,
}

impl From<Located> for Found {
    fn from(l: Located) -> Self {
        Found {
            start: l.start,
            end: l.end,
            first_line: l.first_line,
            line_count: l.line_count,
            tier: l.tier,
            candidates: l.candidates,
            indent: l.indent,
            relaxed: l.relaxed,
        }
    }
}

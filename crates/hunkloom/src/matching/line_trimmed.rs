//! Tier 2 of the Cline cascade: whole lines equal after JavaScript `trim()`.

use super::trimmed_lines::{Haystack, SearchLines};
use crate::search::first_accepted::first_accepted_run;
use crate::text::js_trim;

/// The byte span of the first run of original lines, starting on the first line at or after
/// `from`, that equals `search` line by line after trimming.
pub(crate) fn find(
    hay: &Haystack<'_>,
    search: &SearchLines<'_>,
    from: usize,
) -> Option<(usize, usize)> {
    let index = hay.lines();
    let text = hay.text();
    let m = search.lines.len();
    let first = index.first_line_from(from);
    let i = first_accepted_run(&search.trimmed, index.trimmed_hashes(), first, |i| {
        (0..m).all(|k| js_trim(index.line(text, i + k)) == js_trim(search.lines[k]))
    })?;
    Some((index.start(i), index.start(i + m)))
}

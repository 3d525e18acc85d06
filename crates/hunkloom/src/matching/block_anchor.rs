//! Tier 3 of the Cline cascade: first and last lines as anchors, middle lines ignored.

use super::trimmed_lines::{Haystack, SearchLines};
use crate::text::js_trim;

/// The byte span of the first run of as many original lines as `search` has, starting on the
/// first line at or after `from`, whose first and last lines equal `search`'s after trimming.
pub(crate) fn find(
    hay: &Haystack<'_>,
    search: &SearchLines<'_>,
    from: usize,
) -> Option<(usize, usize)> {
    if search.pieces < 3 {
        return None;
    }
    let m = search.lines.len();
    let index = hay.lines();
    let n = index.len();
    if m == 0 || m > n {
        return None;
    }
    let text = hay.text();
    let hashes = index.trimmed_hashes();
    let (first_hash, last_hash) = (search.trimmed[0], search.trimmed[m - 1]);
    let first_text = js_trim(search.lines[0]);
    let last_text = js_trim(search.lines[m - 1]);
    (index.first_line_from(from)..=n - m)
        .find(|&i| {
            hashes[i] == first_hash
                && hashes[i + m - 1] == last_hash
                && js_trim(index.line(text, i)) == first_text
                && js_trim(index.line(text, i + m - 1)) == last_text
        })
        .map(|i| (index.start(i), index.start(i + m)))
}

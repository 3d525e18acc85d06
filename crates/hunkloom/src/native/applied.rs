//! Edits already in place: a retried tool call whose SEARCH text is gone because the first call
//! applied it. Refusing it makes the model re-read and retry in a loop; the right answer is
//! "nothing to do", a success that changes nothing with block status `already_applied`.
//!
//! # The rule
//!
//! A block whose SEARCH text no tier places is already applied when its REPLACE text
//!
//! - has a non-blank line and differs from the SEARCH text;
//! - is placed by the cascade at exactly one place, by a tier stricter than the typo tier (a
//!   REPLACE text one line off is not the edit);
//! - and, when it brings no line of its own (every non-blank REPLACE line's loose key, see
//!   [`loose_hash`], is a SEARCH line's: a deletion), has two non-blank lines or more, and no
//!   line the edit deletes (a SEARCH line whose key no REPLACE line has) is among the lines
//!   next to that place, as many on each side as the edit deletes: lines a deletion did not
//!   remove would be there (the REPLACE text is contiguous in the file, so they can only be at
//!   its edges).
//!
//! Two places or more refuse the block as not found (the message names them); so does a
//! REPLACE text found nowhere.

use rustc_hash::FxHashSet;

use super::file_index::FileIndex;
use super::normalize::{BLANK, loose_hash};
use super::search_text::{SearchText, Tier};
use super::tiers::{self, Located, Miss};

/// Where the REPLACE text `replace` of a block whose SEARCH text `search` was not found already
/// is, if the block is already applied (see the module doc).
pub(crate) fn locate(
    text: &str,
    index: &FileIndex,
    search: &SearchText,
    replace: &[String],
) -> Option<Located> {
    let mut buf = String::new();
    let replace_keys: Vec<u64> = replace.iter().map(|l| loose_hash(l, &mut buf)).collect();
    let nonblank = replace_keys.iter().filter(|&&h| h != BLANK).count();
    if nonblank == 0 || search.lines == replace {
        return None;
    }
    let kept: FxHashSet<u64> = replace_keys.into_iter().collect();
    let own: FxHashSet<u64> = search
        .lines
        .iter()
        .map(|l| loose_hash(l, &mut buf))
        .collect();
    let deletion = kept.iter().all(|h| *h == BLANK || own.contains(h));
    if deletion && nonblank < 2 {
        return None;
    }
    let as_search = SearchText {
        lines: replace.to_vec(),
        eols: vec!["\n"; replace.len()],
    };
    let at = match tiers::locate(text, index, &as_search, None) {
        Ok(at) if at.tier != Tier::Typo => at,
        Ok(_) | Err(Miss::NotFound | Miss::Ambiguous { .. } | Miss::TooRepetitive) => return None,
    };
    if deletion {
        let deleted: FxHashSet<u64> = own
            .difference(&kept)
            .filter(|&&h| h != BLANK)
            .copied()
            .collect();
        let reach = search
            .lines
            .iter()
            .filter(|l| deleted.contains(&loose_hash(l, &mut buf)))
            .count();
        if around(text, at.start, at.end, reach).any(|l| deleted.contains(&loose_hash(l, &mut buf)))
        {
            return None;
        }
    }
    Some(at)
}

/// The lines of `text` from `reach` lines before byte `start` (a line start) to `reach` lines
/// after byte `end` (a line end), without their endings.
fn around(text: &str, start: usize, end: usize, reach: usize) -> impl Iterator<Item = &str> {
    let before = text[..start].rsplit_terminator('\n').take(reach);
    let after = text[end..].split_terminator('\n').take(reach);
    before
        .chain(after)
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
}

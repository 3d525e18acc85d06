//! The preview as a piece table: the original text plus the placed regions, in file order.
//!
//! A push records which regions it changed and how much of each one's display it left alone,
//! and [`PieceTable::splice`] reports one splice from the first change to the end of the last
//! changed region; so streaming a block in the middle of a large file costs O(chunk) per push,
//! and the preview string is only built when asked for ([`PieceTable::materialize`]).
//!
//! Nothing a push does walks the regions or copies what a region already shows: the regions
//! are kept in file order in a B-tree keyed by where they start, the offsets before a region
//! are prefix sums ([`RegionSums`]), and a splice copies only the text after what the push
//! left alone. A push costs O(chunk + the splice + changed regions × log regions), and placing
//! a block O(log regions), whatever order the blocks arrive in.
//!
//! The table owns every region: a [`RegionId`] is only made by [`PieceTable::insert`] and
//! regions are never removed (a withdrawn one shows the original text again), so an id, and
//! every entry of the file order, always names a region.

use super::region::{Region, append};
use super::region_sums::{Key, RegionSums};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Bound;

use crate::text::{Piece, Position, TextOffset, Work};

/// A region placed in a [`PieceTable`]; only the table makes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RegionId(usize);

/// The placed regions of one original text, in file order, and what the current push changed.
#[derive(Clone, Debug, Default)]
pub(super) struct PieceTable {
    /// Every region placed, indexed by [`RegionId`] (in the order they were placed).
    placed: Vec<Placed>,
    /// The regions by where they start and end in the original (regions never overlap, so
    /// the keys are distinct and sort in file order).
    file_order: BTreeMap<Key, RegionId>,
    /// The regions' displayed and original lengths, summed in file order.
    sums: RegionSums,
    /// The regions the current push changed, in the order it first changed them.
    touched: Vec<Touch>,
}

/// A region and its bookkeeping in the table.
#[derive(Clone, Debug)]
struct Placed {
    /// The block whose region this is.
    block: usize,
    /// The region and what it shows.
    region: Region,
    /// Its entry in `touched` during the current push.
    touch: Option<usize>,
}

/// A region a push changed: its displayed length before the push and how much of its display
/// (from the start) the push left alone.
#[derive(Clone, Copy, Debug)]
struct Touch {
    /// The region changed.
    region: RegionId,
    /// Its displayed length before the push.
    old_len: TextOffset,
    /// How much of its display (from the start) the push left alone.
    keep: TextOffset,
}

/// A region lent out for a change by [`PieceTable::change`].
pub(super) struct Change<'a> {
    /// The region being changed.
    pub(super) region: &'a mut Region,
    /// How much of its display (from the start) the push leaves alone.
    keep: &'a mut TextOffset,
}

impl Change<'_> {
    /// Records that the change rewrites the region's display from `offset` on.
    pub(super) fn rewrites_from(&mut self, offset: TextOffset) {
        if offset.bytes < self.keep.bytes {
            *self.keep = offset;
        }
    }
}

/// The part of the preview a push replaced: `removed` from `start` (of the preview before the
/// push) replaced by `inserted`.
pub(super) struct Splice {
    /// Where the change starts.
    pub(super) start: TextOffset,
    /// The length of the text it replaced.
    pub(super) removed: TextOffset,
    /// The text now there.
    pub(super) inserted: String,
}

impl PieceTable {
    /// Starts a push: nothing is changed yet.
    pub(super) fn start_push(&mut self) {
        for t in self.touched.drain(..) {
            self.placed[t.region.0].touch = None;
        }
    }

    /// The region `id`.
    pub(super) fn region(&self, id: RegionId) -> &Region {
        &self.placed[id.0].region
    }

    /// The block whose region (withdrawn ones included) overlaps the bytes `start..end` of the
    /// original, or starts at `start` when that span is empty.
    ///
    /// The first such region in file order, found in O(log regions): regions cover whole
    /// lines and never overlap, so only the last one starting at or before `start` and the
    /// first one starting after it can overlap (an empty span is the empty SEARCH part of an
    /// empty original, where every region is empty and starts at 0). The naive scan over
    /// every region is the oracle of the tests.
    pub(super) fn overlapping(&self, start: usize, end: usize) -> Option<usize> {
        let overlaps = |id: &RegionId| {
            let r = &self.placed[id.0].region;
            start < r.end.bytes && r.start.bytes < end || start == end && start == r.start.bytes
        };
        let before = self.file_order.range(..=(start, usize::MAX)).next_back();
        let after = self
            .file_order
            .range((Bound::Excluded((start, usize::MAX)), Bound::Unbounded))
            .next();
        [before, after]
            .into_iter()
            .flatten()
            .map(|(_, id)| id)
            .find(|id| overlaps(id))
            .map(|id| self.placed[id.0].block)
    }

    /// Places `block`'s `region` (which overlaps no other) and shows it; O(log regions).
    pub(super) fn insert(&mut self, block: usize, region: Region) -> RegionId {
        let id = RegionId(self.placed.len());
        let key = key(&region);
        debug_assert!(!self.file_order.contains_key(&key), "regions never overlap");
        self.sums
            .insert(key, region.display_len(), region.original_len());
        self.file_order.insert(key, id);
        self.placed.push(Placed {
            block,
            region,
            touch: None,
        });
        // It showed the original text until now.
        self.change(id).region.activate();
        id
    }

    /// Lends region `id` for a change, first recording (once per push) what it showed before
    /// the push.
    pub(super) fn change(&mut self, id: RegionId) -> Change<'_> {
        let p = &mut self.placed[id.0];
        let i = *p.touch.get_or_insert_with(|| {
            self.touched.push(Touch {
                region: id,
                old_len: p.region.display_len(),
                keep: p.region.stable_len(),
            });
            self.touched.len() - 1
        });
        Change {
            region: &mut p.region,
            keep: &mut self.touched[i].keep,
        }
    }

    /// One splice covering everything this push changed (`None` if it changed nothing), after
    /// recording what each changed region shows now.
    pub(super) fn splice(&mut self, original: &str) -> Option<Splice> {
        for t in &self.touched {
            let r = &self.placed[t.region.0].region;
            self.sums.set_shown(key(r), r.display_len());
        }
        let order = |t: &&Touch| key(&self.placed[t.region.0].region);
        let first = *self.touched.iter().min_by_key(order)?;
        let last = key(&self.placed[self.touched.iter().max_by_key(order)?.region.0].region);
        let f = &self.placed[first.region.0];
        let first_key = key(&f.region);
        let (grown, shrunk) = self.sums.before(first_key);
        let start = f
            .region
            .start
            .offset()
            .add(grown)
            .sub(shrunk)
            .add(first.keep);
        let mut removed = first.old_len.sub(first.keep);
        let mut inserted = String::new();
        f.region
            .write_from(original, first.keep.bytes, &mut inserted);
        let mut at = f.region.end.bytes;
        let later = (Bound::Excluded(first_key), Bound::Included(last));
        for &id in self.file_order.range(later).map(|(_, id)| id) {
            Work::Stream.charge(1);
            let p = &self.placed[id.0];
            let r = &p.region;
            let gap = &original[at..r.start.bytes];
            removed = removed.add(TextOffset::of(gap));
            append(&mut inserted, gap);
            let old = p
                .touch
                .map_or_else(|| r.display_len(), |t| self.touched[t].old_len);
            removed = removed.add(old);
            r.write_from(original, 0, &mut inserted);
            at = r.end.bytes;
        }
        Some(Splice {
            start,
            removed,
            inserted,
        })
    }

    /// The preview's length, the original's being `original_len`, as of the last splice.
    pub(super) fn preview_len(&self, original_len: TextOffset) -> TextOffset {
        let (grown, shrunk) = self.sums.total();
        original_len.add(grown).sub(shrunk)
    }

    /// The starts of the regions shown, in file order.
    pub(super) fn shown_starts(&self) -> Vec<Position> {
        self.file_order
            .values()
            .map(|&id| &self.placed[id.0].region)
            .filter(|r| r.is_active())
            .map(|r| r.start)
            .collect()
    }

    /// The preview: the original with every region's display in place.
    /// The preview as pieces: the original between regions as ranges, each region's display
    /// as new text. `original_len` is the original's length in every unit.
    pub(super) fn pieces(&self, original: &str, original_len: TextOffset) -> Vec<Piece<'static>> {
        let mut out = Vec::with_capacity(2 * self.file_order.len() + 1);
        let mut at = TextOffset::default();
        for &id in self.file_order.values() {
            let r = &self.placed[id.0].region;
            if r.start.bytes > at.bytes {
                out.push(Piece::Original {
                    start: at,
                    end: r.start.offset(),
                });
            }
            let mut shown = String::new();
            r.write_from(original, 0, &mut shown);
            if !shown.is_empty() {
                out.push(Piece::New(Cow::Owned(shown)));
            }
            at = r.end.offset();
        }
        if original_len.bytes > at.bytes {
            out.push(Piece::Original {
                start: at,
                end: original_len,
            });
        }
        out
    }

    pub(super) fn materialize(&self, original: &str) -> String {
        let mut out = String::with_capacity(original.len());
        let mut at = 0;
        for &id in self.file_order.values() {
            let r = &self.placed[id.0].region;
            out.push_str(&original[at..r.start.bytes]);
            r.write_from(original, 0, &mut out);
            at = r.end.bytes;
        }
        out.push_str(&original[at..]);
        out
    }
}

/// Where `region` sits in file order.
fn key(region: &Region) -> Key {
    (region.start.bytes, region.end.bytes)
}

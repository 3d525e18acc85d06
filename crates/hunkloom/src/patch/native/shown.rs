//! [`Shown`]: what a streaming native body's preview last showed, so that a newly placed
//! section is one splice of it, measured from the section and the sections before it in the
//! file rather than from the whole text.

use std::borrow::Cow;
use std::cell::OnceCell;

use super::place::{Input, Placed};
use crate::report::Update;
use crate::text::TextOffset;

/// The preview as [`NativeBodyApplier::preview_update`](super::NativeBodyApplier::preview_update)
/// last reported it.
#[derive(Debug, Default)]
pub(super) struct Shown {
    /// How many placed sections it accounts for.
    seen: usize,
    /// Those sections in file order (all of them are shown while none overlap).
    order: Vec<usize>,
    /// Two sections overlapped: the preview leaves one out, and from then on each change is
    /// the whole text (the call fails anyway).
    overlapped: bool,
    /// The preview's length, measured on first use.
    len: OnceCell<TextOffset>,
    /// The input's length in every unit before each of its lines, built on first use.
    line_starts: OnceCell<Vec<TextOffset>>,
}

/// Whether `later`, after `earlier` in file order, touches it (the preview's rule: a section
/// that starts inside the one before it, or at the same start as a non-empty one).
fn touches(earlier: &Placed, later: &Placed) -> bool {
    later.start < earlier.end || (later.start == earlier.start && earlier.start < earlier.end)
}

impl Shown {
    /// The splice that shows the sections of `placed` placed since the last call. `whole` gives
    /// the whole preview, for when a splice of it cannot be measured from the sections alone.
    pub(super) fn update(
        &mut self,
        input: &Input<'_>,
        placed: &[Placed],
        whole: impl FnOnce() -> String,
    ) -> Update<'static> {
        let before_call = *self.len.get_or_init(|| TextOffset::of(&input.text));
        let fresh = self.seen..placed.len();
        self.seen = placed.len();
        let mut single: Option<Update<'static>> = None;
        let mut anew = false;
        for i in fresh {
            let p = &placed[i];
            let key = |j: usize| (placed[j].start, placed[j].end, j);
            let at = self
                .order
                .partition_point(|&j| key(j) < (p.start, p.end, i));
            let touching = at
                .checked_sub(1)
                .is_some_and(|k| touches(&placed[self.order[k]], p))
                || self.order.get(at).is_some_and(|&j| touches(p, &placed[j]));
            self.overlapped |= touching;
            if self.overlapped || single.is_some() {
                // Sections that overlap, or a second change in one call: the whole text.
                self.order.insert(at, i);
                anew = true;
                continue;
            }
            // The preview before `p`: the input up to its start, with the sections before it.
            let mut start = self.units_before(input, p.start);
            for &j in &self.order[..at] {
                let q = &placed[j];
                start = (start + TextOffset::of(&q.text))
                    .sub(TextOffset::of(&input.text[q.start..q.end]));
            }
            self.order.insert(at, i);
            let removed = TextOffset::of(&input.text[p.start..p.end]);
            self.len = OnceCell::from((before_call + TextOffset::of(&p.text)).sub(removed));
            single = Some(Update {
                start,
                removed,
                inserted: Cow::Owned(p.text.clone()),
                ..Update::default()
            });
        }
        if anew {
            let text = whole();
            self.len = OnceCell::from(TextOffset::of(&text));
            return Update {
                removed: before_call,
                inserted: Cow::Owned(text),
                ..Update::default()
            };
        }
        single.unwrap_or_default()
    }

    /// Whether a created file's preview shows its `lines` complete lines already.
    pub(super) fn shows_created(&self, lines: usize) -> bool {
        lines == self.seen
    }

    /// A created file's preview, `text` of `lines` complete lines, shown anew.
    pub(super) fn replace_created(&mut self, lines: usize, text: String) -> Update<'static> {
        self.seen = lines;
        let before = self.len.get().copied().unwrap_or_default();
        self.len = OnceCell::from(TextOffset::of(&text));
        Update {
            removed: before,
            inserted: Cow::Owned(text),
            ..Update::default()
        }
    }

    /// The length of `input`'s text before byte `offset`, in every unit: from the line it is
    /// on (the lines' starts are measured once).
    fn units_before(&self, input: &Input<'_>, offset: usize) -> TextOffset {
        let starts = self.line_starts.get_or_init(|| {
            let mut units = Vec::with_capacity(input.starts().len());
            let mut at = TextOffset::default();
            let mut from = 0;
            for &s in input.starts() {
                at = at + TextOffset::of(&input.text[from..s]);
                units.push(at);
                from = s;
            }
            units
        });
        let line = input.line_at(offset);
        let line_start = input.starts()[line];
        starts[line] + TextOffset::of(&input.text[line_start..offset])
    }
}

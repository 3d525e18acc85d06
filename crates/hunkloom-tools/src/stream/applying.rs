//! [`Applying`]: a preview that follows a SEARCH/REPLACE `diff` argument as it streams, through
//! the engine's own [`StreamingApplier`] over the file's text (the native dialect, as the native
//! set's `apply_diff` applies it).

use std::borrow::Cow;

use hunkloom::{ApplierOptions, Dialect, StreamingApplier, Update};

use super::args::{ArgsReader, MemberCursor};

/// The applier over the target file and how much of the argument it has been fed.
#[derive(Debug)]
pub(super) struct Applying {
    applier: StreamingApplier,
    /// The member streaming into the applier, and how much of it the applier has.
    cursor: MemberCursor,
}

impl Applying {
    /// A preview of `base` into which the member at `key` streams as a native diff.
    pub(super) fn new(base: String, key: &'static [&'static str]) -> Applying {
        let options = ApplierOptions::new().dialect(Dialect::Native);
        Applying {
            applier: StreamingApplier::new(base, options),
            cursor: MemberCursor::new(key),
        }
    }

    /// The preview so far.
    pub(super) fn text(&self) -> &str {
        self.applier.preview()
    }

    /// Feeds the applier what the member has gained; returns how the preview changed, or
    /// `None` if the member was replaced by a later one of the same name.
    pub(super) fn feed(&mut self, args: &ArgsReader) -> Option<Update<'static>> {
        let piece = self.cursor.take(args)?;
        if piece.is_empty() {
            return Some(Update::default());
        }
        let Update {
            start,
            removed,
            inserted,
            ..
        } = self.applier.push(piece);
        // A splice of the preview only: the block reports are the call's to give, at finish.
        Some(Update {
            start,
            removed,
            inserted: Cow::Owned(inserted.into_owned()),
            ..Update::default()
        })
    }
}

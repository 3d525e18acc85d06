//! [`Patching`]: a preview that follows a V4A body as it streams — the `diff` of the Responses
//! API's `apply_patch` operation — through the core's streaming body readers: the Agents SDK's
//! reading ([`V4aApplier`]) or the native one ([`NativeBodyApplier`]), as the call will apply it.

use std::borrow::Cow;

use hunkloom::patch::native::NativeBodyApplier;
use hunkloom::patch::v4a::{V4aApplier, V4aMode};
use hunkloom::{TextOffset, Update};

use super::args::{ArgsReader, MemberCursor};
use super::editor::splice;
use crate::toolset::Semantics;

/// Where the body is read: an update of a file, or the lines of a new one.
#[derive(Debug)]
enum Body {
    /// The SDK's reading: sections placed in the file as they complete (or a created file's
    /// lines), each change one splice of its preview.
    Sdk(V4aApplier),
    /// The native reading: sections placed in the file as they complete.
    Native(NativeBodyApplier<'static>),
    /// A file the native reading creates: its `+` lines, shown as they complete (the
    /// reading's exact text is known when the call is); the incomplete last line.
    Create(String),
}

/// The body's reader, the member it streams from, and the preview it gives.
#[derive(Debug)]
pub(super) struct Patching {
    body: Body,
    cursor: MemberCursor,
    /// The preview as last shown, and (for a created file) its length.
    shown: String,
    shown_len: TextOffset,
    /// How many sections it shows.
    placed: usize,
    /// The body failed: the preview stays as it was.
    failed: bool,
}

impl Patching {
    /// A preview of the body at `key` applied to `base` (`None`: a file the body creates),
    /// read with `semantics`.
    pub(super) fn new(
        base: Option<String>,
        key: &'static [&'static str],
        semantics: Semantics,
    ) -> Patching {
        let (body, shown) = match base {
            None => (Body::Create(String::new()), String::new()),
            Some(base) => match semantics {
                Semantics::Reference => (Body::Sdk(V4aApplier::new(&base, V4aMode::Default)), base),
                _ => (
                    Body::Native(NativeBodyApplier::new(base.clone(), V4aMode::Default)),
                    base,
                ),
            },
        };
        Patching {
            body,
            cursor: MemberCursor::new(key),
            shown,
            shown_len: TextOffset::default(),
            placed: 0,
            failed: false,
        }
    }

    /// The preview so far.
    pub(super) fn text(&self) -> &str {
        &self.shown
    }

    /// Feeds the reader what the member has gained; returns how the preview changed (empty
    /// unless a section was placed or a created line completed), or `None` if the member was
    /// replaced by a later one of the same name.
    pub(super) fn feed(&mut self, args: &ArgsReader) -> Option<Update<'static>> {
        let piece = self.cursor.take(args)?;
        if piece.is_empty() || self.failed {
            return Some(Update::default());
        }
        let placed = match &mut self.body {
            Body::Create(partial) => {
                let added = created_lines(partial, piece);
                if added.is_empty() {
                    return Some(Update::default());
                }
                let start = self.shown_len;
                self.shown.push_str(&added);
                self.shown_len = self.shown_len + TextOffset::of(&added);
                return Some(Update {
                    start,
                    inserted: Cow::Owned(added),
                    ..Update::default()
                });
            }
            Body::Sdk(applier) => {
                self.failed = applier.push(piece).is_err();
                let update = applier.preview_update();
                update.apply_to(&mut self.shown);
                return Some(update);
            }
            Body::Native(applier) => applier.push(piece).ok().map(<[_]>::len),
        };
        let Some(placed) = placed else {
            self.failed = true;
            return Some(Update::default());
        };
        if placed == self.placed {
            return Some(Update::default());
        }
        self.placed = placed;
        let Body::Native(applier) = &self.body else {
            unreachable!("the other readings returned above")
        };
        // The native reading places a section anywhere in the file: the preview is built
        // anew, once per placed section.
        let new = applier.preview();
        let update = splice(Some(&self.shown), Some(&new));
        self.shown = new;
        Some(update)
    }
}

/// Takes `piece` of a created file's body, whose incomplete last line so far is `partial`:
/// the text of the `+` lines it completes, each with a `\n`. Costs the piece.
fn created_lines(partial: &mut String, piece: &str) -> String {
    // Only the piece can hold a line's end: what came before had none.
    let mut scan = partial.len();
    partial.push_str(piece);
    let mut added = String::new();
    let mut line_start = 0;
    while let Some(n) = partial[scan..].find('\n') {
        let line = &partial[line_start..scan + n];
        if let Some(text) = line.trim_end_matches('\r').strip_prefix('+') {
            added.push_str(text);
            added.push('\n');
        }
        line_start = scan + n + 1;
        scan = line_start;
    }
    partial.drain(..line_start);
    added
}

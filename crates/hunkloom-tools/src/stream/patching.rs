//! [`Patching`]: a preview that follows a V4A body as it streams — the `diff` of the Responses
//! API's `apply_patch` operation — through the core's streaming body readers: the Agents SDK's
//! reading ([`V4aApplier`]) or the native one ([`NativeBodyApplier`]), as the call will apply it.

use hunkloom::Update;
use hunkloom::patch::native::NativeBodyApplier;
use hunkloom::patch::v4a::{V4aApplier, V4aMode};

use super::args::{ArgsReader, MemberCursor};
use super::editor::splice;
use crate::toolset::Semantics;

/// Where the body is read: an update of a file, or the lines of a new one.
#[derive(Debug)]
enum Body {
    /// Sections placed in the file as they complete, by the SDK's reading.
    Sdk(V4aApplier),
    /// The same, by the native reading.
    Native(NativeBodyApplier<'static>),
    /// A created file: its `+` lines, shown as they complete (the reading's exact text, its
    /// final line ending included, is known when the call is); the incomplete last line.
    Create(String),
}

/// The body's reader, the member it streams from, and the preview it gives.
#[derive(Debug)]
pub(super) struct Patching {
    body: Body,
    cursor: MemberCursor,
    /// The preview as last shown.
    shown: String,
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
                let start = self.shown.len();
                // Only the piece can hold a line's end: what came before had none.
                let mut scan = partial.len();
                partial.push_str(piece);
                let mut line_start = 0;
                while let Some(n) = partial[scan..].find('\n') {
                    let line = &partial[line_start..scan + n];
                    if let Some(text) = line.trim_end_matches('\r').strip_prefix('+') {
                        self.shown.push_str(text);
                        self.shown.push('\n');
                    }
                    line_start = scan + n + 1;
                    scan = line_start;
                }
                partial.drain(..line_start);
                return Some(Update {
                    start: hunkloom::TextOffset::of(&self.shown[..start]),
                    inserted: std::borrow::Cow::Owned(self.shown[start..].to_owned()),
                    ..Update::default()
                });
            }
            Body::Sdk(applier) => match applier.push(piece) {
                Ok(_) => Some(applier.sections().len()),
                Err(_) => None,
            },
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
        let new = match &self.body {
            Body::Sdk(applier) => applier.preview(),
            Body::Native(applier) => applier.preview(),
            Body::Create(_) => unreachable!("a created file returned above"),
        };
        let update = splice(Some(&self.shown), Some(&new));
        self.shown = new;
        Some(update)
    }
}

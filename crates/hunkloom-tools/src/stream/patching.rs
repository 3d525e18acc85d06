//! [`Patching`]: a preview that follows a patch argument as it streams, through the core's
//! streaming body readers — the V4A `diff` of the Responses API's `apply_patch` operation (read
//! as the Agents SDK reads it, [`V4aApplier`], or natively, [`NativeBodyApplier`]), and the
//! native set's `apply_patch` `patch`, a `*** Begin Patch` envelope whose files the preview
//! follows one at a time.

use std::borrow::Cow;

use hunkloom::patch::native::NativeBodyApplier;
use hunkloom::patch::v4a::{V4aApplier, V4aMode};
use hunkloom::{TextOffset, Update};

use super::args::{ArgsReader, MemberCursor};
use crate::toolset::Semantics;

/// A patch argument streaming into a preview.
#[derive(Debug)]
pub(super) struct Patching {
    cursor: MemberCursor,
    form: Form,
}

/// What the argument is.
#[derive(Debug)]
enum Form {
    /// One file's body.
    Body(BodyPreview),
    /// A `*** Begin Patch` envelope: the file its lines are about now.
    Envelope(Envelope),
}

impl Patching {
    /// A preview of the V4A body at `key` applied to `base` (`None`: a file the body creates),
    /// read with `semantics`.
    pub(super) fn body(
        base: Option<String>,
        key: &'static [&'static str],
        semantics: Semantics,
    ) -> Patching {
        Patching {
            cursor: MemberCursor::new(key),
            form: Form::Body(BodyPreview::new(base, semantics)),
        }
    }

    /// A preview of the `*** Begin Patch` envelope at `key`, read natively: each file's body
    /// in turn, over the file's text as `peek` gives it (see [`feed`](Self::feed)).
    pub(super) fn envelope(key: &'static [&'static str]) -> Patching {
        Patching {
            cursor: MemberCursor::new(key),
            form: Form::Envelope(Envelope::default()),
        }
    }

    /// The preview so far: the file's text with the patch applied as far as it has streamed
    /// (for an envelope, the file it is about now; `None` before its first file, and for a
    /// deleted one).
    pub(super) fn text(&self) -> Option<&str> {
        match &self.form {
            Form::Body(body) => Some(body.text()),
            Form::Envelope(envelope) => envelope.file.as_ref().map(|(_, body)| body.text()),
        }
    }

    /// The path of the file an envelope is about now.
    pub(super) fn path(&self) -> Option<&str> {
        match &self.form {
            Form::Envelope(Envelope {
                file: Some((path, _)),
                ..
            }) => Some(path),
            _ => None,
        }
    }

    /// Feeds the reader what the member has gained (an envelope reads the files it names with
    /// `peek`); returns how the preview changed, or `None` if the member was replaced by a later
    /// one of the same name.
    pub(super) fn feed(
        &mut self,
        args: &ArgsReader,
        peek: &dyn Fn(&str) -> Option<String>,
    ) -> Option<Update<'static>> {
        let piece = self.cursor.take(args)?;
        if piece.is_empty() {
            return Some(Update::default());
        }
        Some(match &mut self.form {
            Form::Body(body) => body.push(piece),
            Form::Envelope(envelope) => envelope.push(piece, peek),
        })
    }
}

/// A `*** Begin Patch` envelope read line by line: the file its lines are about now.
#[derive(Debug, Default)]
struct Envelope {
    /// The incomplete last line.
    partial: String,
    /// The path and preview of the file being patched (`None`: none yet, or a deleted one).
    file: Option<(String, BodyPreview)>,
    /// `*** End Patch` was read.
    ended: bool,
}

impl Envelope {
    /// Takes a piece of the envelope: its complete lines switch files or stream into the
    /// current file's body (lines are given to a body once complete, since a line may turn
    /// out to be a marker). One splice for all the piece changed.
    fn push(&mut self, piece: &str, peek: &dyn Fn(&str) -> Option<String>) -> Update<'static> {
        // Only the piece can hold a line's end: what came before had none.
        let mut scan = self.partial.len();
        let mut text = std::mem::take(&mut self.partial);
        text.push_str(piece);
        let mut changes = Changes::default();
        let (mut at, mut run) = (0, 0);
        while let Some(n) = text[scan..].find('\n') {
            let end = scan + n + 1;
            if self.marker(text[at..end].trim(), peek, &mut changes, &text[run..at]) {
                run = end;
            }
            at = end;
            scan = end;
        }
        self.body_text(&text[run..at], &mut changes);
        text.drain(..at);
        self.partial = text;
        changes.finish(self.text())
    }

    fn text(&self) -> &str {
        self.file.as_ref().map_or("", |(_, body)| body.text())
    }

    /// Complete body lines of the current file.
    fn body_text(&mut self, lines: &str, changes: &mut Changes) {
        if lines.is_empty() || self.ended {
            return;
        }
        if let Some((_, body)) = &mut self.file {
            changes.before_change(body.text());
            changes.record(body.push(lines));
        }
    }

    /// Reads `line` (trimmed) as a marker, after giving the body the lines `run` before it;
    /// false (nothing done) if it is not one.
    fn marker(
        &mut self,
        line: &str,
        peek: &dyn Fn(&str) -> Option<String>,
        changes: &mut Changes,
        run: &str,
    ) -> bool {
        if self.ended {
            return true;
        }
        let next = if let Some(path) = line.strip_prefix("*** Update File:") {
            let path = path.trim().to_owned();
            let body = peek(&path).map(|base| BodyPreview::new(Some(base), Semantics::Native));
            Some(body.map(|body| (path, body)))
        } else if let Some(path) = line.strip_prefix("*** Add File:") {
            let body = BodyPreview::new(None, Semantics::Native);
            Some(Some((path.trim().to_owned(), body)))
        } else if line.starts_with("*** Delete File:") {
            Some(None)
        } else if line == "*** End Patch"
            || line.starts_with("*** Begin Patch")
            || line.starts_with("*** Move to:")
        {
            None
        } else {
            return false;
        };
        self.body_text(run, changes);
        // A file's end (the next file, the patch's end) ends its last section: placed now, not
        // at a next line that will not come.
        let ends_file = next.is_some() || line == "*** End Patch";
        if let Some((_, body)) = self.file.as_mut().filter(|_| ends_file) {
            changes.before_change(body.text());
            changes.record(body.push("@@\n"));
        }
        self.ended = line == "*** End Patch";
        if let Some(file) = next {
            changes.whole(self.text());
            self.file = file;
        }
        true
    }
}

/// The changes of one push as one splice: the first as it is; from a second change, or a
/// switch to another file, on, the whole text (measured once, from what it was before).
#[derive(Debug, Default)]
struct Changes {
    first: Option<Update<'static>>,
    /// The length of the text before the push, once the whole text is the splice.
    whole: Option<TextOffset>,
}

impl Changes {
    /// Before a change of `text` (the text as the push has left it so far): if one change was
    /// already made, the splice becomes the whole text.
    fn before_change(&mut self, text: &str) {
        if self.first.is_some() {
            self.whole(text);
        }
    }

    /// A change made.
    fn record(&mut self, update: Update<'static>) {
        let empty = update.removed.bytes == 0 && update.inserted.is_empty();
        if self.whole.is_none() && !empty {
            self.first = Some(update);
        }
    }

    /// The whole text is the splice; `text` is the text as the push has left it so far.
    fn whole(&mut self, text: &str) {
        if self.whole.is_some() {
            return;
        }
        let now = TextOffset::of(text);
        self.whole = Some(match self.first.take() {
            // Take the first change back: the length of the text before it.
            Some(first) => {
                let inserted = TextOffset::of(&first.inserted);
                TextOffset {
                    bytes: now.bytes - inserted.bytes,
                    utf16: now.utf16 - inserted.utf16,
                    chars: now.chars - inserted.chars,
                } + first.removed
            }
            None => now,
        });
    }

    /// The push's splice, given the text after it.
    fn finish(self, text: &str) -> Update<'static> {
        match (self.whole, self.first) {
            (Some(removed), _) => Update {
                removed,
                inserted: Cow::Owned(text.to_owned()),
                ..Update::default()
            },
            (None, Some(first)) => first,
            (None, None) => Update::default(),
        }
    }
}

/// One file's body streaming into a preview of the file.
#[derive(Debug)]
struct BodyPreview {
    body: Body,
    /// The preview as last shown, and (for a file the native reading creates) its length.
    shown: String,
    shown_len: TextOffset,
    /// The body failed: the preview stays as it was.
    failed: bool,
}

/// Where the body is read: an update of a file, or the lines of a new one.
#[derive(Debug)]
enum Body {
    /// The SDK's reading: sections placed in the file as they complete (or a created file's
    /// lines), each change one splice of its preview.
    Sdk(V4aApplier),
    /// The native reading: sections placed in the file as they complete, each one splice of
    /// its preview.
    Native(NativeBodyApplier<'static>),
    /// A file the native reading creates: its `+` lines, shown as they complete (the
    /// reading's exact text is known when the call is); the incomplete last line.
    Create(String),
}

impl BodyPreview {
    /// A preview of a body applied to `base` (`None`: a file the body creates), read with
    /// `semantics`.
    fn new(base: Option<String>, semantics: Semantics) -> BodyPreview {
        let (body, shown) = match (semantics, base) {
            (Semantics::Reference, base) => {
                let applier = match base {
                    Some(base) => V4aApplier::new(&base, V4aMode::Default),
                    None => V4aApplier::new("", V4aMode::Create),
                };
                // The file as the reading joins its lines (the same text unless its line
                // endings are mixed).
                let shown = applier.preview();
                (Body::Sdk(applier), shown)
            }
            (_, None) => (Body::Create(String::new()), String::new()),
            (_, Some(base)) => (
                Body::Native(NativeBodyApplier::new(base.clone(), V4aMode::Default)),
                base,
            ),
        };
        BodyPreview {
            body,
            shown,
            shown_len: TextOffset::default(),
            failed: false,
        }
    }

    fn text(&self) -> &str {
        &self.shown
    }

    /// Takes a piece of the body; how the preview changed (empty unless a section was placed
    /// or a created line completed).
    fn push(&mut self, piece: &str) -> Update<'static> {
        if self.failed {
            return Update::default();
        }
        let (pushed, update) = match &mut self.body {
            Body::Create(partial) => {
                let added = created_lines(partial, piece);
                if added.is_empty() {
                    return Update::default();
                }
                let start = self.shown_len;
                self.shown.push_str(&added);
                self.shown_len = self.shown_len + TextOffset::of(&added);
                return Update {
                    start,
                    inserted: Cow::Owned(added),
                    ..Update::default()
                };
            }
            Body::Sdk(applier) => (applier.push(piece).map(drop), applier.preview_update()),
            Body::Native(applier) => (applier.push(piece).map(drop), applier.preview_update()),
        };
        self.failed = pushed.is_err();
        update.apply_to(&mut self.shown);
        update
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

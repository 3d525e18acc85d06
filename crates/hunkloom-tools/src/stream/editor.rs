//! [`EditorCall`]: the preview of one file-editing call while its argument JSON streams in.
//!
//! The preview follows the call as it arrives. A text-editor call: once the command, the path
//! and what places the edit are complete (`old_str` found exactly once, `insert_line`, or a
//! `create` of a new file), the text being written (`new_str`, `file_text`) streams into the
//! file's text at that place, one splice per push. The native set's `apply_diff`: once the
//! path is complete, its `diff` streams through the engine's native applier over the file
//! ([`Applying`]). When the arguments object closes, the preview becomes exactly the text the
//! call will leave, computed by the tool's own planning (for the editor every profile rule:
//! tiers, tabs, line endings, lazy merges; for the workspace tools the file layer's plan), or
//! `None` if the call will fail.

use std::borrow::Cow;

use hunkloom::{TextOffset, Update};
use serde_json::Value;

use super::applying::Applying;
use super::args::{ArgsReader, MemberCursor};
use super::narrowing::{Found, Narrowing};
use super::patching::Patching;
use crate::codes::ToolCode;
use crate::editor::TextEditor;
use crate::input;
use crate::result::{self, Failure, ToolResult};
use crate::toolset::native::Native;
use crate::toolset::{CodexTool, OpenAiTool, Semantics};

/// What a streamed call's preview follows: the tool that will answer it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Follow<'a> {
    /// A text-editor call.
    Editor(&'a TextEditor),
    /// A call of the native set's tool (`apply_diff`, `apply_lazy`) that edits one file.
    File(&'a Native, &'a str),
    /// A call of the `openai` set's `apply_patch`: one operation's V4A body.
    Operation(OpenAiTool<'a>),
    /// A call of the `codex` set's `apply_patch`: a `*** Begin Patch` envelope.
    Codex(CodexTool<'a>),
}

/// The `operation` object of a Responses-API `apply_patch` call, and its members.
const OPERATION_TYPE: &[&str] = &["operation", "type"];
const OPERATION_PATH: &[&str] = &["operation", "path"];
const OPERATION_DIFF: &[&str] = &["operation", "diff"];

/// One text-editor call while its arguments stream in: the arguments read so far and the
/// preview they give. The public face is [`EditStream`](super::EditStream).
#[derive(Debug, Default)]
pub(crate) struct EditorCall {
    args: ArgsReader,
    place: Place,
    /// How many members had completed when the edit was last looked for (it is placed by
    /// complete members only, so pushes inside a value do not look again).
    looked_at: Option<usize>,
    /// The preview as one string, built on the first read after a change.
    shown: Option<String>,
    /// A `str_replace`'s `old_str` looked for while it streams (once tried, `Some`: `None`
    /// inside when the file could not be read then).
    narrowing: Option<Option<Narrowing>>,
}

/// What the preview is.
#[derive(Debug, Default)]
enum Place {
    /// Waiting for the command, the path and what places the edit.
    #[default]
    Waiting,
    /// No preview before the arguments are complete.
    Unknown,
    /// The edit's text streams into a known place.
    Live(Live),
    /// A diff streams through an applier over the file.
    Applying(Box<Applying>),
    /// A V4A body streams through a reader over the file.
    Patching(Box<Patching>),
    /// The complete call's result (`None`: it fails or writes nothing).
    Planned(Option<String>),
}

/// A text streaming into `base` in place of `base[at..end]`.
#[derive(Debug)]
struct Live {
    base: String,
    at: usize,
    end: usize,
    /// The member whose text streams in, and how much of it is in the preview.
    cursor: MemberCursor,
    /// The file's lines end in `\r\n`: the streamed `\n`s are written so, in `crlf_text`;
    /// otherwise the preview takes the member's text as it is, without a copy.
    crlf: bool,
    crlf_text: String,
    /// Where the streamed text starts in the preview, and its length.
    start: TextOffset,
    streamed_len: TextOffset,
}

impl Live {
    fn new(base: String, at: usize, end: usize, key: &'static [&'static str]) -> Live {
        let crlf = crlf_file(&base);
        let start = TextOffset::of(&base[..at]);
        Live {
            base,
            at,
            end,
            cursor: MemberCursor::new(key),
            crlf,
            crlf_text: String::new(),
            start,
            streamed_len: TextOffset::default(),
        }
    }

    /// The text streamed into the preview so far.
    fn streamed<'a>(&'a self, args: &'a ArgsReader) -> &'a str {
        if self.crlf {
            return &self.crlf_text;
        }
        self.cursor.taken_text(args)
    }

    fn text(&self, args: &ArgsReader) -> String {
        let streamed = self.streamed(args);
        let mut text =
            String::with_capacity(self.base.len() - (self.end - self.at) + streamed.len());
        text.push_str(&self.base[..self.at]);
        text.push_str(streamed);
        text.push_str(&self.base[self.end..]);
        text
    }

    /// Takes in what the streaming member has gained; returns the range of
    /// [`streamed`](Self::streamed) added, or `None` if the member was replaced by a later one
    /// of the same name.
    fn feed(&mut self, args: &ArgsReader) -> Option<std::ops::Range<usize>> {
        let from = if self.crlf {
            self.crlf_text.len()
        } else {
            self.cursor.taken
        };
        let piece = self.cursor.take(args)?;
        if self.crlf {
            for (i, part) in piece.split('\n').enumerate() {
                if i > 0 {
                    if !self.crlf_text.ends_with('\r') {
                        self.crlf_text.push('\r');
                    }
                    self.crlf_text.push('\n');
                }
                self.crlf_text.push_str(part);
            }
        }
        let to = if self.crlf {
            self.crlf_text.len()
        } else {
            self.cursor.taken
        };
        self.streamed_len = self.streamed_len + TextOffset::of(&self.streamed(args)[from..to]);
        Some(from..to)
    }
}

impl EditorCall {
    /// Takes the next piece of the call's argument JSON (split anywhere) and returns how the
    /// preview changed: one splice, empty when it did not.
    ///
    /// Costs the length of the piece, except for the push that places the edit (a read of the
    /// file) and the one that completes the arguments (the call planned as `call` runs it). A
    /// `str_replace`'s `old_str` is looked for while it streams: the file is read when it
    /// starts and searched once enough of it has arrived to occur in few places, which later
    /// pieces only narrow, so the push that completes it places the edit without a search.
    pub(crate) fn push(&mut self, follow: Follow<'_>, piece: &str) -> Update<'_> {
        // How a patch of several files reads the files it names.
        let peek = |path: &str| match follow {
            Follow::File(native, _) => native.peek(path),
            Follow::Codex(codex) => codex.peek(path),
            _ => None,
        };
        // The common case: plain text streaming into the live member, taken as it is.
        let plain = match &mut self.place {
            Place::Live(live)
                if !live.crlf
                    && live
                        .cursor
                        .member
                        .is_some_and(|m| m + 1 == self.args.members().len())
                    && self.args.push_plain(piece) =>
            {
                let before = live.streamed_len;
                let from = live.cursor.taken;
                live.cursor.taken += piece.len();
                live.streamed_len = before + TextOffset::of(piece);
                Some((live.start + before, from))
            }
            _ => None,
        };
        if let Some((start, from)) = plain {
            self.shown = None;
            let Place::Live(live) = &self.place else {
                unreachable!("the place was live just above")
            };
            return Update {
                start,
                inserted: Cow::Borrowed(&live.streamed(&self.args)[from..]),
                ..Update::default()
            };
        }
        let was_settled = self.args.is_complete() || self.args.is_broken();
        self.args.push(piece);
        let settled = self.args.is_complete() || self.args.is_broken();
        if settled {
            if was_settled && !self.args.is_broken() {
                return Update::default();
            }
            let planned = if self.args.is_broken() {
                None
            } else {
                self.args.parse().ok().and_then(|input| match follow {
                    Follow::Editor(editor) => editor.plan(&input),
                    Follow::File(native, tool) => native.plan(tool, input.as_object()?),
                    Follow::Operation(openai) => openai.plan(&input),
                    Follow::Codex(codex) => codex.plan(&input),
                })
            };
            return self.settle(planned);
        }
        if matches!(self.place, Place::Waiting) {
            if let Follow::Editor(editor) = follow {
                self.narrow(editor);
            }
            if self.looked_at == Some(self.args.completed()) {
                return Update::default();
            }
            self.looked_at = Some(self.args.completed());
            self.place = match follow {
                Follow::Editor(editor) => {
                    let mut narrowing = self.narrowing.as_mut().and_then(Option::take);
                    let place = self.locate(editor, &mut narrowing);
                    if let Some(slot) = &mut self.narrowing {
                        *slot = narrowing;
                    }
                    place
                }
                Follow::File(native, tool) => self.locate_file(native, tool),
                Follow::Operation(openai) => self.locate_operation(openai),
                // The patch's files are read as it names them.
                Follow::Codex(_) => Place::Patching(Box::new(Patching::envelope(&["input"]))),
            };
            self.shown = None;
            return match &mut self.place {
                Place::Live(live) => {
                    live.feed(&self.args);
                    Update {
                        inserted: Cow::Owned(live.text(&self.args)),
                        ..Update::default()
                    }
                }
                Place::Applying(applying) => {
                    // The file with what the diff so far changes in it.
                    applying.feed(&self.args);
                    Update {
                        inserted: Cow::Owned(applying.text().to_owned()),
                        ..Update::default()
                    }
                }
                Place::Patching(patching) => {
                    patching.feed(&self.args, &peek);
                    Update {
                        inserted: Cow::Owned(patching.text().unwrap_or_default().to_owned()),
                        ..Update::default()
                    }
                }
                _ => Update::default(),
            };
        }
        if let Place::Patching(patching) = &mut self.place {
            return match patching.feed(&self.args, &peek) {
                Some(update) => update,
                // A repeated key: what streamed no longer counts.
                None => {
                    let old = patching.text().map(str::to_owned);
                    self.place = Place::Unknown;
                    splice(old.as_deref(), None)
                }
            };
        }
        if let Place::Applying(applying) = &mut self.place {
            return match applying.feed(&self.args) {
                Some(update) => update,
                // A repeated key: what streamed no longer counts.
                None => {
                    let old = applying.text().to_owned();
                    self.place = Place::Unknown;
                    splice(Some(&old), None)
                }
            };
        }
        let Place::Live(live) = &mut self.place else {
            return Update::default();
        };
        let before = live.streamed_len;
        match live.feed(&self.args) {
            Some(added) if added.is_empty() => Update::default(),
            Some(added) => {
                self.shown = None;
                let Place::Live(live) = &self.place else {
                    unreachable!("the place was live just above")
                };
                Update {
                    start: live.start + before,
                    inserted: Cow::Borrowed(&live.streamed(&self.args)[added]),
                    ..Update::default()
                }
            }
            // A repeated key: what streamed no longer counts.
            None => {
                let old = live.text(&self.args);
                self.place = Place::Unknown;
                self.shown = None;
                splice(Some(&old), None)
            }
        }
    }

    /// Whether pushing `piece` may read the file, search it or plan the call (the pushes that
    /// place the edit, complete a line of a streaming diff, and complete the arguments), so a binding can let other threads run meanwhile;
    /// every other push only decodes the piece.
    pub(crate) fn push_may_read(&self, piece: &str) -> bool {
        let settled = self.args.is_complete() || self.args.is_broken();
        // Placing the edit needs a member to complete, which takes a quote or a delimiter.
        let waiting = matches!(self.place, Place::Waiting)
            && piece.bytes().any(|b| matches!(b, b'"' | b',' | b'}'));
        // A streaming diff is searched for as its lines complete, at escaped newlines.
        let applying =
            matches!(self.place, Place::Applying(_) | Place::Patching(_)) && piece.contains('\\');
        !settled && (waiting || applying || self.may_search_old() || piece.contains('}'))
    }

    /// Whether the next push of a streaming `old_str` may read the file or search it (until
    /// its places are known).
    fn may_search_old(&self) -> bool {
        matches!(self.place, Place::Waiting)
            && match &self.narrowing {
                Some(Some(narrowing)) => narrowing.searching(),
                Some(None) => false,
                None => self.old_streaming().is_some(),
            }
    }

    /// The path of a `str_replace` whose `old_str` has started and is not complete.
    fn old_streaming(&self) -> Option<&str> {
        if self.args.text("command") != Some("str_replace") {
            return None;
        }
        let path = self.args.text("path")?;
        let old = self.args.find("old_str")?;
        (!self.args.members()[old].complete).then_some(path)
    }

    /// Follows a streaming `old_str` (see [`Narrowing`]): reads the file when it starts, then
    /// takes in each piece.
    fn narrow(&mut self, editor: &TextEditor) {
        match &mut self.narrowing {
            Some(Some(narrowing)) => narrowing.feed(&self.args),
            Some(None) => {}
            None => {
                let Some(path) = self.old_streaming() else {
                    return;
                };
                let started = match editor.peek(path) {
                    Ok(Some(text)) => {
                        let crlf = crlf_file(&text);
                        let mut narrowing = Narrowing::new(text, crlf, &["old_str"]);
                        narrowing.feed(&self.args);
                        Some(narrowing)
                    }
                    _ => None,
                };
                self.narrowing = Some(started);
            }
        }
    }

    /// The target file's text with the edit applied as far as it has streamed; once the
    /// arguments are complete, exactly the text the call will leave. `None` before the edit is
    /// placed, for `view` and `undo_edit`, and for a call that will fail.
    pub(crate) fn preview(&mut self) -> Option<&str> {
        match &self.place {
            Place::Waiting | Place::Unknown => None,
            Place::Planned(text) => text.as_deref(),
            Place::Live(live) => Some(self.shown.get_or_insert_with(|| live.text(&self.args))),
            Place::Applying(applying) => Some(applying.text()),
            Place::Patching(patching) => patching.text(),
        }
    }

    /// The command, once its value is complete (an `operation`'s `type` for a call without
    /// one: the Responses API's `apply_patch`).
    pub(crate) fn command(&self) -> Option<&str> {
        self.args
            .text("command")
            .or_else(|| self.args.text_at(OPERATION_TYPE))
    }

    /// The path, once its value is complete (an `operation`'s, for a call without one; for a
    /// patch of several files, the file the preview is about now).
    pub(crate) fn path(&self) -> Option<&str> {
        self.args
            .text("path")
            .or_else(|| self.args.text_at(OPERATION_PATH))
            .or_else(|| match &self.place {
                Place::Patching(patching) => patching.path(),
                _ => None,
            })
    }

    /// Takes a piece of a call whose preview this stream does not follow (a tool that is not
    /// a text editor): only read.
    pub(crate) fn push_unfollowed(&mut self, piece: &str) {
        self.args.push(piece);
    }

    /// Runs `call` on the whole argument text parsed as JSON: `invalid_arguments` for text
    /// that is not a complete JSON object, and for `call`'s own `Err` (a non-object).
    pub(crate) fn run(
        self,
        call: impl FnOnce(&Value) -> hunkloom::Result<ToolResult>,
    ) -> ToolResult {
        let refused = |message: String| {
            result::finish(Err(Failure::new(ToolCode::InvalidArguments, message)), None)
        };
        match self.args.parse() {
            Ok(input @ Value::Object(_)) => {
                call(&input).unwrap_or_else(|e| refused(e.message().to_owned()))
            }
            Ok(other) => refused(format!(
                "The tool call's arguments must be a JSON object, not {}.",
                input::py_repr(&other)
            )),
            Err(e) => refused(format!(
                "The tool call's arguments are not complete JSON ({e}); send the call again \
                 with all of its arguments."
            )),
        }
    }

    /// The preview becomes the complete call's result: one splice from what it was.
    fn settle(&mut self, planned: Option<String>) -> Update<'_> {
        let old = match &self.place {
            Place::Live(live) => Some(live.text(&self.args)),
            Place::Applying(applying) => Some(applying.text().to_owned()),
            Place::Patching(patching) => patching.text().map(str::to_owned),
            Place::Planned(text) => text.clone(),
            Place::Waiting | Place::Unknown => None,
        };
        self.place = Place::Planned(planned);
        self.shown = None;
        let Place::Planned(new) = &self.place else {
            unreachable!("planned just above")
        };
        splice(old.as_deref(), new.as_deref()).into_owned()
    }

    /// Where a native set's file tool's edit goes: for `apply_diff`, into an applier over the
    /// file once the path is complete (a read of the file); for `apply_lazy`, known only when
    /// the call is complete.
    fn locate_file(&self, native: &Native, tool: &str) -> Place {
        let args = &self.args;
        if let Some(key) = native.streamed_patch(tool) {
            // Read natively as a `*** Begin Patch` envelope (what `format` names otherwise is
            // known when the call is complete).
            return match args.text("format") {
                None | Some("native" | "codex") => {
                    Place::Patching(Box::new(Patching::envelope(key)))
                }
                Some(_) => Place::Unknown,
            };
        }
        let Some(key) = native.streamed_diff(tool) else {
            return Place::Unknown;
        };
        let Some(path) = args.text("path") else {
            return waiting_for(args, "path");
        };
        match native.peek(path) {
            Some(text) => Place::Applying(Box::new(Applying::new(text, key))),
            None => Place::Unknown,
        }
    }

    /// Where an `apply_patch` operation's body goes, once its type and path are complete: into
    /// a reader over the file (a read of it) for `update_file`, into a new file for
    /// `create_file`; `delete_file` previews nothing.
    fn locate_operation(&self, openai: OpenAiTool<'_>) -> Place {
        let args = &self.args;
        let (Some(kind), Some(path)) = (args.text_at(OPERATION_TYPE), args.text_at(OPERATION_PATH))
        else {
            return match args.find("operation") {
                Some(i) if args.members()[i].complete => Place::Unknown,
                _ => Place::Waiting,
            };
        };
        let semantics: Semantics = openai.semantics();
        match kind {
            "create_file" if !openai.exists(path) => {
                Place::Patching(Box::new(Patching::body(None, OPERATION_DIFF, semantics)))
            }
            "update_file" => match openai.base_text(path) {
                Some(text) => Place::Patching(Box::new(Patching::body(
                    Some(text),
                    OPERATION_DIFF,
                    semantics,
                ))),
                None => Place::Unknown,
            },
            _ => Place::Unknown,
        }
    }

    /// Where the edit goes, once the arguments say enough: reads the file once (a
    /// `str_replace` whose `old_str` was followed while it streamed uses the file and the
    /// places `narrowing` kept).
    fn locate(&self, editor: &TextEditor, narrowing: &mut Option<Narrowing>) -> Place {
        let args = &self.args;
        let Some(command) = args.text("command") else {
            return waiting_for(args, "command");
        };
        let Some(path) = args.text("path") else {
            return waiting_for(args, "path");
        };
        match command {
            "create" => match editor.peek(path) {
                Ok(None) => Place::Live(Live::new(String::new(), 0, 0, &["file_text"])),
                // A lazy edit merged into the file (native), or refused: known when complete.
                _ => Place::Unknown,
            },
            "str_replace" => {
                let Some(old) = args.text("old_str") else {
                    return waiting_for(args, "old_str");
                };
                match narrowing.take().map(|n| n.found(old)) {
                    Some(Found::Once { text, at, end }) => {
                        Place::Live(Live::new(text, at, end, &["new_str"]))
                    }
                    Some(Found::NotOnce) => Place::Unknown,
                    Some(Found::Search(text)) => place_replacement(text, old),
                    None => match editor.peek(path) {
                        Ok(Some(text)) => place_replacement(text, old),
                        _ => Place::Unknown,
                    },
                }
            }
            "insert" => {
                let Some(value) = args.value("insert_line") else {
                    return waiting_for(args, "insert_line");
                };
                let Some(line) = input::as_int(&value).and_then(|n| usize::try_from(n).ok()) else {
                    return Place::Unknown;
                };
                match editor.peek(path) {
                    Ok(Some(text)) => place_insertion(text, line),
                    _ => Place::Unknown,
                }
            }
            _ => Place::Unknown,
        }
    }
}

/// Still waiting for `key`, unless it has arrived complete with a value of the wrong type.
fn waiting_for(args: &ArgsReader, key: &str) -> Place {
    match args.find(key) {
        Some(i) if args.members()[i].complete => Place::Unknown,
        _ => Place::Waiting,
    }
}

/// `new_str` streams in place of the one exact occurrence of `old` (written with the file's
/// `\r\n`s when it has them); anything else is known only when the call is complete.
fn place_replacement(text: String, old: &str) -> Place {
    if old.is_empty() {
        return Place::Unknown;
    }
    let crlf_old;
    let needle = if crlf_file(&text) && !old.contains('\r') {
        crlf_old = old.replace('\n', "\r\n");
        crlf_old.as_str()
    } else {
        old
    };
    let Some(at) = text.find(needle) else {
        return Place::Unknown;
    };
    let next = at + text[at..].chars().next().map_or(1, char::len_utf8);
    if text[next..].contains(needle) {
        return Place::Unknown;
    }
    let end = at + needle.len();
    Place::Live(Live::new(text, at, end, &["new_str"]))
}

/// Whether the file's first line ends in `\r\n`.
fn crlf_file(text: &str) -> bool {
    text.find('\n')
        .is_some_and(|nl| nl > 0 && text.as_bytes()[nl - 1] == b'\r')
}

/// `new_str` streams in after line `line` (0: the top of the file).
fn place_insertion(text: String, line: usize) -> Place {
    let at = if line == 0 {
        0
    } else {
        match memchr_nth(&text, line) {
            Some(nl) => nl + 1,
            // After a last line without a final newline.
            None if text.split('\n').count() == line && !text.is_empty() => text.len(),
            None => return Place::Unknown,
        }
    };
    Place::Live(Live::new(text, at, at, &["new_str"]))
}

/// The byte offset of the `n`th `\n` (1-based).
fn memchr_nth(text: &str, n: usize) -> Option<usize> {
    text.match_indices('\n').nth(n - 1).map(|(at, _)| at)
}

/// One splice that turns `old` into `new` (an absent preview counts as empty): the common
/// start and end are kept.
fn splice(old: Option<&str>, new: Option<&str>) -> Update<'static> {
    let (old, new) = (old.unwrap_or(""), new.unwrap_or(""));
    let mut head = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(head) || !new.is_char_boundary(head) {
        head -= 1;
    }
    let room = old.len().min(new.len()) - head;
    let mut tail = old.as_bytes()[old.len() - room..]
        .iter()
        .rev()
        .zip(new.as_bytes()[new.len() - room..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - tail) || !new.is_char_boundary(new.len() - tail) {
        tail -= 1;
    }
    Update {
        start: TextOffset::of(&old[..head]),
        removed: TextOffset::of(&old[head..old.len() - tail]),
        inserted: Cow::Owned(new[head..new.len() - tail].to_owned()),
        ..Update::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_splice_keeps_the_common_start_and_end() {
        let mut text = "abcXdef".to_owned();
        let s = splice(Some(&text), Some("abcYYdef"));
        assert_eq!((s.start.bytes, s.removed.bytes, &*s.inserted), (3, 1, "YY"));
        s.apply_to(&mut text);
        assert_eq!(text, "abcYYdef");
        let s = splice(Some("aé"), Some("aè"));
        assert_eq!((s.start.bytes, s.removed.bytes, &*s.inserted), (1, 2, "è"));
        let s = splice(None, Some("x"));
        assert_eq!((s.start.bytes, s.removed.bytes, &*s.inserted), (0, 0, "x"));
        let s = splice(Some("aa"), Some("aaa"));
        assert_eq!(s.removed.bytes + s.inserted.len(), 1);
    }

    #[test]
    fn insertions_go_after_the_line() {
        let place = |text: &str, line| match place_insertion(text.to_owned(), line) {
            Place::Live(live) => Some(live.at),
            _ => None,
        };
        assert_eq!(place("a\nb\n", 0), Some(0));
        assert_eq!(place("a\nb\n", 1), Some(2));
        assert_eq!(place("a\nb\n", 2), Some(4));
        assert_eq!(place("a\nb", 2), Some(3));
        assert_eq!(place("a\nb\n", 5), None);
    }
}

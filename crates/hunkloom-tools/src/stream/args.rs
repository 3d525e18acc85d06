//! [`ArgsReader`]: a tool call's argument JSON read while it streams in.
//!
//! Model APIs deliver a call's arguments as pieces of JSON text split anywhere: inside keys,
//! inside strings, inside a `\uXXXX` escape or between the two halves of a surrogate pair. The
//! reader keeps one state machine over the bytes it has seen and decodes each string member as
//! it arrives, so a push costs the length of the piece and nothing is parsed twice. The members
//! of an object value are read as members too, a few levels deep (the Responses API's
//! `{"operation": {"path": …, "diff": …}}`), each naming its parent. Other values
//! (`insert_line`, `view_range`, arrays) are kept as their raw JSON text and parsed once
//! complete.
//!
//! The reader is for previews only: the call itself runs on `serde_json`'s parse of the whole
//! text ([`ArgsReader::parse`]), so its result is exactly what the same text sent whole gives.

use std::ops::Range;

use serde_json::Value;

/// One member of the arguments object, or of an object inside it.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    /// The decoded key (complete once the value starts).
    pub(crate) key: String,
    /// The member whose object value holds this one (`None`: the arguments object).
    pub(crate) parent: Option<usize>,
    /// The value so far.
    pub(crate) value: MemberValue,
    /// Whether the value is complete.
    pub(crate) complete: bool,
}

/// The value of a [`Member`].
#[derive(Clone, Debug)]
pub(crate) enum MemberValue {
    /// A string, decoded as far as it has arrived.
    Text(String),
    /// Any other JSON value: its raw text in [`ArgsReader::raw`] (an object's members are
    /// members too).
    Raw(Range<usize>),
}

/// Where the reader is in the object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// Before the opening `{`.
    Start,
    /// After `{` or `,`: a key's opening quote next (or `}` right after `{`).
    BeforeKey { first: bool },
    /// Inside a key.
    Key,
    /// After a key: `:` next.
    Colon,
    /// After `:`: a value next.
    BeforeValue,
    /// Inside a string value.
    Text,
    /// Inside another value: nesting depth and whether inside a string in it.
    Raw {
        depth: usize,
        in_string: bool,
        escaped: bool,
    },
    /// After a value: `,` or `}` next.
    AfterValue,
    /// After the closing `}`: only whitespace may follow.
    Done,
    /// The text is not a JSON object; nothing more is read.
    Broken,
}

/// Decoding state inside a JSON string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Escape {
    /// After a backslash.
    backslash: bool,
    /// Hex digits of a `\u` escape read so far (`Some(n)` while reading), and their value.
    hex: Option<(u8, u32)>,
    /// A high surrogate waiting for its low half.
    high: Option<u32>,
}

/// A tool call's argument JSON, read as it streams (see the [module](self)).
#[derive(Clone, Debug)]
pub(crate) struct ArgsReader {
    raw: String,
    at: At,
    escape: Escape,
    /// The key being read.
    key: String,
    /// Where the current raw value starts in `raw`.
    raw_start: usize,
    members: Vec<Member>,
    /// How many members have completed so far.
    completed: usize,
    /// The members whose object value is being read, outermost first.
    open: Vec<usize>,
}

/// How many objects deep members are read; deeper values are kept raw.
const MAX_NESTING: usize = 3;

impl Default for ArgsReader {
    fn default() -> Self {
        ArgsReader {
            raw: String::new(),
            at: At::Start,
            escape: Escape::default(),
            key: String::new(),
            raw_start: 0,
            members: Vec::new(),
            completed: 0,
            open: Vec::new(),
        }
    }
}

/// JSON whitespace.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

impl ArgsReader {
    /// Reads the next piece.
    pub(crate) fn push(&mut self, piece: &str) {
        if self.push_plain(piece) {
            return;
        }
        let from = self.raw.len();
        self.raw.push_str(piece);
        let mut i = from;
        while i < self.raw.len() {
            i = self.step(i);
        }
    }

    /// The common case: `piece` is plain text inside a string value (no quote, backslash or
    /// control character, no escape open), appended straight to the value. False (nothing
    /// read) otherwise.
    pub(crate) fn push_plain(&mut self, piece: &str) -> bool {
        if self.at != At::Text
            || self.escape != Escape::default()
            || piece.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20)
        {
            return false;
        }
        let Some(Member {
            value: MemberValue::Text(text),
            ..
        }) = self.members.last_mut()
        else {
            return false;
        };
        self.raw.push_str(piece);
        text.push_str(piece);
        true
    }

    /// The members so far, in arrival order (a repeated key appears again; the last wins).
    pub(crate) fn members(&self) -> &[Member] {
        &self.members
    }

    /// How many members have completed so far (what places an edit only changes when one
    /// does).
    pub(crate) fn completed(&self) -> usize {
        self.completed
    }

    /// The index of the top-level member that holds `key` now (the last one of that name).
    pub(crate) fn find(&self, key: &str) -> Option<usize> {
        self.find_at(&[key])
    }

    /// The index of the member at `path` (keys from the top, each naming a member of the
    /// previous one's object), the last of each name.
    pub(crate) fn find_at(&self, path: &[&str]) -> Option<usize> {
        let mut parent = None;
        for key in path {
            let at = self
                .members
                .iter()
                .rposition(|m| m.parent == parent && m.key == *key)?;
            parent = Some(at);
        }
        parent
    }

    /// The complete string value of the top-level `key`, if it has one.
    pub(crate) fn text(&self, key: &str) -> Option<&str> {
        self.text_at(&[key])
    }

    /// The complete string value at `path` (see [`find_at`](Self::find_at)), if it has one.
    pub(crate) fn text_at(&self, path: &[&str]) -> Option<&str> {
        let m = &self.members[self.find_at(path)?];
        match (&m.value, m.complete) {
            (MemberValue::Text(t), true) => Some(t),
            _ => None,
        }
    }

    /// The complete value of `key`, parsed.
    pub(crate) fn value(&self, key: &str) -> Option<Value> {
        let m = &self.members[self.find(key)?];
        if !m.complete {
            return None;
        }
        match &m.value {
            MemberValue::Text(t) => Some(Value::String(t.clone())),
            MemberValue::Raw(range) => serde_json::from_str(&self.raw[range.clone()]).ok(),
        }
    }

    /// Whether the object's closing `}` has arrived.
    pub(crate) fn is_complete(&self) -> bool {
        self.at == At::Done
    }

    /// Whether the text so far cannot be the start of a JSON object.
    pub(crate) fn is_broken(&self) -> bool {
        self.at == At::Broken
    }

    /// The whole text parsed as `serde_json` parses it (the call's input), or its error.
    pub(crate) fn parse(&self) -> Result<Value, serde_json::Error> {
        serde_json::from_str(&self.raw)
    }

    /// Reads from byte `i` of `raw`; returns where to go on.
    fn step(&mut self, i: usize) -> usize {
        let b = self.raw.as_bytes()[i];
        match self.at {
            At::Start => match b {
                b'{' => self.at = At::BeforeKey { first: true },
                _ if is_space(b) => {}
                _ => self.at = At::Broken,
            },
            At::BeforeKey { first } => match b {
                b'"' => {
                    self.key.clear();
                    self.escape = Escape::default();
                    self.at = At::Key;
                }
                b'}' if first => self.close(i),
                _ if is_space(b) => {}
                _ => self.at = At::Broken,
            },
            At::Key => {
                let (next, end) = decode(&self.raw, i, &mut self.escape, &mut self.key);
                self.at = match end {
                    End::Open => At::Key,
                    End::Closed => At::Colon,
                    End::Broken => At::Broken,
                };
                return next;
            }
            At::Colon => match b {
                b':' => self.at = At::BeforeValue,
                _ if is_space(b) => {}
                _ => self.at = At::Broken,
            },
            At::BeforeValue => match b {
                _ if is_space(b) => {}
                b'"' => {
                    self.start_member(MemberValue::Text(String::new()));
                    self.escape = Escape::default();
                    self.at = At::Text;
                }
                b',' | b'}' | b':' | b']' => self.at = At::Broken,
                b'{' if self.open.len() < MAX_NESTING => {
                    self.start_member(MemberValue::Raw(i..i));
                    self.open.push(self.members.len() - 1);
                    self.at = At::BeforeKey { first: true };
                }
                _ => {
                    self.start_member(MemberValue::Raw(i..i));
                    self.raw_start = i;
                    self.at = At::Raw {
                        depth: 0,
                        in_string: false,
                        escaped: false,
                    };
                    return i;
                }
            },
            At::Text => {
                let Some(member) = self.members.last_mut() else {
                    self.at = At::Broken;
                    return self.raw.len();
                };
                let MemberValue::Text(text) = &mut member.value else {
                    self.at = At::Broken;
                    return self.raw.len();
                };
                let (next, end) = decode(&self.raw, i, &mut self.escape, text);
                self.at = match end {
                    End::Open => At::Text,
                    End::Closed => {
                        member.complete = true;
                        self.completed += 1;
                        At::AfterValue
                    }
                    End::Broken => At::Broken,
                };
                return next;
            }
            At::Raw {
                depth,
                in_string,
                escaped,
            } => return self.raw_value(i, depth, in_string, escaped),
            At::AfterValue => match b {
                b',' => self.at = At::BeforeKey { first: false },
                b'}' => self.close(i),
                _ if is_space(b) => {}
                _ => self.at = At::Broken,
            },
            At::Done => {
                if !is_space(b) {
                    self.at = At::Broken;
                }
            }
            At::Broken => return self.raw.len(),
        }
        i + 1
    }

    /// A member whose value starts now, in the object being read.
    fn start_member(&mut self, value: MemberValue) {
        self.members.push(Member {
            key: std::mem::take(&mut self.key),
            parent: self.open.last().copied(),
            value,
            complete: false,
        });
    }

    /// The `}` at byte `i` closes the object being read: a member's value, or the arguments.
    fn close(&mut self, i: usize) {
        let Some(at) = self.open.pop() else {
            self.at = At::Done;
            return;
        };
        let member = &mut self.members[at];
        if let MemberValue::Raw(range) = &mut member.value {
            range.end = i + 1;
        }
        member.complete = true;
        self.completed += 1;
        self.at = At::AfterValue;
    }

    /// Skims a value that is not a string from byte `i`: it ends before `,` or `}` at depth 0
    /// outside strings. Returns where to go on.
    fn raw_value(
        &mut self,
        mut i: usize,
        mut depth: usize,
        mut in_string: bool,
        mut escaped: bool,
    ) -> usize {
        let bytes = self.raw.as_bytes();
        while i < bytes.len() {
            let b = bytes[i];
            if in_string {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_string = false;
                }
            } else {
                match b {
                    b'"' => in_string = true,
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' if depth > 0 => depth -= 1,
                    b',' | b'}' if depth == 0 => {
                        let end = self.raw[self.raw_start..i].trim_end().len() + self.raw_start;
                        if let Some(m) = self.members.last_mut() {
                            m.value = MemberValue::Raw(self.raw_start..end);
                            m.complete = true;
                            self.completed += 1;
                        }
                        self.at = At::AfterValue;
                        return i;
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        self.at = At::Raw {
            depth,
            in_string,
            escaped,
        };
        i
    }
}

/// How far a string's text went in what has arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// Not closed yet.
    Open,
    /// The closing quote was read.
    Closed,
    /// Not valid JSON string text.
    Broken,
}

/// Decodes string text of `raw` from byte `i` into `out`, up to the closing quote or the end of
/// what has arrived; returns where to go on and how far the string went.
fn decode(raw: &str, mut i: usize, esc: &mut Escape, out: &mut String) -> (usize, End) {
    let bytes = raw.as_bytes();
    let broken = (bytes.len(), End::Broken);
    while i < bytes.len() {
        let b = bytes[i];
        if let Some((n, acc)) = esc.hex {
            let Some(digit) = (b as char).to_digit(16) else {
                return broken;
            };
            let acc = acc * 16 + digit;
            if n < 3 {
                esc.hex = Some((n + 1, acc));
            } else {
                esc.hex = None;
                if !code_unit(esc, acc, out) {
                    return broken;
                }
            }
            i += 1;
            continue;
        }
        if esc.backslash {
            esc.backslash = false;
            let plain = match b {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => {
                    esc.hex = Some((0, 0));
                    i += 1;
                    continue;
                }
                _ => return broken,
            };
            if esc.high.is_some() {
                // A high surrogate not followed by its low half.
                return broken;
            }
            out.push(plain);
            i += 1;
            continue;
        }
        if esc.high.is_some() && b != b'\\' {
            return broken;
        }
        match b {
            b'\\' => {
                esc.backslash = true;
                i += 1;
            }
            b'"' => return (i + 1, End::Closed),
            0..=0x1f => return broken,
            _ => {
                // A run of plain text: up to the next quote, backslash or control byte, all
                // ASCII, so the run ends on a character boundary.
                let run = bytes[i..]
                    .iter()
                    .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
                    .map_or(bytes.len(), |n| i + n);
                out.push_str(&raw[i..run]);
                i = run;
            }
        }
    }
    (i, End::Open)
}

/// Adds the UTF-16 code unit `unit` of a `\u` escape; false if it is a lone surrogate
/// (which `serde_json` refuses, so the call would).
fn code_unit(esc: &mut Escape, unit: u32, out: &mut String) -> bool {
    match (esc.high.take(), unit) {
        (None, 0xD800..=0xDBFF) => {
            esc.high = Some(unit);
            true
        }
        (Some(high), 0xDC00..=0xDFFF) => {
            let c = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00);
            char::from_u32(c).map(|c| out.push(c)).is_some()
        }
        (Some(_), _) | (None, 0xDC00..=0xDFFF) => false,
        (None, _) => char::from_u32(unit).map(|c| out.push(c)).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_in(text: &str, size: usize) -> ArgsReader {
        let mut reader = ArgsReader::default();
        let chars: Vec<char> = text.chars().collect();
        for piece in chars.chunks(size.max(1)) {
            reader.push(&piece.iter().collect::<String>());
        }
        reader
    }

    #[test]
    fn strings_decode_across_every_split() {
        let text =
            r#"{"path": "/a\"b\\c", "new_str": "x\u00e9\ud83d\ude00\n\tz", "insert_line": 3}"#;
        for size in [1, 2, 3, 5, 7, 100] {
            let reader = read_in(text, size);
            assert!(reader.is_complete(), "{size}");
            assert_eq!(reader.text("path"), Some("/a\"b\\c"));
            assert_eq!(reader.text("new_str"), Some("x\u{e9}\u{1F600}\n\tz"));
            assert_eq!(reader.value("insert_line"), Some(Value::from(3)));
        }
    }

    #[test]
    fn a_string_grows_while_it_streams() {
        let mut reader = ArgsReader::default();
        reader.push(r#"{"file_text": "ab"#);
        assert_eq!(reader.text("file_text"), None);
        let MemberValue::Text(t) = &reader.members()[0].value else {
            panic!("a string member")
        };
        assert_eq!(t, "ab");
        reader.push(r#"c\u00"#);
        reader.push(r#"e9""#);
        assert_eq!(reader.text("file_text"), Some("abc\u{e9}"));
        assert!(!reader.is_complete());
    }

    #[test]
    fn the_last_of_a_repeated_key_wins_as_in_a_whole_parse() {
        let reader = read_in(r#"{"a": "1", "b": [1, {"c": "}"}], "a": "2"}"#, 1);
        assert_eq!(reader.text("a"), Some("2"));
        assert_eq!(reader.value("b"), Some(serde_json::json!([1, {"c": "}"}])));
        assert_eq!(reader.parse().unwrap()["a"], "2");
    }

    #[test]
    fn members_of_an_object_value_are_read_as_they_stream() {
        let text = r#"{"operation": {"type": "update_file", "diff": "@@\n-a\n+b", "n": [1, {"x": "}"}]}, "path": "top"}"#;
        for size in [1, 2, 5, 100] {
            let reader = read_in(text, size);
            assert!(reader.is_complete(), "{size}");
            assert_eq!(reader.text_at(&["operation", "type"]), Some("update_file"));
            assert_eq!(reader.text_at(&["operation", "diff"]), Some("@@\n-a\n+b"));
            assert_eq!(reader.text("path"), Some("top"));
            // A nested key is not a top-level one.
            assert_eq!(reader.text("type"), None);
            let whole = reader.parse().unwrap();
            assert_eq!(reader.value("operation"), Some(whole["operation"].clone()));
        }
        let mut reader = ArgsReader::default();
        reader.push(r#"{"operation": {"diff": "+x"#);
        let at = reader.find_at(&["operation", "diff"]).expect("started");
        assert!(!reader.members()[at].complete);
        assert_eq!(reader.value("operation"), None);
        // Deeper than the limit, values are kept raw, and still parse.
        let deep = read_in(r#"{"a": {"b": {"c": {"d": {"e": "f"}}}}}"#, 1);
        assert_eq!(deep.text_at(&["a", "b", "c", "d", "e"]), None);
        assert_eq!(
            deep.value("a"),
            Some(serde_json::json!({"b": {"c": {"d": {"e": "f"}}}}))
        );
    }

    #[test]
    fn text_that_is_not_an_object_is_broken() {
        for text in [
            "[1]",
            r#"{"a" 1}"#,
            r#"{"a": "\ud800x"}"#,
            r#"{"a": "\q"}"#,
            "{\"a\": \"\u{1}\"}",
            r#"{"a": 1} x"#,
            r#"{"a": {"b" 1}}"#,
            r#"{"a": {"b": "c",}}"#,
        ] {
            assert!(read_in(text, 1).is_broken(), "{text}");
            assert!(
                read_in(text, 1).parse().map_or(true, |v| !v.is_object()),
                "{text}"
            );
        }
        let truncated = read_in(r#"{"a": "b"#, 1);
        assert!(!truncated.is_broken() && !truncated.is_complete());
    }
}

/// Where a preview is in one string member of the arguments as it streams: which member holds
/// the key (a later member of the same name replaces it) and how many bytes of its text were
/// taken.
#[derive(Debug)]
pub(super) struct MemberCursor {
    /// The member's path (see [`ArgsReader::find_at`]).
    path: &'static [&'static str],
    /// The member's index among the arguments' members, once it has started.
    pub(super) member: Option<usize>,
    /// How many members the arguments had when `member` was last looked up.
    members_seen: usize,
    /// How many bytes of the member's text were taken.
    pub(super) taken: usize,
}

impl MemberCursor {
    /// A cursor on the member at `path`, which may not have started yet.
    pub(super) fn new(path: &'static [&'static str]) -> MemberCursor {
        MemberCursor {
            path,
            member: None,
            members_seen: 0,
            taken: 0,
        }
    }

    /// The text the member gained since the last call (empty before it starts), now taken;
    /// `None` if a later member of the same name replaced it or its value is not a string.
    pub(super) fn take<'a>(&mut self, args: &'a ArgsReader) -> Option<&'a str> {
        if args.members().len() != self.members_seen {
            self.members_seen = args.members().len();
            match (self.member, args.find_at(self.path)) {
                (Some(was), Some(now)) if was != now => return None,
                (_, now) => self.member = now,
            }
        }
        let Some(index) = self.member else {
            return Some("");
        };
        let MemberValue::Text(text) = &args.members()[index].value else {
            return None;
        };
        let piece = &text[self.taken..];
        self.taken = text.len();
        Some(piece)
    }

    /// The member's text taken so far.
    pub(super) fn taken_text<'a>(&self, args: &'a ArgsReader) -> &'a str {
        match self.member.map(|m| &args.members()[m].value) {
            Some(MemberValue::Text(text)) => &text[..self.taken],
            _ => "",
        }
    }
}

//! Pushed chunks that end inside a UTF-8 character.
//!
//! A C host streams bytes (from a socket, a pipe, a model's token buffer) and cuts wherever its
//! buffer ends, so a chunk may end between the bytes of one character. The engine takes `&str`,
//! so the binding keeps the 1-3 bytes of such an unfinished character in a [`Pending`] and puts
//! them in front of the next chunk. This is a type conversion (bytes to text); with the
//! NUL-terminated copy of the preview (`applier.rs`, also a conversion: to C text) it is all
//! the state the binding adds, and everything else is the engine's.
//!
//! Bytes that can never become valid UTF-8 are rejected wherever they are, and a rejected chunk
//! changes nothing: [`Pending::join`] computes the new state without touching the old one, and
//! the caller stores it only after the engine took the text.

use std::borrow::Cow;

/// The bytes of a character that a push left unfinished (0-3 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pending {
    buf: [u8; 3],
    len: u8,
}

/// A chunk joined with the pending bytes: the complete text to hand to the engine and the bytes
/// to keep for the next push.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Joined<'a> {
    /// Complete characters only.
    pub(crate) text: Cow<'a, str>,
    /// The unfinished character at the end, if any.
    pub(crate) pending: Pending,
}

/// The chunk contains bytes that are not UTF-8 (or the diff ended inside a character).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct InvalidUtf8;

impl Pending {
    /// Whether no character is unfinished.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn from_bytes(bytes: &[u8]) -> Pending {
        debug_assert!(bytes.len() <= 3);
        let mut p = Pending::default();
        p.buf[..bytes.len()].copy_from_slice(bytes);
        p.len = bytes.len() as u8;
        p
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }

    /// The pending bytes followed by `chunk`, split into complete text and a new pending tail.
    /// Copies only when a pending character completes (then the joined text is owned).
    pub(crate) fn join<'a>(&self, chunk: &'a [u8]) -> Result<Joined<'a>, InvalidUtf8> {
        let mut head = [0u8; 4];
        let mut head_len = 0;
        let mut rest = chunk;
        if !self.is_empty() {
            let have = self.bytes();
            let need = sequence_len(have[0]).ok_or(InvalidUtf8)?;
            let take = (need - have.len()).min(chunk.len());
            head[..have.len()].copy_from_slice(have);
            head[have.len()..have.len() + take].copy_from_slice(&chunk[..take]);
            head_len = have.len() + take;
            rest = &chunk[take..];
            match std::str::from_utf8(&head[..head_len]) {
                Ok(_) => {}
                // The chunk ended before the character did: keep waiting.
                Err(e) if e.error_len().is_none() => {
                    return Ok(Joined {
                        text: Cow::Borrowed(""),
                        pending: Pending::from_bytes(&head[..head_len]),
                    });
                }
                Err(_) => return Err(InvalidUtf8),
            }
        }
        let (body, tail) = split_complete(rest)?;
        let text = if head_len == 0 {
            Cow::Borrowed(body)
        } else {
            // Validated just above; checked again rather than trusted (four bytes at most).
            let head = std::str::from_utf8(&head[..head_len]).map_err(|_| InvalidUtf8)?;
            let mut joined = String::with_capacity(head.len() + body.len());
            joined.push_str(head);
            joined.push_str(body);
            Cow::Owned(joined)
        };
        Ok(Joined {
            text,
            pending: Pending::from_bytes(tail),
        })
    }
}

/// `bytes` as its longest valid UTF-8 prefix plus an unfinished character at the end (0-3
/// bytes), or an error if any byte can never be part of valid UTF-8 there.
fn split_complete(bytes: &[u8]) -> Result<(&str, &[u8]), InvalidUtf8> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok((text, &[])),
        Err(e) if e.error_len().is_none() => {
            let (valid, tail) = bytes.split_at(e.valid_up_to());
            // SAFETY: `Utf8Error::valid_up_to` is the length of the prefix that is valid UTF-8.
            let text = unsafe { std::str::from_utf8_unchecked(valid) };
            Ok((text, tail))
        }
        Err(_) => Err(InvalidUtf8),
    }
}

/// The length of the UTF-8 sequence a lead byte starts, for the leads `from_utf8` may report as
/// unfinished.
fn sequence_len(lead: u8) -> Option<usize> {
    match lead {
        0xC2..=0xDF => Some(2),
        0xE0..=0xEF => Some(3),
        0xF0..=0xF4 => Some(4),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `pieces` one after another, like a host would.
    fn feed(pieces: &[&[u8]]) -> Result<(String, Pending), InvalidUtf8> {
        let mut pending = Pending::default();
        let mut out = String::new();
        for piece in pieces {
            let joined = pending.join(piece)?;
            out.push_str(&joined.text);
            pending = joined.pending;
        }
        Ok((out, pending))
    }

    #[test]
    fn every_byte_split_of_every_width_rebuilds_the_text() {
        let text = "a\u{e9}\u{20ac}\u{1F680}z\u{10FFFF}\u{7FF}\u{800}";
        let bytes = text.as_bytes();
        for cut1 in 0..=bytes.len() {
            for cut2 in cut1..=bytes.len() {
                let pieces = [&bytes[..cut1], &bytes[cut1..cut2], &bytes[cut2..]];
                let (out, pending) = feed(&pieces).expect("valid");
                assert_eq!(out, text, "cuts {cut1} {cut2}");
                assert!(pending.is_empty());
            }
        }
        let one_by_one: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(feed(&one_by_one).expect("valid").0, text);
    }

    #[test]
    fn an_unfinished_character_is_kept_and_only_complete_text_goes_out() {
        let rocket = "\u{1F680}".as_bytes();
        let (out, pending) = feed(&[b"ab", &rocket[..2]]).expect("valid");
        assert_eq!(out, "ab");
        assert_eq!(pending.bytes(), &rocket[..2]);
        let (out, pending) = feed(&[&rocket[..1], &rocket[1..3]]).expect("valid");
        assert_eq!(out, "");
        assert_eq!(pending.bytes(), &rocket[..3]);
    }

    #[test]
    fn invalid_bytes_anywhere_are_rejected_without_changing_state() {
        let euro = "\u{20ac}".as_bytes();
        for bad in [
            &b"\xff"[..],
            b"a\x80",
            b"\xc0\xaf",
            b"\xed\xa0\x80",
            b"\xf5\x80\x80\x80",
        ] {
            assert_eq!(feed(&[bad]), Err(InvalidUtf8), "{bad:?}");
        }
        // A pending lead followed by a non-continuation byte.
        let pending = Pending::from_bytes(&euro[..2]);
        assert_eq!(pending.join(b"A"), Err(InvalidUtf8));
        assert_eq!(pending.bytes(), &euro[..2], "unchanged");
        // A surrogate lead split across pushes is caught when the second byte arrives.
        assert_eq!(feed(&[b"\xed", b"\xa0"]), Err(InvalidUtf8));
        // Invalid bytes after a completed character.
        assert_eq!(
            Pending::from_bytes(&euro[..1]).join(b"\x82\xac\xff"),
            Err(InvalidUtf8)
        );
        // Unfinished at the end is not an error for a push.
        let (out, pending) = feed(&[b"ok\xe2\x82"]).expect("unfinished is fine");
        assert_eq!((out.as_str(), pending.bytes()), ("ok", &b"\xe2\x82"[..]));
    }

    #[test]
    fn text_is_borrowed_unless_a_character_completes() {
        let euro = "\u{20ac}".as_bytes();
        let joined = Pending::default().join(b"plain").expect("valid");
        assert!(matches!(joined.text, Cow::Borrowed("plain")));
        let rest = [euro[1], euro[2], b'x'];
        let joined = Pending::from_bytes(&euro[..1]).join(&rest).expect("valid");
        assert!(matches!(joined.text, Cow::Owned(ref s) if s == "\u{20ac}x"));
    }
}

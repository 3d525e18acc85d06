//! [`StreamedLines`]: complete lines out of text that arrives in pieces split anywhere, the
//! first step of every reader that streams a diff, a patch or a body line by line.

use std::convert::Infallible;

/// The incomplete last line of a stream; each push hands the lines it completes to a reader.
///
/// A reader usually owns its `StreamedLines` and reads lines with its own `&mut self`: it takes
/// the assembler out (`std::mem::take`) for the push and puts it back, which costs nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct StreamedLines {
    partial: String,
}

impl StreamedLines {
    /// Feeds `chunk`: `line` gets every line it completes, without its `\n`, in order.
    pub(crate) fn push(&mut self, chunk: &str, mut line: impl FnMut(&str)) {
        let read: Result<(), Infallible> = self.try_push(chunk, |l| {
            line(l);
            Ok(())
        });
        let Ok(()) = read;
    }

    /// [`push`](Self::push) for a reader that may fail: its first error ends the push and is
    /// returned, and the rest of the chunk is dropped (a reader that failed reads no more).
    pub(crate) fn try_push<E>(
        &mut self,
        chunk: &str,
        mut line: impl FnMut(&str) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut rest = chunk;
        while let Some(i) = memchr::memchr(b'\n', rest.as_bytes()) {
            let piece = &rest[..i];
            rest = &rest[i + 1..];
            if self.partial.is_empty() {
                line(piece)?;
            } else {
                self.partial.push_str(piece);
                let read = line(&self.partial);
                self.partial.clear(); // the allocation is kept for the next long line
                read?;
            }
        }
        self.partial.push_str(rest);
        Ok(())
    }

    /// The incomplete last line so far.
    pub(crate) fn partial(&self) -> &str {
        &self.partial
    }

    /// Ends the stream: the incomplete last line (empty if the text ended with `\n`).
    pub(crate) fn take_partial(&mut self) -> String {
        std::mem::take(&mut self.partial)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(pieces: &[&str]) -> (Vec<String>, String) {
        let mut lines = StreamedLines::default();
        let mut got = Vec::new();
        for piece in pieces {
            lines.push(piece, |l| got.push(l.to_owned()));
        }
        (got, lines.take_partial())
    }

    #[test]
    fn lines_are_the_same_in_any_split() {
        let text = "ab\n\ncd\r\nlast";
        let whole = lines_of(&[text]);
        assert_eq!(whole.0, ["ab", "", "cd\r"]);
        assert_eq!(whole.1, "last");
        for at in 0..=text.len() {
            assert_eq!(
                lines_of(&[&text[..at], &text[at..]]),
                whole,
                "split at {at}"
            );
        }
        let chars: Vec<String> = text.chars().map(String::from).collect();
        let chars: Vec<&str> = chars.iter().map(String::as_str).collect();
        assert_eq!(lines_of(&chars), whole);
    }

    #[test]
    fn an_error_ends_the_push_and_drops_the_rest() {
        let mut lines = StreamedLines::default();
        let mut seen = Vec::new();
        let read = lines.try_push("a\nb", |l| {
            seen.push(l.to_owned());
            Ok::<(), ()>(())
        });
        assert_eq!(read, Ok(()));
        let read = lines.try_push("c\nbad\nd\ne", |l| {
            seen.push(l.to_owned());
            if l == "bad" {
                Err(l.to_owned())
            } else {
                Ok(())
            }
        });
        assert_eq!(read, Err("bad".to_owned()));
        assert_eq!(seen, ["a", "bc", "bad"]);
        assert_eq!(lines.partial(), "");
    }
}

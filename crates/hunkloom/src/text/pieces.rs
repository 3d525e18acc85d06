//! [`PieceText`]: a text kept as ranges of an original plus new text, never as one copy.
//!
//! An edited file is mostly its original: Cline's output is the original up to each block, the
//! block's replacement lines, and so on. Kept as pieces, the output of a 7 MB file costs a few
//! entries instead of a 7 MB copy, and a binding whose language can slice a string without
//! copying it (JavaScript) builds the result from slices of the caller's own original string.

use std::borrow::Cow;

use super::offsets::{TextOffset, measure};

/// One piece of a [`PieceText`]: a range of the original, or new text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// The original text from `start` to `end`.
    Original {
        /// Where the range starts in the original.
        start: TextOffset,
        /// Where it ends.
        end: TextOffset,
    },
    /// Text that is not a range of the original.
    New(Cow<'a, str>),
}

impl Piece<'_> {
    /// The piece's text.
    pub fn text<'s>(&'s self, original: &'s str) -> &'s str {
        match self {
            Piece::Original { start, end } => &original[start.bytes..end.bytes],
            Piece::New(text) => text,
        }
    }
}

/// A text as a sequence of original ranges and new text, with its length in every unit.
/// Appending costs the appended new text (an original range costs O(1)); cutting back costs
/// what is cut.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PieceText {
    entries: Vec<Entry>,
    /// Every piece of new text, back to back (adjacent new pieces are one entry).
    arena: String,
    end: TextOffset,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    /// Where the piece starts in this text.
    at: TextOffset,
    source: Source,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// A range of the original starting here (it ends where the piece ends).
    Original(TextOffset),
    /// New text starting at this byte of the arena.
    New(usize),
}

impl PieceText {
    /// The length in every unit.
    pub fn len(&self) -> TextOffset {
        self.end
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.end.bytes == 0
    }

    /// Appends new text.
    pub(crate) fn push_new(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if !matches!(self.entries.last(), Some(e) if matches!(e.source, Source::New(_))) {
            self.entries.push(Entry {
                at: self.end,
                source: Source::New(self.arena.len()),
            });
        }
        self.arena.push_str(text);
        self.end = self.end.add(TextOffset::of(text));
    }

    /// Appends the original's range from `start` to `end`.
    pub(crate) fn push_original(&mut self, start: TextOffset, end: TextOffset) {
        if end.bytes <= start.bytes {
            return;
        }
        self.entries.push(Entry {
            at: self.end,
            source: Source::Original(start),
        });
        self.end = self.end.add(end.sub(start));
    }

    /// Cuts the text back to `len` bytes (a char boundary). `original_offset` converts a byte
    /// offset of the original (needed only when the cut falls inside an original range).
    pub(crate) fn truncate(
        &mut self,
        len: usize,
        original_offset: impl FnOnce(usize) -> TextOffset,
    ) {
        if len >= self.end.bytes {
            return;
        }
        while let Some(last) = self.entries.last().copied() {
            if last.at.bytes < len {
                break;
            }
            self.entries.pop();
            self.end = last.at;
            if let Source::New(from) = last.source {
                self.arena.truncate(from);
            }
        }
        let Some(last) = self.entries.last().copied() else {
            return;
        };
        if len >= self.end.bytes {
            return;
        }
        match last.source {
            Source::New(from) => {
                let cut = from + (len - last.at.bytes);
                let c = measure(&self.arena.as_bytes()[cut..]);
                self.end = self.end.sub(TextOffset {
                    bytes: self.arena.len() - cut,
                    utf16: c.utf16(),
                    chars: c.chars,
                });
                self.arena.truncate(cut);
            }
            Source::Original(start) => {
                let end = original_offset(start.bytes + (len - last.at.bytes));
                self.end = last.at.add(end.sub(start));
            }
        }
    }

    /// The pieces from byte `from` (a char boundary) to the end: the first may be the tail of
    /// a piece. Costs O(log pieces) plus the pieces returned.
    pub fn pieces_from(&self, from: TextOffset) -> impl Iterator<Item = Piece<'_>> + '_ {
        let first = self
            .entries
            .partition_point(|e| e.at.bytes <= from.bytes)
            .saturating_sub(1);
        (first..self.entries.len()).filter_map(move |i| {
            let e = self.entries[i];
            let end = self.entries.get(i + 1).map_or(self.end, |n| n.at);
            let skip = if from.bytes > e.at.bytes {
                from.sub(e.at)
            } else {
                TextOffset::default()
            };
            if skip.bytes >= end.bytes - e.at.bytes {
                return None;
            }
            Some(match e.source {
                Source::Original(start) => Piece::Original {
                    start: start.add(skip),
                    end: start.add(end.sub(e.at)),
                },
                Source::New(at) => {
                    let len = end.bytes - e.at.bytes;
                    Piece::New(Cow::Borrowed(&self.arena[at + skip.bytes..at + len]))
                }
            })
        })
    }

    /// Every piece, in order.
    pub fn pieces(&self) -> impl Iterator<Item = Piece<'_>> + '_ {
        self.pieces_from(TextOffset::default())
    }

    /// The text as one string, `original` being the text the ranges refer to.
    pub fn to_string(&self, original: &str) -> String {
        let mut out = String::with_capacity(self.end.bytes);
        for piece in self.pieces() {
            out.push_str(piece.text(original));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(original: &str, byte: usize) -> TextOffset {
        TextOffset::of(&original[..byte])
    }

    #[test]
    fn appends_and_cuts_like_a_string() {
        let original = "héllo wörld\n😀 end\n";
        let mut pieces = PieceText::default();
        let mut flat = String::new();
        let ops: &[(&str, usize, usize)] = &[
            ("o", 0, 7),
            ("n", 0, 0),
            ("n", 0, 0),
            ("o", 7, original.len()),
            ("t", 0, 0),
            ("o", 3, 5),
            ("t", 0, 0),
        ];
        let news = ["new €\n", "more", "x"];
        let mut k = 0;
        for (step, &(op, a, b)) in ops.iter().enumerate() {
            match op {
                "o" => {
                    pieces.push_original(at(original, a), at(original, b));
                    flat.push_str(&original[a..b]);
                }
                "n" => {
                    pieces.push_new(news[k % news.len()]);
                    flat.push_str(news[k % news.len()]);
                    k += 1;
                }
                _ => {
                    let mut cut = flat.len() * 2 / 3;
                    while !flat.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    pieces.truncate(cut, |b| at(original, b));
                    flat.truncate(cut);
                }
            }
            assert_eq!(pieces.to_string(original), flat, "step {step}");
            assert_eq!(pieces.len(), TextOffset::of(&flat), "step {step}");
            for from in (0..=flat.len()).filter(|&b| flat.is_char_boundary(b)) {
                let tail: String = pieces
                    .pieces_from(TextOffset::of(&flat[..from]))
                    .map(|p| p.text(original).to_owned())
                    .collect();
                assert_eq!(tail, &flat[from..], "step {step} from {from}");
            }
        }
    }

    #[test]
    fn adjacent_new_text_is_one_piece() {
        let mut pieces = PieceText::default();
        pieces.push_new("a");
        pieces.push_new("b\n");
        pieces.push_original(TextOffset::default(), TextOffset::of("xy"));
        pieces.push_new("c");
        let all: Vec<Piece<'_>> = pieces.pieces().collect();
        assert_eq!(all.len(), 3);
        assert_eq!(all[0], Piece::New(Cow::Borrowed("ab\n")));
    }
}

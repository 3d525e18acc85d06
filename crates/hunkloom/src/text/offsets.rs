//! Offsets in every unit callers index by.
//!
//! The engine works in UTF-8 bytes. JavaScript callers index strings by UTF-16 code units and
//! Python callers by Unicode scalars, and editors want 1-based lines; so every position the
//! engine reports carries all of them. Counting is done by [`measure`], a branch-free pass the
//! compiler vectorises, and only over text the engine touches anyway.

/// An offset or a length in three units at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextOffset {
    /// UTF-8 bytes (Rust, C).
    pub bytes: usize,
    /// UTF-16 code units (JavaScript string indices).
    pub utf16: usize,
    /// Unicode scalar values (Python `str` indices).
    pub chars: usize,
}

/// Two lengths summed, or the offset a length past another, in every unit.
impl std::ops::Add for TextOffset {
    type Output = TextOffset;

    fn add(self, other: TextOffset) -> TextOffset {
        TextOffset::add(self, other)
    }
}

impl TextOffset {
    /// The length of `s` in every unit.
    #[inline]
    pub fn of(s: &str) -> Self {
        // A streamed token is often a few ASCII bytes: one unit each, no pass needed.
        if s.len() <= 16 && s.is_ascii() {
            return TextOffset {
                bytes: s.len(),
                utf16: s.len(),
                chars: s.len(),
            };
        }
        let c = measure(s.as_bytes());
        TextOffset {
            bytes: s.len(),
            utf16: c.utf16(),
            chars: c.chars,
        }
    }

    /// `self + other` in every unit: the offset `other` past `self`, or two lengths summed.
    pub(crate) fn add(self, other: TextOffset) -> TextOffset {
        TextOffset {
            bytes: self.bytes + other.bytes,
            utf16: self.utf16 + other.utf16,
            chars: self.chars + other.chars,
        }
    }

    /// `self - other` in every unit; `other` must not exceed `self` in any unit (as when it is
    /// an earlier offset of the same text, or a length that `self` includes).
    pub(crate) fn sub(self, other: TextOffset) -> TextOffset {
        TextOffset {
            bytes: self.bytes - other.bytes,
            utf16: self.utf16 - other.utf16,
            chars: self.chars - other.chars,
        }
    }
}

/// A position in a text: an offset in every unit plus its 1-based line number.
///
/// `line` follows Cline's `getLineNumberFromCharIndex`: one more than the number of `\n` before
/// the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// UTF-8 byte offset.
    pub bytes: usize,
    /// UTF-16 code-unit offset (Cline's `matchIndices` unit).
    pub utf16: usize,
    /// Unicode scalar offset.
    pub chars: usize,
    /// 1-based line number.
    pub line: usize,
}

impl Position {
    /// The offset part of this position.
    pub fn offset(&self) -> TextOffset {
        TextOffset {
            bytes: self.bytes,
            utf16: self.utf16,
            chars: self.chars,
        }
    }
}

/// Counts over a byte string of valid UTF-8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Unicode scalars (bytes that are not UTF-8 continuation bytes).
    pub(crate) chars: usize,
    /// Scalars outside the BMP (4-byte sequences), which take two UTF-16 units.
    pub(crate) astral: usize,
    /// `\n` bytes.
    pub(crate) newlines: usize,
}

impl Counts {
    pub(crate) fn utf16(&self) -> usize {
        self.chars + self.astral
    }

    /// The counts of two adjacent byte ranges together.
    fn plus(self, o: Counts) -> Counts {
        Counts {
            chars: self.chars + o.chars,
            astral: self.astral + o.astral,
            newlines: self.newlines + o.newlines,
        }
    }

    /// The counts of a range without a part of it (`o` counts a sub-range of `self`'s).
    fn minus(self, o: Counts) -> Counts {
        Counts {
            chars: self.chars - o.chars,
            astral: self.astral - o.astral,
            newlines: self.newlines - o.newlines,
        }
    }
}

const LANES: usize = 32;

/// Counts scalars, astral scalars and newlines of UTF-8 text in one pass.
///
/// Per-lane `u8` accumulators over at most 255 rounds keep the inner loop free of branches and
/// wide adds, so it compiles to SIMD compares.
pub(crate) fn measure(s: &[u8]) -> Counts {
    let mut counts = Counts::default();
    let mut blocks = s.chunks_exact(LANES * 255);
    for block in &mut blocks {
        accumulate(block, &mut counts);
    }
    let rest = blocks.remainder();
    let tail_start = rest.len() - rest.len() % LANES;
    if tail_start > 0 {
        accumulate(&rest[..tail_start], &mut counts);
    }
    // Streamed pieces are often a few bytes: those skip the lane setup entirely.
    for &b in &rest[tail_start..] {
        counts.chars += usize::from((b as i8) >= -64);
        counts.astral += usize::from(b >= 0xF0);
        counts.newlines += usize::from(b == b'\n');
    }
    counts
}

fn accumulate(block: &[u8], counts: &mut Counts) {
    debug_assert!(block.len().is_multiple_of(LANES) && block.len() <= LANES * 255);
    let mut chars = [0u8; LANES];
    let mut astral = [0u8; LANES];
    let mut newlines = [0u8; LANES];
    for chunk in block.chunks_exact(LANES) {
        for i in 0..LANES {
            let b = chunk[i];
            chars[i] += u8::from((b as i8) >= -64);
            astral[i] += u8::from(b >= 0xF0);
            newlines[i] += u8::from(b == b'\n');
        }
    }
    counts.chars += chars.iter().map(|&x| usize::from(x)).sum::<usize>();
    counts.astral += astral.iter().map(|&x| usize::from(x)).sum::<usize>();
    counts.newlines += newlines.iter().map(|&x| usize::from(x)).sum::<usize>();
}

/// Bytes between the checkpoints an [`OffsetCursor`] keeps once it is asked to jump back.
const CHECKPOINT: usize = 4096;

/// Converts byte offsets of one text into [`Position`]s, walking from the previous answer so a
/// run of increasing offsets costs one pass over the text in total. The first jump backwards
/// further than a checkpoint interval counts the whole text once into checkpoints every
/// [`CHECKPOINT`] bytes (about 1% of the text in memory); from then on any offset costs at most
/// one interval, so offsets in any order (blocks placed out of order) cost O(text + offsets).
#[derive(Clone, Debug, Default)]
pub(crate) struct OffsetCursor {
    bytes: usize,
    counts: Counts,
    /// `marks[i]` counts the text's first `i * CHECKPOINT` bytes (empty until needed).
    marks: Vec<Counts>,
}

impl OffsetCursor {
    /// The position of byte offset `byte` in `text`. Offsets past the end (Cline reports
    /// `length + 1` for a match on a last line without a newline) count one unit per byte beyond.
    pub(crate) fn position(&mut self, text: &str, byte: usize) -> Position {
        let target = byte.min(text.len());
        debug_assert!(text.is_char_boundary(target));
        let b = text.as_bytes();
        if target >= self.bytes && (target - self.bytes <= CHECKPOINT || self.marks.is_empty()) {
            self.counts = self.counts.plus(measure(&b[self.bytes..target]));
        } else if target < self.bytes && self.bytes - target <= CHECKPOINT {
            self.counts = self.counts.minus(measure(&b[target..self.bytes]));
        } else {
            if self.marks.is_empty() {
                let mut at = Counts::default();
                self.marks.push(at);
                for chunk in b.chunks_exact(CHECKPOINT) {
                    at = at.plus(measure(chunk));
                    self.marks.push(at);
                }
            }
            let i = target / CHECKPOINT;
            self.counts = self.marks[i].plus(measure(&b[i * CHECKPOINT..target]));
        }
        self.bytes = target;
        let beyond = byte - target;
        Position {
            bytes: byte,
            utf16: self.counts.utf16() + beyond,
            chars: self.counts.chars + beyond,
            line: self.counts.newlines + 1,
        }
    }
}

/// The 1-based line of a UTF-16 index, exactly as Cline's `getLineNumberFromCharIndex(content,
/// charIndex)` computes it (`content.substring(0, charIndex).split("\n").length`).
pub fn line_number_from_utf16_index(content: &str, utf16_index: usize) -> usize {
    let mut units = 0;
    let mut line = 1;
    for c in content.chars() {
        if units >= utf16_index {
            break;
        }
        units += c.len_utf16();
        if c == '\n' {
            line += 1;
        }
    }
    line
}

/// The 1-based line of a Unicode scalar index (a Python `str` index).
pub fn line_number_from_char_index(content: &str, char_index: usize) -> usize {
    let end = content
        .char_indices()
        .nth(char_index)
        .map_or(content.len(), |(i, _)| i);
    measure(&content.as_bytes()[..end]).newlines + 1
}

/// The 1-based line of a UTF-8 byte index (clamped to the text; need not be a char boundary).
pub fn line_number_from_byte_index(content: &str, byte_index: usize) -> usize {
    let end = byte_index.min(content.len());
    memchr::memchr_iter(b'\n', &content.as_bytes()[..end]).count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(s: &str) -> Counts {
        Counts {
            chars: s.chars().count(),
            astral: s.chars().filter(|c| c.len_utf16() == 2).count(),
            newlines: s.matches('\n').count(),
        }
    }

    #[test]
    fn measure_agrees_with_chars() {
        let unit = "ab\né🚀\n中\u{FEFF}";
        for n in [0, 1, 7, 31, 32, 33, 300, 8200, 9000] {
            let s: String = unit.chars().cycle().take(n).collect();
            assert_eq!(measure(s.as_bytes()), naive(&s), "n={n}");
        }
    }

    #[test]
    fn cursor_walks_both_ways() {
        let text = "a🚀\nb\né\n";
        let mut cursor = OffsetCursor::default();
        let p = cursor.position(text, 6);
        assert_eq!((p.utf16, p.chars, p.line), (4, 3, 2));
        let p = cursor.position(text, 1);
        assert_eq!((p.utf16, p.chars, p.line), (1, 1, 1));
        let p = cursor.position(text, text.len() + 1);
        assert_eq!((p.utf16, p.chars, p.line), (9, 8, 4));
        let p = cursor.position(text, 0);
        assert_eq!((p.utf16, p.chars, p.line), (0, 0, 1));
    }

    /// Offsets in any order, far apart (through the checkpoints) and near (walking), agree
    /// with counting the text from its start.
    #[test]
    fn cursor_jumps_anywhere() {
        let text: String = (0..3000)
            .map(|i| ["ab\n", "é🚀", "x", "\n\n"][i % 4])
            .collect();
        let bounds: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        let mut cursor = OffsetCursor::default();
        let mut seed = 11usize;
        for _ in 0..2000 {
            seed = seed.wrapping_mul(1103515245).wrapping_add(12345);
            let at = bounds[(seed >> 8) % bounds.len()];
            let p = cursor.position(&text, at);
            let c = naive(&text[..at]);
            assert_eq!(
                (p.chars, p.utf16, p.line),
                (c.chars, c.utf16(), c.newlines + 1)
            );
        }
        assert!(!cursor.marks.is_empty());
    }

    #[test]
    fn line_numbers_like_cline() {
        let text = "🚀\nb\nc";
        assert_eq!(line_number_from_utf16_index(text, 0), 1);
        assert_eq!(line_number_from_utf16_index(text, 3), 2);
        assert_eq!(line_number_from_utf16_index(text, 2), 1);
        assert_eq!(line_number_from_utf16_index(text, 100), 3);
        assert_eq!(line_number_from_char_index(text, 2), 2);
        assert_eq!(line_number_from_byte_index(text, 5), 2);
    }
}

//! The VS Code text document the Copilot tools edit: lines, one line ending, a BOM flag. The
//! tools compute edits as offsets into the document's text; the document turns them into
//! (line, column) positions, clamps them and splices the lines, and is saved whole.
//!
//! Offsets and columns are UTF-16 code units, as in JavaScript.

/// Text as UTF-16 code units.
pub(super) type Units = Vec<u16>;

/// `s` as UTF-16 code units.
pub(super) fn units(s: &str) -> Units {
    s.encode_utf16().collect()
}

/// Code units back to text (a surrogate left alone by a cut becomes U+FFFD).
pub(super) fn text(u: &[u16]) -> String {
    String::from_utf16_lossy(u)
}

const CR: u16 = b'\r' as u16;
const LF: u16 = b'\n' as u16;

/// Splits at every `\r\n`, lone `\r` and lone `\n`; also returns the breaks.
pub(super) fn split_lines(t: &[u16]) -> (Vec<Units>, Vec<Units>) {
    let mut lines = Vec::new();
    let mut breaks = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            CR if t.get(i + 1) == Some(&LF) => {
                lines.push(t[start..i].to_vec());
                breaks.push(vec![CR, LF]);
                i += 2;
                start = i;
            }
            CR | LF => {
                lines.push(t[start..i].to_vec());
                breaks.push(vec![t[i]]);
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    lines.push(t[start..].to_vec());
    (lines, breaks)
}

/// A position: line and UTF-16 column.
pub(super) type Pos = (usize, usize);

/// An open document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Document {
    lines: Vec<Units>,
    /// `\n` or `\r\n`.
    pub(super) eol: Units,
    bom: bool,
}

impl Document {
    /// A document loaded from a file's text: the BOM removed, lines split at every break, the
    /// line ending CRLF when most breaks have a CR (a tie is LF).
    pub(super) fn load(content: &str) -> Document {
        let mut t = units(content);
        let bom = t.first() == Some(&0xFEFF);
        if bom {
            t.remove(0);
        }
        let (lines, breaks) = split_lines(&t);
        let with_cr = breaks.iter().filter(|b| b.contains(&CR)).count();
        let eol = if with_cr * 2 > breaks.len() {
            vec![CR, LF]
        } else {
            vec![LF]
        };
        Document { lines, eol, bom }
    }

    /// The document of a file that does not exist: one empty line.
    pub(super) fn empty() -> Document {
        Document {
            lines: vec![Vec::new()],
            eol: vec![LF],
            bom: false,
        }
    }

    /// `doc` with the text `t` (its line ending and BOM kept).
    pub(super) fn reload_keeping(doc: &Document, t: &[u16]) -> Document {
        let (lines, _) = split_lines(t);
        Document {
            lines,
            eol: doc.eol.clone(),
            bom: doc.bom,
        }
    }

    /// `getText()`: the lines joined with the line ending.
    pub(super) fn text(&self) -> Units {
        self.lines.join(&self.eol[..])
    }

    /// What saving writes: the BOM, if the file had one, and the text.
    pub(super) fn saved(&self) -> String {
        let body = text(&self.text());
        if self.bom {
            format!("\u{feff}{body}")
        } else {
            body
        }
    }

    /// `positionAt(offset)`: a negative offset is 0; an offset inside a line break is the end
    /// of its line; past the end is the end of the last line.
    pub(super) fn position_at(&self, offset: isize) -> Pos {
        let mut off = offset.max(0) as usize;
        let el = self.eol.len();
        let last = self.lines.len() - 1;
        for (i, line) in self.lines.iter().enumerate() {
            if off < line.len() + el || i == last {
                return (i, off.min(line.len()));
            }
            off -= line.len() + el;
        }
        (last, self.lines[last].len())
    }

    /// A position clamped to the document.
    fn validate(&self, (line, ch): Pos) -> Pos {
        if line >= self.lines.len() {
            let last = self.lines.len() - 1;
            (last, self.lines[last].len())
        } else {
            (line, ch.min(self.lines[line].len()))
        }
    }

    /// Replaces the range (clamped, ends ordered) with `text`, whose breaks start new lines.
    pub(super) fn apply(&mut self, range: (Pos, Pos), new: &[u16]) {
        let (mut s, mut e) = (self.validate(range.0), self.validate(range.1));
        if e < s {
            std::mem::swap(&mut s, &mut e);
        }
        let (mut pieces, _) = split_lines(new);
        let before = self.lines[s.0][..s.1].to_vec();
        let after = self.lines[e.0][e.1..].to_vec();
        // `split_lines` always gives at least one piece.
        if let Some(first) = pieces.first_mut() {
            first.splice(0..0, before);
        }
        if let Some(last) = pieces.last_mut() {
            last.extend(after);
        }
        self.lines.splice(s.0..=e.0, pieces);
    }

    /// The range between two offsets, its ends ordered.
    pub(super) fn range(&self, start: isize, end: isize) -> (Pos, Pos) {
        let (a, b) = (self.position_at(start), self.position_at(end));
        if b < a { (b, a) } else { (a, b) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loading_takes_the_majority_line_ending_and_the_bom() {
        let d = Document::load("\u{feff}a\r\nb\r\nc\n");
        assert_eq!(d.eol, units("\r\n"));
        assert_eq!(d.saved(), "\u{feff}a\r\nb\r\nc\r\n");
        assert_eq!(Document::load("a\r\nb\n").eol, units("\n"));
        assert_eq!(Document::load("a\rb\r").saved(), "a\r\nb\r\n");
    }

    #[test]
    fn edits_splice_lines_at_clamped_positions() {
        let mut d = Document::load("abc\ndef\n");
        let r = d.range(1, 5);
        d.apply(r, &units("X\nY"));
        assert_eq!(d.saved(), "aX\nYef\n");
        let mut d = Document::load("ab\n");
        d.apply(((0, 9), (9, 9)), &units("!"));
        assert_eq!(d.saved(), "ab!");
    }
}

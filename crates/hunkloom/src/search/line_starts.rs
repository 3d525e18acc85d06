//! Where the lines of a text begin: at 0 and after each `\n`.
//!
//! The line indexes of both dialects start from this and then close the last line by their
//! own convention (Cline: as if one more `\n` followed, so a final `\n` opens an empty line;
//! `native`: a final `\n` ends the last line), which is why the end of the text is not added
//! here.

/// The byte offsets where the lines of `text` begin: 0, then one past each `\n`.
pub(crate) fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::with_capacity(text.len() / 24 + 2);
    starts.push(0);
    starts.extend(ByteScan::newlines(text.as_bytes()).map(|i| i + 1));
    starts
}

/// Every position of one or two byte values in a text, in order.
///
/// Source text has a line ending every few dozen bytes, where `memchr`'s per-call set-up costs
/// more than the scan: this compares eight bytes at a time in one `u64` (the exact zero-byte
/// test, no false positives) and walks the bits of each word, about twice as fast as
/// `memchr_iter` over a 2 MB file of code.
#[derive(Clone, Debug)]
pub(crate) struct ByteScan<'a> {
    words: std::slice::Iter<'a, [u8; 8]>,
    rest: &'a [u8],
    /// `0x80` in each byte of the current word that matched.
    mask: u64,
    /// Where the current word starts.
    base: usize,
    /// Where the next word starts.
    next: usize,
    /// Each needle repeated in every byte (the second equals the first when there is one).
    a: u64,
    b: u64,
}

impl<'a> ByteScan<'a> {
    /// Every `\n` of `bytes`.
    pub(crate) fn newlines(bytes: &'a [u8]) -> Self {
        Self::new(bytes, b'\n', b'\n')
    }

    /// Every byte of `bytes` equal to `a` or `b`.
    pub(crate) fn new(bytes: &'a [u8], a: u8, b: u8) -> Self {
        let (words, rest) = bytes.as_chunks::<8>();
        ByteScan {
            words: words.iter(),
            rest,
            mask: 0,
            base: 0,
            next: 0,
            a: u64::from_ne_bytes([a; 8]),
            b: u64::from_ne_bytes([b; 8]),
        }
    }

    /// `0x80` in each byte of `word` that equals `needle` (repeated), `0` elsewhere.
    fn zero_bytes(word: u64, needle: u64) -> u64 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let v = word ^ needle;
        !(((v & LOW7).wrapping_add(LOW7)) | v | LOW7)
    }
}

impl Iterator for ByteScan<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            match self.words.next() {
                Some(word) => {
                    let word = u64::from_le_bytes(*word);
                    self.mask = Self::zero_bytes(word, self.a) | Self::zero_bytes(word, self.b);
                    self.base = self.next;
                    self.next += 8;
                }
                None => {
                    let a = self.a as u8;
                    let b = self.b as u8;
                    let i = self.rest.iter().position(|&c| c == a || c == b)?;
                    self.rest = &self.rest[i + 1..];
                    self.next += i + 1;
                    return Some(self.next - 1);
                }
            }
        }
        let at = self.base + (self.mask.trailing_zeros() / 8) as usize;
        self.mask &= self.mask - 1;
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_find_every_needle_as_a_plain_scan_does() {
        let text = "ab\ncd\r\n\n0123456789\rabcdef\n\nxyz\u{e9}\n\u{feff}\u{0a0a}\r";
        for cut in 0..text.len() {
            let bytes = &text.as_bytes()[cut..];
            let plain = |pred: &dyn Fn(u8) -> bool| -> Vec<usize> {
                (0..bytes.len()).filter(|&i| pred(bytes[i])).collect()
            };
            let lf: Vec<usize> = ByteScan::newlines(bytes).collect();
            assert_eq!(lf, plain(&|c| c == b'\n'));
            let both: Vec<usize> = ByteScan::new(bytes, b'\r', b'\n').collect();
            assert_eq!(both, plain(&|c| c == b'\r' || c == b'\n'));
        }
        // Every byte value next to the needle, in every lane.
        let all: Vec<u8> = (0..=255u8).flat_map(|c| [c, b'\n', c, c]).collect();
        let found: Vec<usize> = ByteScan::newlines(&all).collect();
        let want: Vec<usize> = (0..all.len()).filter(|&i| all[i] == b'\n').collect();
        assert_eq!(found, want);
    }

    #[test]
    fn starts_after_each_newline() {
        assert_eq!(line_starts(""), vec![0]);
        assert_eq!(line_starts("a"), vec![0]);
        assert_eq!(line_starts("a\n"), vec![0, 2]);
        assert_eq!(line_starts("a\r\n\nbc\nd"), vec![0, 3, 4, 7]);
    }
}

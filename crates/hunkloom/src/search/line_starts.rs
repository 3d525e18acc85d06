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

/// Where lines start, found without an entry per line: the number of `\n` before each 1 KiB
/// block, so going from a line to its start or back counts at most one block. It is built in
/// one counting pass, several times faster than listing every line start, for readers that
/// visit a few lines of a large text (a patch's one hunk near the end of a 2 MB file).
#[derive(Clone, Debug, Default)]
pub(crate) struct LineCheckpoints {
    /// `before[b]`: the `\n`s before block `b`; the last entry counts them all.
    before: Vec<usize>,
}

impl LineCheckpoints {
    const BLOCK: usize = 1024;

    /// Counts the `\n`s of `text` block by block.
    pub(crate) fn new(text: &[u8]) -> Self {
        let mut before = Vec::with_capacity(text.len() / Self::BLOCK + 2);
        let mut n = 0;
        before.push(0);
        for block in text.chunks(Self::BLOCK) {
            n += memchr::memchr_iter(b'\n', block).count();
            before.push(n);
        }
        LineCheckpoints { before }
    }

    /// How many `\n`s the text has.
    pub(crate) fn newlines(&self) -> usize {
        self.before.last().copied().unwrap_or(0)
    }

    /// The 0-based line byte `offset` of `text` is on: the `\n`s before it.
    pub(crate) fn line_of(&self, text: &[u8], offset: usize) -> usize {
        let b = offset / Self::BLOCK;
        self.before[b] + memchr::memchr_iter(b'\n', &text[b * Self::BLOCK..offset]).count()
    }

    /// Where 0-based line `line` of `text` starts; `line` is at most [`newlines`](Self::newlines).
    pub(crate) fn start_of(&self, text: &[u8], line: usize) -> usize {
        if line == 0 {
            return 0;
        }
        // The block holding the line's `\n`: the last one with fewer before it.
        let b = self.before.partition_point(|&n| n < line) - 1;
        let from = b * Self::BLOCK;
        nth_newline(&text[from..], line - self.before[b] - 1).map_or(text.len(), |i| from + i + 1)
    }
}

/// Where the `k`-th `\n` (from 0) of `bytes` is. Lines of code are a few dozen bytes, so
/// this counts the `\n`s of eight bytes at once and walks bits only in the word that holds
/// it, instead of one `memchr` call (and its set-up) per line.
fn nth_newline(bytes: &[u8], mut k: usize) -> Option<usize> {
    let (words, rest) = bytes.as_chunks::<8>();
    let needle = u64::from_ne_bytes([b'\n'; 8]);
    for (w, word) in words.iter().enumerate() {
        let mut mask = ByteScan::<false>::zero_bytes(u64::from_le_bytes(*word), needle);
        let count = mask.count_ones() as usize;
        if k < count {
            for _ in 0..k {
                mask &= mask - 1;
            }
            return Some(w * 8 + mask.trailing_zeros() as usize / 8);
        }
        k -= count;
    }
    let at = rest
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .nth(k)?
        .0;
    Some(words.len() * 8 + at)
}

/// Every position of one byte value (or, with `TWO`, of either of two) in a text, in order.
///
/// Source text has a line ending every few dozen bytes, where `memchr`'s per-call set-up costs
/// more than the scan: this compares eight bytes at a time in one `u64` (the exact zero-byte
/// test, no false positives) and walks the bits of each word, about twice as fast as
/// `memchr_iter` over a 2 MB file of code.
#[derive(Clone, Debug)]
pub(crate) struct ByteScan<'a, const TWO: bool = false> {
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
        Self::scan(bytes, b'\n', b'\n')
    }
}

impl<'a> ByteScan<'a, true> {
    /// Every byte of `bytes` equal to `a` or `b`.
    pub(crate) fn new(bytes: &'a [u8], a: u8, b: u8) -> Self {
        Self::scan(bytes, a, b)
    }
}

impl<'a, const TWO: bool> ByteScan<'a, TWO> {
    /// Every byte of `bytes` equal to `a` or, with `TWO`, `b`.
    fn scan(bytes: &'a [u8], a: u8, b: u8) -> Self {
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

impl<const TWO: bool> Iterator for ByteScan<'_, TWO> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            match self.words.next() {
                Some(word) => {
                    let word = u64::from_le_bytes(*word);
                    self.mask = Self::zero_bytes(word, self.a);
                    if TWO {
                        self.mask |= Self::zero_bytes(word, self.b);
                    }
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
    fn the_nth_newline_is_the_nth_of_a_plain_scan() {
        // Newlines alone, in pairs, and between every byte value, in every lane of a word.
        let mut text: Vec<u8> = b"\n\n\n\n\n\n\n\n\n\nab\n\ncd".to_vec();
        text.extend((0..=255u8).flat_map(|c| [c, b'\n', c]));
        for cut in 0..16 {
            let bytes = &text[cut..];
            let plain: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] == b'\n').collect();
            for (k, &at) in plain.iter().enumerate() {
                assert_eq!(nth_newline(bytes, k), Some(at), "cut {cut} k {k}");
            }
            assert_eq!(nth_newline(bytes, plain.len()), None);
        }
    }

    #[test]
    fn checkpoints_agree_with_the_line_starts() {
        let mut text = String::new();
        for n in 0..3000 {
            text.push_str(&"x".repeat(n % 37));
            text.push(if n % 5 == 0 { '\r' } else { '\n' });
        }
        for cut in [0, 1, 4095, 4096, 4097, 8192, text.len()] {
            let t = &text[..cut];
            let starts = line_starts(t);
            let c = LineCheckpoints::new(t.as_bytes());
            assert_eq!(c.newlines() + 1, starts.len());
            for (line, &start) in starts.iter().enumerate() {
                assert_eq!(
                    c.start_of(t.as_bytes(), line),
                    start,
                    "cut {cut} line {line}"
                );
            }
            for offset in 0..=t.len() {
                let want = starts.partition_point(|&s| s <= offset) - 1;
                assert_eq!(
                    c.line_of(t.as_bytes(), offset),
                    want,
                    "cut {cut} at {offset}"
                );
            }
        }
    }

    #[test]
    fn starts_after_each_newline() {
        assert_eq!(line_starts(""), vec![0]);
        assert_eq!(line_starts("a"), vec![0]);
        assert_eq!(line_starts("a\n"), vec![0, 2]);
        assert_eq!(line_starts("a\r\n\nbc\nd"), vec![0, 3, 4, 7]);
    }
}

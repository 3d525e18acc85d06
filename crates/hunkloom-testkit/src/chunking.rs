//! How a diff is cut into pushes: whole, per line, per character, at seeded random character
//! boundaries ([`Chunking`]), or at seeded random bytes ([`split_random_bytes`]).
//!
//! The random cuts come from [`SplitMix64`] seeded with `seed ^ len`, so every run (and every
//! runner, in every language binding) cuts a given text the same way.

/// The seed the runners use for their random chunkings.
pub const SEED: u64 = 0x5EED;

/// How a diff is cut into pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunking {
    /// The whole text in one push.
    Whole,
    /// One line (with its `\n`) per push.
    Line,
    /// One character per push.
    Char,
    /// Runs of 1 to 16 characters, drawn from a [`SplitMix64`] seeded with `seed ^ len`.
    Random(u64),
}

impl Chunking {
    /// The name the runners print: `whole`, `line`, `char` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            Chunking::Whole => "whole",
            Chunking::Line => "line",
            Chunking::Char => "char",
            Chunking::Random(_) => "random",
        }
    }

    /// The pieces of `text`, each non-empty unless `text` is.
    pub fn split(self, text: &str) -> Vec<&str> {
        match self {
            Chunking::Whole => vec![text],
            Chunking::Line => text.split_inclusive('\n').collect(),
            Chunking::Char => text
                .char_indices()
                .map(|(i, c)| &text[i..i + c.len_utf8()])
                .collect(),
            Chunking::Random(seed) => {
                let mut rng = SplitMix64(seed ^ text.len() as u64);
                let bounds: Vec<usize> = text
                    .char_indices()
                    .map(|(i, _)| i)
                    .chain(std::iter::once(text.len()))
                    .collect();
                let mut pieces = Vec::new();
                let mut at = 0;
                while at + 1 < bounds.len() {
                    let step = 1 + (rng.next_u64() % 16) as usize;
                    let next = (at + step).min(bounds.len() - 1);
                    pieces.push(&text[bounds[at]..bounds[next]]);
                    at = next;
                }
                pieces
            }
        }
    }
}

/// `bytes` cut into runs of 1 to 16 bytes at seeded random points, so also inside characters.
pub fn split_random_bytes(bytes: &[u8], seed: u64) -> Vec<&[u8]> {
    let mut rng = SplitMix64(seed ^ bytes.len() as u64);
    let mut pieces = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let next = (at + 1 + (rng.next_u64() % 16) as usize).min(bytes.len());
        pieces.push(&bytes[at..next]);
        at = next;
    }
    pieces
}

/// Checks that `pieces` rebuild `text` and that one of them cuts a character (a random-byte
/// chunking is only worth its time if it splits multi-byte characters).
///
/// # Panics
/// When they do not.
#[track_caller]
pub fn assert_cuts_a_character(pieces: &[&[u8]], text: &str) {
    assert!(pieces.iter().any(|p| std::str::from_utf8(p).is_err()));
    assert_eq!(pieces.concat(), text.as_bytes());
}

/// A small deterministic generator (SplitMix64), so random chunkings are the same on every run.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// `value` as JSON text the way Python's `json.dumps` writes it (`", "` and `": "` between
/// items are not needed: any valid text will do), with every non-ASCII character written as
/// `\uXXXX` (a surrogate pair above U+FFFF) when `ensure_ascii` is set: the two forms model
/// APIs stream a tool call's arguments in.
pub fn json_text(value: &serde_json::Value, ensure_ascii: bool) -> String {
    let text = value.to_string();
    if !ensure_ascii || text.is_ascii() {
        return text;
    }
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

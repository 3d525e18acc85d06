//! Shared by the integration tests: the vector files and chunkings.
#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

use serde::Deserialize;

/// One `constructNewFileContent` vector (see `tests/vectors/README.md`).
#[derive(Deserialize, Clone)]
pub struct ClineVector {
    pub id: String,
    pub version: String,
    pub original: String,
    pub diff: String,
    pub is_final: bool,
    pub expect: Expect,
}

#[derive(Deserialize, Clone)]
pub struct Expect {
    pub new_content: Option<String>,
    pub match_indices: Option<Vec<usize>>,
    pub error: Option<String>,
}

pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors")
}

/// The Cline corpora, in the order runners report them.
pub const CLINE_CORPORA: &[&str] = &[
    "cline-unit",
    "cline-diff-differential",
    "cline-diff-streaming-exhaustive",
];

pub fn load(corpus: &str) -> Vec<ClineVector> {
    let path = vectors_dir().join(format!("{corpus}.jsonl"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

/// How a diff is cut into pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunking {
    Whole,
    Line,
    Char,
    Random(u64),
}

impl Chunking {
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
                    let step = 1 + (rng.next() % 16) as usize;
                    let next = (at + step).min(bounds.len() - 1);
                    pieces.push(&text[bounds[at]..bounds[next]]);
                    at = next;
                }
                pieces
            }
        }
    }
}

/// A small deterministic generator (SplitMix64), so random chunkings are the same on every run.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

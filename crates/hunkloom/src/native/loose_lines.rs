//! The original file's lines, indexed once per applier for every block, under the `native`
//! line contract: a line ends after its `\n` (a final `\n` does not open another line), and
//! lines are compared by their loose key ([`loose_hash`]). Cline's contract is another one
//! (`matching::trimmed_lines`).

use rustc_hash::FxHashMap;

use super::normalize::{BLANK, loose_hash};
use crate::search::line_starts::line_starts;

/// Lines of the original split after each `\n` (a final `\n` ends the last line; it does not
/// start an empty one), with each line's loose hash.
#[derive(Clone, Debug, Default)]
pub(crate) struct LooseLineIndex {
    /// `starts[i]` is where line `i` begins; `starts[len]` is the text's length.
    starts: Vec<usize>,
    /// The loose hash of each line (see [`loose_hash`]).
    pub(crate) loose: Vec<u64>,
    /// The lines that are not blank under the loose key, in order.
    pub(crate) nonblank: Vec<u32>,
    /// The loose hashes of the non-blank lines (`loose[nonblank[i]]`).
    pub(crate) nonblank_loose: Vec<u64>,
}

impl LooseLineIndex {
    /// Indexes the lines of `text`.
    pub(crate) fn new(text: &str) -> Self {
        let mut starts = line_starts(text);
        if *starts.last().unwrap_or(&0) != text.len() {
            starts.push(text.len());
        }
        let mut buf = String::new();
        let mut loose = Vec::with_capacity(starts.len());
        let mut nonblank = Vec::new();
        let mut nonblank_loose = Vec::new();
        for i in 0..starts.len() - 1 {
            let line = content(text, starts[i], starts[i + 1]);
            let h = loose_hash(line, &mut buf);
            loose.push(h);
            if h != BLANK {
                nonblank.push(i as u32);
                nonblank_loose.push(h);
            }
        }
        LooseLineIndex {
            starts,
            loose,
            nonblank,
            nonblank_loose,
        }
    }

    /// The number of lines.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Where line `i` starts (`start(len())` is the end of the text).
    pub(crate) fn start(&self, i: usize) -> usize {
        self.starts[i]
    }

    /// Line `i` without its line ending.
    pub(crate) fn content<'t>(&self, text: &'t str, i: usize) -> &'t str {
        content(text, self.starts[i], self.starts[i + 1])
    }

    /// The line ending of line `i`: `"\n"`, `"\r\n"` or `""` (a last line without one).
    pub(crate) fn eol<'t>(&self, text: &'t str, i: usize) -> &'t str {
        let end = self.starts[i + 1];
        let c = content(text, self.starts[i], end);
        &text[self.starts[i] + c.len()..end]
    }

    /// Where each of `hashes` occurs among the non-blank lines, for diagnostics: one pass,
    /// no allocation per line.
    pub(crate) fn positions_of(&self, hashes: &[u64]) -> FxHashMap<u64, Vec<u32>> {
        let mut map: FxHashMap<u64, Vec<u32>> = hashes
            .iter()
            .filter(|&&h| h != BLANK)
            .map(|&h| (h, Vec::new()))
            .collect();
        for &i in &self.nonblank {
            if let Some(v) = map.get_mut(&self.loose[i as usize]) {
                v.push(i);
            }
        }
        map
    }
}

/// The text between `start` and `end` without its line ending.
fn content(text: &str, start: usize, end: usize) -> &str {
    let line = &text[start..end];
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r')
        .filter(|_| text[start..end].ends_with("\r\n"))
        .unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_every_byte() {
        let text = "a\r\nb\n\nc";
        let ix = LooseLineIndex::new(text);
        assert_eq!(ix.len(), 4);
        let rebuilt: String = (0..ix.len())
            .map(|i| format!("{}{}", ix.content(text, i), ix.eol(text, i)))
            .collect();
        assert_eq!(rebuilt, text);
        assert_eq!(ix.eol(text, 0), "\r\n");
        assert_eq!(ix.eol(text, 3), "");
        assert_eq!(ix.nonblank, vec![0, 1, 3]);
        assert_eq!(LooseLineIndex::new("").len(), 0);
        assert_eq!(LooseLineIndex::new("x\n").len(), 1);
    }
}

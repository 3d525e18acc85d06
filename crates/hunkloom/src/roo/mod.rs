//! Roo Code's `apply_diff` (`MultiSearchReplaceDiffStrategy.applyDiff`), reproduced exactly: the
//! same `DiffResult` — success and content, or the failure with its `failParts` — and the same
//! error texts, at any fuzzy threshold. Roo Code and the agents forked from it (Kilo Code's older
//! line, many others) apply diffs this way; [`apply_diff`] is the drop-in for them. Roo's
//! `insert_content` tool is [`ops::roo`](crate::ops::roo).
//!
//! The rules, observed on Roo's own code (commit `cb83656`, `tests/vectors/roo-multi-search-
//! replace/README.md` lists them with examples):
//! - the diff is first checked line by line (trimmed) for the SEARCH → `=======` → REPLACE
//!   sequence; a violation fails the whole call ([`DiffResult::Invalid`]);
//! - blocks are read by a pattern that needs markers at the start of a line, eats blank lines
//!   right after a marker line, reads an optional `:start_line:N`, `:end_line:N` and `-------`,
//!   and ends a block only at `>>>>>>> REPLACE` followed by `\n` or the end of the diff; text
//!   outside blocks is ignored;
//! - blocks are applied in the order of their `:start_line:` hints (no hint counts as 0), each to
//!   the file as the earlier ones left it; a hint is shifted by the lines earlier blocks added;
//! - a block is located by similarity (`1 − levenshtein / max length` of both texts after
//!   folding typographic punctuation and collapsing whitespace): at its hint if the window there
//!   reaches the threshold, else the most similar window within `buffer_lines` of the hint (or of
//!   the whole file without one), searched from the middle outwards; `N | ` line-number prefixes
//!   are stripped when every line has them, and more loosely as a last try;
//! - the REPLACE lines are re-indented relative to the first matched line and trimmed, and the
//!   file keeps CRLF if it had any `\r\n`;
//! - a block that fails is listed in `failParts`; the call succeeds if any block applied.
//!
//! The cost is bounded by Roo's own: a block's search scores each window of the range with a
//! bit-parallel edit distance, O(windows × window × ⌈search/64⌉) unit steps (windows: the file's
//! lines without a hint, about `2 × buffer_lines` with one), and stops early at an exact match.
//! Parsing the diff is O(n log n) where Roo's regular expression can take O(n²).

mod apply;
mod blocks;
mod file;
mod jsnum;
mod line_numbers;
mod markers;
mod search;
mod similarity;

use crate::error::{Error, ErrorKind, Result};
use crate::report::Strategy;
use crate::report::{BlockReport, BlockStatus, Outcome};
use crate::text::OriginalText;

/// The settings of Roo's `MultiSearchReplaceDiffStrategy(fuzzyThreshold, bufferLines)`.
#[non_exhaustive]
#[derive(Clone, Copy, Debug)]
pub struct RooOptions {
    /// The similarity a window needs to be replaced, from 0 to 1 (default 1.0; Roo's "match
    /// precision" setting, 0.9 for 90%). At 1.0 a window must equal the SEARCH text once
    /// whitespace and typographic punctuation are folded. Any value is taken as Roo takes it.
    pub fuzzy_threshold: f64,
    /// How many lines around a `:start_line:` hint are searched when the hinted window is not
    /// similar enough, and shown in a failure's context (default 40).
    pub buffer_lines: usize,
}

impl Default for RooOptions {
    fn default() -> Self {
        RooOptions {
            fuzzy_threshold: 1.0,
            buffer_lines: 40,
        }
    }
}

/// Options compare by their exact values (the threshold bit for bit).
impl PartialEq for RooOptions {
    fn eq(&self, other: &Self) -> bool {
        self.fuzzy_threshold.to_bits() == other.fuzzy_threshold.to_bits()
            && self.buffer_lines == other.buffer_lines
    }
}

impl Eq for RooOptions {}

impl RooOptions {
    /// Roo's defaults: threshold 1.0, 40 buffer lines.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the fuzzy threshold.
    pub fn fuzzy_threshold(mut self, threshold: f64) -> Self {
        self.fuzzy_threshold = threshold;
        self
    }

    /// Sets the buffer lines.
    pub fn buffer_lines(mut self, lines: usize) -> Self {
        self.buffer_lines = lines;
        self
    }
}

/// Roo's `DiffResult`: what `applyDiff` returns.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffResult {
    /// `{success: true, content, failParts}`: at least one block applied; the blocks that failed
    /// are in `fail_parts` (possibly none), in the order Roo tried them.
    Applied {
        /// The new file content.
        content: String,
        /// One error per failed block (`failParts[i].error` is its message).
        fail_parts: Vec<Error>,
    },
    /// `{success: false, failParts}`: blocks were read but none applied.
    NotApplied {
        /// One error per block, in the order Roo tried them (never empty).
        fail_parts: Vec<Error>,
    },
    /// `{success: false, error}`: the markers are out of sequence, or no block could be read;
    /// nothing was tried.
    Invalid {
        /// Roo's message (code `malformed_block`).
        error: Error,
    },
}

impl DiffResult {
    /// Roo's `success`.
    pub fn success(&self) -> bool {
        matches!(self, DiffResult::Applied { .. })
    }

    /// Roo's `content`, when the call succeeded.
    pub fn content(&self) -> Option<&str> {
        match self {
            DiffResult::Applied { content, .. } => Some(content),
            _ => None,
        }
    }

    /// Roo's `failParts` (empty for [`DiffResult::Invalid`], which has none).
    pub fn fail_parts(&self) -> &[Error] {
        match self {
            DiffResult::Applied { fail_parts, .. } | DiffResult::NotApplied { fail_parts } => {
                fail_parts
            }
            DiffResult::Invalid { .. } => &[],
        }
    }
}

/// Roo's `applyDiff(originalContent, diffContent)`: the same result, byte for byte, as
/// `new MultiSearchReplaceDiffStrategy(options.fuzzy_threshold, options.buffer_lines)` returns.
/// (Roo's third and fourth arguments, a start and end line, are ignored by Roo and so have no
/// counterpart here.)
///
/// ```
/// use hunkloom::roo::{DiffResult, RooOptions, apply_diff};
///
/// let original = "def total(items):\n    return sum(items)\n";
/// let diff = "<<<<<<< SEARCH\n:start_line:2\n-------\n    return sum(items)\n=======\n    return sum(items, start=0)\n>>>>>>> REPLACE";
/// let result = apply_diff(original, diff, &RooOptions::new());
/// assert_eq!(result.content(), Some("def total(items):\n    return sum(items, start=0)\n"));
///
/// // A typo is refused at the default threshold, with Roo's message, and accepted at 0.9.
/// let typo = "<<<<<<< SEARCH\n    return sum(itms)\n=======\n    return 0\n>>>>>>> REPLACE";
/// let refused = apply_diff(original, typo, &RooOptions::new());
/// assert!(!refused.success());
/// assert!(refused.fail_parts()[0].message().starts_with("No sufficiently similar match found (94% similar, needs 100%)"));
/// assert!(apply_diff(original, typo, &RooOptions::new().fuzzy_threshold(0.9)).success());
/// ```
pub fn apply_diff(original: &str, diff: &str, options: &RooOptions) -> DiffResult {
    apply::run(original, diff, options).result
}

/// Roo's first check of a diff (`validateMarkerSequencing`): `Ok` when its marker lines are in
/// sequence, else the error [`apply_diff`] would return (code `malformed_block`, Roo's text).
pub fn validate_marker_sequencing(diff: &str) -> Result<()> {
    markers::validate(diff).map_err(|m| Error::new(ErrorKind::MalformedBlock, m))
}

/// What Roo's tool shows while a diff streams and once it is applied
/// (`getProgressStatus`): an icon and a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressStatus {
    /// Always `"diff-multiple"`.
    pub icon: &'static str,
    /// The number of `SEARCH` words in the diff, or `applied/total` when blocks failed.
    pub text: String,
}

/// Roo's `getProgressStatus(toolUse, result)`: for a diff still streaming (`partial`), the count
/// of `SEARCH` words whenever the diff's length (in UTF-16 units) is in a multiple of 100's
/// first ten; for a finished one with a result (`fail_parts`: the length of its `failParts`),
/// the count, or `applied/total` when some failed; otherwise nothing (Roo's `{}`). An empty
/// diff gives nothing.
pub fn progress_status(
    diff: &str,
    partial: bool,
    fail_parts: Option<usize>,
) -> Option<ProgressStatus> {
    if diff.is_empty() {
        return None;
    }
    let count = || diff.matches("SEARCH").count();
    let text = if partial {
        let units = diff.encode_utf16().count();
        if !(units / 10).is_multiple_of(10) {
            return None;
        }
        count().to_string()
    } else {
        match fail_parts? {
            0 => count().to_string(),
            failed => format!("{}/{}", count() as i64 - failed as i64, count()),
        }
    };
    Some(ProgressStatus {
        icon: "diff-multiple",
        text,
    })
}

/// The `roo` dialect of [`apply_diff`](crate::apply_diff) and the streaming applier: Roo's
/// result as an [`Outcome`] (every block reported, in the order Roo tried them, an applied one
/// where its lines were in the original; the applied blocks' starts, sorted, as
/// `match_indices`) or an error.
pub(crate) fn outcome(
    original: &OriginalText,
    diff: &str,
    options: &RooOptions,
) -> Result<Outcome> {
    let text = original;
    let original = text.as_str();
    let run = apply::run(original, diff, options);
    let content = match run.result {
        DiffResult::Applied { content, .. } => content,
        DiffResult::Invalid { error } => return Err(error),
        DiffResult::NotApplied { fail_parts } => return Err(refusal(&fail_parts)),
    };
    let position = |b: file::Boundary| text.position_on_line(b.byte, b.line);
    let mut match_indices = Vec::new();
    let blocks = run
        .blocks
        .into_iter()
        .map(|b| match b.result {
            Ok(placed) => {
                let start = position(placed.start);
                match_indices.push(start);
                BlockReport::cline(
                    b.index,
                    Strategy::Similarity,
                    start,
                    position(placed.end),
                    original[..placed.end.byte].ends_with('\n'),
                )
            }
            Err(error) => {
                let mut report = BlockReport::cline(
                    b.index,
                    Strategy::Unmatched,
                    Default::default(),
                    Default::default(),
                    false,
                );
                report.status = BlockStatus::Failed;
                report.candidates = 0;
                report.end_line = 0;
                report.error = Some(error);
                report
            }
        })
        .collect();
    match_indices.sort();
    Ok(Outcome {
        new_content: content,
        blocks,
        match_indices,
    })
}

/// The error for a diff none of whose blocks applied: the first failure's code, and every
/// failure's message (Roo's `failParts`), separated by blank lines.
fn refusal(fail_parts: &[Error]) -> Error {
    let kind = fail_parts
        .first()
        .map_or(ErrorKind::SearchNotFound, Error::kind);
    let message: Vec<&str> = fail_parts.iter().map(Error::message).collect();
    Error::new(kind, message.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_counts_search_words() {
        let two = "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE";
        let text = |s: Option<ProgressStatus>| s.map(|s| s.text);
        assert_eq!(text(progress_status(two, false, Some(0))), Some("2".into()));
        assert_eq!(
            text(progress_status(two, false, Some(1))),
            Some("1/2".into())
        );
        assert_eq!(text(progress_status(two, false, None)), None);
        // While streaming, only when the length's tens digit is 0.
        assert_eq!(
            text(progress_status("SEARCH", true, None)),
            Some("1".into())
        );
        assert_eq!(text(progress_status(&"x".repeat(10), true, None)), None);
        assert_eq!(
            text(progress_status(&"x".repeat(100), true, None)),
            Some("0".into())
        );
        assert_eq!(progress_status("", true, Some(0)), None);
    }

    #[test]
    fn the_dialect_reports_blocks_in_roos_order_and_refuses_when_none_applies() {
        let original = "a = 1\nb = 2\n";
        let diff = "<<<<<<< SEARCH\n:start_line:2\n-------\nb = 2\n=======\nb = 3\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nzzz\n=======\nq\n>>>>>>> REPLACE";
        let o = outcome(&OriginalText::new(original), diff, &RooOptions::new())
            .expect("one block applies");
        assert_eq!(o.new_content, "a = 1\nb = 3\n");
        let order: Vec<(usize, BlockStatus)> =
            o.blocks.iter().map(|b| (b.index, b.status)).collect();
        assert_eq!(order, [(1, BlockStatus::Failed), (0, BlockStatus::Applied)]);
        assert_eq!((o.blocks[1].start.bytes, o.blocks[1].end.bytes), (6, 12));
        assert_eq!((o.blocks[1].start.line, o.blocks[1].end_line), (2, 2));

        let none = "<<<<<<< SEARCH\nzzz\n=======\nq\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n=======\nq\n>>>>>>> REPLACE";
        let err = outcome(&OriginalText::new(original), none, &RooOptions::new()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::SearchNotFound);
        let parts = apply_diff(original, none, &RooOptions::new());
        let texts: Vec<&str> = parts.fail_parts().iter().map(Error::message).collect();
        assert_eq!(err.message(), texts.join("\n\n"));
        assert!(texts[1].starts_with("Empty search content is not allowed"));
    }
}

//! The Cline compatibility dialects: an exact drop-in for Cline v4.0.10's
//! `constructNewFileContent(diff, original, isFinal, version)`.
//!
//! For every input, final or partial, well-formed or not, [`construct_new_file_content`] returns
//! the same `newContent`, the same `matchIndices` (available in UTF-16 code units, Cline's unit,
//! and in bytes, chars and lines) and the same error text as Cline's TypeScript. Its quirks are
//! kept on purpose: callers depend on them. The conformance vectors in `tests/vectors/` are the
//! reference.
//!
//! The rules in short (both versions): the diff is split on `\n` only; marker lines are
//! recognised by the patterns `^-{3,} SEARCH>?$`, `^<{3,} SEARCH>?$`, `^={3,}$`, `^\+{3,} REPLACE>?$` and `^>{3,} REPLACE>?$`; every content line is taken as `line + "\n"`;
//! an incomplete last line that starts like a marker but is not one is dropped (v1 checks with the
//! marker patterns, v2 against the three canonical strings). SEARCH texts are located with
//! the Cline cascade (exact, then line-trimmed, then block anchor). The differences between `v1` and `v2` are described in
//! the `v1` and `v2` modules.

pub(crate) mod engine;
pub(crate) mod machine;
mod messages;
pub(crate) mod output;
mod resume;
pub(crate) mod sink;
mod stream;
mod v1;
mod v2;

use std::fmt;
use std::str::FromStr;

pub use resume::{
    CacheStats, ResumeCache, ResumedContent, construct_new_file_content_resumed,
    shared_resume_cache,
};
pub(crate) use stream::ClineStream;

use crate::error::{Error, Result};
use crate::matching::Haystack;
use crate::policy::PreviewForm;
use crate::text::original::Indexes;
use crate::text::{OffsetCursor, Position};
use engine::Engine;
use machine::Machine;

/// Which of Cline's two implementations to reproduce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Version {
    /// `constructNewFileContentV1`, Cline's default and what its write handler uses.
    #[default]
    V1,
    /// `constructNewFileContentV2`, the state-machine implementation.
    V2,
}

impl Version {
    /// `"v1"` or `"v2"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V1 => "v1",
            Version::V2 => "v2",
        }
    }

    pub(crate) fn machine(self) -> Machine {
        match self {
            Version::V1 => Machine::V1(Default::default()),
            Version::V2 => Machine::V2(Default::default()),
        }
    }
}

impl FromStr for Version {
    type Err = Error;

    /// Parses `"v1"` or `"v2"`; anything else is Cline's
    /// `Invalid version '<v>' for file content constructor`.
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "v1" => Ok(Version::V1),
            "v2" => Ok(Version::V2),
            other => Err(messages::invalid_version(other)),
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What `constructNewFileContent` resolves to.
///
/// Match positions are kept as byte offsets and converted to other units only when asked for,
/// so a caller that only wants the content never pays for counting UTF-16 units in a large file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewFileContent<'a> {
    /// The new file content (for a partial call, the content so far).
    pub new_content: String,
    original: &'a str,
    match_starts: Vec<usize>,
}

impl NewFileContent<'_> {
    /// Where each applied block starts in the original, as byte offsets, in Cline's order:
    /// completion order for partial calls, sorted for final ones; always empty in v2.
    pub fn match_byte_offsets(&self) -> &[usize] {
        &self.match_starts
    }

    /// The match positions in every unit (computed on each call, in one pass over the original
    /// up to the last match).
    pub fn match_indices(&self) -> Vec<Position> {
        positions(self.original, &self.match_starts)
    }

    /// The match indices as Cline reports them: UTF-16 code-unit offsets.
    pub fn match_indices_utf16(&self) -> Vec<usize> {
        self.match_indices().iter().map(|p| p.utf16).collect()
    }
}

/// Positions of byte offsets of `text`, in the order given.
pub(crate) fn positions(text: &str, offsets: &[usize]) -> Vec<Position> {
    let mut cursor = OffsetCursor::default();
    offsets.iter().map(|&b| cursor.position(text, b)).collect()
}

/// Cline's `constructNewFileContent(diff, original, isFinal, version)`, byte for byte.
///
/// Call it with the whole diff and `is_final = true` for the final content, or with a prefix and
/// `is_final = false` for what Cline shows while the diff streams. To follow a stream, prefer
/// [`StreamingApplier`](crate::StreamingApplier), which does the same work once instead of once
/// per prefix.
///
/// ```
/// use hunkloom::cline::{construct_new_file_content, Version};
///
/// let original = "fn main() {\n    println!(\"hi\");\n}\n";
/// let diff = "------- SEARCH\n    println!(\"hi\");\n=======\n    println!(\"hello\");\n+++++++ REPLACE\n";
/// let result = construct_new_file_content(diff, original, true, Version::V1)?;
/// assert_eq!(result.new_content, "fn main() {\n    println!(\"hello\");\n}\n");
/// assert_eq!(result.match_indices_utf16(), vec![12]);
/// # Ok::<(), hunkloom::Error>(())
/// ```
pub fn construct_new_file_content<'a>(
    diff: &str,
    original: &'a str,
    is_final: bool,
    version: Version,
) -> Result<NewFileContent<'a>> {
    let indexes = Indexes::default();
    let hay = Haystack::new(original, &indexes);
    let mut engine = Engine::new(
        version.machine(),
        !is_final,
        original.len(),
        PreviewForm::Text,
    );
    engine.push(&hay, diff);
    if is_final {
        let finished = engine.finish(&hay)?;
        let match_starts = finished
            .order
            .iter()
            .map(|&i| finished.blocks[i].start)
            .collect();
        return Ok(NewFileContent {
            new_content: finished.content.into_string(&hay),
            original,
            match_starts,
        });
    }
    if let Some(e) = engine.error() {
        return Err(e.clone());
    }
    Ok(NewFileContent {
        new_content: engine.output().as_text().unwrap_or_default().to_owned(),
        original,
        match_starts: partial_match_starts(&engine),
    })
}

/// Cline's `matchIndices` for a partial call, as byte offsets: every completed block, in
/// completion order (v1); none in v2.
pub(crate) fn partial_match_starts(engine: &Engine) -> Vec<usize> {
    if !engine.reports_match_indices() {
        return Vec::new();
    }
    engine.blocks().iter().map(|b| b.start).collect()
}

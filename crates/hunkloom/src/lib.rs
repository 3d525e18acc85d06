//! hunkloom applies the edits language models write to files — SEARCH/REPLACE blocks streamed
//! token by token, `str_replace` calls, line inserts, whole-file writes, multi-file patches —
//! while the model is still streaming, and fast: byte-exact with the tools they replace in the
//! Cline dialects, and in the `native` dialect tolerant of what models get slightly wrong and
//! refusing what is ambiguous or stale.
//!
//! # Overview
//!
//! - [`StreamingApplier`]: push a diff in pieces of any size, read a live
//!   [`preview`](StreamingApplier::preview) and a per-push [`Update`] splice, then
//!   [`finish`](StreamingApplier::finish) into an [`Outcome`] with a report per block. The work
//!   per push is proportional to the pushed text.
//! - [`apply_diff`]: a whole diff at once, in the `native` dialect by default ([`Dialect`],
//!   [`Policy`]); unified diffs in [`Dialect::Udiff`] (placed by their text) and
//!   [`Dialect::UdiffStrict`] (`git apply`, byte for byte).
//! - [`cline::construct_new_file_content`]: the stateless drop-in for Cline's
//!   `constructNewFileContent`, byte-identical with Cline v4.0.10 for final and partial calls;
//!   [`cline::ResumeCache`] makes Cline's call-per-prefix pattern cheap.
//! - [`ops`]: the tool-call edits (`str_replace` with Claude Code's rules, line inserts in both
//!   conventions, Roo's `insert_content`); [`fixes`]: Cline's `write_to_file` clean-up.
//! - [`roo::apply_diff`]: the drop-in for Roo Code's `apply_diff` (`MultiSearchReplaceDiffStrategy`),
//!   byte-identical at any fuzzy threshold; also the `roo` [`Dialect`].
//! - [`patch`]: the `*** Begin Patch` multi-file format (Codex, Cline), parsed while streaming
//!   and planned in memory; [`patch::v4a`]: the per-file bodies of OpenAI's `apply_patch` tool,
//!   byte-exact with the OpenAI Agents SDK; multi-file unified diffs (git patches) planned like
//!   the patches.
//! - [`Error`]: one error type with a stable [`code`](Error::code); in the Cline dialects its
//!   message is Cline's exact text.
//! - [`Position`] and [`TextOffset`]: every reported position in UTF-8 bytes, UTF-16 code units
//!   (JavaScript), Unicode scalars (Python) and lines.
//!
//! The core is pure: it takes text and returns text, with no file-system access.
//!
//! # Example: streaming a Cline-style edit
//!
//! ```
//! use hunkloom::{ApplierOptions, Dialect, StreamingApplier};
//!
//! let original = "def greet():\n    print('hi')\n";
//! let mut applier = StreamingApplier::new(original, ApplierOptions::new().dialect(Dialect::ClineV1));
//! let diff = "------- SEARCH\n    print('hi')\n=======\n    print('hello')\n+++++++ REPLACE\n";
//! for piece in diff.as_bytes().chunks(7) {
//!     applier.push(std::str::from_utf8(piece).unwrap());
//!     // applier.preview() is what an editor's diff view shows now.
//! }
//! let outcome = applier.finish()?;
//! assert_eq!(outcome.new_content, "def greet():\n    print('hello')\n");
//! # Ok::<(), hunkloom::Error>(())
//! ```

#![forbid(unsafe_code)]

mod blocks;
pub mod cline;
mod error;
pub mod fixes;
pub mod lazy;
mod matching;
pub mod memory;
pub mod names;
mod native;
pub mod ops;
pub mod patch;
pub mod paths;
mod policy;
mod report;
pub mod roo;
mod search;
mod stream;
pub mod text;

pub use error::{Error, ErrorFamily, ErrorKind, Match, Result};
pub use lazy::{LazyOptions, apply_lazy};
pub use policy::{Policy, PreviewForm};
pub use report::{
    BlockReport, BlockStatus, Normalization, Outcome, PieceOutcome, PieceUpdate, Strategy, Update,
};
pub use stream::{ApplierOptions, ApplyOptions, Dialect, StreamingApplier, apply_diff};
pub use text::{Position, TextOffset};

/// The README's examples, compiled and run as doctests; each is a whole program (its own
/// `fn main`), so it compiles when pasted, and a warning in one (an unused variable) fails it.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
#[doc(test(attr(deny(warnings))))]
struct ReadmeDoctests;

#[cfg(test)]
mod readme_tests {
    /// A block compiles as a doctest even with hidden `# ` lines and no `fn main`, but fails
    /// when a reader pastes it into `src/main.rs`: every Rust block of the README must be that
    /// whole program (its `fn main`, nothing hidden), so the doctest compiles what is pasted.
    #[test]
    fn every_readme_rust_block_is_a_whole_program() {
        let readme = include_str!("../../../README.md");
        let blocks: Vec<&str> = readme
            .split("```rust\n")
            .skip(1)
            .map(|rest| rest.split("\n```").next().unwrap_or_default())
            .collect();
        assert!(blocks.len() >= 6, "{}", blocks.len());
        for block in blocks {
            assert!(block.contains("\nfn main()"), "no `fn main`:\n{block}");
            assert!(
                !block.lines().any(|l| l == "#" || l.starts_with("# ")),
                "a hidden rustdoc line:\n{block}"
            );
        }
    }
}

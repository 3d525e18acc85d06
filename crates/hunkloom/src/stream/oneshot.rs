//! [`apply_diff`]: a whole diff applied at once, in any dialect (`native` by default).

use crate::error::Result;
use crate::report::Outcome;
#[cfg(doc)]
use crate::stream::Dialect;
use crate::stream::{ApplyOptions, StreamingApplier};

/// Applies a whole SEARCH/REPLACE diff to `original`: the new content and a report per block,
/// or an error with a stable [`code`](crate::Error::code).
///
/// In the default `native` dialect every block is located independently of the others by a
/// cascade of tiers, strictest first (exact, line endings, trailing whitespace, indentation,
/// typographic punctuation, read-tool line numbers, blank lines, one typo); a tier with two or
/// more candidates refuses the block (`ambiguous_match`) and a block found nowhere refuses it
/// (`search_not_found`), with a message a model can act on. By default a diff applies all its
/// blocks or none. The result is the same as streaming the diff through a
/// [`StreamingApplier`] in any chunking.
///
/// In the `roo` dialect the result is Roo's (see [`roo::apply_diff`](crate::roo::apply_diff)),
/// whatever the policy: the blocks that applied, and the others reported failed with Roo's
/// message; a diff none of whose blocks applied is refused with the first failure's code and
/// every failure's message, separated by blank lines.
///
/// A unified diff of one file goes through [`Dialect::Udiff`] (each hunk located by its
/// context and removed lines with the same cascade, line numbers never used, refused when it
/// matches several places or none, reported as a block) or [`Dialect::UdiffStrict`] (exactly
/// `git apply`; [`ApplyOptions::recount`] for `--recount`):
///
/// ```
/// use hunkloom::{apply_diff, ApplyOptions, Dialect};
///
/// let original = "a = 1\nb = 2\n";
/// // Wrong line numbers and counts, no file headers.
/// let diff = "@@ -40,9 +40,9 @@\n a = 1\n-b = 2\n+b = 3\n";
/// let udiff = ApplyOptions::new().dialect(Dialect::Udiff);
/// assert_eq!(apply_diff(diff, original, &udiff)?.new_content, "a = 1\nb = 3\n");
/// let strict = ApplyOptions::new().dialect(Dialect::UdiffStrict);
/// let err = apply_diff(diff, original, &strict).unwrap_err();
/// assert_eq!(err.message(), "error: patch fragment without header at line 1: @@ -40,9 +40,9 @@");
/// # Ok::<(), hunkloom::Error>(())
/// ```
///
/// ```
/// use hunkloom::{apply_diff, ApplyOptions, ErrorKind};
///
/// // The model's SEARCH text lost the file's indentation and CRLF line endings: still applied.
/// let original = "fn main() {\r\n    let x = 1;\r\n    println!(\"{x}\");\r\n}\r\n";
/// let diff = "<<<<<<< SEARCH\nlet x = 1;\nprintln!(\"{x}\");\n=======\n    let x = 2;\n    println!(\"{x}\");\n>>>>>>> REPLACE\n";
/// let outcome = apply_diff(diff, original, &ApplyOptions::default())?;
/// assert_eq!(outcome.new_content, "fn main() {\r\n    let x = 2;\r\n    println!(\"{x}\");\r\n}\r\n");
/// assert_eq!(outcome.blocks[0].strategy.as_str(), "indentation");
///
/// // A SEARCH text that occurs twice is refused rather than guessed.
/// let twice = "a = 1\nb = 2\na = 1\n";
/// let diff = "------- SEARCH\na = 1\n=======\na = 3\n+++++++ REPLACE\n";
/// let err = apply_diff(diff, twice, &ApplyOptions::default()).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::AmbiguousMatch);
/// assert_eq!(err.code(), "ambiguous_match");
/// // Where it matched: every candidate's span and 1-based lines.
/// let lines: Vec<usize> = err.matches().unwrap().iter().map(|m| m.line()).collect();
/// assert_eq!(lines, [1, 3]);
/// # Ok::<(), hunkloom::Error>(())
/// ```
pub fn apply_diff(diff: &str, original: &str, options: &ApplyOptions) -> Result<Outcome> {
    crate::memory::reserve(
        crate::memory::WORKING_COPIES.saturating_mul(diff.len() + original.len()),
        "applying the diff",
    )?;
    let options = options.clone().dialect(options.one_shot_dialect());
    let mut applier = StreamingApplier::new(original, options);
    applier.push(diff);
    applier.finish()
}

//! V4A per-file bodies: what OpenAI's Responses-API `apply_patch` tool sends in each
//! `create_file` / `update_file` operation — the hunks of a Codex patch without the
//! `*** Begin Patch` / `*** Update File:` envelope — applied byte for byte as the reference
//! applier does: `apply_diff(input, diff, mode)` of the OpenAI Agents SDK (`agents/apply_diff.py`,
//! pip package `openai-agents` 0.24.0), its output and its error messages.
//!
//! [`apply_v4a`] applies a whole body; [`V4aApplier`] applies one as it streams (same result in
//! every chunking). A failure is a [`crate::Error`] whose message is the reference's
//! `ValueError` text, exactly; its code says what kind of failure it is:
//!
//! | reference message | code |
//! |---|---|
//! | `Invalid Line: …`, `Invalid Line:\n…`, `Nothing in this section - index=…`, `Invalid Add File Line: …` | `invalid_patch_hunk` |
//! | `Invalid Context …`, `Invalid EOF Context …`, `Invalid Anchor …` | `patch_context_not_found` |
//! | `applyDiff: overlapping chunk at …`, `applyDiff: chunk.origIndex … > input length …` | `overlapping_blocks` |
//!
//! The same body is also accepted by the Codex dialect for one named file
//! ([`plan_body`](super::plan_body)), which reads it as Codex does; the differences are listed
//! [below](#where-codex-differs).
//!
//! # The body
//!
//! ```text
//! body      := section* ("*** End Patch" any*)?
//! section   := header* line+ ("*** End of File")?      (only the first may have no header)
//! header    := "@@" | "@@ " anchor
//! line      := (" " | "-" | "+") text | ""               ("" is an empty context line)
//! ```
//!
//! The body is split at `\n`, and `\r`s ending a line are dropped; one empty line at the very
//! end is dropped (a body ending in `\n`), but a second one is an empty context line.
//!
//! - A section's lines run until a line starting with `@@`, `*** End Patch`,
//!   `*** End of File`, `*** Update File:`, `*** Delete File:` or `*** Add File:`, or a line
//!   that is exactly `***`. Another line starting with `***` fails
//!   (`Invalid Line: <line>`), as does a line starting with anything but a space, `-` or `+`
//!   (a tab, a code fence, `\ No newline at end of file`, unprefixed code). An indented
//!   context line that lost its space prefix is read with its first space as the prefix.
//! - Between sections, a line starting with `*** End Patch`, `*** End of File`,
//!   `*** Update File:`, `*** Delete File:` or `*** Add File:` ends the body; everything after
//!   it is ignored (so a body that starts with `*** Update File:` changes nothing). Any other
//!   line that is not a header fails with `Invalid Line:\n<line>` once the cursor has moved —
//!   for example a line after `*** End of File`.
//! - A section with headers but no lines fails with
//!   `Nothing in this section - index=<i> <line>`, `<i>` being the 0-based index of the line
//!   that ended it; the reference appends `*** End Patch` to every body, so that may be the
//!   line named. `@@@` and `@@text` end a section without being headers.
//!
//! # Where a section goes
//!
//! A cursor (an input line) starts at the top, and each section is searched from it:
//!
//! 1. **Anchors.** Each `@@ text` (whose text is not blank) moves the cursor past the first
//!    line equal to `text` at or after the cursor, or else past the first one equal once both
//!    are stripped of surrounding whitespace. The first anchor of a section also counts as
//!    found, without moving the cursor, when such a line exists before the cursor. A single
//!    header that finds nothing is ignored; with two or more headers (a bare `@@` counts),
//!    every anchor must be found (`Invalid Anchor <cursor>:\n<anchor>`). Anchors only choose
//!    where the search starts; the anchor line itself is passed over.
//! 2. **Context.** The section's context and `-` lines, in order, are looked for from the
//!    cursor to the end of the input in three passes — exactly, ignoring trailing whitespace,
//!    ignoring surrounding whitespace — and the first position of the first pass that finds
//!    one wins. Nothing before the cursor is searched (`Invalid Context <cursor>:\n<lines>`).
//!    A section marked `*** End of File` is tried at the end of the input first (the empty
//!    line after a final newline does not count as a line there) and then searched as usual,
//!    up to that end (`Invalid EOF Context …` when both fail). The end is tried even when it
//!    lies before the cursor; a change placed there before an earlier one fails with
//!    `applyDiff: overlapping chunk …`. A section without context lines goes at the cursor:
//!    at the top of the input, or right after an anchor; with `*** End of File`, after the
//!    last line.
//! 3. The cursor moves past the matched lines; the context lines stay the input's own, `-`
//!    lines go, `+` lines come in where they stand.
//!
//! Whitespace is Python's (`str.strip()`); inner whitespace and typographic punctuation are
//! not folded. A score of how loosely each section matched is kept
//! ([`V4aSection::fuzz`]); it never rejects a match.
//!
//! # Line endings, and what the reference loses
//!
//! These are the reference's behaviours, kept in this mode on purpose (the Codex dialect and
//! the `native` dialect keep what is listed here):
//!
//! - **Line endings are normalized.** The output uses `\r\n` for every line when the input has
//!   any `\r\n` (the `\n` lines of a mixed input are rewritten), else `\n`; an input without
//!   any `\n` takes the body's line ending. A lone `\r` inside a line stays.
//! - **Create mode drops the final newline.** In `create` mode every line must start with `+`
//!   (`Invalid Add File Line: <line>`; `*** End of File` is one of those lines), `input` is
//!   ignored, and the text is the `+` lines joined by the line ending with **no final line
//!   ending** — even when the body ends with one. A last `+` line with nothing after it gives
//!   the final newline.
//! - **Out-of-order and repeated sections fail or apply twice.** Nothing before the cursor is
//!   searched, so hunks out of order fail; an insertion without context applies again when the
//!   body is sent again.
//! - **The earliest match wins.** A short or drifted context can land on an earlier
//!   look-alike; there is no uniqueness check and no fuzz limit.
//!
//! The input's final newline, or its absence, is kept. An empty body (or one with only
//! context) gives the input back with its line endings normalized.
//!
//! # Where Codex differs
//!
//! Codex's `apply_patch` ([`plan_body`](super::plan_body)) reads the same body differently:
//! every updated file ends with a newline; a single anchor that is not found is an error;
//! stacked `@@` headers are a parse error; a section without context goes at the end of the
//! file; typographic punctuation matches ASCII; `*** End of File` must match at the end;
//! text after `*** End Patch` and an empty body are errors; every untouched line keeps its
//! own line ending.
//!
//! # Streaming
//!
//! The body is read line by line and each section is located as soon as the line after it
//! arrives, so [`V4aApplier::push`] reports sections as they are placed. The text itself is
//! built by [`V4aApplier::finish`]: the reference raises a misplaced-chunk error only after
//! the whole body parsed (a later parse error wins), and an input without `\n` takes its
//! line ending from the whole body.
//!
//! # Example
//!
//! ```
//! use hunkloom::patch::v4a::{apply_v4a, V4aMode};
//!
//! let input = "class Cart:\r\n    def total(self):\r\n        return 0\r\n";
//! let body = "@@ def total(self):\n-        return 0\n+        return sum(self.items)\n";
//! let out = apply_v4a(input, body, V4aMode::Default)?;
//! assert_eq!(out, "class Cart:\r\n    def total(self):\r\n        return sum(self.items)\r\n");
//!
//! // Create mode: the `+` lines, without a final newline (as the reference writes them).
//! assert_eq!(apply_v4a("", "+one\n+two\n", V4aMode::Create)?, "one\ntwo");
//!
//! let err = apply_v4a(input, "-        return 1\n+        return 2\n", V4aMode::Default).unwrap_err();
//! assert_eq!(err.code(), "patch_context_not_found");
//! assert_eq!(err.message(), "Invalid Context 0:\n        return 1");
//! # Ok::<(), hunkloom::Error>(())
//! ```

mod applier;
mod locate;
mod output;

pub use applier::V4aApplier;

use crate::error::Result;

/// How a V4A body is read: as the changes of an existing file, or as a new file's lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum V4aMode {
    /// `update_file`: sections of context, `-` and `+` lines applied to the input.
    #[default]
    Default,
    /// `create_file`: only `+` lines, which are the new file (the input is ignored).
    Create,
}

crate::names!(
    V4aMode {
        Default => "default",
        Create => "create",
    },
    parse: InvalidDialect,
    "V4A mode"
);

/// How one section of a body was placed.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct V4aSection {
    /// The 1-based input line where the section's context starts (for a section without
    /// context, the line its `+` lines go before; one past the last line at the end).
    pub line: usize,
    /// How many input lines the section's context and `-` lines cover.
    pub context_lines: usize,
    /// How many lines it removes.
    pub removed: usize,
    /// How many lines it adds.
    pub added: usize,
    /// Whether it was marked `*** End of File`.
    pub end_of_file: bool,
    /// The reference's score of how loosely it matched: 0 when exact; 1 per anchor found only
    /// once stripped, plus 1 for a context found ignoring trailing whitespace or 100 ignoring
    /// surrounding whitespace, plus 10,000 for an `*** End of File` context not at the end.
    pub fuzz: u64,
}

/// A body applied: the new text and how each section was placed.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct V4aOutcome {
    /// The whole new text.
    pub new_content: String,
    /// Every section, in body order (none in create mode).
    pub sections: Vec<V4aSection>,
    /// The sum of the sections' scores (the reference's `fuzz`).
    pub fuzz: u64,
}

/// Applies a whole V4A body `diff` to `input` in `mode`, as the OpenAI Agents SDK's
/// `apply_diff(input, diff, mode)` does; returns the new text (see the [module docs](self)).
pub fn apply_v4a(input: &str, diff: &str, mode: V4aMode) -> Result<String> {
    apply_v4a_outcome(input, diff, mode).map(|o| o.new_content)
}

/// [`apply_v4a`], with the report of every section.
pub fn apply_v4a_outcome(input: &str, diff: &str, mode: V4aMode) -> Result<V4aOutcome> {
    crate::memory::reserve(
        crate::memory::WORKING_COPIES.saturating_mul(input.len() + diff.len()),
        "applying the V4A diff",
    )?;
    let mut applier = V4aApplier::new(input, mode);
    applier.push(diff)?;
    applier.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(input: &str, diff: &str) -> std::result::Result<String, String> {
        apply_v4a(input, diff, V4aMode::Default).map_err(|e| e.message().to_owned())
    }

    #[test]
    fn modes_round_trip_and_types_cross_threads() {
        for &m in V4aMode::ALL {
            assert_eq!(m.as_str().parse::<V4aMode>(), Ok(m));
            assert_eq!(m.to_string(), m.as_str());
        }
        let e = "update".parse::<V4aMode>().unwrap_err();
        assert_eq!(e.code(), "invalid_dialect");
        assert_eq!(
            e.message(),
            "unknown V4A mode 'update': expected one of default, create"
        );
        fn check<T: Send + Sync + std::panic::UnwindSafe + 'static>() {}
        check::<V4aApplier>();
        check::<V4aOutcome>();
        check::<V4aMode>();
    }

    /// Pushes `pieces`, rebuilding the preview from `preview_update`'s splices after each.
    fn shown_by_splices(input: &str, mode: V4aMode, pieces: &[&str]) -> Vec<String> {
        let mut applier = V4aApplier::new(input, mode);
        let mut shown = applier.preview();
        let mut seen = Vec::new();
        for piece in pieces {
            let _ = applier.push(piece);
            applier.preview_update().apply_to(&mut shown);
            assert_eq!(shown, applier.preview(), "after {piece:?}");
            seen.push(shown.clone());
        }
        seen
    }

    #[test]
    fn preview_updates_follow_a_change_of_line_ending() {
        // The input has no line ending: the body's first `\r\n` changes how lines join.
        let seen = shown_by_splices("a", V4aMode::Default, &["@@\n-a\n+b\n+c\n@@\n", " b\r\n"]);
        assert_eq!(seen, ["b\nc", "b\r\nc"]);
        let seen = shown_by_splices("", V4aMode::Create, &["+x\n+y\n", "+z\r\n", "+w\n"]);
        assert_eq!(seen, ["x\ny", "x\r\ny\r\nz", "x\r\ny\r\nz\r\nw"]);
        // Sections that end the file, and ones that remove its last lines.
        let seen = shown_by_splices("p\nq\nr", V4aMode::Default, &["@@\n q\n-r\n", "@@\n"]);
        assert_eq!(seen, ["p\nq\nr", "p\nq"]);
    }

    #[test]
    fn anchors_are_advisory_alone_and_required_stacked() {
        let input = "class A:\n    def f():\n        x\nclass B:\n    def f():\n        x\n";
        assert_eq!(
            apply(input, "@@ missing\n-        x\n+        y\n").unwrap(),
            "class A:\n    def f():\n        y\nclass B:\n    def f():\n        x\n"
        );
        assert_eq!(
            apply(
                input,
                "@@ class B:\n@@     def f():\n-        x\n+        y\n"
            )
            .unwrap(),
            "class A:\n    def f():\n        x\nclass B:\n    def f():\n        y\n"
        );
        assert_eq!(
            apply(
                input,
                "@@ class C:\n@@     def f():\n-        x\n+        y\n"
            )
            .unwrap_err(),
            "Invalid Anchor 0:\nclass C:"
        );
    }

    #[test]
    fn parse_errors_carry_the_reference_texts() {
        assert_eq!(apply("a\n", "\tx\n").unwrap_err(), "Invalid Line: \tx");
        assert_eq!(
            apply("a\n", "@@").unwrap_err(),
            "Nothing in this section - index=1 *** End Patch"
        );
        assert_eq!(
            apply("a\n", "@@@\n").unwrap_err(),
            "Nothing in this section - index=0 @@@"
        );
        assert_eq!(
            apply("a\nb\n", " a\n*** End of File\nb\n").unwrap_err(),
            "Invalid Line:\nb"
        );
        assert_eq!(
            apply("a\n", "*** Move to: b\n").unwrap_err(),
            "Invalid Line: *** Move to: b"
        );
        assert_eq!(
            apply_v4a("", " x\n", V4aMode::Create)
                .unwrap_err()
                .message(),
            "Invalid Add File Line:  x"
        );
    }

    #[test]
    fn line_endings_follow_the_input_then_the_body() {
        assert_eq!(apply("a\nb\r\n", " a\n+c\n").unwrap(), "a\r\nc\r\nb\r\n");
        assert_eq!(apply("a", "-a\r\n+b\r\n").unwrap(), "b");
        assert_eq!(apply("", "+x\r\n").unwrap(), "x\r\n");
        assert_eq!(
            apply_v4a("", "+x\r\n+y\r\n+", V4aMode::Create).unwrap(),
            "x\r\ny\r\n"
        );
    }

    #[test]
    fn an_end_of_file_section_can_land_before_the_cursor() {
        // The end is tried first, before the cursor too: fine when no change overlaps ...
        assert_eq!(
            apply("x\ny\n", "-x\n+X\n y\n@@\n-y\n+Y\n*** End of File\n").unwrap(),
            "X\nY\n"
        );
        // ... and the reference's error when one does, once the whole body parsed.
        assert_eq!(
            apply("x\ny\n", "-x\n-y\n+Z\n@@\n-y\n+Y\n*** End of File\n").unwrap_err(),
            "applyDiff: overlapping chunk at 1 (cursor 2)"
        );
        assert_eq!(
            apply("x\ny\n", "-x\n-y\n+Z\n@@\n-y\n+Y\n*** End of File\nbad\n").unwrap_err(),
            "Invalid Line:\nbad"
        );
    }

    #[test]
    fn everything_after_the_end_is_ignored() {
        assert_eq!(
            apply("a\n", "-a\n+b\n*** End Patch\ngarbage\n").unwrap(),
            "b\n"
        );
        assert_eq!(apply("a\n", "*** Update File: x\n-a\n").unwrap(), "a\n");
        assert_eq!(
            apply_v4a("old", "+new\n*** End Patch\n+x", V4aMode::Create).unwrap(),
            "new"
        );
    }

    #[test]
    fn streaming_reports_sections_and_errors_stick() {
        let mut a = V4aApplier::new("a\nb\n", V4aMode::Default);
        assert!(a.push("-a\n+A\n@@").unwrap().is_empty());
        assert_eq!(a.push("\n").unwrap().len(), 1);
        assert!(a.push("x\n").is_err());
        assert_eq!(a.finish().unwrap_err().message(), "Invalid Line: x");
        let mut a = V4aApplier::new("a\n", V4aMode::Default);
        a.finish().unwrap();
        assert_eq!(a.push("").unwrap_err().code(), "already_finished");
    }
}

//! The `native` dialect: apply what the model meant; refuse what is ambiguous or stale.
//!
//! # Reading
//!
//! Every marker spelling models emit (see [`parse`] for the grammar): Cline's, aider's and Roo's,
//! 3+ marker characters, a trailing `>`, CRLF diffs, Roo's `:start_line:N` / `:end_line:N` /
//! `-------` preamble and its backslash-escaped markers. Text outside blocks is ignored.
//!
//! # Matching: the cascade and its tie-breaking
//!
//! Each block is matched against the original, independently of the other blocks and of their
//! order, by whole lines. The tiers, strictest first:
//!
//! 1. **exact** — byte for byte, line endings included;
//! 2. **line endings** — CRLF, LF or none at the end of the file;
//! 3. **trailing whitespace**;
//! 4. **indentation** — a uniform change over the non-blank lines: a shift by copies of one
//!    character, or tabs against spaces at one tab width (4, 2, 8 or 3);
//! 5. **punctuation** — curly quotes, dashes (runs of `-`, `–`, `—` are one dash), `…`,
//!    non-breaking and other exotic spaces folded to ASCII, and Unicode normalization forms
//!    (NFC and NFD: `é` and `e` + U+0301 are the same);
//! 6. **line-number prefixes** — when every SEARCH line starts with a read tool's prefix
//!    (`12 | `, padded, `cat -n`'s tab, `12→`) and the numbers run consecutively, tiers 1–5 on
//!    the stripped lines, the first number serving as a line hint;
//! 7. **blank lines** — blank lines ignored inside the SEARCH text and the region; blank lines
//!    at the SEARCH text's edges must be in the file, and when no window has them they match
//!    nothing (the tier runs again on the SEARCH text without them, so the region is its
//!    non-blank lines);
//! 8. **typo** — exactly one non-blank line differs, by a 1–3 letter edit inside one word of 4+
//!    letters that stays 75% similar; digits, operators and punctuation must be equal; the
//!    SEARCH text needs three non-blank lines (with its edge blank lines, then, if nothing
//!    matched, without them).
//!
//! Tiers are cumulative (each tolerates what the ones before it do). Each counts its candidates
//! in the whole file: one is used; two or more refuse the block with `ambiguous_match` (unless a
//! `:start_line:` hint is within [`HINT_WINDOW`](tiers::HINT_WINDOW) lines of a unique nearest
//! candidate); none passes on to the next tier. Block order never breaks a tie and no tier
//! ignores a line. Each tier is linear in the file (see [`tiers`]).
//!
//! # Guards (version 2)
//!
//! Failures users of every peer report, each decided once per block from complete diff lines
//! (so every chunking gives the same result), each in its own module:
//!
//! - **over-escaped blocks** ([`overescape`]) — a one-line SEARCH text holding `\n`, `\t` or
//!   `\"` that no tier places as written is unescaped once and matched again; its REPLACE lines
//!   are then unescaped the same way. A file that holds the escaped text matches as written.
//! - **omission placeholders** ([`omission`]) — a REPLACE text with a placeholder line
//!   (`// ... existing code ...`) that is no SEARCH line, while three or more non-blank SEARCH
//!   lines are missing from it, fails with `omission_placeholder`: applying it would delete
//!   the code it stands for.
//! - **already applied** ([`applied`]) — a block whose SEARCH text is nowhere while its REPLACE
//!   text is in exactly one place (a retried call) succeeds without a change, reported with
//!   status `already_applied`.
//! - **cut off** — a diff that ends inside a block fails with `incomplete_at_finish` (see
//!   [`parse`]); with the default policy no block is applied.
//!
//! # Applying
//!
//! The replacement is written verbatim, except that (a) a block matched with an indentation
//! change whose replacement starts with the SEARCH text's indentation (not the file's) is
//! shifted by the same map, and (b) replacement lines take the region's line ending, the last
//! one the ending of the region's last line (none at the end of a file without one). Bytes
//! outside the regions never change. Overlapping regions refuse the later block. By default any
//! failed block refuses the whole diff ([`Policy::AllOrNothing`](crate::Policy)).
//!
//! # Reporting
//!
//! A placed block reports the tier that decided and, separately, every kind of difference the
//! match tolerated ([`BlockReport::normalizations`](crate::BlockReport::normalizations)): each
//! SEARCH line compared with its file line under each rule on its own, once the tier has
//! decided (see [`differences`]).

pub(crate) mod applied;
pub(crate) mod diagnose;
mod differences;
mod engine;
pub(crate) mod file_index;
#[cfg(test)]
mod guard_tests;
pub(crate) mod indent;
pub(crate) mod loose_lines;
#[cfg(test)]
mod naive;
#[cfg(test)]
mod naive_guards;
#[cfg(test)]
mod naive_rules;
pub(crate) mod normalize;
pub(crate) mod omission;
mod overescape;
mod parse;
mod pieces;
mod region;
mod region_sums;
mod report;
pub(crate) mod search_text;
mod sparse;
#[cfg(test)]
mod streaming_cost_tests;
#[cfg(test)]
mod tests;
pub(crate) mod tiers;
mod typo;

pub(crate) use engine::NativeEngine;

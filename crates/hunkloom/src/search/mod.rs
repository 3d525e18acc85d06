//! Searches over line keys, shared by the matching dialects; the line rules stay with them.
//!
//! Cline's cascade ([`matching`](crate::matching)) and the `native` cascade
//! ([`native`](crate::native)) both find a SEARCH text by giving every line a key under their
//! own rule and searching the file's sequence of keys for the SEARCH text's. The rules differ
//! on purpose and live with each dialect: Cline splits as JavaScript's `split("\n")` and hashes
//! each line after JavaScript's `trim()` (frozen, byte-for-byte with Cline; see
//! `matching::trimmed_lines`), `native` splits after each `\n` and hashes each line under its
//! loosest key (see `native::loose_lines`). What is here knows nothing of either rule:
//!
//! - [`line_starts`]: where each line of a text begins, the splitting both indexes build on
//!   before closing the last line their own way.
//! - [`first_accepted`]: the *first* run at or after a start line, confirmed by the caller,
//!   stopping there (Knuth–Morris–Pratt). Cline takes the earliest match in scan order, and a
//!   hash collision must only cost a retry, never hide a later match.
//! - [`key_index`]: every line's position by the hash of its key, so the V4A and Codex
//!   readings place many hunks without scanning the file for each.
//! - [`run_agreement`]: for *every* position, how many lines agree from there (and up to
//!   there), over the whole file (the Z-algorithm). `native` counts every candidate of a tier,
//!   so it needs all runs, and finds windows with exactly one differing line from the prefix
//!   and suffix agreement.
//!
//! The two sequence searches stay separate because their contracts differ: one stops at the
//! first accepted run, the other must see every position; each one doing the other's job would
//! either scan the whole file for Cline's first match or re-scan per candidate for `native`.

pub(crate) mod first_accepted;
pub(crate) mod key_index;
pub(crate) mod line_starts;
pub(crate) mod run_agreement;

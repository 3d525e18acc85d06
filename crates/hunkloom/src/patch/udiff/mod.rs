//! Unified diffs — what a model writes when asked for "a diff" — in two dialects.
//!
//! # `udiff`: the edit the model meant
//!
//! Models write unified diffs with wrong line numbers and counts, missing or partial headers,
//! fences and prose around them, drifted whitespace and missing prefixes. The `udiff` dialect
//! reads them leniently (see [`read`] for the grammar) and places each hunk by its text:
//!
//! - a hunk's context and removed lines are located with the `native` dialect's cascade
//!   (exact, line endings, trailing whitespace, uniform indentation, punctuation, one typo),
//!   then with context lines compared without surrounding whitespace (see [`anchors`]); line
//!   numbers are never used, not even to break a tie;
//! - a hunk is placed only where it matches one place in the file: two or more candidates
//!   refuse it (`ambiguous_match`, listing them), none refuses it (`search_not_found`, with the
//!   closest window); a hunk that is already applied changes nothing
//!   ([`BlockStatus::AlreadyApplied`](crate::BlockStatus)), one that may be is refused;
//! - what replaces the matched lines keeps the file's own context lines and line endings (see
//!   [`build`]), and `\ No newline at end of file` changes the final newline only where the
//!   diff clearly asks;
//! - all or nothing by default ([`Policy`](crate::Policy)): a diff applies every hunk or none.
//!
//! It streams hunk by hunk: each hunk is placed once complete (see [`engine`]).
//!
//! # `udiff-strict`: `git apply`, byte for byte
//!
//! The same success, content and failure as `git apply` 2.47 (see [`git`]), with
//! `--recount` as the [`recount`](crate::ApplyOptions::recount) option. It applies when the
//! diff is finished.
//!
//! # One file or many
//!
//! [`apply_diff`](crate::apply_diff) and the [`StreamingApplier`](crate::StreamingApplier)
//! apply the diff of one file to the text given (the names in its headers are not checked). A
//! diff of several files (a git patch) goes through [`patch::plan_patch`](crate::patch::plan_patch)
//! with [`PatchDialect::Udiff`](crate::patch::PatchDialect::Udiff) or
//! [`UdiffStrict`](crate::patch::PatchDialect::UdiffStrict), and the file layer commits all of
//! its files or none (see [`plan`]).

mod anchors;
mod build;
pub(crate) mod engine;
mod found;
pub(crate) mod git;
mod place;
pub(crate) mod plan;
mod read;
#[cfg(test)]
mod tests;

pub(crate) use engine::UdiffEngine;

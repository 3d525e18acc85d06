//! The native addon of the `hunkloom` npm package (napi-rs).
//!
//! This crate only converts: JavaScript values in, core calls, JavaScript values out. Behaviour
//! lives in the `hunkloom` core crate. Each concern has its own module:
//!
//! - [`cline`]: the drop-in `constructNewFileContent` (Promise and sync) and
//!   `getLineNumberFromCharIndex`, through the core's process-wide resume cache. The package's
//!   JavaScript layer (`node/lib/`) replaces the drop-in and `StreamingApplier` with versions
//!   that build results from slices of the caller's strings, through [`stream`] and the hidden
//!   methods of [`applier`], which answer in the compact arrays of [`pieces`].
//! - [`applier`]: the `StreamingApplier` class.
//! - [`apply`]: `applyDiff`, a whole diff at once (the `native` dialect by default).
//! - [`lazy`]: `applyLazy`, a snippet with `// ... existing code ...` markers merged without a
//!   model.
//! - [`roo`]: the drop-in `MultiSearchReplaceDiffStrategy` (Roo Code's `apply_diff`).
//! - [`ops`]: the tool operations `strReplace`, `insert` and `insertContent`.
//! - [`fixes`]: the content fixes of a whole-file write: `write`, `stripMarkdownFences`,
//!   `applyModelContentFixes`, `fixModelHtmlEscaping`, `removeInvalidChars`.
//! - [`workspace`]: the `Workspace` class, the file layer (`hunkloom-fs`): safe edits of files
//!   on disk.
//! - [`patch`]: `applyPatch`, a multi-file `*** Begin Patch` patch applied in memory (or a
//!   bare per-file body, with `{ path }`).
//! - [`v4a`]: `applyV4a`, a V4A per-file body applied as the OpenAI Agents SDK applies it.
//! - [`text_editor`]: the `TextEditor` class, a model's text-editor tool calls answered as
//!   Anthropic's or OpenHands' tool answers them (`hunkloom-tools`).
//! - [`types`]: the plain objects returned to JavaScript (`Update`, `Outcome`, `BlockReport`,
//!   `Edit`, …).
//! - [`names`]: `names()`, the core's lists of the names reports use.
//! - [`args`]: argument checks that raise a JavaScript `TypeError`.
//! - [`errors`]: the one place core errors become JavaScript `Error`s with a `.code`, and
//!   the panic boundary: a panic becomes an `Error` with `code === "internal_error"` (the
//!   core's code for a bug) instead of aborting the Node process.
//! - `test_hooks` (feature `fault-injection`, test builds only): a hidden export that makes the
//!   next `constructNewFileContent` panic, to test the panic boundary.
//!
//! The `///` comments of the `#[napi]` items become the JSDoc of the generated `index.d.ts`.

pub mod aider;
pub mod applier;
pub mod apply;
pub mod args;
pub mod cli;
pub mod cline;
pub mod edit_stream;
pub mod errors;
pub mod fixes;
pub mod lazy;
pub mod names;
pub mod ops;
pub mod patch;
pub mod pieces;
pub mod roo;
pub mod stream;
#[cfg(feature = "fault-injection")]
pub mod test_hooks;
pub mod text_editor;
pub mod toolset;
pub mod types;
pub mod v4a;
pub mod workspace;

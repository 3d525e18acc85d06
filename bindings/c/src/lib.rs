//! The C ABI of patchloom: `libpatchloom.so` / `libpatchloom.a` and `include/patchloom.h`.
//!
//! This crate only converts: C texts to `&str`, engine results and errors to C handles, panics to
//! a status. Behaviour lives in the engine (`crates/patchloom`) and the file layer
//! (`crates/patchloom-fs`). The state added here is what C needs around the streaming applier:
//! the unfinished UTF-8 character of a push that ended mid-character (`utf8.rs`) and a
//! NUL-terminated copy of the preview, rebuilt on read after a push changed its middle
//! (`applier.rs`).
//!
//! # Conventions (also in the header's preamble)
//!
//! - Every name starts with `pl_`; handles (`pl_applier`, `pl_workspace`, `pl_result`,
//!   `pl_edit`, `pl_text`, `pl_edit_outcome`, `pl_patch_result`, `pl_patch_outcome`, `pl_error`)
//!   are opaque and each has a `_free` function that accepts NULL.
//! - Every function that can fail returns a [`pl_status`]; `PL_STATUS_OK` is 0. On failure no
//!   out-parameter is written, except `*error` for the engine statuses.
//! - Texts in are `(const char *ptr, size_t len)` UTF-8, never assumed NUL-terminated (`ptr` may
//!   be NULL when `len` is 0: the empty text). A file that may not exist comes with a
//!   `bool ..._exists` flag, so "missing" is never confused with "empty". Texts out are
//!   `(ptr, len)` and also NUL-terminated.
//! - No panic crosses into C: it becomes `PL_STATUS_PANIC` ([`ffi_guard`]).
//! - Threads: a handle may move between threads but must not be used by two at once (the
//!   applier and the workspace refuse an overlapping call); results and errors are immutable and
//!   may be read concurrently.
//!
//! # Modules
//!
//! The exported items, in header order: [`version`], [`status`], [`error`], [`result`],
//! [`cline`] (the stateless Cline drop-in), [`options`] and [`applier`] (the streaming applier),
//! [`apply`] (`pl_apply_diff`, the stateless entry point, `native` by default),
//! [`lines`], [`ops`] (`str_replace`, line inserts, Roo's `insert_content`) with [`edit`] (their
//! result), [`fixes`] (Cline's `write_to_file` content fixes) with [`owned_text`] (their result),
//! [`patch`] (`pl_apply_patch`, multi-file patches in memory, and its result), [`workspace`]
//! (`pl_workspace_*`, the file layer `patchloom-fs`) with [`edit_outcome`] and [`patch_outcome`]
//! (their results). Internal: [`args`] (C arguments in), [`text`] (NUL-terminated text out),
//! [`utf8`] (chunks ending mid-character), [`ffi_guard`] (the panic boundary).

#![deny(unsafe_op_in_unsafe_fn)]
// C names: `pl_applier`, `pl_status`, ... are what the header shows.
#![allow(non_camel_case_types)]

mod args;
mod ffi_guard;
mod text;
mod utf8;

mod applier;
mod apply;
mod cline;
mod edit;
mod edit_outcome;
mod error;
mod fixes;
mod lines;
mod ops;
mod options;
mod owned_text;
mod patch;
mod patch_outcome;
mod result;
mod status;
mod version;
mod workspace;

pub use applier::{
    pl_applier, pl_applier_finish, pl_applier_free, pl_applier_new, pl_applier_preview,
    pl_applier_push, pl_applier_snapshot, pl_update,
};
pub use apply::pl_apply_diff;
pub use cline::{PL_CLINE_V1, PL_CLINE_V2, pl_cline_version, pl_construct_new_file_content};
pub use edit::{
    pl_edit, pl_edit_content, pl_edit_first_line_range, pl_edit_free, pl_edit_normalization_count,
    pl_edit_normalization_name, pl_edit_replacements, pl_line_range,
};
pub use edit_outcome::{
    pl_edit_outcome, pl_edit_outcome_changed, pl_edit_outcome_content, pl_edit_outcome_edit,
    pl_edit_outcome_encoding, pl_edit_outcome_free, pl_edit_outcome_kind, pl_edit_outcome_path,
    pl_edit_outcome_result,
};
pub use error::{pl_error, pl_error_code, pl_error_free, pl_error_message};
pub use fixes::{
    PL_FIX_MODEL_HTML_ESCAPING, PL_FIX_REMOVE_INVALID_CHARS, PL_FIX_STRIP_MARKDOWN_FENCES,
    pl_apply_model_content_fixes, pl_fix, pl_fix_model_html_escaping, pl_fix_name,
    pl_remove_invalid_chars, pl_strip_markdown_fences, pl_write,
};
pub use lines::pl_line_number_from_byte_index;
pub use ops::{
    PL_EDIT_TYPE_CREATE, PL_EDIT_TYPE_MODIFY, PL_INSERT_AFTER, PL_INSERT_BEFORE, pl_edit_type,
    pl_insert, pl_insert_content, pl_insert_content_number, pl_insert_convention, pl_str_replace,
};
pub use options::{
    PL_DIALECT_CLINE_V1, PL_DIALECT_CLINE_V2, PL_DIALECT_DEFAULT, PL_DIALECT_NATIVE,
    PL_POLICY_ALL_OR_NOTHING, PL_POLICY_PARTIAL, pl_applier_options, pl_apply_options, pl_dialect,
    pl_policy,
};
pub use owned_text::{pl_text, pl_text_content, pl_text_free};
pub use patch::{
    PL_PATCH_CHANGE_ADD, PL_PATCH_CHANGE_DELETE, PL_PATCH_CHANGE_UPDATE, PL_PATCH_DIALECT_CLINE,
    PL_PATCH_DIALECT_CODEX, pl_apply_patch, pl_patch_change, pl_patch_change_kind,
    pl_patch_dialect, pl_patch_file, pl_patch_options, pl_patch_result, pl_patch_result_change,
    pl_patch_result_change_count, pl_patch_result_deleted, pl_patch_result_deleted_count,
    pl_patch_result_failure, pl_patch_result_file, pl_patch_result_file_count,
    pl_patch_result_free, pl_patch_result_fuzz, pl_patch_result_warning,
    pl_patch_result_warning_count, pl_patch_warning,
};
pub use patch_outcome::{
    pl_patch_outcome, pl_patch_outcome_failure, pl_patch_outcome_file, pl_patch_outcome_file_count,
    pl_patch_outcome_free, pl_patch_outcome_fuzz, pl_patch_outcome_warning,
    pl_patch_outcome_warning_count, pl_patched_file,
};
pub use result::{
    PL_BLOCK_APPLIED, PL_BLOCK_FAILED, PL_UNIT_BYTES, PL_UNIT_CODE_POINTS, PL_UNIT_LINES,
    PL_UNIT_UTF16, pl_block, pl_block_status, pl_position, pl_result, pl_result_block,
    pl_result_block_count, pl_result_block_normalization, pl_result_content,
    pl_result_failed_count, pl_result_free, pl_result_match_count, pl_result_match_index, pl_unit,
};
pub use status::{pl_status, pl_status_str};
pub use version::{PL_VERSION_MAJOR, PL_VERSION_MINOR, PL_VERSION_PATCH, pl_version};
pub use workspace::{
    pl_workspace, pl_workspace_apply_diff, pl_workspace_apply_patch, pl_workspace_free,
    pl_workspace_insert, pl_workspace_open, pl_workspace_options, pl_workspace_read,
    pl_workspace_root, pl_workspace_str_replace, pl_workspace_undo, pl_workspace_write,
};

#[cfg(test)]
mod tests;

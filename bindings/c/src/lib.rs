//! The C ABI of hunkloom: `libhunkloom.so` / `libhunkloom.a` and `include/hunkloom.h`.
//!
//! This crate only converts: C texts to `&str`, engine results and errors to C handles, panics to
//! a status. Behaviour lives in the engine (`crates/hunkloom`) and the file layer
//! (`crates/hunkloom-fs`). The state added here is what C needs around the streaming applier:
//! the unfinished UTF-8 character of a push that ended mid-character (`utf8.rs`) and a
//! NUL-terminated copy of the preview, rebuilt on read after a push changed its middle
//! (`applier.rs`). The resume cache behind `hl_construct_new_file_content` is the core's.
//!
//! # Conventions (also in the header's preamble)
//!
//! - Every name starts with `hl_`; handles (`hl_applier`, `hl_workspace`, `hl_text_editor`,
//!   `hl_result`, `hl_edit`, `hl_text`, `hl_edit_outcome`, `hl_patch_result`, `hl_patch_outcome`,
//!   `hl_error`) are opaque and each has a `_free` function that accepts NULL.
//! - Every function that can fail returns a [`hl_status`]; `HL_STATUS_OK` is 0. On failure no
//!   out-parameter is written, except `*error` for the engine statuses.
//! - Texts in are `(const char *ptr, size_t len)` UTF-8, never assumed NUL-terminated (`ptr` may
//!   be NULL when `len` is 0: the empty text). A file that may not exist comes with a
//!   `bool ..._exists` flag, so "missing" is never confused with "empty". Texts out are
//!   `(ptr, len)` and also NUL-terminated.
//! - No panic crosses into C: it becomes `HL_STATUS_PANIC` ([`ffi_guard`]).
//! - Threads: a handle may move between threads but must not be used by two at once (the
//!   applier, the workspace and the text editor refuse an overlapping call); results and errors
//!   are immutable and may be read concurrently.
//!
//! # Modules
//!
//! The exported items, in header order: [`version`], [`status`], [`position`] (`hl_position`),
//! [`failure`] (`hl_error`, `hl_match`) and [`error`] (what C reads of them), [`result`],
//! [`cline`] (the Cline drop-in and its resume cache), [`options`] and [`applier`] (the
//! streaming applier), [`apply`] (`hl_apply_diff`, the stateless entry point, `native` by
//! default), [`lines`], [`ops`] (`str_replace`, line inserts, Roo's `insert_content`) with
//! [`edit`] (their result), [`fixes`] (Cline's `write_to_file` content fixes) with
//! [`owned_text`] (their result), [`lazy`] (`hl_apply_lazy`, lazy edits merged without a model,
//! into a `hl_text`), [`patch`] (`hl_apply_patch`, multi-file patches in memory, and
//! its result), [`v4a`] (`hl_apply_v4a`, V4A per-file bodies as the OpenAI Agents SDK applies
//! them, and `hl_apply_patch_body`, the same body in the Codex dialect), [`workspace`]
//! (`hl_workspace_*`, the file layer `hunkloom-fs`) with [`edit_outcome`] and
//! [`patch_outcome`] (their results), [`text_editor`] (`hl_text_editor_*`, the text-editor tool
//! of `hunkloom-tools`, JSON text in and out), [`toolset`] (`hl_toolset_*`) and
//! [`edit_stream`] (a text-editor or toolset call applied while its JSON streams in).
//! Internal: [`args`] (C arguments in), [`text`] (NUL-terminated text out), [`utf8`] (chunks
//! ending mid-character), [`ffi_guard`] (the panic boundary).

#![deny(unsafe_op_in_unsafe_fn)]
// C names: `hl_applier`, `hl_status`, ... are what the header shows.
#![allow(non_camel_case_types)]

mod args;
mod failure;
mod ffi_guard;
mod position;
mod text;
mod utf8;

mod aider;
mod applier;
mod apply;
mod cline;
mod edit;
mod edit_outcome;
mod edit_stream;
mod error;
mod fixes;
mod lazy;
mod lines;
mod native_body;
mod ops;
mod options;
mod owned_text;
mod patch;
mod patch_outcome;
mod result;
mod status;
mod text_editor;
mod toolset;
mod v4a;
mod version;
mod workspace;

pub use aider::{
    hl_aider_applier, hl_aider_applier_changed, hl_aider_applier_finish, hl_aider_applier_free,
    hl_aider_applier_new, hl_aider_applier_preview, hl_aider_applier_push,
};
pub use applier::{
    hl_applier, hl_applier_finish, hl_applier_free, hl_applier_new, hl_applier_preview,
    hl_applier_push, hl_applier_snapshot, hl_update,
};
pub use apply::hl_apply_diff;
pub use cline::{
    HL_CLINE_V1, HL_CLINE_V2, hl_cache_stats, hl_cline_version, hl_construct_new_file_content,
    hl_resume_cache_set_capacity, hl_resume_cache_stats,
};
pub use edit::{
    hl_edit, hl_edit_content, hl_edit_first_line_range, hl_edit_free, hl_edit_normalization_count,
    hl_edit_normalization_name, hl_edit_replacements, hl_line_range,
};
pub use edit_outcome::{
    hl_edit_outcome, hl_edit_outcome_changed, hl_edit_outcome_content, hl_edit_outcome_edit,
    hl_edit_outcome_encoding, hl_edit_outcome_external_change,
    hl_edit_outcome_external_change_count, hl_edit_outcome_free, hl_edit_outcome_kind,
    hl_edit_outcome_path, hl_edit_outcome_result, hl_external_change,
};
pub use edit_stream::{
    HL_STREAM_COMMAND, HL_STREAM_PATH, HL_STREAM_PREVIEW, hl_edit_stream, hl_stream_text,
    hl_text_editor_stream_finish, hl_text_editor_stream_free, hl_text_editor_stream_new,
    hl_text_editor_stream_push, hl_text_editor_stream_text, hl_toolset_stream_new,
};
pub use error::{
    hl_error_code, hl_error_free, hl_error_match, hl_error_match_count, hl_error_message,
};
pub use failure::{hl_error, hl_match};
pub use fixes::{
    HL_FIX_MODEL_HTML_ESCAPING, HL_FIX_REMOVE_INVALID_CHARS, HL_FIX_STRIP_MARKDOWN_FENCES,
    hl_apply_model_content_fixes, hl_fix, hl_fix_model_html_escaping, hl_fix_name,
    hl_remove_invalid_chars, hl_strip_markdown_fences, hl_write,
};
pub use lazy::hl_apply_lazy;
pub use lines::hl_line_number_from_byte_index;
pub use native_body::{
    hl_native_body_applier, hl_native_body_applier_chunks, hl_native_body_applier_finish,
    hl_native_body_applier_free, hl_native_body_applier_new, hl_native_body_applier_preview,
    hl_native_body_applier_push,
};
pub use ops::{
    HL_EDIT_TYPE_CREATE, HL_EDIT_TYPE_MODIFY, HL_INSERT_AFTER, HL_INSERT_BEFORE, hl_edit_type,
    hl_insert, hl_insert_content, hl_insert_content_number, hl_insert_convention, hl_str_replace,
    hl_str_replace_options, hl_str_replace_with,
};
pub use options::{
    HL_DIALECT_CLINE_V1, HL_DIALECT_CLINE_V2, HL_DIALECT_DEFAULT, HL_DIALECT_NATIVE,
    HL_DIALECT_ROO, HL_DIALECT_UDIFF, HL_DIALECT_UDIFF_STRICT, HL_DURABILITY_FULL,
    HL_DURABILITY_NONE, HL_POLICY_ALL_OR_NOTHING, HL_POLICY_PARTIAL, HL_ROO_BUFFER_LINES_NONE,
    hl_applier_options, hl_apply_options, hl_dialect, hl_durability, hl_policy,
};
pub use owned_text::{hl_text, hl_text_content, hl_text_free};
pub use patch::{
    HL_PATCH_CHANGE_ADD, HL_PATCH_CHANGE_DELETE, HL_PATCH_CHANGE_UPDATE, HL_PATCH_DIALECT_AIDER,
    HL_PATCH_DIALECT_AIDER_FENCED, HL_PATCH_DIALECT_AIDER_NATIVE, HL_PATCH_DIALECT_AIDER_WHOLE,
    HL_PATCH_DIALECT_CLINE, HL_PATCH_DIALECT_CODEX, HL_PATCH_DIALECT_NATIVE,
    HL_PATCH_DIALECT_UDIFF, HL_PATCH_DIALECT_UDIFF_STRICT, hl_apply_patch, hl_patch_change,
    hl_patch_change_kind, hl_patch_dialect, hl_patch_file, hl_patch_options, hl_patch_result,
    hl_patch_result_change, hl_patch_result_change_count, hl_patch_result_deleted,
    hl_patch_result_deleted_count, hl_patch_result_failure, hl_patch_result_file,
    hl_patch_result_file_count, hl_patch_result_free, hl_patch_result_fuzz,
    hl_patch_result_warning, hl_patch_result_warning_count, hl_patch_warning,
};
pub use patch_outcome::{
    hl_patch_outcome, hl_patch_outcome_external_change, hl_patch_outcome_external_change_count,
    hl_patch_outcome_failure, hl_patch_outcome_file, hl_patch_outcome_file_count,
    hl_patch_outcome_free, hl_patch_outcome_fuzz, hl_patch_outcome_warning,
    hl_patch_outcome_warning_count, hl_patched_file,
};
pub use position::hl_position;
pub use result::{
    HL_BLOCK_ALREADY_APPLIED, HL_BLOCK_APPLIED, HL_BLOCK_FAILED, HL_UNIT_BYTES,
    HL_UNIT_CODE_POINTS, HL_UNIT_LINES, HL_UNIT_UTF16, hl_block, hl_block_status, hl_result,
    hl_result_block, hl_result_block_count, hl_result_block_normalization, hl_result_content,
    hl_result_failed_count, hl_result_free, hl_result_match_count, hl_result_match_index, hl_unit,
};
pub use status::{hl_status, hl_status_str};
pub use text_editor::{
    HL_PROFILE_ANTHROPIC, HL_PROFILE_DEFAULT, HL_PROFILE_NATIVE, HL_PROFILE_OPENHANDS,
    HL_REQUIRE_READ_DEFAULT, HL_REQUIRE_READ_NO, HL_REQUIRE_READ_YES, hl_profile, hl_require_read,
    hl_text_editor, hl_text_editor_call, hl_text_editor_free, hl_text_editor_new,
    hl_text_editor_options, hl_text_editor_schema,
};
pub use toolset::{
    HL_SEMANTICS_NATIVE, HL_SEMANTICS_REFERENCE, hl_semantics, hl_toolset, hl_toolset_call,
    hl_toolset_free, hl_toolset_new, hl_toolset_options, hl_toolset_tools,
};
pub use v4a::{
    HL_V4A_MODE_CREATE, HL_V4A_MODE_DEFAULT, hl_apply_patch_body, hl_apply_v4a, hl_v4a_mode,
};
pub use version::{HL_VERSION_MAJOR, HL_VERSION_MINOR, HL_VERSION_PATCH, hl_version};
pub use workspace::{
    hl_workspace, hl_workspace_apply_diff, hl_workspace_apply_lazy, hl_workspace_apply_patch,
    hl_workspace_free, hl_workspace_insert, hl_workspace_open, hl_workspace_options,
    hl_workspace_read, hl_workspace_root, hl_workspace_str_replace, hl_workspace_undo,
    hl_workspace_write,
};

/// What this crate's own tests (`tests/c_abi`) need beyond the `extern "C"` functions: the
/// status each error kind maps to, and the handle behind an object, to inject a panic or hold a
/// call open. Not part of any API (the library is used through `include/hunkloom.h`).
#[doc(hidden)]
pub mod testing {
    use std::sync::Arc;

    use hunkloom_handle::{Handle, Shared};
    use hunkloom_tools::TextEditor;

    use crate::{hl_applier, hl_status, hl_text_editor, hl_workspace};

    pub use crate::failure::status_of;

    /// The status of a call whose body panics, through the guard every function runs in.
    pub fn panicking_call() -> hl_status {
        crate::ffi_guard::guard(|| panic!("any body"))
    }

    /// The handle behind an applier.
    ///
    /// # Safety
    /// `applier` must be live for `'a`.
    pub unsafe fn applier_handle<'a>(applier: *mut hl_applier) -> &'a Handle<impl Sized> {
        // SAFETY: live for 'a (this function's contract).
        unsafe { &(*applier).handle }
    }

    /// The handle behind a text editor.
    ///
    /// # Safety
    /// `editor` must be live for `'a`.
    pub unsafe fn text_editor_handle<'a>(
        editor: *mut hl_text_editor,
    ) -> &'a Arc<Shared<TextEditor>> {
        // SAFETY: live for 'a (this function's contract).
        unsafe { &(*editor).handle }
    }

    /// The handle behind a workspace.
    ///
    /// # Safety
    /// `workspace` must be live for `'a`.
    pub unsafe fn workspace_handle<'a>(
        workspace: *mut hl_workspace,
    ) -> &'a Shared<hunkloom_fs::Workspace> {
        // SAFETY: live for 'a (this function's contract).
        unsafe { &(*workspace).handle }
    }
}

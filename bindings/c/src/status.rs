//! [`hl_status`]: what every fallible function returns, and [`hl_status_str`] to print it.
//!
//! The numbers are part of the ABI: they never change, and new statuses get new numbers. The
//! statuses from [`hl_status::EditRejected`] on are the engine's error families: the functions
//! that take a `hl_error **error` out-parameter also hand over a [`hl_error`](crate::hl_error)
//! with the engine's stable code and message for them.

use std::ffi::{CStr, c_char, c_uint};

/// What a `hl_` function returns: `HL_STATUS_OK` (0) on success, otherwise why it failed.
///
/// On failure a function changes none of its out-parameters, except that functions taking a
/// `hl_error **error` set `*error` for the engine statuses (`HL_STATUS_EDIT_REJECTED` and the
/// ones after it). The numeric values are fixed forever; later versions only add new ones.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum hl_status {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL (or a text pointer was NULL with a non-zero length).
    NullArgument = 1,
    /// Text was not valid UTF-8 (for `hl_applier_push`: invalid bytes anywhere in the chunk; for
    /// `hl_applier_finish`: a character still incomplete at the end of the diff). Nothing changed.
    InvalidUtf8 = 2,
    /// An index, length or enumeration value was outside its range (e.g. a match index at or
    /// past `hl_result_match_count`, or a `hl_unit` that is not one of the `HL_UNIT_` values).
    OutOfRange = 3,
    /// hunkloom panicked: a bug in hunkloom, caught before it reached C (the core's code
    /// `internal_error`, reported without a `hl_error`). A handle it happened on is retired and
    /// returns `HL_STATUS_PANIC` from then on; it is still safe (and required) to free it.
    Panic = 4,
    /// The engine rejected the edit: it cannot be applied to this text; `hl_error_code` says
    /// which code. The message is meant to be shown to the model (in the Cline dialects it is
    /// Cline's exact text). Codes: not found (`search_not_found`, `empty_search_nonempty_file`,
    /// `match_before_previous_block`, `not_found`, `patch_context_not_found`, `lazy_no_anchor`);
    /// ambiguous (`ambiguous_match`, `multiple_matches`, `lazy_ambiguous`); not possible as
    /// asked (`old_equals_new`,
    /// `file_exists`, `file_not_found`, `invalid_line`, `invalid_line_number`,
    /// `invalid_line_for_new_file`, `nothing_to_undo`, `conflicting_changes`,
    /// `patch_file_not_found`, `patch_file_exists`, `patch_empty_content`,
    /// `omission_placeholder`, `lazy_silent_deletion`, `lazy_conflict`, `lazy_indentation`,
    /// `unrepresentable_text`, `suspected_truncation`, `line_number_prefixes`,
    /// `truncation_notice`); malformed
    /// (`malformed_block`, `invalid_state_transition`, `incomplete_at_finish`,
    /// `overlapping_blocks`, `invalid_patch`, `invalid_patch_hunk`, `empty_patch`,
    /// `duplicate_patch_path`).
    EditRejected = 5,
    /// An option the host chose has a value the engine does not know (codes `invalid_version`,
    /// `invalid_dialect`, `invalid_profile`, `invalid_convention`, `invalid_fix`,
    /// `invalid_policy`, `invalid_language`, `invalid_glob`), or a text-editor tool call's input
    /// is not a JSON object (code `invalid_input`).
    InvalidOption = 6,
    /// The applier has already finished (code `already_finished`); create a new one.
    AlreadyFinished = 7,
    /// Another call on the same applier or workspace was in progress, on another thread (code
    /// `concurrent_use`); nothing was done. Use each handle from one thread at a time.
    ConcurrentUse = 8,
    /// An engine error of a kind newer than this list of families; `hl_error_code` tells which.
    EngineError = 9,
    /// The workspace refuses the path (codes `path_outside_root`, `unc_path`, `path_ignored`,
    /// `notebook_not_supported`, and `path_protected` for a write to a protected path, which can
    /// still be read); nothing was read or written.
    PathRefused = 10,
    /// The file must be read (again) before it is edited (codes `not_read`, `stale_file`); nothing
    /// was written.
    StaleFile = 11,
    /// The file cannot be edited safely (codes `unsupported_encoding`, `file_too_large`); it was
    /// left untouched.
    UnsupportedFile = 12,
    /// The operating system refused a file operation (code `io_error`; the message has the
    /// system's text), or a call waited past its lock timeout for its turn (code
    /// `lock_timeout`). A multi-file commit that fails this way was rolled back.
    IoError = 13,
    /// The memory a call needs could not be had (code `out_of_memory`); nothing was written,
    /// and the process goes on.
    OutOfMemory = 14,
}

impl hl_status {
    /// Every status, in numeric order.
    pub(crate) const ALL: [hl_status; 15] = [
        hl_status::Ok,
        hl_status::NullArgument,
        hl_status::InvalidUtf8,
        hl_status::OutOfRange,
        hl_status::Panic,
        hl_status::EditRejected,
        hl_status::InvalidOption,
        hl_status::AlreadyFinished,
        hl_status::ConcurrentUse,
        hl_status::EngineError,
        hl_status::PathRefused,
        hl_status::StaleFile,
        hl_status::UnsupportedFile,
        hl_status::IoError,
        hl_status::OutOfMemory,
    ];

    /// A short description, for logs.
    fn description(self) -> &'static CStr {
        match self {
            hl_status::Ok => c"ok",
            hl_status::NullArgument => c"null argument",
            hl_status::InvalidUtf8 => c"invalid UTF-8",
            hl_status::OutOfRange => c"out of range",
            hl_status::Panic => c"internal panic",
            hl_status::EditRejected => c"edit rejected",
            hl_status::InvalidOption => c"invalid option",
            hl_status::AlreadyFinished => c"already finished",
            hl_status::ConcurrentUse => c"concurrent use",
            hl_status::EngineError => c"engine error",
            hl_status::PathRefused => c"path refused",
            hl_status::StaleFile => c"stale file",
            hl_status::UnsupportedFile => c"unsupported file",
            hl_status::IoError => c"I/O error",
            hl_status::OutOfMemory => c"out of memory",
        }
    }
}

/// A short English description of a status (e.g. "null argument"), for logs: static,
/// NUL-terminated, owned by the library and valid for the life of the process; do not free it.
///
/// It takes an `unsigned int` rather than a `hl_status` so that any value is safe to pass: a
/// value that is not a status gives "unknown status".
#[unsafe(no_mangle)]
pub extern "C" fn hl_status_str(status: c_uint) -> *const c_char {
    hl_status::ALL
        .iter()
        .find(|s| **s as c_uint == status)
        .map_or(c"unknown status", |s| s.description())
        .as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_status_at_its_number() {
        for (i, s) in hl_status::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
        // SAFETY: hl_status_str returns static NUL-terminated strings.
        let text = |n| {
            unsafe { CStr::from_ptr(hl_status_str(n)) }
                .to_str()
                .expect("ASCII")
        };
        assert_eq!(text(0), "ok");
        assert_eq!(text(2), "invalid UTF-8");
        assert_eq!(text(9), "engine error");
        assert_eq!(text(13), "I/O error");
        assert_eq!(text(14), "out of memory");
        assert_eq!(text(15), "unknown status");
        assert_eq!(text(u32::MAX), "unknown status");
    }
}

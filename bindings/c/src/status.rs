//! [`pl_status`]: what every fallible function returns, and [`pl_status_str`] to print it.
//!
//! The numbers are part of the ABI: they never change, and new statuses get new numbers. The
//! statuses from [`pl_status::EditRejected`] on are the engine's error families: the functions
//! that take a `pl_error **error` out-parameter also hand over a [`pl_error`](crate::pl_error)
//! with the engine's stable code and message for them.

use std::ffi::{CStr, c_char, c_uint};

/// What a `pl_` function returns: `PL_STATUS_OK` (0) on success, otherwise why it failed.
///
/// On failure a function changes none of its out-parameters, except that functions taking a
/// `pl_error **error` set `*error` for the engine statuses (`PL_STATUS_EDIT_REJECTED` and the
/// ones after it). The numeric values are fixed forever; later versions only add new ones.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum pl_status {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL (or a text pointer was NULL with a non-zero length).
    NullArgument = 1,
    /// Text was not valid UTF-8 (for `pl_applier_push`: invalid bytes anywhere in the chunk; for
    /// `pl_applier_finish`: a character still incomplete at the end of the diff). Nothing changed.
    InvalidUtf8 = 2,
    /// An index, length or enumeration value was outside its range (e.g. a match index at or
    /// past `pl_result_match_count`, or a `pl_unit` that is not one of the `PL_UNIT_` values).
    OutOfRange = 3,
    /// patchloom panicked: a bug in patchloom, caught before it reached C. A handle it happened
    /// on returns `PL_STATUS_PANIC` from then on; it is still safe (and required) to free it.
    Panic = 4,
    /// The engine rejected the edit: it cannot be applied to this text (e.g. codes
    /// `search_not_found`, `malformed_block`, and in `native` `ambiguous_match`,
    /// `overlapping_blocks`); `pl_error_code` says which. The message is meant to be shown to the
    /// model (in the Cline dialects it is Cline's exact text).
    EditRejected = 5,
    /// An option the host chose has a value the engine does not know (e.g. codes
    /// `invalid_version`, `invalid_dialect`, `invalid_policy`).
    InvalidOption = 6,
    /// The applier has already finished (code `already_finished`); create a new one.
    AlreadyFinished = 7,
    /// Another call on the same applier was in progress, on another thread (code
    /// `concurrent_use`); nothing was done. Use each applier from one thread at a time.
    ConcurrentUse = 8,
    /// An engine error of a kind newer than this list of families; `pl_error_code` tells which.
    EngineError = 9,
    /// The workspace refuses the path (codes `path_outside_root`, `unc_path`, `path_ignored`,
    /// `notebook_not_supported`); nothing was read or written.
    PathRefused = 10,
    /// The file must be read (again) before it is edited (codes `not_read`, `stale_file`); nothing
    /// was written.
    StaleFile = 11,
    /// The file cannot be edited safely (codes `unsupported_encoding`, `file_too_large`); it was
    /// left untouched.
    UnsupportedFile = 12,
    /// The operating system refused a file operation (code `io_error`; the message has the
    /// system's text). A multi-file commit that fails this way was rolled back.
    IoError = 13,
}

impl pl_status {
    /// Every status, in numeric order.
    pub(crate) const ALL: [pl_status; 14] = [
        pl_status::Ok,
        pl_status::NullArgument,
        pl_status::InvalidUtf8,
        pl_status::OutOfRange,
        pl_status::Panic,
        pl_status::EditRejected,
        pl_status::InvalidOption,
        pl_status::AlreadyFinished,
        pl_status::ConcurrentUse,
        pl_status::EngineError,
        pl_status::PathRefused,
        pl_status::StaleFile,
        pl_status::UnsupportedFile,
        pl_status::IoError,
    ];

    /// A short description, for logs.
    fn description(self) -> &'static CStr {
        match self {
            pl_status::Ok => c"ok",
            pl_status::NullArgument => c"null argument",
            pl_status::InvalidUtf8 => c"invalid UTF-8",
            pl_status::OutOfRange => c"out of range",
            pl_status::Panic => c"internal panic",
            pl_status::EditRejected => c"edit rejected",
            pl_status::InvalidOption => c"invalid option",
            pl_status::AlreadyFinished => c"already finished",
            pl_status::ConcurrentUse => c"concurrent use",
            pl_status::EngineError => c"engine error",
            pl_status::PathRefused => c"path refused",
            pl_status::StaleFile => c"stale file",
            pl_status::UnsupportedFile => c"unsupported file",
            pl_status::IoError => c"I/O error",
        }
    }
}

/// A short English description of a status (e.g. "null argument"), for logs: static,
/// NUL-terminated, owned by the library and valid for the life of the process; do not free it.
///
/// It takes an `unsigned int` rather than a `pl_status` so that any value is safe to pass: a
/// value that is not a status gives "unknown status".
#[unsafe(no_mangle)]
pub extern "C" fn pl_status_str(status: c_uint) -> *const c_char {
    pl_status::ALL
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
        for (i, s) in pl_status::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
        // SAFETY: pl_status_str returns static NUL-terminated strings.
        let text = |n| {
            unsafe { CStr::from_ptr(pl_status_str(n)) }
                .to_str()
                .expect("ASCII")
        };
        assert_eq!(text(0), "ok");
        assert_eq!(text(2), "invalid UTF-8");
        assert_eq!(text(9), "engine error");
        assert_eq!(text(13), "I/O error");
        assert_eq!(text(14), "unknown status");
        assert_eq!(text(u32::MAX), "unknown status");
    }
}

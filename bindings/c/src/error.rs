//! [`hl_error`]: an engine error handed to C, and the mapping from the engine's error kinds to
//! [`hl_status`] families (the one place that knows them).
//!
//! The code is the engine's own [`Error::code`] (stable snake_case); the message is the engine's
//! [`Error::message`] (Cline's exact text in the Cline dialects). Nothing is re-spelled here.

use std::ffi::c_char;

use engine::{Error, ErrorFamily, ErrorKind};

use crate::args::{Out, handle};
use crate::ffi_guard::{guard, guard_void};
use crate::result::hl_position;
use crate::status::hl_status;
use crate::text::CText;

/// An error from the engine: a stable code (e.g. `search_not_found`) and a message.
///
/// Created by the functions that take a `hl_error **error` out-parameter when they return an
/// engine status; owned by the caller, who frees it with `hl_error_free`. Immutable, so it may be
/// read from several threads at once.
#[derive(Debug)]
pub struct hl_error {
    code: CText,
    message: CText,
    /// Every place an ambiguous text matched (`multiple_matches`, `ambiguous_match`); empty
    /// for other errors.
    matches: Box<[hl_match]>,
}

/// One place an ambiguous text matched: where it starts and ends (exclusive) in the text that
/// was searched, in every unit, and the last 1-based line it covers (`end.line`, less one when
/// the match ends with a line feed).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hl_match {
    /// Where the match starts; `start.line` is its first line.
    pub start: hl_position,
    /// Where it ends (exclusive).
    pub end: hl_position,
    /// The last line it covers.
    pub last_line: usize,
}

impl hl_error {
    /// A heap copy of `e` for C.
    pub(crate) fn boxed(e: &Error) -> Box<hl_error> {
        let matches = e.matches().unwrap_or_default().iter().map(|m| hl_match {
            start: m.start.into(),
            end: m.end.into(),
            last_line: m.last_line,
        });
        Box::new(hl_error {
            code: CText::from_str(e.code()),
            message: CText::from_str(e.message()),
            matches: matches.collect(),
        })
    }
}

/// Why a call failed, inside the library: a status of its own, or an engine error.
#[derive(Debug)]
pub(crate) enum Failure {
    /// A failure the binding detected (NULL, UTF-8, range).
    Status(hl_status),
    /// An error from the engine, reported with its family's status and as a `hl_error`.
    Engine(Error),
}

impl Failure {
    /// The status returned to C.
    pub(crate) fn status(&self) -> hl_status {
        match self {
            Failure::Status(s) => *s,
            Failure::Engine(e) => status_of(e.kind()),
        }
    }
}

impl From<hl_status> for Failure {
    fn from(status: hl_status) -> Self {
        Failure::Status(status)
    }
}

impl From<Error> for Failure {
    /// An engine error, except a caught panic (`internal_error`), which is the plain
    /// `HL_STATUS_PANIC`: like every status before `HL_STATUS_EDIT_REJECTED` it comes without
    /// a `hl_error`.
    fn from(e: Error) -> Self {
        match e.kind().family() {
            ErrorFamily::Internal => Failure::Status(hl_status::Panic),
            _ => Failure::Engine(e),
        }
    }
}

/// The status of an engine error kind: one per core family, except that the four families of
/// an edit that cannot be applied (not found, ambiguous, invalid, malformed) share
/// `HL_STATUS_EDIT_REJECTED`. A family added to the core later maps to `EngineError` until it is
/// classified here (a unit test fails until then).
pub(crate) fn status_of(kind: ErrorKind) -> hl_status {
    match kind.family() {
        ErrorFamily::NotFound
        | ErrorFamily::Ambiguous
        | ErrorFamily::InvalidEdit
        | ErrorFamily::MalformedDiff => hl_status::EditRejected,
        ErrorFamily::InvalidOption => hl_status::InvalidOption,
        ErrorFamily::AlreadyFinished => hl_status::AlreadyFinished,
        ErrorFamily::ConcurrentUse => hl_status::ConcurrentUse,
        ErrorFamily::PathRefused => hl_status::PathRefused,
        ErrorFamily::StaleFile => hl_status::StaleFile,
        ErrorFamily::UnsupportedFile => hl_status::UnsupportedFile,
        ErrorFamily::Io => hl_status::IoError,
        ErrorFamily::Internal => hl_status::Panic,
        ErrorFamily::OutOfMemory => hl_status::OutOfMemory,
        _ => hl_status::EngineError,
    }
}

/// The error's stable snake_case code (e.g. `search_not_found`), for programs to branch on.
///
/// On success `*code` points to NUL-terminated ASCII of `*code_len` bytes, owned by `error` and
/// valid until `hl_error_free(error)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `error` must be a live `hl_error`; `code` and `code_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_error_code(
    error: *const hl_error,
    code: *mut *const c_char,
    code_len: *mut usize,
) -> hl_status {
    guard(|| {
        let (code, code_len) = (Out::new(code)?, Out::new(code_len)?);
        // SAFETY: the caller passes a live hl_error (this function's contract).
        let e = unsafe { handle(error) }?;
        // SAFETY: both out-pointers are non-NULL and writable (this function's contract).
        unsafe {
            code.write(e.code.as_ptr());
            code_len.write(e.code.len());
        }
        Ok(())
    })
}

/// The error's message, for people and models (in the Cline dialects Cline's exact text, which
/// may be empty, and may quote the diff, so it can contain any character).
///
/// On success `*message` points to `*message_len` bytes of UTF-8 followed by a NUL, owned by
/// `error` and valid until `hl_error_free(error)`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `error` must be a live `hl_error`; `message` and `message_len` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_error_message(
    error: *const hl_error,
    message: *mut *const c_char,
    message_len: *mut usize,
) -> hl_status {
    guard(|| {
        let (message, message_len) = (Out::new(message)?, Out::new(message_len)?);
        // SAFETY: the caller passes a live hl_error (this function's contract).
        let e = unsafe { handle(error) }?;
        // SAFETY: both out-pointers are non-NULL and writable (this function's contract).
        unsafe {
            message.write(e.message.as_ptr());
            message_len.write(e.message.len());
        }
        Ok(())
    })
}

/// How many places an ambiguous text matched (`multiple_matches`, `ambiguous_match`); 0 for
/// other errors. Read each with `hl_error_match`.
///
/// @return `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `error` must be a live `hl_error`; `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_error_match_count(
    error: *const hl_error,
    count: *mut usize,
) -> hl_status {
    guard(|| {
        let count = Out::new(count)?;
        // SAFETY: the caller passes a live hl_error (this function's contract).
        let e = unsafe { handle(error) }?;
        // SAFETY: `count` is non-NULL and writable (this function's contract).
        unsafe { count.write(e.matches.len()) };
        Ok(())
    })
}

/// The `index`-th place (from 0, in file order) an ambiguous text matched.
///
/// @return `HL_STATUS_OUT_OF_RANGE` if `index` is not below `hl_error_match_count`;
/// `HL_STATUS_NULL_ARGUMENT` if any pointer is NULL.
///
/// # Safety
/// `error` must be a live `hl_error`; `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_error_match(
    error: *const hl_error,
    index: usize,
    out: *mut hl_match,
) -> hl_status {
    guard(|| {
        let out = Out::new(out)?;
        // SAFETY: the caller passes a live hl_error (this function's contract).
        let e = unsafe { handle(error) }?;
        let m = *e.matches.get(index).ok_or(hl_status::OutOfRange)?;
        // SAFETY: `out` is non-NULL and writable (this function's contract).
        unsafe { out.write(m) };
        Ok(())
    })
}

/// Frees an error. NULL is allowed and does nothing. Pointers obtained from it become invalid.
///
/// # Safety
/// `error` must be NULL or a `hl_error` from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_error_free(error: *mut hl_error) {
    guard_void(|| {
        if !error.is_null() {
            // SAFETY: a non-NULL `error` was made by `Box::into_raw` in `guard_with_error` and
            // is freed once (the caller's contract).
            drop(unsafe { Box::from_raw(error) });
        }
    })
}

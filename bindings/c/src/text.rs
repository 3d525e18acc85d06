//! Text handed to C: length-delimited *and* NUL-terminated.
//!
//! The engine's strings are Rust `String`s without a terminator, so every text the library
//! returns is kept in a [`CText`]: its bytes plus one trailing NUL that is not counted in its
//! length. A C host can use either `(ptr, len)` or `ptr` alone (when the text has no NUL of its
//! own).

use std::ffi::c_char;
use std::ops::Range;

/// Owned UTF-8 text followed by a NUL byte that is not part of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CText {
    /// The text's bytes, then exactly one 0 byte.
    bytes: Vec<u8>,
}

impl CText {
    /// The empty text.
    pub(crate) fn new() -> Self {
        CText { bytes: vec![0] }
    }

    /// Takes `text` over (one reallocation at most, for the terminator).
    pub(crate) fn from_string(text: String) -> Self {
        let mut bytes = text.into_bytes();
        bytes.push(0);
        CText { bytes }
    }

    /// Copies `text`.
    pub(crate) fn from_str(text: &str) -> Self {
        let mut c = CText::new();
        c.set(text);
        c
    }

    /// Replaces the content with a copy of `text`, reusing the allocation.
    pub(crate) fn set(&mut self, text: &str) {
        self.bytes.clear();
        self.bytes.reserve(text.len() + 1);
        self.bytes.extend_from_slice(text.as_bytes());
        self.bytes.push(0);
    }

    /// Replaces `range` (in bytes, within the text) with `text`, keeping the terminator.
    ///
    /// # Panics
    /// If `range` is not within the text.
    pub(crate) fn splice(&mut self, range: Range<usize>, text: &str) {
        assert!(
            range.start <= range.end && range.end <= self.len(),
            "splice outside the text"
        );
        self.bytes.splice(range, text.bytes());
    }

    /// The length in bytes, without the terminator.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len() - 1
    }

    /// A pointer to the first byte; the text is NUL-terminated at `ptr + len()`.
    pub(crate) fn as_ptr(&self) -> *const c_char {
        self.bytes.as_ptr().cast()
    }
}

impl Default for CText {
    fn default() -> Self {
        CText::new()
    }
}

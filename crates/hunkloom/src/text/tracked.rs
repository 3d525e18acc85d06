//! A growable text that knows its length in every unit, so splices of a live preview can be
//! reported in bytes, UTF-16 units and chars without rescanning it.

use super::offsets::{TextOffset, measure};

/// A `String` plus its length in UTF-16 units and chars, kept current on every append and cut.
#[derive(Clone, Debug, Default)]
pub(crate) struct TrackedText {
    text: String,
    utf16: usize,
    chars: usize,
}

impl TrackedText {
    /// An empty text with room for `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        TrackedText {
            text: String::with_capacity(capacity),
            ..TrackedText::default()
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    pub(crate) fn len(&self) -> usize {
        self.text.len()
    }

    /// The end of the text as an offset in every unit.
    pub(crate) fn end(&self) -> TextOffset {
        TextOffset {
            bytes: self.text.len(),
            utf16: self.utf16,
            chars: self.chars,
        }
    }

    pub(crate) fn push_str(&mut self, s: &str) {
        let c = measure(s.as_bytes());
        self.utf16 += c.utf16();
        self.chars += c.chars;
        self.text.push_str(s);
    }

    /// Cuts the text back to `len` bytes (a char boundary); costs the length removed.
    pub(crate) fn truncate(&mut self, len: usize) {
        if len >= self.text.len() {
            return;
        }
        let c = measure(&self.text.as_bytes()[len..]);
        self.utf16 -= c.utf16();
        self.chars -= c.chars;
        self.text.truncate(len);
    }

    pub(crate) fn into_string(self) -> String {
        self.text
    }
}

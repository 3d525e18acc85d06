//! Exact substring search, as JavaScript's `indexOf(needle, from)`.

use memchr::memmem;

/// The byte offset of the first occurrence of a non-empty `needle` at or after `from`; `None`
/// when `from` is past the end, as in JavaScript.
pub(crate) fn find_exact(text: &str, needle: &str, from: usize) -> Option<usize> {
    debug_assert!(!needle.is_empty());
    let hay = text.as_bytes().get(from..)?;
    memmem::find(hay, needle.as_bytes()).map(|i| i + from)
}

//! Where the lines of a text begin: at 0 and after each `\n`.
//!
//! The line indexes of both dialects start from this and then close the last line by their
//! own convention (Cline: as if one more `\n` followed, so a final `\n` opens an empty line;
//! `native`: a final `\n` ends the last line), which is why the end of the text is not added
//! here.

/// The byte offsets where the lines of `text` begin: 0, then one past each `\n`.
pub(crate) fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::with_capacity(text.len() / 32 + 2);
    starts.push(0);
    starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_after_each_newline() {
        assert_eq!(line_starts(""), vec![0]);
        assert_eq!(line_starts("a"), vec![0]);
        assert_eq!(line_starts("a\n"), vec![0, 2]);
        assert_eq!(line_starts("a\r\n\nbc\nd"), vec![0, 3, 4, 7]);
    }
}

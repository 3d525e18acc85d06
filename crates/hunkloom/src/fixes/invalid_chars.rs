//! Removing replacement characters a broken byte sequence left in model output.

/// Cline's `removeInvalidChars`: removes every U+FFFD REPLACEMENT CHARACTER.
pub fn remove_invalid_chars(text: &str) -> String {
    text.replace('\u{FFFD}', "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_only_u_fffd() {
        assert_eq!(remove_invalid_chars("a\u{FFFD}b\u{FFFE}"), "ab\u{FFFE}");
    }
}

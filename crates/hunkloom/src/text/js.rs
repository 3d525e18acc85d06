//! JavaScript string semantics, exactly.
//!
//! Cline compares lines with `String.prototype.trim()`, whose whitespace set (ECMAScript
//! *WhiteSpace* plus *LineTerminator*) differs from Rust's `char::is_whitespace`: it includes
//! U+FEFF and excludes U+0085 and U+180E.

/// Whether `c` is removed by JavaScript's `String.prototype.trim`.
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{000B}' | '\u{000C}' | '\r' | ' ' | '\u{00A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// `s.trim()` as JavaScript computes it.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// `s.trimEnd()` as JavaScript computes it.
pub fn js_trim_end(s: &str) -> &str {
    s.trim_end_matches(is_js_whitespace)
}

/// `s.trimStart()` as JavaScript computes it.
pub fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(is_js_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differs_from_rust_trim_where_javascript_does() {
        assert_eq!(js_trim("\u{FEFF}a\u{FEFF}"), "a");
        assert_eq!(js_trim("\u{0085}a\u{0085}"), "\u{0085}a\u{0085}");
        assert_eq!(js_trim("\u{200B}a"), "\u{200B}a");
        assert_eq!(js_trim("\u{180E}a"), "\u{180E}a");
        assert_eq!(js_trim("\u{3000}\u{000B}\u{000C}a\r"), "a");
        assert_eq!(js_trim_end("  a \u{2028}"), "  a");
    }
}

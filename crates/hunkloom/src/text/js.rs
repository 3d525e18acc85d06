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

/// The edit distance (insertions, deletions, substitutions) over UTF-16 code units, as the
/// JavaScript libraries the references use compute it (`fast-levenshtein`, VS Code's).
pub fn js_edit_distance(a: &[u16], b: &[u16]) -> usize {
    super::edit_distance(a, b)
}

/// `s.split(/\r?\n/)` as JavaScript computes it: a `\r` goes with the `\n` after it, a lone
/// one stays in its line; `""` gives one empty line.
pub fn js_split_lines(s: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = s.split('\n').collect();
    let last = lines.len() - 1;
    for line in &mut lines[..last] {
        *line = line.strip_suffix('\r').unwrap_or(line);
    }
    lines
}

/// `s.trimStart()` as JavaScript computes it.
pub fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(is_js_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_lines_takes_crlf_and_lf() {
        assert_eq!(js_split_lines("a\r\nb\nc\r"), ["a", "b", "c\r"]);
        assert_eq!(js_split_lines(""), [""]);
    }

    #[test]
    fn edit_distance_counts_utf16_units() {
        let u = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
        assert_eq!(js_edit_distance(&u("kitten"), &u("sitting")), 3);
        assert_eq!(js_edit_distance(&u(""), &u("abc")), 3);
        assert_eq!(js_edit_distance(&u("😀"), &u("a")), 2);
    }

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

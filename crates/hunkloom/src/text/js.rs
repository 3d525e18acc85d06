//! JavaScript string semantics, exactly.
//!
//! Cline compares lines with `String.prototype.trim()`, whose whitespace set (ECMAScript
//! *WhiteSpace* plus *LineTerminator*) differs from Rust's `char::is_whitespace`: it includes
//! U+FEFF and excludes U+0085 and U+180E.

use crate::search::line_starts::ByteScan;

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
/// one stays in its line; `""` gives one empty line. One pass over the text: Roo's dialect
/// splits whole files with it.
pub fn js_split_lines(s: &str) -> Vec<&str> {
    let bytes = s.as_bytes();
    let mut lines = Vec::with_capacity(s.len() / 24 + 1);
    let mut start = 0;
    for newline in ByteScan::newlines(bytes) {
        let end = if newline > start && bytes[newline - 1] == b'\r' {
            newline - 1
        } else {
            newline
        };
        lines.push(&s[start..end]);
        start = newline + 1;
    }
    lines.push(&s[start..]);
    lines
}

/// `s.trimStart()` as JavaScript computes it.
pub fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(is_js_whitespace)
}

/// JavaScript's `String(n)` for a number: the shortest digits that round-trip, in plain
/// notation for exponents from -7 to 20 and in `1.5e+21` notation outside.
pub fn js_number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n == 0.0 {
        return "0".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if n.abs() < 9_007_199_254_740_992.0 && n.fract() == 0.0 {
        // An exactly held integer (line numbers, counts): its digits are the shortest ones.
        return format!("{n:.0}");
    }
    let sign = if n < 0.0 { "-" } else { "" };
    // `{:e}` gives the shortest round-trip digits, e.g. `1.5e0`, `1e21`, `1.2345e-7`.
    let sci = format!("{:e}", n.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i32;
    // The decimal point sits after `point` digits.
    let point = exp + 1;
    let body = if k <= point && point <= 21 {
        format!("{digits}{}", "0".repeat((point - k) as usize))
    } else if 0 < point && point <= 21 {
        format!(
            "{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    } else if -6 < point && point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else {
        let e = point - 1;
        let e_sign = if e >= 0 { "+" } else { "-" };
        let frac = if k == 1 {
            digits
        } else {
            format!("{}.{}", &digits[..1], &digits[1..])
        };
        format!("{frac}e{e_sign}{}", e.abs())
    };
    format!("{sign}{body}")
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

    #[test]
    fn number_to_string_like_javascript() {
        for (n, want) in [
            (0.0, "0"),
            (-0.0, "0"),
            (5.0, "5"),
            (1.5, "1.5"),
            (-2.25, "-2.25"),
            (100.0, "100"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (123.456, "123.456"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (f64::NAN, "NaN"),
            (-5.0, "-5"),
            (90.0, "90"),
            (-1e-7, "-1e-7"),
            (123456789012345680000.0, "123456789012345680000"),
        ] {
            assert_eq!(js_number_to_string(n), want, "{n}");
        }
    }
}

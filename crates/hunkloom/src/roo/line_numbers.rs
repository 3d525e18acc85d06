//! Roo's helpers for the `N | text` line-number prefixes its `read_file` tool writes: the test
//! that every line has one, the two ways of stripping them, and the numbering its error messages
//! show (`addLineNumbers`).

use crate::text::is_js_whitespace;
use crate::text::js_number_to_string;
pub(super) use crate::text::js_split_lines as split_lines;

/// Skips JavaScript whitespace from byte `at`.
fn skip_ws(s: &str, at: usize) -> usize {
    at + (s[at..].len() - s[at..].trim_start_matches(is_js_whitespace).len())
}

/// Skips ASCII digits from byte `at`.
fn skip_digits(s: &str, at: usize) -> usize {
    at + s[at..].bytes().take_while(u8::is_ascii_digit).count()
}

/// Where the text after `\s*\d+\s+\|(?!\|)` starts in `line`, if the line starts so.
fn numbered_prefix_end(line: &str) -> Option<usize> {
    let digits = skip_ws(line, 0);
    let after_digits = skip_digits(line, digits);
    if after_digits == digits {
        return None;
    }
    let pipe = skip_ws(line, after_digits);
    if pipe == after_digits || !line[pipe..].starts_with('|') || line[pipe + 1..].starts_with('|') {
        return None;
    }
    Some(pipe + 1)
}

/// `everyLineHasLineNumbers`: every line (split on `\r?\n`) starts with `N |` (not `N ||`).
pub(super) fn every_line_has_line_numbers(text: &str) -> bool {
    split_lines(text)
        .iter()
        .all(|l| numbered_prefix_end(l).is_some())
}

/// Whether `c` ends a line for JavaScript's `.` (which does not match it).
fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// `(\s?)(.*)$` or `\s(.*)$` after a prefix: the captured rest, if it has no line terminator
/// (`optional_space`: the space may be absent).
fn rest_after_space(rest: &str, optional_space: bool) -> Option<&str> {
    let first_ws = rest.chars().next().filter(|&c| is_js_whitespace(c));
    if let Some(c) = first_ws {
        let after = &rest[c.len_utf8()..];
        if !after.contains(is_line_terminator) {
            return Some(after);
        }
    }
    if optional_space && !rest.contains(is_line_terminator) {
        return Some(rest);
    }
    None
}

/// The text a line keeps when its prefix is stripped, or `None` if the pattern does not match.
fn stripped_line(line: &str, aggressive: bool) -> Option<&str> {
    if !aggressive {
        // /^\s*\d+\s+\|(?!\|)\s?(.*)$/
        return rest_after_space(&line[numbered_prefix_end(line)?..], true);
    }
    // /^\s*(?:\d+\s)?\|\s(.*)$/
    let at = skip_ws(line, 0);
    let after_digits = skip_digits(line, at);
    let pipe = if after_digits > at {
        let c = line[after_digits..]
            .chars()
            .next()
            .filter(|&c| is_js_whitespace(c))?;
        after_digits + c.len_utf8()
    } else {
        at
    };
    rest_after_space(line[pipe..].strip_prefix('|')?, false)
}

/// `stripLineNumbers(content, aggressive)`.
pub(super) fn strip_line_numbers(content: &str, aggressive: bool) -> String {
    let eol = if content.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut out = String::with_capacity(content.len());
    for (i, line) in split_lines(content).into_iter().enumerate() {
        if i > 0 {
            out.push_str(eol);
        }
        out.push_str(stripped_line(line, aggressive).unwrap_or(line));
    }
    if content.ends_with(eol) && !out.ends_with(eol) {
        out.push_str(eol);
    }
    out
}

/// `parseInt(text.split("\n")[0].split("|")[0])` where the text is known to start `\s*\d+`.
pub(super) fn first_line_number(text: &str) -> f64 {
    let first = text.split('\n').next().unwrap_or("");
    let first = first.split('|').next().unwrap_or("");
    let at = skip_ws(first, 0);
    let end = skip_digits(first, at);
    first[at..end].parse().unwrap_or(f64::NAN)
}

/// `addLineNumbers(content, startLine)`: `N | line` per `\n`-separated line, numbers padded to
/// one width, a final `\n`; `""` gives `""` (or `"N | \n"` when `start` is not 1).
pub(super) fn add_line_numbers(content: &str, start: f64) -> String {
    if content.is_empty() {
        return if start == 1.0 {
            String::new()
        } else {
            format!("{} | \n", js_number_to_string(start))
        };
    }
    let mut lines: Vec<&str> = content.split('\n').collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    let width = js_number_to_string(start + lines.len() as f64 - 1.0).len();
    let mut out = String::with_capacity(content.len() + lines.len() * (width + 3) + 1);
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let n = js_number_to_string(start + i as f64);
        out.extend(std::iter::repeat_n(' ', width.saturating_sub(n.len())));
        out.push_str(&n);
        out.push_str(" | ");
        out.push_str(line);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_and_strips_prefixes() {
        assert!(every_line_has_line_numbers("1 | a\n 12 |b"));
        assert!(!every_line_has_line_numbers("1 || a"));
        assert!(!every_line_has_line_numbers("1| a"));
        assert_eq!(strip_line_numbers("1 | a\n2 |  b\n", false), "a\n b\n");
        assert_eq!(strip_line_numbers("12  | x", true), "12  | x");
        assert_eq!(strip_line_numbers("| x\n3 | y", true), "x\ny");
        assert_eq!(strip_line_numbers("1 | a\r", false), "1 | a\r");
        assert_eq!(first_line_number("  42 | x\n43 | y"), 42.0);
        assert_eq!(split_lines("a\r\nb\r"), ["a", "b\r"]);
    }

    #[test]
    fn numbers_lines_with_padding() {
        assert_eq!(add_line_numbers("a\nb\n", 9.0), " 9 | a\n10 | b\n");
        assert_eq!(add_line_numbers("", 1.0), "");
        assert_eq!(add_line_numbers("", 3.0), "3 | \n");
    }
}

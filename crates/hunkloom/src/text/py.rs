//! Python string semantics, exactly: what `str.isspace()` (and so `strip()` and the regex
//! `\s`), `str.splitlines()` and `pathlib`'s `name` see, for the tools written in Python that
//! hunkloom reproduces (aider, the OpenAI Agents SDK's V4A reading, Anthropic's and OpenHands'
//! editors).

/// `c.isspace()` in Python: Unicode White_Space plus the information separators U+001C–U+001F.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `s.strip()`.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// `s.lstrip()`.
pub fn lstrip(s: &str) -> &str {
    s.trim_start_matches(is_space)
}

/// `s.rstrip()`.
pub fn rstrip(s: &str) -> &str {
    s.trim_end_matches(is_space)
}

/// A line boundary of `str.splitlines()` (`\r\n` counts as one).
pub fn is_boundary(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\u{b}'
            | '\u{c}'
            | '\u{1c}'
            | '\u{1d}'
            | '\u{1e}'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// `s.splitlines(keepends=True)`: each line with its boundary.
pub fn splitlines_keepends(s: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !is_boundary(c) {
            continue;
        }
        let mut end = at + c.len_utf8();
        if c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n') {
            chars.next();
            end += 1;
        }
        lines.push(&s[start..end]);
        start = end;
    }
    if start < s.len() {
        lines.push(&s[start..]);
    }
    lines
}

/// `s.splitlines()`: the lines without their boundaries.
pub fn splitlines(s: &str) -> Vec<&str> {
    splitlines_keepends(s)
        .into_iter()
        .map(|l| {
            let l = l.strip_suffix('\n').unwrap_or(l);
            let l = l.strip_suffix('\r').unwrap_or(l);
            match l.chars().next_back() {
                Some(c) if is_boundary(c) => &l[..l.len() - c.len_utf8()],
                _ => l,
            }
        })
        .collect()
}

/// `Path(p).name`: the last component (trailing slashes ignored, `.`/`..` give nothing).
pub fn path_name(p: &str) -> &str {
    let trimmed = p.trim_end_matches('/');
    let name = trimmed.rsplit('/').next().unwrap_or_default();
    if name == "." || name == ".." {
        ""
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitlines_is_pythons() {
        assert_eq!(
            splitlines_keepends("a\r\nb\rc\nd"),
            ["a\r\n", "b\r", "c\n", "d"]
        );
        assert_eq!(splitlines("a\r\nb\u{2028}c\n"), ["a", "b", "c"]);
        assert!(splitlines("").is_empty());
        assert_eq!(splitlines("\n"), [""]);
        assert_eq!(splitlines("a\nb\n"), ["a", "b"]);
        assert_eq!(splitlines("a\r\nb\x0cc"), ["a", "b", "c"]);
        assert_eq!(splitlines("\n\n"), ["", ""]);
        assert_eq!(splitlines("a\r\r\n"), ["a", ""]);
        assert_eq!(splitlines("a\u{2028}"), ["a"]);
    }

    #[test]
    fn whitespace_is_pythons() {
        assert_eq!(strip("\u{1f} x \u{85}"), "x");
        assert_eq!(strip("\u{feff}x"), "\u{feff}x");
    }

    #[test]
    fn path_names_are_pathlibs() {
        assert_eq!(path_name("a/b/c.py"), "c.py");
        assert_eq!(path_name("c.py/"), "c.py");
        assert_eq!(path_name("."), "");
    }
}

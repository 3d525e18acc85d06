//! Over-escaped blocks: tool arguments that went through one JSON encoding too many arrive with
//! their line breaks as the two characters `\n` (tabs as `\t`, quotes as `\"`), so a block's
//! SEARCH text is one long line that matches nothing.
//!
//! # The rule
//!
//! A SEARCH text of **one line** holding an escape (`\n`, `\t` or `\"`) that **no tier places
//! as written** is unescaped once ([`unescape`]: `\\`, `\n`, `\r`, `\t`, `\"`; any other
//! backslash stays) and split into lines at the line breaks that gives, and the cascade runs
//! again on those lines. If that places it, every REPLACE line of the block is unescaped and
//! split the same way, then written verbatim. A file that really holds the escaped text (a
//! string literal with `\n` in it) matches as written first, so it is never unescaped.

use super::search_text::SearchText;

/// `line` with one level of escapes undone, if it holds an escape this rule undoes.
pub(crate) fn unescape(line: &str) -> Option<String> {
    if !line.contains('\\') {
        return None;
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    let mut changed = false;
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let undone = match chars.clone().next() {
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some('"') => '"',
            Some('\\') => '\\',
            _ => {
                out.push(c);
                continue;
            }
        };
        chars.next();
        out.push(undone);
        changed = true;
    }
    changed.then_some(out)
}

/// The lines of the unescaped `line` (a `\r` before a line break dropped), or `line` itself
/// when it holds no escape.
pub(crate) fn lines(line: &str) -> Vec<String> {
    match unescape(line) {
        None => vec![line.to_owned()],
        Some(text) => text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l).to_owned())
            .collect(),
    }
}

/// The SEARCH text unescaped, when it is one line holding `\n`, `\t` or `\"`.
pub(crate) fn unescaped_search(search: &SearchText) -> Option<SearchText> {
    let [line] = search.lines.as_slice() else {
        return None;
    };
    if !["\\n", "\\t", "\\\""].iter().any(|e| line.contains(e)) {
        return None;
    }
    let lines = lines(line);
    let eol = search.eols[0];
    Some(SearchText {
        eols: vec![eol; lines.len()],
        lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_once() {
        assert_eq!(
            unescape(r#"a\n\tb(\"x\")\\n \d"#).as_deref(),
            Some("a\n\tb(\"x\")\\n \\d")
        );
        assert_eq!(unescape(r"C:\dir"), None);
        assert_eq!(lines(r"a\r\nb\n"), ["a", "b", ""]);
        let one = SearchText {
            lines: vec![r"if x:\n    go()".into()],
            eols: vec!["\n"],
        };
        let s = unescaped_search(&one).expect("escaped");
        assert_eq!(s.lines, ["if x:", "    go()"]);
        assert_eq!(s.eols, ["\n", "\n"]);
        let plain = SearchText {
            lines: vec![r"path = C:\dir".into()],
            eols: vec!["\n"],
        };
        assert_eq!(unescaped_search(&plain), None);
    }
}

//! The lines a deletion comment removes: the definition it names, with what is attached to it.
//!
//! - **Up** from the header over directly attached lines: no blank line between, the header's
//!   indentation (` *` lines of a block comment may have one more space), and each a comment
//!   (`//`, `/*`, `*`; `#` where `#` starts comments), a Rust attribute (`#[`) or a decorator
//!   or annotation (`@`).
//! - **Down** to the definition's end. By indentation (Python, and a header ending in `:` in a
//!   language not known): the last non-blank line before the next non-blank line indented no
//!   deeper than the header. By braces (the others): the first later line with the header's
//!   indentation that starts with `}`; a header that does not end in `{`, or ends in `{}`, is
//!   one line.
//! - Plus the blank lines directly above, or when there are none, those directly below.

use super::language::Language;
use super::render::indent_of;

/// Why a definition's span cannot be removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unremovable {
    /// Its end was not found: no closing `}` at its indentation.
    NoEnd,
    /// It reaches above the lower bound (`true`) or below the upper bound (`false`).
    Beyond {
        /// Above the lower bound.
        above: bool,
    },
}

/// The 0-based line range `[start, end)` removed with the definition headed by file line
/// `header`, which must lie within `bounds` (the lines it may remove: the gap where its comment
/// stands, less what other deletions remove); each walk stops at the bounds, so the cost is the
/// span's length.
pub(super) fn span(
    lang: Language,
    file: &[&str],
    header: usize,
    (low, high): (usize, usize),
) -> Result<(usize, usize), Unremovable> {
    let blank = |i: usize| file[i].trim().is_empty();
    let indent = indent_of(file[header]);
    let mut start = header;
    while start > low && attached(lang, file[start - 1], indent) {
        start -= 1;
    }
    if start == low && low > 0 && attached(lang, file[low - 1], indent) {
        return Err(Unremovable::Beyond { above: true });
    }
    let head = file[header].trim_end();
    let by_indentation = lang == Language::Python || (!lang_is_braced(lang) && head.ends_with(':'));
    let mut end = if by_indentation {
        let mut last = header;
        let mut i = header + 1;
        while i < high {
            if !blank(i) {
                if indent_of(file[i]).len() <= indent.len() {
                    break;
                }
                last = i;
            }
            i += 1;
        }
        if i == high
            && high < file.len()
            && (blank(high) || indent_of(file[high]).len() > indent.len())
        {
            return Err(Unremovable::Beyond { above: false });
        }
        last + 1
    } else if head.ends_with('{') && !head.ends_with("{}") {
        let close = (header + 1..high).find(|&i| {
            let line = file[i];
            indent_of(line) == indent && line[indent.len()..].starts_with('}')
        });
        match close {
            Some(close) => close + 1,
            None if high < file.len() => return Err(Unremovable::Beyond { above: false }),
            None => return Err(Unremovable::NoEnd),
        }
    } else {
        header + 1
    };
    let above = start;
    while start > low && blank(start - 1) {
        start -= 1;
    }
    if start == low && low > 0 && start < above && blank(low - 1) {
        return Err(Unremovable::Beyond { above: true });
    }
    if start == above {
        while end < high && blank(end) {
            end += 1;
        }
        if end == high && high < file.len() && blank(high) {
            return Err(Unremovable::Beyond { above: false });
        }
    }
    Ok((start, end))
}

/// Whether the language's blocks end with braces (a header ending in `:` does not open an
/// indented block there).
fn lang_is_braced(lang: Language) -> bool {
    matches!(
        lang,
        Language::TypeScript
            | Language::Go
            | Language::Rust
            | Language::Java
            | Language::SlashComments
    )
}

/// Whether `line` is attached to a header indented `indent` directly below it.
fn attached(lang: Language, line: &str, indent: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t']);
    if t.trim().is_empty() {
        return false;
    }
    let own = indent_of(line);
    let star = t.starts_with('*') && own.len() == indent.len() + 1 && own.starts_with(indent);
    if own != indent && !star {
        return false;
    }
    t.starts_with("//")
        || t.starts_with("/*")
        || t.starts_with('*')
        || t.starts_with("#[")
        || t.starts_with('@')
        || (lang.hash() && t.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braced_definitions_with_their_comments_and_blank_lines() {
        let file = [
            "class A {",     // 0
            "    a() {",     // 1
            "    }",         // 2
            "",              // 3
            "    /**",       // 4
            "     * Docs.",  // 5
            "     */",       // 6
            "    @Override", // 7
            "    b() {",     // 8
            "        x();",  // 9
            "    }",         // 10
            "",              // 11
            "    c() {}",    // 12
            "}",             // 13
        ];
        let all = (0, file.len());
        assert_eq!(span(Language::Java, &file, 8, all), Ok((3, 11)));
        assert_eq!(span(Language::Java, &file, 12, all), Ok((11, 13)));
        assert_eq!(span(Language::Java, &file, 1, all), Ok((1, 4)));
        assert_eq!(
            span(Language::Java, &file, 8, (5, 13)),
            Err(Unremovable::Beyond { above: true })
        );
        assert_eq!(
            span(Language::Java, &file, 8, (3, 10)),
            Err(Unremovable::Beyond { above: false })
        );
        assert_eq!(span(Language::Java, &file, 1, (1, 4)), Ok((1, 4)));
        assert_eq!(
            span(Language::Java, &file, 1, (1, 3)),
            Err(Unremovable::Beyond { above: false })
        );
        let open = ["fn f() {", "  x"];
        assert_eq!(
            span(Language::Rust, &open, 0, (0, 2)),
            Err(Unremovable::NoEnd)
        );
    }

    #[test]
    fn python_definitions_end_by_indentation() {
        let file = [
            "class A:",         // 0
            "    # helper",     // 1
            "    @cached",      // 2
            "    def f(self):", // 3
            "        x = 1",    // 4
            "",                 // 5
            "        return x", // 6
            "",                 // 7
            "    def g(self):", // 8
            "        pass",     // 9
        ];
        let all = (0, file.len());
        assert_eq!(span(Language::Python, &file, 3, all), Ok((1, 8)));
        assert_eq!(span(Language::Python, &file, 8, all), Ok((7, 10)));
        assert_eq!(
            span(Language::Python, &file, 3, (1, 6)),
            Err(Unremovable::Beyond { above: false })
        );
    }
}

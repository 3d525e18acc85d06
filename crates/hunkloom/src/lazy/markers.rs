//! What each snippet line is: an elision marker, a deletion comment, or code.
//!
//! - A **marker** is a whole-line comment in the file's syntax (see [`Language`]) whose text,
//!   without the comment delimiters and the spaces around them, starts with `...` or `…`, or
//!   contains the word `unchanged` or the words `existing code` (any case). In Python a line
//!   holding only `...` is a marker too. A comment that only ends in `...` (`// Retry when the
//!   pool is ready...`) is code.
//! - A **deletion comment** is a whole-line comment whose text is `removed NAME`, `deleted
//!   NAME`, `removed method NAME`, `removed function NAME`, `NAME removed` or `NAME deleted`
//!   (keywords in any case, NAME an identifier that may carry `()`): it asks for the
//!   definition called NAME to be removed, and is never written to the file.

use super::language::Language;

/// What a snippet line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineKind<'s> {
    /// A line of code (or a comment that is neither of the others).
    Code,
    /// An elision marker: the snippet leaves lines of the file out here.
    Marker,
    /// A deletion comment naming the definition to remove.
    Deletion(&'s str),
}

/// What `line` is in `lang`.
pub(super) fn classify(line: &str, lang: Language) -> LineKind<'_> {
    let t = line.trim();
    if lang == Language::Python && t == "..." {
        return LineKind::Marker;
    }
    let Some(text) = comment_text(t, lang) else {
        return LineKind::Code;
    };
    if is_marker_text(text) {
        return LineKind::Marker;
    }
    match deletion_name(text) {
        Some(name) => LineKind::Deletion(name),
        None => LineKind::Code,
    }
}

/// The text of the whole-line comment `t` (trimmed), without its delimiters and the spaces
/// around them; `None` if `t` is no comment in `lang`.
fn comment_text(t: &str, lang: Language) -> Option<&str> {
    if lang.slash() {
        if t.starts_with("//") {
            return Some(t.trim_start_matches('/').trim());
        }
        if t.len() >= 4 && t.starts_with("/*") && t.ends_with("*/") {
            let inner = &t[2..t.len() - 2];
            return Some(inner.trim_matches('*').trim());
        }
    }
    if lang.hash() && t.starts_with('#') {
        return Some(t.trim_start_matches('#').trim());
    }
    None
}

/// Whether a comment's text makes it a marker.
fn is_marker_text(text: &str) -> bool {
    if text.starts_with("...") || text.starts_with('…') {
        return true;
    }
    let mut previous_existing = false;
    for word in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if word.eq_ignore_ascii_case("unchanged")
            || (previous_existing && word.eq_ignore_ascii_case("code"))
        {
            return true;
        }
        previous_existing = word.eq_ignore_ascii_case("existing");
    }
    false
}

/// The NAME of a deletion comment's text, or `None` if it is not one.
fn deletion_name(text: &str) -> Option<&str> {
    let is = |w: &str, k: &str| w.eq_ignore_ascii_case(k);
    let removal = |w: &str| is(w, "removed") || is(w, "deleted");
    let mut words = text.split_whitespace();
    let name = match (words.next(), words.next(), words.next(), words.next()) {
        (Some(k), Some(name), None, None) if removal(k) => name,
        (Some(name), Some(k), None, None) if removal(k) => name,
        (Some(k), Some(what), Some(name), None)
            if is(k, "removed") && (is(what, "method") || is(what, "function")) =>
        {
            name
        }
        _ => return None,
    };
    let name = name.strip_suffix("()").unwrap_or(name);
    is_identifier(name).then_some(name)
}

/// Whether `s` is an identifier: a letter, `_` or `$`, then letters, digits, `_` or `$`.
pub(super) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;
    use LineKind::*;

    #[test]
    fn markers_in_each_syntax() {
        for (line, lang) in [
            ("// ... existing code ...", Language::TypeScript),
            ("    // ...", Language::Rust),
            ("/* ... */", Language::Java),
            ("// (unchanged)", Language::Go),
            ("// ... existing code", Language::Go),
            ("// … existing code …", Language::TypeScript),
            ("# ... rest of the class unchanged ...", Language::Python),
            ("// existing code unchanged", Language::Java),
            ("    ...", Language::Python),
            ("#...", Language::Python),
            ("// EXISTING CODE here", Language::Other),
            ("# ...", Language::Other),
        ] {
            assert_eq!(classify(line, lang), Marker, "{line:?} in {lang:?}");
        }
        for (line, lang) in [
            ("// Retry when the pool is ready...", Language::TypeScript),
            ("# ... existing code ...", Language::Rust),
            ("// ... existing code ...", Language::Python),
            ("...", Language::TypeScript),
            ("x = f(...)", Language::Python),
            ("// the existing coder", Language::Go),
            ("// unchangedness", Language::Go),
            ("/* ... */ x();", Language::Java),
        ] {
            assert_eq!(classify(line, lang), Code, "{line:?} in {lang:?}");
        }
    }

    #[test]
    fn deletion_comments() {
        for (line, name) in [
            ("// removed sendAccount", "sendAccount"),
            ("# deleted parse_row()", "parse_row"),
            ("// removed method flushShard", "flushShard"),
            ("    # removed function load", "load"),
            ("// RebuildPort removed", "RebuildPort"),
            ("# helper Deleted", "helper"),
        ] {
            let lang = if line.trim_start().starts_with('#') {
                Language::Python
            } else {
                Language::Go
            };
            assert_eq!(classify(line, lang), Deletion(name), "{line:?}");
        }
        for line in [
            "// removed the old cache",
            "// deleted",
            "// removed foo.bar",
        ] {
            assert_eq!(classify(line, Language::Go), Code, "{line:?}");
        }
    }
}

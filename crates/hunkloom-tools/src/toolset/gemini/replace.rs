//! `replace`'s matching as the Gemini CLI core 0.61.0 does it with its LLM correction off:
//! exact, then line windows compared trimmed, then a token pattern, then a Levenshtein pass
//! (`calculateReplacement` and its four strategies).
//!
//! Every strategy works on the file's text with `\r\n` already read as `\n`, and restores
//! the file's final-newline state afterwards.

use super::js;

/// Allowed weighted distance, as a fraction of `old_string`'s length.
const FUZZY_THRESHOLD: f64 = 0.1;
/// What a whitespace-only difference costs, relative to any other.
const WHITESPACE_PENALTY: f64 = 0.1;
/// `lines × len²` above which the fuzzy pass is skipped (the reference's time bound).
const FUZZY_BUDGET: f64 = 400_000_000.0;

/// What a strategy found.
#[derive(Debug)]
pub(super) struct Replacement {
    /// The new text (meaningful only when the count is acceptable).
    pub(super) text: String,
    /// Matches found.
    pub(super) occurrences: usize,
    /// For a fuzzy match: the 1-based line ranges replaced, in order.
    pub(super) fuzzy_ranges: Vec<(usize, usize)>,
    /// Whether the reference would have dropped text it could not split into lines (a lone
    /// `\r`, U+2028 or U+2029 in a rewritten file): such a result must not be written.
    pub(super) torn: bool,
}

impl Replacement {
    fn new(text: String, occurrences: usize) -> Replacement {
        Replacement {
            text,
            occurrences,
            fuzzy_ranges: Vec::new(),
            torn: false,
        }
    }
}

/// `calculateReplacement`: `content` is the file's `\n` text; `old`/`new` as the model sent
/// them.
pub(super) fn calculate(content: &str, old: &str, new: &str, allow_multiple: bool) -> Replacement {
    let search = old.replace("\r\n", "\n");
    let replace = new.replace("\r\n", "\n");
    if search.is_empty() {
        return Replacement::new(content.to_owned(), 0);
    }
    if let Some(r) = exact(content, &search, &replace, allow_multiple) {
        return r;
    }
    if let Some(r) = flexible(content, &search, &replace, new.is_empty()) {
        return r;
    }
    if let Some(r) = pattern(content, &search, &replace, allow_multiple) {
        return r;
    }
    if let Some(r) = fuzzy(content, old, &search, &replace) {
        return r;
    }
    Replacement::new(content.to_owned(), 0)
}

/// `restoreTrailingNewline`: the result ends with `\n` exactly when the original did.
fn restore_final_newline(original: &str, mut modified: String) -> String {
    let had = original.ends_with('\n');
    if had && !modified.ends_with('\n') {
        modified.push('\n');
    } else if !had && modified.ends_with('\n') {
        modified.pop();
    }
    modified
}

/// The leading spaces and tabs of `line` (`/^([ \t]*)/`).
fn indentation(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// `applyIndentation`: the lines re-indented so the first starts at `target`, relative
/// indentation kept, blank lines emptied.
fn reindent(lines: &[&str], target: &str) -> Vec<String> {
    let Some(first) = lines.first() else {
        return Vec::new();
    };
    let reference = indentation(first);
    lines
        .iter()
        .map(|line| {
            if js::trim(line).is_empty() {
                String::new()
            } else if let Some(rest) = line.strip_prefix(reference) {
                format!("{target}{rest}")
            } else {
                format!("{target}{}", js::trim_start(line))
            }
        })
        .collect()
}

fn exact(content: &str, search: &str, replace: &str, allow_multiple: bool) -> Option<Replacement> {
    let occurrences = content.matches(search).count();
    if !allow_multiple && occurrences > 1 {
        return Some(Replacement::new(content.to_owned(), occurrences));
    }
    if occurrences == 0 {
        return None;
    }
    let text = restore_final_newline(content, content.replace(search, replace));
    Some(Replacement::new(text, occurrences))
}

/// Line windows equal once every line is trimmed; every window replaced, re-indented.
fn flexible(content: &str, search: &str, replace: &str, new_empty: bool) -> Option<Replacement> {
    let split = js::match_lines(content);
    let mut lines: Vec<String> = split.pieces.iter().map(|s| (*s).to_owned()).collect();
    let wanted: Vec<&str> = search.split('\n').map(js::trim).collect();
    let replace_lines: Vec<&str> = replace.split('\n').collect();
    let n = wanted.len();
    let mut occurrences = 0;
    let mut i = 0;
    while i + n <= lines.len() {
        let window = &lines[i..i + n];
        if window.iter().zip(&wanted).all(|(l, w)| js::trim(l) == *w) {
            occurrences += 1;
            let mut text = reindent(&replace_lines, indentation(&window[0])).join("\n");
            if !new_empty && window[n - 1].ends_with('\n') && !text.ends_with('\n') {
                text.push('\n');
            }
            lines.splice(i..i + n, [text]);
        }
        i += 1;
    }
    if occurrences == 0 {
        return None;
    }
    let mut r = Replacement::new(restore_final_newline(content, lines.concat()), occurrences);
    r.torn = !split.complete;
    Some(r)
}

/// `^([ \t]*)tok\s*tok…` (multiline): the tokens of `search` around `( ) : [ ] { } > < =` and
/// whitespace, first match replaced (every match with `allow_multiple`).
fn pattern(
    content: &str,
    search: &str,
    replace: &str,
    allow_multiple: bool,
) -> Option<Replacement> {
    let mut spaced = search.to_owned();
    for delimiter in ["(", ")", ":", "[", "]", "{", "}", ">", "<", "="] {
        spaced = spaced.replace(delimiter, &format!(" {delimiter} "));
    }
    let tokens: Vec<&str> = spaced
        .split(js::is_space)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return None;
    }
    // The matches, left to right without overlap: (start, indentation end, end).
    let mut matches: Vec<(usize, usize, usize)> = Vec::new();
    let mut at = 0;
    while at <= content.len() {
        let line_start = at == 0
            || content[..at]
                .chars()
                .next_back()
                .is_some_and(js::is_line_terminator);
        if line_start && let Some((indent_end, end)) = match_tokens(content, at, &tokens) {
            // Matching goes on where this match ended (matches are never empty).
            matches.push((at, indent_end, end));
            at = end;
            continue;
        }
        match content[at..].chars().next() {
            Some(c) => at += c.len_utf8(),
            None => break,
        }
    }
    if matches.is_empty() {
        return None;
    }
    let occurrences = matches.len();
    let new_lines: Vec<&str> = replace.split('\n').collect();
    let used = if allow_multiple { occurrences } else { 1 };
    let mut text = String::with_capacity(content.len());
    let mut copied = 0;
    for &(start, indent_end, end) in &matches[..used] {
        text.push_str(&content[copied..start]);
        text.push_str(&reindent(&new_lines, &content[start..indent_end]).join("\n"));
        copied = end;
    }
    text.push_str(&content[copied..]);
    Some(Replacement::new(
        restore_final_newline(content, text),
        occurrences,
    ))
}

/// The token pattern at `at`: where the indentation ends and where the match ends.
fn match_tokens(content: &str, at: usize, tokens: &[&str]) -> Option<(usize, usize)> {
    let rest = &content[at..];
    let indent_end = at + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
    let mut pos = indent_end;
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            let rest = &content[pos..];
            pos += rest.len() - rest.trim_start_matches(js::is_space).len();
        }
        if !content[pos..].starts_with(token) {
            return None;
        }
        pos += token.len();
    }
    Some((indent_end, pos))
}

/// Windows of the same line count within a weighted Levenshtein distance of 10% of the
/// search's length; the best non-overlapping ones replaced.
fn fuzzy(content: &str, old: &str, search: &str, replace: &str) -> Option<Replacement> {
    let old_len = js::len(old);
    if old_len < 10 {
        return None;
    }
    let split = js::match_lines(content);
    let source = split.pieces;
    let search_split = js::match_lines(search);
    let wanted: Vec<&str> = search_split
        .pieces
        .iter()
        .map(|l| js::trim_end(l))
        .collect();
    if source.len() as f64 * (old_len as f64).powi(2) > FUZZY_BUDGET {
        return None;
    }
    if wanted.is_empty() {
        return None;
    }
    let n = wanted.len();
    let block = wanted.join("\n");
    let block_len = js::len(&block) as f64;
    let block_units = js::utf16(&block);
    let block_bare = js::utf16(&js::strip_spaces(&block));
    let mut candidates: Vec<(f64, usize)> = Vec::new();
    for i in 0..=source.len().saturating_sub(n) {
        if i + n > source.len() {
            break;
        }
        let window: Vec<&str> = source[i..i + n].iter().map(|l| js::trim_end(l)).collect();
        let window = window.join("\n");
        let length_diff = (js::len(&window) as f64 - block_len).abs();
        if length_diff / block_len > FUZZY_THRESHOLD / WHITESPACE_PENALTY {
            continue;
        }
        let raw = js::levenshtein(&js::utf16(&window), &block_units);
        let bare = js::levenshtein(&js::utf16(&js::strip_spaces(&window)), &block_bare);
        let weighted = bare as f64 + (raw as f64 - bare as f64) * WHITESPACE_PENALTY;
        let score = weighted / block_len;
        if score <= FUZZY_THRESHOLD {
            candidates.push((score, i));
        }
    }
    if candidates.is_empty() {
        return None;
    }
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut selected: Vec<usize> = Vec::new();
    for &(_, index) in &candidates {
        if selected.iter().all(|&s| s.abs_diff(index) >= n) {
            selected.push(index);
        }
    }
    let mut ranges: Vec<(usize, usize)> = selected.iter().map(|&s| (s + 1, s + n)).collect();
    ranges.sort_unstable();
    selected.sort_unstable_by(|a, b| b.cmp(a));
    let new_lines: Vec<&str> = replace.split('\n').collect();
    let mut lines: Vec<String> = source.iter().map(|s| (*s).to_owned()).collect();
    for &index in &selected {
        let mut text = reindent(&new_lines, indentation(&lines[index])).join("\n");
        if lines[index + n - 1].ends_with('\n') {
            text.push('\n');
        }
        lines.splice(index..index + n, [text]);
    }
    let mut r = Replacement::new(
        restore_final_newline(content, lines.concat()),
        selected.len(),
    );
    r.fuzzy_ranges = ranges;
    r.torn = !split.complete;
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_counts_and_keeps_dollars() {
        let r = calculate("a $1\nb\n", "b", "$&", false);
        assert_eq!((r.text.as_str(), r.occurrences), ("a $1\n$&\n", 1));
        assert_eq!(calculate("x x\n", "x", "y", false).occurrences, 2);
    }

    #[test]
    fn flexible_reindents_to_the_first_line() {
        let r = calculate(
            "def f():\n    a = 1\n    b = 2\n",
            "a = 1\n  b = 2",
            "c = 3\nd = 4",
            false,
        );
        assert_eq!(r.text, "def f():\n    c = 3\n    d = 4\n");
    }

    #[test]
    fn pattern_tolerates_inner_whitespace() {
        let r = calculate(
            "x\n  function   render(a) {\n",
            "function render(a) {",
            "f(b) {",
            false,
        );
        assert_eq!(r.text, "x\n  f(b) {\n");
    }

    #[test]
    fn fuzzy_reports_its_lines() {
        let r = calculate(
            "one\n    let user = 0;\ntwo\n",
            "    let xser = 0;",
            "    let u = 1;",
            false,
        );
        assert_eq!(r.occurrences, 1);
        assert_eq!(r.fuzzy_ranges, [(2, 2)]);
        assert_eq!(r.text, "one\n    let u = 1;\ntwo\n");
    }

    #[test]
    fn final_newline_state_is_kept() {
        assert_eq!(calculate("a\nb", "b", "c\n", false).text, "a\nc");
        assert_eq!(calculate("a\nb\n", "b\n", "c", false).text, "a\nc\n");
    }
}

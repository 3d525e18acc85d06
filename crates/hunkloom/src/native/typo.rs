//! The typo rule of the loosest tier: two lines that differ only by a small letter edit inside
//! one word. Digits, operators and punctuation must match exactly, so `==`→`!=`, `<`→`<=` or a
//! changed number is a changed file, not a typo.

use crate::text::osa_distance;

/// The largest edit (Damerau–Levenshtein, adjacent swaps counting once) allowed in a word.
const MAX_EDIT: usize = 3;
/// The shortest word (in letters) a typo may be inside.
const MIN_WORD: usize = 4;
/// The least similarity (`1 - edit / longer length`) the two words must keep.
const MIN_SIMILARITY: f64 = 0.75;

/// Whether `file` and `search` (both folded and trimmed) differ by exactly one small letter edit
/// inside one word.
pub(crate) fn is_typo(file: &str, search: &str) -> bool {
    if file == search {
        return false;
    }
    let (a, b) = (tokens(file), tokens(search));
    if a.len() != b.len() {
        return false;
    }
    let mut differing = None;
    for (x, y) in a.iter().zip(&b) {
        if x == y {
            continue;
        }
        let both_words = is_word(x) && is_word(y);
        if !both_words || differing.is_some() {
            return false;
        }
        differing = Some((*x, *y));
    }
    let Some((x, y)) = differing else {
        return false;
    };
    let (x, y): (Vec<char>, Vec<char>) = (x.chars().collect(), y.chars().collect());
    let longer = x.len().max(y.len());
    if longer < MIN_WORD {
        return false;
    }
    let d = osa_distance(&x, &y);
    (1..=MAX_EDIT).contains(&d) && 1.0 - d as f64 / longer as f64 >= MIN_SIMILARITY
}

fn is_word(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_alphabetic)
}

/// Maximal runs of letters and maximal runs of everything else.
fn tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<bool> = None;
    for (i, c) in s.char_indices() {
        let letter = c.is_alphabetic();
        if prev.is_some_and(|p| p != letter) {
            out.push(&s[start..i]);
            start = i;
        }
        prev = Some(letter);
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_typos_inside_one_word() {
        assert!(is_typo("s.store.Process(ctx)", "s.store.Proces(ctx)"));
        assert!(is_typo("run: make track", "run: mkae track"));
        assert!(is_typo("find just \"wait\"", "find jst \"wait\""));
        assert!(!is_typo("if a == b {", "if a != b {"));
        assert!(!is_typo("x = 10", "x = 11"));
        assert!(!is_typo("if a < b", "if a <= b"));
        assert!(!is_typo("flag = true", "flag = false"));
        assert!(!is_typo("let profile = x", "let parser = x"));
        assert!(!is_typo("a cat sat", "a cut sit"));
    }

    #[test]
    fn distance() {
        let d = |a: &str, b: &str| {
            osa_distance(
                &a.chars().collect::<Vec<_>>(),
                &b.chars().collect::<Vec<_>>(),
            )
        };
        assert_eq!(d("make", "mkae"), 1);
        assert_eq!(d("true", "false"), 4);
        assert_eq!(d("", "abc"), 3);
    }
}

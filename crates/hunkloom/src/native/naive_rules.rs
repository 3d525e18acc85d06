//! The naive oracle's own per-line rules, written from the module doc of `native` and
//! independently of the fast code (`normalize`, `typo`, `indent`, `tiers::compare`), so that a
//! bug in the fast classifier shows up as a disagreement in the property tests instead of
//! being repeated by the oracle.
//!
//! Everything here favours the obvious over the fast: strings are normalised and compared
//! whole, the punctuation table is plain data, dash runs are collapsed by repeated
//! replacement, the edit distance is its recursive definition.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;

use super::indent::IndentMap;
use super::search_text::Tier;

/// Typographic single quotes, folded to `'`.
const SINGLE_QUOTES: &str = "\u{2018}\u{2019}\u{201A}\u{201B}\u{2032}\u{FF07}";
/// Typographic double quotes, folded to `"`.
const DOUBLE_QUOTES: &str = "\u{201C}\u{201D}\u{201E}\u{201F}\u{2033}\u{FF02}";
/// Typographic dashes and minus signs, folded to `-`.
const DASHES: &str =
    "\u{2010}\u{2011}\u{2012}\u{2013}\u{2014}\u{2015}\u{2212}\u{FE58}\u{FE63}\u{FF0D}";
/// Non-breaking and other exotic spaces, folded to ` `.
const SPACES: &str = "\u{A0}\u{1680}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}\
                      \u{2007}\u{2008}\u{2009}\u{200A}\u{202F}\u{205F}\u{3000}";
/// Zero-width characters, which fold to nothing.
const ZERO_WIDTH: &str = "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}";

/// `s` in normalization form C, with typography folded to ASCII (the ellipsis to `...`) and
/// every run of dashes collapsed to one `-`.
pub(super) fn fold(s: &str) -> String {
    let mut out = String::new();
    let composed: String = s.nfc().collect();
    for c in composed.chars() {
        if SINGLE_QUOTES.contains(c) {
            out.push('\'');
        } else if DOUBLE_QUOTES.contains(c) {
            out.push('"');
        } else if DASHES.contains(c) {
            out.push('-');
        } else if SPACES.contains(c) {
            out.push(' ');
        } else if c == '\u{2026}' {
            out.push_str("...");
        } else if !ZERO_WIDTH.contains(c) {
            out.push(c);
        }
    }
    while out.contains("--") {
        out = out.replace("--", "-");
    }
    out
}

/// Blank: nothing but whitespace and zero-width characters.
pub(super) fn is_blank(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_whitespace() || ZERO_WIDTH.contains(c))
}

/// The leading spaces and tabs of a line.
pub(super) fn indentation(line: &str) -> String {
    line.chars()
        .take_while(|&c| c == ' ' || c == '\t')
        .collect()
}

/// What a tier ignores, as a function of one line: lines equal once normalised meet the tier.
type Normalise = fn(&str) -> String;

/// The strictest line-preserving tier under which file line `f` (ending `f_eol`) equals SEARCH
/// line `s` (ending `s_eol`), comparing the lines normalised by each tier in turn.
pub(super) fn line_tier(f: &str, f_eol: &str, s: &str, s_eol: &str) -> Option<Tier> {
    if f == s {
        return Some(if f_eol == s_eol {
            Tier::Exact
        } else {
            Tier::LineEndings
        });
    }
    let tiers: [(Tier, Normalise); 3] = [
        (Tier::TrailingWhitespace, |l| l.trim_end().to_owned()),
        (Tier::Indentation, |l| l.trim().to_owned()),
        (Tier::Punctuation, |l| fold(l.trim())),
    ];
    tiers
        .into_iter()
        .find(|(_, normalise)| normalise(f) == normalise(s))
        .map(|(tier, _)| tier)
}

/// The uniform indentation change that turns each SEARCH indentation into its file line's,
/// given `(file, search)` pairs of the non-blank lines: none at all; else a shift by copies of
/// the one character every indentation is made of; else, with tabs measured 4, 2, 8 or 3
/// columns wide (the first width that works), the same change in columns.
pub(super) fn infer_indent(pairs: &[(String, String)]) -> Option<IndentMap> {
    if pairs.iter().all(|(f, s)| f == s) {
        return Some(IndentMap::IDENTITY);
    }
    let mut used: Vec<char> = pairs
        .iter()
        .flat_map(|(f, s)| f.chars().chain(s.chars()))
        .collect();
    used.sort_unstable();
    used.dedup();
    let same = |delta: &dyn Fn(&str, &str) -> isize| {
        let d = delta(&pairs[0].0, &pairs[0].1);
        pairs.iter().all(|(f, s)| delta(f, s) == d).then_some(d)
    };
    if let [unit] = used[..]
        && let Some(delta) = same(&|f, s| f.len() as isize - s.len() as isize)
    {
        return Some(IndentMap::Shift {
            delta,
            tab: unit == '\t',
        });
    }
    let to_tabs = pairs.iter().any(|(f, _)| f.contains('\t'));
    [4, 2, 8, 3].into_iter().find_map(|tab_width| {
        let columns = |s: &str| -> isize {
            s.chars()
                .map(|c| if c == '\t' { tab_width as isize } else { 1 })
                .sum()
        };
        let delta = same(&|f, s| columns(f) - columns(s))?;
        Some(IndentMap::Convert {
            tab_width,
            delta,
            to_tabs,
        })
    })
}

/// A read-tool line-number prefix: optional spaces, 1 to 9 digits, then ` | `, `\t` or `→`
/// (or ` |` ending the line); the number and the rest of the line.
pub(super) fn line_number(line: &str) -> Option<(usize, &str)> {
    let rest = line.trim_start_matches(' ');
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() || digits.len() > 9 {
        return None;
    }
    let after = &rest[digits.len()..];
    let content = if after == " |" {
        ""
    } else {
        [" | ", "\t", "→"]
            .into_iter()
            .find_map(|sep| after.strip_prefix(sep))?
    };
    Some((digits.parse().ok()?, content))
}

/// Whether `file` and `search` (folded and trimmed) differ by one small letter edit inside one
/// word: cut into runs of letters and runs of other characters, exactly one run differs, both
/// versions of it are words, the longer has 4+ letters, and they are 1 to 3 edits apart
/// (adjacent swaps counting once) while staying at least 75% similar.
pub(super) fn is_typo(file: &str, search: &str) -> bool {
    let (a, b) = (runs(file), runs(search));
    if a.len() != b.len() {
        return false;
    }
    let differing: Vec<(&String, &String)> = a.iter().zip(&b).filter(|(x, y)| x != y).collect();
    let [(x, y)] = differing[..] else {
        return false;
    };
    let word = |w: &str| w.chars().next().is_some_and(char::is_alphabetic);
    if !word(x) || !word(y) {
        return false;
    }
    let (x, y): (Vec<char>, Vec<char>) = (x.chars().collect(), y.chars().collect());
    let longer = x.len().max(y.len());
    let edits = distance(&x, &y, x.len(), y.len(), &mut HashMap::new());
    // At least 75% similar: 1 - edits / longer >= 3/4.
    longer >= 4 && (1..=3).contains(&edits) && 4 * edits <= longer
}

/// `s` cut into maximal runs of letters and maximal runs of everything else.
fn runs(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut last_letter = None;
    for c in s.chars() {
        let letter = c.is_alphabetic();
        match out.last_mut() {
            Some(run) if last_letter == Some(letter) => run.push(c),
            _ => out.push(c.to_string()),
        }
        last_letter = Some(letter);
    }
    out
}

/// The optimal-string-alignment distance between `a[..i]` and `b[..j]`, by its recursive
/// definition (memoised).
fn distance(
    a: &[char],
    b: &[char],
    i: usize,
    j: usize,
    memo: &mut HashMap<(usize, usize), usize>,
) -> usize {
    if i == 0 || j == 0 {
        return i + j;
    }
    if let Some(&d) = memo.get(&(i, j)) {
        return d;
    }
    let substitute = usize::from(a[i - 1] != b[j - 1]);
    let mut d = (distance(a, b, i - 1, j, memo) + 1)
        .min(distance(a, b, i, j - 1, memo) + 1)
        .min(distance(a, b, i - 1, j - 1, memo) + substitute);
    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
        d = d.min(distance(a, b, i - 2, j - 2, memo) + 1);
    }
    memo.insert((i, j), d);
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_by_example() {
        assert_eq!(fold("a — b…it’s\u{A0}“x”\u{200B}"), "a - b...it's \"x\"");
        assert_eq!(fold("a---b–—c"), "a-b-c");
        assert_eq!(fold("cafe\u{301}"), fold("caf\u{E9}"));
        assert!(is_blank(" \t\u{A0}\u{200B}") && !is_blank(" x"));
        assert_eq!(line_tier("a", "\n", "a", "\r\n"), Some(Tier::LineEndings));
        assert_eq!(line_tier("  a ", "\n", "a", "\n"), Some(Tier::Indentation));
        assert_eq!(
            line_tier("“a”", "\n", "\"a\"", "\n"),
            Some(Tier::Punctuation)
        );
        assert_eq!(line_tier("a", "\n", "b", "\n"), None);
        assert_eq!(line_number("  12 | x"), Some((12, "x")));
        assert_eq!(line_number("7 |"), Some((7, "")));
        assert_eq!(line_number("x | y"), None);
        assert!(is_typo("s.store.Process(ctx)", "s.store.Proces(ctx)"));
        assert!(is_typo("run: make track", "run: mkae track"));
        assert!(!is_typo("if a == b {", "if a != b {"));
        assert!(!is_typo("let profile = x", "let parser = x"));
        let pairs = |p: &[(&str, &str)]| -> Vec<(String, String)> {
            p.iter()
                .map(|(f, s)| ((*f).to_owned(), (*s).to_owned()))
                .collect()
        };
        assert_eq!(
            infer_indent(&pairs(&[("    ", ""), ("        ", "    ")])),
            Some(IndentMap::Shift {
                delta: 4,
                tab: false
            })
        );
        assert_eq!(
            infer_indent(&pairs(&[("\t", "    "), ("\t\t", "        ")])),
            Some(IndentMap::Convert {
                tab_width: 4,
                delta: 0,
                to_tabs: true
            })
        );
        assert_eq!(
            infer_indent(&pairs(&[("    ", ""), ("    ", "    ")])),
            None
        );
    }
}

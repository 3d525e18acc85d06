//! Cline's `findContext`: where a chunk's context lines are in the file, and how fuzzy the match
//! was. Lengths and edit distances are in UTF-16 code units, as JavaScript counts them.
//!
//! Passes over canonical windows (see [`canonicalize`]), from the start position on: equal
//! (fuzz 0), equal ignoring trailing whitespace (1), ignoring surrounding whitespace (100),
//! similarity ≥ 0.66 (1000). Each pass is quadratic or worse in the window size, as Cline's is:
//! the dialect reproduces its results, including which window wins. With `*** End of File` the search first starts at the last possible
//! position and, failing that, from the start position with 10000 added.

use crate::text::{js_trim, js_trim_end};

const SIMILARITY_THRESHOLD: f64 = 0.66;

/// Cline's `canonicalize`: typographic dashes, quotes and no-break spaces folded to ASCII, and
/// `` \` ``, `\'`, `\"` unescaped. (Cline first applies NFC normalisation, which this omits: it
/// changes nothing for text already in NFC, which every recorded vector is.)
pub(super) fn canonicalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let c = match c {
            '\u{2010}'..='\u{2014}' | '\u{2212}' => '-',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{00AB}' | '\u{00BB}' => '"',
            '\u{2018}' | '\u{2019}' | '\u{201B}' => '\'',
            '\u{00A0}' | '\u{202F}' => ' ',
            '\\' if matches!(chars.peek(), Some('`' | '\'' | '"')) => continue,
            c => c,
        };
        out.push(c);
    }
    out
}

/// Where `context` is in `lines` at or after `start`: `(index, fuzz, similarity)`, with
/// `index == None` when it is nowhere (then `similarity` is the best seen).
///
/// As in Cline v4.0.10, every window from the start position to the last line is tried, the
/// last ones cut short by the end of the file, and an `*** End of File` search starts at
/// `lines.len() - context.len()`, which may be negative: JavaScript's `slice` then counts from
/// the end, and so does this.
pub(super) fn find_context(
    lines: &[&str],
    context: &[&str],
    start: usize,
    eof: bool,
) -> (Option<usize>, u64, f64) {
    if context.is_empty() {
        return (Some(start), 0, 1.0);
    }
    let finder = Finder::new(lines, context);
    let mut best = 0.0;
    let start = start as i64;
    if eof {
        let found = finder.find(lines.len() as i64 - context.len() as i64, &mut best);
        if found.0.is_some() {
            return found;
        }
        let (index, fuzz, similarity) = finder.find(start, &mut best);
        return (index, fuzz + 10_000, similarity);
    }
    finder.find(start, &mut best)
}

struct Finder<'a> {
    lines: &'a [&'a str],
    context: &'a [&'a str],
    /// `canonicalize(context.join("\n"))` as UTF-16, and the two trimmed forms as text.
    canonical: Vec<u16>,
    canonical_text: String,
    trimmed_end: String,
    trimmed: String,
}

impl<'a> Finder<'a> {
    fn new(lines: &'a [&'a str], context: &'a [&'a str]) -> Self {
        let joined = |f: fn(&str) -> &str| {
            canonicalize(&context.iter().map(|c| f(c)).collect::<Vec<_>>().join("\n"))
        };
        let canonical_text = joined(|s| s);
        Finder {
            lines,
            context,
            canonical: canonical_text.encode_utf16().collect(),
            canonical_text,
            trimmed_end: joined(js_trim_end),
            trimmed: joined(js_trim),
        }
    }

    /// `canonicalize(lines.slice(i, i + context.length).map(f).join("\n"))`.
    fn segment(&self, i: i64, f: fn(&str) -> &str) -> String {
        let len = self.lines.len() as i64;
        let clamp = |x: i64| if x < 0 { (len + x).max(0) } else { x.min(len) } as usize;
        let (s, e) = (clamp(i), clamp(i + self.context.len() as i64));
        let window = if s < e { &self.lines[s..e] } else { &[][..] };
        canonicalize(&window.iter().map(|l| f(l)).collect::<Vec<_>>().join("\n"))
    }

    fn find(&self, start: i64, best: &mut f64) -> (Option<usize>, u64, f64) {
        let len = self.lines.len() as i64;
        let found = |i: i64| usize::try_from(i).ok();
        for i in start..len {
            let segment = self.segment(i, |s| s);
            if segment == self.canonical_text {
                return (found(i), 0, 1.0);
            }
            let s = similarity(&segment.encode_utf16().collect::<Vec<_>>(), &self.canonical);
            if s > *best {
                *best = s;
            }
        }
        for i in start..len {
            if self.segment(i, js_trim_end) == self.trimmed_end {
                return (found(i), 1, 1.0);
            }
        }
        for i in start..len {
            if self.segment(i, js_trim) == self.trimmed {
                return (found(i), 100, 1.0);
            }
        }
        for i in start..len {
            let segment: Vec<u16> = self.segment(i, |s| s).encode_utf16().collect();
            let s = similarity(&segment, &self.canonical);
            if s >= SIMILARITY_THRESHOLD {
                return (found(i), 1000, s);
            }
            if s > *best {
                *best = s;
            }
        }
        (None, 0, *best)
    }
}

/// Cline's `calculateSimilarity`: `1 - distance / longer length`.
fn similarity(a: &[u16], b: &[u16]) -> f64 {
    let (longer, shorter) = if a.len() > b.len() { (a, b) } else { (b, a) };
    if longer.is_empty() {
        return 1.0;
    }
    let distance = crate::text::js_edit_distance(shorter, longer);
    (longer.len() - distance) as f64 / longer.len() as f64
}

/// `x.toFixed(2)` as JavaScript formats a similarity in `[0, 1]`: nearest, ties (which only
/// eighths are, exactly) away from zero, where Rust's formatting rounds ties to even.
pub(super) fn to_fixed_2(x: f64) -> String {
    let eighths = x * 8.0;
    if eighths.fract() == 0.0 && (eighths as i64) % 2 == 1 {
        let hundredths = (x * 100.0 + 0.5).floor();
        return format!("{:.2}", hundredths / 100.0);
    }
    format!("{x:.2}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonicalize_folds_and_unescapes() {
        assert_eq!(
            canonicalize("\u{201C}a\u{201D} \u{2014} \u{2019}s\u{00A0}\\`x\\` \\\\n"),
            "\"a\" - 's `x` \\\\n"
        );
    }

    #[test]
    fn passes_and_fuzz() {
        let lines = ["a  ", "  b", "c"];
        assert_eq!(find_context(&lines, &["a"], 0, false), (Some(0), 1, 1.0));
        assert_eq!(find_context(&lines, &["b"], 0, false), (Some(1), 100, 1.0));
        assert_eq!(find_context(&lines, &["c"], 0, true), (Some(2), 0, 1.0));
        assert_eq!(find_context(&lines, &["a  "], 0, true).1, 10_000);
        assert_eq!(find_context(&lines, &[], 2, false), (Some(2), 0, 1.0));
        let (i, fuzz, _) = find_context(&["function hello() {"], &["function helo() {"], 0, false);
        assert_eq!((i, fuzz), (Some(0), 1000));
    }

    #[test]
    fn levenshtein_and_to_fixed() {
        let u = |s: &str| s.encode_utf16().collect::<Vec<_>>();
        assert_eq!(
            crate::text::js_edit_distance(&u("kitten"), &u("sitting")),
            3
        );
        assert_eq!(to_fixed_2(0.125), "0.13");
        assert_eq!(to_fixed_2(0.375), "0.38");
        assert_eq!(to_fixed_2(0.25), "0.25");
        assert_eq!(to_fixed_2(2.0 / 3.0), "0.67");
        assert_eq!(to_fixed_2(0.015), "0.01");
    }
}

//! A naive oracle for the matching cascade: the rules of the module doc of `native`, written as
//! plainly as possible. Every window of the file is compared with the SEARCH lines under each
//! tier's rule (quadratic, and cubic for the blank-line tier); no hashing, no index, no fast
//! path, no anchors. The per-line rules are the oracle's own too ([`naive_rules`]: folding,
//! blank lines, the tier of a pair of lines, line-number prefixes, typos, the indentation
//! map), written independently of the fast classifier, so the property tests check the rules
//! as well as everything around them (which windows exist, how they are counted, the hint and
//! tie rules). Only the types and [`HINT_WINDOW`] are shared.
//!
//! What a match tolerated (`relaxed`) is found the same way once the window has won: each
//! SEARCH line against its file line under every rule of `differences` separately, written
//! out again here character by character.
//!
//! One deliberate difference: the fast code's work budget (`WINDOW_BUDGET`) has no counterpart,
//! since the small inputs of the property tests never come near it.

use super::indent::IndentMap;
use super::naive_rules::{self, fold, indentation, infer_indent, is_typo, line_number, line_tier};
use super::search_text::{SearchText, Tier};
use super::tiers::HINT_WINDOW;

/// What the oracle found: the fields of `Located` a caller relies on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) tier: Tier,
    pub(crate) candidates: usize,
    pub(crate) hinted: bool,
    pub(crate) indent: IndentMap,
    /// Every kind of difference tolerated, one bit per [`Tier`] (never the exact one).
    pub(crate) relaxed: u8,
}

/// Why nothing was placed: not found, or the deciding tier and its (first line, line count)
/// windows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NaiveMiss {
    NotFound,
    Ambiguous {
        tier: Tier,
        windows: Vec<(usize, usize)>,
    },
}

struct Line<'t> {
    start: usize,
    end: usize,
    content: &'t str,
    eol: &'t str,
}

/// The file's lines, each ending after its `\n` (a final `\n` does not start another line).
fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let end = text[start..]
            .find('\n')
            .map_or(text.len(), |i| start + i + 1);
        let raw = &text[start..end];
        let (content, eol) = if let Some(c) = raw.strip_suffix("\r\n") {
            (c, "\r\n")
        } else if let Some(c) = raw.strip_suffix('\n') {
            (c, "\n")
        } else {
            (raw, "")
        };
        out.push(Line {
            start,
            end,
            content,
            eol,
        });
        start = end;
    }
    out
}

/// Blank: nothing but whitespace and zero-width characters.
fn blank(s: &str) -> bool {
    naive_rules::is_blank(s)
}

fn bit(t: Tier) -> u8 {
    1 << t as u8
}

/// A candidate window: (first line, line count, tier, indentation map).
type Window = (usize, usize, Tier, IndentMap);

/// Pairs (file line, SEARCH line) meet the line-preserving rules, except `typo`, which must be a
/// typo instead: the strictest tier every pair meets and the indentation map.
fn pairs_meet(
    file: &[Line],
    search: &SearchText,
    pairs: &[(usize, usize)],
    typo: Option<usize>,
) -> Option<(Tier, IndentMap)> {
    let mut worst = Tier::Exact;
    let mut indents = Vec::new();
    for &(i, j) in pairs {
        let (f, s) = (file[i].content, search.lines[j].as_str());
        let tier = if typo == Some(j) {
            if !is_typo(&fold(f.trim()), &fold(s.trim())) {
                return None;
            }
            Tier::Typo
        } else {
            line_tier(f, file[i].eol, s, search.eols[j])?
        };
        worst = worst.max(tier);
        if !f.trim().is_empty() && !s.trim().is_empty() {
            indents.push((indentation(f), indentation(s)));
        }
    }
    let indent = if worst >= Tier::Indentation && !indents.is_empty() {
        infer_indent(&indents)?
    } else {
        IndentMap::IDENTITY
    };
    Some((worst.min(Tier::Punctuation), indent))
}

/// Tiers 1–5: every window of as many lines as the SEARCH text, line by line. Exact and
/// line-ending windows are counted together; the strictest tier with a window decides.
fn line_tiers(
    file: &[Line],
    search: &SearchText,
    hint: Option<usize>,
) -> Option<Result<Found, NaiveMiss>> {
    let k = search.lines.len();
    let mut groups: [Vec<Window>; 4] = Default::default();
    for first in 0..(file.len() + 1).saturating_sub(k) {
        let pairs: Vec<(usize, usize)> = (0..k).map(|j| (first + j, j)).collect();
        if let Some((tier, indent)) = pairs_meet(file, search, &pairs, None) {
            let group = match tier {
                Tier::Exact | Tier::LineEndings => 0,
                Tier::TrailingWhitespace => 1,
                Tier::Indentation => 2,
                _ => 3,
            };
            groups[group].push((first, k, tier, indent));
        }
    }
    let names = [
        Tier::Exact,
        Tier::TrailingWhitespace,
        Tier::Indentation,
        Tier::Punctuation,
    ];
    groups
        .into_iter()
        .zip(names)
        .find(|(g, _)| !g.is_empty())
        .map(|(g, name)| decide(file, search, &g, name, hint))
}

/// The SEARCH text without line-number prefixes, if every line has one (a blank line after
/// the first may lack it) and the numbers run on by one; and the first number.
fn strip_numbers(search: &SearchText) -> Option<(SearchText, usize)> {
    let mut lines = Vec::new();
    let mut first = None;
    for (j, line) in search.lines.iter().enumerate() {
        let (n, rest) = match (line_number(line), first) {
            (Some(found), _) => found,
            (None, Some(f)) if line.trim().is_empty() => (f + j, ""),
            _ => return None,
        };
        let f = *first.get_or_insert(n);
        if n != f + j {
            return None;
        }
        lines.push(rest.to_owned());
    }
    Some((
        SearchText {
            lines,
            eols: search.eols.clone(),
        },
        first?,
    ))
}

/// Tier 7: every window whose non-blank lines pair up with the SEARCH's non-blank lines, with as
/// many blank lines before the first and after the last as the SEARCH text has.
fn blank_tier(file: &[Line], search: &SearchText) -> Vec<Window> {
    let k = search.lines.len();
    let s_nb: Vec<usize> = (0..k).filter(|&j| !blank(&search.lines[j])).collect();
    let Some((&s_first, &s_last)) = s_nb.first().zip(s_nb.last()) else {
        return Vec::new();
    };
    let (lead, trail) = (s_first, k - 1 - s_last);
    let mut out = Vec::new();
    for a in 0..file.len() {
        for b in a..file.len() {
            let f_nb: Vec<usize> = (a..=b).filter(|&i| !blank(file[i].content)).collect();
            if f_nb.len() != s_nb.len() || f_nb[0] - a != lead || b - f_nb[f_nb.len() - 1] != trail
            {
                continue;
            }
            let pairs: Vec<(usize, usize)> =
                f_nb.iter().copied().zip(s_nb.iter().copied()).collect();
            if let Some((_, indent)) = pairs_meet(file, search, &pairs, None) {
                out.push((a, b + 1 - a, Tier::BlankLines, indent));
            }
        }
    }
    out
}

/// Tier 8: windows of as many lines as the SEARCH text where one non-blank line is a typo of
/// its SEARCH line and every other line meets tiers 1–5; three non-blank SEARCH lines needed.
fn typo_tier(file: &[Line], search: &SearchText) -> Vec<Window> {
    let k = search.lines.len();
    if search.lines.iter().filter(|l| !blank(l)).count() < 3 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for first in 0..(file.len() + 1).saturating_sub(k) {
        let pairs: Vec<(usize, usize)> = (0..k).map(|j| (first + j, j)).collect();
        for j in 0..k {
            if blank(&search.lines[j]) || blank(file[first + j].content) {
                continue;
            }
            if let Some((_, indent)) = pairs_meet(file, search, &pairs, Some(j)) {
                out.push((first, k, Tier::Typo, indent));
                break;
            }
        }
    }
    out
}

/// Whitespace at the start of `s` (a whitespace-only line is all of it).
fn leading(s: &str) -> String {
    s.chars().take_while(|c| c.is_whitespace()).collect()
}

/// Whitespace at the end of `s`, reversed.
fn trailing(s: &str) -> String {
    s.chars().rev().take_while(|c| c.is_whitespace()).collect()
}

/// What a window that won on `tier` tolerated: every rule on every pair (file line, SEARCH
/// line) separately. The pairs are the window's lines in order, or, on the blank-line tier,
/// its non-blank lines with the SEARCH's non-blank lines. The tier itself stands for the
/// line-number prefixes (`search` is then the stripped text), the blank lines or the typo.
fn differences(file: &[Line], search: &SearchText, first: usize, count: usize, tier: Tier) -> u8 {
    let mut set = 0;
    if matches!(tier, Tier::LineNumberPrefix | Tier::BlankLines | Tier::Typo) {
        set |= bit(tier);
    }
    let pairs: Vec<(usize, usize)> = if tier == Tier::BlankLines {
        let f_nb = (first..first + count).filter(|&i| !blank(file[i].content));
        let s_nb = (0..search.lines.len()).filter(|&j| !blank(&search.lines[j]));
        f_nb.zip(s_nb).collect()
    } else {
        (0..count).map(|j| (first + j, j)).collect()
    };
    for (i, j) in pairs {
        let (f, s) = (file[i].content, search.lines[j].as_str());
        if file[i].eol != search.eols[j] {
            set |= bit(Tier::LineEndings);
        }
        if trailing(f) != trailing(s) {
            set |= bit(Tier::TrailingWhitespace);
        }
        let has_content = |x: &str| x.chars().any(|c| !c.is_whitespace());
        if has_content(f) && has_content(s) && leading(f) != leading(s) {
            set |= bit(Tier::Indentation);
        }
        let (ft, st) = (f.trim(), s.trim());
        let folded = fold(ft) == fold(st);
        // The typo line needed folding unless its raw text is already a typo.
        if ft != st && (folded || !is_typo(ft, st)) {
            set |= bit(Tier::Punctuation);
        }
    }
    set
}

/// One window wins; several refuse, unless the hint is within [`HINT_WINDOW`] lines of a
/// unique nearest one. `search` is the text the windows were compared with.
fn decide(
    file: &[Line],
    search: &SearchText,
    windows: &[Window],
    tier: Tier,
    hint: Option<usize>,
) -> Result<Found, NaiveMiss> {
    let found = |w: &Window, hinted: bool| {
        let &(first, count, tier, indent) = w;
        let end = if count == 0 {
            file[first].start
        } else {
            file[first + count - 1].end
        };
        Found {
            start: file[first].start,
            end,
            tier,
            candidates: windows.len(),
            hinted,
            indent,
            relaxed: differences(file, search, first, count, tier),
        }
    };
    if windows.len() == 1 {
        return Ok(found(&windows[0], false));
    }
    if let Some(hint) = hint {
        let distance = |w: &Window| (w.0 + 1).abs_diff(hint);
        let best = windows.iter().map(distance).min().unwrap_or(usize::MAX);
        let nearest: Vec<&Window> = windows.iter().filter(|w| distance(w) == best).collect();
        if nearest.len() == 1 && best <= HINT_WINDOW {
            return Ok(found(nearest[0], true));
        }
    }
    Err(NaiveMiss::Ambiguous {
        tier,
        windows: windows.iter().map(|w| (w.0, w.1)).collect(),
    })
}

/// The cascade for one non-empty SEARCH text.
pub(crate) fn locate(
    text: &str,
    search: &SearchText,
    hint: Option<usize>,
) -> Result<Found, NaiveMiss> {
    let file = lines(text);
    if let Some(decided) = line_tiers(&file, search, hint) {
        return decided;
    }
    if let Some((stripped, number)) = strip_numbers(search)
        && let Some(decided) = line_tiers(&file, &stripped, hint.or(Some(number)))
    {
        // What the stripped text tolerated, and the prefixes.
        return decided.map(|mut f| {
            f.tier = Tier::LineNumberPrefix;
            f.relaxed |= bit(Tier::LineNumberPrefix);
            f
        });
    }
    // Without blank lines at its edges, each loose tier again if it found nothing with them.
    let nonblank: Vec<usize> = (0..search.lines.len())
        .filter(|&j| !blank(&search.lines[j]))
        .collect();
    let trimmed = match (nonblank.first(), nonblank.last()) {
        (Some(&a), Some(&b)) if a > 0 || b + 1 < search.lines.len() => Some(SearchText {
            lines: search.lines[a..=b].to_vec(),
            eols: search.eols[a..=b].to_vec(),
        }),
        _ => None,
    };
    let searches: Vec<&SearchText> = std::iter::once(search).chain(trimmed.as_ref()).collect();
    for s in &searches {
        let windows = blank_tier(&file, s);
        if !windows.is_empty() {
            return decide(&file, s, &windows, Tier::BlankLines, hint);
        }
    }
    for s in &searches {
        let windows = typo_tier(&file, s);
        if !windows.is_empty() {
            return decide(&file, s, &windows, Tier::Typo, hint);
        }
    }
    Err(NaiveMiss::NotFound)
}

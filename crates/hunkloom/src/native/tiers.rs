//! The `native` matching cascade (see the module doc of `native` for the rules).
//!
//! The exact tier is a substring search (memchr's `memmem`) that keeps line-aligned hits, so an
//! exact edit never indexes the file. Every later tier starts from the candidates of the loosest
//! line key, found once per block in the file's non-blank lines ([`LooseLineIndex`]) by a
//! Z-algorithm pass ([`run_agreement`](crate::search::run_agreement)), and checks each
//! candidate window against the stricter keys; every window a stricter tier accepts is among
//! those candidates, so each tier still counts its matches in the whole file. The typo tier finds windows with at most one differing line from the common-prefix and
//! common-suffix lengths of every position (two more linear passes). A work budget bounds the
//! windows checked per block.

use super::differences::tolerated;
use super::file_index::FileIndex;
use super::indent::IndentMap;
use super::loose_lines::LooseLineIndex;
use super::normalize::{BLANK, fold_trimmed, indent_of, loose_hash};
use super::search_text::{SearchText, Tier};
use super::sparse::{self, Plan};
use super::typo::is_typo;
use crate::search::run_agreement::{all_runs, common_prefixes, common_suffixes};

/// A `:start_line:` hint picks among candidates whose first line is at most this far from it.
pub(crate) const HINT_WINDOW: usize = 10;

/// Line windows checked per block (beyond the exact tier) before the block is refused as too
/// repetitive to place.
const WINDOW_BUDGET: usize = 200_000;

impl SearchText {
    /// The SEARCH text without its leading and trailing blank lines (under the loose key), if
    /// it has some and other lines too.
    fn without_edge_blanks(&self, keys: &Keys) -> Option<SearchText> {
        let (&first, &last) = keys.nonblank.first().zip(keys.nonblank.last())?;
        if first == 0 && last + 1 == self.lines.len() {
            return None;
        }
        Some(SearchText {
            lines: self.lines[first..=last].to_vec(),
            eols: self.eols[first..=last].to_vec(),
        })
    }
}

/// Where a block's SEARCH text was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Located {
    /// The matched region in bytes of the original (whole lines, with their endings).
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// The region's first line (0-based) and its number of lines.
    pub(crate) first_line: usize,
    pub(crate) line_count: usize,
    pub(crate) tier: Tier,
    /// How many candidates the deciding tier had.
    pub(crate) candidates: usize,
    /// A `:start_line:` hint chose among several candidates.
    pub(crate) hinted: bool,
    pub(crate) indent: IndentMap,
    /// Every kind of difference the match tolerated between the SEARCH text and the region,
    /// one bit per [`Tier`] (never [`Tier::Exact`]'s), found once the tier has decided (see
    /// [`differences`](super::differences)).
    pub(crate) relaxed: u8,
    /// The indentation of the first non-blank line of the SEARCH text as matched (without
    /// line-number prefixes), which a replacement carrying the wrong indentation repeats.
    pub(crate) search_indent: String,
}

impl Located {
    /// Whether a difference of the kind `tier` relaxes was tolerated.
    pub(crate) fn used(&self, tier: Tier) -> bool {
        self.relaxed & tier.bit() != 0
    }
}

/// Why a SEARCH text was not placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Miss {
    NotFound,
    /// Several candidates in one tier: their (first line, line count), 0-based, and their byte
    /// spans in the original.
    Ambiguous {
        tier: Tier,
        windows: Vec<(usize, usize)>,
        spans: Vec<(usize, usize)>,
    },
    /// The work budget ran out among too many similar windows.
    TooRepetitive,
}

/// A candidate window.
#[derive(Clone, Copy, Debug)]
struct Cand {
    start: usize,
    end: usize,
    first_line: usize,
    line_count: usize,
    /// The tier this window meets (within a bucket, exact or line endings).
    tier: Tier,
    indent: IndentMap,
}

/// Runs the cascade for one non-empty SEARCH text.
pub(crate) fn locate(
    text: &str,
    index: &FileIndex,
    search: &SearchText,
    hint: Option<usize>,
) -> Result<Located, Miss> {
    debug_assert!(!search.lines.is_empty());
    // Once a tier has decided: what the match tolerated (compared with the SEARCH text the tier
    // compared), and the SEARCH text's indentation.
    let settle = |mut found: Located, search: &SearchText| {
        found.relaxed = tolerated(&text[found.start..found.end], search, found.tier);
        debug_assert!(
            found.tier == Tier::Exact || found.used(found.tier),
            "{found:?}"
        );
        found.search_indent = search
            .lines
            .iter()
            .find(|l| !l.trim().is_empty())
            .map_or("", |l| indent_of(l))
            .to_owned();
        found
    };
    if let Some(exact) = exact_fast_path(text, index, search)
        && !exact.is_empty()
    {
        return decide(exact, Tier::Exact, hint).map(|f| settle(f, search));
    }
    // Index only around the anchors' hits if nothing is indexed yet and anchors apply (see
    // [`sparse`]); else the whole file, once per applier.
    let plan = match index.loose.get() {
        None => sparse::plan(text, search),
        Some(_) => None,
    };
    let views: Vec<View> = match &plan {
        Some(Plan::Nothing) => return Err(Miss::NotFound),
        Some(Plan::Parts(parts)) => parts
            .iter()
            .map(|p| View {
                text: &text[p.byte..p.end],
                ix: &p.ix,
                byte: p.byte,
                line: p.line,
            })
            .collect(),
        None => vec![View {
            text,
            ix: index.loose.get_or_init(|| LooseLineIndex::new(text)),
            byte: 0,
            line: 0,
        }],
    };
    let mut budget = WINDOW_BUDGET;
    if let Some(found) = line_tiers(&views, search, hint, &mut budget)? {
        return Ok(settle(found, search));
    }
    if let Some((stripped, number)) = search.without_line_numbers() {
        // (Never with sparse views: the plan refuses SEARCH texts with line numbers.)
        let hint = hint.or(Some(number));
        let found = match exact_fast_path(text, index, &stripped).filter(|e| !e.is_empty()) {
            Some(exact) => Some(decide(exact, Tier::Exact, hint)?),
            None => line_tiers(&views, &stripped, hint, &mut budget)?,
        };
        if let Some(mut found) = found {
            found.tier = Tier::LineNumberPrefix;
            return Ok(settle(found, &stripped));
        }
    }
    let keys = Keys::new(search);
    if keys.nonblank.is_empty() {
        return Err(Miss::NotFound);
    }
    // Blank lines at the edges of the SEARCH text that the file does not have there match
    // nothing: each loose tier runs again without them when it found nothing with them.
    let trimmed = search.without_edge_blanks(&keys);
    let trimmed_keys = trimmed.as_ref().map(Keys::new);
    let edges = trimmed.as_ref().zip(trimmed_keys.as_ref());
    let blank = blank_tier(&views, search, &keys, &mut budget)?;
    if !blank.is_empty() {
        return decide(blank, Tier::BlankLines, hint).map(|f| settle(f, search));
    }
    if let Some((trimmed, keys)) = edges {
        let blank = blank_tier(&views, trimmed, keys, &mut budget)?;
        if !blank.is_empty() {
            return decide(blank, Tier::BlankLines, hint).map(|f| settle(f, trimmed));
        }
    }
    let typos = typo_tier(&views, search, &keys, &mut budget)?;
    if !typos.is_empty() {
        return decide(typos, Tier::Typo, hint).map(|f| settle(f, search));
    }
    if let Some((trimmed, keys)) = edges {
        let typos = typo_tier(&views, trimmed, keys, &mut budget)?;
        if !typos.is_empty() {
            return decide(typos, Tier::Typo, hint).map(|f| settle(f, trimmed));
        }
    }
    Err(Miss::NotFound)
}

/// Consecutive lines of the file, indexed: the whole file, or one part of it (see [`sparse`]).
struct View<'a> {
    text: &'a str,
    ix: &'a LooseLineIndex,
    /// Where the part starts in the file: its first byte and line.
    byte: usize,
    line: usize,
}

/// The loose hashes of a SEARCH text's lines and which lines are not blank.
struct Keys {
    loose: Vec<u64>,
    nonblank: Vec<usize>,
}

impl Keys {
    fn new(search: &SearchText) -> Self {
        let mut buf = String::new();
        let loose: Vec<u64> = search
            .lines
            .iter()
            .map(|l| loose_hash(l, &mut buf))
            .collect();
        let nonblank = (0..loose.len()).filter(|&j| loose[j] != BLANK).collect();
        Keys { loose, nonblank }
    }

    fn nonblank_loose(&self) -> Vec<u64> {
        self.nonblank.iter().map(|&j| self.loose[j]).collect()
    }
}

/// The line-preserving tiers: exact, line endings, trailing whitespace, indentation,
/// punctuation. `Ok(None)` when none has a candidate.
///
/// Line endings are invisible to a model, so a window that differs only in them counts with
/// the exact candidates (and is reported as the line-endings tier).
fn line_tiers(
    views: &[View],
    search: &SearchText,
    hint: Option<usize>,
    budget: &mut usize,
) -> Result<Option<Located>, Miss> {
    let keys = Keys::new(search);
    let k = search.lines.len();
    let mut buckets: [Vec<Cand>; 4] = Default::default();
    for v in views {
        let ix = v.ix;
        let firsts: Vec<usize> = match keys.nonblank.first() {
            Some(&lead) => all_runs(&keys.nonblank_loose(), &ix.nonblank_loose)
                .into_iter()
                .filter_map(|c| (ix.nonblank[c] as usize).checked_sub(lead))
                .filter(|&first| first + k <= ix.len())
                .collect(),
            // A SEARCH text of blank lines: every run of as many blank lines.
            None => blank_runs(ix, k),
        };
        for first in firsts {
            spend(budget)?;
            let pairs = (0..k).map(|j| (first + j, j));
            if let Some((tier, indent)) = compare(v.text, ix, search, pairs, None) {
                let bucket = (tier as usize).saturating_sub(1);
                buckets[bucket].push(cand(v, first, k, tier, indent));
            }
        }
    }
    let tiers = [
        Tier::Exact,
        Tier::TrailingWhitespace,
        Tier::Indentation,
        Tier::Punctuation,
    ];
    for (bucket, tier) in buckets.into_iter().zip(tiers) {
        if !bucket.is_empty() {
            return decide(bucket, tier, hint).map(Some);
        }
    }
    Ok(None)
}

/// The first lines of the windows of `k` lines that are all blank.
fn blank_runs(ix: &LooseLineIndex, k: usize) -> Vec<usize> {
    let mut run = 0;
    let mut out = Vec::new();
    for (i, &h) in ix.loose.iter().enumerate() {
        run = if h == BLANK { run + 1 } else { 0 };
        if run >= k {
            out.push(i + 1 - k);
        }
    }
    out
}

/// The exact tier without the loose index, when line endings can only differ at the end of
/// the file (no `\r` in the file or the SEARCH text): line-aligned hits (overlapping ones
/// included; see [`FileIndex::line_aligned_hits`]), plus the file's last lines if they lack
/// only the final newline. `None` when the indexed path must decide.
fn exact_fast_path(text: &str, index: &FileIndex, search: &SearchText) -> Option<Vec<Cand>> {
    if search.eols.iter().any(|e| *e != "\n") || index.has_cr(text) {
        return None;
    }
    let needle = search.joined();
    let hay = text.as_bytes();
    let k = search.lines.len();
    let mut out: Vec<Cand> = index
        .line_aligned_hits(text, &needle)
        .into_iter()
        .map(|start| Cand {
            start,
            end: start + needle.len(),
            first_line: 0,
            line_count: k,
            tier: Tier::Exact,
            indent: IndentMap::IDENTITY,
        })
        .collect();
    // `needle` minus its last `\n` at the very end of a file without a final newline.
    let tail = &needle[..needle.len() - 1];
    // (An empty file has no last line: `tail` must cover one.)
    if !text.ends_with('\n') && !text.is_empty() && text.ends_with(tail) {
        let start = text.len() - tail.len();
        if start == 0 || hay[start - 1] == b'\n' {
            out.push(Cand {
                start,
                end: text.len(),
                first_line: 0,
                line_count: k,
                tier: Tier::LineEndings,
                indent: IndentMap::IDENTITY,
            });
        }
    }
    // Line numbers only matter to choose among several candidates (the engine takes the
    // winner's from its offset), so a unique match never counts the lines before it.
    if out.len() > 1 {
        let (mut line, mut counted) = (0, 0);
        for c in &mut out {
            line += memchr::memchr_iter(b'\n', &hay[counted..c.start]).count();
            counted = c.start;
            c.first_line = line;
        }
    }
    Some(out)
}

fn cand(v: &View, first: usize, count: usize, tier: Tier, indent: IndentMap) -> Cand {
    Cand {
        start: v.byte + v.ix.start(first),
        end: v.byte + v.ix.start(first + count),
        first_line: v.line + first,
        line_count: count,
        tier,
        indent,
    }
}

fn spend(budget: &mut usize) -> Result<(), Miss> {
    *budget = budget.checked_sub(1).ok_or(Miss::TooRepetitive)?;
    Ok(())
}

/// Compares file lines with SEARCH lines pairwise (`(file line, search line)`): the strictest
/// line-preserving tier every pair meets and the indentation map. The SEARCH line `typo`, if
/// given, must instead differ from its file line by a typo. (What the winning window tolerated
/// is found afterwards, by [`tolerated`].)
fn compare(
    text: &str,
    ix: &LooseLineIndex,
    search: &SearchText,
    pairs: impl Iterator<Item = (usize, usize)>,
    typo: Option<usize>,
) -> Option<(Tier, IndentMap)> {
    let mut worst = Tier::Exact;
    let mut indents = Vec::new();
    for (fi, sj) in pairs {
        let f = ix.content(text, fi);
        let s = search.lines[sj].as_str();
        let tier = if typo == Some(sj) {
            if !is_typo(&fold_trimmed(f), &fold_trimmed(s)) {
                return None;
            }
            Tier::Typo
        } else if f == s {
            if ix.eol(text, fi) == search.eols[sj] {
                Tier::Exact
            } else {
                Tier::LineEndings
            }
        } else if f.trim_end() == s.trim_end() {
            Tier::TrailingWhitespace
        } else if f.trim() == s.trim() {
            Tier::Indentation
        } else if fold_trimmed(f) == fold_trimmed(s) {
            Tier::Punctuation
        } else {
            return None;
        };
        worst = worst.max(tier);
        if !f.trim().is_empty() && !s.trim().is_empty() {
            indents.push((indent_of(f), indent_of(s)));
        }
    }
    let indent = if worst >= Tier::Indentation && !indents.is_empty() {
        IndentMap::infer(&indents)?
    } else {
        IndentMap::IDENTITY
    };
    // A typo window is classified by its other lines; report it as the typo tier.
    Some((worst.min(Tier::Punctuation), indent))
}

/// Windows whose non-blank lines match the SEARCH's non-blank lines, blank lines ignored
/// (leading and trailing blank SEARCH lines must still be there).
fn blank_tier(
    views: &[View],
    search: &SearchText,
    keys: &Keys,
    budget: &mut usize,
) -> Result<Vec<Cand>, Miss> {
    let k = search.lines.len();
    let m = keys.nonblank.len();
    let lead = keys.nonblank[0];
    let trail = k - 1 - keys.nonblank[m - 1];
    let mut out = Vec::new();
    for v in views {
        let ix = v.ix;
        for c in all_runs(&keys.nonblank_loose(), &ix.nonblank_loose) {
            let first_nb = ix.nonblank[c] as usize;
            let last_nb = ix.nonblank[c + m - 1] as usize;
            if first_nb < lead || last_nb + trail >= ix.len() {
                continue;
            }
            let (first, last) = (first_nb - lead, last_nb + trail);
            let blank = |i: usize| ix.loose[i] == BLANK;
            if !(first..first_nb).all(blank) || !(last_nb + 1..=last).all(blank) {
                continue;
            }
            spend(budget)?;
            let pairs = (0..m).map(|j| (ix.nonblank[c + j] as usize, keys.nonblank[j]));
            if let Some((_, indent)) = compare(v.text, ix, search, pairs, None) {
                out.push(cand(v, first, last + 1 - first, Tier::BlankLines, indent));
            }
        }
    }
    Ok(out)
}

/// Same-size windows where exactly one non-blank line differs from the SEARCH text, by a typo;
/// the SEARCH must have at least three non-blank lines.
fn typo_tier(
    views: &[View],
    search: &SearchText,
    keys: &Keys,
    budget: &mut usize,
) -> Result<Vec<Cand>, Miss> {
    let k = search.lines.len();
    let mut out = Vec::new();
    if keys.nonblank.len() < 3 {
        return Ok(out);
    }
    for v in views {
        let ix = v.ix;
        let n = ix.len();
        if k > n {
            continue;
        }
        let pre = common_prefixes(&keys.loose, &ix.loose);
        let suf = common_suffixes(&keys.loose, &ix.loose);
        for first in 0..=n - k {
            let p = pre[first] as usize;
            if p >= k || p + suf[first + k - 1] as usize + 1 < k {
                continue;
            }
            if keys.loose[p] == BLANK || ix.loose[first + p] == BLANK {
                continue;
            }
            spend(budget)?;
            let pairs = (0..k).map(|j| (first + j, j));
            if let Some((_, indent)) = compare(v.text, ix, search, pairs, Some(p)) {
                out.push(cand(v, first, k, Tier::Typo, indent));
            }
        }
    }
    Ok(out)
}

/// One candidate wins; several are ambiguous unless a hint picks the unique nearest one within
/// [`HINT_WINDOW`] lines.
fn decide(cands: Vec<Cand>, tier: Tier, hint: Option<usize>) -> Result<Located, Miss> {
    let located = |c: &Cand, hinted: bool| Located {
        start: c.start,
        end: c.end,
        first_line: c.first_line,
        line_count: c.line_count,
        tier: c.tier,
        candidates: cands.len(),
        hinted,
        indent: c.indent,
        relaxed: 0,
        search_indent: String::new(),
    };
    if let [only] = cands.as_slice() {
        return Ok(located(only, false));
    }
    if let Some(hint) = hint {
        let distance = |c: &Cand| (c.first_line + 1).abs_diff(hint);
        let best = cands.iter().map(distance).min().unwrap_or(usize::MAX);
        let mut nearest = cands.iter().filter(|c| distance(c) == best);
        if let (Some(c), None) = (nearest.next(), nearest.next())
            && best <= HINT_WINDOW
        {
            return Ok(located(c, true));
        }
    }
    Err(Miss::Ambiguous {
        tier,
        windows: cands.iter().map(|c| (c.first_line, c.line_count)).collect(),
        spans: cands.iter().map(|c| (c.start, c.end)).collect(),
    })
}

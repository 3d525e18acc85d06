//! Applying a file's fragments as `git apply` does: each fragment's preimage (context and `-`
//! lines) must occur byte for byte at a run of lines no earlier fragment wrote; the run nearest
//! the fragment's new-side line number wins (ties go forward), `@@ -1` or `@@ -0` pins it to the
//! start of the file and a fragment without trailing context to its end. The first fragment
//! that does not apply fails the file.
//!
//! # The same winner, without git's walk
//!
//! git rewrites its image after every fragment and walks it line by line from the hint, so a
//! patch of h fragments over n lines costs O(n·h). Here the image is never rebuilt:
//!
//! - Lines an earlier fragment wrote can never be matched again, so a preimage can only match a
//!   run of original lines that no fragment consumed ([`Consumed`]). git's first try, the line
//!   the header names, is checked directly; when the preimage is not there, the candidates are
//!   found in the original through an index of its lines, built then (the preimage's rarest
//!   line anchors them).
//! - Where a run sits in git's image (for the nearest-to-the-hint choice and the start and end
//!   pins) is its original line plus the growth of the fragments before it, kept in a Fenwick
//!   tree over the original's lines ([`Growth`]).
//! - A fragment with no preimage line has no trailing context, so git pins it to the end of its
//!   image: its lines are appended there.
//!
//! The new text is assembled once, at the end. A fragment costs O(k + candidates × k + log n)
//! for k preimage lines.

use std::cell::OnceCell;
use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use super::file_patch::{FilePatch, Fragment, git_error};
use crate::error::{ErrorKind, Result};
use crate::search::line_starts::LineCheckpoints;

/// Where a fragment applied, in lines of the original text (0-based), and the byte span of
/// the original it replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placed {
    pub(crate) first_line: usize,
    pub(crate) line_count: usize,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// git's line hash: every byte but whitespace, `h = h * 3 + byte`, kept to 24 bits.
fn hash_line(line: &[u8]) -> u32 {
    let mut h: u32 = 0;
    for &b in line {
        if !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            h = h.wrapping_mul(3).wrapping_add(u32::from(b));
        }
    }
    h & 0x00ff_ffff
}

/// Splits `text` into lines (each with its `\n`; the last may lack one).
fn split(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let len = super::parse::linelen(text, at);
        out.push(&text[at..at + len]);
        at += len;
    }
    out
}

/// A fragment's two sides, as git builds them from its body.
struct Sides {
    old: Vec<String>,
    new: Vec<String>,
}

/// The preimage and postimage lines of `fragment`; `None` when a body line starts with a
/// character git does not know there.
fn sides(fragment: &Fragment) -> Option<Sides> {
    let mut old = Vec::new();
    let mut new = Vec::new();
    let body = &fragment.body;
    for (i, line) in body.iter().enumerate() {
        let incomplete = body.get(i + 1).is_some_and(|n| n.starts_with('\\'));
        // The line without its first character, and without its `\n` when a `\` line follows.
        let content = || {
            let end = line.len() - usize::from(incomplete);
            line.get(1..end.max(1)).unwrap_or("").to_owned()
        };
        match line.as_bytes()[0] {
            b'\n' => {
                if !incomplete {
                    old.push("\n".to_owned());
                    new.push("\n".to_owned());
                }
            }
            b' ' => {
                let c = content();
                old.push(c.clone());
                new.push(c);
            }
            b'-' => old.push(content()),
            b'+' => new.push(content()),
            b'\\' | b'@' => {}
            _ => return None,
        }
    }
    Some(Sides { old, new })
}

/// Prefix sums of the growth (new lines less old lines) of the fragments applied, by the
/// original line where each applied: a Fenwick tree.
struct Growth(Vec<i64>);

impl Growth {
    fn new(lines: usize) -> Self {
        Growth(vec![0; lines + 1])
    }

    fn add(&mut self, line: usize, delta: i64) {
        let mut i = line + 1;
        while i < self.0.len() {
            self.0[i] += delta;
            i += i & i.wrapping_neg();
        }
    }

    /// The growth of the fragments applied at original lines before `line`.
    fn before(&self, line: usize) -> i64 {
        let mut i = line.min(self.0.len() - 1);
        let mut sum = 0;
        while i > 0 {
            sum += self.0[i];
            i -= i & i.wrapping_neg();
        }
        sum
    }
}

/// The runs of original lines fragments consumed (start → end), which never overlap.
#[derive(Default)]
struct Consumed(BTreeMap<usize, (usize, Vec<String>)>);

impl Consumed {
    /// Whether the lines `p..p + k` are all still original.
    fn free(&self, p: usize, k: usize) -> bool {
        match self.0.range(..p + k).next_back() {
            Some((_, (end, _))) => *end <= p,
            None => true,
        }
    }
}

/// The file being patched: the original, what the fragments did to it, and git's image size.
struct Image<'a> {
    text: &'a str,
    /// Where the original's lines start, by counting (a fragment found where its header says
    /// reads its own lines only).
    checkpoints: LineCheckpoints,
    /// The number of original lines.
    n: usize,
    /// Every original line, listed when a fragment is searched for.
    lines: OnceCell<Vec<&'a str>>,
    /// The original's lines by content, built when a fragment is not where its header says
    /// (git's first try): one that is costs no index of the file.
    index: OnceCell<FxHashMap<&'a str, Vec<u32>>>,
    consumed: Consumed,
    growth: Growth,
    /// Lines appended at the end of the image (fragments without a preimage).
    tail: Vec<String>,
    /// The number of lines of git's image.
    nr: usize,
}

impl<'a> Image<'a> {
    fn new(text: &'a str) -> Self {
        let checkpoints = LineCheckpoints::new(text.as_bytes());
        let n = checkpoints.newlines() + usize::from(!text.is_empty() && !text.ends_with('\n'));
        Image {
            text,
            checkpoints,
            n,
            lines: OnceCell::new(),
            index: OnceCell::new(),
            consumed: Consumed::default(),
            growth: Growth::new(n),
            tail: Vec::new(),
            nr: n,
        }
    }

    /// Every original line (each with its `\n`), listed on first use.
    fn lines(&self) -> &[&'a str] {
        self.lines.get_or_init(|| split(self.text))
    }

    /// Where original line `i` starts (the end of the text for `i == n`).
    fn start(&self, i: usize) -> usize {
        if i >= self.n {
            self.text.len()
        } else {
            self.checkpoints.start_of(self.text.as_bytes(), i)
        }
    }

    /// The original lines from `p` on, each with its `\n`.
    fn lines_from(&self, p: usize) -> impl Iterator<Item = &'a str> + use<'a> {
        let text = self.text;
        let mut at = self.start(p);
        std::iter::from_fn(move || {
            (at < text.len()).then(|| {
                let len = super::parse::linelen(text, at);
                at += len;
                &text[at - len..at]
            })
        })
    }

    /// The original's lines by content, built on first use.
    fn index(&self) -> &FxHashMap<&'a str, Vec<u32>> {
        self.index.get_or_init(|| {
            let lines = self.lines();
            let mut index: FxHashMap<&str, Vec<u32>> =
                FxHashMap::with_capacity_and_hasher(lines.len(), Default::default());
            for (i, l) in lines.iter().enumerate() {
                index.entry(l).or_default().push(i as u32);
            }
            index
        })
    }

    /// Where original line `p` (not consumed) sits in git's image.
    fn position(&self, p: usize) -> usize {
        (p as i64 + self.growth.before(p)) as usize
    }

    /// Whether the original lines from `p` match `old` as git compares them: every line equal,
    /// but a last preimage line without `\n` need only start the file's line, the rest of which
    /// git's whitespace-blind hash cannot tell apart.
    fn matches(&self, p: usize, old: &[String], match_end: bool) -> bool {
        let k = old.len();
        if p + k > self.n {
            return false;
        }
        let mut lines: Box<dyn Iterator<Item = &str>> = match self.lines.get() {
            Some(lines) => Box::new(lines[p..].iter().copied()),
            None => Box::new(self.lines_from(p)),
        };
        for (j, pre) in old.iter().enumerate() {
            let Some(line) = lines.next() else {
                return false;
            };
            if pre.ends_with('\n') || j + 1 < k {
                if line != pre {
                    return false;
                }
            } else {
                // The incomplete last line: its bytes start the line, and the hashes agree;
                // pinned to the end, nothing may follow it.
                let ok = line.starts_with(pre.as_str())
                    && hash_line(line.as_bytes()) == hash_line(pre.as_bytes())
                    && (!match_end || line.len() == pre.len());
                if !ok {
                    return false;
                }
            }
        }
        true
    }

    /// The original lines where `old` (not empty) may start: those of its rarest complete line,
    /// shifted; every line when it has only an incomplete one.
    fn candidates(&self, old: &[String]) -> Vec<usize> {
        let anchor = old
            .iter()
            .enumerate()
            .filter(|(_, l)| l.ends_with('\n'))
            .min_by_key(|(_, l)| self.index().get(l.as_str()).map_or(0, Vec::len));
        match anchor {
            Some((j, line)) => self
                .index()
                .get(line.as_str())
                .map(|ps| {
                    ps.iter()
                        .filter_map(|&p| (p as usize).checked_sub(j))
                        .collect()
                })
                .unwrap_or_default(),
            None => (0..self.n).collect(),
        }
    }
}

/// Applies every fragment of `patch` to `original`: the new text and where each fragment
/// applied, or git's two error lines for the first fragment that does not apply.
pub(crate) fn apply_fragments(original: &str, patch: &FilePatch) -> Result<(String, Vec<Placed>)> {
    let mut image = Image::new(original);
    let mut placed = Vec::with_capacity(patch.fragments.len());
    for fragment in &patch.fragments {
        match apply_one(&mut image, fragment) {
            Some(p) => placed.push(p),
            None => {
                let name = patch.name();
                return Err(git_error(
                    ErrorKind::PatchContextNotFound,
                    &format!(
                        "patch failed: {name}:{}\nerror: {name}: patch does not apply",
                        fragment.oldpos
                    ),
                ));
            }
        }
    }
    let text = assemble(&image);
    if patch.is_delete && !text.is_empty() {
        return Err(git_error(
            ErrorKind::PatchContextNotFound,
            &format!(
                "removal patch leaves file contents\nerror: {}: patch does not apply",
                patch.name()
            ),
        ));
    }
    Ok((text, placed))
}

/// Applies one fragment; `None` when it matches nowhere.
fn apply_one(image: &mut Image<'_>, fragment: &Fragment) -> Option<Placed> {
    let Sides { old, new } = sides(fragment)?;
    let match_beginning = fragment.oldpos <= 1;
    let match_end = fragment.trailing == 0;
    let k = old.len();
    let nr = image.nr;
    let n = image.n;
    if k == 0 {
        // No preimage: no trailing context, so pinned to the end of the image (and to its
        // start too when the header says line 0 or 1, which only an empty image satisfies).
        if match_beginning && nr != 0 {
            return None;
        }
        image.nr += new.len();
        image.tail.extend(new);
        return Some(Placed {
            first_line: n,
            line_count: 0,
            start: image.text.len(),
            end: image.text.len(),
        });
    }
    let line = if match_beginning {
        0
    } else if match_end {
        nr.checked_sub(k).unwrap_or(nr)
    } else {
        fragment.newpos.saturating_sub(1)
    }
    .min(nr);
    // git tries `line`, then `line + 1`, `line - 1`, `line + 2`, ...: the nearest, forward first.
    let rank = |q: usize| {
        if q >= line {
            (2 * (q - line)).saturating_sub(1)
        } else {
            2 * (line - q)
        }
    };
    // Where original line `p` puts the preimage in git's image, if it matches there.
    let fits = |image: &Image<'_>, p: usize| {
        if !image.consumed.free(p, k) || !image.matches(p, &old, match_end) {
            return None;
        }
        let q = image.position(p);
        let pinned = (match_beginning && q != 0) || (match_end && q + k != nr) || q + k > nr;
        (!pinned).then_some(q)
    };
    // git's first try, the line the header names: when it matches, nothing is nearer.
    let named = (line as i64 - image.growth.before(line)).max(0) as usize;
    let mut best: Option<(usize, usize)> = (named < n && image.position(named) == line)
        .then(|| fits(image, named))
        .flatten()
        .map(|q| (rank(q), named));
    if best.is_none_or(|(r, _)| r != 0) {
        for p in image.candidates(&old) {
            if best.is_some_and(|(r, _)| r == 0) {
                break;
            }
            let Some(q) = fits(image, p) else {
                continue;
            };
            if best.is_none_or(|(r, _)| rank(q) < r) {
                best = Some((rank(q), p));
            }
        }
    }
    let (_, p) = best?;
    let grown = new.len() as i64 - k as i64;
    image.growth.add(p, grown);
    image.nr = (image.nr as i64 + grown) as usize;
    image.consumed.0.insert(p, (p + k, new));
    Some(Placed {
        first_line: p,
        line_count: k,
        start: image.start(p),
        end: image.start(p + k),
    })
}

/// The new text: the original with each consumed run replaced, then the appended lines.
fn assemble(image: &Image<'_>) -> String {
    let mut out = String::with_capacity(image.text.len());
    let mut at = 0;
    for (&start, (end, new)) in &image.consumed.0 {
        out.push_str(&image.text[image.start(at)..image.start(start)]);
        for line in new {
            out.push_str(line);
        }
        at = *end;
    }
    out.push_str(&image.text[image.start(at)..]);
    for line in &image.tail {
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patch::udiff::git::naive;
    use crate::patch::udiff::git::parse::parse;
    use proptest::prelude::*;

    fn apply(diff: &str, original: &str) -> Result<String> {
        let patches = parse(diff, None, false)?;
        apply_fragments(original, &patches[0]).map(|(t, _)| t)
    }

    #[test]
    fn the_nearest_match_wins_and_written_lines_are_not_matched_again() {
        let original = "x\na\nx\nb\nx\na\nx\n";
        let diff = "--- a/f\n+++ b/f\n@@ -6,2 +6,2 @@\n-x\n+y\n a\n";
        assert_eq!(apply(diff, original).unwrap(), "x\na\nx\nb\ny\na\nx\n");
        // Two fragments on the same text: the second cannot match what the first wrote.
        let diff = "--- a/f\n+++ b/f\n@@ -2,1 +2,1 @@\n-a\n+x\n@@ -2,1 +2,1 @@\n-x\n+z\n";
        assert_eq!(
            apply(diff, "a\nb\n").unwrap_err().code(),
            "patch_context_not_found"
        );
    }

    #[test]
    fn a_missing_final_newline_must_be_marked() {
        let diff = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n";
        assert_eq!(apply(diff, "a").unwrap(), "b\n");
        let diff = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n";
        let err = apply(diff, "a").unwrap_err();
        assert_eq!(
            err.message(),
            "error: patch failed: f:1\nerror: f: patch does not apply"
        );
    }

    #[test]
    fn positions_follow_the_growth_of_earlier_fragments() {
        // The first fragment adds two lines; the second's hint (new side, line 6) is right
        // only counting them, and picks the nearer of two equal runs.
        let original = "a\nb\nc\nd\nc\nd\n";
        let diff =
            "--- a/f\n+++ b/f\n@@ -1,2 +1,4 @@\n a\n+1\n+2\n b\n@@ -5,2 +7,2 @@\n-c\n+C\n d\n";
        assert_eq!(apply(diff, original).unwrap(), "a\n1\n2\nb\nc\nd\nC\nd\n");
    }

    /// A file of repeated short lines (so preimages match in several places) and a patch of
    /// fragments cut from it, with hints right or wrong, markers where the file lacks a final
    /// newline, and removed and added lines.
    fn case() -> impl Strategy<Value = (String, String)> {
        let line = prop::sample::select(vec!["a", "b", "c", "  a", "x", ""]);
        (
            proptest::collection::vec(line.clone(), 0..14),
            any::<bool>(),
            proptest::collection::vec(
                (
                    any::<usize>(),
                    0usize..4,
                    any::<u8>(),
                    0usize..16,
                    proptest::collection::vec(line, 0..3),
                ),
                1..4,
            ),
        )
            .prop_map(|(lines, final_nl, fragments)| {
                let mut file = String::new();
                for (i, l) in lines.iter().enumerate() {
                    file.push_str(l);
                    if final_nl || i + 1 < lines.len() {
                        file.push('\n');
                    }
                }
                let mut diff = String::from("--- a/f\n+++ b/f\n");
                for (at, len, ops, hint, added) in fragments {
                    let start = if lines.is_empty() {
                        0
                    } else {
                        at % lines.len()
                    };
                    let end = (start + len).min(lines.len());
                    let mut body = String::new();
                    let (mut old, mut new) = (0, 0);
                    for (j, l) in lines[start..end].iter().enumerate() {
                        let removed = (ops >> (j % 8)) & 1 == 1;
                        body.push(if removed { '-' } else { ' ' });
                        body.push_str(l);
                        body.push('\n');
                        if start + j + 1 == lines.len() && !final_nl {
                            body.push_str("\\ No newline at end of file\n");
                        }
                        old += 1;
                        new += usize::from(!removed);
                    }
                    for a in &added {
                        body.push('+');
                        body.push_str(a);
                        body.push('\n');
                        new += 1;
                    }
                    if old + new == 0 {
                        continue;
                    }
                    diff.push_str(&format!("@@ -{hint},{old} +{hint},{new} @@\n{body}"));
                }
                (file, diff)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// The indexed application picks the same places as git's walk, so gives the same text
        /// (or the same failure).
        #[test]
        fn agrees_with_gits_walk((file, diff) in case()) {
            let Ok(patches) = parse(&diff, None, false) else { return Ok(()) };
            let fast = apply_fragments(&file, &patches[0]).ok().map(|(t, _)| t);
            prop_assert_eq!(fast, naive::apply(&file, &patches[0]), "{:?} on {:?}", diff, file);
        }
    }

    /// The oracle comparison is only worth its time if patches apply: in a fixed sample, many
    /// must, and some must fail.
    #[test]
    fn the_generator_reaches_both_outcomes() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let (mut applied, mut failed) = (0, 0);
        for _ in 0..400 {
            let (file, diff) = case().new_tree(&mut runner).expect("a value").current();
            if let Ok(patches) = parse(&diff, None, false) {
                match apply_fragments(&file, &patches[0]) {
                    Ok(_) => applied += 1,
                    Err(_) => failed += 1,
                }
            }
        }
        assert!(
            applied >= 100 && failed >= 40,
            "{applied} applied, {failed} failed"
        );
    }
}

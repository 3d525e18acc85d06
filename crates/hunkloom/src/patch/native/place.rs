//! Where each section goes, and the text it leaves there.
//!
//! A section's context and `-` lines are looked for in the whole file through the `native`
//! dialect's cascade ([`tiers::locate`]), independently of the other sections and of their
//! order. One candidate is used. Between several, only what the patch itself says may choose:
//! its `@@` anchors (the one candidate nearest below the anchor line, for every place the
//! anchors lead to), then `*** End of File` (the one that ends the file). Otherwise the section
//! is refused, naming the candidates. A section with no context or `-` lines goes right below
//! its anchor, at the end with `*** End of File`, or at the top as the first section.

use std::borrow::Cow;
use std::cell::{Cell, OnceCell};
use std::fmt::Write as _;

use super::read::{Kind, Line, Section};
use crate::error::{Error, ErrorKind, Result};
use crate::native::applied;
use crate::native::file_index::FileIndex;
use crate::native::indent::IndentMap;
use crate::native::normalize::indent_of;
use crate::native::omission;
use crate::native::search_text::{self, SearchText, Tier};
use crate::native::tiers::{self, Miss};
use crate::report::Normalization;
use crate::report::Strategy;
use crate::search::line_starts::{LineCheckpoints, line_starts};

/// What chose a section's place among several candidates.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChosenBy {
    /// Its `@@` anchor lines.
    Anchor,
    /// Its `*** End of File` line.
    EndOfFile,
}

crate::names!(ChosenBy {
    Anchor => "anchor",
    EndOfFile => "end_of_file",
});

/// How one section of a patch was placed.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkReport {
    /// Its 1-based index in the body.
    pub index: usize,
    /// The 1-based line of the file where its lines start (for an insertion: the line the new
    /// lines go before; one past the last line at the end).
    pub line: usize,
    /// How many lines of the file it covers (context and removed).
    pub context_lines: usize,
    /// How many lines it removes.
    pub removed: usize,
    /// How many lines it adds.
    pub added: usize,
    /// The tier that placed it ([`Strategy::Exact`] for an insertion).
    pub strategy: Strategy,
    /// Every kind of difference the match tolerated.
    pub normalizations: Vec<Normalization>,
    /// How many places the deciding tier found (1 when the text alone decided).
    pub candidates: usize,
    /// What chose among several candidates, if anything had to.
    pub chosen_by: Option<ChosenBy>,
    /// Its new lines were already where its old ones would be: nothing was changed.
    pub already_applied: bool,
    /// Its `+` lines were re-indented by this many columns to match the file.
    pub indent_delta: isize,
}

/// A section placed: the bytes of the input it replaces and the text it puts there.
#[derive(Clone, Debug)]
pub(super) struct Placed {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) text: String,
    pub(super) report: ChunkReport,
}

/// The input's lines as byte ranges, found on first need: a chunk found exactly once places
/// itself from byte offsets, its line counted through per-block counts of the `\n`s.
#[derive(Debug)]
pub(super) struct Input<'a> {
    /// The file's text (owned by a streaming applier, borrowed by a one-shot apply).
    pub(super) text: Cow<'a, str>,
    /// Byte offset of every line start, and one past the end.
    starts: OnceCell<Vec<usize>>,
    /// Line ↔ byte by counting one block, until the starts are built; after the first
    /// question (a one-chunk patch asks one), which counts directly.
    checkpoints: OnceCell<LineCheckpoints>,
    asked: Cell<bool>,
    index: FileIndex,
    /// The input's first line ending (`\n` without one).
    eol: &'static str,
}

impl<'a> Input<'a> {
    pub(super) fn new(text: impl Into<Cow<'a, str>>) -> Input<'a> {
        let text = text.into();
        let eol = match memchr::memchr(b'\n', text.as_bytes()) {
            Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
            _ => "\n",
        };
        Input {
            text,
            starts: OnceCell::new(),
            checkpoints: OnceCell::new(),
            asked: Cell::new(false),
            index: FileIndex::default(),
            eol,
        }
    }

    /// The 0-based line that byte `offset` is on.
    pub(super) fn line_at(&self, offset: usize) -> usize {
        match self.starts.get() {
            Some(starts) => starts.partition_point(|&s| s <= offset).saturating_sub(1),
            None if !self.asked.replace(true) => {
                let before = &self.text.as_bytes()[..offset.min(self.text.len())];
                memchr::memchr_iter(b'\n', before).count()
            }
            None => self
                .checkpoints()
                .line_of(self.text.as_bytes(), offset.min(self.text.len())),
        }
    }

    /// The `\n` counts per block (built on first use).
    fn checkpoints(&self) -> &LineCheckpoints {
        self.checkpoints
            .get_or_init(|| LineCheckpoints::new(self.text.as_bytes()))
    }

    /// Byte offset of every line start, and one past the end.
    pub(super) fn starts(&self) -> &[usize] {
        self.starts.get_or_init(|| {
            let mut starts = line_starts(&self.text);
            if starts.last() != Some(&self.text.len()) {
                starts.push(self.text.len());
            }
            starts
        })
    }

    /// The number of lines.
    fn lines(&self) -> usize {
        match self.starts.get() {
            Some(starts) => starts.len() - 1,
            None => {
                self.checkpoints().newlines()
                    + usize::from(!self.text.is_empty() && !self.text.ends_with('\n'))
            }
        }
    }

    /// The 0-based line `i` without its ending.
    fn line(&self, i: usize) -> &str {
        let starts = self.starts();
        let l = &self.text[starts[i]..starts[i + 1]];
        let l = l.strip_suffix('\n').unwrap_or(l);
        l.strip_suffix('\r').unwrap_or(l)
    }

    /// Whether the text ends with a line ending (or is empty).
    fn ends_with_eol(&self) -> bool {
        self.text.is_empty() || self.text.ends_with('\n')
    }

    /// The 0-based lines equal to `anchor`: exactly, else once both are trimmed.
    fn anchor_lines(&self, anchor: &str, from: usize) -> Vec<usize> {
        let exact: Vec<usize> = (from..self.lines())
            .filter(|&i| self.line(i) == anchor)
            .collect();
        if !exact.is_empty() {
            return exact;
        }
        let anchor = anchor.trim();
        (from..self.lines())
            .filter(|&i| self.line(i).trim() == anchor)
            .collect()
    }

    /// The lines the anchors of a section lead to: every line of the first anchor, then from
    /// each, the first line of the next anchor below it. Empty when an anchor is found nowhere.
    fn anchored(&self, anchors: &[String]) -> Vec<usize> {
        let Some((first, rest)) = anchors.split_first() else {
            return Vec::new();
        };
        let mut at = self.anchor_lines(first, 0);
        for anchor in rest {
            let mut next: Vec<usize> = at
                .iter()
                .filter_map(|&i| self.anchor_lines(anchor, i + 1).first().copied())
                .collect();
            next.dedup();
            at = next;
        }
        at
    }
}

/// The section's old lines (context and `-`) and new lines (context and `+`).
fn sides(lines: &[Line]) -> (Vec<String>, Vec<String>) {
    let old = lines
        .iter()
        .filter(|l| l.kind != Kind::Add)
        .map(|l| l.text.clone())
        .collect();
    let new = lines
        .iter()
        .filter(|l| l.kind != Kind::Remove)
        .map(|l| l.text.clone())
        .collect();
    (old, new)
}

/// The section's lines without unprefixed blank lines at its edges.
fn without_bare_edges(lines: &[Line]) -> &[Line] {
    let first = lines
        .iter()
        .position(|l| !l.bare_blank)
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.bare_blank)
        .map_or(first, |i| i + 1);
    &lines[first..last.max(first)]
}

/// Places section `k` (0-based) of a body in `input`. A section whose added lines elide
/// removed code with a placeholder (`// ... existing code ...`) is refused as the native
/// SEARCH/REPLACE dialect refuses such a block (`omission_placeholder`): writing it would delete
/// that code.
pub(super) fn place(input: &Input<'_>, section: &Section, k: usize) -> Result<Placed> {
    let lines = &section.lines;
    let (old, new) = sides(lines);
    if let Some(placeholder) = omission::elided(&old.join("\n"), &new.join("\n")) {
        let what = format!("section {}: an added line", k + 1);
        return Err(Error::new(
            ErrorKind::OmissionPlaceholder,
            omission::message(&what, &placeholder),
        ));
    }
    match place_lines(input, section, lines, k) {
        Err(e) if e.kind() == ErrorKind::PatchContextNotFound => {
            let trimmed = without_bare_edges(lines);
            if trimmed.len() < lines.len() && trimmed.iter().any(|l| l.kind != Kind::Add) {
                place_lines(input, section, trimmed, k).map_err(|_| e)
            } else {
                Err(e)
            }
        }
        other => other,
    }
}

fn place_lines(input: &Input<'_>, section: &Section, lines: &[Line], k: usize) -> Result<Placed> {
    let (old, new) = sides(lines);
    let removed = lines.iter().filter(|l| l.kind == Kind::Remove).count();
    let added = lines.iter().filter(|l| l.kind == Kind::Add).count();
    let mut report = ChunkReport {
        index: k + 1,
        line: 0,
        context_lines: old.len(),
        removed,
        added,
        strategy: Strategy::Exact,
        normalizations: Vec::new(),
        candidates: 1,
        chosen_by: None,
        already_applied: false,
        indent_delta: 0,
    };
    if old.is_empty() {
        let at = insertion_line(input, section, k)?;
        report.line = at + 1;
        let offset = input.starts()[at];
        return Ok(Placed {
            start: offset,
            end: offset,
            text: inserted(input, at, &new),
            report,
        });
    }
    let search = SearchText {
        eols: vec!["\n"; old.len()],
        lines: old,
    };
    let found = match tiers::locate(&input.text, &input.index, &search, None) {
        Ok(found) => found,
        Err(Miss::Ambiguous { tier, windows, .. }) => {
            let Some((first_line, by)) = choose(input, section, &windows) else {
                return Err(ambiguous(k, section, tier, &windows));
            };
            report.chosen_by = Some(by);
            match tiers::locate(&input.text, &input.index, &search, Some(first_line + 1)) {
                Ok(found) if input.line_at(found.start) == first_line => found,
                _ => return Err(ambiguous(k, section, tier, &windows)),
            }
        }
        Err(Miss::NotFound) => {
            match stripped_matches(input, &search.lines).as_slice() {
                [] => {}
                [first] => return finish_stripped(input, section, lines, k, *first, report),
                many => {
                    let windows: Vec<(usize, usize)> =
                        many.iter().map(|&w| (w, search.lines.len())).collect();
                    let Some((first, by)) = choose(input, section, &windows) else {
                        return Err(ambiguous(k, section, Tier::Indentation, &windows));
                    };
                    report.chosen_by = Some(by);
                    report.candidates = many.len();
                    return finish_stripped(input, section, lines, k, first, report);
                }
            }
            // Only a section that brings lines of its own can be recognised as done: a
            // deletion whose lines are not there may as well be one whose lines were misquoted.
            let brings = lines.iter().any(|l| {
                l.kind == Kind::Add && !l.text.trim().is_empty() && !search.lines.contains(&l.text)
            });
            if let Some(there) = brings
                .then(|| applied::locate(&input.text, &input.index, &search, &new))
                .flatten()
            {
                report.line = input.line_at(there.start) + 1;
                report.already_applied = true;
                report.strategy = there.tier.strategy();
                return Ok(Placed {
                    start: there.start,
                    end: there.start,
                    text: String::new(),
                    report,
                });
            }
            return Err(not_found(k, section, &search.lines));
        }
        Err(Miss::TooRepetitive) => return Err(not_found(k, section, &search.lines)),
    };
    // (The cascade counts lines only to choose among candidates: the first line is the
    // offset's.)
    let first_line = input.line_at(found.start);
    if found.line_count != search.lines.len()
        || found.tier == Tier::BlankLines
        || !rules_hold(input, first_line, &search.lines)
    {
        // Lines the cascade skipped (blank lines) leave no line-for-line pairing of the
        // section's lines with the file's: the context could not be kept as the file has it.
        return Err(not_found(k, section, &search.lines));
    }
    if section.end_of_file && first_line + found.line_count != input.lines() {
        return Err(Error::new(
            ErrorKind::PatchContextNotFound,
            format!(
                "chunk {} (line {} of the patch) ends with `*** End of File`, but its lines are \
                 at lines {}-{} of the file's {}: add the file's last lines to it as context, or \
                 drop the marker",
                k + 1,
                section.body_line,
                first_line + 1,
                first_line + found.line_count,
                input.lines()
            ),
        ));
    }
    let leading_adds = lines.iter().take_while(|l| l.kind == Kind::Add).count();
    if removed == 0
        && first_line >= leading_adds
        && already_inserted(input, first_line - leading_adds, &new)
    {
        report.line = first_line + 1;
        report.already_applied = true;
        report.strategy = found.tier.strategy();
        return Ok(Placed {
            start: found.start,
            end: found.start,
            text: String::new(),
            report,
        });
    }
    report.line = first_line + 1;
    report.strategy = found.tier.strategy();
    report.normalizations = search_text::normalizations(found.relaxed);
    report.candidates = found.candidates;
    // A shift by one space is a context line's lost or doubled prefix, not the section's
    // indentation drifting: its `+` lines are taken as written.
    let one_space = matches!(
        found.indent,
        IndentMap::Shift {
            delta: -1 | 1,
            tab: false
        }
    );
    // So are `+` lines already indented as the file is there: their indentation is one of the
    // region's lines' and none of the section's old lines'.
    let in_file_frame = lines
        .iter()
        .find(|l| l.kind == Kind::Add && !l.text.trim().is_empty())
        .map(|l| indent_of(&l.text))
        .is_some_and(|add| {
            let region = &input.text[found.start..found.end];
            region
                .lines()
                .any(|l| !l.trim().is_empty() && indent_of(l) == add)
                && !search
                    .lines
                    .iter()
                    .any(|l| !l.trim().is_empty() && indent_of(l) == add)
        });
    // A section of `-` and `+` lines only is a SEARCH/REPLACE block: as the native dialect
    // does, its `+` lines are re-indented only when they start at the `-` lines' indentation
    // and that is not the file's.
    let block_frame = !lines.iter().any(|l| l.kind == Kind::Context) && {
        let first = |kind: Kind| {
            lines
                .iter()
                .find(|l| l.kind == kind && !l.text.trim().is_empty())
                .map(|l| indent_of(&l.text))
        };
        let region_indent = input.text[found.start..found.end]
            .lines()
            .find(|l| !l.trim().is_empty())
            .map(indent_of);
        !(first(Kind::Add).is_some()
            && first(Kind::Add) == first(Kind::Remove)
            && first(Kind::Remove) != region_indent)
    };
    let rebase = (!found.indent.is_identity() && !one_space && !in_file_frame && !block_frame)
        .then_some(found.indent);
    if let Some(map) = rebase {
        report.indent_delta = map.columns();
    }
    let text = replaced(input, found.start, found.end, lines, rebase);
    let mut start = found.start;
    if text.is_empty() && found.end == input.text.len() && !input.ends_with_eol() && start > 0 {
        // The file's last lines go and it had no final newline: neither has the line that is
        // now its last.
        start -= if input.text[..start].ends_with("\r\n") {
            2
        } else {
            1
        };
    }
    Ok(Placed {
        start,
        end: found.end,
        text,
        report,
    })
}

/// The line (0-based) where a section without context or `-` lines puts its new lines.
fn insertion_line(input: &Input<'_>, section: &Section, k: usize) -> Result<usize> {
    if section.end_of_file {
        return Ok(input.lines());
    }
    if section.anchors.is_empty() {
        // Only an empty file leaves no doubt where such lines go.
        return if k == 0 && input.text.is_empty() {
            Ok(0)
        } else {
            Err(Error::new(
                ErrorKind::PatchContextNotFound,
                format!(
                    "chunk {} (line {} of the patch) adds lines but does not say where for \
                     certain: give it context lines from the file around the new lines",
                    k + 1,
                    section.body_line
                ),
            ))
        };
    }
    match input.anchored(&section.anchors).as_slice() {
        [one] if fits(input, one + 1, new_lines(section)) => Ok(one + 1),
        [one] => Err(Error::new(
            ErrorKind::PatchContextNotFound,
            format!(
                "chunk {} (line {} of the patch) adds lines indented unlike the lines below its \
                 `@@` line {:?} (line {}): give it context lines from the file around the new \
                 lines",
                k + 1,
                section.body_line,
                section.anchors.join(" / "),
                one + 1
            ),
        )),
        [] => Err(Error::new(
            ErrorKind::PatchContextNotFound,
            format!(
                "chunk {} (line {} of the patch): its `@@` line {:?} is not a line of the file",
                k + 1,
                section.body_line,
                section.anchors.join(" / ")
            ),
        )),
        many => Err(Error::new(
            ErrorKind::AmbiguousMatch,
            format!(
                "chunk {} (line {} of the patch): its `@@` line {:?} is at lines {} of the file; \
                 add context lines from the file so the new lines have one place",
                k + 1,
                section.body_line,
                section.anchors.join(" / "),
                numbers(many.iter().copied())
            ),
        )),
    }
}

/// Whether the lines a section without `-` lines would leave (`new`) are already the file's
/// lines from `first_line` (where its context was found, less the `+` lines before it): a
/// retried call, whose insertion is made.
fn already_inserted(input: &Input<'_>, first_line: usize, new: &[String]) -> bool {
    first_line + new.len() <= input.lines()
        && new
            .iter()
            .enumerate()
            .all(|(i, l)| input.line(first_line + i).trim_end() == l.trim_end())
}

/// The `+` lines of a section.
fn new_lines(section: &Section) -> impl Iterator<Item = &str> {
    section
        .lines
        .iter()
        .filter(|l| l.kind == Kind::Add)
        .map(|l| l.text.as_str())
}

/// Whether lines inserted before line `at` (0-based) are indented as the code they go into:
/// their first non-blank line as the first non-blank line from `at` on (or, at the end, the
/// last one before it). Lines without context placed by an anchor or at the top could belong
/// anywhere below it; indented like their surroundings, they belong there.
fn fits<'a>(input: &Input<'_>, at: usize, mut new: impl Iterator<Item = &'a str>) -> bool {
    let Some(first) = new.find(|l| !l.trim().is_empty()) else {
        return true;
    };
    let below = (at..input.lines())
        .map(|i| input.line(i))
        .find(|l| !l.trim().is_empty());
    let near = below.or_else(|| {
        (0..at)
            .rev()
            .map(|i| input.line(i))
            .find(|l| !l.trim().is_empty())
    });
    near.is_none_or(|l| indent_of(l) == indent_of(first))
}

/// Whether every old line of the section that is a rule of dashes (`----`) is the same rule in
/// the file: the cascade's punctuation tier takes runs of dashes for one dash, which for a
/// line made of them (a Markdown underline, a separator, or a `-` line that lost its prefix)
/// is a different line.
fn rules_hold(input: &Input<'_>, first_line: usize, old: &[String]) -> bool {
    let is_rule = |l: &str| {
        let t = l.trim();
        t.len() >= 2 && t.bytes().all(|b| b == b'-')
    };
    old.iter()
        .enumerate()
        .all(|(i, l)| !is_rule(l) || input.line(first_line + i).trim() == l.trim())
}

/// The one candidate (its first line, 0-based) the section's own marks choose, if they do.
fn choose(
    input: &Input<'_>,
    section: &Section,
    windows: &[(usize, usize)],
) -> Option<(usize, ChosenBy)> {
    if !section.anchors.is_empty() {
        let mut chosen: Vec<usize> = input
            .anchored(&section.anchors)
            .into_iter()
            .filter_map(|a| windows.iter().map(|w| w.0).filter(|&l| l > a).min())
            .collect();
        chosen.sort_unstable();
        chosen.dedup();
        if let [one] = chosen.as_slice() {
            return Some((*one, ChosenBy::Anchor));
        }
    }
    if section.end_of_file {
        let mut at_end = windows.iter().filter(|w| w.0 + w.1 == input.lines());
        if let (Some(one), None) = (at_end.next(), at_end.next()) {
            return Some((one.0, ChosenBy::EndOfFile));
        }
    }
    None
}

/// The text of the placed region: its context lines as the file has them, `+` lines (re-indented
/// the way the context was) with the region's line ending, and the region's last line ending
/// kept at the end.
fn replaced(
    input: &Input<'_>,
    start: usize,
    end: usize,
    lines: &[Line],
    rebase: Option<IndentMap>,
) -> String {
    let region = &input.text[start..end];
    let mut file_lines = region.split_inclusive('\n');
    let eol = region.find('\n').map_or(input.eol, |i| {
        if region[..i].ends_with('\r') {
            "\r\n"
        } else {
            "\n"
        }
    });
    let ends_file_without_eol = !region.ends_with('\n');
    let mut out: Vec<(String, bool)> = Vec::with_capacity(lines.len());
    for line in lines {
        match line.kind {
            Kind::Context => {
                if let Some(l) = file_lines.next() {
                    out.push((l.to_owned(), true));
                }
            }
            Kind::Remove => {
                file_lines.next();
            }
            Kind::Add => {
                let text = match &rebase {
                    Some(map) => rebased(map, &line.text),
                    None => line.text.clone(),
                };
                out.push((text, false));
            }
        }
    }
    let mut text = String::with_capacity(region.len() + 64);
    let last = out.len().saturating_sub(1);
    for (i, (line, from_file)) in out.iter().enumerate() {
        let body = if *from_file {
            line.strip_suffix('\n')
                .map_or(line.as_str(), |l| l.strip_suffix('\r').unwrap_or(l))
        } else {
            line.as_str()
        };
        text.push_str(body);
        if i < last || !ends_file_without_eol {
            let own = if *from_file && line.ends_with('\n') {
                if line.ends_with("\r\n") { "\r\n" } else { "\n" }
            } else {
                eol
            };
            text.push_str(own);
        }
    }
    text
}

/// An added line's indentation mapped as the context's was.
fn rebased(map: &IndentMap, line: &str) -> String {
    if line.trim().is_empty() {
        return line.to_owned();
    }
    let indent = indent_of(line);
    format!("{}{}", map.apply(indent), &line[indent.len()..])
}

/// New lines inserted before line `at` (0-based): each with the file's line ending; at the end
/// of a file without a final newline, its last line gets one and the new last line none.
fn inserted(input: &Input<'_>, at: usize, new: &[String]) -> String {
    let mut text = String::new();
    let at_unterminated_end = at == input.lines() && !input.ends_with_eol();
    if at_unterminated_end {
        text.push_str(input.eol);
    }
    for (i, line) in new.iter().enumerate() {
        text.push_str(line);
        if !(at_unterminated_end && i + 1 == new.len()) {
            text.push_str(input.eol);
        }
    }
    text
}

/// `1, 4 and 9` (1-based) from 0-based lines.
fn numbers(lines: impl Iterator<Item = usize>) -> String {
    let all: Vec<String> = lines.map(|l| (l + 1).to_string()).collect();
    match all.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

fn not_found(k: usize, section: &Section, old: &[String]) -> Error {
    let mut shown = String::new();
    for line in old.iter().take(6) {
        let _ = writeln!(shown, "  {line}");
    }
    if old.len() > 6 {
        let _ = writeln!(shown, "  ... ({} lines in all)", old.len());
    }
    Error::new(
        ErrorKind::PatchContextNotFound,
        format!(
            "chunk {} (line {} of the patch) was not applied: its context and `-` lines are not \
             in the file:\n{}Copy them from the file as it is now.",
            k + 1,
            section.body_line,
            shown
        ),
    )
}

fn ambiguous(k: usize, section: &Section, tier: Tier, windows: &[(usize, usize)]) -> Error {
    let how = match tier {
        Tier::Exact => String::new(),
        other => format!(" (matching {})", other.strategy().as_str()),
    };
    Error::new(
        ErrorKind::AmbiguousMatch,
        format!(
            "chunk {} (line {} of the patch) was not applied: its context and `-` lines match {} \
             places{how}, at lines {}; add an `@@` line naming the function or class above it, or \
             more context lines, so it matches one place",
            k + 1,
            section.body_line,
            windows.len(),
            numbers(windows.iter().map(|w| w.0))
        ),
    )
}

/// Checks that a section without changes has its context lines somewhere in the file.
pub(super) fn check_context(input: &Input<'_>, section: &Section, k: usize) -> Result<()> {
    let lines = without_bare_edges(&section.lines);
    if lines.is_empty() {
        return Ok(());
    }
    let (old, _) = sides(lines);
    let search = SearchText {
        eols: vec!["\n"; old.len()],
        lines: old,
    };
    match tiers::locate(&input.text, &input.index, &search, None) {
        Ok(_) | Err(Miss::Ambiguous { .. }) => Ok(()),
        Err(Miss::NotFound | Miss::TooRepetitive) => Err(not_found(k, section, &search.lines)),
    }
}

/// The places (their first lines, 0-based) where every old line equals the file's line once
/// both are stripped of surrounding whitespace: lines whose indentation drifted one by one (a
/// space too many, a tab for spaces), which no uniform indentation map explains.
fn stripped_matches(input: &Input<'_>, old: &[String]) -> Vec<usize> {
    let Some(anchor) = old.iter().position(|l| !l.trim().is_empty()) else {
        return Vec::new();
    };
    let first = old[anchor].trim();
    let m = old.len();
    (anchor..input.lines())
        .filter(|&i| input.line(i).trim() == first)
        .map(|i| i - anchor)
        .filter(|&start| {
            start + m <= input.lines()
                && old
                    .iter()
                    .enumerate()
                    .all(|(j, l)| input.line(start + j).trim() == l.trim())
        })
        .collect()
}

/// A section placed by [`stripped_matches`] at line `first`: its context lines as the file has
/// them, its `+` lines as written — when most of its non-blank old lines are indented as the
/// file's there (the drift is the exception, so the `+` lines' indentation is the file's);
/// refused otherwise.
fn finish_stripped(
    input: &Input<'_>,
    section: &Section,
    lines: &[Line],
    k: usize,
    first: usize,
    mut report: ChunkReport,
) -> Result<Placed> {
    let m = report.context_lines;
    let old = sides(lines).0;
    let nonblank: Vec<usize> = (0..m).filter(|&j| !old[j].trim().is_empty()).collect();
    let same = nonblank
        .iter()
        .filter(|&&j| indent_of(input.line(first + j)) == indent_of(&old[j]))
        .count();
    if same * 2 <= nonblank.len() || (section.end_of_file && first + m != input.lines()) {
        return Err(not_found(k, section, &old));
    }
    report.line = first + 1;
    report.strategy = Strategy::LineTrimmed;
    report.normalizations = vec![Normalization::Indentation];
    let (start, end) = (input.starts()[first], input.starts()[first + m]);
    let text = replaced(input, start, end, lines, None);
    Ok(Placed {
        start,
        end,
        text,
        report,
    })
}

//! Lazy edits: merging a snippet that elides unchanged code with `// ... existing code ...`
//! markers into the file, without a model — or refusing, when it cannot be placed without
//! guessing.
//!
//! Asked for a change, models often write only the changed code with a few unchanged lines
//! around it, and comments such as `// ... existing code ...` for the rest. Written to disk as
//! is, the marker deletes real code. [`apply_lazy`] merges such a snippet deterministically:
//! every part of it is placed only where its unchanged lines are unique in the file, and what
//! cannot be placed that way is refused with a message that says which part and why.
//!
//! # The rules
//!
//! (The rules of `tests/vectors/LAZY-EDITS.md`, whose corpus this engine is scored on.)
//!
//! 1. **Markers** are whole-line comments in the file's syntax ([`Language`]) whose text starts
//!    with `...` or `…`, or contains the word `unchanged` or the words `existing code`; in
//!    Python a line holding only `...` too. **Deletion comments** (`// removed NAME`,
//!    `# NAME deleted`, `// removed method NAME`, ...) ask for the definition called NAME to be
//!    removed. (See `markers`.)
//! 2. A snippet with **no marker and no deletion comment is the whole new file**, returned byte
//!    for byte.
//! 3. Markers cut the snippet into **segments** (a run of markers is one cut); blank lines at a
//!    segment's edges belong to the elision; a deletion comment at a segment's edge is a
//!    segment of its own, one inside a segment is removed from it and allows it to drop one
//!    definition.
//! 4. Lines are compared in three **tiers**: trailing whitespace ignored, then leading and
//!    trailing, then all whitespace. Each segment is placed at the first tier where both its
//!    ends find their anchors: the shortest run of its first (last) lines that occurs exactly
//!    once in the file. An anchor that is ambiguous at a tier is final: it never falls through
//!    to a looser tier. A segment whose first lines reach the end of the file (or whose last
//!    lines reach its start) needs only that anchor; a segment that occurs twice or more as it
//!    is changes nothing and is skipped. (See `place`.)
//! 5. A placed segment replaces the file lines between its anchors; the anchors are written as
//!    the file has them, the new lines as the snippet has them, re-indented when the segment
//!    matched only ignoring whitespace and its anchors agree on how. (See `render`.)
//! 6. **No silent deletion**: a segment that would drop a definition header (function, method,
//!    class, type) of the lines it replaces is refused unless one of its inline deletion
//!    comments names it; and an inline deletion comment must name a definition the segment
//!    drops (stricter than the corpus rules, which only compare counts: a comment that
//!    deletes nothing is refused, not ignored). Statements between two anchors that the
//!    segment leaves out are deleted, as in any diff hunk.
//! 7. Segments must follow the file's order without overlapping; every file line outside them
//!    is kept, including those before the first and after the last. A deletion comment removes
//!    the one definition of that name with its attached comments, attributes and decorators
//!    and the blank lines around it, which must lie in the gap where the comment stands.
//!
//! # Refusals
//!
//! | code | when |
//! |---|---|
//! | `lazy_no_anchor` | a segment's first or last line occurs nowhere, even ignoring whitespace; a deletion comment names no definition; the snippet has only markers |
//! | `lazy_ambiguous` | a segment's anchor (or a deletion comment's definition) occurs at several places; [`Error::matches`](crate::Error::matches) lists them |
//! | `lazy_silent_deletion` | a segment leaves out a definition without a deletion comment |
//! | `lazy_conflict` | segments out of order or overlapping, anchors that cross, a deletion outside its gap or overlapping another, an inline deletion comment naming a definition its segment does not drop |
//! | `lazy_indentation` | a segment matched ignoring whitespace but its anchors' indentation maps to the file's in no consistent way |
//! | `invalid_language` | an unknown [`Language`] name ([`Language::from_name`]) |
//!
//! # Cost
//!
//! Linear in the file plus the snippet: the file's lines are tokenized once per tier used and
//! indexed in suffix automata, so finding the shortest unique run at each end of a segment costs
//! that segment's length, however many segments there are and however repetitive the file is.
//!
//! # Example
//!
//! ```
//! use hunkloom::lazy::{LazyOptions, apply_lazy};
//!
//! let original = "def load(path):\n    with open(path) as f:\n        return f.read()\n\n\
//!                 def save(path, text):\n    with open(path, \"w\") as f:\n        f.write(text)\n";
//! // What a model writes: the changed lines, with markers for the rest.
//! let snippet = concat!(
//!     "# ... existing code ...\n",
//!     "def save(path, text):\n",
//!     "    with open(path, \"w\", encoding=\"utf-8\") as f:\n",
//!     "        f.write(text)\n",
//! );
//! let merged = apply_lazy(snippet, original, &LazyOptions::new().path("store.py"))?;
//! assert_eq!(merged, original.replace("\"w\")", "\"w\", encoding=\"utf-8\")"));
//!
//! // A part that could go to several places is refused, never guessed.
//! let twice = "x = 1\ny = 2\nx = 1\n";
//! let err = apply_lazy("# ...\nx = 1\nz = 3\n# ...\n", twice, &LazyOptions::new().path("a.py")).unwrap_err();
//! assert_eq!(err.code(), "lazy_ambiguous");
//! # Ok::<(), hunkloom::Error>(())
//! ```

mod automaton;
mod delete;
mod headers;
mod index;
mod language;
mod markers;
mod place;
mod refusal;
mod render;
mod segments;

#[cfg(test)]
mod tests;

use rustc_hash::FxHashMap;

use crate::error::Result;
use crate::text::Work;
use delete::Unremovable;
use index::FileIndex;
use place::{Placed, Range};
use refusal::Named;
use render::Written;
use segments::{Segment, Snippet};

pub use language::Language;

/// Options of [`apply_lazy`]: how to tell the file's language.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LazyOptions {
    /// The file's path; its extension gives the language when [`language`](Self::language)
    /// is not set ([`Language::from_path`]).
    pub path: Option<String>,
    /// The file's language (default: from the path, else [`Language::Other`]).
    pub language: Option<Language>,
}

impl LazyOptions {
    /// No path and no language: [`Language::Other`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the [`path`](Self::path).
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets the [`language`](Self::language).
    pub fn language(mut self, language: Language) -> Self {
        self.language = Some(language);
        self
    }

    /// The language the edit is read in.
    pub fn resolved_language(&self) -> Language {
        self.language.unwrap_or_else(|| {
            self.path
                .as_deref()
                .map_or(Language::Other, Language::from_path)
        })
    }
}

/// Merges the lazy `snippet` into `original`: the whole new file, or a refusal with a stable
/// code (`lazy_no_anchor`, `lazy_ambiguous`, `lazy_silent_deletion`, `lazy_conflict`,
/// `lazy_indentation`) and a message that names the segment that could not be placed and why.
///
/// A snippet without markers (and without deletion comments) is the whole new file and is
/// returned as is. See the [module documentation](self) for the rules.
pub fn apply_lazy(snippet: &str, original: &str, options: &LazyOptions) -> Result<String> {
    crate::memory::reserve(
        crate::memory::WORKING_COPIES.saturating_mul(snippet.len() + original.len()),
        "merging the lazy edit",
    )?;
    let lang = options.resolved_language();
    let snippet_lines: Vec<&str> = lines_of(snippet);
    let segments = match segments::split(&snippet_lines, lang) {
        Snippet::WholeFile => return Ok(snippet.to_owned()),
        Snippet::Segments(s) if s.is_empty() => return Err(refusal::empty(lang)),
        Snippet::Segments(s) => s,
    };
    let file = FileLines::new(original);
    let index = FileIndex::new(&file.lines);

    // The code segments, in snippet order: each placed where its anchors are unique.
    let mut placed: Vec<Option<(Range, Vec<Written<'_>>)>> = vec![None; segments.len()];
    let mut previous: Option<(Named<'_, '_>, Range)> = None;
    let mut number = 0;
    for (i, segment) in segments.iter().enumerate() {
        let Segment::Code(code) = segment else {
            continue;
        };
        number += 1;
        let named = Named {
            number,
            segment: code,
        };
        let range = match place::place(&code.lines, &index) {
            Ok(Placed::ContextOnly) => continue,
            Ok(Placed::Range(range)) => range,
            Err(why) => {
                return Err(refusal::unplaced(named, why, lang, original, &file.starts));
            }
        };
        let at = (range.start, range.end);
        if let Some((before, r)) = previous
            && range.start < r.end
        {
            return Err(refusal::out_of_order(named, at, before, (r.start, r.end)));
        }
        let written = render::render(&code.lines, range, &file.lines)
            .map_err(|why| refusal::indentation(named, at, why, lang))?;
        check_definitions(named, range, &written, &file.lines, lang)?;
        previous = Some((named, range));
        placed[i] = Some((range, written));
    }

    // The deletion segments: each removes its definition from the gap where it stands.
    let mut wanted: Vec<(usize, (usize, usize), &segments::Deletion<'_>)> = Vec::new();
    let mut headers_by_name: Option<FxHashMap<&str, Vec<usize>>> = None;
    for (i, segment) in segments.iter().enumerate() {
        let Segment::Delete(d) = segment else {
            continue;
        };
        let headers = headers_by_name.get_or_insert_with(|| {
            let mut map: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
            for (line, text) in file.lines.iter().enumerate() {
                if let Some(name) = headers::definition(lang, text) {
                    map.entry(name).or_default().push(line);
                }
            }
            map
        });
        let header = match headers.get(d.name).map(Vec::as_slice) {
            None | Some([]) => return Err(refusal::deletion_not_found(d, None)),
            Some(&[h]) => h,
            Some(all) => {
                return Err(refusal::deletion_ambiguous(d, all, original, &file.starts));
            }
        };
        let low = placed[..i]
            .iter()
            .rev()
            .find_map(|p| p.as_ref().map(|(r, _)| r.end))
            .unwrap_or(0);
        let high = placed[i + 1..]
            .iter()
            .find_map(|p| p.as_ref().map(|(r, _)| r.start))
            .unwrap_or(file.lines.len());
        if header < low || header >= high {
            let at = (header, header + 1);
            return Err(refusal::deletion_misplaced(d, at, (low, high), None));
        }
        wanted.push((header, (low, high), d));
    }
    // In file order, each span bounded by its gap and its neighbours' (they must not overlap),
    // so the walks cost the spans' lengths.
    wanted.sort_unstable_by_key(|w| w.0);
    let mut removals: Vec<(usize, usize)> = Vec::with_capacity(wanted.len());
    for (k, &(header, (low, high), d)) in wanted.iter().enumerate() {
        let previous = removals.last().map(|r| r.1).filter(|&e| e > low);
        let next = wanted.get(k + 1).map(|w| w.0).filter(|&h| h < high);
        let bounds = (previous.unwrap_or(low), next.unwrap_or(high));
        let span = delete::span(lang, &file.lines, header, bounds).map_err(|why| match why {
            Unremovable::NoEnd => refusal::deletion_not_found(d, Some(header)),
            Unremovable::Beyond { above } => {
                let neighbour = match (above, previous, next) {
                    (true, Some(_), _) => Some(wanted[k - 1].2),
                    (false, _, Some(_)) => Some(wanted[k + 1].2),
                    _ => None,
                };
                refusal::deletion_misplaced(d, (header, header + 1), (low, high), neighbour)
            }
        })?;
        removals.push(span);
    }

    // The result: the file with every placed range rewritten and every removal left out.
    let mut edits: Vec<(usize, usize, Option<&[Written<'_>]>)> = placed
        .iter()
        .flatten()
        .map(|(r, w)| (r.start, r.end, Some(w.as_slice())))
        .chain(removals.iter().map(|&(s, e)| (s, e, None)))
        .collect();
    edits.sort_by_key(|e| e.0);
    Ok(file.assemble(&edits, original.len() + snippet.len()))
}

/// Whether [`apply_lazy`] reads `snippet` as a lazy edit — it has a marker or a deletion
/// comment in the language of `options` — rather than as the whole new file. Hosts that take a
/// whole-file write of an existing file use it to send a lazy one to [`apply_lazy`].
pub fn is_lazy(snippet: &str, options: &LazyOptions) -> bool {
    let lang = options.resolved_language();
    !matches!(
        segments::split(&lines_of(snippet), lang),
        Snippet::WholeFile
    )
}

/// The snippet's lines, without line endings (a final line ending opens no line).
fn lines_of(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if text.is_empty() || text.ends_with('\n') {
        lines.pop();
    }
    lines
}

/// No silent deletion: the definitions (headers) of the file lines `range` covers that the
/// written lines do not define again must be exactly those the segment's inline deletion
/// comments name; otherwise `lazy_silent_deletion` (a definition dropped without a comment) or
/// `lazy_conflict` (a comment naming a definition the segment does not drop). Costs the range
/// plus the written lines.
fn check_definitions(
    named: Named<'_, '_>,
    range: Range,
    written: &[Written<'_>],
    file: &[&str],
    lang: Language,
) -> Result<()> {
    let code = named.segment;
    let had: Vec<(&str, usize)> = (range.start..range.end)
        .filter_map(|i| headers::definition(lang, file[i]).map(|name| (name, i)))
        .collect();
    let mut kept: FxHashMap<&str, usize> = FxHashMap::default();
    for w in written {
        let name = match w {
            Written::Kept(o) => headers::definition(lang, file[*o]),
            Written::New(line) => headers::definition(lang, line),
        };
        if let Some(name) = name {
            *kept.entry(name).or_default() += 1;
        }
    }
    let has: usize = kept.values().sum();
    let allowed = code.inline_deletions.len();
    if had.len() <= has && allowed == 0 {
        return Ok(());
    }
    // The definitions dropped: those of the range not written again (as many times).
    let mut dropped: Vec<(&str, usize)> = Vec::new();
    for &(name, line) in &had {
        match kept.get_mut(name) {
            Some(n) if *n > 0 => *n -= 1,
            _ => dropped.push((name, line)),
        }
    }
    let mut unused = Vec::new();
    for d in &code.inline_deletions {
        match dropped.iter().position(|(name, _)| *name == d.name) {
            Some(i) => {
                dropped.remove(i);
            }
            None => unused.push(d),
        }
    }
    let at = (range.start, range.end);
    if had.len() > has + allowed || !dropped.is_empty() {
        let count = (had.len() - has.min(had.len()))
            .saturating_sub(allowed)
            .max(dropped.len());
        return Err(refusal::silent_deletion(named, at, &dropped, count, lang));
    }
    if let Some(d) = unused.first() {
        let defined: Vec<usize> = (0..file.len())
            .filter(|&i| headers::definition(lang, file[i]) == Some(d.name))
            .collect();
        return Err(refusal::inline_deletion_unused(named, at, d, &defined));
    }
    Ok(())
}

/// The file's lines, each without and with its line ending.
struct FileLines<'o> {
    /// Each line without its line ending (`\n`, or `\r\n`).
    lines: Vec<&'o str>,
    /// Each line's ending (`""` for a last line without one).
    eols: Vec<&'o str>,
    /// The byte where each line starts, then the length of the text.
    starts: Vec<usize>,
}

impl<'o> FileLines<'o> {
    fn new(text: &'o str) -> Self {
        let mut lines = Vec::with_capacity(text.len() / 32 + 1);
        let mut eols = Vec::with_capacity(text.len() / 32 + 1);
        let mut starts = Vec::with_capacity(text.len() / 32 + 2);
        let mut at = 0;
        for piece in text.split_inclusive('\n') {
            starts.push(at);
            at += piece.len();
            let (line, eol) = if let Some(l) = piece.strip_suffix("\r\n") {
                (l, "\r\n")
            } else if let Some(l) = piece.strip_suffix('\n') {
                (l, "\n")
            } else {
                (piece, "")
            };
            lines.push(line);
            eols.push(eol);
        }
        starts.push(text.len());
        FileLines {
            lines,
            eols,
            starts,
        }
    }

    /// The file with each `(start, end, lines)` edit (sorted, disjoint) applied: the lines
    /// `[start, end)` replaced by `lines`, or removed when there are none. New lines take the
    /// file's first line ending (`\n` if it has none).
    fn assemble(
        &self,
        edits: &[(usize, usize, Option<&[Written<'_>]>)],
        capacity: usize,
    ) -> String {
        let eol = self
            .eols
            .iter()
            .copied()
            .find(|e| !e.is_empty())
            .unwrap_or("\n");
        let mut out = Output {
            text: String::with_capacity(capacity),
            open: false,
            eol,
        };
        let mut cursor = 0;
        for &(start, end, lines) in edits {
            for i in cursor..start {
                out.line(self.lines[i], self.eols[i]);
            }
            for w in lines.unwrap_or_default() {
                match w {
                    Written::Kept(o) => out.line(self.lines[*o], self.eols[*o]),
                    Written::New(text) => out.line(text, eol),
                }
            }
            cursor = end;
        }
        for i in cursor..self.lines.len() {
            out.line(self.lines[i], self.eols[i]);
        }
        out.text
    }
}

/// The merged text being written.
struct Output<'e> {
    text: String,
    /// The last line written has no line ending (the file's last line had none).
    open: bool,
    eol: &'e str,
}

impl Output<'_> {
    /// Appends a line and its ending; a line written after one without an ending gives that
    /// one the file's line ending first.
    fn line(&mut self, text: &str, ending: &str) {
        Work::Lazy.charge(1);
        if self.open {
            self.text.push_str(self.eol);
        }
        self.text.push_str(text);
        self.text.push_str(ending);
        self.open = ending.is_empty();
    }
}

//! Reading a unified diff the way a model means it (the `udiff` dialect), one complete line at
//! a time, so every chunking of the diff reads the same.
//!
//! ```text
//! diff     = ( file-header | hunk | other-line )*
//! file     = "diff --git " a " " b  |  "--- " old LF "+++ " new      (either may be absent)
//! hunk     = "@@" [ " -" N [ "," N ] " +" N [ "," N ] ] [ " @@" [ heading ] ] LF body
//! body     = ( ( " " | "-" | "+" ) text | "" | "\" text )*
//! ```
//!
//! - The `@@` header is read leniently: extra spaces, a missing closing `@@`, a section heading,
//!   or no numbers at all (`@@ @@`, `@@`, `@@ ... @@`). Numbers are kept as hints only.
//! - The counts, when given, say where a hunk ends; a hunk also ends at the next `@@`, a file
//!   header, or a code fence. Past its counts a hunk goes on while lines keep their ` `, `-`,
//!   `+` or `\` prefix (counts that are too small), and ends at any other line (prose after the
//!   diff). Empty lines are blank context lines when more body follows them, and are dropped
//!   at the end of a hunk.
//! - Before its counts are reached, a line without a prefix is a context line that lost its
//!   leading space (kept whole).
//! - A line's trailing `\r`s are its line ending (CRLF diffs, and CRLF files diffed as text).
//! - `\ No newline at end of file` (any `\` line) marks the line before it.

use crate::patch::model::LineKind;

/// One line of a hunk's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HunkLine {
    pub(crate) kind: LineKind,
    /// The text after the prefix, without its line ending.
    pub(crate) text: String,
    /// The line ending the diff gave it (`"\n"` or `"\r\n"`).
    pub(crate) eol: &'static str,
    /// A `\ No newline at end of file` line followed it.
    pub(crate) no_newline: bool,
}

/// One hunk, complete.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hunk {
    /// Its number among the hunks of the diff, from 0.
    pub(crate) index: usize,
    /// The file it belongs to (an index into [`Reader::files`]).
    pub(crate) file: usize,
    /// The 1-based diff line of its `@@` header.
    pub(crate) line: usize,
    /// The header's old-side start line, when it has one.
    pub(crate) old_start: Option<usize>,
    /// The header's counts, when it has them.
    pub(crate) counts: Option<(usize, usize)>,
    pub(crate) lines: Vec<HunkLine>,
}

impl Hunk {
    /// The lines the file has before: context and removed lines.
    pub(crate) fn old_side(&self) -> impl Iterator<Item = &HunkLine> {
        self.lines.iter().filter(|l| l.kind != LineKind::Add)
    }

    /// The lines the file has after: context and added lines.
    pub(crate) fn new_side(&self) -> impl Iterator<Item = &HunkLine> {
        self.lines.iter().filter(|l| l.kind != LineKind::Remove)
    }

    /// Whether it has a line of kind `kind`.
    pub(crate) fn has(&self, kind: LineKind) -> bool {
        self.lines.iter().any(|l| l.kind == kind)
    }
}

/// The names a file header gives (`None` for `/dev/null` or a missing side).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FileNames {
    pub(crate) old: Option<String>,
    pub(crate) new: Option<String>,
    /// The old side is `/dev/null`: the diff creates the file.
    pub(crate) created: bool,
    /// The new side is `/dev/null`: the diff deletes the file.
    pub(crate) deleted: bool,
}

impl FileNames {
    /// The name to report the file under: the new name, else the old one.
    pub(crate) fn name(&self) -> Option<&str> {
        self.new.as_deref().or(self.old.as_deref())
    }
}

/// The hunk being read.
#[derive(Clone, Debug)]
struct Open {
    hunk: Hunk,
    /// Old and new lines read so far.
    old: usize,
    new: usize,
    /// Empty lines waiting for the next line to say whether they belong to the hunk.
    blanks: Vec<&'static str>,
}

impl Open {
    /// Whether the header's counts are known and reached.
    fn counted(&self) -> bool {
        self.hunk
            .counts
            .is_some_and(|(o, n)| self.old >= o && self.new >= n)
    }

    /// Whether the header's counts are known and not reached yet.
    fn counting(&self) -> bool {
        self.hunk.counts.is_some() && !self.counted()
    }

    fn push(&mut self, kind: LineKind, text: &str, eol: &'static str) {
        if kind != LineKind::Add {
            self.old += 1;
        }
        if kind != LineKind::Remove {
            self.new += 1;
        }
        self.hunk.lines.push(HunkLine {
            kind,
            text: text.to_owned(),
            eol,
            no_newline: false,
        });
    }

    fn flush_blanks(&mut self) {
        for eol in std::mem::take(&mut self.blanks) {
            self.push(LineKind::Context, "", eol);
        }
    }
}

/// The diff's structure, fed complete lines.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reader {
    /// Lines read so far.
    line_no: usize,
    /// The hunk being read.
    open: Option<Open>,
    /// A `--- ` line waiting for a `+++ ` line (then it is a file header) and its number.
    minus: Option<(String, usize)>,
    /// Every file named so far; hunks before any header belong to an unnamed first file.
    files: Vec<FileNames>,
    /// The current file has hunks (a later header starts another file).
    file_has_hunks: bool,
    /// Hunks completed so far.
    hunks: usize,
}

impl Reader {
    /// The files named so far (at least one once a hunk was read).
    pub(crate) fn files(&self) -> &[FileNames] {
        &self.files
    }

    /// Feeds one complete line (without its `\n`); completed hunks go to `out`.
    pub(crate) fn line(&mut self, raw: &str, out: &mut Vec<Hunk>) {
        self.line_no += 1;
        if let Some((minus, at)) = self.minus.take() {
            if let Some(plus) = raw.strip_prefix("+++ ") {
                self.end_hunk(out);
                self.header(Some(&minus[4..]), Some(plus));
                return;
            }
            // Not a header: the held line is an ordinary line.
            self.ordinary(&minus, at, out);
        }
        if raw.starts_with("--- ") {
            self.minus = Some((raw.to_owned(), self.line_no));
            return;
        }
        let at = self.line_no;
        self.ordinary(raw, at, out);
    }

    /// Ends the diff: a held line is ordinary, and the open hunk completes.
    pub(crate) fn finish(&mut self, out: &mut Vec<Hunk>) {
        if let Some((minus, at)) = self.minus.take() {
            self.ordinary(&minus, at, out);
        }
        self.end_hunk(out);
    }

    /// A line that is not part of a `---`/`+++` pair (line `at` of the diff).
    fn ordinary(&mut self, raw: &str, at: usize, out: &mut Vec<Hunk>) {
        let (line, eol) = split_eol(raw);
        if line.starts_with("@@") && is_hunk_header(line) {
            self.end_hunk(out);
            self.start_hunk(line, at);
            return;
        }
        if let Some(rest) = line.strip_prefix("diff --git ") {
            self.end_hunk(out);
            let (old, new) = git_names(rest);
            self.header(old.as_deref(), new.as_deref());
            return;
        }
        let Some(open) = &mut self.open else {
            return;
        };
        if line.is_empty() {
            if open.counting() {
                open.push(LineKind::Context, "", eol);
            } else {
                open.blanks.push(eol);
            }
            return;
        }
        let kind = match line.as_bytes()[0] {
            b' ' => Some(LineKind::Context),
            b'-' => Some(LineKind::Remove),
            b'+' => Some(LineKind::Add),
            _ => None,
        };
        match kind {
            _ if line.starts_with('\\') => {
                open.flush_blanks();
                if let Some(last) = open.hunk.lines.last_mut() {
                    last.no_newline = true;
                }
            }
            Some(kind) => {
                open.flush_blanks();
                open.push(kind, &line[1..], eol);
            }
            // A context line that lost its leading space (a code fence ends the diff).
            None if open.counting() && !line.starts_with("```") => {
                open.push(LineKind::Context, line, eol);
            }
            None => self.end_hunk(out),
        }
    }

    fn start_hunk(&mut self, header: &str, at: usize) {
        if self.files.is_empty() {
            self.files.push(FileNames::default());
        }
        self.file_has_hunks = true;
        let (old_start, counts) = header_numbers(header);
        self.open = Some(Open {
            hunk: Hunk {
                index: self.hunks,
                file: self.files.len() - 1,
                line: at,
                old_start,
                counts,
                lines: Vec::new(),
            },
            old: 0,
            new: 0,
            blanks: Vec::new(),
        });
        self.hunks += 1;
    }

    fn end_hunk(&mut self, out: &mut Vec<Hunk>) {
        if let Some(open) = self.open.take() {
            out.push(open.hunk);
        }
    }

    /// A file header (`---`/`+++` or `diff --git`): a new file, or better names for the
    /// current one when it has no hunk yet.
    fn header(&mut self, old: Option<&str>, new: Option<&str>) {
        let names = file_names(old, new);
        match self.files.last_mut() {
            Some(current) if !self.file_has_hunks => {
                // `diff --git` then `---`/`+++`: the second header refines the first.
                if names.old.is_some() || names.created {
                    current.old = names.old;
                    current.created = names.created;
                }
                if names.new.is_some() || names.deleted {
                    current.new = names.new;
                    current.deleted = names.deleted;
                }
            }
            _ => {
                self.files.push(names);
                self.file_has_hunks = false;
            }
        }
    }
}

/// A line without its trailing `\r`s, and its line ending.
fn split_eol(raw: &str) -> (&str, &'static str) {
    let line = raw.trim_end_matches('\r');
    (line, if line.len() < raw.len() { "\r\n" } else { "\n" })
}

/// Whether a line starting with `@@` is a hunk header (`@@`, `@@ ...`, `@@-1 ...`), not text
/// like `@@foo`.
fn is_hunk_header(line: &str) -> bool {
    matches!(line.as_bytes().get(2), None | Some(b' ' | b'\t' | b'-'))
}

/// The old start and the counts of a lenient `@@` header (see the module doc).
fn header_numbers(header: &str) -> (Option<usize>, Option<(usize, usize)>) {
    let rest = header[2..].trim_start();
    let Some(rest) = rest.strip_prefix('-') else {
        return (None, None);
    };
    let Some((old_start, old_count, rest)) = range(rest) else {
        return (None, None);
    };
    let rest = rest.trim_start();
    let Some((_, new_count, _)) = rest.strip_prefix('+').and_then(range) else {
        return (Some(old_start), None);
    };
    // A count left out means 1 to git, but models leave counts out of longer hunks too: then
    // the body alone says where the hunk ends.
    let counts = old_count.zip(new_count);
    (Some(old_start), counts)
}

/// `N[,M]` at the start of `s`: `N`, `M` and the rest.
fn range(s: &str) -> Option<(usize, Option<usize>, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let n = s[..digits].parse().ok()?;
    let rest = &s[digits..];
    match rest.strip_prefix(',') {
        Some(after) => {
            let d = after.bytes().take_while(u8::is_ascii_digit).count();
            let m = after[..d].parse().ok()?;
            Some((n, Some(m), &after[d..]))
        }
        None => Some((n, None, rest)),
    }
}

/// The names of a `---`/`+++` header: the path before a tab (or a timestamp), `a/` and `b/`
/// stripped when both sides carry them, `/dev/null` as no file.
fn file_names(old: Option<&str>, new: Option<&str>) -> FileNames {
    let clean = |s: &str| -> String {
        let s = s.trim_end_matches(['\r', '\n']);
        let s = s.split('\t').next().unwrap_or(s);
        let s = s.trim_end();
        match s.strip_prefix('"').and_then(|q| q.strip_suffix('"')) {
            Some(q) => q.to_owned(),
            None => s.to_owned(),
        }
    };
    let old = old.map(clean);
    let new = new.map(clean);
    let is_null = |s: &Option<String>| s.as_deref() == Some("/dev/null");
    let created = is_null(&old);
    let deleted = is_null(&new);
    let strip = {
        let prefixed = |s: &Option<String>, p: &str| match s.as_deref() {
            None | Some("/dev/null") => true,
            Some(s) => s.starts_with(p),
        };
        prefixed(&old, "a/") && prefixed(&new, "b/") && !(old.is_none() && new.is_none())
    };
    let name = |s: Option<String>| -> Option<String> {
        let s = s.filter(|s| s != "/dev/null" && !s.is_empty())?;
        Some(if strip { s[2..].to_owned() } else { s })
    };
    FileNames {
        old: name(old),
        new: name(new),
        created,
        deleted,
    }
}

/// The names of a `diff --git a/X b/Y` line (split where the second side starts with ` b/`).
fn git_names(rest: &str) -> (Option<String>, Option<String>) {
    let rest = rest.trim_end();
    match rest.find(" b/") {
        Some(i) if rest.starts_with("a/") => {
            (Some(rest[..i].to_owned()), Some(rest[i + 1..].to_owned()))
        }
        _ => {
            let mut parts = rest.splitn(2, ' ');
            (
                parts.next().map(str::to_owned),
                parts.next().map(str::to_owned),
            )
        }
    }
}

/// `hunk N (diff line L)`.
pub(crate) fn describe(hunk: &Hunk) -> String {
    format!("hunk {} (diff line {})", hunk.index + 1, hunk.line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(diff: &str) -> (Vec<Hunk>, Vec<FileNames>) {
        let mut r = Reader::default();
        let mut out = Vec::new();
        let mut rest = diff;
        while let Some(i) = rest.find('\n') {
            r.line(&rest[..i], &mut out);
            rest = &rest[i + 1..];
        }
        if !rest.is_empty() {
            r.line(rest, &mut out);
        }
        r.finish(&mut out);
        (out, r.files().to_vec())
    }

    fn texts(h: &Hunk) -> Vec<(LineKind, &str)> {
        h.lines.iter().map(|l| (l.kind, l.text.as_str())).collect()
    }

    #[test]
    fn counts_end_a_hunk_and_prose_after_it_is_ignored() {
        let (hunks, files) =
            read("--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\nThis renames b.\n");
        assert_eq!(hunks.len(), 1);
        assert_eq!(
            texts(&hunks[0]),
            [
                (LineKind::Context, "a"),
                (LineKind::Remove, "b"),
                (LineKind::Add, "c")
            ]
        );
        assert_eq!(files[0].new.as_deref(), Some("x.py"));
    }

    #[test]
    fn lenient_headers_blank_lines_and_unprefixed_context() {
        let (hunks, _) = read("@@ @@\n a\n\n-b\n+c\n\n@@ -5,3 +5,3\nflush\n-d\n+e\n");
        assert_eq!(hunks.len(), 2);
        assert_eq!(
            hunks[0].lines.len(),
            4,
            "the inner blank line is context, the last dropped"
        );
        assert_eq!(hunks[1].counts, Some((3, 3)));
        assert_eq!(hunks[1].old_start, Some(5));
        assert_eq!(texts(&hunks[1])[0], (LineKind::Context, "flush"));
    }

    #[test]
    fn markers_crlf_fences_and_several_files() {
        let (hunks, files) = read(
            "```diff\r\n--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\r\n\\ No newline at end of file\r\n+b\r\n```\r\ndiff --git a/y b/y\r\n--- /dev/null\r\n+++ b/y\r\n@@ -0,0 +1 @@\r\n+new\r\n",
        );
        assert_eq!(hunks.len(), 2);
        assert!(hunks[0].lines[0].no_newline);
        assert_eq!(hunks[0].lines[0].eol, "\r\n");
        assert_eq!(hunks[0].lines[0].text, "a");
        assert_eq!(hunks[1].file, 1);
        assert!(files[1].created);
        assert_eq!(files[1].new.as_deref(), Some("y"));
    }

    #[test]
    fn a_removed_line_that_looks_like_a_header() {
        let (hunks, _) = read("@@ -1,2 +1,1 @@\n--- sql comment\n a\n");
        assert_eq!(texts(&hunks[0])[0], (LineKind::Remove, "-- sql comment"));
    }
}

//! Reading a V4A body the way a model meant it: the sections, their anchors and lines, with the
//! leftovers of other formats models put around them taken off, and what cannot be read for
//! certain refused with the line that stopped it.

use crate::error::{Error, ErrorKind, Result};

/// What a body line does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A line of the file, kept.
    Context,
    /// A line of the file, removed.
    Remove,
    /// A new line.
    Add,
}

/// One body line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Line {
    pub(super) kind: Kind,
    pub(super) text: String,
    /// An empty line with no prefix at all (not `" "`): at a section's edge it may be the
    /// writer's spacing rather than a line of the file.
    pub(super) bare_blank: bool,
}

/// One section: the `@@` lines above it and its lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Section {
    /// The texts of its `@@ text` lines, outermost first (bare `@@` lines give none).
    pub(super) anchors: Vec<String>,
    pub(super) lines: Vec<Line>,
    /// Marked `*** End of File`: its lines end the file.
    pub(super) end_of_file: bool,
    /// The 1-based body line where it starts (its first `@@` line, or its first line).
    pub(super) body_line: usize,
}

impl Section {
    /// Whether it changes anything (has a `-` or `+` line).
    pub(super) fn changes(&self) -> bool {
        self.lines.iter().any(|l| l.kind != Kind::Context)
    }
}

/// A body's lines: split at `\n`, a `\r` before it dropped, the empty line after a final `\n`
/// dropped.
fn body_lines(body: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

/// Whether `line` is a unified diff's hunk header range (`-2,3 +2,4 @@`, after the first
/// `@@ `); the rest of the line after it, trimmed, if so.
fn unified_range(rest: &str) -> Option<&str> {
    let mut parts = rest.splitn(3, ' ');
    let (old, new, tail) = (parts.next()?, parts.next()?, parts.next().unwrap_or(""));
    let numbers = |s: &str, sign: char| {
        s.strip_prefix(sign).is_some_and(|r| {
            !r.is_empty()
                && r.split(',')
                    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    if !(numbers(old, '-') && numbers(new, '+')) {
        return None;
    }
    Some(tail.strip_prefix("@@").unwrap_or(tail).trim())
}

fn refuse(line: usize, text: &str, why: &str) -> Error {
    Error::new(
        ErrorKind::InvalidPatchHunk,
        format!("line {line} of the patch, {text:?}, {why}"),
    )
}

/// Reads a body into its sections (see [`BodyReader`]).
#[cfg(test)]
fn read_body(body: &str) -> Result<Vec<Section>> {
    let mut reader = BodyReader::default();
    let mut sections = Vec::new();
    for line in body_lines(body) {
        sections.extend(reader.line(line)?);
    }
    sections.extend(reader.finish()?);
    Ok(sections)
}

/// Reads a body line by line, giving each section once the line after it has arrived, so a
/// body read whole and one read as it streams give the same sections.
///
/// Taken off as the leftovers of other formats: blank lines and code fences around the body,
/// `*** Begin Patch` and `*** Update File:` before it, `--- a/x` / `+++ b/x` headers before
/// the first `@@`, `*** End Patch` and everything after it, and `\ No newline at end of file`
/// lines. A unified hunk header `@@ -a,b +c,d @@ text` is the anchor `text`. A line with no
/// prefix is a context line as written (its prefix was lost). Refused: `@@@` and `@@text`
/// headers, `***` lines that are no part of a body (`*** Move to:`, `*** Delete File:`, ...),
/// and lines after `*** End of File` before the next `@@`.
#[derive(Clone, Debug, Default)]
pub(super) struct BodyReader {
    /// The number of lines read.
    number: usize,
    /// Whether the body's first line has been read (before it, leftovers are passed over).
    started: bool,
    /// A `--- ` line before the body, held until the next line says whether it is a header.
    minus: Option<(usize, String)>,
    /// Blank lines and code fences held back: leftovers if the body ends after them.
    tail: Vec<(usize, String)>,
    /// `*** End Patch` was read: the rest is ignored.
    ended: bool,
    current: Section,
    /// The current section ended with `*** End of File`.
    closed: bool,
}

impl BodyReader {
    /// Reads the next line (without its line ending); the section it completed, if any.
    pub(super) fn line(&mut self, line: &str) -> Result<Option<Section>> {
        self.number += 1;
        let number = self.number;
        let t = line.trim();
        if self.ended {
            return Ok(None);
        }
        if t == "*** End Patch" {
            self.ended = true;
            return Ok(None);
        }
        if !self.started {
            if let Some((n, minus)) = self.minus.take() {
                if line.starts_with("+++ ") {
                    return Ok(None);
                }
                // Not a file header: the body starts with that `-` line.
                self.started = true;
                self.body_line(n, &minus)?;
            } else if t.is_empty()
                || t.starts_with("```")
                || t == "*** Begin Patch"
                || t.starts_with("*** Update File:")
            {
                return Ok(None);
            } else if line.starts_with("--- ") {
                self.minus = Some((number, line.to_owned()));
                return Ok(None);
            } else {
                self.started = true;
            }
        }
        if t.is_empty() || t.starts_with("```") {
            self.tail.push((number, line.to_owned()));
            return Ok(None);
        }
        // Blank lines and fences followed by more of the body are lines of it (they complete
        // no section: only a header does).
        for (n, held) in std::mem::take(&mut self.tail) {
            self.body_line(n, &held)?;
        }
        self.body_line(number, line)
    }

    /// Ends the body: its last section, if it has one.
    pub(super) fn finish(&mut self) -> Result<Option<Section>> {
        self.tail.clear();
        if let Some((n, minus)) = self.minus.take() {
            // A `-` line: it completes no section.
            self.body_line(n, &minus)?;
        }
        Ok(self.last())
    }

    /// The current section, taken, if it has anything.
    fn last(&mut self) -> Option<Section> {
        let current = std::mem::take(&mut self.current);
        (!current.lines.is_empty() || !current.anchors.is_empty() || current.end_of_file)
            .then_some(current)
    }

    /// One line of the body proper (`number` 1-based).
    fn body_line(&mut self, number: usize, line: &str) -> Result<Option<Section>> {
        if let Some(rest) = line.strip_prefix("@@") {
            if !(rest.is_empty() || rest.starts_with(' ')) {
                return Err(refuse(
                    number,
                    line,
                    "is not a hunk header (`@@` or `@@ text`)",
                ));
            }
            let mut done = None;
            if !self.current.lines.is_empty() || self.closed {
                done = Some(std::mem::take(&mut self.current));
                self.closed = false;
            }
            if self.current.anchors.is_empty() && self.current.body_line == 0 {
                self.current.body_line = number;
            }
            let text = rest.trim();
            let anchor = unified_range(text).unwrap_or(text);
            if !anchor.is_empty() {
                self.current.anchors.push(anchor.to_owned());
            }
            return Ok(done);
        }
        if line.trim_end() == "*** End of File" {
            self.current.end_of_file = true;
            self.closed = true;
            return Ok(None);
        }
        if line.starts_with("\\ No newline") {
            return Ok(None);
        }
        if line.starts_with("***") {
            return Err(refuse(number, line, "has no place inside a file's changes"));
        }
        if self.closed {
            return Err(refuse(
                number,
                line,
                "follows `*** End of File` without a new `@@` line",
            ));
        }
        if self.current.body_line == 0 {
            self.current.body_line = number;
        }
        let (kind, text, bare_blank) = match line.as_bytes().first() {
            Some(b' ') => (Kind::Context, &line[1..], false),
            Some(b'-') => (Kind::Remove, &line[1..], false),
            Some(b'+') => (Kind::Add, &line[1..], false),
            None => (Kind::Context, "", true),
            // A line whose prefix was lost: the line as written.
            Some(_) => (Kind::Context, line, false),
        };
        self.current.lines.push(Line {
            kind,
            text: text.to_owned(),
            bare_blank,
        });
        Ok(None)
    }
}

/// Reads a `create_file` body: the new file's lines and their line ending.
///
/// Each line is a `+` line without its `+`; a ` ` line (a context line, which a new file has
/// none of) and an unprefixed blank line are lines as well. Taken off: a last `+` line that
/// is empty (the writer's final newline), a space after every `+` when all lines have one and
/// it is the only indentation some line has (`+ }`), `*** End of File`, `*** End Patch` and
/// everything after it, and the envelope's or a hunk header's line before the first. The line
/// ending is `\r\n` when the body's lines end so.
pub(super) fn read_create(body: &str) -> Result<(Vec<String>, &'static str)> {
    let crlf = body.matches("\r\n").count() * 2 > body.matches('\n').count();
    let lines = body_lines(body);
    let end = lines
        .iter()
        .position(|l| l.trim() == "*** End Patch")
        .unwrap_or(lines.len());
    let mut out: Vec<String> = Vec::with_capacity(end);
    let mut plus_lines = 0;
    for (i, line) in lines[..end].iter().enumerate() {
        let t = line.trim();
        if i == 0
            && (line.starts_with("@@") || t == "*** Begin Patch" || t.starts_with("*** Add File:"))
        {
            continue;
        }
        if t == "*** End of File" || line.starts_with("\\ No newline") {
            continue;
        }
        match line.as_bytes().first() {
            Some(b'+') => {
                plus_lines += 1;
                out.push(line[1..].to_owned());
            }
            Some(b' ') => out.push(line[1..].to_owned()),
            None => out.push(String::new()),
            Some(_) => {
                return Err(refuse(
                    i + 1,
                    line,
                    "does not start with `+`: every line of a new file does",
                ));
            }
        }
    }
    if plus_lines > 0
        && out.last().is_some_and(String::is_empty)
        && lines[..end].last().is_some_and(|l| *l == "+")
    {
        out.pop();
    }
    let nonblank = || out.iter().filter(|l| !l.trim().is_empty());
    let spaced = nonblank().all(|l| l.starts_with(' '))
        && nonblank().any(|l| l.len() > 1 && !l[1..].starts_with(' '));
    if spaced && nonblank().next().is_some() {
        for line in &mut out {
            if line.starts_with(' ') {
                line.remove(0);
            }
        }
    }
    Ok((out, if crlf { "\r\n" } else { "\n" }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &Section) -> String {
        s.lines
            .iter()
            .map(|l| match l.kind {
                Kind::Context => ' ',
                Kind::Remove => '-',
                Kind::Add => '+',
            })
            .collect()
    }

    #[test]
    fn sections_anchors_and_leftovers() {
        let body = "```diff\n*** Begin Patch\n*** Update File: a.py\n@@ class A:\n@@ -3,2 +3,2 @@ def f():\n x\n-y\n+z\n@@\nlost prefix\n+w\n*** End of File\n*** End Patch\ntrailing\n";
        let s = read_body(body).expect("read");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].anchors, ["class A:", "def f():"]);
        assert_eq!(kinds(&s[0]), " -+");
        assert_eq!(s[0].body_line, 4);
        assert_eq!(s[1].lines[0].text, "lost prefix");
        assert!(s[1].end_of_file);
        let s = read_body("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n").expect("read");
        assert_eq!((s.len(), s[0].anchors.len()), (1, 0));
    }

    #[test]
    fn what_cannot_be_read_is_refused_with_its_line() {
        for (body, line) in [
            ("@@@\n-a\n", 1),
            (" a\n*** Move to: b\n", 2),
            ("-a\n*** End of File\n+b\n", 3),
        ] {
            let e = read_body(body).expect_err(body);
            assert_eq!(e.code(), "invalid_patch_hunk");
            assert!(
                e.message().starts_with(&format!("line {line} ")),
                "{}",
                e.message()
            );
        }
        assert_eq!(read_create("+a\n+b\n+\n").expect("create").0, ["a", "b"]);
        assert_eq!(read_create("+ a\n+   b\n").expect("create").0, ["a", "  b"]);
        assert_eq!(read_create("+a\r\n+b\r\n").expect("create").1, "\r\n");
        assert!(read_create("+a\nb\n+c\n").is_err());
    }
}

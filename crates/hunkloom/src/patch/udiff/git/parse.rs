//! Reading a patch the way `git apply` (2.47) reads it: file headers (`diff --git` or a
//! `---`/`+++` pair followed by `@@ -`), fragments whose `@@ -a,b +c,d @@` counts say where they
//! end (or, with `--recount`, counted from the body), and git's errors, word for word, with the
//! input line git names.
//!
//! Text around the patches is skipped; a fragment header outside a patch is an error, and so is
//! a patch with a header but no fragment. A body line must start with ` `, `-`, `+` (or be
//! empty: a blank context line) and end with `\n`; `\ ` after a line (12 bytes or more) marks
//! that line's newline as absent.

use super::file_patch::{FilePatch, Fragment, git_error};
use super::names::{self, Names};
use crate::error::{Error, ErrorKind, Result};

/// Parses every file patch of `diff`. `strip` is the number of leading path components to
/// remove from names (`-p`); `None` infers it (1 for `a/`-`b/` or `diff --git` headers, else 0).
pub(crate) fn parse(diff: &str, strip: Option<usize>, recount: bool) -> Result<Vec<FilePatch>> {
    let mut reader = Reader {
        text: diff,
        linenr: 1,
        strip,
        recount,
    };
    let mut patches = Vec::new();
    let mut offset = 0;
    while offset < diff.len() {
        match reader.chunk(offset)? {
            Some((patch, next)) => {
                patches.push(patch);
                offset = next;
            }
            None => break,
        }
    }
    if patches.is_empty() {
        return Err(corrupt(
            "No valid patches in input (allow with \"--allow-empty\")".to_owned(),
        ));
    }
    Ok(patches)
}

/// A patch git cannot read (its exit status 128).
fn corrupt(message: String) -> Error {
    git_error(ErrorKind::InvalidPatch, &message)
}

/// The length of the line at `at` with its `\n` (to the end of `text` without one).
pub(crate) fn linelen(text: &str, at: usize) -> usize {
    match memchr::memchr(b'\n', &text.as_bytes()[at..]) {
        Some(i) => i + 1,
        None => text.len() - at,
    }
}

struct Reader<'a> {
    text: &'a str,
    /// The line git's messages name (1-based), as git advances it.
    linenr: usize,
    strip: Option<usize>,
    recount: bool,
}

impl Reader<'_> {
    fn rest(&self, at: usize) -> &str {
        &self.text[at..]
    }

    /// The next file patch from `offset` and where reading resumes, or `None` when no header
    /// follows.
    fn chunk(&mut self, offset: usize) -> Result<Option<(FilePatch, usize)>> {
        let Some((mut patch, body)) = self.find_header(offset)? else {
            return Ok(None);
        };
        let end = self.single_patch(body, &mut patch)?;
        if patch.fragments.is_empty() && !is_metadata_change(&patch) {
            return Err(corrupt(format!(
                "patch with only garbage at line {}",
                self.linenr
            )));
        }
        Ok(Some((patch, end)))
    }

    /// Finds the next file header: the patch's names and where its first fragment starts.
    fn find_header(&mut self, mut at: usize) -> Result<Option<(FilePatch, usize)>> {
        let text = self.text;
        while at < text.len() {
            let len = linelen(text, at);
            let line = &text[at..at + len];
            let size = text.len() - at;
            if len >= 6 {
                if line.starts_with("@@ -") && fragment_header(line).is_some() {
                    return Err(corrupt(format!(
                        "patch fragment without header at line {}: {}",
                        self.linenr,
                        &line[..len - 1]
                    )));
                }
                if size < len + 6 {
                    break;
                }
                if line.starts_with("diff --git ") {
                    if let Some(found) = self.git_header(at, len)? {
                        return Ok(Some(found));
                    }
                    at += len;
                    self.linenr += 1;
                    continue;
                }
                let next = &text[at + len..];
                if line.starts_with("--- ") && next.starts_with("+++ ") {
                    let nextlen = linelen(text, at + len);
                    if size >= nextlen + 14 && text[at + len + nextlen..].starts_with("@@ -") {
                        let plus = &text[at + len..at + len + nextlen];
                        let patch = self.traditional(line, plus)?;
                        self.linenr += 2;
                        return Ok(Some((patch, at + len + nextlen)));
                    }
                }
            }
            at += len;
            self.linenr += 1;
        }
        Ok(None)
    }

    /// A `diff --git` header at `at` (line length `len`): the patch and where its fragments
    /// start, or `None` when the header has no extended lines (git then reads on).
    fn git_header(&mut self, at: usize, len: usize) -> Result<Option<(FilePatch, usize)>> {
        let strip = self.strip.unwrap_or(1);
        let line = &self.text[at..at + len];
        let def_name = names::git_header_name(strip, line);
        let mut patch = FilePatch::default();
        let mut extended = names::GitExtended::default();
        let mut pos = at + len;
        self.linenr += 1;
        while pos < self.text.len() {
            let l = linelen(self.text, pos);
            let line = &self.text[pos..pos + l];
            if !line.ends_with('\n') {
                break;
            }
            match extended.line(line, strip, &mut patch, self.linenr, def_name.as_deref())? {
                names::HeaderLine::More => {}
                names::HeaderLine::End => break,
            }
            pos += l;
            self.linenr += 1;
        }
        patch.mode_change = extended.mode_change();
        names::finish_git_header(&mut patch, def_name, strip, self.linenr)?;
        if pos - at <= len {
            return Ok(None);
        }
        Ok(Some((patch, pos)))
    }

    /// A `---`/`+++` header.
    fn traditional(&mut self, minus: &str, plus: &str) -> Result<FilePatch> {
        let first = &minus[4..];
        let second = &plus[4..];
        let strip = self
            .strip
            .unwrap_or_else(|| names::guess_strip(first, second));
        let Names {
            old_name,
            new_name,
            is_new,
            is_delete,
        } = names::traditional(first, second, strip).ok_or_else(|| {
            corrupt(format!(
                "unable to find filename in patch at line {}",
                self.linenr
            ))
        })?;
        Ok(FilePatch {
            old_name,
            new_name,
            is_new,
            is_delete,
            ..FilePatch::default()
        })
    }

    /// Reads the fragments that follow a header at `at`: where the patch ends.
    fn single_patch(&mut self, mut at: usize, patch: &mut FilePatch) -> Result<usize> {
        let (mut oldlines, mut newlines) = (0, 0);
        while self.text.len() - at > 4 && self.rest(at).starts_with("@@ -") {
            let (fragment, len) = match self.fragment(at) {
                Some(found) => found,
                None => {
                    return Err(corrupt(format!("corrupt patch at line {}", self.linenr)));
                }
            };
            oldlines += fragment.oldlines;
            newlines += fragment.newlines;
            patch.fragments.push(fragment);
            at += len;
        }
        if patch.is_new && oldlines > 0 {
            return Err(corrupt(format!(
                "new file {} depends on old contents",
                patch.new_name.as_deref().unwrap_or("")
            )));
        }
        if patch.is_delete && newlines > 0 {
            return Err(corrupt(format!(
                "deleted file {} still has contents",
                patch.old_name.as_deref().unwrap_or("")
            )));
        }
        Ok(at)
    }

    /// One fragment at `at` and its length, or `None` when it is corrupt (git names the line
    /// it reached).
    fn fragment(&mut self, at: usize) -> Option<(Fragment, usize)> {
        let text = self.text;
        let hlen = linelen(text, at);
        let header = &text[at..at + hlen];
        let (mut f, after) = fragment_header(header)?;
        if self.recount
            && let Some((old, new)) = recount(text, at + after)
        {
            f.oldlines = old;
            f.newlines = new;
        }
        let (mut oldlines, mut newlines) = (f.oldlines, f.newlines);
        let (mut added, mut deleted) = (0, 0);
        let mut pos = at + hlen;
        self.linenr += 1;
        while pos < text.len() {
            if oldlines == 0 && newlines == 0 {
                break;
            }
            let mut len = linelen(text, pos);
            let line = &text[pos..pos + len];
            if !line.ends_with('\n') {
                return None;
            }
            let skip = incomplete_marker(text, pos, len);
            match line.as_bytes()[0] {
                // (Counts run below zero as git's unsigned counters do: the hunk then reads on
                // until a line that is not part of it.)
                b'\n' | b' ' => {
                    oldlines = oldlines.wrapping_sub(1);
                    newlines = newlines.wrapping_sub(1);
                    if deleted == 0 && added == 0 {
                        f.leading += 1;
                    }
                    f.trailing += 1;
                }
                b'-' => {
                    deleted += 1;
                    oldlines = oldlines.wrapping_sub(1);
                    f.trailing = 0;
                }
                b'+' => {
                    added += 1;
                    newlines = newlines.wrapping_sub(1);
                    f.trailing = 0;
                }
                _ => return None,
            }
            f.body.push(line.to_owned());
            if skip > 0 {
                f.body.push(text[pos + len..pos + len + skip].to_owned());
                len += skip;
                self.linenr += 1;
            }
            pos += len;
            self.linenr += 1;
        }
        if oldlines != 0 || newlines != 0 {
            return None;
        }
        if !self.recount && added == 0 && deleted == 0 {
            return None;
        }
        Some((f, pos - at))
    }
}

/// git treats a patch that only changes modes or names as a patch even without fragments.
fn is_metadata_change(patch: &FilePatch) -> bool {
    patch.is_new || patch.is_delete || patch.mode_change || patch.old_name != patch.new_name
}

/// The length of a `\ No newline at end of file` line after the line at `pos` (length `len`),
/// or 0: git takes any `\ ` line of 12 bytes or more after a context, removed or added line.
fn incomplete_marker(text: &str, pos: usize, len: usize) -> usize {
    let first = text.as_bytes()[pos];
    if !matches!(first, b'\n' | b' ' | b'+' | b'-') {
        return 0;
    }
    let next = pos + len;
    if text.len() - next < 12 || !text[next..].starts_with("\\ ") {
        return 0;
    }
    let nextlen = linelen(text, next);
    if nextlen < 12 { 0 } else { nextlen }
}

/// `@@ -a[,b] +c[,d] @@` (a header line ending in `\n`): the fragment's positions and counts,
/// and the offset just past ` @@`.
pub(crate) fn fragment_header(line: &str) -> Option<(Fragment, usize)> {
    if !line.ends_with('\n') {
        return None;
    }
    let mut f = Fragment::default();
    let at = range(line, 4, " +", &mut f.oldpos, &mut f.oldlines)?;
    let at = range(line, at, " @@", &mut f.newpos, &mut f.newlines)?;
    Some((f, at))
}

/// `N[,M]` then `expect` at `at`: sets the numbers (`M` defaults to 1), returns the offset
/// after `expect`.
fn range(line: &str, at: usize, expect: &str, pos: &mut usize, count: &mut usize) -> Option<usize> {
    if at >= line.len() {
        return None;
    }
    let (n, digits) = number(&line[at..])?;
    *pos = n;
    let mut at = at + digits;
    *count = 1;
    if line[at..].starts_with(',') {
        let (m, digits) = number(&line[at + 1..])?;
        *count = m;
        at += digits + 1;
    }
    line[at..].starts_with(expect).then_some(at + expect.len())
}

/// A decimal number at the start of `s` and its digit count (none if `s` does not start with a
/// digit or the number overflows).
fn number(s: &str) -> Option<(usize, usize)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    s[..digits].parse().ok().map(|n| (n, digits))
}

/// `--recount`: the old and new line counts of the body after a header (from `at`, the rest of
/// the header line), or `None` when an unexpected line stops the count (git warns and keeps the
/// header's counts).
fn recount(text: &str, mut at: usize) -> Option<(usize, usize)> {
    let (mut old, mut new) = (0, 0);
    loop {
        at += linelen(text, at);
        if at >= text.len() {
            break;
        }
        let line = &text[at..];
        match line.as_bytes()[0] {
            b' ' | b'\n' => {
                new += 1;
                old += 1;
            }
            b'-' => old += 1,
            b'+' => new += 1,
            b'\\' => {}
            b'@' if line.starts_with("@@ ") => break,
            b'd' if line.starts_with("diff ") => break,
            _ => return None,
        }
    }
    Some((old, new))
}

//! File names in patch headers, read as `git apply` reads them: `---`/`+++` names (a tab or a
//! timestamp ends them, `/dev/null` or an epoch timestamp marks a created or deleted file), the
//! name of a `diff --git` line (only when both sides agree), and a git header's extended lines
//! (`new file mode`, `deleted file mode`, `rename from`/`to`, `--- `/`+++ `, `index`, ...).

use super::file_patch::{FilePatch, git_error};
use crate::error::{ErrorKind, Result};

/// The names and create/delete flags of a `---`/`+++` header.
pub(super) struct Names {
    pub(super) old_name: Option<String>,
    pub(super) new_name: Option<String>,
    pub(super) is_new: bool,
    pub(super) is_delete: bool,
}

/// How many leading components to strip when none was given: 1 when the names carry git's
/// `a/` and `b/` prefixes (or `/dev/null` stands for one side), else 0.
pub(super) fn guess_strip(first: &str, second: &str) -> usize {
    let prefixed = |s: &str, p: &str| s.starts_with(p) || is_dev_null(s);
    usize::from(
        prefixed(first, "a/")
            && prefixed(second, "b/")
            && !(is_dev_null(first) && is_dev_null(second)),
    )
}

/// The names of a `--- first` / `+++ second` header (both without their markers), or `None`
/// when no name can be found.
pub(super) fn traditional(first: &str, second: &str, strip: usize) -> Option<Names> {
    let mut names = Names {
        old_name: None,
        new_name: None,
        is_new: false,
        is_delete: false,
    };
    let name;
    if is_dev_null(first) {
        names.is_new = true;
        name = find_name_traditional(second, None, strip);
        names.new_name = name.clone();
    } else if is_dev_null(second) {
        names.is_delete = true;
        name = find_name_traditional(first, None, strip);
        names.old_name = name.clone();
    } else {
        let first_name = find_name_traditional(first, None, strip);
        name = find_name_traditional(second, first_name.as_deref(), strip);
        if has_epoch_timestamp(first) {
            names.is_new = true;
            names.new_name = name.clone();
        } else if has_epoch_timestamp(second) {
            names.is_delete = true;
            names.old_name = name.clone();
        } else {
            names.old_name = name.clone();
            names.new_name = name.clone();
        }
    }
    name.map(|_| names)
}

/// `/dev/null` followed by whitespace.
fn is_dev_null(s: &str) -> bool {
    s.strip_prefix("/dev/null")
        .and_then(|rest| rest.bytes().next())
        .is_some_and(|b| b.is_ascii_whitespace() || b == 0x0b)
}

/// C's `isspace`.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// What ends a name that has no timestamp after it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Terminate {
    /// A tab (or other whitespace but a space) ends it.
    Tab,
    /// Only the end of the given range ends it (spaces and tabs belong to the name).
    Nothing,
}

fn find_name_traditional(line: &str, def: Option<&str>, strip: usize) -> Option<String> {
    if line.starts_with('"')
        && let Some(name) = find_name_gnu(line, strip)
    {
        return Some(name);
    }
    let len = line.find('\n').unwrap_or(line.len());
    let date = timestamp_len(&line.as_bytes()[..len]);
    if date == 0 {
        return find_name_common(line, def, strip, None, Terminate::Tab);
    }
    find_name_common(line, def, strip, Some(len - date), Terminate::Nothing)
}

/// A name in the line, `strip` components removed; `end` bounds it when a timestamp follows.
fn find_name_common(
    line: &str,
    def: Option<&str>,
    strip: usize,
    end: Option<usize>,
    terminate: Terminate,
) -> Option<String> {
    let bytes = line.as_bytes();
    let mut left = strip as isize;
    let mut start = (strip == 0).then_some(0);
    let mut i = 0;
    let stop = end.unwrap_or(bytes.len());
    while i < stop {
        let c = bytes[i];
        if end.is_none() && is_space(c) {
            if c == b'\n' {
                break;
            }
            let keeps = c == b' ' || (c == b'\t' && terminate == Terminate::Nothing);
            if !keeps {
                break;
            }
        }
        i += 1;
        if c == b'/' {
            left -= 1;
            if left == 0 {
                start = Some(i);
            }
        }
    }
    let default = || def.map(squash_slash);
    let Some(start) = start else {
        return default();
    };
    if i <= start {
        return default();
    }
    let name = &line[start..i];
    if let Some(def) = def
        && def.len() < name.len()
        && name.starts_with(def)
    {
        return Some(squash_slash(def));
    }
    Some(squash_slash(name))
}

/// A C-quoted name (`"a/sp ace"`), `strip` components removed.
fn find_name_gnu(line: &str, strip: usize) -> Option<String> {
    let (name, _) = unquote(line)?;
    let mut rest = name.as_str();
    for _ in 0..strip {
        let slash = rest.find('/')?;
        rest = &rest[slash + 1..];
    }
    Some(squash_slash(rest))
}

/// Unquotes a C-style quoted string at the start of `s`: the text and the rest after it.
fn unquote(s: &str) -> Option<(String, &str)> {
    let mut out = Vec::new();
    let bytes = s.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Some((String::from_utf8(out).ok()?, &s[i + 1..])),
            b'\\' => {
                i += 1;
                let c = *bytes.get(i)?;
                match c {
                    b'a' => out.push(7),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'v' => out.push(11),
                    b'\\' | b'"' => out.push(c),
                    b'0'..=b'3' => {
                        let digits = bytes.get(i..i + 3)?;
                        if !digits.iter().all(|d| (b'0'..=b'7').contains(d)) {
                            return None;
                        }
                        out.push(
                            (digits[0] - b'0') * 64 + (digits[1] - b'0') * 8 + digits[2] - b'0',
                        );
                        i += 2;
                    }
                    _ => return None,
                }
            }
            b'\n' => return None,
            b => out.push(b),
        }
        i += 1;
    }
    None
}

/// Collapses runs of `/`.
fn squash_slash(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    out
}

/// The length of a diff timestamp at the end of `line` with the whitespace before it (POSIX
/// `2010-07-05 19:41:17`, GNU `2010-07-05 19:41:17.620000023 -0500`), or 0.
fn timestamp_len(line: &[u8]) -> usize {
    let len = line.len();
    if len == 0 || !line[len - 1].is_ascii_digit() {
        return 0;
    }
    let mut end = len;
    let zone = zone_len(&line[..end]);
    end -= zone;
    let mut time = short_time_len(&line[..end]);
    if time == 0 {
        time = fractional_time_len(&line[..end]);
    }
    end -= time;
    let date = date_len(&line[..end]);
    if date == 0 {
        return 0;
    }
    end -= date;
    if end == 0 {
        return 0;
    }
    if line[end - 1] == b'\t' {
        return len - (end - 1);
    }
    if line[end - 1] != b' ' {
        return 0;
    }
    // Whitespace damage: spaces before the date.
    let spaces = line[..end].iter().rev().take_while(|&&b| b == b' ').count();
    len - (end - spaces)
}

fn digits(s: &[u8]) -> bool {
    s.iter().all(u8::is_ascii_digit)
}

/// ` +0500` or ` -08:00` at the end.
fn zone_len(line: &[u8]) -> usize {
    let len = line.len();
    if len >= 6
        && line[len - 6] == b' '
        && matches!(line[len - 5], b'+' | b'-')
        && digits(&line[len - 4..])
    {
        return 6;
    }
    if len >= 7
        && line[len - 7] == b' '
        && matches!(line[len - 6], b'+' | b'-')
        && digits(&line[len - 5..len - 3])
        && line[len - 3] == b':'
        && digits(&line[len - 2..])
    {
        return 7;
    }
    0
}

/// ` hh:mm:ss` at the end.
fn short_time_len(line: &[u8]) -> usize {
    let len = line.len();
    if len < 9 {
        return 0;
    }
    let t = &line[len - 9..];
    let ok = t[0] == b' '
        && digits(&t[1..3])
        && t[3] == b':'
        && digits(&t[4..6])
        && t[6] == b':'
        && digits(&t[7..9]);
    if ok { 9 } else { 0 }
}

/// ` hh:mm:ss.fraction` at the end.
fn fractional_time_len(line: &[u8]) -> usize {
    let len = line.len();
    let fraction = line.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    if fraction == 0 || fraction == len || line[len - fraction - 1] != b'.' {
        return 0;
    }
    let n = short_time_len(&line[..len - fraction - 1]);
    if n == 0 { 0 } else { n + fraction + 1 }
}

/// `yy-mm-dd` or `yyyy-mm-dd` at the end.
fn date_len(line: &[u8]) -> usize {
    let len = line.len();
    if len < 8 {
        return 0;
    }
    let d = &line[len - 8..];
    if !(digits(&d[0..2]) && d[2] == b'-' && digits(&d[3..5]) && d[5] == b'-' && digits(&d[6..8])) {
        return 0;
    }
    if len >= 10 && digits(&line[len - 10..len - 8]) {
        10
    } else {
        8
    }
}

/// Whether the header's timestamp (after its last tab) is the epoch, which GNU diff writes for
/// the missing side of a created or deleted file.
fn has_epoch_timestamp(nameline: &str) -> bool {
    let line = nameline.split('\n').next().unwrap_or("");
    let Some(tab) = line.rfind('\t') else {
        return false;
    };
    let stamp = &line[tab + 1..];
    let (epoch_hour, rest) = if let Some(rest) = stamp.strip_prefix("1969-12-31 ") {
        (24, rest)
    } else if let Some(rest) = stamp.strip_prefix("1970-01-01 ") {
        (0, rest)
    } else {
        return false;
    };
    // hh:mm:00(.0+)? [+-]hh[:]mm
    let b = rest.as_bytes();
    if b.len() < 8 || !(b[0].is_ascii_digit() && b[0] <= b'2' && b[1].is_ascii_digit()) {
        return false;
    }
    if b[2] != b':'
        || !(b'0'..=b'5').contains(&b[3])
        || !b[4].is_ascii_digit()
        || &rest[5..8] != ":00"
    {
        return false;
    }
    let mut at = 8;
    if b.get(at) == Some(&b'.') {
        let zeros = b[at + 1..].iter().take_while(|&&c| c == b'0').count();
        if zeros == 0 {
            return false;
        }
        at += 1 + zeros;
    }
    if b.get(at) != Some(&b' ') {
        return false;
    }
    let zone = &rest[at + 1..];
    let zb = zone.as_bytes();
    if zb.is_empty() || !matches!(zb[0], b'+' | b'-') {
        return false;
    }
    let body = &zone[1..];
    let (zh, zm) = match body.len() {
        4 if digits(body.as_bytes()) => (&body[..2], &body[2..]),
        5 if body.as_bytes()[2] == b':'
            && digits(&body.as_bytes()[..2])
            && digits(&body.as_bytes()[3..]) =>
        {
            (&body[..2], &body[3..])
        }
        _ => return false,
    };
    let num = |s: &str| s.parse::<i64>().unwrap_or(0);
    let mut offset = num(zh) * 60 + num(zm);
    if zb[0] == b'-' {
        offset = -offset;
    }
    let hour = num(&rest[..2]);
    let minute = num(&rest[3..5]);
    hour * 60 + minute - offset == epoch_hour * 60
}

/// `line` with `strip` leading components removed (`None` for an absolute path, or when it
/// has too few components).
fn skip_tree_prefix(strip: usize, line: &str) -> Option<&str> {
    if strip == 0 {
        return (!line.starts_with('/')).then_some(line);
    }
    let mut left = strip;
    for (i, b) in line.bytes().enumerate() {
        if b == b'/' {
            left -= 1;
            if left == 0 {
                return (i != 0).then(|| &line[i + 1..]);
            }
        }
    }
    None
}

/// The name of a `diff --git a/NAME b/NAME` line when both sides name the same file.
pub(super) fn git_header_name(strip: usize, line: &str) -> Option<String> {
    let rest = line.strip_prefix("diff --git ")?;
    if rest.starts_with('"') {
        let (first, after) = unquote(rest)?;
        let first = skip_tree_prefix(strip, &first)?.to_owned();
        let second = after.trim_start_matches(|c: char| c.is_ascii_whitespace());
        if second.starts_with('"') {
            let (sp, _) = unquote(second)?;
            return (skip_tree_prefix(strip, &sp)? == first).then_some(first);
        }
        let second = second.strip_suffix('\n').unwrap_or(second);
        return (skip_tree_prefix(strip, second)? == first).then_some(first);
    }
    let name = skip_tree_prefix(strip, rest)?;
    if let Some(q) = name.find('"') {
        let (sp, _) = unquote(&name[q..])?;
        let np = skip_tree_prefix(strip, &sp)?;
        let len = np.len();
        let ok = len < q
            && name.as_bytes().get(len).is_some_and(|&b| is_space(b))
            && name.starts_with(np);
        return ok.then(|| np.to_owned());
    }
    let line_len = name.find('\n')?;
    let bytes = name.as_bytes();
    for len in 0..line_len {
        if bytes[len] != b' ' && bytes[len] != b'\t' {
            continue;
        }
        let Some(second) = skip_tree_prefix(strip, &name[len + 1..line_len]) else {
            continue;
        };
        if second.len() == len && name[..len] == *second {
            return Some(name[..len].to_owned());
        }
    }
    None
}

/// What a line of a git header's extended part did.
pub(super) enum HeaderLine {
    /// It was a header line; read on.
    More,
    /// The header ended (at a fragment, or a line that is no header line).
    End,
}

/// The extended lines of a `diff --git` header, as far as read.
#[derive(Default)]
pub(super) struct GitExtended {
    old_mode: Option<String>,
    new_mode: Option<String>,
}

impl GitExtended {
    /// Reads one extended header line (with its `\n`) into `patch`.
    pub(super) fn line(
        &mut self,
        line: &str,
        strip: usize,
        patch: &mut FilePatch,
        linenr: usize,
        def_name: Option<&str>,
    ) -> Result<HeaderLine> {
        let rename_strip = strip.saturating_sub(1);
        let mode = |s: &str| -> Result<String> {
            let digits = s.bytes().take_while(|b| (b'0'..=b'7').contains(b)).count();
            if digits == 0 || !s.as_bytes().get(digits).is_some_and(|&b| is_space(b)) {
                return Err(git_error(
                    ErrorKind::InvalidPatch,
                    &format!("invalid mode on line {linenr}: {s}"),
                ));
            }
            Ok(s[..digits].to_owned())
        };
        if line.starts_with("@@ -") {
            return Ok(HeaderLine::End);
        } else if let Some(rest) = line.strip_prefix("--- ") {
            verify_name(
                rest,
                patch.is_new,
                &mut patch.old_name,
                strip,
                linenr,
                "old",
            )?;
        } else if let Some(rest) = line.strip_prefix("+++ ") {
            verify_name(
                rest,
                patch.is_delete,
                &mut patch.new_name,
                strip,
                linenr,
                "new",
            )?;
        } else if let Some(rest) = line.strip_prefix("old mode ") {
            self.old_mode = Some(mode(rest)?);
        } else if let Some(rest) = line.strip_prefix("new mode ") {
            self.new_mode = Some(mode(rest)?);
        } else if let Some(rest) = line.strip_prefix("deleted file mode ") {
            patch.is_delete = true;
            patch.old_name = def_name.map(str::to_owned);
            self.old_mode = Some(mode(rest)?);
        } else if let Some(rest) = line.strip_prefix("new file mode ") {
            patch.is_new = true;
            patch.new_name = def_name.map(str::to_owned);
            self.new_mode = Some(mode(rest)?);
        } else if let Some(rest) = line
            .strip_prefix("copy from ")
            .or_else(|| line.strip_prefix("rename old "))
            .or_else(|| line.strip_prefix("rename from "))
        {
            patch.old_name = find_name_common(rest, None, rename_strip, None, Terminate::Nothing);
        } else if let Some(rest) = line
            .strip_prefix("copy to ")
            .or_else(|| line.strip_prefix("rename new "))
            .or_else(|| line.strip_prefix("rename to "))
        {
            patch.new_name = find_name_common(rest, None, rename_strip, None, Terminate::Nothing);
        } else if line.starts_with("similarity index ") || line.starts_with("dissimilarity index ")
        {
        } else if let Some(rest) = line.strip_prefix("index ") {
            // `index OLD..NEW MODE`: the mode, when given, is the old mode.
            if let Some(dots) = rest.find("..")
                && let Some(space) = rest[dots..].find(' ')
            {
                let after = &rest[dots + space + 1..];
                if !after.trim().is_empty() {
                    self.old_mode = Some(mode(after)?);
                }
            }
        } else {
            return Ok(HeaderLine::End);
        }
        Ok(HeaderLine::More)
    }

    /// Whether the header changes the file's mode.
    pub(super) fn mode_change(&self) -> bool {
        matches!((&self.old_mode, &self.new_mode), (Some(a), Some(b)) if a != b)
    }
}

/// A `--- ` / `+++ ` line inside a git header must agree with what the header said.
fn verify_name(
    rest: &str,
    isnull: bool,
    name: &mut Option<String>,
    strip: usize,
    linenr: usize,
    side: &str,
) -> Result<()> {
    let bad = |m: String| Err(git_error(ErrorKind::InvalidPatch, &m));
    match name {
        None if !isnull => {
            *name = find_name(rest, strip);
            Ok(())
        }
        Some(existing) => {
            if isnull {
                return bad(format!(
                    "git apply: bad git-diff - expected /dev/null, got {existing} on line {linenr}"
                ));
            }
            if find_name(rest, strip).as_deref() != Some(existing.as_str()) {
                return bad(format!(
                    "git apply: bad git-diff - inconsistent {side} filename on line {linenr}"
                ));
            }
            Ok(())
        }
        None => {
            if !is_dev_null(rest) {
                return bad(format!(
                    "git apply: bad git-diff - expected /dev/null on line {linenr}"
                ));
            }
            Ok(())
        }
    }
}

/// A name in a git header line (quoted, or ended by a tab).
fn find_name(rest: &str, strip: usize) -> Option<String> {
    if rest.starts_with('"')
        && let Some(name) = find_name_gnu(rest, strip)
    {
        return Some(name);
    }
    find_name_common(rest, None, strip, None, Terminate::Tab)
}

/// The end of a git header: fills in names from the `diff --git` line, or git's error when
/// the header names no file.
pub(super) fn finish_git_header(
    patch: &mut FilePatch,
    def_name: Option<String>,
    strip: usize,
    linenr: usize,
) -> Result<()> {
    if patch.old_name.is_none() && patch.new_name.is_none() {
        let Some(def) = def_name else {
            let s = if strip == 1 { "" } else { "s" };
            return Err(git_error(
                ErrorKind::InvalidPatch,
                &format!(
                    "git diff header lacks filename information when removing {strip} leading \
                     pathname component{s} (line {linenr})"
                ),
            ));
        };
        patch.old_name = Some(def.clone());
        patch.new_name = Some(def);
    }
    if (patch.new_name.is_none() && !patch.is_delete) || (patch.old_name.is_none() && !patch.is_new)
    {
        return Err(git_error(
            ErrorKind::InvalidPatch,
            &format!("git diff header lacks filename information (line {linenr})"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traditional_names_end_at_a_tab_or_a_timestamp() {
        let n = traditional(
            "a/src/x.py\t2024-05-01 10:00:00.000000000 +0000\n",
            "b/src/x.py\n",
            1,
        )
        .unwrap();
        assert_eq!(n.old_name.as_deref(), Some("src/x.py"));
        let n = traditional("x y.py 2024-05-01 10:00:00\n", "x y.py\n", 0).unwrap();
        assert_eq!(n.new_name.as_deref(), Some("x y.py"));
        let n = traditional("/dev/null\n", "b/new.txt\n", 1).unwrap();
        assert!(n.is_new && n.old_name.is_none());
        let n = traditional("a/x\t1970-01-01 00:00:00 +0000\n", "b/x\n", 1).unwrap();
        assert!(n.is_new);
    }

    #[test]
    fn git_header_names_must_agree() {
        assert_eq!(
            git_header_name(1, "diff --git a/x y.txt b/x y.txt\n").as_deref(),
            Some("x y.txt")
        );
        assert_eq!(git_header_name(1, "diff --git a/x b/y\n"), None);
        assert_eq!(
            git_header_name(1, "diff --git \"a/q\\tx\" \"b/q\\tx\"\n").as_deref(),
            Some("q\tx")
        );
    }

    #[test]
    fn strip_is_guessed_from_the_prefixes() {
        assert_eq!(guess_strip("a/x\n", "b/x\n"), 1);
        assert_eq!(guess_strip("/dev/null\n", "b/x\n"), 1);
        assert_eq!(guess_strip("x\n", "x\n"), 0);
        assert_eq!(guess_strip("src/x\n", "src/x\n"), 0);
    }
}

//! Applying a file's fragments as `git apply` does: each fragment's preimage (context and `-`
//! lines) must occur byte for byte at a run of lines no earlier fragment wrote; the run nearest
//! the fragment's new-side line number wins (ties go forward), `@@ -1` or `@@ -0` pins it to the
//! start of the file and a fragment without trailing context to its end. The first fragment
//! that does not apply fails the file.
//!
//! Finding the candidates is one substring search per fragment (line-aligned hits of the
//! preimage's bytes) instead of git's line-by-line walk, with the same winner.

use memchr::memmem;

use super::parse::{FilePatch, Fragment, git_error};
use crate::error::{ErrorKind, Result};

/// Where a fragment applied, in lines of the original text (0-based), and the byte span of
/// the original it replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placed {
    pub(crate) first_line: usize,
    pub(crate) line_count: usize,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// The file as the fragments change it.
struct Image {
    text: String,
    lines: Vec<Line>,
}

/// One line of the image.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// Its length in bytes, with its `\n`.
    len: usize,
    /// git's whitespace-blind line hash (24 bits).
    hash: u32,
    /// A fragment wrote it (later fragments may not match it).
    patched: bool,
    /// The original line it is, if no fragment wrote it.
    origin: Option<usize>,
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

impl Image {
    fn new(text: &str) -> Self {
        let lines = split(text)
            .into_iter()
            .enumerate()
            .map(|(i, l)| Line {
                len: l.len(),
                hash: hash_line(l.as_bytes()),
                patched: false,
                origin: Some(i),
            })
            .collect();
        Image {
            text: text.to_owned(),
            lines,
        }
    }
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

/// Applies every fragment of `patch` to `original`: the new text and where each fragment
/// applied, or git's two error lines for the first fragment that does not apply.
pub(crate) fn apply_fragments(original: &str, patch: &FilePatch) -> Result<(String, Vec<Placed>)> {
    let mut image = Image::new(original);
    let starts: Vec<usize> = std::iter::once(0)
        .chain(split(original).iter().scan(0, |at, l| {
            *at += l.len();
            Some(*at)
        }))
        .collect();
    let mut placed = Vec::with_capacity(patch.fragments.len());
    for fragment in &patch.fragments {
        match apply_one(&mut image, fragment, &starts) {
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
    if patch.is_delete && !image.text.is_empty() {
        return Err(git_error(
            ErrorKind::PatchContextNotFound,
            &format!(
                "removal patch leaves file contents\nerror: {}: patch does not apply",
                patch.name()
            ),
        ));
    }
    Ok((image.text, placed))
}

/// Applies one fragment; `starts` are the original's line starts (one past the last line
/// too). `None` when it matches nowhere.
fn apply_one(image: &mut Image, fragment: &Fragment, starts: &[usize]) -> Option<Placed> {
    let Sides { old, new } = sides(fragment)?;
    let match_beginning = fragment.oldpos <= 1;
    let match_end = fragment.trailing == 0;
    let hint = fragment.newpos.saturating_sub(1);
    let at = find_pos(image, &old, hint, match_beginning, match_end)?;
    // Where it applied in the original (for the report).
    let origin = |i: usize| image.lines.get(i).and_then(|l| l.origin);
    let first = origin(at)
        .or_else(|| {
            image.lines[at.min(image.lines.len())..]
                .iter()
                .find_map(|l| l.origin)
        })
        .unwrap_or(starts.len() - 1);
    let placed = Placed {
        first_line: first,
        line_count: old.len(),
        start: starts[first],
        end: starts[(first + old.len()).min(starts.len() - 1)],
    };
    update(image, at, old.len(), &new);
    Some(placed)
}

/// The line where `old` applies: among the runs of lines it matches (see [`matches_at`]), the
/// one nearest `hint` (forward first on a tie).
fn find_pos(
    image: &Image,
    old: &[String],
    hint: usize,
    match_beginning: bool,
    match_end: bool,
) -> Option<usize> {
    let nr = image.lines.len();
    let k = old.len();
    let line = if match_beginning {
        0
    } else if match_end {
        nr.checked_sub(k).unwrap_or(nr)
    } else {
        hint
    }
    .min(nr);
    let needle: String = old.concat();
    let hashes: Vec<u32> = old.iter().map(|l| hash_line(l.as_bytes())).collect();
    let mut offsets = Vec::with_capacity(nr + 1);
    let mut at = 0;
    for l in &image.lines {
        offsets.push(at);
        at += l.len;
    }
    offsets.push(at);
    let candidates: Vec<usize> = if needle.is_empty() {
        (0..=nr).collect()
    } else {
        // Line-aligned hits of the preimage's bytes.
        let mut out = Vec::new();
        let mut line_of = 0;
        for hit in memmem::find_iter(image.text.as_bytes(), needle.as_bytes()) {
            while offsets[line_of] < hit {
                line_of += 1;
            }
            if offsets[line_of] == hit {
                out.push(line_of);
            }
        }
        out
    };
    let rank = |p: usize| {
        if p >= line {
            (2 * (p - line)).saturating_sub(1)
        } else {
            2 * (line - p)
        }
    };
    candidates
        .into_iter()
        .filter(|&p| {
            matches_at(
                image,
                &offsets,
                p,
                &hashes,
                needle.len(),
                match_beginning,
                match_end,
            )
        })
        .min_by_key(|&p| rank(p))
}

/// Whether the preimage (line hashes `hashes`, `bytes` long in all, its bytes known to occur
/// at line `p`) matches there: inside the file, at its start or end when pinned, over lines no
/// fragment wrote, each line equal to its preimage line but for whitespace git's hash skips.
fn matches_at(
    image: &Image,
    offsets: &[usize],
    p: usize,
    hashes: &[u32],
    bytes: usize,
    match_beginning: bool,
    match_end: bool,
) -> bool {
    let nr = image.lines.len();
    let k = hashes.len();
    if k + p > nr || (match_end && k + p != nr) || (match_beginning && p != 0) {
        return false;
    }
    let lines = &image.lines[p..p + k];
    if lines
        .iter()
        .zip(hashes)
        .any(|(l, &h)| l.patched || l.hash != h)
    {
        return false;
    }
    let current = offsets[p];
    if match_end {
        current + bytes == image.text.len()
    } else {
        current + bytes <= image.text.len()
    }
}

/// Replaces the `k` lines at `at` with `new`, marking them written.
fn update(image: &mut Image, at: usize, k: usize, new: &[String]) {
    let start: usize = image.lines[..at].iter().map(|l| l.len).sum();
    let removed: usize = image.lines[at..at + k].iter().map(|l| l.len).sum();
    let inserted: String = new.concat();
    image.text.replace_range(start..start + removed, &inserted);
    let lines = new.iter().map(|l| Line {
        len: l.len(),
        hash: hash_line(l.as_bytes()),
        patched: true,
        origin: None,
    });
    image.lines.splice(at..at + k, lines);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::udiff::git::parse::parse;

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
}

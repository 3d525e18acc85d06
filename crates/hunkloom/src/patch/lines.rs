//! A file as lines with their own endings, rebuilt after replacements in one pass that copies
//! each run of kept lines as one slice of the original.

use std::cell::OnceCell;

use crate::search::line_starts::{ByteScan, LineCheckpoints};

/// A file's lines: each line's text borrows the content, its ending (`\r\n`, `\r`, `\n`, or
/// `""` for an unterminated last line) is read from the bytes after it when needed.
///
/// A file without `\r` has only `\n` endings: its lines are found by counting `\n`s, and an
/// exact search is a substring search of the text, so a hunk placed exactly in a large file
/// never splits it. The texts of every line are listed on first need (a looser tier, or a file
/// with `\r`).
#[derive(Debug)]
pub(super) struct Lines<'a> {
    content: &'a str,
    /// Set when the content has no `\r`.
    lf_only: Option<LineCheckpoints>,
    len: usize,
    texts: OnceCell<Vec<&'a str>>,
}

impl<'a> Lines<'a> {
    /// How many lines.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Each line's text, without its ending.
    pub(super) fn texts(&self) -> &[&'a str] {
        self.texts.get_or_init(|| split_texts(self.content))
    }

    /// Line `i`'s text.
    pub(super) fn text(&self, i: usize) -> &'a str {
        match (&self.lf_only, self.texts.get()) {
            (_, Some(texts)) => texts[i],
            (Some(_), None) => {
                let start = self.start(i);
                let rest = &self.content[start..];
                memchr::memchr(b'\n', rest.as_bytes()).map_or(rest, |n| &rest[..n])
            }
            (None, None) => self.texts()[i],
        }
    }

    /// Where line `i`'s text starts in the content.
    fn start(&self, i: usize) -> usize {
        match (&self.lf_only, self.texts.get()) {
            (Some(lf), None) => lf.start_of(self.content.as_bytes(), i),
            _ => self.texts()[i].as_ptr() as usize - self.content.as_ptr() as usize,
        }
    }

    /// Line `i`'s ending.
    pub(super) fn eol(&self, i: usize) -> &'a str {
        if let Some(lf) = &self.lf_only {
            // Every line ends in `\n` but an unterminated last one.
            return if i < lf.newlines() { "\n" } else { "" };
        }
        let end = self.start(i) + self.text(i).len();
        let rest = &self.content.as_bytes()[end..];
        let len = match rest {
            [b'\r', b'\n', ..] => 2,
            [b'\r' | b'\n', ..] => 1,
            _ => 0,
        };
        &self.content[end..end + len]
    }

    /// Where line `i`'s ending ends in the content.
    fn end(&self, i: usize) -> usize {
        match &self.lf_only {
            Some(_) if i + 1 < self.len => self.start(i + 1),
            Some(_) => self.content.len(),
            None => self.start(i) + self.text(i).len() + self.eol(i).len(),
        }
    }

    /// The first position `p` in `first..=last` where lines `p..` are `pattern` exactly, or
    /// `None` to let the caller compare line by line (a file with `\r`).
    pub(super) fn find_exact(
        &self,
        pattern: &[&str],
        first: usize,
        last: usize,
    ) -> Option<Option<usize>> {
        let lf = self
            .lf_only
            .as_ref()
            .filter(|_| self.texts.get().is_none())?;
        let bytes = self.content.as_bytes();
        let needle = pattern.join("\n");
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        let mut at = lf.start_of(bytes, first);
        Some(loop {
            let Some(hit) = finder.find(&bytes[at..]).map(|off| at + off) else {
                break None;
            };
            let end = hit + needle.len();
            if (hit == 0 || bytes[hit - 1] == b'\n') && (end == bytes.len() || bytes[end] == b'\n')
            {
                let p = lf.line_of(bytes, hit);
                break (p <= last).then_some(p);
            }
            match memchr::memchr(b'\n', &bytes[hit..]) {
                Some(off) => at = hit + off + 1,
                None => break None,
            }
        })
    }
}

/// Splits `content` at `\r\n`, `\r` and `\n`, each ending staying with its line.
pub(super) fn split(content: &str) -> Lines<'_> {
    if memchr::memchr(b'\r', content.as_bytes()).is_none() {
        let lf = LineCheckpoints::new(content.as_bytes());
        let unterminated = !content.is_empty() && !content.ends_with('\n');
        return Lines {
            content,
            len: lf.newlines() + usize::from(unterminated),
            lf_only: Some(lf),
            texts: OnceCell::new(),
        };
    }
    let texts = split_texts(content);
    Lines {
        content,
        lf_only: None,
        len: texts.len(),
        texts: OnceCell::from(texts),
    }
}

/// The text of each line of `content`, split at `\r\n`, `\r` and `\n`.
fn split_texts(content: &str) -> Vec<&str> {
    let bytes = content.as_bytes();
    let mut texts = Vec::with_capacity(content.len() / 24 + 1);
    let mut start = 0;
    for i in ByteScan::new(bytes, b'\r', b'\n') {
        if i < start {
            // The `\n` of a `\r\n`, which ended its line already.
            continue;
        }
        let len = if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        texts.push(&content[start..i]);
        start = i + len;
    }
    if start < content.len() {
        texts.push(&content[start..]);
    }
    texts
}

/// An item of the rebuilt file: a line of the original, or new text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Item<'a> {
    Kept(usize),
    New(&'a str),
}

/// One replacement: `old_len` lines at `start` become `items`.
#[derive(Debug)]
pub(super) struct Replacement<'a> {
    pub(super) start: usize,
    pub(super) old_len: usize,
    pub(super) items: Vec<Item<'a>>,
}

/// Rebuilds the file from `lines` and source-ordered, non-overlapping `replacements`.
///
/// Kept lines keep their ending; a new line, or a kept line that had none (the old last line),
/// takes the file's first ending, else `\n` — Codex's rule (0.171.0, preserving line endings:
/// in a file whose first line ends in `\n`, new lines end in `\n` wherever they land). Every
/// line of the result is terminated. The lines between replacements are copied as one slice.
pub(super) fn rebuild(lines: &Lines<'_>, replacements: &[Replacement<'_>]) -> String {
    let fallback = (0..lines.len())
        .map(|i| lines.eol(i))
        .find(|e| !e.is_empty())
        .unwrap_or("\n");
    let added: usize = replacements
        .iter()
        .flat_map(|r| &r.items)
        .map(|i| if let Item::New(t) = i { t.len() + 2 } else { 0 })
        .sum();
    let mut out = String::with_capacity(lines.content.len() + added + 2);
    let push_line = |out: &mut String, text: &str, eol: &str| {
        out.push_str(text);
        out.push_str(if eol.is_empty() { fallback } else { eol });
    };
    let push_run = |out: &mut String, from: usize, to: usize| {
        if from < to {
            out.push_str(&lines.content[lines.start(from)..lines.end(to - 1)]);
            if lines.eol(to - 1).is_empty() {
                out.push_str(fallback);
            }
        }
    };
    let mut at = 0;
    for r in replacements {
        push_run(&mut out, at, r.start);
        for item in &r.items {
            match *item {
                Item::Kept(i) => push_line(&mut out, lines.text(i), lines.eol(i)),
                Item::New(t) => push_line(&mut out, t, ""),
            }
        }
        at = r.start + r.old_len;
    }
    push_run(&mut out, at, lines.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_every_ending() {
        let l = split("one\r\ntwo\rthree\nfour");
        let parts: Vec<(&str, &str)> = (0..l.len()).map(|i| (l.text(i), l.eol(i))).collect();
        assert_eq!(
            parts,
            [
                ("one", "\r\n"),
                ("two", "\r"),
                ("three", "\n"),
                ("four", "")
            ]
        );
        assert_eq!(split("").len(), 0);
        assert_eq!(split("\n").len(), 1);
    }

    #[test]
    fn new_lines_take_the_ending_around_them() {
        let lines = split("one\r\ntwo\rthree\nfour\r\n");
        let r = [Replacement {
            start: 2,
            old_len: 1,
            items: vec![Item::New("THREE")],
        }];
        assert_eq!(rebuild(&lines, &r), "one\r\ntwo\rTHREE\r\nfour\r\n");
        let lines = split("a\r\nb");
        let r = [Replacement {
            start: 2,
            old_len: 0,
            items: vec![Item::New("c")],
        }];
        assert_eq!(rebuild(&lines, &r), "a\r\nb\r\nc\r\n");
        assert_eq!(rebuild(&split("x"), &[]), "x\n");
        let r = [Replacement {
            start: 0,
            old_len: 0,
            items: vec![Item::New("x")],
        }];
        assert_eq!(rebuild(&split(""), &r), "x\n");
    }
}

//! A file as lines with their own endings, rebuilt after replacements in one pass.

/// One line of a file: its text and the ending that followed it (`""` for an unterminated last
/// line). Both borrow the file's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Line<'a> {
    pub(super) text: &'a str,
    pub(super) eol: &'a str,
}

/// Splits `content` at `\r\n`, `\r` and `\n`, keeping each ending with its line.
pub(super) fn split(content: &str) -> Vec<Line<'_>> {
    let bytes = content.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while let Some(off) = memchr::memchr2(b'\r', b'\n', &bytes[at..]) {
        let i = at + off;
        let len = if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        lines.push(Line {
            text: &content[start..i],
            eol: &content[i..i + len],
        });
        start = i + len;
        at = start;
    }
    if start < content.len() {
        lines.push(Line {
            text: &content[start..],
            eol: "",
        });
    }
    lines
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
/// line of the result is terminated.
pub(super) fn rebuild(lines: &[Line<'_>], replacements: &[Replacement<'_>]) -> String {
    let mut items: Vec<Item<'_>> = Vec::with_capacity(lines.len());
    let mut at = 0;
    for r in replacements {
        items.extend((at..r.start).map(Item::Kept));
        items.extend_from_slice(&r.items);
        at = r.start + r.old_len;
    }
    items.extend((at..lines.len()).map(Item::Kept));

    let ending_of = |item: &Item<'_>| match item {
        Item::Kept(i) if !lines[*i].eol.is_empty() => Some(lines[*i].eol),
        _ => None,
    };
    let fallback = lines
        .iter()
        .map(|l| l.eol)
        .find(|e| !e.is_empty())
        .unwrap_or("\n");
    let total: usize = lines.iter().map(|l| l.text.len() + 2).sum::<usize>()
        + replacements
            .iter()
            .flat_map(|r| &r.items)
            .map(|i| if let Item::New(t) = i { t.len() + 2 } else { 0 })
            .sum::<usize>();
    let mut out = String::with_capacity(total);
    for item in &items {
        let text = match item {
            Item::Kept(i) => lines[*i].text,
            Item::New(t) => t,
        };
        out.push_str(text);
        out.push_str(ending_of(item).unwrap_or(fallback));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_every_ending() {
        let l = split("one\r\ntwo\rthree\nfour");
        let parts: Vec<(&str, &str)> = l.iter().map(|l| (l.text, l.eol)).collect();
        assert_eq!(
            parts,
            [
                ("one", "\r\n"),
                ("two", "\r"),
                ("three", "\n"),
                ("four", "")
            ]
        );
        assert!(split("").is_empty());
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
        assert_eq!(rebuild(&[], &r), "x\n");
    }
}

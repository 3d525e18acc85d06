//! Copilot's `findAndReplaceOne` and the edit it gives: exact, then whitespace-flexible lines,
//! then a line-fuzzy pattern, then line similarity — each with its own quirks of where the edit
//! range lands, kept here because they decide the files (see the module documentation).
//!
//! Everything works on UTF-16 code units.

use super::document::Units;

/// Why no edit came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Miss {
    /// Nothing matched.
    None,
    /// A strategy matched more than once: its suggestion.
    Multiple(&'static str),
    /// The edit changes nothing.
    Unchanged,
}

/// One edit: offsets into the text (the end may come before the start, or be negative) and
/// the text put there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct OffsetEdit {
    pub(super) start: isize,
    pub(super) end: isize,
    pub(super) text: Units,
}

fn is_js_space(u: u16) -> bool {
    char::from_u32(u32::from(u)).is_some_and(hunkloom::text::is_js_whitespace)
}

fn trim(s: &[u16]) -> &[u16] {
    let start = s.iter().position(|&u| !is_js_space(u)).unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&u| !is_js_space(u))
        .map_or(start, |e| e + 1);
    &s[start..end.max(start)]
}

/// `s.split(sep)`.
fn split<'a>(s: &'a [u16], sep: &[u16]) -> Vec<&'a [u16]> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + sep.len() <= s.len() {
        if s[i..i + sep.len()] == *sep {
            out.push(&s[start..i]);
            i += sep.len();
            start = i;
        } else {
            i += 1;
        }
    }
    out.push(&s[start..]);
    out
}

fn find(hay: &[u16], needle: &[u16], from: usize) -> Option<usize> {
    if needle.is_empty() || needle.len() > hay.len() {
        return None;
    }
    (from..=hay.len() - needle.len()).find(|&i| hay[i..i + needle.len()] == *needle)
}

/// How many leading units agree, and how many trailing ones besides.
fn identical<T: PartialEq>(a: &[T], b: &[T]) -> (usize, usize) {
    let lead = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let mut trail = 0;
    while lead + trail < a.len()
        && lead + trail < b.len()
        && a[a.len() - 1 - trail] == b[b.len() - 1 - trail]
    {
        trail += 1;
    }
    (lead, trail)
}

/// The offsets where each line of `text` starts (every kind of line break counts).
fn line_starts(text: &[u16]) -> Vec<usize> {
    let mut starts = vec![0];
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            13 if text.get(i + 1) == Some(&10) => {
                i += 2;
                starts.push(i);
            }
            10 | 13 => {
                i += 1;
                starts.push(i);
            }
            _ => i += 1,
        }
    }
    starts
}

/// The text after the edit and the edit, or why there is none.
pub(super) fn find_and_replace(
    text: &[u16],
    eol: &[u16],
    old: &[u16],
    new: &[u16],
) -> Result<(Units, OffsetEdit), Miss> {
    let found = exact(text, old, new)
        .or_else(|| whitespace_flexible(text, eol, old, new))
        .or_else(|| line_fuzzy(text, eol, old, new))
        .or_else(|| similarity(text, eol, old, new));
    match found {
        None => Err(Miss::None),
        Some(Err(m)) => Err(m),
        Some(Ok((result, _))) if result == text => Err(Miss::Unchanged),
        Some(Ok(done)) => Ok(done),
    }
}

type Found = Option<Result<(Units, OffsetEdit), Miss>>;

fn exact(text: &[u16], old: &[u16], new: &[u16]) -> Found {
    let mut hits = Vec::new();
    let mut from = 0;
    while let Some(k) = find(text, old, from) {
        hits.push(k);
        from = k + old.len();
    }
    match hits.as_slice() {
        [] => None,
        [k] => {
            let k = *k;
            let (lead, trail) = identical(old, new);
            let edit = OffsetEdit {
                start: (k + lead) as isize,
                end: (k + old.len() - trail) as isize,
                text: new[lead..new.len() - trail].to_vec(),
            };
            let mut result = text[..k].to_vec();
            result.extend_from_slice(new);
            result.extend_from_slice(&text[k + old.len()..]);
            Some(Ok((result, edit)))
        }
        _ => Some(Err(Miss::Multiple(
            "Multiple exact matches found. Make your search string more specific.",
        ))),
    }
}

fn whitespace_flexible(text: &[u16], eol: &[u16], old: &[u16], new: &[u16]) -> Found {
    let hay: Vec<&[u16]> = split(text, eol).into_iter().map(trim).collect();
    let lines_old = split(trim(old), eol);
    let mut needle: Vec<&[u16]> = lines_old.iter().map(|l| trim(l)).collect();
    needle.push(&[]);
    let mut matches = Vec::new();
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        if hay[i..i + needle.len()] == needle[..] {
            matches.push(i);
            i += needle.len();
        } else {
            i += 1;
        }
    }
    let m = match matches.as_slice() {
        [] => return None,
        [m] => *m,
        _ => {
            return Some(Err(Miss::Multiple(
                "Multiple matches found with flexible whitespace. Make your search string more unique.",
            )));
        }
    };
    let lines_new = split(trim(new), eol);
    let (l, t) = identical(&lines_old, &lines_new);
    let starts = line_starts(text);
    let line_start = |j: usize| starts.get(j).copied().unwrap_or(text.len()) as isize;
    let s = line_start(m + l);
    let e = m + l + lines_old.len() - t;
    let end = line_start(e.min(starts.len() - 1)) - 1;
    let replacement: Units = lines_new[l..lines_new.len() - t].join(eol);
    let mut result = text[..s as usize].to_vec();
    result.extend_from_slice(&replacement);
    // `text.slice(end)`: a negative end counts from the back.
    let tail_from = if end < 0 {
        text.len().saturating_sub(end.unsigned_abs())
    } else {
        end as usize
    };
    result.extend_from_slice(&text[tail_from.min(text.len())..]);
    Some(Ok((
        result,
        OffsetEdit {
            start: s,
            end,
            text: replacement,
        },
    )))
}

fn line_fuzzy(text: &[u16], eol: &[u16], old: &[u16], new: &[u16]) -> Found {
    let (body, trailing) = match old.strip_suffix(eol) {
        Some(body) => (body, true),
        None => (old, false),
    };
    let lines = split(body, eol);
    let matches_at = |p: usize| -> Option<usize> {
        let mut q = p;
        for (i, line) in lines.iter().enumerate() {
            if !text[q..].starts_with(line) {
                return None;
            }
            q += line.len();
            while q < text.len() && (text[q] == 32 || text[q] == 9) {
                q += 1;
            }
            if i + 1 < lines.len() || trailing {
                if text.get(q) == Some(&13) && text.get(q + 1) == Some(&10) {
                    q += 2;
                } else if text.get(q) == Some(&10) {
                    q += 1;
                } else {
                    return None;
                }
            }
        }
        Some(q)
    };
    let mut found = Vec::new();
    let mut p = 0;
    while p <= text.len() {
        match matches_at(p) {
            Some(e) if e > p => {
                found.push((p, e));
                p = e;
            }
            Some(_) | None => p += 1,
        }
    }
    match found.as_slice() {
        [] => None,
        [(s, e)] => {
            let mut result = text[..*s].to_vec();
            result.extend_from_slice(new);
            result.extend_from_slice(&text[*e..]);
            Some(Ok((
                result,
                OffsetEdit {
                    start: *s as isize,
                    end: *e as isize,
                    text: new.to_vec(),
                },
            )))
        }
        _ => Some(Err(Miss::Multiple(
            "Multiple fuzzy matches found. Try including more context in your search string.",
        ))),
    }
}

use hunkloom::text::js_edit_distance as levenshtein;

fn line_similarity(a: &[u16], b: &[u16]) -> f64 {
    if a == b {
        return 1.0;
    }
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    1.0 - levenshtein(a, b) as f64 / a.len().max(b.len()) as f64
}

fn similarity(text: &[u16], eol: &[u16], old: &[u16], new: &[u16]) -> Found {
    let lines_old = split(old, eol);
    if old.len() > 1000 || lines_old.len() > 20 {
        return None;
    }
    let lines = split(text, eol);
    if lines.len() > 1000 || lines_old.len() > lines.len() {
        return None;
    }
    let lines_new = split(new, eol);
    let (l, t) = identical(&lines_old, &lines_new);
    let mut best: Option<(f64, usize)> = None;
    for i in 0..=lines.len() - lines_old.len() {
        let total: f64 = lines_old
            .iter()
            .enumerate()
            .map(|(j, o)| line_similarity(o, lines[i + j]))
            .sum();
        let avg = total / lines_old.len() as f64;
        if avg > 0.95 && avg > best.map_or(0.0, |b| b.0) {
            best = Some((avg, i));
        }
    }
    let (_, i) = best?;
    let el = eol.len() as isize;
    let span = |j: usize| lines[i + j].len() as isize + el;
    let starts: isize = lines[..i].iter().map(|x| x.len() as isize + el).sum();
    let lead: isize = (0..l).map(span).sum();
    let start = starts + lead;
    let window: isize = (0..lines_old.len())
        .map(|j| lines[i + j].len() as isize)
        .sum::<isize>()
        + (lines_old.len() as isize - 1) * el;
    let tail: isize = (lines_old.len() - t..lines_old.len()).map(span).sum();
    let length = window - lead - tail;
    let replacement: Units = lines_new[l..lines_new.len() - t].join(eol);
    let mut result_lines: Vec<&[u16]> = lines[..i + l].to_vec();
    result_lines.extend(lines_new[l..lines_new.len() - t].iter().copied());
    result_lines.extend(lines[i + lines_old.len() - t..].iter().copied());
    Some(Ok((
        result_lines.join(eol),
        OffsetEdit {
            start,
            end: start + length,
            text: replacement,
        },
    )))
}

#[cfg(test)]
mod tests {
    use super::super::document::{Document, units};
    use super::*;

    /// The file after the edit, as the document applies it.
    fn run(file: &str, old: &str, new: &str) -> Result<String, Miss> {
        let mut doc = Document::load(file);
        let (_, edit) = find_and_replace(&doc.text(), &doc.eol.clone(), &units(old), &units(new))?;
        let range = doc.range(edit.start, edit.end);
        doc.apply(range, &edit.text);
        Ok(doc.saved())
    }

    #[test]
    fn exact_matches_once_or_says_multiple() {
        assert_eq!(run("a\nb\n", "b", "c"), Ok("a\nc\n".into()));
        assert!(matches!(run("x x", "x", "y"), Err(Miss::Multiple(_))));
        assert_eq!(run("a\n", "zzz", "y"), Err(Miss::None));
    }

    #[test]
    fn whitespace_flexible_needs_a_blank_line_after_and_overshoots() {
        assert_eq!(
            run(
                "def f():\n    a = 1\n    b = 2\n\nrest\n",
                "a = 1\nb = 2",
                "a = 1\nb = 3"
            ),
            Ok("def f():\n    a = 1\nb = 3\nrest\n".into())
        );
    }

    #[test]
    fn similarity_inserting_between_kept_lines_glues_them() {
        assert_eq!(
            run(
                "alpha beta gamma delta\nsecond line here\nthird\n",
                "alpha beta gamma delte\nsecond line here",
                "alpha beta gamma delte\nINSERTED\nsecond line here"
            ),
            Ok("alpha beta gamma deltaINSERTEDsecond line here\nthird\n".into())
        );
    }

    #[test]
    fn an_edit_that_changes_nothing_is_refused() {
        assert_eq!(run("a b", "a", "a"), Err(Miss::Unchanged));
    }
}

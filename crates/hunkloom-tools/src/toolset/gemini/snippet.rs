//! The "Here is the updated code" snippet of the Gemini CLI (`getDiffContextSnippet`): the
//! changed lines of a line diff with five lines of context, `...` where lines are left out.
//!
//! The line diff is jsdiff's `diffLines` (8.0.3): Myers' greedy O(ND) search with jsdiff's
//! own choices between equally short edit scripts, reproduced here because another diff
//! could place a change a line away and show different context.

use std::collections::HashMap;

/// Lines of context around each change.
const CONTEXT: usize = 5;

/// jsdiff's line tokens: each line with its `\n` or `\r\n`; no empty token at the end.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            out.push(&text[start..=i]);
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// One run of jsdiff's result: `count` tokens kept, added or removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    Kept(usize),
    Added(usize),
    Removed(usize),
}

/// A component of a path under construction: a run and the one before it.
struct Component {
    run: Run,
    previous: Option<usize>,
}

#[derive(Clone, Copy)]
struct Path {
    old_pos: isize,
    last: Option<usize>,
}

/// jsdiff's `diffLines(old, new)` as runs of line counts.
fn diff_lines(old: &str, new: &str) -> Vec<Run> {
    let (old, new) = (tokens(old), tokens(new));
    let (old_len, new_len) = (old.len() as isize, new.len() as isize);
    let mut arena: Vec<Component> = Vec::new();

    // Follows the diagonal while the tokens agree; the new position reached.
    let extract_common = |path: &mut Path, diagonal: isize, arena: &mut Vec<Component>| {
        let mut old_pos = path.old_pos;
        let mut new_pos = old_pos - diagonal;
        let mut common = 0;
        while new_pos + 1 < new_len
            && old_pos + 1 < old_len
            && old[(old_pos + 1) as usize] == new[(new_pos + 1) as usize]
        {
            new_pos += 1;
            old_pos += 1;
            common += 1;
        }
        if common > 0 {
            arena.push(Component {
                run: Run::Kept(common),
                previous: path.last,
            });
            path.last = Some(arena.len() - 1);
        }
        path.old_pos = old_pos;
        new_pos
    };
    let add_to_path = |path: Path, added: bool, arena: &mut Vec<Component>| {
        let (run, extends) = match (path.last.map(|i| arena[i].run), added) {
            (Some(Run::Added(n)), true) => (Run::Added(n + 1), true),
            (Some(Run::Removed(n)), false) => (Run::Removed(n + 1), true),
            (_, true) => (Run::Added(1), false),
            (_, false) => (Run::Removed(1), false),
        };
        let previous = if extends {
            path.last.and_then(|i| arena[i].previous)
        } else {
            path.last
        };
        arena.push(Component { run, previous });
        Path {
            old_pos: path.old_pos + isize::from(!added),
            last: Some(arena.len() - 1),
        }
    };

    let mut best: HashMap<isize, Path> = HashMap::new();
    let mut start = Path {
        old_pos: -1,
        last: None,
    };
    let new_pos = extract_common(&mut start, 0, &mut arena);
    if start.old_pos + 1 >= old_len && new_pos + 1 >= new_len {
        return build(&arena, start.last);
    }
    best.insert(0, start);
    let (mut min_diagonal, mut max_diagonal) = (isize::MIN, isize::MAX);
    let mut edit_length: isize = 1;
    loop {
        let mut diagonal = min_diagonal.max(-edit_length);
        while diagonal <= max_diagonal.min(edit_length) {
            let remove_path = best.remove(&(diagonal - 1));
            let add_path = best.get(&(diagonal + 1)).copied();
            let can_add = add_path.is_some_and(|p| {
                let new_pos = p.old_pos - diagonal;
                0 <= new_pos && new_pos < new_len
            });
            let can_remove = remove_path.is_some_and(|p| p.old_pos + 1 < old_len);
            if !can_add && !can_remove {
                best.remove(&diagonal);
                diagonal += 2;
                continue;
            }
            // jsdiff: add unless removing is possible and reaches at least as far in the
            // old text.
            let mut base = match (remove_path, add_path) {
                (Some(r), Some(a)) if can_add && (!can_remove || r.old_pos < a.old_pos) => {
                    add_to_path(a, true, &mut arena)
                }
                (None, Some(a)) => add_to_path(a, true, &mut arena),
                (Some(r), _) => add_to_path(r, false, &mut arena),
                (None, None) => {
                    diagonal += 2;
                    continue;
                }
            };
            let new_pos = extract_common(&mut base, diagonal, &mut arena);
            if base.old_pos + 1 >= old_len && new_pos + 1 >= new_len {
                return build(&arena, base.last);
            }
            best.insert(diagonal, base);
            if base.old_pos + 1 >= old_len {
                max_diagonal = max_diagonal.min(diagonal - 1);
            }
            if new_pos + 1 >= new_len {
                min_diagonal = min_diagonal.max(diagonal + 1);
            }
            diagonal += 2;
        }
        edit_length += 1;
    }
}

/// The runs of a finished path, first to last.
fn build(arena: &[Component], mut last: Option<usize>) -> Vec<Run> {
    let mut runs = Vec::new();
    while let Some(i) = last {
        runs.push(arena[i].run);
        last = arena[i].previous;
    }
    runs.reverse();
    runs
}

/// `getDiffContextSnippet(old, new, 5)`.
pub(super) fn snippet(old: &str, new: &str) -> String {
    if old.is_empty() {
        return new.to_owned();
    }
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    for run in diff_lines(old, new) {
        match run {
            Run::Added(n) => {
                ranges.push((at, at + n));
                at += n;
            }
            Run::Removed(_) => ranges.push((at, at)),
            Run::Kept(n) => at += n,
        }
    }
    if ranges.is_empty() {
        return new.to_owned();
    }
    // `new.split(/\r?\n/)`.
    let lines = super::js::split_lines(new);
    let mut widened: Vec<(usize, usize)> = ranges
        .iter()
        .map(|&(s, e)| (s.saturating_sub(CONTEXT), (e + CONTEXT).min(lines.len())))
        .collect();
    widened.sort_by_key(|r| r.0);
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (s, e) in widened {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    let mut parts: Vec<String> = Vec::new();
    let mut last_end = 0;
    for (s, e) in merged {
        if s > last_end {
            parts.push("...".to_owned());
        }
        parts.push(lines[s..e].join("\n"));
        last_end = e;
    }
    if last_end < lines.len() {
        parts.push("...".to_owned());
    }
    parts.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_jsdiffs() {
        use Run::*;
        assert_eq!(diff_lines("a\nb\nc\n", "a\nb\nc\n"), [Kept(3)]);
        assert_eq!(
            diff_lines("a\nb\nc\n", "a\nx\nc\n"),
            [Kept(1), Removed(1), Added(1), Kept(1)]
        );
        assert_eq!(diff_lines("a\n", "a\nb\n"), [Kept(1), Added(1)]);
        assert_eq!(diff_lines("a\nb\n", "b\n"), [Removed(1), Kept(1)]);
        assert_eq!(diff_lines("", "x"), [Added(1)]);
    }

    #[test]
    fn snippet_widens_merges_and_elides() {
        let old: String = (0..30).map(|i| format!("l{i}\n")).collect();
        let new = old.replace("l15\n", "L15\n");
        assert_eq!(
            snippet(&old, &new),
            "...\nl10\nl11\nl12\nl13\nl14\nL15\nl16\nl17\nl18\nl19\nl20\n..."
        );
        assert_eq!(snippet("", "whole"), "whole");
    }
}

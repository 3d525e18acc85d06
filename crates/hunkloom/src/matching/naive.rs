//! Naive oracles for the fast matchers: the Cline fallbacks written as plainly as possible,
//! re-splitting and re-trimming on every call.

use crate::text::js_trim;

/// Byte offset of the start of each line `k` of `lines` (as if each ended with `\n`).
fn line_start(lines: &[&str], k: usize) -> usize {
    lines[..k].iter().map(|l| l.len() + 1).sum()
}

fn start_line(lines: &[&str], from: usize) -> usize {
    let mut line = 0;
    let mut offset = 0;
    while offset < from && line < lines.len() {
        offset += lines[line].len() + 1;
        line += 1;
    }
    line
}

fn search_lines(search: &str) -> (Vec<&str>, usize) {
    let mut lines: Vec<&str> = search.split('\n').collect();
    let pieces = lines.len();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    (lines, pieces)
}

pub(crate) fn line_trimmed(original: &str, search: &str, from: usize) -> Option<(usize, usize)> {
    let orig: Vec<&str> = original.split('\n').collect();
    let (search, _) = search_lines(search);
    let first = start_line(&orig, from);
    let mut i = first;
    while i + search.len() <= orig.len() {
        if (0..search.len()).all(|j| js_trim(orig[i + j]) == js_trim(search[j])) {
            let start = line_start(&orig, i);
            let len: usize = orig[i..i + search.len()].iter().map(|l| l.len() + 1).sum();
            return Some((start, start + len));
        }
        i += 1;
    }
    None
}

pub(crate) fn block_anchor(original: &str, search: &str, from: usize) -> Option<(usize, usize)> {
    let orig: Vec<&str> = original.split('\n').collect();
    let (search, pieces) = search_lines(search);
    if pieces < 3 {
        return None;
    }
    let m = search.len();
    let first = start_line(&orig, from);
    let mut i = first;
    while i + m <= orig.len() {
        if js_trim(orig[i]) == js_trim(search[0])
            && js_trim(orig[i + m - 1]) == js_trim(search[m - 1])
        {
            let start = line_start(&orig, i);
            let len: usize = orig[i..i + m].iter().map(|l| l.len() + 1).sum();
            return Some((start, start + len));
        }
        i += 1;
    }
    None
}

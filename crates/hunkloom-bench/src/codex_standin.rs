//! A stand-in of Codex's `apply_patch` core (`codex-rs/apply-patch`) for the benchmarks that
//! compare the `codex` dialect with the tool it reproduces, written from Codex's observed
//! behaviour: the patch is parsed into chunks of owned lines; the file is split on `\n` into a
//! vector of owned lines; each chunk's `@@` context line and then its old lines are sought from
//! the line after the previous chunk, by a scan per tier over the rest of the file (exact,
//! trailing whitespace trimmed, both ends trimmed, typographic punctuation folded — the fold
//! allocating a string per line compared); each replacement keeps the file's own context lines
//! (as Codex 0.171.0, the version the `codex` dialect reproduces, writes them) and is spliced
//! into the vector from the last one back, and the lines are joined with a final newline.
//!
//! It handles what the benchmarks send — one `*** Update File:` section whose chunks are
//! found — and returns `None` otherwise; the benchmark checks that it returns what hunkloom's
//! `codex` dialect returns before timing either.

/// One chunk of an update: its `@@` context line, its lines (`' '`, `'-'` or `'+'` and the
/// text), its old lines and whether it must match at the end of the file.
struct Chunk {
    context: Option<String>,
    lines: Vec<(char, String)>,
    old: Vec<String>,
    end_of_file: bool,
}

/// The chunks of the single `*** Update File:` section of `patch`.
fn chunks(patch: &str) -> Option<Vec<Chunk>> {
    let mut lines = patch.lines();
    if lines.next()?.trim() != "*** Begin Patch" {
        return None;
    }
    lines.next()?.strip_prefix("*** Update File: ")?;
    let mut chunks: Vec<Chunk> = Vec::new();
    for line in lines {
        if line.trim() == "*** End Patch" {
            break;
        }
        if line == "*** End of File" {
            chunks.last_mut()?.end_of_file = true;
            continue;
        }
        if let Some(context) = line.strip_prefix("@@") {
            let context = context.strip_prefix(' ').unwrap_or(context);
            chunks.push(Chunk {
                context: (!context.is_empty()).then(|| context.to_owned()),
                lines: Vec::new(),
                old: Vec::new(),
                end_of_file: false,
            });
            continue;
        }
        let chunk = chunks.last_mut()?;
        let (kind, text) = match line.split_at_checked(1) {
            Some((" ", rest)) => (' ', rest),
            Some(("-", rest)) => ('-', rest),
            Some(("+", rest)) => ('+', rest),
            _ if line.is_empty() => (' ', ""),
            _ => return None,
        };
        if kind != '+' {
            chunk.old.push(text.to_owned());
        }
        chunk.lines.push((kind, text.to_owned()));
    }
    Some(chunks)
}

/// Typographic punctuation folded to ASCII, after trimming (the most lenient tier).
fn folded(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{2018}'..='\u{201B}' => '\'',
            '\u{201C}'..='\u{201F}' => '"',
            '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}

/// A tier's comparison of a file line with a pattern line.
type Same = dyn Fn(&str, &str) -> bool;

/// Where `pattern` starts in `lines` at or after `start`, by the first tier that finds it
/// anywhere there (from the end when `end_of_file`).
fn seek(lines: &[String], pattern: &[String], start: usize, end_of_file: bool) -> Option<usize> {
    if pattern.is_empty() {
        return Some(start);
    }
    if pattern.len() > lines.len() {
        return None;
    }
    let from = if end_of_file {
        lines.len() - pattern.len()
    } else {
        start
    };
    let last = lines.len() - pattern.len();
    let tiers: [&Same; 4] = [
        &|a, b| a == b,
        &|a, b| a.trim_end() == b.trim_end(),
        &|a, b| a.trim() == b.trim(),
        &|a, b| folded(a) == folded(b),
    ];
    tiers.iter().find_map(|same| {
        (from..=last).find(|&i| {
            pattern
                .iter()
                .enumerate()
                .all(|(j, p)| same(&lines[i + j], p))
        })
    })
}

/// The file `text` after the single-file update `patch`, as Codex computes it; `None` if the
/// patch is not one update or a chunk is not found.
pub fn apply_update(text: &str, patch: &str) -> Option<String> {
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let mut replacements = Vec::new();
    let mut at = 0;
    for chunk in chunks(patch)? {
        if let Some(context) = &chunk.context {
            at = seek(&lines, std::slice::from_ref(context), at, false)? + 1;
        }
        let new_count = chunk.lines.iter().filter(|(k, _)| *k != '-').count();
        if chunk.old.is_empty() {
            let new = chunk.lines.into_iter().map(|(_, text)| text).collect();
            replacements.push((lines.len(), 0, new));
            continue;
        }
        let mut old: &[String] = &chunk.old;
        let mut new_len = new_count;
        let found = match seek(&lines, old, at, chunk.end_of_file) {
            Some(i) => i,
            None if old.last().is_some_and(String::is_empty) => {
                old = &old[..old.len() - 1];
                let last_new = chunk.lines.iter().rev().find(|(k, _)| *k != '-');
                if last_new.is_some_and(|(_, text)| text.is_empty()) {
                    new_len -= 1;
                }
                seek(&lines, old, at, chunk.end_of_file)?
            }
            None => return None,
        };
        // The new lines, context lines taken from the file.
        let (mut o, mut n) = (0, 0);
        let mut new = Vec::with_capacity(new_len);
        for (kind, text) in &chunk.lines {
            let in_old = *kind != '+' && o < old.len();
            let in_new = *kind != '-' && n < new_len;
            match (in_old, in_new) {
                (true, true) => new.push(lines[found + o].clone()),
                (false, true) => new.push(text.clone()),
                _ => {}
            }
            o += usize::from(*kind != '+');
            n += usize::from(*kind != '-');
        }
        replacements.push((found, old.len(), new));
        at = found + old.len();
    }
    replacements.sort_by_key(|r| r.0);
    for (start, count, new) in replacements.into_iter().rev() {
        lines.splice(start..start + count, new);
    }
    lines.push(String::new());
    Some(lines.join("\n"))
}

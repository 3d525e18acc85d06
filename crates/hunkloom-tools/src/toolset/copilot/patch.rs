//! Copilot's `apply_patch`: its tolerant reading of the `*** Begin Patch` format (context found
//! exactly, then without trailing whitespace, with literal `\t` and `\n`, without any
//! surrounding whitespace, then within a Levenshtein budget), its re-indentation of inserted
//! lines to the file's style, and its edits to VS Code documents (a trailing-blank-line
//! adjustment, `*** Move to` writing a copy, `*** Add File` over a file prepending).
//!
//! Failures while reading the patch come back as `Applying patch failed with error: …`
//! **without** the error flag, as Copilot answers them — including three JavaScript
//! `TypeError`s its parser raises at fixed points of the search, reproduced as texts.

use std::collections::HashMap;

use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

use super::document::{Document, Pos, Units, split_lines, units};
use super::{Answer, Copilot, PathProblem, Session};
use crate::codes::ToolCode;

const PREFIX: &str = "Applying patch failed with error: ";
const LENGTH_ERROR: &str = "Cannot read properties of undefined (reading 'length')";
const TRIM_END_ERROR: &str = "Cannot read properties of undefined (reading 'trimEnd')";

/// A failure of reading or planning the patch (reported without the error flag).
struct Fail(String);

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail(message.into()))
}

fn js_space(c: char) -> bool {
    hunkloom::text::is_js_whitespace(c)
}

fn blank(s: &str) -> bool {
    s.trim_matches(js_space).is_empty()
}

/// Comparison form: NFC, dashes, quotes and no-break spaces folded.
fn canon(s: &str) -> String {
    s.nfc()
        .map(|c| match c {
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{00AB}' | '\u{00BB}' => '"',
            '\u{2018}' | '\u{2019}' | '\u{201B}' => '\'',
            '\u{00A0}' | '\u{202F}' => ' ',
            other => other,
        })
        .collect()
}

/// Literal `\t` in the leading run of each line (whitespace, `\t`, `/`, `#`) made tabs.
fn fix_tabs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut line_start = true;
    while i < chars.len() {
        if line_start {
            // The greedy leading run.
            while i < chars.len() {
                let c = chars[i];
                if c == '\\' && chars.get(i + 1) == Some(&'t') {
                    out.push('\t');
                    i += 2;
                } else if js_space(c) || c == '/' || c == '#' {
                    out.push(c);
                    i += 1;
                } else {
                    break;
                }
            }
            line_start = false;
            continue;
        }
        let c = chars[i];
        out.push(c);
        i += 1;
        if matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}') {
            line_start = true;
        }
    }
    out
}

/// Literal `\n` made line breaks, then [`fix_tabs`].
fn fix_nl(s: &str) -> String {
    fix_tabs(&s.replace("\\n", "\n"))
}

/// The edit distance over UTF-16 code units (VS Code's).
fn levenshtein(a: &str, b: &str) -> usize {
    let (a, b): (Vec<u16>, Vec<u16>) = (a.encode_utf16().collect(), b.encode_utf16().collect());
    hunkloom::text::js_edit_distance(&a, &b)
}

// ---------------------------------------------------------------- indentation

/// An indentation style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Style {
    tab_size: usize,
    spaces: bool,
}

impl Style {
    fn unit(self) -> String {
        if self.spaces {
            " ".repeat(self.tab_size)
        } else {
            "\t".to_owned()
        }
    }
}

/// `spacesDiff`: how far two lines' indentations differ, and whether it is an alignment.
fn spaces_diff(a: &[u16], a_len: usize, b: &[u16], b_len: usize) -> (usize, bool) {
    let limit = a_len.min(b_len);
    let i = (0..limit).take_while(|&k| a[k] == b[k]).count();
    let count = |s: &[u16]| {
        let spaces = s.iter().filter(|&&u| u == 32).count();
        (spaces, s.len() - spaces)
    };
    let (a_s, a_t) = count(&a[i..a_len]);
    let (b_s, b_t) = count(&b[i..b_len]);
    if (a_s > 0 && a_t > 0) || (b_s > 0 && b_t > 0) {
        return (0, false);
    }
    let t_d = a_t.abs_diff(b_t);
    let s_d = a_s.abs_diff(b_s);
    if t_d == 0 {
        let align = s_d > 0
            && b_s >= 1
            && b_s - 1 < a.len()
            && b_s < b.len()
            && b[b_s] != 32
            && a[b_s - 1] == 32
            && a.last() == Some(&(b',' as u16));
        return (s_d, align);
    }
    if s_d % t_d == 0 {
        return (s_d / t_d, false);
    }
    (0, false)
}

/// VS Code's indentation guesser over `lines`.
fn guess(lines: &[String], default: Style) -> Style {
    if lines.is_empty() {
        return default;
    }
    let (mut tab_lines, mut space_lines) = (0usize, 0usize);
    let mut prev: Vec<u16> = Vec::new();
    let mut prev_indent = 0;
    let mut score = [0usize; 9];
    for line in lines.iter().take(10_000) {
        let t: Vec<u16> = line.encode_utf16().collect();
        let (mut tabs, mut spaces, mut ind) = (0, 0, 0);
        while ind < t.len() && (t[ind] == 9 || t[ind] == 32) {
            if t[ind] == 9 {
                tabs += 1
            } else {
                spaces += 1
            }
            ind += 1;
        }
        if ind == t.len() {
            continue;
        }
        if tabs > 0 {
            tab_lines += 1;
        } else if spaces > 1 {
            space_lines += 1;
        }
        let (d, align) = spaces_diff(&prev, prev_indent, &t, ind);
        if align && !(default.spaces && default.tab_size == d) {
            continue;
        }
        if d <= 8 {
            score[d] += 1;
        }
        prev = t;
        prev_indent = ind;
    }
    let spaces = if tab_lines == space_lines {
        default.spaces
    } else {
        tab_lines < space_lines
    };
    let mut tab_size = default.tab_size;
    if spaces {
        let mut best = 0;
        for g in [2, 4, 6, 8, 3, 5, 7] {
            if score[g] > best {
                best = score[g];
                tab_size = g;
            }
        }
        if tab_size == 4 && score[4] > 0 && score[2] > 0 && score[2] * 2 >= score[4] {
            tab_size = 2;
        }
    }
    Style { tab_size, spaces }
}

/// The indentation level of `line` at `tab_size`.
fn level(line: &str, tab_size: usize) -> usize {
    let mut col = 0;
    for c in line.chars() {
        match c {
            ' ' => col += 1,
            '\t' => col = col - col % tab_size + tab_size,
            _ => break,
        }
    }
    col / tab_size
}

/// Each line's leading `unit(from)` copies made `unit(to)` copies.
fn reindent(content: &str, from: Style, to: Style) -> String {
    if from == to {
        return content.to_owned();
    }
    let (uf, ut) = (from.unit(), to.unit());
    content
        .split('\n')
        .map(|line| {
            let mut rest = line;
            let mut k = 0;
            while let Some(r) = rest.strip_prefix(uf.as_str()) {
                rest = r;
                k += 1;
            }
            format!("{}{rest}", ut.repeat(k))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------- parsing

/// A change of one hunk: where it starts in the context, the lines it deletes and inserts.
#[derive(Clone, Debug)]
struct Chunk {
    orig_index: usize,
    deleted: usize,
    inserted: Vec<String>,
}

/// A hunk body as `peekSection` reads it.
struct Section {
    context: Vec<String>,
    chunks: Vec<Chunk>,
    end: usize,
    eof: bool,
    merges: usize,
}

/// A file's change.
enum Action {
    Add(String),
    Delete,
    Update {
        chunks: Vec<Chunk>,
        move_to: Option<String>,
    },
}

/// Whether a top-level line starts one of the markers that end a section.
fn is_marker(s: &str, with_eof: bool) -> bool {
    [
        "*** End Patch",
        "*** Update File:",
        "*** Delete File:",
        "*** Add File:",
    ]
    .iter()
    .any(|m| s.starts_with(m))
        || (with_eof && s.starts_with("*** End of File"))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Keep,
    Add,
    Delete,
}

fn peek_section(lines: &[String], start: usize, merge: usize) -> Result<Section, Fail> {
    let mut i = start;
    let (mut old, mut del, mut ins): (Vec<String>, Vec<String>, Vec<String>) =
        (vec![], vec![], vec![]);
    let mut chunks = Vec::new();
    let mut mode = Mode::Keep;
    let mut ambiguous = 0;
    while i < lines.len() {
        let s = &lines[i];
        if s.starts_with("@@") || is_marker(s, true) {
            if mode == Mode::Keep && old.last().is_some_and(|l| blank(l)) {
                old.pop();
            }
            break;
        }
        if s == "***" {
            break;
        }
        if s.starts_with("***") {
            return fail(format!("Invalid Line: {s}"));
        }
        i += 1;
        let last = mode;
        let body = match s.chars().next() {
            Some('+') => {
                mode = Mode::Add;
                s[1..].to_owned()
            }
            Some('-') => {
                mode = Mode::Delete;
                s[1..].to_owned()
            }
            Some(' ') => {
                mode = Mode::Keep;
                s[1..].to_owned()
            }
            _ => {
                let next = lines.get(i).and_then(|n| n.chars().next());
                let next_op = match next {
                    Some('+') => Mode::Add,
                    Some('-') => Mode::Delete,
                    _ => Mode::Keep,
                };
                let can_merge = mode != Mode::Keep && next_op == mode;
                mode = Mode::Keep;
                if can_merge {
                    ambiguous += 1;
                    if merge == ambiguous {
                        mode = next_op;
                    }
                }
                s.clone()
            }
        };
        if mode == Mode::Keep && last != Mode::Keep && (!ins.is_empty() || !del.is_empty()) {
            chunks.push(Chunk {
                orig_index: old.len() - del.len(),
                deleted: del.len(),
                inserted: std::mem::take(&mut ins),
            });
            del.clear();
        }
        match mode {
            Mode::Delete => {
                del.push(body.clone());
                old.push(body);
            }
            Mode::Add => ins.push(body),
            Mode::Keep => old.push(body),
        }
    }
    if !ins.is_empty() || !del.is_empty() {
        chunks.push(Chunk {
            orig_index: old.len() - del.len(),
            deleted: del.len(),
            inserted: ins,
        });
    }
    let eof = lines.get(i).is_some_and(|l| l == "*** End of File");
    if eof {
        i += 1;
    }
    Ok(Section {
        context: old,
        chunks,
        end: i,
        eof,
        merges: ambiguous,
    })
}

/// Where a context matched, and which literal-escape passes it took.
struct Found {
    line: usize,
    tabs: bool,
    newlines: bool,
}

/// `core`: the passes of the context search from `start` (which may be negative).
fn core(lines: &[String], ctx: &[String], start: isize) -> Result<Option<Found>, Fail> {
    let hit = |line: usize| Found {
        line,
        tabs: false,
        newlines: false,
    };
    if ctx.is_empty() {
        return Ok(Some(hit(start.max(0) as usize)));
    }
    let k = ctx.len();
    let mut w: Vec<String> = lines.iter().map(|l| canon(l)).collect();
    let c1: Vec<String> = canon(&ctx.join("\n"))
        .split('\n')
        .map(str::to_owned)
        .collect();
    let from = |start: isize| -> usize { start.max(0) as usize };
    let scan = |w: &[String], c: &[String], start: isize| -> Option<usize> {
        if start < 0 {
            return None;
        }
        let s = start as usize;
        (s..w.len()).find(|&i| i + c.len() <= w.len() && w[i..i + c.len()] == *c)
    };
    if let Some(i) = scan(&w, &c1, start) {
        return Ok(Some(hit(i)));
    }
    if start < 0 {
        return fail(TRIM_END_ERROR);
    }
    for line in w.iter_mut().skip(from(start)) {
        *line = line.trim_end_matches(js_space).to_owned();
    }
    let c2: Vec<String> = c1
        .iter()
        .map(|x| x.trim_end_matches(js_space).to_owned())
        .collect();
    if let Some(i) = scan(&w, &c2, start) {
        return Ok(Some(hit(i)));
    }
    let c3: Vec<String> = c2.iter().map(|x| fix_tabs(x)).collect();
    let tab_flag = c3 != c2;
    if tab_flag && let Some(i) = scan(&w, &c3, start) {
        return Ok(Some(Found {
            line: i,
            tabs: true,
            newlines: false,
        }));
    }
    if k == 1 {
        let c4 = fix_nl(&c3.join("\n"));
        if c4 != c3.join("\n") {
            let n4 = c4.matches('\n').count() + 1;
            let s = from(start);
            for i in s..w.len() {
                if i + n4 <= w.len() && w[i..i + n4].join("\n") == c4 {
                    return Ok(Some(Found {
                        line: i,
                        tabs: true,
                        newlines: true,
                    }));
                }
            }
        }
    }
    for line in w.iter_mut().skip(from(start)) {
        *line = line.trim_start_matches(js_space).to_owned();
    }
    let c5: Vec<String> = c3
        .iter()
        .map(|x| x.trim_matches(js_space).to_owned())
        .collect();
    if let Some(i) = scan(&w, &c5, start) {
        return Ok(Some(Found {
            line: i,
            tabs: tab_flag,
            newlines: false,
        }));
    }
    let max_d = k * 34 / 100;
    if max_d > 0 {
        for i in from(start)..lines.len() {
            let (mut total, mut j) = (0, 0);
            while j < c5.len() && total < max_d {
                let Some(line) = w.get(i + j) else {
                    return fail(LENGTH_ERROR);
                };
                total += levenshtein(line, &c5[j]);
                j += 1;
            }
            if total <= max_d {
                return Ok(Some(Found {
                    line: i,
                    tabs: tab_flag,
                    newlines: false,
                }));
            }
        }
    }
    Ok(None)
}

/// `findContext`: the filepath-comment skips, the end-of-file window first.
fn find_context(
    comment: &str,
    file: &[String],
    ctx: &[String],
    start: usize,
    eof: bool,
) -> Result<Option<Found>, Fail> {
    let p = comment.trim_matches(js_space);
    let lines = match file.first() {
        Some(first) if first.contains(p) => &file[1..],
        _ => file,
    };
    let ctx = match ctx.first() {
        Some(first) if first.contains(p) => &ctx[1..],
        _ => ctx,
    };
    if eof {
        if let Some(f) = core(lines, ctx, lines.len() as isize - ctx.len() as isize)? {
            return Ok(Some(f));
        }
        if let Some(f) = core(lines, ctx, start as isize)? {
            return Ok(Some(f));
        }
    }
    core(lines, ctx, start as isize)
}

/// `@@ <anchor>`: the search moves past the first line equal to it (then trimmed) after `idx`,
/// unless such a line is before `idx`.
fn apply_anchor(anchor: &str, file: &[String], idx: usize) -> usize {
    let a = canon(anchor);
    let before = &file[..idx.min(file.len())];
    if !before.iter().any(|l| canon(l) == a)
        && let Some(i) = (idx..file.len()).find(|&i| canon(&file[i]) == a)
    {
        return i + 1;
    }
    if !before.iter().any(|l| canon(l.trim_matches(js_space)) == a)
        && let Some(i) = (idx..file.len()).find(|&i| canon(file[i].trim_matches(js_space)) == a)
    {
        return i + 1;
    }
    idx
}

/// The language's comment and whether `path` is a TeX-like file.
fn filepath_comment(path: &str) -> String {
    super::comments::comment_for(path)
}

fn tex_like(path: &str) -> bool {
    let p = path.trim_end_matches(js_space).to_lowercase();
    [".tex", ".latex", ".sty", ".cls", ".bib", ".bst", ".ins"]
        .iter()
        .any(|e| p.ends_with(e))
}

fn parse_update(
    lines: &[String],
    pos: &mut usize,
    path: &str,
    text: &str,
    target: Style,
) -> Result<Vec<Chunk>, Fail> {
    let comment = filepath_comment(path);
    let file: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let tex = tex_like(path);
    let mut idx = 0;
    let mut chunks = Vec::new();
    while *pos < lines.len() && !is_marker(&lines[*pos], true) {
        let header = if lines[*pos].starts_with("@@") {
            let h = lines[*pos].clone();
            *pos += 1;
            h
        } else {
            String::new()
        };
        if header.is_empty() && idx != 0 {
            return fail(format!(
                "Invalid line. Consider splitting each change into individual apply_patch tool calls:\n{}",
                lines[*pos]
            ));
        }
        let anchor = header.get(2..).unwrap_or_default().trim_matches(js_space);
        if !anchor.is_empty() {
            idx = apply_anchor(anchor, &file, idx);
        }
        let mut section = peek_section(lines, *pos, 0)?;
        let mut found = None;
        let mut m = 0;
        while m <= section.merges && found.is_none() {
            if m > 0 {
                section = peek_section(lines, *pos, m)?;
            }
            found = find_context(&comment, &file, &section.context, idx, section.eof)?;
            if found.is_none() {
                found = find_context(&comment, &file, &section.context, 0, section.eof)?;
            }
            m += 1;
        }
        let Some(found) = found else {
            let c = section.context.join("\n");
            return fail(if section.eof {
                format!("Invalid EOF context at character {idx}:\n{c}")
            } else {
                format!("Invalid context at character {idx}:\n{c}")
            });
        };
        transform(&mut section, &found, &file, target, tex)?;
        for mut chunk in section.chunks {
            chunk.orig_index += found.line;
            chunks.push(chunk);
        }
        idx = found.line + section.context.len();
        *pos = section.end;
        if section.end == *pos && lines.get(*pos).is_some_and(|l| l == "***") && idx == 0 {
            // The reference loops forever here; answer as it does when the search has moved.
            return fail(
                "Invalid line. Consider splitting each change into individual apply_patch tool calls:\n***",
            );
        }
    }
    Ok(chunks)
}

/// The insertions re-indented to the file's style (§ indentation in the module doc).
fn transform(
    section: &mut Section,
    found: &Found,
    file: &[String],
    target: Style,
    tex: bool,
) -> Result<(), Fail> {
    let mut sample: Vec<String> = section
        .chunks
        .iter()
        .flat_map(|c| c.inserted.iter().cloned())
        .collect();
    sample.extend(section.context.iter().cloned());
    let source = guess(&sample, target);
    let Some(matched) = file.get(found.line) else {
        return fail(LENGTH_ERROR);
    };
    let base = level(matched, target.tab_size);
    let first = section
        .context
        .first()
        .map(|c0| if found.tabs { fix_tabs(c0) } else { c0.clone() });
    let source_level = first.map_or(0, |c| level(&c, source.tab_size));
    let extra = target.unit().repeat(base.saturating_sub(source_level));
    for chunk in &mut section.chunks {
        for line in &mut chunk.inserted {
            if found.newlines {
                *line = fix_nl(line);
            }
            if !tex || found.tabs {
                *line = fix_tabs(line);
            }
            if !blank(line) {
                *line = format!("{extra}{}", reindent(line, source, target));
            }
        }
    }
    Ok(())
}

/// Properties every JavaScript object has: a path equal to one "already has an action".
const INHERITED: &[&str] = &[
    "constructor",
    "toString",
    "toLocaleString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "__proto__",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
];

/// Reads the patch: the actions in patch order.
fn parse(
    text: &str,
    loaded: &HashMap<String, (String, Style)>,
) -> Result<Vec<(String, Action)>, Fail> {
    let mut lines: Vec<String> = text
        .trim_matches(js_space)
        .split('\n')
        .map(str::to_owned)
        .collect();
    if lines.len() < 2 {
        return fail("Invalid patch text");
    }
    if lines.last().map(String::as_str) != Some("*** End Patch") {
        lines.push("*** End Patch".to_owned());
    }
    let mut pos = 1;
    let mut actions: Vec<(String, Action)> = Vec::new();
    let has = |actions: &[(String, Action)], p: &str| {
        INHERITED.contains(&p) || actions.iter().any(|(q, _)| q == p)
    };
    let take = |lines: &[String], pos: &mut usize, prefix: &str| -> String {
        match lines.get(*pos).and_then(|l| l.strip_prefix(prefix)) {
            Some(rest) => {
                *pos += 1;
                rest.to_owned()
            }
            None => String::new(),
        }
    };
    loop {
        if pos >= lines.len() || lines[pos].starts_with("*** End Patch") {
            break;
        }
        let path = take(&lines, &mut pos, "*** Update File: ");
        if !path.is_empty() {
            if has(&actions, &path) {
                return fail(format!("Update File Error: Duplicate Path: {path}"));
            }
            let move_to = take(&lines, &mut pos, "*** Move to: ");
            let Some((file_text, style)) = loaded.get(&path) else {
                return fail(format!("Update File Error: Missing File: {path}"));
            };
            let chunks = parse_update(&lines, &mut pos, &path, file_text, *style)?;
            actions.push((
                path,
                Action::Update {
                    chunks,
                    move_to: (!move_to.is_empty()).then_some(move_to),
                },
            ));
            continue;
        }
        let path = take(&lines, &mut pos, "*** Delete File: ");
        if !path.is_empty() {
            if has(&actions, &path) {
                return fail(format!("Delete File Error: Duplicate Path: {path}"));
            }
            if !loaded.contains_key(&path) {
                return fail(format!("Delete File Error: Missing File: {path}"));
            }
            actions.push((path, Action::Delete));
            continue;
        }
        let path = take(&lines, &mut pos, "*** Add File: ");
        if !path.is_empty() {
            if has(&actions, &path) {
                return fail(format!("Add File Error: Duplicate Path: {path}"));
            }
            if loaded.contains_key(&path) {
                return fail(format!("Add File Error: File already exists: {path}"));
            }
            let mut content = Vec::new();
            while pos < lines.len() && !is_marker(&lines[pos], false) {
                let s = &lines[pos];
                pos += 1;
                let Some(body) = s.strip_prefix('+') else {
                    return fail(format!("Invalid Add File Line: {s}"));
                };
                content.push(body.to_owned());
            }
            actions.push((path, Action::Add(content.join("\n"))));
            continue;
        }
        let line = lines.get(pos).cloned().unwrap_or_default();
        return fail(format!("Unknown Line: {line}"));
    }
    Ok(actions)
}

/// The new text of an update (`patch_to_commit`).
fn updated_text(path: &str, text: &str, chunks: &[Chunk]) -> Result<String, Fail> {
    let orig: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<String> = Vec::new();
    let mut cur = 0;
    for ch in chunks {
        if ch.orig_index > orig.len() {
            return fail(format!(
                "{path}: chunk.origIndex {} > len(lines) {}",
                ch.orig_index,
                orig.len()
            ));
        }
        if cur > ch.orig_index {
            return fail(format!(
                "{path}: origIndex {cur} > chunk.origIndex {}",
                ch.orig_index
            ));
        }
        out.extend(orig[cur..ch.orig_index].iter().map(|s| (*s).to_owned()));
        cur = ch.orig_index;
        out.extend(ch.inserted.iter().cloned());
        cur += ch.deleted;
    }
    if cur < orig.len() {
        out.extend(orig[cur..].iter().map(|s| (*s).to_owned()));
    }
    Ok(out.join("\n"))
}

// ---------------------------------------------------------------- applying

/// One batch of edits: ranges as (line, column), possibly past the end.
type Batch = Vec<((Pos, Pos), String)>;

/// The edits an update makes to its target (`generateUpdateTextDocumentEdit`).
fn update_edits(doc: &Document, path: &str, new_content: &str) -> Batch {
    let comment = filepath_comment(path);
    let nc = new_content
        .strip_prefix(comment.as_str())
        .unwrap_or(new_content);
    let lines: Vec<&str> = nc.split('\n').collect();
    let n = lines.len();
    let doc_lines: Vec<String> = doc_lines(doc);
    let count = doc_lines.len();
    let trailing = |ls: &mut dyn Iterator<Item = &str>| ls.take_while(|l| blank(l)).count();
    let old_t = trailing(&mut doc_lines.iter().rev().map(String::as_str));
    let new_t = trailing(&mut lines.iter().rev().copied());
    let mut batch: Batch = vec![(((0, 0), (n, 0)), nc.to_owned())];
    for i in new_t..old_t {
        batch.push((((n + i, 0), (n + i, 0)), "\n".to_owned()));
    }
    if n < count {
        let from = n + old_t.saturating_sub(new_t);
        batch.push((((from, 0), (count, 0)), String::new()));
    }
    batch
}

/// The document's lines as text.
fn doc_lines(doc: &Document) -> Vec<String> {
    let (lines, _) = split_lines(&doc.text());
    lines.iter().map(|l| String::from_utf16_lossy(l)).collect()
}

/// Applies a batch as VS Code's `pushEditOperations` does; `Err` for overlapping ranges.
fn apply_batch(doc: &mut Document, batch: &Batch) -> Result<(), ()> {
    let text = doc.text();
    let (lines, _) = split_lines(&text);
    let eol = doc.eol.clone();
    let offset = |(line, col): Pos| -> usize {
        if line >= lines.len() {
            return text.len();
        }
        let start: usize = lines[..line].iter().map(|l| l.len() + eol.len()).sum();
        start + col.min(lines[line].len())
    };
    let mut edits: Vec<(usize, usize, usize, Units)> = batch
        .iter()
        .enumerate()
        .map(|(order, ((a, b), t))| {
            let (mut s, mut e) = (offset(*a), offset(*b));
            if e < s {
                std::mem::swap(&mut s, &mut e);
            }
            let (pieces, _) = split_lines(&units(t));
            (s, e, order, pieces.join(&eol[..]))
        })
        .collect();
    edits.sort_by_key(|&(s, e, order, _)| (e, s, order));
    if edits.windows(2).any(|w| w[1].0 < w[0].1) {
        return Err(());
    }
    let mut out = text.clone();
    for (s, e, _, t) in edits.iter().rev() {
        out.splice(*s..*e, t.iter().copied());
    }
    *doc = Document::reload_keeping(doc, &out);
    Ok(())
}

/// Answers one `apply_patch` call.
pub(super) fn apply(cp: &Copilot, input: &Value) -> Answer {
    let text = input["input"].as_str().unwrap_or_default();
    if text.is_empty() {
        return Answer::Thrown(
            "Missing patch text or stream".to_owned(),
            ToolCode::InvalidPatch,
        );
    }
    let mut session = cp.session();
    match run(cp, &mut session, text) {
        Ok(answer) => answer,
        Err(Fail(message)) => Answer::Text {
            text: format!("{PREFIX}{message}"),
            is_error: false,
            code: ToolCode::PatchFailed,
        },
    }
}

/// A flagged failure after reading (a relative or outside path).
fn flagged(message: String, code: ToolCode) -> Answer {
    Answer::Text {
        text: format!("{PREFIX}{message}"),
        is_error: true,
        code,
    }
}

fn run(cp: &Copilot, session: &mut Session, text: &str) -> Result<Answer, Fail> {
    if !text.starts_with("*** Begin Patch\n") {
        return fail("Patch must start with *** Begin Patch\\n");
    }
    // The files the patch updates or deletes, loaded first.
    let mut needed: Vec<String> = Vec::new();
    for line in text.trim_matches(js_space).split('\n') {
        let path = line
            .strip_prefix("*** Update File: ")
            .or_else(|| line.strip_prefix("*** Delete File: "));
        if let Some(p) = path
            && !needed.iter().any(|n| n == p)
        {
            needed.push(p.to_owned());
        }
    }
    let mut loaded: HashMap<String, (String, Style)> = HashMap::new();
    for path in &needed {
        match cp.relative(path) {
            Err(PathProblem::Relative) => return fail(format!("File not found: {path}")),
            Err(PathProblem::Outside) => {
                return Ok(flagged(
                    format!("{path} is outside the workspace: refused."),
                    ToolCode::PathOutsideRoot,
                ));
            }
            Ok(_) => {}
        }
        let doc = match cp.open(session, path) {
            Ok(doc) if std::fs::metadata(path).is_ok_and(|m| m.is_file()) => doc.clone(),
            _ => return fail(format!("File not found: {path}")),
        };
        let file_text = String::from_utf16_lossy(&doc.text());
        let (any_eol_lines, _) = split_lines(&doc.text());
        let mut sample: Vec<String> = any_eol_lines
            .iter()
            .map(|l| String::from_utf16_lossy(l))
            .collect();
        if file_text.is_empty() {
            sample.clear();
        }
        let style = guess(
            &sample,
            Style {
                tab_size: 4,
                spaces: false,
            },
        );
        loaded.insert(path.clone(), (file_text, style));
    }
    let actions = parse(text, &loaded)?;
    // The new texts (stage 1 ends here: every failure so far is unflagged).
    let mut commit: Vec<(String, Action, Option<String>)> = Vec::new();
    for (path, action) in actions {
        let content = match &action {
            Action::Update { chunks, .. } => Some(updated_text(&path, &loaded[&path].0, chunks)?),
            _ => None,
        };
        commit.push((path, action, content));
    }
    // Stage 2: the paths written, resolved (flagged failures).
    for (path, action, _) in &commit {
        let check = |p: &str| match cp.relative(p) {
            Err(PathProblem::Relative) => Some(flagged(
                format!("Invalid input path: {p}. Be sure to use an absolute path."),
                ToolCode::RelativePath,
            )),
            Err(PathProblem::Outside) => Some(flagged(
                format!("{p} is outside the workspace: refused."),
                ToolCode::PathOutsideRoot,
            )),
            Ok(_) => None,
        };
        if let Action::Add(_) = action
            && let Some(refused) = check(path)
        {
            return Ok(refused);
        }
        if let Action::Update {
            move_to: Some(to), ..
        } = action
            && let Some(refused) = check(to)
        {
            return Ok(refused);
        }
    }
    // Stage 3: edits per target, in order of first edit; then deletions.
    let mut groups: Vec<(String, Batch)> = Vec::new();
    let mut deletions: Vec<String> = Vec::new();
    let add_to = |groups: &mut Vec<(String, Batch)>, target: &str, batch: Batch| match groups
        .iter_mut()
        .find(|(t, _)| t == target)
    {
        Some((_, b)) => b.extend(batch),
        None => groups.push((target.to_owned(), batch)),
    };
    for (path, action, content) in &commit {
        match action {
            Action::Add(text) => {
                if !text.is_empty() {
                    add_to(&mut groups, path, vec![(((0, 0), (0, 0)), text.clone())]);
                }
            }
            Action::Delete => deletions.push(path.clone()),
            Action::Update { move_to, .. } => {
                let source = cp.open(session, path).map_err(Fail)?.clone();
                let target = move_to.as_deref().unwrap_or(path);
                let batch = update_edits(&source, path, content.as_deref().unwrap_or_default());
                add_to(&mut groups, target, batch);
            }
        }
    }
    // Plan every document first (all or nothing), then save.
    let mut planned: Vec<(String, Document)> = Vec::new();
    for (target, batch) in &groups {
        let mut doc = if std::fs::metadata(target).is_ok_and(|m| m.is_file()) {
            cp.open(session, target).map_err(Fail)?.clone()
        } else {
            Document::empty()
        };
        if apply_batch(&mut doc, batch).is_err() {
            return Ok(flagged(
                "Overlapping ranges are not allowed!".to_owned(),
                ToolCode::PatchFailed,
            ));
        }
        planned.push((target.clone(), doc));
    }
    let mut edited = Vec::new();
    for (target, doc) in planned {
        session
            .docs
            .insert(target.clone(), super::Open { doc, disk: None });
        if let Err(e) = cp.save(session, &target) {
            return Ok(Answer::Thrown(e.message, e.code));
        }
        edited.push(target);
    }
    for path in &deletions {
        if let Err(e) = cp.delete(session, path) {
            return Ok(Answer::Thrown(e.message, e.code));
        }
        edited.push(path.clone());
    }
    Ok(if edited.is_empty() {
        Answer::Text {
            text: "(empty)".to_owned(),
            is_error: false,
            code: ToolCode::PatchFailed,
        }
    } else {
        Answer::Rendered {
            edited,
            errors: Vec::new(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_tabs_are_fixed_only_in_the_leading_run() {
        assert_eq!(fix_tabs("\\tfoo"), "\tfoo");
        assert_eq!(fix_tabs("// \\t\\tx"), "// \t\tx");
        assert_eq!(fix_tabs("a\\tb"), "a\\tb");
        assert_eq!(fix_tabs("\\\\tx"), "\\\\tx");
    }

    #[test]
    fn canon_folds_dashes_quotes_and_spaces() {
        assert_eq!(canon("\u{201C}a\u{2014}b\u{00A0}"), "\"a-b ");
    }

    #[test]
    fn the_guesser_finds_two_spaces() {
        let lines: Vec<String> = ["a", "  b", "    c", "  d"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert_eq!(
            guess(
                &lines,
                Style {
                    tab_size: 4,
                    spaces: false
                }
            ),
            Style {
                tab_size: 2,
                spaces: true
            }
        );
    }
}

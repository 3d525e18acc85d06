//! Naive oracles of the version-2 guards (see the module doc of `native`), written from their
//! rules as plainly as possible and apart from the fast code: the omission-placeholder rule on
//! whole texts with plain list searches (the fast guard is fed a line at a time and keeps
//! counts), the unescaping by index, and the already-applied rule on top of the naive cascade
//! ([`naive::locate`]) with the loose key spelled out (the fast rule hashes it). Only the word
//! lists are shared.

use super::naive::{self, Found};
use super::naive_rules::{fold, is_blank};
use super::omission::{KEY_WORDS, MIN_MISSING, VOCABULARY, WEAK_KEY_WORDS};
use super::search_text::{SearchText, Tier};

/// Whether `line` is a placeholder, `prev` the last non-blank line before it.
pub(super) fn is_placeholder(line: &str, prev: Option<&str>) -> bool {
    let t = line.trim();
    let wrappers = [
        ("{/*", "*/}"),
        ("/*", "*/"),
        ("<!--", "-->"),
        ("//", ""),
        ("#", ""),
        ("--", ""),
        (";", ""),
        ("*", ""),
    ];
    let mut comment = false;
    let mut body = t.to_owned();
    for (open, close) in wrappers {
        if let Some(rest) = t.strip_prefix(open) {
            comment = true;
            body = rest.to_owned();
            if !close.is_empty() && body.ends_with(close) {
                body.truncate(body.len() - close.len());
            }
            if close.is_empty() {
                body = body.trim_start_matches(['/', '#', ';', '!']).to_owned();
            }
            break;
        }
    }
    let core: String = body
        .trim()
        .trim_start_matches(['[', '(', '{'])
        .trim_end_matches([']', ')', '}'])
        .trim()
        .to_owned();
    if core == "..." || core == "…" {
        let stub = !comment && t == "..." && prev.is_some_and(|p| p.trim_end().ends_with(':'));
        return !stub;
    }
    if !comment {
        return false;
    }
    let words: Vec<String> = body
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .map(|w| w.trim_matches('-').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    if words.iter().any(|w| !VOCABULARY.contains(&w.as_str())) {
        return false;
    }
    let ellipsis = body.contains("...") || body.contains('…');
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    (has(KEY_WORDS) && (ellipsis || words.len() >= 2)) || (has(WEAK_KEY_WORDS) && ellipsis)
}

/// The placeholder line (trimmed) through which `new` elides code of `old`, if it does.
pub(super) fn elided(old: &[&str], new: &[&str]) -> Option<String> {
    let old_lines: Vec<&str> = old
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    let new_lines: Vec<&str> = new
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    let missing = old_lines.iter().filter(|o| !new_lines.contains(o)).count();
    if missing < MIN_MISSING {
        return None;
    }
    for (i, line) in new_lines.iter().enumerate() {
        let prev = if i == 0 { None } else { Some(new_lines[i - 1]) };
        if !old_lines.contains(line) && is_placeholder(line, prev) {
            return Some((*line).to_owned());
        }
    }
    None
}

/// `s` with `\\`, `\n`, `\r`, `\t` and `\"` undone once, if it had one.
pub(super) fn unescape(s: &str) -> Option<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut any = false;
    let mut i = 0;
    while i < chars.len() {
        let next = chars.get(i + 1).copied();
        let mapped = match (chars[i], next) {
            ('\\', Some('n')) => Some('\n'),
            ('\\', Some('r')) => Some('\r'),
            ('\\', Some('t')) => Some('\t'),
            ('\\', Some('"')) => Some('"'),
            ('\\', Some('\\')) => Some('\\'),
            _ => None,
        };
        match mapped {
            Some(c) => {
                out.push(c);
                any = true;
                i += 2;
            }
            None => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    any.then_some(out)
}

/// The lines of `s` unescaped (each without a `\r` before its break), or `s` itself.
pub(super) fn unescaped_lines(s: &str) -> Vec<String> {
    match unescape(s) {
        None => vec![s.to_owned()],
        Some(u) => u
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l).to_owned())
            .collect(),
    }
}

/// The loose key of a line: folded, whitespace removed.
fn key(line: &str) -> String {
    fold(line).chars().filter(|c| !c.is_whitespace()).collect()
}

/// Where the REPLACE text of a block whose SEARCH text was not found already is, if the block
/// is already applied.
pub(super) fn already_applied(
    text: &str,
    search: &SearchText,
    replace: &[String],
) -> Option<Found> {
    let nonblank: Vec<&String> = replace.iter().filter(|l| !is_blank(l)).collect();
    if nonblank.is_empty() || search.lines == replace {
        return None;
    }
    let search_keys: Vec<String> = search
        .lines
        .iter()
        .filter(|l| !is_blank(l))
        .map(|l| key(l))
        .collect();
    let replace_keys: Vec<String> = nonblank.iter().map(|l| key(l)).collect();
    let deletion = replace_keys.iter().all(|k| search_keys.contains(k));
    if deletion && nonblank.len() < 2 {
        return None;
    }
    let as_search = SearchText {
        lines: replace.to_vec(),
        eols: vec!["\n"; replace.len()],
    };
    let found = naive::locate(text, &as_search, None).ok()?;
    if found.tier == Tier::Typo {
        return None;
    }
    if deletion {
        let deleted: Vec<&String> = search_keys
            .iter()
            .filter(|k| !replace_keys.contains(k))
            .collect();
        let reach = deleted.len();
        let before: Vec<&str> = text[..found.start].lines().collect();
        let after: Vec<&str> = text[found.end..].lines().collect();
        let near = before
            .iter()
            .rev()
            .take(reach)
            .chain(after.iter().take(reach));
        if near.into_iter().any(|l| deleted.contains(&&key(l))) {
            return None;
        }
    }
    Some(found)
}

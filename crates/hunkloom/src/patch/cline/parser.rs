//! Cline's `PatchParser`: reads the patch lines against the current files, locating every chunk
//! as it goes (its results depend on the files, unlike the Codex grammar's).

use super::find::{canonicalize, find_context, to_fixed_2};
use super::{ActionType, ClineAction, ClineChunk, ClineParse, clip_context, diff_error};
use crate::error::{ErrorKind, Result};
use crate::patch::Warning;
use crate::text::js_trim;
use std::collections::{BTreeMap, HashSet};

pub(super) const BEGIN: &str = "*** Begin Patch";
pub(super) const END: &str = "*** End Patch";
pub(super) const ADD: &str = "*** Add File: ";
pub(super) const UPDATE: &str = "*** Update File: ";
pub(super) const DELETE: &str = "*** Delete File: ";
pub(super) const MOVE: &str = "*** Move to: ";
pub(super) const END_FILE: &str = "*** End of File";

/// The markers that end an update section, compared as `startsWith(marker.trim())`.
const UPDATE_STOPS: [&str; 5] = [
    "*** End Patch",
    "*** Update File:",
    "*** Delete File:",
    "*** Add File:",
    "*** End of File",
];

pub(super) struct Parser<'a> {
    lines: &'a [&'a str],
    files: &'a BTreeMap<String, String>,
    index: usize,
    out: ClineParse,
    /// The paths of `out.actions`, so a duplicate is found in O(1) rather than by a scan of
    /// every action (which made a patch of many files quadratic).
    paths: HashSet<String>,
}

impl<'a> Parser<'a> {
    pub(super) fn new(lines: &'a [&'a str], files: &'a BTreeMap<String, String>) -> Self {
        Parser {
            lines,
            files,
            index: 0,
            out: ClineParse::default(),
            paths: HashSet::new(),
        }
    }

    fn line(&self, i: usize) -> Option<&'a str> {
        self.lines.get(i).copied()
    }

    pub(super) fn parse(mut self) -> Result<ClineParse> {
        if self.line(0).is_some_and(|l| l.starts_with(BEGIN)) {
            self.index = 1;
        }
        while let Some(line) = self.line(self.index) {
            if line.starts_with(END) {
                break;
            }
            if let Some(rest) = line.strip_prefix(UPDATE) {
                self.parse_update(js_trim(rest))?;
            } else if let Some(rest) = line.strip_prefix(DELETE) {
                self.parse_delete(js_trim(rest))?;
            } else if let Some(rest) = line.strip_prefix(ADD) {
                self.parse_add(js_trim(rest))?;
            } else {
                return Err(diff_error(
                    ErrorKind::InvalidPatchHunk,
                    format!("Unknown line while parsing: {line}"),
                ));
            }
        }
        Ok(self.out)
    }

    fn check_duplicate(&self, path: &str, operation: &str) -> Result<()> {
        if self.paths.contains(path) {
            return Err(diff_error(
                ErrorKind::DuplicatePatchPath,
                format!("Duplicate {operation} for file: {path}"),
            ));
        }
        Ok(())
    }

    /// Records `path`'s action.
    fn push(&mut self, path: &str, action: ClineAction) {
        self.paths.insert(path.to_string());
        self.out.actions.push((path.to_string(), action));
    }

    fn parse_update(&mut self, path: &str) -> Result<()> {
        self.check_duplicate(path, "update")?;
        self.index += 1;
        let move_path = match self.line(self.index).and_then(|l| l.strip_prefix(MOVE)) {
            Some(rest) => {
                self.index += 1;
                Some(js_trim(rest).to_string())
            }
            None => None,
        };
        let Some(text) = self.files.get(path) else {
            return Err(diff_error(
                ErrorKind::PatchFileNotFound,
                format!("Update File Error: Missing File: {path}"),
            ));
        };
        let mut action = self.parse_update_file(text, path)?;
        action.move_path = move_path;
        self.push(path, action);
        Ok(())
    }

    fn parse_update_file(&mut self, text: &str, path: &str) -> Result<ClineAction> {
        let mut action = ClineAction::new(ActionType::Update);
        let file_lines: Vec<&str> = text.split('\n').collect();
        let mut index = 0;
        loop {
            let current = self.line(self.index);
            if current.is_some_and(|l| UPDATE_STOPS.iter().any(|m| l.starts_with(m))) {
                break;
            }
            let def = current.and_then(|l| l.strip_prefix("@@ "));
            let header = def.is_some() || current == Some("@@");
            if header {
                self.index += 1;
            } else if index != 0 {
                return Err(diff_error(
                    ErrorKind::InvalidPatchHunk,
                    format!("Invalid Line:\n{}", current.unwrap_or("undefined")),
                ));
            } else if current.is_none() {
                // Cline loops forever here (no line left, file position 0); stop instead.
                break;
            }
            if let Some(def) = def.map(js_trim).filter(|d| !d.is_empty()) {
                let canon = canonicalize(def);
                for (i, line) in file_lines.iter().enumerate().skip(index) {
                    if line.is_empty() {
                        continue;
                    }
                    let full = canonicalize(line) == canon;
                    let trimmed = canonicalize(js_trim(line)) == canon;
                    if full || trimmed {
                        index = i + 1;
                        if trimmed && !full {
                            self.out.fuzz += 1;
                        }
                        break;
                    }
                }
            }
            let section = peek(self.lines, self.index)?;
            if !header && section.end == self.index {
                // Nothing consumed at file position 0: Cline loops forever; stop instead.
                break;
            }
            let (found, fuzz, similarity) =
                find_context(&file_lines, &section.context, index, section.eof);
            match found {
                None => {
                    let ctx = section.context.join("\n");
                    self.out.warnings.push(Warning {
                        path: path.to_string(),
                        chunk_index: Some(action.chunks.len()),
                        message: format!(
                            "Could not find matching context (similarity: {}). Chunk skipped.",
                            to_fixed_2(similarity)
                        ),
                        context: Some(clip_context(&ctx)),
                    });
                }
                Some(at) => {
                    self.out.fuzz += fuzz;
                    for mut chunk in section.chunks {
                        chunk.orig_index += at;
                        action.chunks.push(chunk);
                    }
                    index = at + section.context.len();
                }
            }
            self.index = section.end;
        }
        Ok(action)
    }

    fn parse_delete(&mut self, path: &str) -> Result<()> {
        self.check_duplicate(path, "delete")?;
        if !self.files.contains_key(path) {
            return Err(diff_error(
                ErrorKind::PatchFileNotFound,
                format!("Delete File Error: Missing File: {path}"),
            ));
        }
        self.push(path, ClineAction::new(ActionType::Delete));
        self.index += 1;
        Ok(())
    }

    fn parse_add(&mut self, path: &str) -> Result<()> {
        self.check_duplicate(path, "add")?;
        if self.files.contains_key(path) {
            return Err(diff_error(
                ErrorKind::PatchFileExists,
                format!("Add File Error: File already exists: {path}"),
            ));
        }
        self.index += 1;
        let mut lines: Vec<&str> = Vec::new();
        while let Some(line) = self.line(self.index) {
            if UPDATE_STOPS[..4].iter().any(|m| line.starts_with(m)) {
                break;
            }
            self.index += 1;
            let Some(text) = line.strip_prefix('+') else {
                return Err(diff_error(
                    ErrorKind::InvalidPatchHunk,
                    format!("Invalid Add File line (missing '+'): {line}"),
                ));
            };
            lines.push(text);
        }
        let mut action = ClineAction::new(ActionType::Add);
        action.new_file = Some(lines.join("\n"));
        self.push(path, action);
        Ok(())
    }
}

/// One section of an update: its context (old) lines, its chunks relative to them, where it ends
/// and whether `*** End of File` closed it.
struct Section<'a> {
    context: Vec<&'a str>,
    chunks: Vec<ClineChunk>,
    end: usize,
    eof: bool,
}

const PEEK_STOPS: [&str; 6] = [
    "@@",
    "*** End Patch",
    "*** Update File:",
    "*** Delete File:",
    "*** Add File:",
    "*** End of File",
];

/// Cline's `peek`: reads lines from `start` up to the next section marker.
fn peek<'a>(lines: &[&'a str], start: usize) -> Result<Section<'a>> {
    let mut index = start;
    let mut old: Vec<&'a str> = Vec::new();
    let mut del: Vec<String> = Vec::new();
    let mut ins: Vec<String> = Vec::new();
    let mut chunks = Vec::new();
    let mut mode = LineKind::Keep;
    while let Some(&s) = lines.get(index) {
        if PEEK_STOPS.iter().any(|m| s.starts_with(m)) || s == "***" {
            break;
        }
        if s.starts_with("***") {
            return Err(diff_error(
                ErrorKind::InvalidPatchHunk,
                format!("Invalid line: {s}"),
            ));
        }
        index += 1;
        let last = mode;
        // A line without a prefix (an empty one too) is a context line.
        let (kind, text) = match s.as_bytes().first() {
            Some(b'+') => (LineKind::Add, &s[1..]),
            Some(b'-') => (LineKind::Delete, &s[1..]),
            Some(b' ') => (LineKind::Keep, &s[1..]),
            _ => (LineKind::Keep, s),
        };
        mode = kind;
        if mode == LineKind::Keep && last != mode {
            if !ins.is_empty() || !del.is_empty() {
                chunks.push(ClineChunk {
                    orig_index: old.len() - del.len(),
                    del_lines: std::mem::take(&mut del),
                    ins_lines: std::mem::take(&mut ins),
                });
            }
            del.clear();
            ins.clear();
        }
        match mode {
            LineKind::Delete => {
                del.push(text.to_string());
                old.push(text);
            }
            LineKind::Add => ins.push(text.to_string()),
            LineKind::Keep => old.push(text),
        }
    }
    if !ins.is_empty() || !del.is_empty() {
        chunks.push(ClineChunk {
            orig_index: old.len() - del.len(),
            del_lines: del,
            ins_lines: ins,
        });
    }
    let eof = lines.get(index) == Some(&END_FILE);
    Ok(Section {
        context: old,
        chunks,
        end: index + usize::from(eof),
        eof,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Keep,
    Add,
    Delete,
}

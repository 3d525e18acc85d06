//! The `aider`, `aider-fenced` and `aider-whole` dialects of [`plan_patch`](super::plan_patch):
//! a model's reply in one of aider's edit formats, applied as aider 0.86's
//! `Coder.apply_updates()` applies it (`Aider-AI/aider@5dc9490`, specified by
//! `tests/vectors/aider/`).
//!
//! - `aider` (`diff`) and `aider-fenced` (`diff-fenced`, the name inside the fence; they parse
//!   alike): SEARCH/REPLACE blocks, each under the file name it edits, several files per
//!   reply. Blocks apply in order, each on the file as the blocks before it left it; a block
//!   that does not match its file is tried on the other files (the first that takes it gets
//!   it); an empty SEARCH creates or appends.
//! - `aider-whole` (`whole`): file listings under their names, each replacing a whole file.
//! - `aider-native`: the block formats with none of aider's guesses, each block placed by
//!   hunkloom's native engine or refused (see `native.rs`).
//!
//! [`AiderApplier`] applies a reply while it streams, with a preview per file.
//!
//! The chat files aider knows are the source's files ([`FileSource::paths`]); a source that
//! cannot list them (a directory) offers the files the reply names that exist. Edited files
//! are read as aider reads them (universal newlines: `\r\n` and `\r` are `\n`) and end with a
//! newline. A failure is aider's own text, the one it sends back to the model: with
//! [`Policy::AllOrNothing`] an error (`invalid_patch` for a reply that does not parse,
//! `patch_context_not_found` for blocks that did not match) and nothing changes; with
//! [`Policy::Partial`] the plan keeps what aider would have written before it gave up (the
//! blocks that matched, the empty files it created) and records the failure.

mod blocks;
mod difflib;
mod native;
mod replace;
mod stream;

pub use stream::AiderApplier;

use std::collections::BTreeMap;

use self::blocks::{Block, Fence};
use self::replace::NothingLeft;
use super::plan::{ChangeKind, FileChange, FileSource, HunkFailure, Plan};
use crate::error::{Error, ErrorKind, Result};
use crate::policy::Policy;
use crate::text::py;

/// Which of aider's formats a reply is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// SEARCH/REPLACE blocks (`diff` and `diff-fenced`).
    Blocks,
    /// Whole-file listings (`whole`).
    Whole,
    /// SEARCH/REPLACE blocks read natively (`aider-native`, see [`native`]).
    Native,
}

/// The format a patch dialect reads, if it is one of aider's.
fn format_of(dialect: super::PatchDialect) -> Option<Format> {
    use super::PatchDialect as D;
    match dialect {
        D::Aider | D::AiderFenced => Some(Format::Blocks),
        D::AiderWhole => Some(Format::Whole),
        D::AiderNative => Some(Format::Native),
        _ => None,
    }
}

/// The files as aider sees them while it applies a reply: the source, with what it wrote.
struct Files<'s, S: ?Sized> {
    source: &'s S,
    /// Each written path's content, and whether it existed before.
    written: BTreeMap<String, String>,
    /// Paths in the order they were first written.
    order: Vec<String>,
}

impl<S: FileSource + ?Sized> Files<'_, S> {
    /// The text as aider reads it (universal newlines), `None` if there is no file.
    fn read(&self, path: &str) -> Result<Option<String>> {
        if let Some(text) = self.written.get(path) {
            return Ok(Some(text.clone()));
        }
        Ok(self
            .source
            .read(path)?
            .map(|text| text.replace("\r\n", "\n").replace('\r', "\n")))
    }

    /// The text as it is (the native reading keeps line endings), `None` if there is no file.
    fn read_raw(&self, path: &str) -> Result<Option<String>> {
        if let Some(text) = self.written.get(path) {
            return Ok(Some(text.clone()));
        }
        Ok(self.source.read(path)?.map(std::borrow::Cow::into_owned))
    }

    fn exists(&self, path: &str) -> Result<bool> {
        Ok(self.written.contains_key(path) || self.source.read(path)?.is_some())
    }

    fn write(&mut self, path: &str, text: String) {
        if !self.written.contains_key(path) {
            self.order.push(path.to_owned());
        }
        self.written.insert(path.to_owned(), text);
    }

    /// Every write, as changes in the order the paths were first written.
    fn into_changes(self) -> Result<Vec<FileChange>> {
        let mut changes = Vec::with_capacity(self.order.len());
        for path in self.order {
            let content = self.written.get(&path).cloned().unwrap_or_default();
            let kind = if self.source.read(&path)?.is_some() {
                ChangeKind::Update {
                    new_content: content,
                    move_to: None,
                    start_lines: Vec::new(),
                }
            } else {
                ChangeKind::Add { content }
            };
            changes.push(FileChange { path, kind });
        }
        Ok(changes)
    }
}

/// A path relative to the root as a file key: `.` dropped, `..` applied; `None` if it is
/// absolute or leaves the root.
fn key(path: &str) -> Option<String> {
    crate::paths::relative_key(path)
}

fn outside(path: &str) -> Error {
    Error::new(
        ErrorKind::PathOutsideRoot,
        format!("{path}: an aider reply may name only paths inside the root"),
    )
}

/// Why aider stopped: its text for the model, as an error of `kind`.
fn stopped(kind: ErrorKind, text: String) -> Error {
    Error::new(kind, text)
}

/// What a failure leaves: with `Partial`, the plan of what was written and the failure.
fn finish<S: FileSource + ?Sized>(
    files: Files<'_, S>,
    failure: Option<Error>,
    policy: Policy,
) -> Result<Plan> {
    match (failure, policy) {
        (Some(error), Policy::Partial) => Ok(Plan {
            changes: files.into_changes()?,
            failure: Some(HunkFailure { hunk: 0, error }),
            ..Plan::default()
        }),
        (Some(error), _) => Err(error),
        (None, _) => Ok(Plan {
            changes: files.into_changes()?,
            ..Plan::default()
        }),
    }
}

/// Plans `reply` in `format` against `files` (see the [module documentation](self)).
pub(crate) fn plan<S: FileSource + ?Sized>(
    reply: &str,
    source: &S,
    dialect: super::PatchDialect,
    policy: Policy,
) -> Result<Plan> {
    let Some(format) = format_of(dialect) else {
        return Err(Error::new(
            ErrorKind::InvalidDialect,
            format!("{dialect} is not one of aider's dialects"),
        ));
    };
    let chat = chat_files(reply, source, format)?;
    let mut contents = Vec::with_capacity(chat.len());
    for path in &chat {
        if let Some(text) = source.read(path)? {
            contents.push(text.into_owned());
        }
    }
    let fence = blocks::choose_fence(contents.iter().map(String::as_str));
    let files = Files {
        source,
        written: BTreeMap::new(),
        order: Vec::new(),
    };
    match format {
        Format::Blocks => plan_blocks(reply, fence, chat, files, policy),
        Format::Whole => plan_whole(reply, fence, &chat, files, policy),
        Format::Native => native::plan(reply, files, &chat, fence, policy),
    }
}

/// The chat files: the source's own list, or the files the reply names that exist.
fn chat_files<S: FileSource + ?Sized>(
    reply: &str,
    source: &S,
    format: Format,
) -> Result<Vec<String>> {
    if let Some(mut paths) = source.paths() {
        paths.sort();
        paths.dedup();
        return Ok(paths);
    }
    let fence = blocks::choose_fence(std::iter::empty());
    let named: Vec<String> = match format {
        Format::Blocks | Format::Native => blocks::find_blocks(reply, fence, &[])
            .map(|b| b.into_iter().map(|b| b.path).collect())
            .unwrap_or_default(),
        Format::Whole => Vec::new(),
    };
    let mut chat = Vec::new();
    for path in named {
        if let Some(k) = key(&path)
            && source.read(&k)?.is_some()
            && !chat.contains(&k)
        {
            chat.push(k);
        }
    }
    chat.sort();
    Ok(chat)
}

/// `do_replace(path, content, search, replace, fence)`: the new text, `None` for no match
/// (or an empty result). Creates the file, empty, for an empty SEARCH on a missing file.
fn do_replace<S: FileSource + ?Sized>(
    files: &mut Files<'_, S>,
    path: &str,
    content: Option<String>,
    block: &Block,
    fence: Fence,
) -> Result<Option<String>> {
    let search = replace::strip_wrapping(&block.search, path, fence)
        .map_err(|NothingLeft| nothing_left(block))?;
    let replacement = replace::strip_wrapping(&block.replace, path, fence)
        .map_err(|NothingLeft| nothing_left(block))?;
    let mut content = content;
    if py::strip(&search).is_empty() && !files.exists(path)? {
        files.write(path, String::new());
        content = Some(String::new());
    }
    let Some(content) = content else {
        return Ok(None);
    };
    let new = if py::strip(&search).is_empty() {
        Some(content + &replacement)
    } else {
        replace::replace_most_similar_chunk(&content, &search, &replacement)
    };
    Ok(new.filter(|t| !t.is_empty()))
}

/// The error aider raises when `strip_quoted_wrapping` finds only a file-name line.
fn nothing_left(block: &Block) -> Error {
    stopped(
        ErrorKind::InvalidPatch,
        format!(
            "A SEARCH/REPLACE block for {} holds nothing but its file name (aider stops here: \
             list index out of range)",
            block.path
        ),
    )
}

/// One pass of `EditBlockCoder.apply_edits` over the blocks: the dry run (`write` false,
/// which only reroutes blocks) or the real one. Returns the blocks (rerouted) and which
/// matched.
fn apply_blocks<S: FileSource + ?Sized>(
    files: &mut Files<'_, S>,
    blocks: &[Block],
    chat: &[String],
    fence: Fence,
    write: bool,
) -> Result<(Vec<Block>, Vec<bool>)> {
    let mut routed = Vec::with_capacity(blocks.len());
    let mut passed = Vec::with_capacity(blocks.len());
    for block in blocks {
        let mut path = block.path.clone();
        let named = key(&path).ok_or_else(|| outside(&path))?;
        let mut target = named.clone();
        let mut new = None;
        if files.exists(&named)? {
            let content = files.read(&named)?;
            new = do_replace(files, &named, content, block, fence)?;
        }
        if new.is_none() && !py::strip(&block.search).is_empty() {
            for other in chat {
                let content = files.read(other)?;
                let found = do_replace(files, other, content, block, fence)?;
                if found.is_some() {
                    new = found;
                    path = other.clone();
                    target = other.clone();
                    break;
                }
            }
        }
        routed.push(Block {
            path,
            search: block.search.clone(),
            replace: block.replace.clone(),
        });
        passed.push(new.is_some());
        if let (Some(text), true) = (new, write) {
            files.write(&target, text);
        }
    }
    Ok((routed, passed))
}

/// `prepare_to_edit`: every named file that is not in the chat and does not exist is created
/// empty ("Create new file?" answered yes); the chat grows by the files named.
fn admit<S: FileSource + ?Sized>(
    files: &mut Files<'_, S>,
    paths: impl Iterator<Item = String>,
    chat: &mut Vec<String>,
) -> Result<()> {
    for path in paths {
        let k = key(&path).ok_or_else(|| outside(&path))?;
        if chat.contains(&k) {
            continue;
        }
        if !files.exists(&k)? {
            files.write(&k, String::new());
        }
        chat.push(k);
        chat.sort();
    }
    Ok(())
}

fn plan_blocks<S: FileSource + ?Sized>(
    reply: &str,
    fence: Fence,
    chat: Vec<String>,
    mut files: Files<'_, S>,
    policy: Policy,
) -> Result<Plan> {
    let outcome = apply_reply(reply, fence, chat, &mut files);
    finish(files, outcome.err(), policy)
}

/// `apply_updates()` for the block formats: parse, dry run, admit, apply, report.
fn apply_reply<S: FileSource + ?Sized>(
    reply: &str,
    fence: Fence,
    mut chat: Vec<String>,
    files: &mut Files<'_, S>,
) -> Result<()> {
    let parsed = blocks::find_blocks(reply, fence, &chat)
        .map_err(|e| stopped(ErrorKind::InvalidPatch, e.0))?;
    let (dry, _) = apply_blocks(files, &parsed, &chat, fence, false)?;
    admit(files, dry.iter().map(|b| b.path.clone()), &mut chat)?;
    let (_, passed) = apply_blocks(files, &dry, &chat, fence, true)?;
    if passed.iter().all(|&p| p) {
        return Ok(());
    }
    let failed: Vec<&Block> = dry
        .iter()
        .zip(&passed)
        .filter(|(_, p)| !**p)
        .map(|(b, _)| b)
        .collect();
    let applied = passed.iter().filter(|&&p| p).count();
    Err(stopped(
        ErrorKind::PatchContextNotFound,
        failure_report(files, &failed, applied, fence)?,
    ))
}

/// aider's text for blocks that failed to match (`EditBlockCoder.apply_edits`).
fn failure_report<S: FileSource + ?Sized>(
    files: &Files<'_, S>,
    failed: &[&Block],
    passed: usize,
    fence: Fence,
) -> Result<String> {
    let plural = |n: usize| if n == 1 { "block" } else { "blocks" };
    let blocks = plural(failed.len());
    let mut out = format!(
        "# {} SEARCH/REPLACE {blocks} failed to match!\n",
        failed.len()
    );
    for block in failed {
        let path = &block.path;
        let content = match key(path) {
            Some(k) => files.read(&k)?.unwrap_or_default(),
            None => String::new(),
        };
        out.push_str(&format!(
            "\n## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in \
             {path}\n<<<<<<< SEARCH\n{}=======\n{}>>>>>>> REPLACE\n\n",
            block.search, block.replace
        ));
        let Some(similar) = similar_lines(&block.search, &content) else {
            return Err(stopped(
                ErrorKind::InvalidPatch,
                format!(
                    "A SEARCH/REPLACE block for {path} created an empty file (aider stops here: \
                     list index out of range)"
                ),
            ));
        };
        if !similar.is_empty() {
            out.push_str(&format!(
                "Did you mean to match some of these actual lines from {path}?\n\n{}\n{similar}\n{}\n\n",
                fence.0, fence.1
            ));
        }
        if !block.replace.is_empty() && content.contains(&block.replace) {
            out.push_str(&format!(
                "Are you sure you need this SEARCH/REPLACE block?\nThe REPLACE lines are already \
                 in {path}!\n\n"
            ));
        }
    }
    out.push_str(
        "The SEARCH section must exactly match an existing block of lines including all white \
         space, comments, indentation, docstrings, etc\n",
    );
    if passed > 0 {
        out.push_str(&format!(
            "\n# The other {passed} SEARCH/REPLACE {} were applied successfully.\nDon't re-send \
             them.\nJust reply with fixed versions of the {blocks} above that failed to match.\n",
            plural(passed)
        ));
    }
    Ok(out)
}

/// `find_similar_lines(search, content)`: the window of the file most like the SEARCH lines
/// (ratio at least 0.6), widened by five lines unless its ends agree; empty if none. `None`
/// where aider itself fails (an empty SEARCH).
fn similar_lines(search: &str, content: &str) -> Option<String> {
    let wanted = py::splitlines(search);
    let lines = py::splitlines(content);
    let n = wanted.len();
    let mut best: Option<(f64, usize)> = None;
    if n <= lines.len() {
        for i in 0..=lines.len() - n {
            let ratio = difflib::SequenceMatcher::new(&wanted, &lines[i..i + n]).ratio();
            if ratio > best.map_or(0.0, |b| b.0) {
                best = Some((ratio, i));
            }
        }
    }
    let Some((ratio, at)) = best else {
        return Some(String::new());
    };
    if ratio < 0.6 {
        return Some(String::new());
    }
    let window = &lines[at..at + n];
    let (first, last) = (window.first()?, window.last()?);
    if first == wanted.first()? && last == wanted.last()? {
        return Some(window.join("\n"));
    }
    let end = lines.len().min(at + n + 5);
    let start = at.saturating_sub(5);
    Some(lines[start..end].join("\n"))
}

fn plan_whole<S: FileSource + ?Sized>(
    reply: &str,
    fence: Fence,
    chat: &[String],
    mut files: Files<'_, S>,
    policy: Policy,
) -> Result<Plan> {
    let outcome = write_listings(reply, fence, chat, &mut files);
    finish(files, outcome.err(), policy)
}

/// `apply_updates()` for the `whole` format.
fn write_listings<S: FileSource + ?Sized>(
    reply: &str,
    fence: Fence,
    chat: &[String],
    files: &mut Files<'_, S>,
) -> Result<()> {
    // `get_multi_response_content_in_progress()`: the reply without its trailing whitespace.
    let reply = reply.trim_end_matches(py::is_space);
    let listings = blocks::find_listings(reply, fence, chat)
        .map_err(|e| stopped(ErrorKind::InvalidPatch, e.0))?;
    let mut chat = chat.to_vec();
    admit(files, listings.iter().map(|l| l.path.clone()), &mut chat)?;
    for listing in listings {
        let k = key(&listing.path).ok_or_else(|| outside(&listing.path))?;
        files.write(&k, listing.content);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(
        reply: &str,
        files: &[(&str, &str)],
        format: Format,
    ) -> Result<BTreeMap<String, String>> {
        let mut map: BTreeMap<String, String> = files
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let dialect = match format {
            Format::Blocks => super::super::PatchDialect::Aider,
            Format::Whole => super::super::PatchDialect::AiderWhole,
            Format::Native => super::super::PatchDialect::AiderNative,
        };
        let plan = plan(reply, &map, dialect, Policy::AllOrNothing)?;
        plan.apply_to(&mut map);
        Ok(map)
    }

    #[test]
    fn a_block_edits_its_file_and_a_new_file_is_created() {
        let reply = "app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\nnew.py\n```python\n<<<<<<< SEARCH\n=======\nprint()\n>>>>>>> REPLACE\n```\n";
        let out = run(reply, &[("app.py", "x = 1\n")], Format::Blocks).expect("applies");
        assert_eq!(out["app.py"], "x = 2\n");
        assert_eq!(out["new.py"], "print()\n");
    }

    #[test]
    fn a_failed_block_says_what_aider_says() {
        let reply = "app.py\n```\n<<<<<<< SEARCH\ny = 1\n=======\ny = 2\n>>>>>>> REPLACE\n```\n";
        let err = run(reply, &[("app.py", "x = 1\n")], Format::Blocks).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PatchContextNotFound);
        assert!(
            err.message()
                .starts_with("# 1 SEARCH/REPLACE block failed to match!\n")
        );
    }

    #[test]
    fn a_listing_replaces_the_file() {
        let out = run(
            "app.py\n```\nx = 3\n```\n",
            &[("app.py", "x = 1\n")],
            Format::Whole,
        )
        .expect("applies");
        assert_eq!(out["app.py"], "x = 3\n");
    }
}

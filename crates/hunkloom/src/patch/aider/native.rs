//! The `aider-native` reading: aider's `diff` and `diff-fenced` replies, each block applied by
//! hunkloom's native SEARCH/REPLACE engine to the file it names, with no guesses.
//!
//! Sections are read as aider reads them (a first line naming the file and a fence around the
//! section dropped, the text given one final line break). What aider guesses, this reading
//! refuses: a file name that only resembles a chat file, a
//! block tried on other files when it misses its own, an empty SEARCH on a file that has text
//! (aider appends), `...` elisions (the native engine finds no such lines). What the native
//! engine tolerates it tolerates (its tiers: line endings, trailing and surrounding
//! whitespace, indentation, typographic punctuation), placing each block in exactly one place
//! or refusing it with the candidates. Line endings of untouched lines are kept. Blocks apply
//! in order, each on the file as the blocks before it left it; any failure refuses the reply
//! (with [`Policy::Partial`], the blocks before it stay).

use super::blocks::{self, Block, Fence, Naming};
use super::replace::strip_wrapping;
use super::{Files, finish, key, nothing_left, outside, py};
use crate::error::{Error, ErrorKind, Result};
use crate::native::NativeEngine;
use crate::policy::Policy;

use super::super::plan::{FileSource, Plan};

/// Plans `reply` in the native reading against `files`.
pub(crate) fn plan<S: FileSource + ?Sized>(
    reply: &str,
    files: Files<'_, S>,
    chat: &[String],
    fence: Fence,
    policy: Policy,
) -> Result<Plan> {
    let mut files = files;
    let outcome = apply(reply, &mut files, chat, fence);
    finish(files, outcome.err(), policy)
}

/// One block's SEARCH/REPLACE in the native engine's own markers.
fn as_native_block(search: &str, replace: &str) -> String {
    let line = |s: &str| {
        if s.is_empty() || s.ends_with('\n') {
            s.to_owned()
        } else {
            format!("{s}\n")
        }
    };
    format!(
        "<<<<<<< SEARCH\n{}=======\n{}>>>>>>> REPLACE\n",
        line(search),
        line(replace)
    )
}

/// Whether `search` occurs in `text` at the start of a line (both read with `\n` breaks).
fn occurs(text: &str, search: &str) -> bool {
    format!("\n{text}").contains(&format!("\n{search}"))
}

/// Blank lines at the edges of the SEARCH section that the file does not have there, dropped
/// one at a time until the section occurs (the fewest that make it match; the REPLACE section
/// stays as written). The native engine alone would drop every edge blank line of the SEARCH,
/// and the edit would then add back the ones the file did have.
fn drop_extra_edge_blanks(text: &str, search: &str) -> String {
    let text = text.replace("\r\n", "\n");
    let mut search = search.to_owned();
    while !occurs(&text, &search) && search.starts_with('\n') && search.len() > 1 {
        search.remove(0);
    }
    while !occurs(&text, &search) && search.ends_with("\n\n") {
        search.pop();
    }
    search
}

/// Applies one block (the `index`-th of its reply) to `files`, or refuses it.
pub(super) fn apply_block<S: FileSource + ?Sized>(
    files: &mut Files<'_, S>,
    block: &Block,
    fence: Fence,
    index: usize,
) -> Result<()> {
    let path = key(&block.path).ok_or_else(|| outside(&block.path))?;
    let at = |e: Error| {
        Error::new(
            e.kind(),
            format!("block {} ({}): {}", index + 1, block.path, e.message()),
        )
    };
    // The sections read as aider reads them: a first line naming the file and a fence
    // around the section dropped, one final line break (aider's `strip_quoted_wrapping`).
    let search = strip_wrapping(&block.search, &path, fence).map_err(|_| nothing_left(block))?;
    let replace = strip_wrapping(&block.replace, &path, fence).map_err(|_| nothing_left(block))?;
    let blank_search = py::strip(&search).is_empty();
    let Some(current) = files.read_raw(&path)? else {
        if !blank_search {
            return Err(at(Error::new(
                ErrorKind::PatchFileNotFound,
                "no such file (a block for a new file has an empty SEARCH section)",
            )));
        }
        files.write(&path, replace);
        return Ok(());
    };
    if blank_search && current.is_empty() {
        files.write(&path, replace);
        return Ok(());
    }
    let search = drop_extra_edge_blanks(&current, &search);
    let block = as_native_block(&search, &replace);
    let outcome = NativeEngine::apply(&block, &current, Policy::AllOrNothing).map_err(at)?;
    files.write(&path, outcome.new_content);
    Ok(())
}

fn apply<S: FileSource + ?Sized>(
    reply: &str,
    files: &mut Files<'_, S>,
    chat: &[String],
    fence: Fence,
) -> Result<()> {
    let parsed = blocks::find_blocks_named(reply, fence, chat, Naming::Strict)
        .map_err(|e| Error::new(ErrorKind::InvalidPatch, e.0))?;
    if parsed.is_empty() {
        return Err(Error::new(
            ErrorKind::EmptyPatch,
            "the reply has no SEARCH/REPLACE block",
        ));
    }
    for (index, block) in parsed.iter().enumerate() {
        apply_block(files, block, fence, index)?;
    }
    Ok(())
}

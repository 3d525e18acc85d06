//! [`AiderApplier`]: an aider reply applied while it streams, with a live preview per file.

use std::collections::BTreeMap;

use super::blocks::{self, Block, Fence, ListingScanner, Naming, Scanner};
use super::{Files, Format, apply_blocks, format_of, py};
use crate::error::{Error, ErrorKind, Result};
use crate::patch::plan::Plan;
use crate::patch::{PatchDialect, PatchOptions};

/// An aider reply (dialects `aider`, `aider-fenced`, `aider-whole`, `aider-native`) pushed in
/// pieces as a model streams it, over the chat files given at the start.
///
/// Each [`push`](Self::push) reads the lines it completes once (the work does not grow with
/// the number of pushes), applies each SEARCH/REPLACE block as soon as its closing marker
/// arrives (a `whole` listing when its closing fence arrives) to a preview of the files, and
/// returns the paths whose preview changed; [`preview`](Self::preview) gives a file as the
/// reply so far leaves it. [`finish`](Self::finish) gives the plan of the whole reply, exactly
/// as [`plan_patch`](crate::patch::plan_patch) gives it (so a reply cut anywhere ends the same),
/// and the previews become its files.
///
/// ```
/// use std::collections::BTreeMap;
/// use hunkloom::patch::aider::AiderApplier;
/// use hunkloom::patch::{PatchDialect, PatchOptions};
///
/// let files = BTreeMap::from([("app.py".to_owned(), "x = 1\n".to_owned())]);
/// let mut applier = AiderApplier::new(files, &PatchOptions::new().dialect(PatchDialect::Aider))?;
/// assert!(applier.push("app.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n").unwrap().is_empty());
/// assert_eq!(applier.push(">>>>>>> REPLACE\n```\n")?, ["app.py"]);
/// assert_eq!(applier.preview("app.py"), Some("x = 2\n"));
/// let plan = applier.finish()?;
/// assert_eq!(plan.changes.len(), 1);
/// # Ok::<(), hunkloom::Error>(())
/// ```
#[derive(Debug)]
pub struct AiderApplier {
    options: PatchOptions,
    format: Format,
    files: BTreeMap<String, String>,
    chat: Vec<String>,
    fence: Fence,
    /// Everything pushed.
    reply: String,
    /// Where the line not yet complete starts in `reply`.
    pending: usize,
    scanner: Scanner,
    /// The preview: each file the blocks so far wrote, and the order they were first written.
    written: BTreeMap<String, String>,
    order: Vec<String>,
    /// `whole`: the listings read line by line; `None` once the reply can no longer parse.
    listings: Option<ListingScanner>,
    /// `whole`: a listing closed since the preview was last brought up to date.
    listing_closed: bool,
    finished: bool,
}

impl AiderApplier {
    /// An applier of a reply in `options.dialect` (one of the aider dialects) over `files`,
    /// aider's chat files (path to text).
    ///
    /// Errors: `invalid_dialect` for a dialect that is not aider's.
    pub fn new(files: BTreeMap<String, String>, options: &PatchOptions) -> Result<AiderApplier> {
        let Some(format) = format_of(options.dialect) else {
            return Err(Error::new(
                ErrorKind::InvalidDialect,
                format!(
                    "an AiderApplier reads aider's dialects (aider, aider-fenced, aider-whole, \
                     aider-native), not {}",
                    options.dialect
                ),
            ));
        };
        let chat: Vec<String> = files.keys().cloned().collect();
        let fence = blocks::choose_fence(files.values().map(String::as_str));
        let naming = if format == Format::Native {
            Naming::Strict
        } else {
            Naming::Aider
        };
        let listings = (format == Format::Whole).then(|| ListingScanner::new(fence, chat.clone()));
        Ok(AiderApplier {
            options: *options,
            format,
            scanner: Scanner::new(fence, chat.clone(), naming),
            files,
            chat,
            fence,
            reply: String::new(),
            pending: 0,
            written: BTreeMap::new(),
            order: Vec::new(),
            listings,
            listing_closed: false,
            finished: false,
        })
    }

    /// The dialect it reads.
    pub fn dialect(&self) -> PatchDialect {
        self.options.dialect
    }

    /// Adds the next piece of the reply; returns the paths whose preview changed, in order.
    ///
    /// Errors: a reply that can no longer parse (a block with no file name: aider's text, as
    /// [`finish`](Self::finish) would give it), `already_finished`. A block that does not
    /// apply is no error here: its files stay as they were in the preview, and `finish`
    /// reports it.
    pub fn push(&mut self, piece: &str) -> Result<Vec<String>> {
        if self.finished {
            return Err(already_finished());
        }
        crate::memory::reserve(piece.len(), "the reply")?;
        self.reply.push_str(piece);
        let mut changed = Vec::new();
        let mut complete = Vec::new();
        {
            let tail = &self.reply[self.pending..];
            let mut consumed = 0;
            for line in py::splitlines_keepends(tail) {
                let ends = line.chars().next_back().is_some_and(py::is_boundary);
                // A `\r` at the very end may be the first half of `\r\n`.
                if !ends || (line.ends_with('\r') && consumed + line.len() == tail.len()) {
                    break;
                }
                consumed += line.len();
                complete.push(line.to_owned());
            }
            self.pending += consumed;
        }
        for line in complete {
            self.read_line(line, false, &mut changed)?;
        }
        if self.listing_closed {
            self.preview_listings(&mut changed);
        }
        Ok(changed)
    }

    /// The file at `path` as the reply so far leaves it: a chat file's own text until a block
    /// changes it; `None` for a path that is neither a chat file nor written by the reply.
    pub fn preview(&self, path: &str) -> Option<&str> {
        self.written
            .get(path)
            .or_else(|| self.files.get(path))
            .map(String::as_str)
    }

    /// The paths the reply has written so far, in the order first written.
    pub fn touched(&self) -> &[String] {
        &self.order
    }

    /// The plan of the whole reply (as [`plan_patch`](crate::patch::plan_patch) gives it);
    /// the previews become its files.
    ///
    /// Errors: the plan's errors; `already_finished` on a second call.
    pub fn finish(&mut self) -> Result<Plan> {
        if self.finished {
            return Err(already_finished());
        }
        self.finished = true;
        let rest = self.reply[self.pending..].to_owned();
        self.pending = self.reply.len();
        let mut changed = Vec::new();
        if !rest.is_empty() {
            // The preview is replaced below; a parse error is the plan's to report.
            let _ = self.read_line(rest, true, &mut changed);
        }
        let plan = crate::patch::plan_patch(&self.reply, &self.files, &self.options)?;
        let mut files = self.files.clone();
        plan.apply_to(&mut files);
        for change in &plan.changes {
            if let Some(text) = files.get(&change.path) {
                if !self.written.contains_key(&change.path) {
                    self.order.push(change.path.clone());
                }
                self.written.insert(change.path.clone(), text.clone());
            }
        }
        Ok(plan)
    }

    /// Feeds one complete line; applies what it completes to the preview.
    fn read_line(&mut self, line: String, at_end: bool, changed: &mut Vec<String>) -> Result<()> {
        if self.format == Format::Whole {
            if let Some(listings) = &mut self.listings {
                match listings.feed(&line) {
                    Ok(closed) => self.listing_closed |= closed,
                    Err(_) => self.listings = None,
                }
            }
            if at_end {
                self.preview_listings(changed);
            }
            return Ok(());
        }
        self.scanner.feed(line);
        let mut done = Vec::new();
        let read = self.scanner.run(at_end, &mut done);
        for block in done {
            self.preview_block(&block, changed)?;
        }
        read.map_err(|e| Error::new(ErrorKind::InvalidPatch, e.0))
    }

    /// Applies one completed block to the preview as the dialect would.
    fn preview_block(&mut self, block: &Block, changed: &mut Vec<String>) -> Result<()> {
        let mut files = Files {
            source: &self.files,
            written: std::mem::take(&mut self.written),
            order: std::mem::take(&mut self.order),
        };
        let before = files.written.clone();
        let outcome = match self.format {
            Format::Native => super::native::apply_block(&mut files, block, self.fence, 0),
            _ => {
                let mut chat = self.chat.clone();
                for path in &files.order {
                    if !chat.contains(path) {
                        chat.push(path.clone());
                    }
                }
                // As aider before it applies: a named file that does not exist is created empty.
                super::admit(&mut files, std::iter::once(block.path.clone()), &mut chat)
                    .and_then(|()| {
                        apply_blocks(
                            &mut files,
                            std::slice::from_ref(block),
                            &chat,
                            self.fence,
                            true,
                        )
                    })
                    .map(|_| ())
            }
        };
        if outcome.is_err() {
            // The preview keeps the files as they were; `finish` reports the failure.
            files.written = before.clone();
            files.order.retain(|p| before.contains_key(p));
        }
        for (path, text) in &files.written {
            if before.get(path) != Some(text) && !changed.contains(path) {
                changed.push(path.clone());
            }
        }
        self.written = files.written;
        self.order = files.order;
        Ok(())
    }

    /// `whole`: the listings of the complete lines so far (one left open counts) into the
    /// preview, once per push that closed one; nothing once the reply can no longer parse.
    fn preview_listings(&mut self, changed: &mut Vec<String>) {
        self.listing_closed = false;
        let Some(listings) = &self.listings else {
            return;
        };
        for listing in listings.listings() {
            if self.written.get(&listing.path) == Some(&listing.content) {
                continue;
            }
            if !self.written.contains_key(&listing.path) {
                self.order.push(listing.path.clone());
            }
            if !changed.contains(&listing.path) {
                changed.push(listing.path.clone());
            }
            self.written.insert(listing.path, listing.content);
        }
    }
}

fn already_finished() -> Error {
    Error::new(ErrorKind::AlreadyFinished, "the reply was already finished")
}

//! [`V4aApplier`]: a V4A body read as it streams, each section placed as soon as the line after
//! it arrives.

use super::locate::{AnchorFound, Input, Key, py_strip};
use super::output::{Chunk, Output, Shown};
use super::{V4aMode, V4aOutcome, V4aSection};
use crate::error::{Error, ErrorKind, Result};
use crate::text::StreamedLines;

const END_PATCH: &str = "*** End Patch";
const END_OF_FILE: &str = "*** End of File";
/// Lines that end a create-mode body, and everything (`SECTION_TERMINATORS`).
const TERMINATORS: [&str; 4] = [
    END_PATCH,
    "*** Update File:",
    "*** Delete File:",
    "*** Add File:",
];

fn starts_with_any(line: &str, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| line.starts_with(p))
}

/// Whether `line` ends the body of an update (the reference's `END_SECTION_MARKERS`).
fn ends_body(line: &str) -> bool {
    starts_with_any(line, &TERMINATORS) || line.starts_with(END_OF_FILE)
}

/// Whether `line` ends a section's lines (it is not read as one of them).
fn ends_section(line: &str) -> bool {
    line.starts_with("@@") || ends_body(line) || line == "***"
}

/// A V4A body applied while it streams, byte for byte as the OpenAI Agents SDK's
/// `apply_diff(input, diff, mode)` applies it whole (the rules are in the
/// [module docs](super)).
///
/// Push the body in pieces of any size; each [`push`](Self::push) returns the sections it
/// placed (a section is placed when the line after it arrives), and [`finish`](Self::finish)
/// the new text with every section's report. Each line is read once, and each section is
/// located once, through an index of the input's lines. Pieces cut anywhere give the same
/// result as the whole body.
///
/// ```
/// use hunkloom::patch::v4a::{V4aApplier, V4aMode};
///
/// let mut applier = V4aApplier::new("a\nb\nc\n", V4aMode::Default);
/// assert!(applier.push("@@ a\n-b\n+B").unwrap().is_empty());
/// let placed = applier.push("\n@@\n c\n+d\n").unwrap();
/// assert_eq!(placed[0].line, 2); // the first section's `-b`
/// let outcome = applier.finish().unwrap();
/// assert_eq!(outcome.new_content, "a\nB\nc\nd\n");
/// assert_eq!(outcome.sections.len(), 2);
/// ```
///
/// Errors are sticky: once a push fails, every later call returns the same error. After
/// `finish`, calls fail with `already_finished`.
#[derive(Clone, Debug)]
pub struct V4aApplier {
    mode: V4aMode,
    /// The input as the reference sees it (empty in create mode, which ignores it).
    input: Input,
    /// The input's line ending, if it has a `\n` (else the body's decides).
    input_newline: Option<&'static str>,
    /// Whether the body has a `\r\n` so far, and whether it ends in `\r`.
    body_crlf: bool,
    body_ends_in_cr: bool,
    /// The current line so far (no `\n` yet).
    lines: StreamedLines,
    /// The 0-based number of the next line.
    line_no: usize,
    state: State,
    /// The input line the next section is searched from.
    cursor: usize,
    section: Section,
    output: Output,
    /// Create mode: the text of each `+` line.
    created: Vec<String>,
    sections: Vec<V4aSection>,
    /// What [`preview_update`](V4aApplier::preview_update) last showed.
    shown: Shown,
    error: Option<Error>,
    finished: bool,
}

/// Where the reader is in the body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum State {
    /// Before a section: the next line may end the body.
    #[default]
    Next,
    /// Reading a section's `@@` lines: how many, and the texts that are not blank.
    Anchors { count: usize, anchors: Vec<String> },
    /// Reading a section's lines.
    Lines,
    /// The body ended: the rest is ignored.
    Done,
}

/// What a line of a section does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum LineMode {
    #[default]
    Keep,
    Add,
    Delete,
}

/// The section being read.
#[derive(Clone, Debug, Default)]
struct Section {
    /// The lines it expects in the input: context and removed lines, in order.
    context: Vec<String>,
    /// Removed and added lines since the last context line.
    removed: usize,
    added: Vec<String>,
    /// Its changes so far, placed relative to its context.
    chunks: Vec<Chunk>,
    mode: LineMode,
    lines: usize,
    removed_total: usize,
    added_total: usize,
    /// The anchors' part of its score.
    fuzz: u64,
}

impl Section {
    /// Closes the run of removed and added lines, if there is one.
    fn close_run(&mut self) {
        if self.removed > 0 || !self.added.is_empty() {
            self.chunks.push(Chunk {
                at: self.context.len() - self.removed,
                removed: self.removed,
                added: std::mem::take(&mut self.added),
            });
            self.removed = 0;
        }
    }
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidPatchHunk, message)
}

impl V4aApplier {
    /// An applier of a body to `input` in `mode`.
    pub fn new(input: &str, mode: V4aMode) -> Self {
        let (input, input_newline) = match mode {
            V4aMode::Default => {
                let input = Input::new(input);
                let newline = input.newline();
                (input, newline)
            }
            V4aMode::Create => (Input::new(""), None),
        };
        let mut applier = V4aApplier {
            mode,
            input,
            input_newline,
            body_crlf: false,
            body_ends_in_cr: false,
            lines: StreamedLines::default(),
            line_no: 0,
            state: State::Next,
            cursor: 0,
            section: Section::default(),
            output: Output::default(),
            created: Vec::new(),
            sections: Vec::new(),
            shown: Shown::default(),
            error: None,
            finished: false,
        };
        applier.shown = Shown::new(applier.newline());
        applier
    }

    /// Feeds the next piece of the body; returns the sections it placed.
    pub fn push(&mut self, chunk: &str) -> Result<&[V4aSection]> {
        self.check_usable()?;
        let before = self.sections.len();
        let bytes = chunk.as_bytes();
        if (self.body_ends_in_cr && bytes.first() == Some(&b'\n'))
            || memchr::memmem::find(bytes, b"\r\n").is_some()
        {
            self.body_crlf = true;
        }
        if !chunk.is_empty() {
            self.body_ends_in_cr = bytes.last() == Some(&b'\r');
        }
        let mut lines = std::mem::take(&mut self.lines);
        // Lines after the end of the body are not read (nor is the last one, at finish).
        let read = lines.try_push(chunk, |line| match self.state {
            State::Done => Ok(()),
            _ => self.line(line.trim_end_matches('\r')),
        });
        self.lines = lines;
        self.fail_on(read)?;
        Ok(&self.sections[before..])
    }

    /// Ends the body: reads its last line (when it has no `\n`; an empty one is dropped, as the
    /// reference drops one trailing empty line), places the last section and returns the new
    /// text with every section's report.
    pub fn finish(&mut self) -> Result<V4aOutcome> {
        self.check_usable()?;
        let last = self.lines.take_partial();
        let last = last.trim_end_matches('\r');
        let mut result = Ok(());
        if !last.is_empty() && self.state != State::Done {
            result = self.line(last);
        }
        if result.is_ok() {
            // The reference appends `*** End Patch` to every body.
            result = self.line(END_PATCH);
        }
        self.fail_on(result)?;
        if let Some(e) = self.output.error() {
            let e = e.clone();
            self.error = Some(e.clone());
            return Err(e);
        }
        self.finished = true;
        let newline = self.newline();
        let new_content = match self.mode {
            V4aMode::Default => std::mem::take(&mut self.output).finish(&self.input, newline),
            V4aMode::Create => self.created.join(newline),
        };
        let sections = std::mem::take(&mut self.sections);
        Ok(V4aOutcome {
            new_content,
            fuzz: sections.iter().map(|s| s.fuzz).sum(),
            sections,
        })
    }

    /// The text with the sections placed so far applied (in create mode, the `+` lines read so
    /// far), joined as [`finish`](Self::finish) joins them. Never fails: after a failure it
    /// shows what was placed before it. Builds the text, so it costs the file's length.
    ///
    /// ```
    /// use hunkloom::patch::v4a::{V4aApplier, V4aMode};
    ///
    /// let mut applier = V4aApplier::new("a\nb\nc\n", V4aMode::Default);
    /// applier.push("@@ a\n-b\n+B\n")?;
    /// assert_eq!(applier.preview(), "a\nb\nc\n"); // the section may go on
    /// applier.push("@@\n")?;
    /// assert_eq!(applier.preview(), "a\nB\nc\n");
    /// # Ok::<(), hunkloom::Error>(())
    /// ```
    pub fn preview(&self) -> String {
        let newline = self.newline();
        match self.mode {
            V4aMode::Default => self.output.clone().finish(&self.input, newline),
            V4aMode::Create => self.created.join(newline),
        }
    }

    /// How [`preview`](Self::preview) changed since the last call (the first call: since the
    /// applier was made), as one splice: the sections placed in between replace the lines they
    /// cover. Costs those lines, not the text (but for a change of line ending, possible only
    /// when the input has no line ending: then the whole text, once).
    ///
    /// ```
    /// use hunkloom::patch::v4a::{V4aApplier, V4aMode};
    ///
    /// let mut shown = "a\nb\nc\n".to_owned();
    /// let mut applier = V4aApplier::new(&shown, V4aMode::Default);
    /// applier.push("@@ a\n-b\n+B\n@@\n")?;
    /// applier.preview_update().apply_to(&mut shown);
    /// assert_eq!(shown, "a\nB\nc\n");
    /// assert_eq!(shown, applier.preview());
    /// # Ok::<(), hunkloom::Error>(())
    /// ```
    pub fn preview_update(&mut self) -> crate::report::Update<'static> {
        if self.finished {
            return crate::report::Update::default();
        }
        let newline = self.newline();
        match self.mode {
            V4aMode::Default => match self.output.update(&mut self.shown, &self.input, newline) {
                Some(update) => update,
                None => {
                    let text = self.preview();
                    self.shown
                        .replace_all(&self.input, &self.output, text, newline)
                }
            },
            V4aMode::Create => match self.shown.created(&self.created, newline) {
                Some(update) => update,
                None => self.shown.created_anew(&self.created, newline),
            },
        }
    }

    /// The line ending the new text is joined with: the input's, else the body's.
    fn newline(&self) -> &'static str {
        match self.mode {
            V4aMode::Default => self.input_newline,
            V4aMode::Create => None,
        }
        .unwrap_or(if self.body_crlf { "\r\n" } else { "\n" })
    }

    /// The mode this applier reads the body in.
    pub fn mode(&self) -> V4aMode {
        self.mode
    }

    /// Every section placed so far (none after [`finish`](Self::finish), which hands them
    /// over in the outcome).
    pub fn sections(&self) -> &[V4aSection] {
        &self.sections
    }

    fn check_usable(&self) -> Result<()> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.finished {
            return Err(Error::new(
                ErrorKind::AlreadyFinished,
                "this V4A applier has already finished; create a new one",
            ));
        }
        Ok(())
    }

    fn fail_on(&mut self, result: Result<()>) -> Result<()> {
        if let Err(e) = &result {
            self.error = Some(e.clone());
        }
        result
    }

    /// Reads one line of the body (no `\n`, no trailing `\r`).
    fn line(&mut self, line: &str) -> Result<()> {
        let result = match self.mode {
            V4aMode::Default => self.update_line(line),
            V4aMode::Create => self.create_line(line),
        };
        self.line_no += 1;
        result
    }

    fn create_line(&mut self, line: &str) -> Result<()> {
        if self.state == State::Done {
            return Ok(());
        }
        if starts_with_any(line, &TERMINATORS) {
            self.state = State::Done;
            return Ok(());
        }
        match line.strip_prefix('+') {
            Some(text) => {
                self.created.push(text.to_owned());
                Ok(())
            }
            None => Err(invalid(format!("Invalid Add File Line: {line}"))),
        }
    }

    fn update_line(&mut self, line: &str) -> Result<()> {
        loop {
            match &mut self.state {
                State::Done => return Ok(()),
                State::Next => {
                    if ends_body(line) {
                        self.state = State::Done;
                        return Ok(());
                    }
                    self.state = State::Anchors {
                        count: 0,
                        anchors: Vec::new(),
                    };
                }
                State::Anchors { count, anchors } => {
                    if let Some(text) = line.strip_prefix("@@ ") {
                        *count += 1;
                        if !py_strip(text).is_empty() {
                            anchors.push(text.to_owned());
                        }
                        return Ok(());
                    }
                    if line == "@@" {
                        *count += 1;
                        return Ok(());
                    }
                    let (count, anchors) = (*count, std::mem::take(anchors));
                    self.state = State::Lines;
                    self.section = Section::default();
                    self.follow_anchors(count, &anchors, line)?;
                }
                State::Lines => {
                    if ends_section(line) {
                        let eof = line == END_OF_FILE;
                        if !eof && self.section.lines == 0 {
                            return Err(invalid(format!(
                                "Nothing in this section - index={} {line}",
                                self.line_no
                            )));
                        }
                        self.place_section(eof)?;
                        self.state = State::Next;
                        if eof {
                            return Ok(());
                        }
                        continue;
                    }
                    if line.starts_with("***") {
                        return Err(invalid(format!("Invalid Line: {line}")));
                    }
                    return self.section_line(line);
                }
            }
        }
    }

    /// Moves the cursor past a section's anchors; `line` is the first line after them.
    fn follow_anchors(&mut self, count: usize, anchors: &[String], line: &str) -> Result<()> {
        if count == 0 && self.cursor != 0 {
            return Err(invalid(format!("Invalid Line:\n{line}")));
        }
        for (i, anchor) in anchors.iter().enumerate() {
            match self.input.find_anchor(anchor, self.cursor, i > 0) {
                AnchorFound::BeforeCursor => {}
                AnchorFound::At(at, key) => {
                    self.cursor = at + 1;
                    self.section.fuzz += u64::from(key == Key::Trim);
                }
                AnchorFound::Missing if count > 1 => {
                    return Err(Error::new(
                        ErrorKind::PatchContextNotFound,
                        format!("Invalid Anchor {}:\n{anchor}", self.cursor),
                    ));
                }
                AnchorFound::Missing => {}
            }
        }
        Ok(())
    }

    /// One ` `, `-` or `+` line of a section (an empty line is an empty context line).
    fn section_line(&mut self, line: &str) -> Result<()> {
        let line = if line.is_empty() { " " } else { line };
        let (mode, text) = match line.as_bytes()[0] {
            b'+' => (LineMode::Add, &line[1..]),
            b'-' => (LineMode::Delete, &line[1..]),
            b' ' => (LineMode::Keep, &line[1..]),
            _ => return Err(invalid(format!("Invalid Line: {line}"))),
        };
        let section = &mut self.section;
        if mode == LineMode::Keep && section.mode != LineMode::Keep {
            section.close_run();
        }
        section.mode = mode;
        section.lines += 1;
        match mode {
            LineMode::Delete => {
                section.removed += 1;
                section.removed_total += 1;
                section.context.push(text.to_owned());
            }
            LineMode::Add => {
                section.added_total += 1;
                section.added.push(text.to_owned());
            }
            LineMode::Keep => section.context.push(text.to_owned()),
        }
        Ok(())
    }

    /// Locates the section just read and places its changes.
    fn place_section(&mut self, eof: bool) -> Result<()> {
        let mut section = std::mem::take(&mut self.section);
        section.close_run();
        let Some((at, fuzz)) = self.input.find_context(&section.context, self.cursor, eof) else {
            let which = if eof {
                "Invalid EOF Context"
            } else {
                "Invalid Context"
            };
            return Err(Error::new(
                ErrorKind::PatchContextNotFound,
                format!("{which} {}:\n{}", self.cursor, section.context.join("\n")),
            ));
        };
        self.cursor = at + section.context.len();
        let input_len = self.input.len();
        for mut chunk in section.chunks {
            chunk.at += at;
            self.output.place(chunk, input_len);
        }
        self.sections.push(V4aSection {
            line: at + 1,
            context_lines: section.context.len(),
            removed: section.removed_total,
            added: section.added_total,
            end_of_file: eof,
            fuzz: section.fuzz + fuzz,
        });
        Ok(())
    }
}

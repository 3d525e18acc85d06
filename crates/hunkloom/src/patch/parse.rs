//! [`PatchParser`]: the Codex grammar read as it streams.

use super::lenient::{
    BEGIN_PATCH, END_OF_FILE, MOVE_TO, Marker, chunk_header, is_heredoc_close, is_heredoc_open,
    marker,
};
use super::{Hunk, LineKind, PatchLine, UpdateChunk};
use crate::error::{Error, ErrorKind, Result};
use crate::text::StreamedLines;

const VALID_HEADERS: &str = "Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'";

/// A streaming parser of the `*** Begin Patch` format (the grammar is in the
/// [module docs](super)).
///
/// Push the patch in pieces of any size; each [`push`](Self::push) returns the hunks that piece
/// completed (a hunk completes when the next marker arrives), and [`finish`](Self::finish) the
/// last one. Each line is read once: nothing already parsed is parsed or copied again.
///
/// ```
/// use hunkloom::patch::PatchParser;
///
/// let mut parser = PatchParser::new();
/// assert!(parser.push("*** Begin Patch\n*** Add File: a.txt\n+hi\n").unwrap().is_empty());
/// let done = parser.push("*** Delete File: b.txt\n").unwrap();
/// assert_eq!(done.len(), 1); // the Add hunk
/// assert_eq!(parser.finish_with("*** End Patch\n").unwrap().len(), 1); // the Delete hunk
/// assert_eq!(parser.hunks().len(), 2);
/// ```
///
/// Errors are sticky: once a push fails, every later call returns the same error.
#[derive(Clone, Debug, Default)]
pub struct PatchParser {
    /// The current line so far (no `\n` yet).
    lines: StreamedLines,
    /// Lines read so far.
    line_no: usize,
    state: State,
    heredoc: Heredoc,
    hunks: Vec<Hunk>,
    current: Option<Hunk>,
    error: Option<Error>,
    finished: bool,
    /// Reading a bare body ([`for_body`](Self::for_body)): `finish` reads the `*** End Patch`
    /// its envelope would end with.
    body: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    NotStarted,
    /// After `*** Begin Patch`, before the first hunk.
    Started,
    /// Inside the hunk in `current`.
    InHunk,
    Ended,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Heredoc {
    #[default]
    None,
    Open,
    Closed,
}

impl PatchParser {
    /// A parser at the start of a patch.
    pub fn new() -> Self {
        Self::default()
    }

    /// A parser of a bare per-file body — what OpenAI's Responses-API `apply_patch` tool sends
    /// (a V4A body) — for the one file `path`: the body is read exactly as Codex reads it inside
    /// the envelope `*** Begin Patch`, `*** Update File: <path>` (in [`V4aMode::Create`]:
    /// `*** Add File: <path>`), body, `*** End Patch` — except that a body ending with its own
    /// `*** End Patch` line is complete, as Codex accepts the repeated marker. Line numbers in
    /// errors count the body's own lines from 1 (the envelope's last line is the one after the
    /// body).
    ///
    /// [`V4aMode::Create`]: super::v4a::V4aMode::Create
    pub fn for_body(path: &str, mode: super::v4a::V4aMode) -> Self {
        let path = path.to_owned();
        let current = match mode {
            super::v4a::V4aMode::Default => Hunk::Update {
                path,
                move_to: None,
                chunks: Vec::new(),
                line: 1,
            },
            super::v4a::V4aMode::Create => Hunk::Add {
                path,
                contents: String::new(),
                line: 1,
            },
        };
        PatchParser {
            state: State::InHunk,
            current: Some(current),
            body: true,
            ..PatchParser::default()
        }
    }

    /// Feeds the next piece; returns the hunks it completed.
    pub fn push(&mut self, chunk: &str) -> Result<&[Hunk]> {
        let before = self.hunks.len();
        self.check_usable()?;
        let mut lines = std::mem::take(&mut self.lines);
        let read = lines.try_push(chunk, |line| self.line(strip_cr(line)));
        self.lines = lines;
        self.fail_on(read)?;
        Ok(&self.hunks[before..])
    }

    /// Ends the input; returns the hunks finishing completed. A last line without `\n` is read
    /// here. Calling it again returns no hunks.
    pub fn finish(&mut self) -> Result<&[Hunk]> {
        let before = self.hunks.len();
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.finished {
            return Ok(&[]);
        }
        let last = self.lines.take_partial();
        if !last.is_empty() {
            let result = self.line(strip_cr(&last));
            self.fail_on(result)?;
        }
        // A body that ends with `*** End Patch` itself already closed the envelope (Codex
        // accepts the repeated marker).
        if self.body && self.state != State::Ended {
            let result = self.line(super::lenient::END_PATCH);
            self.fail_on(result)?;
        }
        let result = self.check_end();
        self.fail_on(result)?;
        self.finished = true;
        Ok(&self.hunks[before..])
    }

    /// [`push`](Self::push)es `chunk` and [`finish`](Self::finish)es; returns the hunks both
    /// completed.
    pub fn finish_with(&mut self, chunk: &str) -> Result<&[Hunk]> {
        let before = self.hunks.len();
        self.push(chunk)?;
        self.finish()?;
        Ok(&self.hunks[before..])
    }

    /// Every hunk completed so far.
    pub fn hunks(&self) -> &[Hunk] {
        &self.hunks
    }

    /// The hunk being read, not yet complete (for previews).
    pub fn pending(&self) -> Option<&Hunk> {
        self.current.as_ref()
    }

    /// The completed hunks, by value.
    pub fn into_hunks(self) -> Vec<Hunk> {
        self.hunks
    }

    /// Lines read so far (the 1-based number of the last complete line).
    pub fn lines_read(&self) -> usize {
        self.line_no
    }

    fn check_usable(&self) -> Result<()> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.finished {
            return Err(Error::new(
                ErrorKind::AlreadyFinished,
                "this patch parser has already finished; create a new one",
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

    fn invalid_patch(&self, message: &str) -> Error {
        Error::new(
            ErrorKind::InvalidPatch,
            format!("invalid patch at line {}: {message}", self.line_no),
        )
    }

    fn invalid_hunk(&self, line_no: usize, message: String) -> Error {
        Error::new(
            ErrorKind::InvalidPatchHunk,
            format!("invalid hunk at line {line_no}, {message}"),
        )
    }

    fn check_end(&self) -> Result<()> {
        if self.state != State::Ended {
            return Err(self.invalid_patch("The last line of the patch must be '*** End Patch'"));
        }
        if self.heredoc == Heredoc::Open {
            return Err(self.invalid_patch("the heredoc opened before '*** Begin Patch' is not closed by a line ending in 'EOF'"));
        }
        Ok(())
    }

    /// Reads one line (no `\n`, no trailing `\r`).
    fn line(&mut self, line: &str) -> Result<()> {
        self.line_no += 1;
        let trimmed = line.trim();
        match self.state {
            State::NotStarted => {
                if trimmed == BEGIN_PATCH {
                    self.state = State::Started;
                } else if trimmed.is_empty() {
                } else if self.heredoc == Heredoc::None && is_heredoc_open(trimmed) {
                    self.heredoc = Heredoc::Open;
                } else {
                    return Err(
                        self.invalid_patch("The first line of the patch must be '*** Begin Patch'")
                    );
                }
                Ok(())
            }
            State::Started => match marker(trimmed) {
                Some(m) => self.on_marker(m, trimmed),
                None => Err(self.not_a_header(trimmed)),
            },
            State::InHunk => self.hunk_line(line, trimmed),
            State::Ended => {
                if trimmed.is_empty() {
                    Ok(())
                } else if self.heredoc == Heredoc::Open && is_heredoc_close(trimmed) {
                    self.heredoc = Heredoc::Closed;
                    Ok(())
                } else {
                    Err(self.invalid_patch("The last line of the patch must be '*** End Patch'"))
                }
            }
        }
    }

    fn not_a_header(&self, trimmed: &str) -> Error {
        self.invalid_hunk(
            self.line_no,
            format!("'{trimmed}' is not a valid hunk header. {VALID_HEADERS}"),
        )
    }

    fn hunk_line(&mut self, line: &str, trimmed: &str) -> Result<()> {
        match self.current {
            Some(Hunk::Add { .. }) => {
                if let Some(m) = marker(trimmed) {
                    return self.on_marker(m, trimmed);
                }
                match (line.strip_prefix('+'), &mut self.current) {
                    (Some(text), Some(Hunk::Add { contents, .. })) => {
                        contents.push_str(text);
                        contents.push('\n');
                        Ok(())
                    }
                    _ => Err(self.not_a_header(trimmed)),
                }
            }
            Some(Hunk::Update { .. }) => self.update_line(line, trimmed),
            _ => match marker(trimmed) {
                Some(m) => self.on_marker(m, trimmed),
                None => Err(self.not_a_header(trimmed)),
            },
        }
    }

    fn update_line(&mut self, line: &str, trimmed: &str) -> Result<()> {
        let update_line = line.trim_end();
        // A leading space starts a context line, so only the trailing side is trimmed here —
        // except for `*** End Patch`, which Codex accepts padded as the patch's last line.
        if let Some(m) = marker(update_line) {
            return self.on_marker(m, trimmed);
        }
        if trimmed == super::lenient::END_PATCH {
            return self.on_marker(Marker::EndPatch, trimmed);
        }
        let line_no = self.line_no;
        let Some(Hunk::Update {
            move_to, chunks, ..
        }) = &mut self.current
        else {
            return Ok(());
        };
        let header = chunk_header(update_line);
        let last_is_empty = chunks.last().is_some_and(|c| c.lines.is_empty());
        if chunks.last().is_some_and(|c| c.end_of_file) {
            if update_line.is_empty() {
                return Ok(());
            }
            if header.is_none() {
                return Err(self.invalid_hunk(
                    line_no,
                    format!(
                        "Expected update hunk to start with a @@ context marker, got: '{line}'"
                    ),
                ));
            }
        }
        if chunks.is_empty()
            && move_to.is_none()
            && let Some(dest) = update_line.strip_prefix(MOVE_TO)
        {
            *move_to = Some(dest.to_string());
            return Ok(());
        }
        if let Some(context) = header {
            if last_is_empty {
                return Err(self.unexpected_line(line_no, line));
            }
            chunks.push(UpdateChunk {
                context: context.map(str::to_string),
                ..UpdateChunk::default()
            });
            return Ok(());
        }
        if update_line == END_OF_FILE {
            if last_is_empty {
                return Err(self.invalid_hunk(
                    line_no,
                    "Update hunk does not contain any lines".to_string(),
                ));
            }
            if let Some(chunk) = chunks.last_mut() {
                chunk.end_of_file = true;
            }
            return Ok(());
        }
        let (kind, text) = match line.as_bytes().first() {
            None => (LineKind::Context, ""),
            Some(b' ') => (LineKind::Context, &line[1..]),
            Some(b'+') => (LineKind::Add, &line[1..]),
            Some(b'-') => (LineKind::Remove, &line[1..]),
            Some(_) => {
                let message = if chunks.last().is_some_and(|c| !c.lines.is_empty()) {
                    format!("Expected update hunk to start with a @@ context marker, got: '{line}'")
                } else {
                    return Err(self.unexpected_line(line_no, line));
                };
                return Err(self.invalid_hunk(line_no, message));
            }
        };
        if chunks.is_empty() {
            chunks.push(UpdateChunk::default());
        }
        if let Some(chunk) = chunks.last_mut() {
            chunk.lines.push(PatchLine {
                kind,
                text: text.to_string(),
            });
        }
        Ok(())
    }

    fn unexpected_line(&self, line_no: usize, line: &str) -> Error {
        self.invalid_hunk(
            line_no,
            format!(
                "Unexpected line found in update hunk: '{line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)"
            ),
        )
    }

    /// A hunk marker or `*** End Patch`: completes the current hunk and starts the next.
    fn on_marker(&mut self, m: Marker<'_>, trimmed: &str) -> Result<()> {
        self.complete_current(trimmed)?;
        let line = self.line_no;
        self.current = match m {
            Marker::EndPatch => {
                self.state = State::Ended;
                return Ok(());
            }
            Marker::Add(path) => Some(Hunk::Add {
                path: path.to_string(),
                contents: String::new(),
                line,
            }),
            Marker::Delete(path) => Some(Hunk::Delete {
                path: path.to_string(),
                line,
            }),
            Marker::Update(path) => Some(Hunk::Update {
                path: path.to_string(),
                move_to: None,
                chunks: Vec::new(),
                line,
            }),
        };
        self.state = State::InHunk;
        Ok(())
    }

    fn complete_current(&mut self, trimmed: &str) -> Result<()> {
        if let Some(Hunk::Update {
            path, chunks, line, ..
        }) = &self.current
        {
            if chunks.is_empty() {
                return Err(self.invalid_hunk(
                    *line,
                    format!("Update file hunk for path '{path}' is empty"),
                ));
            }
            if chunks.last().is_some_and(|c| c.lines.is_empty()) {
                if trimmed == super::lenient::END_PATCH {
                    return Err(self.invalid_hunk(
                        self.line_no,
                        "Update hunk does not contain any lines".to_string(),
                    ));
                }
                return Err(self.unexpected_line(self.line_no, trimmed));
            }
        }
        if let Some(h) = self.current.take() {
            self.hunks.push(h);
        }
        Ok(())
    }
}

fn strip_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patch::parse_patch;

    fn err(text: &str) -> Error {
        parse_patch(text).unwrap_err()
    }

    #[test]
    fn parses_every_hunk_kind() {
        let p = parse_patch(
            "*** Begin Patch\n*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123\n*** End Patch",
        )
        .unwrap();
        assert_eq!(p.hunks.len(), 3);
        assert_eq!(
            p.hunks[0],
            Hunk::Add {
                path: "path/add.py".into(),
                contents: "abc\ndef\n".into(),
                line: 2
            }
        );
        let Hunk::Update {
            move_to, chunks, ..
        } = &p.hunks[2]
        else {
            panic!()
        };
        assert_eq!(move_to.as_deref(), Some("path/update2.py"));
        assert_eq!(chunks[0].context.as_deref(), Some("def f():"));
        assert_eq!(chunks[0].old_lines().collect::<Vec<_>>(), ["    pass"]);
        assert_eq!(
            chunks[0].new_lines().collect::<Vec<_>>(),
            ["    return 123"]
        );
    }

    #[test]
    fn first_chunk_without_header_and_empty_context_line() {
        let p = parse_patch(
            "*** Begin Patch\n*** Update File: f\n import foo\n\n+bar\n*** End Patch\n",
        )
        .unwrap();
        let Hunk::Update { chunks, .. } = &p.hunks[0] else {
            panic!()
        };
        assert_eq!(chunks.len(), 1);
        assert_eq!(
            chunks[0].old_lines().collect::<Vec<_>>(),
            ["import foo", ""]
        );
        assert_eq!(
            chunks[0].new_lines().collect::<Vec<_>>(),
            ["import foo", "", "bar"]
        );
    }

    #[test]
    fn lenient_markers_crlf_and_heredoc() {
        let p = parse_patch(
            " *** Begin Patch \r\n  *** Update File: a\r\n@@\r\n-x\r\n+y\r\n *** End Patch",
        )
        .unwrap();
        assert_eq!(p.hunks.len(), 1);
        let p = parse_patch("<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n")
            .unwrap();
        assert_eq!(p.hunks[0].path(), "a");
        assert_eq!(
            err("<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\n").code(),
            "invalid_patch"
        );
    }

    #[test]
    fn errors_have_codes_and_lines() {
        let e = err("bad");
        assert_eq!(e.code(), "invalid_patch");
        assert!(e.message().contains("must be '*** Begin Patch'"), "{e}");
        let e = err("*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch\n");
        assert_eq!(e.code(), "invalid_patch_hunk");
        assert!(
            e.message().starts_with(
                "invalid hunk at line 2, '*** Frobnicate File: foo' is not a valid hunk header"
            ),
            "{e}"
        );
        let e = err("*** Begin Patch\n*** Update File: test.py\n*** End Patch");
        assert_eq!(
            e.message(),
            "invalid hunk at line 2, Update file hunk for path 'test.py' is empty"
        );
        let e = err("*** Begin Patch\n*** Update File: a\n@@\n@@\n-x\n*** End Patch");
        assert!(e.message().contains("line 4, Unexpected line"), "{e}");
        let e =
            err("*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End of File\n-y\n*** End Patch");
        assert!(
            e.message()
                .contains("line 6, Expected update hunk to start with a @@"),
            "{e}"
        );
        let e = err("*** Begin Patch\n*** Add File: a\n+x\n");
        assert_eq!(e.code(), "invalid_patch");
        let e = err("*** Begin Patch\n*** End Patch\ntrailing\n");
        assert_eq!(e.code(), "invalid_patch");
    }

    #[test]
    fn errors_are_sticky_and_finish_is_idempotent() {
        let mut p = PatchParser::new();
        assert!(p.push("nope\n").is_err());
        assert!(p.push("*** Begin Patch\n").is_err());
        assert!(p.finish().is_err());
        let mut p = PatchParser::new();
        p.push("*** Begin Patch\n*** Delete File: a\n*** End Patch")
            .unwrap();
        assert_eq!(p.finish().unwrap().len(), 1);
        assert!(p.finish().unwrap().is_empty());
        assert_eq!(p.push("x").unwrap_err().code(), "already_finished");
    }

    #[test]
    fn bare_bodies_read_as_inside_the_envelope() {
        use crate::patch::parse_body;
        use crate::patch::v4a::V4aMode;
        let p = parse_body("a.py", "@@ def f():\n-x\n+y", V4aMode::Default).unwrap();
        let Hunk::Update { path, chunks, .. } = &p.hunks[0] else {
            panic!()
        };
        assert_eq!((path.as_str(), chunks.len()), ("a.py", 1));
        // The body's own `*** End Patch` closes the envelope; text after it does not.
        assert!(parse_body("a", "-x\n+y\n*** End Patch\n", V4aMode::Default).is_ok());
        let e = parse_body("a", "-x\n*** End Patch\nmore\n", V4aMode::Default).unwrap_err();
        assert_eq!(e.code(), "invalid_patch");
        // Line numbers count the body's lines.
        let e = parse_body("a", "@@\n-x\n\tbad\n", V4aMode::Default).unwrap_err();
        assert!(e.message().starts_with("invalid hunk at line 3, "), "{e}");
        let e = parse_body("a", "", V4aMode::Default).unwrap_err();
        assert_eq!(
            e.message(),
            "invalid hunk at line 1, Update file hunk for path 'a' is empty"
        );
        let p = parse_body("n.txt", "+one\n+two\n", V4aMode::Create).unwrap();
        assert_eq!(
            p.hunks,
            [Hunk::Add {
                path: "n.txt".into(),
                contents: "one\ntwo\n".into(),
                line: 1
            }]
        );
    }

    #[test]
    fn pending_shows_the_hunk_being_read() {
        let mut p = PatchParser::new();
        p.push("*** Begin Patch\n*** Add File: a\n+x\n+y").unwrap();
        assert_eq!(p.pending().map(Hunk::path), Some("a"));
        assert_eq!(p.lines_read(), 3);
    }
}

//! The native reading of `apply_patch`: the V4A bodies and `*** Begin Patch` patches GPT models
//! send, applied as the model meant them, or refused — never applied in a wrong place.
//!
//! The exact readings ([`v4a`](super::v4a) as the OpenAI Agents SDK, the Codex dialect as Codex)
//! place each section at the first match at or after the previous one, so a section meant for a
//! later copy lands on an earlier one, an out-of-order section fails, and a section whose lines
//! drifted in indentation writes its `+` lines as they are. This reading instead:
//!
//! - **reads** what models write around a body: code fences, the envelope's lines, `---`/`+++`
//!   headers, unified `@@ -a,b +c,d @@` headers, lines that lost their prefix, blank lines at
//!   the edges, `\ No newline at end of file`;
//! - **places** each section by its context and `-` lines in the whole file, through the
//!   `native` dialect's cascade (exact, line endings, trailing whitespace, indentation,
//!   punctuation, ...), independently of the other sections and of their order: one place, or
//!   the section's own `@@` anchors or `*** End of File` choose exactly one, or it is refused
//!   naming the candidates;
//! - **writes** the context lines as the file has them, the `+` lines re-indented the way the
//!   context was matched, with the file's line endings; lines the patch does not touch keep
//!   their bytes, and the file keeps its final-newline state;
//! - takes a section whose new lines are already there, and whose old lines are not, as
//!   **already applied** (a retried call): nothing changes;
//! - applies **all sections or none**; sections that overlap are refused.
//!
//! [`apply_body`] applies one body (what the Responses-API `apply_patch` tool sends per file);
//! [`PatchDialect::Native`](super::PatchDialect::Native) plans whole `*** Begin Patch` patches
//! this way (each `*** Update File:` body as by `apply_body`, `*** Add File:` refused over an
//! existing file with other content, `*** Delete File:` and `*** Move to:` over existing files
//! only), and bare bodies for one path.

mod envelope;
mod place;
mod read;
mod shown;

pub use place::{ChosenBy, ChunkReport};

use crate::error::{Error, ErrorKind, Result};
use crate::patch::v4a::V4aMode;
use crate::patch::{ChangeKind, FileChange, FileSource, HunkFailure, Plan};
use crate::policy::Policy;
use crate::text::StreamedLines;

pub(crate) use envelope::plan;

/// A body applied by the native reading.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NativeOutcome {
    /// The whole new text.
    pub new_content: String,
    /// How each section that changes something was placed, in body order.
    pub chunks: Vec<ChunkReport>,
}

/// Applies the V4A body `body` to `input` (the file's text) in `mode`, the native way (see the
/// [module docs](self)). In [`V4aMode::Create`] the body's `+` lines are the new file, ending
/// with a line ending.
///
/// Errors: `invalid_patch_hunk` for a line that cannot be read for certain,
/// `patch_context_not_found` for a section found nowhere, `ambiguous_match` for one found in
/// several places that nothing in the patch chooses between, `overlapping_blocks` for sections
/// that change the same lines; each message names the section and what to change.
///
/// ```
/// use hunkloom::patch::native::apply_body;
/// use hunkloom::patch::v4a::V4aMode;
///
/// let file = "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 1\n";
/// // The same lines are in both classes: the anchor chooses.
/// let body = "@@ class B:\n     def f(self):\n-        return 1\n+        return 2\n";
/// let out = apply_body(file, body, V4aMode::Default)?;
/// assert!(out.new_content.ends_with("class B:\n    def f(self):\n        return 2\n"));
/// // Without it, nothing is guessed.
/// let e = apply_body(file, "     def f(self):\n-        return 1\n+        return 2\n", V4aMode::Default).unwrap_err();
/// assert_eq!(e.code(), "ambiguous_match");
/// # Ok::<(), hunkloom::Error>(())
/// ```
pub fn apply_body(input: &str, body: &str, mode: V4aMode) -> Result<NativeOutcome> {
    crate::memory::reserve(
        crate::memory::WORKING_COPIES.saturating_mul(input.len() + body.len()),
        "applying the patch",
    )?;
    let mut applier = NativeBodyApplier::new(input, mode);
    applier.push(body)?;
    applier.finish()
}

/// [`apply_body`] while the body streams: each section is placed once the line after it has
/// arrived (a section's last line could still be followed by more of it), and
/// [`preview`](Self::preview) shows the file with the sections placed so far. Any chunking of
/// a body gives [`apply_body`]'s result; a push costs the lines it completes, plus the
/// placement of the sections they complete.
///
/// ```
/// use hunkloom::patch::native::NativeBodyApplier;
/// use hunkloom::patch::v4a::V4aMode;
///
/// let mut applier = NativeBodyApplier::new("a\nb\nc\n", V4aMode::Default);
/// applier.push("-a\n+A\n@@\n")?; // the `@@` line ends the first section: it is placed
/// assert_eq!(applier.preview(), "A\nb\nc\n");
/// applier.push("-c\n+C")?;
/// assert_eq!(applier.finish()?.new_content, "A\nb\nC\n");
/// # Ok::<(), hunkloom::Error>(())
/// ```
#[derive(Debug)]
pub struct NativeBodyApplier<'a> {
    file: place::Input<'a>,
    mode: V4aMode,
    reader: read::BodyReader,
    /// The incomplete last line of the body.
    lines: StreamedLines,
    /// Create mode: the body so far (its lines are the file, read at the end), and how many
    /// of its lines are complete.
    created: String,
    created_lines: usize,
    /// Sections read so far.
    sections: usize,
    /// Whether a section read so far changes anything.
    changes: bool,
    placed: Vec<place::Placed>,
    /// The reports of `placed`, in body order.
    reports: Vec<ChunkReport>,
    /// What [`preview_update`](Self::preview_update) last showed.
    shown: shown::Shown,
    /// The first failure; every later call gives it again.
    error: Option<Error>,
    finished: bool,
}

impl<'a> NativeBodyApplier<'a> {
    /// An applier of a body to `input` (the file's text) in `mode`.
    pub fn new(input: impl Into<std::borrow::Cow<'a, str>>, mode: V4aMode) -> Self {
        NativeBodyApplier {
            file: place::Input::new(input),
            mode,
            reader: read::BodyReader::default(),
            lines: StreamedLines::default(),
            created: String::new(),
            created_lines: 0,
            sections: 0,
            changes: false,
            placed: Vec::new(),
            reports: Vec::new(),
            shown: shown::Shown::default(),
            error: None,
            finished: false,
        }
    }

    /// Takes the next piece of the body; the reports of the sections placed so far.
    ///
    /// Errors: the first failure (as [`apply_body`]'s), then again on every call;
    /// `already_finished` after [`finish`](Self::finish).
    pub fn push(&mut self, piece: &str) -> Result<&[ChunkReport]> {
        self.usable()?;
        if self.mode == V4aMode::Create {
            self.created.push_str(piece);
            self.created_lines += memchr::memchr_iter(b'\n', piece.as_bytes()).count();
            return Ok(&self.reports);
        }
        let mut lines = std::mem::take(&mut self.lines);
        let read = lines.try_push(piece, |line| self.line(line));
        self.lines = lines;
        if let Err(e) = read {
            self.error = Some(e.clone());
            return Err(e);
        }
        Ok(&self.reports)
    }

    /// The reports of the sections placed so far, in body order.
    pub fn chunks(&self) -> &[ChunkReport] {
        &self.reports
    }

    /// The file with the sections placed so far applied (in create mode, the new file's lines
    /// so far). Never fails: after a failure it shows what was placed before it.
    pub fn preview(&self) -> String {
        if self.mode == V4aMode::Create {
            let complete = match self.created.rfind('\n') {
                Some(i) => &self.created[..=i],
                None => "",
            };
            return read::read_create(complete)
                .map(|(lines, eol)| lines.iter().map(|l| format!("{l}{eol}")).collect())
                .unwrap_or_default();
        }
        splice(&self.file.text, &self.placed, false).unwrap_or_else(|_| self.file.text.to_string())
    }

    /// How [`preview`](Self::preview) changed since the last call (the first call: since the
    /// applier was made), as one splice: a section placed in between replaces the lines it
    /// covers, measured from the sections before it, not the file. (Several sections placed
    /// between two calls, sections that overlap, and a created file's lines are the whole
    /// text.)
    ///
    /// ```
    /// use hunkloom::patch::native::NativeBodyApplier;
    /// use hunkloom::patch::v4a::V4aMode;
    ///
    /// let mut shown = "a\nb\nc\n".to_owned();
    /// let mut applier = NativeBodyApplier::new(shown.clone(), V4aMode::Default);
    /// applier.push("-b\n+B\n@@\n")?;
    /// let update = applier.preview_update();
    /// assert_eq!((update.start.bytes, update.removed.bytes, &*update.inserted), (2, 2, "B\n"));
    /// update.apply_to(&mut shown);
    /// assert_eq!(shown, applier.preview());
    /// # Ok::<(), hunkloom::Error>(())
    /// ```
    pub fn preview_update(&mut self) -> crate::report::Update<'static> {
        if self.finished {
            return crate::report::Update::default();
        }
        if self.mode == V4aMode::Create {
            // A created file's lines are read as a whole (fences, prefixes): shown anew when
            // another is complete.
            let lines = self.created_lines;
            if self.shown.shows_created(lines) {
                return crate::report::Update::default();
            }
            let text = self.preview();
            return self.shown.replace_created(lines, text);
        }
        let (file, placed) = (&self.file, &self.placed);
        self.shown.update(file, placed, || {
            splice(&file.text, placed, false).unwrap_or_else(|_| file.text.to_string())
        })
    }

    /// Ends the body: the new text and a report per section that changes something, or the
    /// refusal (the first failure).
    pub fn finish(&mut self) -> Result<NativeOutcome> {
        self.usable()?;
        self.finished = true;
        if self.mode == V4aMode::Create {
            let (lines, eol) = read::read_create(&self.created)?;
            let mut new_content = String::new();
            for line in &lines {
                new_content.push_str(line);
                new_content.push_str(eol);
            }
            return Ok(NativeOutcome {
                new_content,
                chunks: Vec::new(),
            });
        }
        let result = self.finish_body();
        if let Err(e) = &result {
            self.error = Some(e.clone());
        }
        result
    }

    fn finish_body(&mut self) -> Result<NativeOutcome> {
        let last = self.lines.take_partial();
        if !last.is_empty() {
            self.line(&last)?;
        }
        if let Some(section) = self.reader.finish()? {
            self.section(&section)?;
        }
        if !self.changes {
            return Err(Error::new(
                ErrorKind::EmptyPatch,
                "the patch changes nothing: it has no `-` or `+` lines (a changed line is a `-` \
                 line with the old text and a `+` line with the new)",
            ));
        }
        let new_content = splice(&self.file.text, &self.placed, true)?;
        Ok(NativeOutcome {
            new_content,
            chunks: std::mem::take(&mut self.reports),
        })
    }

    fn usable(&self) -> Result<()> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.finished {
            return Err(Error::new(
                ErrorKind::AlreadyFinished,
                "the native applier has finished; make a new one",
            ));
        }
        Ok(())
    }

    /// One complete line of the body (`\r` before its end dropped).
    fn line(&mut self, line: &str) -> Result<()> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(section) = self.reader.line(line)? {
            self.section(&section)?;
        }
        Ok(())
    }

    /// A complete section: placed, or (without changes) checked against the file.
    fn section(&mut self, section: &read::Section) -> Result<()> {
        let k = self.sections;
        self.sections += 1;
        if section.changes() {
            self.changes = true;
            let placed = place::place(&self.file, section, k)?;
            self.reports.push(placed.report.clone());
            self.placed.push(placed);
        } else {
            // A section of context lines changes nothing, but says what the file holds: one
            // the file does not hold means the patch was written against other text.
            place::check_context(&self.file, section, k)?;
        }
        Ok(())
    }
}

/// `input` with the placed sections spliced in; with `strict`, sections that touch the same
/// lines are refused (without it, the later of two is left out, for a preview).
fn splice(input: &str, placed: &[place::Placed], strict: bool) -> Result<String> {
    let mut order: Vec<usize> = (0..placed.len()).collect();
    order.sort_by_key(|&i| (placed[i].start, placed[i].end, i));
    let mut out = String::with_capacity(input.len() + 64);
    let mut at = 0;
    let mut last: Option<&place::Placed> = None;
    for &i in &order {
        let p = &placed[i];
        if let Some(a) = last {
            let touches = p.start < a.end || (p.start == a.start && a.start < a.end);
            if touches && strict {
                return Err(Error::new(
                    ErrorKind::OverlappingBlocks,
                    format!(
                        "chunks {} and {} change the same lines of the file (from line {}); \
                         merge them into one chunk",
                        a.report.index.min(p.report.index),
                        a.report.index.max(p.report.index),
                        a.report.line.max(p.report.line)
                    ),
                ));
            }
            if touches {
                continue;
            }
        }
        out.push_str(&input[at..p.start]);
        out.push_str(&p.text);
        at = p.end;
        last = Some(p);
    }
    out.push_str(&input[at..]);
    Ok(out)
}

/// Plans a bare body for the one file `path` in the native reading: an update of the file
/// (which must exist), or in [`V4aMode::Create`] a new file (refused over an existing file
/// with other content).
pub(crate) fn plan_body<S: FileSource + ?Sized>(
    path: &str,
    body: &str,
    mode: V4aMode,
    files: &S,
    policy: Policy,
) -> Result<Plan> {
    let planned = (|| {
        let old = files.read(path)?;
        let content = apply_body(old.as_deref().unwrap_or_default(), body, mode)?;
        let kind = match (mode, old) {
            (V4aMode::Create, Some(old)) if *old != content.new_content => {
                return Err(Error::new(
                    ErrorKind::PatchFileExists,
                    format!(
                        "{path} exists: create_file would replace its content; update it instead"
                    ),
                ));
            }
            (V4aMode::Create, _) => ChangeKind::Add {
                content: content.new_content,
            },
            (V4aMode::Default, None) => {
                return Err(Error::new(
                    ErrorKind::PatchFileNotFound,
                    format!("{path} does not exist: check the path, or create it"),
                ));
            }
            (V4aMode::Default, Some(_)) => ChangeKind::Update {
                start_lines: content.chunks.iter().map(|c| c.line).collect(),
                new_content: content.new_content,
                move_to: None,
            },
        };
        Ok(FileChange {
            path: path.to_owned(),
            kind,
        })
    })();
    match planned {
        Ok(change) => Ok(Plan {
            changes: vec![change],
            ..Plan::default()
        }),
        Err(error) if policy == Policy::Partial => Ok(Plan {
            failure: Some(HunkFailure { hunk: 0, error }),
            ..Plan::default()
        }),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(input: &str, body: &str) -> std::result::Result<String, String> {
        apply_body(input, body, V4aMode::Default)
            .map(|o| o.new_content)
            .map_err(|e| format!("{}: {}", e.code(), e.message()))
    }

    #[test]
    fn sections_go_where_their_lines_are_whatever_their_order() {
        let file = "a\nb\nc\nd\n";
        assert_eq!(
            apply(file, " c\n-d\n+D\n@@\n-a\n+A\n").unwrap(),
            "A\nb\nc\nD\n"
        );
    }

    #[test]
    fn a_later_copy_is_never_taken_for_the_first() {
        let file = "x\ny\nz\nx\ny\n";
        let e = apply(file, " x\n-y\n+Y\n").unwrap_err();
        assert!(
            e.starts_with("ambiguous_match: chunk 1 (line 1 of the patch)"),
            "{e}"
        );
        assert!(e.contains("at lines 1 and 4"), "{e}");
        assert_eq!(
            apply(file, "@@ z\n x\n-y\n+Y\n").unwrap(),
            "x\ny\nz\nx\nY\n"
        );
        assert_eq!(
            apply(file, " x\n-y\n+Y\n*** End of File\n").unwrap(),
            "x\ny\nz\nx\nY\n"
        );
    }

    #[test]
    fn added_lines_that_elide_removed_code_are_refused() {
        let file = "fn a() {\n    one();\n    two();\n    three();\n    four();\n}\n";
        let body = " fn a() {\n-    one();\n-    two();\n-    three();\n-    four();\n\
                    +    zero();\n+    // ... existing code ...\n }\n";
        let e = apply(file, body).unwrap_err();
        assert!(
            e.starts_with("omission_placeholder: section 1: an added line contains"),
            "{e}"
        );
        assert!(e.contains("`// ... existing code ...`"), "{e}");
        // The same placeholder kept as context (the file has it) is content, and an added one
        // that elides nothing (every removed line is still there) is allowed too.
        let file = "a\n// ... existing code ...\nb\n";
        assert_eq!(
            apply(file, " // ... existing code ...\n-b\n+c\n").unwrap(),
            "a\n// ... existing code ...\nc\n"
        );
        assert_eq!(
            apply("a\nb\n", " a\n+// ... existing code ...\n b\n").unwrap(),
            "a\n// ... existing code ...\nb\n"
        );
    }

    #[test]
    fn added_lines_follow_the_indentation_the_context_was_found_at() {
        let file = "items:\n      - a\n      - b\n";
        let out = apply(file, "   - a\n+  - c\n   - b\n").unwrap();
        assert_eq!(out, "items:\n      - a\n      - c\n      - b\n");
    }

    #[test]
    fn line_endings_and_the_final_newline_are_the_files() {
        assert_eq!(apply("a\r\nb\r\n", " a\n+c\n").unwrap(), "a\r\nc\r\nb\r\n");
        assert_eq!(apply("a\nb", "-b\n+c\n").unwrap(), "a\nc");
        assert_eq!(apply("a\nb", " b\n+c\n").unwrap(), "a\nb\nc");
        assert_eq!(
            apply("a\nb", "@@\n+c\n*** End of File\n").unwrap(),
            "a\nb\nc"
        );
        assert_eq!(
            apply("a\nb\n", "@@\n+c\n*** End of File\n").unwrap(),
            "a\nb\nc\n"
        );
    }

    #[test]
    fn retried_sections_change_nothing_and_overlaps_are_refused() {
        let out = apply_body("a\nB\nc\n", " a\n-b\n+B\n c\n", V4aMode::Default).unwrap();
        assert_eq!(out.new_content, "a\nB\nc\n");
        assert!(out.chunks[0].already_applied);
        let e = apply("a\nb\nc\n", " a\n-b\n+B\n@@\n-b\n+X\n").unwrap_err();
        assert!(e.starts_with("overlapping_blocks: chunks 1 and 2"), "{e}");
        let e = apply("a\nb\n", " q\n-b\n+B\n").unwrap_err();
        assert!(e.starts_with("patch_context_not_found: chunk 1"), "{e}");
    }

    #[test]
    fn every_chunking_gives_the_one_shot_result_and_errors_stick() {
        let file = "class A:\n    x = 1\n\nclass B:\n    x = 1\n";
        let body = "```diff\n@@ class B:\n-    x = 1\n+    x = 2\n@@\n class A:\n+    y = 0\n```\n";
        let whole = apply_body(file, body, V4aMode::Default).unwrap();
        for size in 1..body.len() {
            let mut applier = NativeBodyApplier::new(file, V4aMode::Default);
            let mut previews = Vec::new();
            for piece in body.as_bytes().chunks(size) {
                applier.push(std::str::from_utf8(piece).unwrap()).unwrap();
                previews.push(applier.preview());
            }
            assert_eq!(applier.finish().unwrap(), whole, "pieces of {size}");
            // The first section is shown once the line after it arrived.
            assert!(
                previews
                    .iter()
                    .any(|p| p.ends_with("class B:\n    x = 2\n") && !p.contains("y = 0"))
            );
        }
        let mut applier = NativeBodyApplier::new(file, V4aMode::Default);
        assert!(applier.push("-nope\n+x\n@@\n").is_err());
        assert_eq!(
            applier.push("x").unwrap_err().code(),
            "patch_context_not_found"
        );
        assert_eq!(
            applier.finish().unwrap_err().code(),
            "patch_context_not_found"
        );
        assert_eq!(applier.preview(), file);
    }

    #[test]
    fn create_mode_writes_the_lines_with_a_final_newline() {
        let out = apply_body("ignored", "+x\n+y", V4aMode::Create).unwrap();
        assert_eq!(out.new_content, "x\ny\n");
    }
}

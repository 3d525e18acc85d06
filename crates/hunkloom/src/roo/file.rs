//! The file as Roo's loop holds it — `original.split(/\r?\n/)`, then each applied block's lines
//! spliced in — kept as runs of the original's lines and runs of the lines blocks wrote.
//!
//! Roo splits the whole file into an array and joins it back with the file's line ending. Held
//! as runs, a block reads and writes only the lines it touches, and the final join copies each
//! run of untouched lines as one slice of the original when its line endings are all the one
//! Roo joins with (the usual case; a file that mixes `\r\n` and `\n` is rejoined line by line,
//! as Roo rewrites its `\n` lines).

use std::ops::Range;

use crate::search::line_starts::LineCheckpoints;

/// A run of lines.
#[derive(Clone, Debug)]
enum Run {
    /// Lines of the original, by index.
    Original(Range<usize>),
    /// Lines a block wrote.
    Written(Vec<String>),
}

impl Run {
    fn len(&self) -> usize {
        match self {
            Run::Original(r) => r.len(),
            Run::Written(lines) => lines.len(),
        }
    }

    /// The lines `range` of this run (indices relative to the run).
    fn slice(&self, range: Range<usize>) -> Run {
        match self {
            Run::Original(r) => Run::Original(r.start + range.start..r.start + range.end),
            Run::Written(lines) => Run::Written(lines[range].to_vec()),
        }
    }
}

/// A byte offset in the original and its 1-based line.
#[derive(Clone, Copy, Debug)]
pub(super) struct Boundary {
    pub(super) byte: usize,
    pub(super) line: usize,
}

/// The file's lines as runs (see the [module docs](self)).
pub(super) struct File<'a> {
    original: &'a str,
    /// Where the original's lines start (a block reads a few of them).
    lines_of_original: LineCheckpoints,
    runs: Vec<Run>,
    len: usize,
    /// The ending Roo joins lines with: `\r\n` if the original has one, else `\n`.
    eol: &'static str,
    /// Whether every line break of the original is `eol`, so a run of its lines joined with
    /// `eol` is the slice of the original they span.
    uniform: bool,
}

impl<'a> File<'a> {
    /// `original` split on `\r?\n`.
    pub(super) fn new(original: &'a str) -> Self {
        let lines_of_original = LineCheckpoints::new(original.as_bytes());
        let len = lines_of_original.newlines() + 1;
        let crlf = memchr::memmem::find_iter(original.as_bytes(), b"\r\n").count();
        let (eol, uniform) = if crlf == 0 {
            ("\n", true)
        } else {
            ("\r\n", crlf == len - 1)
        };
        File {
            original,
            lines_of_original,
            runs: vec![Run::Original(0..len)],
            len,
            eol,
            uniform,
        }
    }

    /// The number of lines.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Where original line `k` starts.
    fn original_start(&self, k: usize) -> usize {
        self.lines_of_original.start_of(self.original.as_bytes(), k)
    }

    /// Original line `k` and the ones after it, each without its `\r?\n`.
    fn original_lines(&self, k: usize) -> impl Iterator<Item = &'a str> + use<'a> {
        let original = self.original;
        let mut at = Some(self.original_start(k));
        std::iter::from_fn(move || {
            let start = at?;
            let rest = &original[start..];
            match memchr::memchr(b'\n', rest.as_bytes()) {
                Some(i) => {
                    at = Some(start + i + 1);
                    let line = &rest[..i];
                    Some(line.strip_suffix('\r').unwrap_or(line))
                }
                None => {
                    at = None;
                    Some(rest)
                }
            }
        })
    }

    /// Where original line `k`'s text ends (before its `\r?\n`).
    fn original_end(&self, k: usize) -> usize {
        let line = self.original_lines(k).next().unwrap_or("");
        line.as_ptr() as usize - self.original.as_ptr() as usize + line.len()
    }

    /// The lines `range`, in order.
    pub(super) fn lines(&self, range: Range<usize>) -> impl Iterator<Item = &str> + '_ {
        let mut at = 0;
        self.runs.iter().flat_map(move |run| {
            let (first, n) = (at, run.len());
            at += n;
            let from = range.start.clamp(first, first + n) - first;
            let to = range.end.clamp(first, first + n) - first;
            let lines: Box<dyn Iterator<Item = &str>> = match run {
                Run::Original(r) if from < to => {
                    Box::new(self.original_lines(r.start + from).take(to - from))
                }
                Run::Original(_) => Box::new(std::iter::empty()),
                Run::Written(lines) => Box::new(lines[from..to].iter().map(String::as_str)),
            };
            lines
        })
    }

    /// Line `i`, if there is one.
    pub(super) fn line(&self, i: usize) -> Option<&str> {
        self.lines(i..i + 1).next()
    }

    /// `lines.slice(start, end).join("\n")`.
    pub(super) fn chunk(&self, start: f64, end: f64) -> String {
        let (a, b) = super::jsnum::slice_range(self.len, start, end);
        let mut out = String::new();
        for (j, line) in self.lines(a..b).enumerate() {
            if j > 0 {
                out.push('\n');
            }
            out.push_str(line);
        }
        out
    }

    /// Where the boundary before line `b` is in the original: the start of the first line at or
    /// after it that is still the original's, or the original's end (on its last line).
    pub(super) fn original_boundary(&self, b: usize) -> Boundary {
        let mut at = 0;
        for run in &self.runs {
            let n = run.len();
            if let Run::Original(r) = run
                && b < at + n
            {
                let k = r.start + b.saturating_sub(at);
                return Boundary {
                    byte: self.original_start(k),
                    line: k + 1,
                };
            }
            at += n;
        }
        Boundary {
            byte: self.original.len(),
            line: self.lines_of_original.newlines() + 1,
        }
    }

    /// The runs of lines `range`.
    fn slice(&self, range: Range<usize>) -> Vec<Run> {
        let mut out = Vec::new();
        let mut at = 0;
        for run in &self.runs {
            let n = run.len();
            let from = range.start.clamp(at, at + n) - at;
            let to = range.end.clamp(at, at + n) - at;
            if from < to {
                out.push(run.slice(from..to));
            }
            at += n;
        }
        out
    }

    /// The file becomes `lines[..before_end]`, then `written`, then `lines[after_start..]` —
    /// Roo's `[...beforeMatch, ...replaced, ...afterMatch]`.
    pub(super) fn splice(&mut self, before_end: usize, written: Vec<String>, after_start: usize) {
        let mut runs = self.slice(0..before_end);
        let added = written.len();
        if added > 0 {
            runs.push(Run::Written(written));
        }
        runs.extend(self.slice(after_start..self.len));
        self.len = before_end + added + self.len.saturating_sub(after_start);
        self.runs = runs;
    }

    /// `lines.join(eol)`, with the original's line ending.
    pub(super) fn join(&self) -> String {
        let written: usize = self
            .runs
            .iter()
            .map(|run| match run {
                Run::Written(lines) => lines.iter().map(|l| l.len() + 2).sum(),
                Run::Original(_) => 0,
            })
            .sum();
        let mut out = String::with_capacity(self.original.len() + written);
        let mut first = true;
        let mut push = |out: &mut String, text: &str| {
            if !first {
                out.push_str(self.eol);
            }
            first = false;
            out.push_str(text);
        };
        for run in &self.runs {
            match run {
                Run::Original(r) if self.uniform && !r.is_empty() => {
                    let start = self.original_start(r.start);
                    push(
                        &mut out,
                        &self.original[start..self.original_end(r.end - 1)],
                    );
                }
                Run::Original(r) => self
                    .original_lines(r.start)
                    .take(r.len())
                    .for_each(|l| push(&mut out, l)),
                Run::Written(lines) => lines.iter().for_each(|l| push(&mut out, l)),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::js_split_lines;

    /// The same operations on a plain array, as Roo performs them.
    fn array_splice(lines: &mut Vec<String>, before_end: usize, written: &[&str], after: usize) {
        let mut out: Vec<String> = lines[..before_end].to_vec();
        out.extend(written.iter().map(|s| s.to_string()));
        out.extend(lines[after.min(lines.len())..].iter().cloned());
        *lines = out;
    }

    #[test]
    fn runs_read_and_join_as_the_array_does() {
        for original in [
            "",
            "a",
            "a\n",
            "a\nb\nc\nd\ne",
            "a\r\nb\r\nc\r\n",
            "a\r\nb\nc\r\nd",
            "\r\n\r\n",
            "x\ry\nz\r",
        ] {
            let eol = if original.contains("\r\n") {
                "\r\n"
            } else {
                "\n"
            };
            let mut file = File::new(original);
            let mut array: Vec<String> = js_split_lines(original)
                .into_iter()
                .map(str::to_owned)
                .collect();
            let steps: [(usize, &[&str], usize); 4] = [
                (1, &["X", "Y"], 2),
                (0, &[], 1),
                (2, &["Z"], 1),
                (3, &["W"], 9),
            ];
            for (before, written, after) in steps {
                assert_eq!(file.len(), array.len(), "{original:?}");
                for (i, line) in array.iter().enumerate() {
                    assert_eq!(
                        file.line(i),
                        Some(line.as_str()),
                        "line {i} of {original:?}"
                    );
                }
                assert_eq!(file.join(), array.join(eol), "{original:?}");
                assert_eq!(file.chunk(0.0, 99.0), array.join("\n"));
                let before = before.min(array.len());
                file.splice(
                    before,
                    written.iter().map(|s| s.to_string()).collect(),
                    after,
                );
                array_splice(&mut array, before, written, after);
            }
            assert_eq!(file.join(), array.join(eol), "{original:?}");
        }
    }

    #[test]
    fn boundaries_fall_on_the_next_original_line() {
        let mut file = File::new("a\nb\nc\n");
        assert_eq!(file.original_boundary(1).byte, 2);
        file.splice(1, vec!["B".into()], 2);
        let b = file.original_boundary(1);
        assert_eq!((b.byte, b.line), (4, 3));
        let end = file.original_boundary(4);
        assert_eq!((end.byte, end.line), (6, 4));
    }
}

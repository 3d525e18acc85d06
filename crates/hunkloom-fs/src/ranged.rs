//! Reading a window of a file's lines without holding the file: [`Workspace::read_lines`].
//!
//! A ranged view of a large file needs its line count and a few lines, not its text. The file
//! is read in 64 KiB pieces: each piece is hashed (the read is recorded, as
//! [`read`](Workspace::read) records it), checked to be UTF-8 across piece boundaries, its
//! line endings counted, and the bytes of the lines in the window kept (`\r\n` written `\n`).
//! Memory stays at one piece plus the window whatever the file's size. A file that is not
//! plain UTF-8 (a BOM, UTF-16, a legacy encoding) or small enough to keep for merging is read
//! whole instead, with the same result.

use std::io::Read;
use std::path::Path;

use hunkloom::Result;

use crate::errors;
use crate::reading;
use crate::tracking::Fingerprint;
use crate::workspace::Workspace;

/// Lines `first..=last` of a file's `\n` view, and how many lines it has.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineWindow {
    /// The lines asked for that exist, each with its `\n` (the last line of a file without a
    /// final newline has none); empty when `first` is past the last line.
    pub text: String,
    /// The file's lines: its `\n`s, plus one if it ends without one (0 for an empty file).
    pub lines: usize,
}

impl Workspace {
    /// Lines `first..=last` (1-based; `last` `None` for the end) of the file's `\n` view and its
    /// line count, recorded as a read like [`read`](Workspace::read). A large UTF-8 file is read
    /// in pieces, so the memory this takes is the window's, not the file's.
    ///
    /// Errors: those of [`read`](Workspace::read).
    pub fn read_lines(
        &self,
        path: impl AsRef<Path>,
        first: usize,
        last: Option<usize>,
    ) -> Result<LineWindow> {
        let given = path.as_ref();
        let resolved = self.resolve(given)?;
        let size = std::fs::metadata(&resolved).map_or(0, |m| m.len());
        if size <= self.options().max_kept_read {
            let text = self.read(given)?;
            return Ok(window_of(&text, first, last));
        }
        match stream_window(&resolved, given, self.options().max_file_size, first, last)? {
            Streamed::Utf8 {
                window,
                fingerprint,
            } => {
                self.record_read(&resolved, fingerprint);
                Ok(window)
            }
            Streamed::Missing => Err(self.not_found(given)),
            Streamed::NotUtf8 => {
                let text = self.read(given)?;
                Ok(window_of(&text, first, last))
            }
        }
    }
}

/// The window of a text held in memory, in its `\n` view. Lines are counted and found with
/// `memchr`, not listed: a 40-line view of a large file costs a pass over it, no more.
fn window_of(text: &str, first: usize, last: Option<usize>) -> LineWindow {
    let view = crate::document::normalize(text);
    let bytes = view.as_bytes();
    // The `\n`s, plus one for a last line without one.
    let lines = memchr::memchr_iter(b'\n', bytes).count()
        + usize::from(!view.is_empty() && !view.ends_with('\n'));
    let from = first.max(1) - 1;
    let to = last.map_or(lines, |l| l.min(lines)).max(from);
    if from >= lines {
        return LineWindow {
            text: String::new(),
            lines,
        };
    }
    // Line `i` starts after the `i`th `\n`; line `lines` at the end.
    let mut newlines = memchr::memchr_iter(b'\n', bytes);
    let start = match from {
        0 => 0,
        _ => newlines.nth(from - 1).map_or(view.len(), |i| i + 1),
    };
    let end = match to - from {
        0 => start,
        n => newlines.nth(n - 1).map_or(view.len(), |i| i + 1),
    };
    LineWindow {
        text: view[start..end].to_owned(),
        lines,
    }
}

/// What streaming a file gave.
enum Streamed {
    /// A UTF-8 file without a BOM: its window and fingerprint.
    Utf8 {
        window: LineWindow,
        fingerprint: Fingerprint,
    },
    /// Nothing is there.
    Missing,
    /// A BOM or bytes that are not UTF-8: read it whole.
    NotUtf8,
}

/// Streams the regular file at `path` (at most `limit` bytes) for the window `first..=last`.
fn stream_window(
    path: &Path,
    given: &Path,
    limit: u64,
    first: usize,
    last: Option<usize>,
) -> Result<Streamed> {
    let Some((mut file, meta)) = reading::open_regular(path, given, limit)? else {
        return Ok(Streamed::Missing);
    };
    let first = first.max(1);
    let mut hasher = xxhash_rust::xxh3::Xxh3Default::new();
    let mut piece = vec![0u8; 1 << 16];
    // Bytes of an incomplete UTF-8 sequence at the end of the previous piece.
    let mut carry: Vec<u8> = Vec::with_capacity(4);
    let mut window: Vec<u8> = Vec::new();
    let (mut line, mut size) = (1usize, 0u64);
    let mut last_byte = None;
    let mut pending_cr = false;
    loop {
        let n = match file.read(&mut piece) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(errors::io("read", given, &e)),
        };
        let bytes = &piece[..n];
        if size == 0 && bytes.starts_with(b"\xEF\xBB\xBF") {
            return Ok(Streamed::NotUtf8);
        }
        size += n as u64;
        if size > limit {
            return Err(errors::too_large(given, size, limit));
        }
        hasher.update(bytes);
        carry.extend_from_slice(bytes);
        let valid = match std::str::from_utf8(&carry) {
            Ok(_) => carry.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => return Ok(Streamed::NotUtf8),
        };
        for &b in &carry[..valid] {
            let inside = line >= first && last.is_none_or(|l| line <= l);
            if inside {
                if pending_cr && b != b'\n' {
                    window.push(b'\r');
                }
                pending_cr = b == b'\r';
                if !pending_cr {
                    window.push(b);
                }
            }
            if b == b'\n' {
                line += 1;
                pending_cr = false;
            }
            last_byte = Some(b);
        }
        carry.drain(..valid);
    }
    if !carry.is_empty() {
        return Ok(Streamed::NotUtf8);
    }
    if pending_cr {
        window.push(b'\r');
    }
    let lines = match last_byte {
        None => 0,
        Some(b'\n') => line - 1,
        Some(_) => line,
    };
    let text = String::from_utf8(window).map_err(|_| errors::unsupported_encoding(given))?;
    Ok(Streamed::Utf8 {
        window: LineWindow { text, lines },
        fingerprint: Fingerprint {
            modified: meta.modified().ok(),
            size,
            hash: hasher.digest128(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WorkspaceOptions;

    #[test]
    fn a_streamed_window_is_the_window_of_the_whole_text() {
        let dir = tempfile::tempdir().expect("tempdir");
        let texts = [
            "a\nb\r\nc\n".to_owned(),
            "a\nb\nc".to_owned(),
            String::new(),
            "\n\n".to_owned(),
            "é\r\n".repeat(70_000) + "end",
            "x\r".to_owned(),
        ];
        // Keep nothing for merging, so every file is streamed.
        let ws =
            Workspace::open(dir.path(), WorkspaceOptions::new().max_kept_read(0)).expect("open");
        for (i, text) in texts.iter().enumerate() {
            let name = format!("f{i}");
            std::fs::write(dir.path().join(&name), text).expect("write");
            let view = crate::document::normalize(text);
            for (first, last) in [
                (1, None),
                (2, Some(2)),
                (1, Some(1)),
                (3, Some(9)),
                (70_000, None),
                (5, Some(3)),
            ] {
                let got = ws.read_lines(&name, first, last).expect("read");
                assert_eq!(
                    got,
                    window_of(&view, first, last),
                    "{name} {first} {last:?}"
                );
            }
            // Recorded as read: an edit is allowed.
            assert!(!ws.changed_since_read(&name).expect("check"));
        }
    }

    #[test]
    fn windows_in_memory_cut_as_the_listed_lines_do() {
        for text in ["", "a", "a\n", "a\nb", "a\r\nb\r\n\n", "\n\n\n", "x\ry\nz"] {
            let view = crate::document::normalize(text);
            let listed: Vec<&str> = view.split_inclusive('\n').collect();
            for first in 0..6 {
                for last in [None, Some(0), Some(1), Some(2), Some(3), Some(9)] {
                    let from = first.max(1) - 1;
                    let to = last.map_or(listed.len(), |l: usize| l.min(listed.len()));
                    let want = LineWindow {
                        text: listed
                            .get(from..to.max(from))
                            .map_or(String::new(), <[&str]>::concat),
                        lines: listed.len(),
                    };
                    assert_eq!(
                        window_of(text, first, last),
                        want,
                        "{text:?} {first} {last:?}"
                    );
                }
            }
        }
    }
}

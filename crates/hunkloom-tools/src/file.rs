//! Reading and writing through the file layer ([`hunkloom_fs::Workspace`]), with each profile's
//! error texts.
//!
//! The commands see a file's `\n` view: the decoded text with every `\r\n` written `\n` (what
//! the references see, as they read in Python's text mode). Edits are written back with
//! [`Op::SetText`], which gives every untouched line its own ending back and keeps the encoding
//! and BOM; whole texts (`create`, `undo_edit`) with [`Op::Write`], exactly as given; a
//! `native` `create` over an existing file whose text has `// ... existing code ...` markers
//! with [`Op::Lazy`], merged into it when that is certain and refused otherwise. Every write
//! is atomic (a temporary file beside the target, renamed over it), and nothing is left under the
//! root afterwards.

use std::borrow::Cow;

use hunkloom::ErrorKind;
use hunkloom::ops::Guards;
use hunkloom_fs::{ExternalChange, Op, Report};

use crate::codes::ToolCode;
use crate::editor::{Target, TextEditor};
use crate::messages;
use crate::profile::Profile;
use crate::result::Failure;

/// The `\n` view of `text`: `text` itself unless it has a `\r\n` (no copy of a large file
/// for the common case).
pub(crate) fn view_of(text: &str) -> Cow<'_, str> {
    if memchr::memchr(b'\r', text.as_bytes()).is_some() {
        Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// The file's decoded text, with its own line endings.
///
/// `record`: the read counts as the model having read the file (views, and edits when reads
/// are not required); otherwise the file is only peeked at and edits keep the read check.
pub(crate) fn read(ed: &TextEditor, target: &Target, record: bool) -> Result<String, Failure> {
    let result = if record {
        ed.ws.read(target.ws_path())
    } else {
        ed.ws.peek(target.ws_path())
    };
    let text = result.map_err(|e| read_error(ed, target, &e))?;
    if ed.style.refuse_binary && has_nul(text.as_bytes()) {
        return Err(binary(ed, target));
    }
    Ok(text)
}

/// Lines `first..=last` of the file's `\n` view and its line count, recorded as read, without
/// holding a large file in memory ([`hunkloom_fs::Workspace::read_lines`]); errors as
/// [`read`] gives them.
pub(crate) fn read_window(
    ed: &TextEditor,
    target: &Target,
    first: usize,
    last: Option<usize>,
) -> Result<hunkloom_fs::LineWindow, Failure> {
    let window = ed
        .ws
        .read_lines(target.ws_path(), first, last)
        .map_err(|e| read_error(ed, target, &e))?;
    if ed.style.refuse_binary && looks_binary(&target.os_path) {
        return Err(binary(ed, target));
    }
    Ok(window)
}

/// Whether the first 1024 bytes hold a NUL, the mark of a binary file.
fn has_nul(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(1024)].contains(&0)
}

/// A binary file, refused.
fn binary(ed: &TextEditor, target: &Target) -> Failure {
    let reason = "File appears to be binary and this file type cannot be read or edited by this \
                  tool.";
    match ed.style.profile {
        Profile::OpenHands => {
            messages::validation_failed(ToolCode::UnsupportedEncoding, &target.shown, reason)
        }
        _ => Failure::new(
            ToolCode::UnsupportedEncoding,
            format!(
                "{} appears to be a binary file; it cannot be viewed or edited as text.",
                target.shown
            ),
        ),
    }
}

/// Reads the file for an edit: recorded as read unless reads are required (then the plan checks
/// that the model read it).
pub(crate) fn read_for_edit(ed: &TextEditor, target: &Target) -> Result<String, Failure> {
    let record = !ed.require_read;
    read(ed, target, record)
}

/// A read error in the profile's words.
fn read_error(ed: &TextEditor, target: &Target, error: &hunkloom::Error) -> Failure {
    let shown = &target.shown;
    let profile = ed.style.profile;
    match (error.kind(), profile) {
        (ErrorKind::UnsupportedEncoding, Profile::Anthropic) => {
            let detail = std::fs::read(&target.os_path)
                .ok()
                .and_then(|bytes| utf8_error(&bytes));
            match detail {
                Some(detail) => {
                    messages::read_failed(ToolCode::UnsupportedEncoding, shown, &detail)
                }
                None => Failure::of(error),
            }
        }
        (ErrorKind::UnsupportedEncoding, _)
            if ed.style.refuse_binary && looks_binary(&target.os_path) =>
        {
            binary(ed, target)
        }
        (ErrorKind::FileTooLarge, Profile::OpenHands) => {
            let size = std::fs::metadata(&target.os_path).map_or(0, |m| m.len());
            let limit = ed.ws.options().max_file_size;
            messages::validation_failed(
                ToolCode::FileTooLarge,
                shown,
                &format!(
                    "File is too large ({:.1}MB). Maximum allowed size is {}MB.",
                    size as f64 / 1024.0 / 1024.0,
                    limit / 1024 / 1024
                ),
            )
        }
        _ => Failure::of(error),
    }
}

/// Whether the file starts like a binary file (a NUL byte in its first 1024 bytes).
fn looks_binary(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(1024).read_to_end(&mut head))
        .is_ok_and(|_| has_nul(&head))
}

/// Python's message for bytes that are not UTF-8, or `None` if they are.
pub(crate) fn utf8_error(bytes: &[u8]) -> Option<String> {
    let e = std::str::from_utf8(bytes).err()?;
    let at = e.valid_up_to();
    let (len, reason) = match e.error_len() {
        None => (bytes.len() - at, "unexpected end of data"),
        Some(n) => {
            let lead = bytes[at];
            let invalid_start = matches!(lead, 0x80..=0xC1 | 0xF5..=0xFF);
            (
                n,
                if invalid_start {
                    "invalid start byte"
                } else {
                    "invalid continuation byte"
                },
            )
        }
    };
    Some(if len <= 1 {
        format!(
            "'utf-8' codec can't decode byte 0x{:02x} in position {at}: {reason}",
            bytes[at]
        )
    } else {
        format!(
            "'utf-8' codec can't decode bytes in position {at}-{}: {reason}",
            at + len - 1
        )
    })
}

/// A text written over a file, and where the file had changed since the model read it when the
/// edit was merged around such changes.
pub(crate) struct Written {
    pub(crate) text: String,
    pub(crate) external: Vec<ExternalChange>,
    /// The `\n` view the edit wrote, handed back (the caller's snippet shows it).
    pub(crate) view: String,
}

/// Writes `new_view` (the edited `\n` view of `old_text`) over the file, which must still hold
/// `old_text`; the file's line endings, encoding and BOM are kept. Returns the written text,
/// and `new_view` back (taken by value so that a large file's text is not copied for the op).
///
/// When reads are required and the file changed since the model read it, `merge` (the same
/// edit as a file-layer op) is planned against the text that was read and merged around the
/// changes, the file layer's staleness by region; it is written only if it gives exactly
/// `new_view`, so the answer's snippet is the truth, and refused as stale otherwise.
pub(crate) fn write_edit(
    ed: &TextEditor,
    target: &Target,
    old_text: &str,
    new_view: String,
    merge: &Op,
) -> Result<Written, Failure> {
    let op = Op::SetText { text: new_view };
    let Op::SetText { text: new_view } = &op else {
        unreachable!("just made")
    };
    let change = match ed.ws.plan(target.ws_path(), &op) {
        Err(e) if e.kind() == ErrorKind::StaleFile => {
            let merged = ed
                .ws
                .plan(target.ws_path(), merge)
                .map_err(|e| refusal(ed, target, &e))?;
            if merged.new_text().map(view_of).as_deref() != Some(new_view.as_str()) {
                return Err(stale(target));
            }
            merged
        }
        planned => planned.map_err(|e| refusal(ed, target, &e))?,
    };
    if change.old_text() != Some(old_text) {
        return Err(stale(target));
    }
    let external = change.external_changes().to_vec();
    let Op::SetText { text: view } = op else {
        unreachable!("just made")
    };
    if target.plan_only {
        let text = change.new_text().unwrap_or_default().to_owned();
        return Ok(Written {
            text,
            external,
            view,
        });
    }
    // The committed outcome hands back the text it wrote: no copy of it here.
    let text = ed
        .ws
        .commit(vec![change])
        .map_err(|e| refusal(ed, target, &e))?
        .pop()
        .and_then(|outcome| outcome.new_content)
        .unwrap_or_default();
    Ok(Written {
        text,
        external,
        view,
    })
}

/// Writes `content` as the file's whole text, exactly (creating the file if it does not exist;
/// an existing file keeps its encoding). A content the file layer would merge as a lazy edit
/// instead (its omission guard fires and the merge is certain) is refused as the guard refuses
/// it without the merge: `create` and `undo_edit` write their text exactly or not at all.
pub(crate) fn write_whole(ed: &TextEditor, target: &Target, content: &str) -> Result<(), Failure> {
    let op = Op::Write {
        content: content.to_owned(),
    };
    let change = ed
        .ws
        .plan(target.ws_path(), &op)
        .map_err(|e| refusal(ed, target, &e))?;
    if matches!(change.report(), Report::Lazy) {
        let old = change.old_text().unwrap_or_default();
        let refusal = Guards::NATIVE.lazy_merge(false).check_write(old, content);
        return Err(refusal
            .err()
            .map_or_else(|| stale(target), |e| Failure::of(&e)));
    }
    commit(ed, target, change)?;
    Ok(())
}

/// Writes back an earlier version of the file (an undo), as [`Op::Restore`]: no guard runs on
/// text that was checked when it was first written.
pub(crate) fn restore(ed: &TextEditor, target: &Target, content: &str) -> Result<(), Failure> {
    let op = Op::Restore {
        content: content.to_owned(),
    };
    let change = ed
        .ws
        .plan(target.ws_path(), &op)
        .map_err(|e| refusal(ed, target, &e))?;
    commit(ed, target, change)?;
    Ok(())
}

/// Merges the lazy edit `snippet` into the existing file ([`Op::Lazy`], the language from the
/// path), all or nothing: the file's text before and after.
pub(crate) fn write_lazy(
    ed: &TextEditor,
    target: &Target,
    snippet: &str,
) -> Result<(String, String), Failure> {
    let op = Op::Lazy {
        snippet: snippet.to_owned(),
        language: None,
    };
    let change = ed
        .ws
        .plan(target.ws_path(), &op)
        .map_err(|e| refusal(ed, target, &e))?;
    let old = change.old_text().unwrap_or_default().to_owned();
    let new = change.new_text().unwrap_or_default().to_owned();
    commit(ed, target, change)?;
    Ok((old, new))
}

/// Commits a planned change, unless the call is only planned (a stream's preview).
fn commit(ed: &TextEditor, target: &Target, change: hunkloom_fs::Change) -> Result<(), Failure> {
    if target.plan_only {
        return Ok(());
    }
    ed.ws
        .commit(vec![change])
        .map(drop)
        .map_err(|e| refusal(ed, target, &e))
}

/// A file-layer refusal of an edit in the profile's words: `native`'s read is its `view`
/// command, so its `not_read` and `stale_file` texts say to view the file (the file layer's own
/// texts say to read it); the reference profiles keep the file layer's texts.
fn refusal(ed: &TextEditor, target: &Target, error: &hunkloom::Error) -> Failure {
    if ed.style.profile != Profile::Native {
        return Failure::of(error);
    }
    match error.kind() {
        ErrorKind::NotRead => Failure::new(
            ToolCode::NotRead,
            format!(
                "{} has not been viewed yet. View it first (the `view` command) before editing \
                 it.",
                target.shown
            ),
        ),
        ErrorKind::StaleFile => Failure::new(
            ToolCode::StaleFile,
            error
                .message()
                .replace("Read it again", "View it again (the `view` command)"),
        ),
        _ => Failure::of(error),
    }
}

/// The file changed between reading it and writing it.
fn stale(target: &Target) -> Failure {
    Failure::new(
        ToolCode::StaleFile,
        format!(
            "{} was modified while it was being edited; view it again before editing it.",
            target.shown
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_errors_read_as_python_reports_them() {
        assert_eq!(utf8_error(b"ok"), None);
        assert_eq!(
            utf8_error(b"ab\x93c").as_deref(),
            Some("'utf-8' codec can't decode byte 0x93 in position 2: invalid start byte")
        );
        assert_eq!(
            utf8_error(b"\xe2\x28").as_deref(),
            Some("'utf-8' codec can't decode byte 0xe2 in position 0: invalid continuation byte")
        );
        assert_eq!(
            utf8_error(b"a\xe2\x82\x28").as_deref(),
            Some("'utf-8' codec can't decode bytes in position 1-2: invalid continuation byte")
        );
        assert_eq!(
            utf8_error(b"a\xe2\x82").as_deref(),
            Some("'utf-8' codec can't decode bytes in position 1-2: unexpected end of data")
        );
        assert_eq!(
            utf8_error(b"caf\xe9").as_deref(),
            Some("'utf-8' codec can't decode byte 0xe9 in position 3: unexpected end of data")
        );
    }

    #[test]
    fn views_write_crlf_as_lf() {
        assert_eq!(view_of("a\r\nb\rc\n"), "a\nb\rc\n");
    }
}

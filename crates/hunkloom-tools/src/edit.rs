//! The commands that write: `create`, `str_replace`, `insert`, `undo_edit`.
//!
//! Each computes the new text with the core's operations on the file's `\n` view, in the
//! profile's mode, then writes it through [`file`](crate::file):
//!
//! | | anthropic | openhands | native |
//! |---|---|---|---|
//! | `str_replace` match | literal | literal, then both texts stripped | Claude Code's, then whole lines as the native reading of patches places them ([`replace`](crate::replace)) |
//! | `old_str == new_str` | a no-op edit | refused before reading | refused |
//! | empty `old_str` | every line a match (empty file: refused) | every position a match (empty file: written) | writes an empty file only |
//! | several matches: lines | lines containing `old_str` | start lines | start lines |
//! | `insert` line model | split on `\n` | Python text file | editor lines |
//! | snippet | lines R−4 … R+4+k | R−3 … R+4+k, trailing empty line | as anthropic, editor lines |
//! | `create` parents | must exist | must exist | created |
//! | `create` over a file | refused | refused | a lazy edit (`// ... existing code ...` markers) is merged; else refused |

use std::borrow::Cow;

use hunkloom::ops::{
    self, Convention, Guards, InsertOptions, MatchMode, StrReplaceOptions, damage,
};
use hunkloom::text::py;
use hunkloom_fs::Op;

use crate::editor::{Target, TextEditor};
use crate::file;
use crate::input::{self, Input, Param};
use crate::messages;
use crate::profile::{Pieces, Profile};
use crate::render;
use crate::replace::{self, Refused, Replaced};
use crate::result::{Failure, Outcome, Success};
use crate::tabs::{self, Expanded};

/// A string parameter the command needs.
fn required<'a>(
    ed: &TextEditor,
    input: Input<'a>,
    param: &str,
    command: &str,
) -> Result<&'a str, Failure> {
    match input.string(param) {
        Param::Given(s) => Ok(s),
        Param::Missing => Err(messages::missing(ed.style, param, command)),
        Param::Invalid(v) => Err(messages::wrong_type(
            ed.style,
            param,
            &input::py_repr(&v),
            "a string",
        )),
    }
}

/// An optional string parameter.
fn optional<'a>(
    ed: &TextEditor,
    input: Input<'a>,
    param: &str,
) -> Result<Option<&'a str>, Failure> {
    match input.string(param) {
        Param::Given(s) => Ok(Some(s)),
        Param::Missing => Ok(None),
        Param::Invalid(v) => Err(messages::wrong_type(
            ed.style,
            param,
            &input::py_repr(&v),
            "a string",
        )),
    }
}

/// Records `text` as what an undo of the edit just written gives back (nothing for a call
/// only planned).
fn remember(ed: &TextEditor, target: &Target, text: String) {
    if !target.plan_only {
        ed.history().push(&target.history_key, text);
    }
}

/// `create`: writes `file_text` as a new file.
pub(crate) fn create(ed: &TextEditor, input: Input<'_>, target: &Target) -> Outcome {
    let text = required(ed, input, "file_text", "create")?;
    if ed.style.profile != Profile::Native {
        // The references do not make parent directories: the system's error, as Python words it.
        let parent = target.os_path.parent().unwrap_or(&target.os_path);
        let refused = match std::fs::metadata(parent) {
            Ok(meta) if meta.is_dir() => None,
            // ENOTDIR: a file stands where a directory should.
            Ok(_) => Some(std::io::Error::from_raw_os_error(20)),
            Err(e) => Some(e),
        };
        if let Some(e) = refused {
            let os_error = messages::os_error(&e, &target.shown);
            return Err(messages::write_failed(&target.shown, &os_error));
        }
    }
    if target.os_path.is_file() {
        // Only a lazy edit gets here (`native`; the path checks refuse any other text): merged
        // into the file, and an undo gives back what it replaced.
        let (old, new) = file::write_lazy(ed, target, text)?;
        remember(ed, target, old.clone());
        return Ok(Success {
            output: messages::lazy_merged(&target.shown),
            old_content: Some(old),
            new_content: Some(new),
        });
    }
    let screened = screen(ed, "", text, "file_text")?;
    let text = screened.as_ref();
    file::write_whole(ed, target, text)?;
    remember(ed, target, text.to_owned());
    Ok(Success {
        output: messages::created(&target.shown),
        old_content: None,
        new_content: Some(text.to_owned()),
    })
}

/// `str_replace`.
pub(crate) fn str_replace(ed: &TextEditor, input: Input<'_>, target: &Target) -> Outcome {
    let style = ed.style;
    let old = required(ed, input, "old_str", "str_replace")?;
    let new = optional(ed, input, "new_str")?;
    if style.profile == Profile::OpenHands && new == Some(old) {
        return Err(messages::old_equals_new(style, old));
    }
    let new = new.unwrap_or("");
    let text = file::read_for_edit(ed, target)?;
    let view = file::view_of(&text);
    let screened = screen(ed, old, new, "new_str")?;
    let new = screened.as_ref();
    let planned = match style.profile {
        Profile::Anthropic => replace_anthropic(ed, target, &view, old, new)?,
        Profile::OpenHands => replace_openhands(ed, target, &view, old, new)?,
        Profile::Native => match replace_native(ed, target, &view, old, new)? {
            Some(planned) => planned,
            None => return Ok(Success::text(messages::already_applied(&target.shown))),
        },
    };
    let merge = Op::StrReplace {
        old: old.to_owned(),
        new: new.to_owned(),
        replace_all: false,
    };
    let written = file::write_edit(ed, target, &text, planned.new_view, &merge)?;
    let new_text = written.text;
    remember(ed, target, text.clone());
    let shown_text = if style.snippet_trailing_line {
        file::view_of(&new_text)
    } else {
        Cow::Owned(written.view)
    };
    // The snippet: from `before` lines above the line the edit starts on to `after` lines below
    // its last line (k = the new text's `\n` count).
    let line = planned.first_line;
    let first = line.saturating_sub(style.context_before).max(1);
    let last = line + style.context_after + planned.new_newlines;
    let snippet = snippet(ed, &shown_text, first, last);
    Ok(Success {
        output: messages::edited(style, &target.shown, &snippet, first)
            + &messages::merged(&target.shown, &written.external),
        old_content: Some(text),
        new_content: Some(new_text),
    })
}

/// `native`: the damaged-call rules on a new text (see [`hunkloom::ops::damage`]): `new`
/// without a view's line-number prefixes when every line has one, or an error result for
/// prefixes that cannot be removed with certainty and for a clipping notice `old` lacks. The
/// reference profiles write what they are given.
fn screen<'t>(
    ed: &TextEditor,
    old: &str,
    new: &'t str,
    what: &str,
) -> Result<std::borrow::Cow<'t, str>, Failure> {
    if ed.style.profile != Profile::Native {
        return Ok(std::borrow::Cow::Borrowed(new));
    }
    Guards::NATIVE
        .screen(old, new, what)
        .map(|(text, _)| text)
        .map_err(|e| Failure::of(&e))
}

/// A replacement computed but not written.
struct Planned {
    new_view: String,
    /// The 1-based line the replaced text started on.
    first_line: usize,
    /// `\n`s in the text written in its place.
    new_newlines: usize,
}

/// The literal replacement of the one match of `old`, or the core's error.
fn literal(view: &str, old: &str, new: &str) -> Result<(String, usize), hunkloom::Error> {
    // The reference tools' drop-in: no guard, so their outputs stay theirs.
    let options = StrReplaceOptions::new()
        .mode(MatchMode::Literal)
        .guards(Guards::NONE);
    let edit = ops::str_replace_with(Some(view), old, new, &options)?;
    Ok((edit.new_content, edit.first_edit.start))
}

fn replace_anthropic(
    ed: &TextEditor,
    target: &Target,
    view: &str,
    old: &str,
    new: &str,
) -> Result<Planned, Failure> {
    let style = ed.style;
    if old.is_empty() {
        if view.is_empty() {
            return Err(messages::empty_old_on_empty_file(&target.shown));
        }
        let n = view.split('\n').count();
        let all: Vec<usize> = (1..=n).collect();
        return Err(messages::multiple(style, old, &all));
    }
    let new_newlines = new.matches('\n').count();
    if view.contains('\t') || old.contains('\t') {
        // The reference matches with every tab expanded; see `tabs`.
        let expanded = Expanded::new(view);
        let old = tabs::expanded(old);
        let found: Vec<usize> = expanded
            .text
            .match_indices(old.as_str())
            .map(|(at, _)| at)
            .collect();
        return match found.as_slice() {
            [] => Err(messages::not_found(&target.shown, &old)),
            [at] => Ok(Planned {
                new_view: expanded.replace(view, *at, at + old.len(), new),
                first_line: replace::line_at(&expanded.text, *at),
                new_newlines,
            }),
            _ => Err(messages::multiple(
                style,
                &old,
                &lines_containing(&expanded.text, &old),
            )),
        };
    }
    match literal(view, old, new) {
        Ok((new_view, first_line)) => Ok(Planned {
            new_view,
            first_line,
            new_newlines,
        }),
        Err(e) if e.code() == "multiple_matches" => {
            Err(messages::multiple(style, old, &lines_containing(view, old)))
        }
        Err(e) if e.code() == "not_found" => Err(messages::not_found(&target.shown, old)),
        Err(e) => Err(Failure::of(&e)),
    }
}

/// The 1-based lines of `text` that contain the whole of `old` (none for a multi-line one), as
/// Anthropic's reference lists them.
fn lines_containing(text: &str, old: &str) -> Vec<usize> {
    text.split('\n')
        .enumerate()
        .filter(|(_, line)| line.contains(old))
        .map(|(i, _)| i + 1)
        .collect()
}

fn replace_openhands(
    ed: &TextEditor,
    target: &Target,
    view: &str,
    old: &str,
    new: &str,
) -> Result<Planned, Failure> {
    let style = ed.style;
    let (mut old, mut new) = (old, new);
    let mut found = openhands_find(view, old);
    if found.is_empty() {
        // Not found verbatim: both texts stripped of surrounding whitespace, once more.
        old = py::strip(old);
        new = py::strip(new);
        found = openhands_find(view, old);
        if found.is_empty() {
            return Err(messages::not_found(&target.shown, old));
        }
    }
    if found.len() > 1 {
        let mut lines: Vec<usize> = found.iter().map(|&at| replace::line_at(view, at)).collect();
        lines.dedup();
        return Err(messages::multiple(style, old, &lines));
    }
    let at = found[0];
    let new_view = format!("{}{new}{}", &view[..at], &view[at + old.len()..]);
    Ok(Planned {
        new_view,
        first_line: replace::line_at(view, at),
        new_newlines: new.matches('\n').count(),
    })
}

/// Where `re.finditer(re.escape(old), view)` matches: every non-overlapping occurrence, left to
/// right; an empty `old` matches at every character boundary, the end included.
fn openhands_find(view: &str, old: &str) -> Vec<usize> {
    if old.is_empty() {
        return view
            .char_indices()
            .map(|(i, _)| i)
            .chain([view.len()])
            .collect();
    }
    view.match_indices(old).map(|(i, _)| i).collect()
}

/// `native`'s replacement ([`replace::native`]), or `None` for a replayed call already in the
/// file.
fn replace_native(
    ed: &TextEditor,
    target: &Target,
    view: &str,
    old: &str,
    new: &str,
) -> Result<Option<Planned>, Failure> {
    let style = ed.style;
    match replace::native(view, old, new, false, &target.shown) {
        Ok(Replaced::Edit(edit)) => Ok(Some(Planned {
            new_newlines: edit.last_line - edit.first_line,
            first_line: edit.first_line,
            new_view: edit.new_content,
        })),
        Ok(Replaced::AlreadyThere) => Ok(None),
        Err(Refused::NotFound) if ed.ws.changed_since_read(target.ws_path()).unwrap_or(false) => {
            Err(messages::not_found_changed(&target.shown, old))
        }
        Err(Refused::NotFound) => Err(messages::not_found(&target.shown, old)),
        Err(Refused::Multiple(lines)) => Err(messages::multiple(style, old, &lines)),
        Err(Refused::Unchanged) => Err(messages::old_equals_new(style, old)),
        Err(Refused::Other(e)) if e.code() == "file_exists" => {
            Err(messages::empty_old_on_content(&target.shown))
        }
        Err(Refused::Other(e)) => Err(Failure::of(&e)),
    }
}

/// `insert`.
pub(crate) fn insert(ed: &TextEditor, input: Input<'_>, target: &Target) -> Outcome {
    let style = ed.style;
    let line = match input.integer("insert_line") {
        Param::Given(n) => n,
        Param::Missing => return Err(messages::missing(style, "insert_line", "insert")),
        Param::Invalid(v) => {
            return Err(messages::wrong_type(
                style,
                "insert_line",
                &input::py_repr(&v),
                "an integer: the line to insert the text after (0 for the top of the file)",
            ));
        }
    };
    let text_param = required(ed, input, "new_str", "insert")?;
    let text = file::read_for_edit(ed, target)?;
    let view = file::view_of(&text);
    let model = style.line_model;
    let lines = model.line_count(&view);
    if line < 0 || line > lines as i128 {
        return Err(messages::insert_line(style, line, lines));
    }
    let inserted = if style.profile == Profile::Native {
        screen(ed, &view, &file::view_of(text_param), "new_str")?.into_owned()
    } else {
        text_param.to_owned()
    };
    let options = InsertOptions::new().model(model);
    let edit =
        ops::insert_with(&view, line as i64, &inserted, &options).map_err(|e| Failure::of(&e))?;
    if style.profile == Profile::Native && damage::replayed_insert(&view, &edit).is_some() {
        return Ok(Success::text(messages::already_applied(&target.shown)));
    }
    let merge = Op::Insert {
        line: line as usize,
        text: inserted.clone(),
        convention: Convention::After,
    };
    let written = file::write_edit(ed, target, &text, edit.new_content, &merge)?;
    let new_text = written.text;
    remember(ed, target, text.clone());
    // OpenHands re-reads the written file for its snippet; Anthropic shows the text it built.
    let shown_text = if style.snippet_trailing_line {
        file::view_of(&new_text)
    } else {
        Cow::Owned(written.view)
    };
    let line = line as usize;
    let pieces = match style.profile {
        // The lines written: a text ending in `\n` adds an empty line in the reference models.
        Profile::Native => edit.first_edit.end + 1 - edit.first_edit.start,
        _ => inserted.split('\n').count(),
    };
    // Four lines before the inserted ones (lines line-3..=line), the inserted ones, four after.
    let first = (line + 1).saturating_sub(4).max(1);
    let mut last = line + style.context_after + pieces;
    if style.profile == Profile::OpenHands {
        last = last.min(lines + pieces);
    }
    let snippet = snippet(ed, &shown_text, first, last);
    Ok(Success {
        output: messages::inserted(style, &target.shown, &snippet, first)
            + &messages::merged(&target.shown, &written.external),
        old_content: Some(text),
        new_content: Some(new_text),
    })
}

/// The text of lines `first..=last` of `view` for a snippet listing.
fn snippet(ed: &TextEditor, view: &str, first: usize, last: usize) -> String {
    let style = ed.style;
    if style.pieces == Pieces::Lines {
        // Editor lines: no empty line after a final newline.
        let body = view.strip_suffix('\n').unwrap_or(view);
        return render::window(style, body, first, last);
    }
    render::window(style, view, first, last)
}

/// `undo_edit`.
pub(crate) fn undo(ed: &TextEditor, target: &Target) -> Outcome {
    let style = ed.style;
    // OpenHands reads the file before looking at its history; the others look first.
    let current = if style.profile == Profile::OpenHands {
        Some(file::read_for_edit(ed, target)?)
    } else {
        None
    };
    let Some(previous) = ed.history().last(&target.history_key).map(str::to_owned) else {
        return Err(messages::nothing_to_undo(&target.shown));
    };
    let current = match current {
        Some(text) => text,
        None => file::read_for_edit(ed, target)?,
    };
    // With reads required, the write's plan refuses a file changed since this editor last saw
    // it (`stale_file`). The text restored was checked when it was written: no guards.
    file::restore(ed, target, &previous)?;
    if !target.plan_only {
        ed.history().pop(&target.history_key);
    }
    Ok(Success {
        output: messages::undone(style, &target.shown, &file::view_of(&previous)),
        old_content: Some(current),
        new_content: Some(previous),
    })
}

//! `view`: a directory listing, a whole file, or a `view_range` of it.
//!
//! # `view_range`
//!
//! Python decides whether a range was given by its truth value, so `[]` (and `null`, `0`,
//! `""`) mean "no range" and show the whole file; anything else must be a list of exactly two
//! integers (booleans count as 0 and 1, as in Python). Then, by profile:
//!
//! | | anthropic | openhands | native |
//! |---|---|---|---|
//! | lines in the file | `\n` count + 1 | Python's line iteration | editor lines |
//! | first element | in `[1, lines]` | in `[1, lines]` | in `[1, lines]` |
//! | end `-1` | to the end, final empty piece shown | to the end | to the end |
//! | end past the last line | error | clipped, `NOTE:` line first | clipped, `NOTE:` line first |
//! | end before the first | error | error | error |
//! | shown text | pieces joined with `\n` | lines, final empty line never shown | editor lines |

use serde_json::Value;

use crate::editor::{Target, TextEditor};
use crate::file;
use crate::input::{self, Input};
use crate::listing;
use crate::messages;
use crate::profile::RangeRules;
use crate::render;
use crate::result::{Failure, Outcome, Success};

/// `view` of `target`.
pub(crate) fn view(ed: &TextEditor, input: Input<'_>, target: &Target) -> Outcome {
    let style = ed.style;
    let range = input.value("view_range").filter(|v| input::truthy(v));
    if target.os_path.is_dir() {
        if let Some(range) = range {
            return Err(messages::directory_with_range(
                style,
                &input::py_repr(range),
            ));
        }
        return listing::list(style, &target.os_path, &target.shown)
            .map(Success::text)
            .map_err(|e| {
                Failure::new(
                    crate::ToolCode::IoError,
                    format!("Ran into {} while trying to list {}", e, target.shown),
                )
            });
    }
    if let Some(range) = range
        && style.range == RangeRules::Native
    {
        return native_range(ed, target, range).map(|s| with_encoding_note(ed, target, s));
    }
    let text = file::read(ed, target, true)?;
    let text = file::view_of(&text);
    let shown = match range {
        None => Ok(Success::text(render::cat_n_within(
            style,
            &text,
            &target.shown,
            1,
            ed.max_chars,
        ))),
        Some(range) => view_range(ed, &text, target, range),
    };
    shown.map(|success| with_encoding_note(ed, target, success))
}

/// `native`: a view of a file in a legacy encoding says which, and that edits keep it.
fn with_encoding_note(ed: &TextEditor, target: &Target, mut success: Success) -> Success {
    if ed.style.profile != crate::Profile::Native {
        return success;
    }
    if let Some(legacy) = ed.ws.legacy_encoding(target.ws_path()) {
        success.output.push_str(&format!(
            "\n(This file is encoded in {}; edits are written back in {0}, and text with \
             characters it cannot represent is refused.)",
            legacy.name()
        ));
    }
    success
}

fn view_range(ed: &TextEditor, text: &str, target: &Target, range: &Value) -> Outcome {
    let style = ed.style;
    let shown_range = input::py_repr(range);
    let Some((first, last)) = input::two_integers(range) else {
        return Err(messages::range_not_two_integers(style, &shown_range));
    };
    match style.range {
        RangeRules::Anthropic => {
            let n = render::piece_count(text);
            let n_i = n as i128;
            if first < 1 || first > n_i {
                return Err(messages::range_first(style, &shown_range, first, n));
            }
            if last > n_i {
                return Err(messages::range_end_past_file(&shown_range, last, n));
            }
            if last != -1 && last < first {
                return Err(messages::range_inverted(style, &shown_range, first, last));
            }
            let from = (first - 1) as usize;
            let to = if last == -1 { n } else { last as usize };
            let shown = render::piece_span(text, from, to);
            Ok(Success::text(render::cat_n_within(
                style,
                shown,
                &target.shown,
                from + 1,
                ed.max_chars,
            )))
        }
        RangeRules::OpenHands | RangeRules::Native => {
            let lines = render::line_count(text);
            let (last, note) = clipped_range(ed, &shown_range, first, last, lines)?;
            let from = (first - 1) as usize;
            let chosen = render::line_span(text, from, last as usize);
            // The lines without their endings, joined: no final empty line.
            let shown = match style.range {
                RangeRules::OpenHands => hunkloom::text::py::splitlines(chosen).join("\n"),
                _ => chosen.strip_suffix('\n').unwrap_or(chosen).to_owned(),
            };
            Ok(Success::text(format!(
                "{note}{}",
                render::cat_n_within(style, &shown, &target.shown, from + 1, ed.max_chars)
            )))
        }
    }
}

/// The OpenHands and native rules of a range `[first, last]` over `n` lines: the first line
/// must exist, `-1` runs to the end, an end past the last line is clipped with a note, an end
/// before the start is an error. The last line shown and the note.
fn clipped_range(
    ed: &TextEditor,
    shown_range: &str,
    first: i128,
    last: i128,
    n: usize,
) -> Result<(i128, String), Failure> {
    let style = ed.style;
    let n_i = n as i128;
    if first < 1 || first > n_i {
        return Err(messages::range_first(style, shown_range, first, n));
    }
    let (last, note) = match last {
        -1 => (n_i, String::new()),
        past if past > n_i => (n_i, messages::range_clipped(n)),
        last => (last, String::new()),
    };
    if last < first {
        return Err(messages::range_inverted(style, shown_range, first, last));
    }
    Ok((last, note))
}

/// `native`'s `view_range`, reading only the lines shown (see [`file::read_window`]): the same
/// rules as the `Native` arm of [`view_range`], which reads the whole file.
fn native_range(ed: &TextEditor, target: &Target, range: &Value) -> Outcome {
    let style = ed.style;
    let shown_range = input::py_repr(range);
    let Some((first, last)) = input::two_integers(range) else {
        return Err(messages::range_not_two_integers(style, &shown_range));
    };
    let to_line = |n: i128| usize::try_from(n).ok().filter(|&n| n >= 1);
    let window = file::read_window(
        ed,
        target,
        to_line(first).unwrap_or(1),
        if last == -1 { None } else { to_line(last) },
    )?;
    let (_, note) = clipped_range(ed, &shown_range, first, last, window.lines)?;
    let shown = window.text.strip_suffix('\n').unwrap_or(&window.text);
    Ok(Success::text(format!(
        "{note}{}",
        render::cat_n_within(style, shown, &target.shown, first as usize, ed.max_chars)
    )))
}

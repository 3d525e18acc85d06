//! Roo's `applyDiff` loop: blocks sorted by their `:start_line:` hint, each located by
//! similarity in the file as the earlier blocks left it, its REPLACE lines re-indented, and
//! every block that fails described in a `failParts` entry with Roo's exact text.

use super::blocks::{RawBlock, blocks};
use super::file::{Boundary, File};
use super::jsnum::{slice_from, slice_range};
use super::line_numbers::{
    add_line_numbers, every_line_has_line_numbers, first_line_number, split_lines,
    strip_line_numbers,
};
use super::search::{Best, fuzzy_search};
use super::similarity::{Pattern, Scratch, normalized};
use super::{DiffResult, RooOptions, markers};
use crate::error::{Error, ErrorKind};
use crate::text::js_number_to_string;
use crate::text::js_trim;

/// Where an applied block went: the byte range of the original its replaced lines came from.
/// Lines an earlier block wrote have no place in the original; a boundary on such a line is
/// reported at the next line that is still the original's (so a block that only replaced an
/// earlier block's lines is an empty range where that block's region ends). Each boundary
/// comes with its 1-based line in the original, read from the split the loop made anyway.
#[derive(Clone, Copy, Debug)]
pub(super) struct Placed {
    pub(super) start: Boundary,
    pub(super) end: Boundary,
}

/// One block's fate, in the order Roo applied the blocks.
#[derive(Clone, Debug)]
pub(super) struct BlockRun {
    /// The block's index in the diff.
    pub(super) index: usize,
    pub(super) result: Result<Placed, Error>,
}

/// A whole call: Roo's result and each block's fate.
pub(super) struct Run {
    pub(super) result: DiffResult,
    pub(super) blocks: Vec<BlockRun>,
}

const INVALID_FORMAT: &str = "Invalid diff format - missing required sections\n\nDebug Info:\n\
    - Expected Format: <<<<<<< SEARCH\\n:start_line: start line\\n-------\\n[search content]\\n\
    =======\\n[replace content]\\n>>>>>>> REPLACE\n- Tip: Make sure to include \
    start_line/SEARCH/=======/REPLACE sections with correct markers on new lines";

const IDENTICAL: &str = "Search and replace content are identical - no changes would be made\n\n\
    Debug Info:\n- Search and replace must be different to make changes\n- Use read_file to \
    verify the content you want to change";

const EMPTY_SEARCH: &str = "Empty search content is not allowed\n\nDebug Info:\n- Search content \
    cannot be empty\n- For insertions, provide a specific line using :start_line: and include \
    content to search for\n- For example, match a single line to insert before/after it";

/// Roo's `applyDiff(original, diff)` with `options`.
pub(super) fn run(original: &str, diff: &str, options: &RooOptions) -> Run {
    if let Err(message) = markers::validate(diff) {
        return invalid(message);
    }
    let mut parsed: Vec<(usize, RawBlock)> = blocks(diff).into_iter().enumerate().collect();
    if parsed.is_empty() {
        return invalid(INVALID_FORMAT.to_owned());
    }
    // A stable sort, as JavaScript's; hints are never NaN.
    parsed.sort_by(|a, b| {
        a.1.start_line
            .partial_cmp(&b.1.start_line)
            .unwrap_or(std::cmp::Ordering::Equal)
    });

    let mut file = File::new(original);
    let mut delta = 0.0f64;
    let mut runs = Vec::with_capacity(parsed.len());
    for (index, block) in parsed {
        let result = apply_block(&mut file, block, &mut delta, options);
        runs.push(BlockRun { index, result });
    }
    let fail_parts: Vec<Error> = runs
        .iter()
        .filter_map(|r| r.result.as_ref().err().cloned())
        .collect();
    let result = if runs.iter().any(|r| r.result.is_ok()) {
        DiffResult::Applied {
            content: file.join(),
            fail_parts,
        }
    } else {
        DiffResult::NotApplied { fail_parts }
    };
    Run {
        result,
        blocks: runs,
    }
}

fn invalid(message: String) -> Run {
    Run {
        result: DiffResult::Invalid {
            error: Error::new(ErrorKind::MalformedBlock, message),
        },
        blocks: Vec::new(),
    }
}

/// `getSimilarity(chunk, search)` for one chunk.
fn similarity(chunk: &str, pattern: &Pattern, search_is_empty: bool) -> f64 {
    if search_is_empty {
        return 0.0;
    }
    pattern.similarity(&normalized(chunk), &mut Scratch::default())
}

/// The leading tabs and spaces of `line`.
fn indent(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches(['\t', ' ']).len()]
}

/// One block of Roo's loop: the block applied to `file`, or the failure Roo records for it.
fn apply_block(
    file: &mut File,
    block: RawBlock,
    delta: &mut f64,
    options: &RooOptions,
) -> Result<Placed, Error> {
    let threshold = options.fuzzy_threshold;
    let buffer = options.buffer_lines as f64;
    let hint = block.start_line;
    let mut start_line = hint + if hint == 0.0 { 0.0 } else { *delta };
    let mut search = unescape_markers(&block.search);
    let mut replace = unescape_markers(&block.replace);

    let numbered = every_line_has_line_numbers(&search)
        && (every_line_has_line_numbers(&replace) || js_trim(&replace).is_empty());
    if numbered && start_line == 0.0 {
        start_line = first_line_number(&search);
    }
    if numbered {
        search = strip_line_numbers(&search, false);
        replace = strip_line_numbers(&replace, false);
    }
    if search == replace {
        return Err(Error::new(ErrorKind::OldEqualsNew, IDENTICAL));
    }
    let mut search_lines: Vec<String> = lines_of(&search);
    let mut replace_lines: Vec<String> = lines_of(&replace);
    if search_lines.is_empty() {
        return Err(Error::new(ErrorKind::MalformedBlock, EMPTY_SEARCH));
    }
    let end_line = hint + search_lines.len() as f64 - 1.0;
    let search_chunk = search_lines.join("\n");
    let pattern = Pattern::new(normalized(&search_chunk));
    let len = file.len() as f64;

    let mut found = Best {
        score: 0.0,
        index: None,
    };
    let mut matched_at: Option<f64> = None;
    let mut search_start = 0.0;
    let mut search_end = len;
    let hinted = start_line != 0.0 && !start_line.is_nan();
    if hinted {
        let exact_start = start_line - 1.0;
        let exact_end = exact_start + search_lines.len() as f64 - 1.0;
        let sim = similarity(&file.chunk(exact_start, exact_end + 1.0), &pattern, false);
        if sim >= threshold {
            matched_at = Some(exact_start);
            found.score = sim;
        } else {
            search_start = (start_line - (buffer + 1.0)).max(0.0);
            search_end = len.min(start_line + search_lines.len() as f64 + buffer);
        }
    }
    if matched_at.is_none() {
        found = fuzzy_search(
            file,
            &pattern,
            false,
            search_lines.len(),
            search_start,
            search_end,
        );
        matched_at = found.index.map(|i| i as f64);
    }
    let window = |at: Option<f64>, n: usize| match at {
        Some(i) => file.chunk(i, i + n as f64),
        None => String::new(),
    };

    if matched_at.is_none() || found.score < threshold {
        let loose_search = strip_line_numbers(&search, true);
        let loose_replace = strip_line_numbers(&replace, true);
        let loose_lines: Vec<String> = if loose_search.is_empty() {
            Vec::new()
        } else {
            lines_of(&loose_search)
        };
        let loose_chunk = loose_lines.join("\n");
        let loose_pattern = Pattern::new(normalized(&loose_chunk));
        let loose = fuzzy_search(
            file,
            &loose_pattern,
            loose_chunk.is_empty(),
            loose_lines.len().max(1),
            search_start,
            search_end,
        );
        if loose.index.is_some() && loose.score >= threshold {
            matched_at = loose.index.map(|i| i as f64);

            search_lines = loose_lines;
            replace_lines = if loose_replace.is_empty() {
                Vec::new()
            } else {
                lines_of(&loose_replace)
            };
        } else {
            let best_content = window(matched_at, search_lines.len());
            return Err(not_found(NotFound {
                file,
                start_line,
                end_line,
                buffer,
                threshold,
                score: found.score,
                search_chunk: &search_chunk,
                best_content: &best_content,
                best_index: matched_at.unwrap_or(-1.0),
            }));
        }
    }

    let at = matched_at.unwrap_or(-1.0);
    let n = file.len();
    let (m_start, m_end) = slice_range(n, at, at + search_lines.len() as f64);
    let matched_indent = file
        .line(m_start)
        .filter(|_| m_end > m_start)
        .map_or("", indent)
        .to_owned();
    let search_indent = indent(&search_lines[0]).len();
    let replaced: Vec<String> = replace_lines
        .iter()
        .map(|line| {
            let current = indent(line);
            let relative = current.len() as isize - search_indent as isize;
            let mut out = if relative < 0 {
                let keep = (matched_indent.len() as isize + relative).max(0) as usize;
                matched_indent[..keep.min(matched_indent.len())].to_owned()
            } else {
                format!("{matched_indent}{}", &current[search_indent..])
            };
            out.push_str(js_trim(line));
            out
        })
        .collect();

    let placed = Placed {
        start: file.original_boundary(m_start),
        end: file.original_boundary(m_end),
    };
    let removed = m_end - m_start;
    // `beforeMatch` and `afterMatch` are slices of their own, with JavaScript's index rules
    // (they meet the matched lines unless a shifted hint made an index negative).
    let (_, before_end) = slice_range(n, 0.0, at);
    let (after_start, _) = slice_from(n, at + search_lines.len() as f64);
    file.splice(before_end, replaced, after_start);
    *delta = *delta - removed as f64 + replace_lines.len() as f64;
    Ok(placed)
}

/// `content.split(/\r?\n/)`, or no line for `""`.
fn lines_of(content: &str) -> Vec<String> {
    if content.is_empty() {
        Vec::new()
    } else {
        split_lines(content)
            .into_iter()
            .map(str::to_owned)
            .collect()
    }
}

/// Roo's `unescapeMarkers`: a backslash before a marker at the start of a line (after `\n`,
/// `\r`, U+2028 or U+2029, as JavaScript's multiline `^` reads it) is removed.
fn unescape_markers(content: &str) -> String {
    const ESCAPED: [&str; 6] = [
        "\\<<<<<<<",
        "\\=======",
        "\\>>>>>>>",
        "\\-------",
        "\\:end_line:",
        "\\:start_line:",
    ];
    let mut out = String::with_capacity(content.len());
    let mut line_start = true;
    let mut rest = content;
    while let Some(c) = rest.chars().next() {
        if line_start && c == '\\' && ESCAPED.iter().any(|m| rest.starts_with(m)) {
            rest = &rest[1..];
            line_start = false;
            continue;
        }
        out.push(c);
        line_start = matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}');
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// What the no-match message is made of.
struct NotFound<'a> {
    file: &'a File<'a>,
    start_line: f64,
    end_line: f64,
    buffer: f64,
    threshold: f64,
    score: f64,
    search_chunk: &'a str,
    best_content: &'a str,
    best_index: f64,
}

/// Roo's message for a block no window matched well enough.
fn not_found(n: NotFound<'_>) -> Error {
    let len = n.file.len() as f64;
    let context = n.file.chunk(
        (n.start_line - 1.0 - n.buffer).max(0.0),
        len.min(n.end_line + n.buffer),
    );
    let original = add_line_numbers(&context, (n.start_line - n.buffer).max(1.0));
    let best = if n.best_content.is_empty() {
        "(no match)".to_owned()
    } else {
        add_line_numbers(n.best_content, n.best_index + 1.0)
    };
    let hinted = n.start_line != 0.0 && !n.start_line.is_nan();
    let line = js_number_to_string(n.start_line);
    let (at_line, range) = if hinted {
        (
            format!(" at line: {line}"),
            format!("starting at line {line}"),
        )
    } else {
        (String::new(), "start to end".to_owned())
    };
    let score = js_number_to_string((n.score * 100.0).floor());
    let needs = js_number_to_string((n.threshold * 100.0).floor());
    Error::new(
        ErrorKind::SearchNotFound,
        format!(
            "No sufficiently similar match found{at_line} ({score}% similar, needs {needs}%)\n\n\
             Debug Info:\n- Similarity Score: {score}%\n- Required Threshold: {needs}%\n- Search \
             Range: {range}\n- Tried both standard and aggressive line number stripping\n- Tip: \
             Use the read_file tool to get the latest content of the file before attempting to \
             use the apply_diff tool again, as the file content may have changed\n\nSearch \
             Content:\n{}\n\nBest Match Found:\n{best}\n\nOriginal Content:\n{original}",
            n.search_chunk
        ),
    )
}

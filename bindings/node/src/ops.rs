//! The tool operations: `strReplace` (Claude Code's edit tool), `insert` (both line
//! conventions) and `insertContent` (Roo's removed `insert_content` tool, byte for byte).
//!
//! Each is a pure function of the current text, run on the calling thread; a core error is
//! thrown as an `Error` with the core's `code` and exact message (see [`crate::errors`]).

use hunkloom::ops::{self, Convention, Guards, StrReplaceOptions};
use napi::{Env, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};
use crate::types::{Edit, InsertedContent};

/// A line number argument: a non-negative integer JavaScript number (`-0` is 0).
pub(crate) fn line_number(value: &Unknown<'_>, name: &str) -> Result<usize, Failure> {
    // A safe integer: exact in usize on every 64-bit target the package builds.
    args::non_negative_integer(value, name).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// Replaces `oldStr` with `newStr` in `content`, with the semantics of Claude Code's edit tool
/// (and Anthropic's text editor `str_replace`).
///
/// - `oldStr` is looked up exactly; if absent, with curly quotes (`‘ ’ “ ”`) folded to straight
///   ones on both sides — and then `newStr` is written in the file's quote style; if still
///   absent, with the short tags some APIs substitute mapped back (`<fnr>` →
///   `<function_results>`, `<n>` → `<name>`, `H:` → `Human:` after a blank line, …), applied to
///   `newStr` too. In a CRLF file, an `oldStr` with LF line endings matches and `newStr` is
///   written with CRLF.
/// - `oldStr` must occur exactly once unless `replaceAll`, which replaces every non-overlapping
///   occurrence from left to right.
/// - An empty `oldStr` creates the content: allowed when the file does not exist (`content`
///   `null`) or is empty or whitespace only.
/// - Trailing whitespace is stripped from every line of `newStr`, except when `path` ends in
///   `.md` or `.mdx` (any case), where two trailing spaces are a line break. `path` is used for
///   nothing else.
/// - Deleting (`newStr` empty) a text that starts a line and is followed by a line ending
///   removes that line ending too, so no empty line is left behind.
///
/// Throws an `Error` with the core's `code` and message: `old_equals_new` ("No changes to make:
/// old_string and new_string are exactly the same."), `file_exists` (empty `oldStr`, non-empty
/// file), `file_not_found` (`content` is `null` and `oldStr` is not empty), `not_found`
/// ("String to replace not found in file.", then a line "String: " and `oldStr`),
/// `multiple_matches` ("Found N matches of the string to replace, but replace_all is false. …").
/// An argument of the wrong type throws a `TypeError` (`code === "ERR_INVALID_ARG_TYPE"`).
///
/// Strings cross into Rust as UTF-8: a lone surrogate becomes U+FFFD.
///
/// @param content The file's text, or `null` when the file does not exist.
/// @param oldStr The text to replace (empty: create the file).
/// @param newStr The replacement.
/// @param replaceAll Replace every occurrence instead of requiring exactly one (default `false`).
/// @param path The file's path, only to tell Markdown (which keeps trailing whitespace) apart.
/// @param options `omissionGuard` (default `true`): refuse a `newStr` that stands in for lines of
/// `oldStr` with a placeholder line such as `// ... existing code ...` (`omission_placeholder`).
/// @example
/// ```ts
/// import { strReplace } from "hunkloom"
/// const { newContent, firstEdit } = strReplace(file, 'print("hi")', 'print("bye")', false, "a.py")
/// ```
#[napi(
    catch_unwind,
    ts_args_type = "content: string | null, oldStr: string, newStr: string, replaceAll?: boolean, path?: string | null, options?: StrReplaceOptions"
)]
pub fn str_replace(
    env: &Env,
    content: Unknown<'_>,
    old_str: Unknown<'_>,
    new_str: Unknown<'_>,
    replace_all: Unknown<'_>,
    path: Unknown<'_>,
    options: Unknown<'_>,
) -> napi::Result<Edit> {
    let run = || -> Result<Edit, Failure> {
        let content = args::nullable_string(&content, "content")?;
        let old_str = args::string(&old_str, "oldStr")?;
        let new_str = args::string(&new_str, "newStr")?;
        let replace_all = args::optional_boolean(&replace_all, "replaceAll")?.unwrap_or(false);
        let path = args::optional_nullable_string(&path, "path")?;
        let options = args::Options::read(&options, "options", args::keys::STR_REPLACE)?;
        let guard = options.boolean("omissionGuard")?.unwrap_or(true);
        let mut settings = StrReplaceOptions::new()
            .replace_all(replace_all)
            .guards(Guards::NATIVE.omission_placeholders(guard));
        if let Some(path) = path {
            settings = settings.path(path);
        }
        let edit = ops::str_replace_with(content.as_deref(), &old_str, &new_str, &settings)?;
        Ok(Edit::from(edit))
    };
    errors::run(env, run)
}

/// Inserts `text` as whole lines into `content` at `line`, counted by `convention`:
///
/// - `"before"` (Roo's `insert_content` numbering): before 1-based line `line`; `0` or a line
///   past the end appends.
/// - `"after"` (Anthropic's text editor `insert`): after line `line`; `0` inserts at the top; a
///   line past the end throws an `Error` with `code === "invalid_line"` whose message names the
///   valid range ("Invalid `insert_line` parameter: 9. It should be within the range of lines of
///   the file: [0, 2]").
///
/// One trailing line ending of `text` is dropped (`x` and a line break is the one line `x`); its
/// lines are written with the file's line ending (CRLF in a CRLF file), and whether
/// the file ends with a line ending is kept.
///
/// Throws: `invalid_line` (above), `invalid_convention` for another convention string, a
/// `TypeError` for an argument of the wrong type, a `RangeError`
/// (`code === "ERR_OUT_OF_RANGE"`) when `line` is not a non-negative integer.
///
/// @param content The file's text.
/// @param line The line number, a non-negative integer.
/// @param text The lines to insert.
/// @param convention `"before"` or `"after"`: which side of `line` the text goes.
/// @example
/// ```ts
/// import { insert } from "hunkloom"
/// const { newContent, firstEdit } = insert(file, 3, "import os", "after") // after line 3
/// ```
#[napi(
    catch_unwind,
    ts_args_type = "content: string, line: number, text: string, convention: 'before' | 'after'"
)]
pub fn insert(
    env: &Env,
    content: Unknown<'_>,
    line: Unknown<'_>,
    text: Unknown<'_>,
    convention: Unknown<'_>,
) -> napi::Result<Edit> {
    let run = || -> Result<Edit, Failure> {
        let content = args::string(&content, "content")?;
        let line = line_number(&line, "line")?;
        let text = args::string(&text, "text")?;
        let convention: Convention = args::string(&convention, "convention")?.parse()?;
        Ok(Edit::from(ops::insert(&content, line, &text, convention)?))
    };
    errors::run(env, run)
}

/// Roo Code's `insert_content` tool as a whole, byte for byte (Roo removed it in December 2025;
/// agents built on it still send its calls): `line` is the raw argument as the tool received it.
///
/// - `line`: a string (XML protocol) is read with `parseInt(line, 10)`, a number (native
///   protocol) is used as is, `undefined` or `null` (omitted) is invalid. 1-based: the content
///   goes before that line; `0` appends.
/// - `original` `null`: the file does not exist, and only lines 0 and 1 are accepted; the new
///   file's text is `content` (`editType` `"create"`).
/// - Like the tool, it joins with LF even in a CRLF file, and appending (line 0) to a file that
///   ends in a line break adds a blank line, then `content` without a final line break
///   (`insert(…, "before")` is the line-ending-aware version).
/// - `content` `undefined` or `null` (omitted) is an empty text.
///
/// Throws an `Error` with Roo's message: `invalid_line_number` ("Invalid line number. Must be a
/// non-negative integer.") and `invalid_line_for_new_file` ("Cannot insert content at line 5
/// into a non-existent file. …"); a `TypeError` for an argument of the wrong type.
///
/// @param original The file's text, or `null` when the file does not exist.
/// @param line The tool's raw `line` argument.
/// @param content The tool's raw `content` argument.
/// @example
/// ```ts
/// import { insertContent } from "hunkloom"
/// const { newContent, editType } = insertContent(original, params.line, params.content)
/// ```
#[napi(
    catch_unwind,
    ts_args_type = "original: string | null, line: string | number | null | undefined, content?: string | null"
)]
pub fn insert_content(
    env: &Env,
    original: Unknown<'_>,
    line: Unknown<'_>,
    content: Unknown<'_>,
) -> napi::Result<InsertedContent> {
    let run = || -> Result<InsertedContent, Failure> {
        let original = args::nullable_string(&original, "original")?;
        let line = args::line_arg(&line, "line")?;
        let content = args::optional_nullable_string(&content, "content")?;
        let inserted = ops::insert_content(original.as_deref(), line, content.as_deref())?;
        Ok(InsertedContent::from(inserted))
    };
    errors::run(env, run)
}

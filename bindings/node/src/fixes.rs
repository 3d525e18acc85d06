//! The content fixes of a whole-file write: Cline's `write_to_file` pipeline (`write`) and its
//! parts, byte-identical with Cline v4.0.10.

use hunkloom::fixes::{self, Fix};
use napi::{Env, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};
use crate::types::Written;

/// Runs `f` on the checked string argument `text`.
fn text_op(env: &Env, text: &Unknown<'_>, f: impl FnOnce(&str) -> String) -> napi::Result<String> {
    errors::run(env, || Ok(f(&args::string(text, "text")?)))
}

/// Cline's `write_to_file` content pipeline: what to write when a model sends `modelContent` as
/// a whole file. Runs, in order, each fix that applies, and names those that changed something:
///
/// 1. `strip_markdown_fences`: a Markdown fence around the text is removed (see
///    `stripMarkdownFences`);
/// 2. `fix_model_html_escaping`: `&gt; &lt; &quot; &amp; &apos;` unescaped — only when `modelId`
///    does not contain `claude` (case-sensitive) and `path` does not end in `.xml` (any case);
/// 3. `remove_invalid_chars`: U+FFFD removed — only when `modelId` does not contain `claude`.
///
/// `fixes` limits the pipeline to the named fixes (each still under its own conditions); an
/// unknown name throws an `Error` with `code === "invalid_fix"`. An argument of the wrong type
/// throws a `TypeError`.
///
/// @param modelContent The file content as the model sent it.
/// @param path The file's path (only the `.xml` test uses it).
/// @param modelId The model's id (fixes 2 and 3 are skipped for ids containing `claude`).
/// @param fixes The fixes to run (default: all three).
/// @example
/// ```ts
/// import { write } from "hunkloom"
/// // The model sent the file in a fence, with `<` escaped as `&lt;`:
/// const { newContent, fixesApplied } = write(modelContent, "src/a.js", "gpt-4o")
/// // fixesApplied: ["strip_markdown_fences", "fix_model_html_escaping"]
/// ```
#[napi(
    catch_unwind,
    ts_args_type = "modelContent: string, path?: string | null, modelId?: string | null, fixes?: Array<'strip_markdown_fences' | 'fix_model_html_escaping' | 'remove_invalid_chars'> | null"
)]
pub fn write(
    env: &Env,
    model_content: Unknown<'_>,
    path: Unknown<'_>,
    model_id: Unknown<'_>,
    fixes: Unknown<'_>,
) -> napi::Result<Written> {
    let run = || -> Result<Written, Failure> {
        let model_content = args::string(&model_content, "modelContent")?;
        let path = args::optional_nullable_string(&path, "path")?;
        let model_id = args::optional_nullable_string(&model_id, "modelId")?;
        let enabled = match args::optional_string_array(&fixes, "fixes")? {
            None => Fix::ALL.to_vec(),
            Some(names) => names
                .iter()
                .map(|name| name.parse::<Fix>())
                .collect::<hunkloom::Result<Vec<Fix>>>()?,
        };
        let written = fixes::write_with(
            &model_content,
            path.as_deref(),
            model_id.as_deref(),
            &enabled,
        );
        Ok(Written::from(written))
    };
    errors::run(env, run)
}

/// The fence removal of Cline's `write_to_file`, byte-identical with Cline v4.0.10: if the text
/// starts with ```` ``` ````, its first line (the fence, with any language tag) is dropped and
/// the rest trimmed; then, if it ends with ```` ``` ````, its last line is dropped and the rest
/// trimmed (JavaScript's `trim`). A text without a fence at either end is returned unchanged.
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn strip_markdown_fences(env: &Env, text: Unknown<'_>) -> napi::Result<String> {
    text_op(env, &text, fixes::strip_markdown_fences)
}

/// Cline's `applyModelContentFixes(text, modelId, filePath)`: unless `modelId` contains
/// `claude` (case-sensitive), `fixModelHtmlEscaping` (skipped when `filePath` ends in `.xml`,
/// any case) and then `removeInvalidChars`. `undefined` or `null` stands for an omitted
/// argument.
#[napi(
    catch_unwind,
    ts_args_type = "text: string, modelId?: string | null, filePath?: string | null"
)]
pub fn apply_model_content_fixes(
    env: &Env,
    text: Unknown<'_>,
    model_id: Unknown<'_>,
    file_path: Unknown<'_>,
) -> napi::Result<String> {
    let run = || -> Result<String, Failure> {
        let text = args::string(&text, "text")?;
        let model_id = args::optional_nullable_string(&model_id, "modelId")?;
        let file_path = args::optional_nullable_string(&file_path, "filePath")?;
        Ok(fixes::apply_model_content_fixes(
            &text,
            model_id.as_deref(),
            file_path.as_deref(),
        ))
    };
    errors::run(env, run)
}

/// Cline's `fixModelHtmlEscaping`: unescapes `&gt;`, `&lt;`, `&quot;`, `&amp;` and `&apos;`, in
/// that order (so `&amp;lt;` becomes `&lt;`), as some non-Claude models escape code.
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn fix_model_html_escaping(env: &Env, text: Unknown<'_>) -> napi::Result<String> {
    text_op(env, &text, fixes::fix_model_html_escaping)
}

/// Cline's `removeInvalidChars`: removes every U+FFFD (the replacement character a broken byte
/// sequence leaves in model output).
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn remove_invalid_chars(env: &Env, text: Unknown<'_>) -> napi::Result<String> {
    text_op(env, &text, fixes::remove_invalid_chars)
}

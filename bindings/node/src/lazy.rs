//! `applyLazy`: a snippet with `// ... existing code ...` markers merged into a file without a
//! model; and the reading of the `path` / `lang` options it shares with
//! `Workspace.applyLazy`.

use hunkloom::lazy::Language;
use napi::{Env, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};

/// The language of an options object's `lang` (a name or an extension), if given.
pub fn language(options: &args::Options<'_>) -> Result<Option<Language>, Failure> {
    match options.string("lang")? {
        None => Ok(None),
        Some(name) => Ok(Some(Language::from_name(&name)?)),
    }
}

/// Merges a lazy edit into `original` without a model and returns the whole new text, or
/// throws.
///
/// `snippet` is what a model writes when it does not repeat the whole file: the changed code
/// with a few unchanged lines around each change, and marker comments (`// ... existing code
/// ...`, `# ...`, `/* ... */`, …) for what it leaves out; a comment `// removed NAME` deletes
/// the definition `NAME`. Each part between markers is placed only where its first and last
/// lines occur exactly once in the file (comparing lines exactly, then ignoring indentation,
/// then all whitespace; the file's own text is kept for those lines and new lines are
/// re-indented to match). A part that cannot be placed for certain throws an `Error` whose
/// message names the part and why, with `code` `"lazy_no_anchor"` (a first or last line found
/// nowhere), `"lazy_ambiguous"` (found at several places; `err.matches` lists them),
/// `"lazy_silent_deletion"` (a whole function or class left out without a `// removed NAME`
/// comment), `"lazy_conflict"` (parts out of the file's order) or `"lazy_indentation"`. A
/// snippet without markers is the whole new file.
///
/// The language (which comments are markers) comes from `lang` (`"python"`, `"typescript"`,
/// `"go"`, `"rust"`, `"java"`, or an extension such as `"py"`, `"js"`, `"kt"`, `"sh"`), else
/// from the extension of `path`; an unknown `lang` throws `invalid_language`. Throws a
/// `TypeError` for an argument of the wrong type.
///
/// @param snippet What the model wrote.
/// @param original The file's content.
/// @param options `path` (its extension gives the language) and `lang`.
/// @example
/// ```ts
/// import { applyLazy } from "hunkloom"
/// const merged = applyLazy(snippet, original, { path: "src/app.ts" })
/// ```
#[napi(
    catch_unwind,
    ts_args_type = "snippet: string, original: string, options?: LazyOptions"
)]
pub fn apply_lazy(
    env: &Env,
    snippet: Unknown<'_>,
    original: Unknown<'_>,
    options: Unknown<'_>,
) -> napi::Result<String> {
    let run = || -> Result<String, Failure> {
        let snippet = args::string(&snippet, "snippet")?;
        let original = args::string(&original, "original")?;
        let options = args::Options::read(&options, "options", args::keys::LAZY)?;
        let mut lazy = hunkloom::LazyOptions::new();
        lazy.path = options.string("path")?;
        lazy.language = language(&options)?;
        Ok(hunkloom::apply_lazy(&snippet, &original, &lazy)?)
    };
    errors::run(env, run)
}

/// Options of `applyLazy`.
#[napi(object)]
pub struct LazyOptions {
    /// The file's path: its extension gives the language when `lang` is not set.
    pub path: Option<String>,
    /// The file's language: `"python"`, `"typescript"` (also JavaScript), `"go"`, `"rust"`,
    /// `"java"`, `"slash_comments"`, `"hash_comments"`, `"other"`, or a short name or
    /// extension (`"py"`, `"ts"`, `"js"`, `"rs"`, `"kt"`, `"sh"`, …). An unknown one throws an
    /// `Error` with `code === "invalid_language"`.
    pub lang: Option<String>,
}

/// Options of `Workspace.write`.
#[napi(object)]
pub struct WorkspaceWriteOptions {
    /// The shorter file is meant: no `suspected_truncation` check (default false).
    pub allow_shrink: Option<bool>,
}

/// Options of `Workspace.applyLazy`.
#[napi(object)]
pub struct WorkspaceLazyOptions {
    /// The file's language (see `LazyOptions.lang`; default: from the file's path).
    pub lang: Option<String>,
}

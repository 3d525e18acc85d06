//! The `Workspace` class: the file layer (`hunkloom-fs`) — paths kept inside a root,
//! read-before-edit and staleness checks, encodings and line endings kept, atomic commits,
//! undo.
//!
//! The class keeps a `hunkloom_fs::Workspace` in a [`Shared`], the lifecycle every binding
//! shares: a panic inside the file layer retires the workspace instead of leaving half-updated
//! read records and undo history in use. The plain methods are synchronous (small file reads
//! and writes on the calling thread); the `…Async` forms run on libuv's thread pool, many at once
//! on one workspace.

use hunkloom::ops::{Convention, Guards};
use hunkloom_fs::WorkspaceOptions;
use std::sync::Arc;

use hunkloom_handle::Shared;
use napi::bindgen_prelude::{AsyncTask, ToNapiValue, TypeName};
use napi::{Env, Task, Unknown};
use napi_derive::napi;

use crate::errors::{self, Failure};
use crate::types::{EditOutcome, PatchOutcome};
use crate::{apply, args, ops};

/// A directory whose files a model's edits are applied to safely. The same rules as the
/// Rust `hunkloom_fs::Workspace`, the Python `Workspace` and the CLI:
///
/// - **Paths stay inside the root.** Relative paths join it; absolute paths must lie inside
///   it; `..` escapes and symlinks leading outside throw `path_outside_root`, UNC paths
///   `unc_path`, paths the ignore file (gitignore syntax, `.hunkloomignore` by default)
///   matches `path_ignored`, Jupyter notebooks `notebook_not_supported`.
/// - **Read before edit.** `read` records each file's content hash; an edit of an existing
///   file not read through this workspace throws `not_read`, of one whose content changed
///   since `stale_file` (a touch alone is fine). Creating a file needs no read. A missing file
///   is `file_not_found`, with up to three similar paths suggested.
/// - **Bytes survive.** UTF-8, UTF-8 with a BOM and UTF-16 LE/BE with a BOM are written back
///   in the same encoding with the same BOM; text in a legacy encoding (windows-125x,
///   Latin-1, Shift_JIS, GBK, …, detected) is written back in it, and new text with a
///   character it lacks throws `unrepresentable_text`; other files (binary) throw
///   `unsupported_encoding` and are never rewritten. `strReplace`, `insert` and `applyDiff` in `native` see the text with
///   CRLF line endings read as LF (a model's LF text matches a CRLF file) and untouched lines
///   keep their own line endings; the Cline dialects see the text unchanged. Files above
///   `maxFileSize` throw `file_too_large`.
/// - **Atomic writes:** a temporary file renamed over the old one; permissions and symlinks
///   kept.
/// - **Undo:** `undo(path)` takes back the file's last edit (up to `undoDepth` of them);
///   refused with `stale_file` if the file changed since, `nothing_to_undo` without one.
/// - **Multi-file patches:** `applyPatch(patch)` commits a `*** Begin Patch` patch all files
///   or none.
///
/// Every error is an `Error` with a stable `code` (the codes above, `io_error` with the
/// system's message, the operations' own codes such as `not_found` or `search_not_found`); a
/// wrong argument type is a `TypeError` (`code === "ERR_INVALID_ARG_TYPE"`).
///
/// The plain methods are synchronous (the file I/O is small and runs on the calling thread).
/// Their Promise forms (`readAsync`, `strReplaceAsync`, `insertAsync`, `writeAsync`,
/// `applyDiffAsync`, `applyPatchAsync`) run on libuv's thread pool, so a model's parallel tool
/// calls can be made at once on one workspace: calls on different files run in parallel, calls
/// editing one file take turns, and each edit is computed on what was read when its call
/// started and merged into the file as the calls before it left it — edits of different lines
/// all land, and of two edits of one line the second rejects with `stale_file` naming the
/// lines. A call that waits longer than `lockTimeout` for its turn throws `lock_timeout`. Paths
/// cross as UTF-8 strings; `EditOutcome.path` and `root` are the resolved absolute paths.
///
/// @example
/// ```ts
/// import { Workspace } from "hunkloom"
/// const ws = new Workspace(projectDir)
/// const text = ws.read("src/app.py")
/// try {
///   ws.strReplace("src/app.py", "print('hi')", "print('hello')")
/// } catch (err) {
///   // err.code: "stale_file" (changed since read), "not_found", …
/// }
/// ```
#[napi]
pub struct Workspace {
    inner: Arc<Shared<hunkloom_fs::Workspace>>,
}

/// One file-layer call of a `…Async` method, its arguments already read on the JavaScript
/// thread.
type Call<O> = Box<dyn FnOnce(&hunkloom_fs::Workspace) -> hunkloom::Result<O> + Send>;

/// The work of one `…Async` call, run on libuv's thread pool, so that several calls on one
/// workspace run at once (the file layer takes turns per file). Argument errors found on the
/// JavaScript thread travel through it too, so they reject the Promise instead of throwing.
pub struct WorkspaceTask<O> {
    workspace: Arc<Shared<hunkloom_fs::Workspace>>,
    call: Option<Result<Call<O>, Failure>>,
}

impl<O: ToNapiValue + TypeName + Send + 'static> WorkspaceTask<O> {
    fn new(workspace: &Workspace, call: Result<Call<O>, Failure>) -> AsyncTask<Self> {
        AsyncTask::new(WorkspaceTask {
            workspace: Arc::clone(&workspace.inner),
            call: Some(call),
        })
    }
}

impl<O: ToNapiValue + TypeName + Send + 'static> Task for WorkspaceTask<O> {
    type Output = Result<O, Failure>;
    type JsValue = O;

    /// Runs on a libuv thread, outside every `#[napi(catch_unwind)]`: a panic here would abort
    /// the process, so it is caught and rejects the Promise (`internal_error`).
    fn compute(&mut self) -> napi::Result<Self::Output> {
        let call = self.call.take();
        let workspace = &self.workspace;
        Ok(errors::catch(|| match call {
            Some(Ok(call)) => Ok(workspace.with(call).and_then(|result| result)?),
            Some(Err(failure)) => Err(failure),
            None => Err(Failure::ArgType("the task ran twice".to_owned())),
        })
        .and_then(|result| result))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<O> {
        output.map_err(|f| f.into_napi(&env))
    }
}

impl Workspace {
    /// Runs `call` on the file layer's workspace; a panic inside retires it (the files on disk
    /// stay whole, since commits are all or none, but its read records and undo history may
    /// not be), and every later call throws `internal_error`.
    fn with<T>(
        &self,
        call: impl FnOnce(&hunkloom_fs::Workspace) -> hunkloom::Result<T>,
    ) -> Result<T, Failure> {
        Ok(self.inner.with(call).and_then(|result| result)?)
    }

    /// Runs a parsed call on the calling thread (the plain, synchronous methods).
    fn run<O>(&self, call: Result<Call<O>, Failure>) -> Result<O, Failure> {
        self.with(call?)
    }
}

// Each method's arguments, read on the JavaScript thread into the call to make: the same for
// the synchronous method and its Promise form.

fn read_call(path: &Unknown<'_>) -> Result<Call<String>, Failure> {
    let path = args::string(path, "path")?;
    Ok(Box::new(move |ws| ws.read(path)))
}

fn str_replace_call(
    path: &Unknown<'_>,
    old_str: &Unknown<'_>,
    new_str: &Unknown<'_>,
    replace_all: &Unknown<'_>,
) -> Result<Call<EditOutcome>, Failure> {
    let path = args::string(path, "path")?;
    let old_str = args::string(old_str, "oldStr")?;
    let new_str = args::string(new_str, "newStr")?;
    let replace_all = args::optional_boolean(replace_all, "replaceAll")?.unwrap_or(false);
    Ok(Box::new(move |ws| {
        ws.str_replace(path, &old_str, &new_str, replace_all)
            .map(EditOutcome::from)
    }))
}

fn insert_call(
    path: &Unknown<'_>,
    line: &Unknown<'_>,
    text: &Unknown<'_>,
    convention: &Unknown<'_>,
) -> Result<Call<EditOutcome>, Failure> {
    let path = args::string(path, "path")?;
    let line = ops::line_number(line, "line")?;
    let text = args::string(text, "text")?;
    let convention: Convention = args::string(convention, "convention")?.parse()?;
    Ok(Box::new(move |ws| {
        ws.insert(path, line, &text, convention)
            .map(EditOutcome::from)
    }))
}

fn write_call(
    path: &Unknown<'_>,
    content: &Unknown<'_>,
    options: &Unknown<'_>,
) -> Result<Call<EditOutcome>, Failure> {
    let path = args::string(path, "path")?;
    let content = args::string(content, "content")?;
    let options = args::Options::read(options, "options", args::keys::WORKSPACE_WRITE)?;
    let allow_shrink = options.boolean("allowShrink")?.unwrap_or(false);
    Ok(Box::new(move |ws| {
        if allow_shrink {
            ws.overwrite(path, &content).map(EditOutcome::from)
        } else {
            ws.write(path, &content).map(EditOutcome::from)
        }
    }))
}

fn apply_diff_call(
    path: &Unknown<'_>,
    diff: &Unknown<'_>,
    options: &Unknown<'_>,
) -> Result<Call<EditOutcome>, Failure> {
    let path = args::string(path, "path")?;
    let diff = args::string(diff, "diff")?;
    let options = args::Options::read(options, "options", args::keys::APPLY)?;
    let options = apply::apply_options(&options)?;
    Ok(Box::new(move |ws| {
        ws.apply_diff(path, &diff, &options).map(EditOutcome::from)
    }))
}

fn apply_patch_call(
    patch: &Unknown<'_>,
    options: &Unknown<'_>,
) -> Result<Call<PatchOutcome>, Failure> {
    let patch = args::string(patch, "patch")?;
    let options = args::Options::read(options, "options", args::keys::PATCH)?;
    let options = crate::patch::patch_options(&options)?;
    Ok(Box::new(move |ws| {
        ws.apply_patch(&patch, &options).map(PatchOutcome::from)
    }))
}

#[napi]
impl Workspace {
    /// Opens the existing directory `root`. If a multi-file commit there was interrupted by a
    /// crash, it is completed or rolled back first.
    ///
    /// Throws `io_error` if `root` is not an accessible directory; a `TypeError` or a
    /// `RangeError` (`code === "ERR_OUT_OF_RANGE"`) for a bad option.
    ///
    /// @param root The workspace's root directory.
    /// @param options `ignoreFile` (default `".hunkloomignore"`), `maxFileSize` (bytes,
    /// default 1 GiB), `undoDepth` (edits per file, default 5), `maxKeptRead` (bytes of each
    /// file read kept for merging an edit around later changes, default 4 MiB), `omissionGuard`
    /// (refuse writes and replacements that elide code with a placeholder line, default true),
    /// `lockTimeout` (milliseconds a call waits for its turn, default 5000), `protect` (globs of
    /// paths never written), `protectDefaults` (default true: `.git` and the other
    /// version-control directories and the ignore file are never written) and
    /// `legacyEncodings` (default true: files in windows-1251, Latin-1, Shift_JIS, … are read
    /// and written back in their encoding).
    #[napi(
        catch_unwind,
        constructor,
        ts_args_type = "root: string, options?: WorkspaceOptions"
    )]
    pub fn new(env: &Env, root: Unknown<'_>, options: Unknown<'_>) -> napi::Result<Self> {
        let run = || -> Result<Self, Failure> {
            let root = args::string(&root, "root")?;
            let options = args::Options::read(&options, "options", args::keys::WORKSPACE)?;
            let mut settings = WorkspaceOptions::new();
            if let Some(name) = options.string("ignoreFile")? {
                settings = settings.ignore_file(name);
            }
            if let Some(bytes) = options.integer("maxFileSize")? {
                settings = settings.max_file_size(bytes);
            }
            if let Some(bytes) = options.integer("maxKeptRead")? {
                settings = settings.max_kept_read(bytes);
            }
            if let Some(depth) = options.integer("undoDepth")? {
                settings = settings.undo_depth(usize::try_from(depth).unwrap_or(usize::MAX));
            }
            if let Some(on) = options.boolean("omissionGuard")? {
                settings = settings.guards(Guards::NATIVE.omission_placeholders(on));
            }
            if let Some(globs) = options.string_array("protect")? {
                settings = settings.protect(globs);
            }
            if let Some(on) = options.boolean("protectDefaults")? {
                settings = settings.protect_defaults(on);
            }
            if let Some(on) = options.boolean("legacyEncodings")? {
                settings = settings.legacy_encodings(on);
            }
            if let Some(name) = options.string("durability")? {
                settings = settings.durability(name.parse()?);
            }
            if let Some(ms) = options.integer("lockTimeout")? {
                settings = settings.lock_timeout(std::time::Duration::from_millis(ms));
            }
            let workspace = hunkloom_fs::Workspace::open(root, settings)?;
            Ok(Workspace {
                inner: Arc::new(Shared::new("workspace", workspace)),
            })
        };
        errors::run(env, run)
    }

    /// The root directory: absolute, symlinks resolved.
    #[napi(catch_unwind, getter)]
    pub fn root(&self, env: &Env) -> napi::Result<String> {
        errors::run(env, || {
            self.with(|ws| Ok(ws.root().to_string_lossy().into_owned()))
        })
    }

    /// Reads a file: its decoded text, line endings as they are. Records its content hash,
    /// which later edits are checked against.
    ///
    /// Throws the path checks' codes, `file_not_found`, `file_too_large`,
    /// `unsupported_encoding`, `io_error`.
    #[napi(catch_unwind, ts_args_type = "path: string")]
    pub fn read(&self, env: &Env, path: Unknown<'_>) -> napi::Result<String> {
        errors::run(env, || self.run(read_call(&path)))
    }

    /// Claude Code's edit (see the function `strReplace`) on a file: `oldStr` must occur
    /// exactly once unless `replaceAll`. An empty `oldStr` creates a missing (or empty) file.
    /// The file must have been read and be unchanged since (`not_read`, `stale_file`).
    ///
    /// @param path The file.
    /// @param oldStr The text to replace (LF line endings match a CRLF file).
    /// @param newStr The replacement.
    /// @param replaceAll Replace every occurrence (default `false`).
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, oldStr: string, newStr: string, replaceAll?: boolean"
    )]
    pub fn str_replace(
        &self,
        env: &Env,
        path: Unknown<'_>,
        old_str: Unknown<'_>,
        new_str: Unknown<'_>,
        replace_all: Unknown<'_>,
    ) -> napi::Result<EditOutcome> {
        errors::run(env, || {
            self.run(str_replace_call(&path, &old_str, &new_str, &replace_all))
        })
    }

    /// Inserts `text` as whole lines at `line` (see the function `insert`): `"before"` 1-based
    /// line `line` (0 or past the end appends), or `"after"` line `line` (0: at the top). The
    /// file must have been read and be unchanged since.
    ///
    /// @param path The file.
    /// @param line The line number, a non-negative integer.
    /// @param text The lines to insert.
    /// @param convention `"before"` or `"after"`.
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, line: number, text: string, convention: 'before' | 'after'"
    )]
    pub fn insert(
        &self,
        env: &Env,
        path: Unknown<'_>,
        line: Unknown<'_>,
        text: Unknown<'_>,
        convention: Unknown<'_>,
    ) -> napi::Result<EditOutcome> {
        errors::run(env, || {
            self.run(insert_call(&path, &line, &text, &convention))
        })
    }

    /// Writes `content` as the file's whole content, as given (the file keeps its encoding and
    /// BOM; clean a model's content first with the function `write` if wanted). Creates a
    /// missing file (and needs no read then); an existing file must have been read and be
    /// unchanged since.
    ///
    /// A write that would cut an existing file to less than half of its lines and looks cut
    /// off (ends inside a line, a bracket left open) throws `suspected_truncation`, unless
    /// `options.allowShrink` says the shorter file is meant.
    ///
    /// @param path The file.
    /// @param content The new content.
    /// @param options `allowShrink` (default false).
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, content: string, options?: WorkspaceWriteOptions"
    )]
    pub fn write(
        &self,
        env: &Env,
        path: Unknown<'_>,
        content: Unknown<'_>,
        options: Unknown<'_>,
    ) -> napi::Result<EditOutcome> {
        errors::run(env, || self.run(write_call(&path, &content, &options)))
    }

    /// Applies a SEARCH/REPLACE diff to the file (see the function `applyDiff`; `native` by
    /// default, where the diff sees the text with LF line endings and the file keeps its
    /// own). On a missing file the diff is applied to empty content and creates the file if
    /// that succeeds. An existing file must have been read and be unchanged since.
    ///
    /// @param path The file.
    /// @param diff The SEARCH/REPLACE blocks, complete.
    /// @param options `dialect` (default `"native"`) and `policy` (default
    /// `"all_or_nothing"`).
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, diff: string, options?: ApplyOptions"
    )]
    pub fn apply_diff(
        &self,
        env: &Env,
        path: Unknown<'_>,
        diff: Unknown<'_>,
        options: Unknown<'_>,
    ) -> napi::Result<EditOutcome> {
        errors::run(env, || self.run(apply_diff_call(&path, &diff, &options)))
    }

    /// Merges a lazy edit (see the function `applyLazy`) into the file, all or nothing: the
    /// snippet sees the text with LF line endings and the file keeps its own, its encoding and
    /// BOM. The file must exist, have been read and be unchanged since. Throws the lazy codes
    /// of `applyLazy` and the file layer's (`not_read`, `stale_file`, `file_not_found`, …).
    ///
    /// @param path The file.
    /// @param snippet What the model wrote.
    /// @param options `lang`: the file's language (default: from the path).
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, snippet: string, options?: WorkspaceLazyOptions"
    )]
    pub fn apply_lazy(
        &self,
        env: &Env,
        path: Unknown<'_>,
        snippet: Unknown<'_>,
        options: Unknown<'_>,
    ) -> napi::Result<EditOutcome> {
        let run = || -> Result<EditOutcome, Failure> {
            let path = args::string(&path, "path")?;
            let snippet = args::string(&snippet, "snippet")?;
            let options = args::Options::read(&options, "options", args::keys::WORKSPACE_LAZY)?;
            let language = crate::lazy::language(&options)?;
            Ok(EditOutcome::from(
                self.with(|ws| ws.apply_lazy(path, &snippet, language))?,
            ))
        };
        errors::run(env, run)
    }

    /// Applies a multi-file patch in the `*** Begin Patch` format, or a git patch in the
    /// `udiff` / `udiff-strict` dialects (see the function `applyPatch`), to the files under
    /// the root, all files or none: every path is checked like any workspace path (a refusal
    /// refuses the whole patch), every file is planned in memory first, then all are
    /// committed atomically (a crash leaves each file entirely old or entirely new). Every
    /// file keeps its encoding, BOM and the endings of its untouched lines; new files are
    /// UTF-8.
    ///
    /// A patch needs no `read` first (Codex's tool has none), but a file read here must still
    /// have the content it had then (`stale_file`). Files written count as read, and each can
    /// be taken back with `undo`.
    ///
    /// Throws the path checks' codes, `stale_file`, `unsupported_encoding`, `file_too_large`,
    /// `io_error`, and the patch errors of `applyPatch` (`patch_file_not_found` suggests
    /// similar paths). With `policy: "partial"` the hunks before a failing one are committed
    /// and the failure is returned in `failure` (Codex's behaviour).
    ///
    /// @param patch The whole patch text; its paths are relative to the root (or absolute
    /// inside it).
    /// @param options `dialect` (default `"codex"`), `policy` (default `"all_or_nothing"`) and
    /// `recount` (`udiff-strict`).
    #[napi(catch_unwind, ts_args_type = "patch: string, options?: PatchOptions")]
    pub fn apply_patch(
        &self,
        env: &Env,
        patch: Unknown<'_>,
        options: Unknown<'_>,
    ) -> napi::Result<PatchOutcome> {
        errors::run(env, || self.run(apply_patch_call(&patch, &options)))
    }

    /// Takes back the last edit of the file made through this workspace, atomically
    /// (re-creating a deleted file, removing a created one).
    ///
    /// Throws `nothing_to_undo`, or `stale_file` if the file changed since that edit (then
    /// nothing is undone).
    ///
    /// @param path The file.
    #[napi(catch_unwind, ts_args_type = "path: string")]
    pub fn undo(&self, env: &Env, path: Unknown<'_>) -> napi::Result<EditOutcome> {
        errors::run(env, || {
            let path = args::string(&path, "path")?;
            Ok(EditOutcome::from(self.with(|ws| ws.undo(path))?))
        })
    }
}

/// The Promise forms: the same calls, run on libuv's thread pool. Several of them on one
/// workspace run at once — a model's parallel tool calls — and none is refused for that: calls
/// on different files run in parallel, calls editing one file take turns, each edit computed on
/// what was read when its call started and merged into the file as the calls before it left it.
#[napi]
impl Workspace {
    /// `read` as a Promise.
    #[napi(
        catch_unwind,
        ts_args_type = "path: string",
        ts_return_type = "Promise<string>"
    )]
    pub fn read_async(&self, path: Unknown<'_>) -> AsyncTask<WorkspaceTask<String>> {
        WorkspaceTask::new(self, read_call(&path))
    }

    /// `strReplace` as a Promise.
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, oldStr: string, newStr: string, replaceAll?: boolean",
        ts_return_type = "Promise<EditOutcome>"
    )]
    pub fn str_replace_async(
        &self,
        path: Unknown<'_>,
        old_str: Unknown<'_>,
        new_str: Unknown<'_>,
        replace_all: Unknown<'_>,
    ) -> AsyncTask<WorkspaceTask<EditOutcome>> {
        WorkspaceTask::new(
            self,
            str_replace_call(&path, &old_str, &new_str, &replace_all),
        )
    }

    /// `insert` as a Promise.
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, line: number, text: string, convention: 'before' | 'after'",
        ts_return_type = "Promise<EditOutcome>"
    )]
    pub fn insert_async(
        &self,
        path: Unknown<'_>,
        line: Unknown<'_>,
        text: Unknown<'_>,
        convention: Unknown<'_>,
    ) -> AsyncTask<WorkspaceTask<EditOutcome>> {
        WorkspaceTask::new(self, insert_call(&path, &line, &text, &convention))
    }

    /// `write` as a Promise.
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, content: string, options?: WorkspaceWriteOptions",
        ts_return_type = "Promise<EditOutcome>"
    )]
    pub fn write_async(
        &self,
        path: Unknown<'_>,
        content: Unknown<'_>,
        options: Unknown<'_>,
    ) -> AsyncTask<WorkspaceTask<EditOutcome>> {
        WorkspaceTask::new(self, write_call(&path, &content, &options))
    }

    /// `applyDiff` as a Promise.
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, diff: string, options?: ApplyOptions",
        ts_return_type = "Promise<EditOutcome>"
    )]
    pub fn apply_diff_async(
        &self,
        path: Unknown<'_>,
        diff: Unknown<'_>,
        options: Unknown<'_>,
    ) -> AsyncTask<WorkspaceTask<EditOutcome>> {
        WorkspaceTask::new(self, apply_diff_call(&path, &diff, &options))
    }

    /// `applyPatch` as a Promise.
    #[napi(
        catch_unwind,
        ts_args_type = "patch: string, options?: PatchOptions",
        ts_return_type = "Promise<PatchOutcome>"
    )]
    pub fn apply_patch_async(
        &self,
        patch: Unknown<'_>,
        options: Unknown<'_>,
    ) -> AsyncTask<WorkspaceTask<PatchOutcome>> {
        WorkspaceTask::new(self, apply_patch_call(&patch, &options))
    }
}

/// The hidden test hook (a separate block: napi registers every method of a block).
#[cfg(feature = "fault-injection")]
#[napi]
impl Workspace {
    /// Makes the next call on this workspace panic inside the file layer. Internal, tests only
    /// (the `fault-injection` feature).
    #[napi(catch_unwind, js_name = "__injectPanic", skip_typescript)]
    pub fn inject_panic(&self) {
        self.inner.inject_panic();
    }
}

//! The `AiderApplier` class: the core's streaming aider-reply applier in a [`Handle`] (use
//! after `finish` and engine bugs throw; a JavaScript object is never shared between threads).

use std::collections::BTreeMap;

use hunkloom::Policy;
use hunkloom::patch::{PatchDialect, PatchOptions, aider};
use hunkloom_handle::Handle;
use napi::{Env, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};
use crate::types::PatchResult;

/// Applies a model's reply in one of aider's edit formats while it streams: `push` pieces of
/// any size (each returns the paths whose preview changed), read `preview(path)`, then
/// `finish()` for what `applyPatch(reply, files, { dialect })` gives for the whole reply,
/// however it was cut.
///
/// @example
/// ```ts
/// import { AiderApplier } from "hunkloom"
/// const applier = new AiderApplier({ "app.py": "x = 1\n" }, { dialect: "aider" })
/// for (const token of tokens) for (const path of applier.push(token)) show(path, applier.preview(path))
/// const { files } = applier.finish()
/// ```
#[napi]
pub struct AiderApplier {
    inner: Handle<aider::AiderApplier>,
    /// The chat files as given, for the result of `finish`.
    files: BTreeMap<String, String>,
}

#[napi]
impl AiderApplier {
    /// An applier of a reply over `files`, aider's chat files (content by path).
    ///
    /// @param files The chat files: content by path.
    /// @param options `dialect`: `"aider"` (the default), `"aider-fenced"`, `"aider-whole"` or
    /// `"aider-native"` (another name throws an `Error` with `code === "invalid_dialect"`);
    /// `policy`: `"all_or_nothing"` (the default) or `"partial"`.
    #[napi(
        catch_unwind,
        constructor,
        ts_args_type = "files: Record<string, string>, options?: { dialect?: 'aider' | 'aider-fenced' | 'aider-whole' | 'aider-native', policy?: 'all_or_nothing' | 'partial' }"
    )]
    pub fn new(env: &Env, files: Unknown<'_>, options: Unknown<'_>) -> napi::Result<Self> {
        let run = || -> Result<AiderApplier, Failure> {
            let files = args::string_record(&files, "files")?;
            let options = args::Options::read(&options, "options", &["dialect", "policy"])?;
            let dialect = match options.string("dialect")? {
                None => PatchDialect::Aider,
                Some(name) => name.parse::<PatchDialect>()?,
            };
            let policy = match options.string("policy")? {
                None => Policy::default(),
                Some(name) => name.parse::<Policy>()?,
            };
            let options = PatchOptions::new().dialect(dialect).policy(policy);
            let applier = aider::AiderApplier::new(files.clone(), &options)?;
            Ok(AiderApplier {
                inner: Handle::new("applier", applier),
                files,
            })
        };
        errors::run(env, run)
    }

    /// Feeds the next piece of the reply; returns the paths whose preview changed. Throws the
    /// reply's error once it can no longer parse (a block without a file name).
    #[napi(catch_unwind, ts_args_type = "chunk: string")]
    pub fn push(&mut self, env: &Env, chunk: Unknown<'_>) -> napi::Result<Vec<String>> {
        let chunk = args::string(&chunk, "chunk").map_err(|f| f.into_napi(env))?;
        match self.inner.with(|applier| applier.push(&chunk)) {
            Ok(Ok(paths)) => Ok(paths),
            Ok(Err(e)) | Err(e) => Err(Failure::Core(e).into_napi(env)),
        }
    }

    /// The file at `path` as the reply so far leaves it (a chat file's own text until a block
    /// changes it), or `null` for a path that is neither a chat file nor written by the reply.
    #[napi(
        catch_unwind,
        ts_args_type = "path: string",
        ts_return_type = "string | null"
    )]
    pub fn preview(&self, env: &Env, path: Unknown<'_>) -> napi::Result<Option<String>> {
        let path = args::string(&path, "path").map_err(|f| f.into_napi(env))?;
        self.inner
            .with(|applier| applier.preview(&path).map(str::to_owned))
            .map_err(|e| Failure::Core(e).into_napi(env))
    }

    /// The paths the reply has written so far, in the order first written.
    #[napi(catch_unwind, getter)]
    pub fn touched(&self, env: &Env) -> napi::Result<Vec<String>> {
        self.inner
            .with(|applier| applier.touched().to_vec())
            .map_err(|e| Failure::Core(e).into_napi(env))
    }

    /// Ends the reply: the whole file map afterwards (as `applyPatch` gives it), or its error.
    /// The applier is finished afterwards.
    #[napi(catch_unwind)]
    pub fn finish(&mut self, env: &Env) -> napi::Result<PatchResult> {
        let planned = self
            .inner
            .finish(|mut applier| applier.finish())
            .and_then(|plan| plan);
        let plan = planned.map_err(|e| Failure::Core(e).into_napi(env))?;
        Ok(PatchResult::of(&plan, self.files.clone()))
    }
}

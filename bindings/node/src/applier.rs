//! The `StreamingApplier` class: the core's applier in a [`Handle`], the lifecycle every
//! binding shares (`finish` consumes the core applier; a panic retires it).
//!
//! V8 sees only a small wrapper object, while the applier holds a copy of the original and the
//! preview, so each applier reports an estimate of that memory to V8
//! (`napi_adjust_external_memory`) until it is finished or collected: without it, a program that
//! drops many appliers over large files would let them pile up between garbage collections.

use std::sync::Arc;

use hunkloom::PreviewForm;
use hunkloom::text::OriginalText;
use hunkloom_handle::Handle;
use napi::bindgen_prelude::{External, ObjectFinalize};
use napi::{Env, Unknown};
use napi_derive::napi;

use crate::errors::{self, Failure};
use crate::pieces::{self, Extra, Reply, Wire};
use crate::stream::{Original, Stream};
use crate::types::{BlockReport, Outcome, Update, indices};
use crate::{apply, args};

/// Applies a SEARCH/REPLACE diff to one original text while the diff streams in.
///
/// Push the diff in pieces of any size — whole, per line, per token, per character: chunking
/// never changes the result. After each push, `preview` is what the file looks like so far
/// (in the Cline dialects, exactly what Cline's `constructNewFileContent(prefix, original,
/// false)` returns for the diff pushed so far; in `native`, the whole file with the blocks
/// placed so far replaced), and the returned `Update` says how it changed. The work per push
/// is proportional to the pushed text, not to the file or the diff so far.
///
/// In the `native` dialect `finish` returns exactly what `applyDiff` returns for the whole
/// diff, in every chunking.
///
/// After `finish`, every method and getter throws an `Error` with
/// `code === "already_finished"`.
///
/// A panic inside hunkloom (a bug) throws an `Error` with `code === "internal_error"`
/// instead of crashing the process, and retires this applier, whose state it may have left
/// half-updated: every later method and getter throws that same code. Other appliers are
/// unaffected.
///
/// The preview and the final content are built from slices of `original` (V8 shares their
/// memory), so reading `preview` after a push costs what V8 pays to flatten a string built with
/// `+`, and the original's text is kept exactly. Pushed text crosses into Rust as UTF-8, where
/// a lone surrogate becomes U+FFFD: push whole code points (never half of a surrogate pair) and
/// the result is exact.
///
/// @example
/// ```ts
/// const applier = new StreamingApplier(original, { dialect: "native" })
/// for await (const token of stream) applier.push(token)
/// const { newContent, blocks } = applier.finish()
/// ```
#[napi(custom_finalize)]
pub struct StreamingApplier {
    inner: Stream,
    /// The bytes reported to V8 as held by this applier (0 once released).
    external: i64,
}

impl StreamingApplier {
    /// Withdraws the memory reported to V8 (the applier was finished or collected).
    fn release(&mut self, env: &Env) {
        if self.external > 0 {
            // Accounting only: a failure leaves V8's estimate high, which is harmless.
            let _ = env.adjust_external_memory(-self.external);
            self.external = 0;
        }
    }

    /// An applier over `original`, which other appliers and calls may share. The memory
    /// reported to V8 is the original's (the preview is kept as pieces of it).
    fn over(env: &Env, original: Arc<OriginalText>, options: &Unknown<'_>) -> napi::Result<Self> {
        let held = original.as_str().len();
        let inner = errors::run(env, || {
            let options = args::Options::read(options, "options", args::keys::APPLY)?;
            // Pieces: the JavaScript layer builds the preview from slices of its own original.
            // The dialect left out is the applier's default (`cline-v1`, drop-in safety).
            let options = apply::apply_options(&options)?.preview(PreviewForm::Pieces);
            Ok(hunkloom::StreamingApplier::over(original, options))
        })?;
        let external = i64::try_from(held).unwrap_or(i64::MAX);
        let _ = env.adjust_external_memory(external);
        Ok(StreamingApplier {
            inner: Arc::new(Handle::new("applier", inner)),
            external,
        })
    }

    /// A getter's body, on the core applier.
    fn get<T>(
        &self,
        env: &Env,
        read: impl FnOnce(&hunkloom::StreamingApplier) -> T,
    ) -> napi::Result<T> {
        self.inner
            .with(|inner| read(inner))
            .map_err(|e| Failure::Core(e).into_napi(env))
    }
}

#[napi]
impl StreamingApplier {
    /// An applier for `original`.
    ///
    /// @param original The file's content before the edit.
    /// @param options `dialect`: `"cline-v1"` (the default, for drop-in safety), `"cline-v2"`,
    /// `"native"`, `"roo"`, `"udiff"` (placed hunk by hunk as each completes) or
    /// `"udiff-strict"` (applied by `finish`); an unknown name throws an `Error` with `code ===
    /// "invalid_dialect"`. `recount` (`udiff-strict`): `git apply --recount`.
    /// `policy` (`native` only): `"all_or_nothing"` (the default) or `"partial"`; an unknown
    /// name throws an `Error` with `code === "invalid_policy"`.
    #[napi(
        catch_unwind,
        constructor,
        ts_args_type = "original: string, options?: ApplierOptions"
    )]
    pub fn new(env: &Env, original: Unknown<'_>, options: Unknown<'_>) -> napi::Result<Self> {
        let original = args::string(&original, "original").map_err(|f| f.into_napi(env))?;
        Self::over(env, Arc::new(OriginalText::new(original)), &options)
    }

    /// Feeds the next piece of the diff and returns how the preview changed (positions in
    /// UTF-16 units, i.e. JavaScript string indices).
    ///
    /// An error the diff causes does not throw here: read it from `error`, and `finish` throws
    /// it. In the Cline dialects, after an error caused by a complete line further pushes
    /// change nothing; in `native`, a failed block is reported in `completed` and the other
    /// blocks go on.
    ///
    /// A panic inside hunkloom throws an `Error` with `code === "internal_error"` and retires
    /// this applier (see the class).
    #[napi(catch_unwind, ts_args_type = "chunk: string")]
    pub fn push(&mut self, env: &Env, chunk: Unknown<'_>) -> napi::Result<Update> {
        let chunk = args::string(&chunk, "chunk").map_err(|f| f.into_napi(env))?;
        let pushed = self.inner.with(|inner| Update::from(inner.push(&chunk)));
        pushed.map_err(|e| {
            if e.kind() == hunkloom::ErrorKind::InternalError {
                self.release(env);
            }
            Failure::Core(e).into_napi(env)
        })
    }

    /// What the file looks like so far. In the Cline dialects this is Cline's partial
    /// `newContent`, which ends where the streamed edits end; in `native`, the whole file with
    /// the blocks placed so far replaced (the current block's replacement flowing in). Each
    /// read copies the preview; to follow a stream, apply each `Update` to your own copy
    /// instead.
    #[napi(catch_unwind, getter)]
    pub fn preview(&self, env: &Env) -> napi::Result<String> {
        self.get(env, |inner| inner.preview().to_owned())
    }

    /// The error the diff so far causes, or `null`: what Cline's partial call would reject with
    /// (an `Error` with the core's `code` and Cline's message); in `native`, the first failed
    /// block's error. An error caused only by the incomplete last line is withdrawn if that
    /// line completes differently.
    #[napi(catch_unwind, getter, ts_return_type = "Error | null")]
    pub fn error<'e>(&self, env: &'e Env) -> napi::Result<Option<Unknown<'e>>> {
        self.get(env, |inner| inner.error().map(|e| errors::js_error(env, e)))
    }

    /// Cline's `matchIndices` for the diff so far as a partial call: block starts in the
    /// original as UTF-16 indices, in completion order (always empty in `cline-v2`; in
    /// `native`, the starts of the blocks placed so far, in file order).
    #[napi(catch_unwind, getter)]
    pub fn match_indices(&self, env: &Env) -> napi::Result<Vec<u32>> {
        self.get(env, |inner| indices(&inner.match_indices()))
    }

    /// How many blocks complete lines have completed so far.
    #[napi(catch_unwind, getter)]
    pub fn blocks_completed(&self, env: &Env) -> napi::Result<u32> {
        self.get(env, |inner| {
            u32::try_from(inner.blocks_completed()).unwrap_or(u32::MAX)
        })
    }

    /// The dialect this applier reads.
    #[napi(
        catch_unwind,
        getter,
        ts_return_type = "'cline-v1' | 'cline-v2' | 'native' | 'roo' | 'udiff' | 'udiff-strict'"
    )]
    pub fn dialect(&self, env: &Env) -> napi::Result<String> {
        self.get(env, |inner| inner.dialect().as_str().to_owned())
    }

    /// Ends the diff: the final content, Cline's final `matchIndices` and a report per block.
    /// Throws what Cline's final call (`isFinal = true`) rejects with; in `native`, what
    /// `applyDiff` throws for the whole diff. Either way the applier is finished afterwards.
    #[napi(catch_unwind)]
    pub fn finish(&mut self, env: &Env) -> napi::Result<Outcome> {
        // Finished, or already finished or retired: the core applier is gone either way (a
        // JavaScript object is never shared between threads, so no call is running).
        let finished = self.inner.finish(|inner| inner.finish());
        self.release(env);
        match finished.and_then(|outcome| outcome) {
            Ok(outcome) => Ok(Outcome::from(outcome)),
            Err(e) => Err(Failure::Core(e).into_napi(env)),
        }
    }
}

/// What the JavaScript layer (`node/lib/applier.js`) calls: results as compact answers of
/// pieces (see [`pieces`]), so no push copies the file out. A separate block,
/// left out of `index.d.ts`.
#[napi]
impl StreamingApplier {
    /// The core applier's handle, for [`applier_push`].
    #[napi(catch_unwind, js_name = "__handle", skip_typescript)]
    pub fn handle(&self) -> External<Stream> {
        External::new(Arc::clone(&self.inner))
    }

    /// `preview`, answered as its pieces.
    #[napi(catch_unwind, js_name = "__previewPieces", skip_typescript)]
    pub fn preview_pieces(&self, env: &Env) -> napi::Result<Reply> {
        self.get(env, |inner| {
            let mut wire = Wire::default();
            wire.pieces(inner.preview_pieces());
            wire.reply(None, Extra::Nothing)
        })
    }

    /// `finish`, answered as the counted matchIndices and the content's pieces, with the block
    /// reports.
    #[napi(catch_unwind, js_name = "__finishPieces", skip_typescript)]
    pub fn finish_pieces(&mut self, env: &Env) -> napi::Result<Reply> {
        let finished = self.inner.finish(|inner| inner.finish_pieces());
        self.release(env);
        match finished.and_then(|outcome| outcome) {
            Ok(o) => {
                let mut wire = Wire::default();
                wire.counted(o.match_indices.iter().map(|p| p.utf16));
                wire.pieces(o.content.pieces());
                let blocks = o.blocks.iter().map(BlockReport::from).collect();
                Ok(wire.reply(None, Extra::Reports(blocks)))
            }
            Err(e) => Err(Failure::Core(e).into_napi(env)),
        }
    }
}

/// An applier over an original the JavaScript layer already holds in native memory (see
/// [`stream::original_new`](crate::stream::original_new)): appliers and drop-in calls over the
/// same string share one copy.
#[napi(js_name = "__applierOver", catch_unwind, skip_typescript)]
pub fn applier_over(
    env: &Env,
    original: &External<Original>,
    options: Unknown<'_>,
) -> napi::Result<StreamingApplier> {
    StreamingApplier::over(env, Arc::clone(original), &options)
}

/// `push` on an applier's handle, answered with start, removed and blocksCompleted and the
/// inserted pieces, and the reports of the blocks it completed (if any). A free function, so a
/// push costs no class-method bookkeeping.
#[napi(js_name = "__applierPush", catch_unwind, skip_typescript)]
pub fn applier_push(
    env: &Env,
    handle: &External<Stream>,
    chunk: String,
    scratch: Unknown<'_>,
) -> napi::Result<Reply> {
    let pushed = handle.with(|inner| {
        let u = inner.push_pieces(&chunk);
        let mut wire = Wire::default();
        wire.number(u.start.utf16);
        wire.number(u.removed.utf16);
        wire.number(u.blocks_completed);
        wire.pieces(u.inserted);
        let extra = if u.completed.is_empty() {
            Extra::Nothing
        } else {
            Extra::Reports(u.completed.iter().map(BlockReport::from).collect())
        };
        (wire, extra)
    });
    match pushed {
        Ok((wire, extra)) => Ok(wire.reply(Some(pieces::scratch(env, &scratch)?), extra)),
        Err(e) => Err(Failure::Core(e).into_napi(env)),
    }
}

/// The hidden test hook (a separate block: napi registers every method of a block).
#[cfg(feature = "fault-injection")]
#[napi]
impl StreamingApplier {
    /// Makes the next call on this applier panic inside the engine. Internal, tests only (the
    /// `fault-injection` feature).
    #[napi(catch_unwind, js_name = "__injectPanic", skip_typescript)]
    pub fn inject_panic(&self) {
        self.inner.inject_panic();
    }
}

impl ObjectFinalize for StreamingApplier {
    fn finalize(mut self, env: Env) -> napi::Result<()> {
        self.release(&env);
        Ok(())
    }
}

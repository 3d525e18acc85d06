//! The Cline drop-ins: `constructNewFileContent` (Promise and sync),
//! `getLineNumberFromCharIndex`, and the switches of the resume cache behind them.

use hunkloom::cline::{
    ResumedContent, Version, construct_new_file_content_resumed, shared_resume_cache,
};
use napi::bindgen_prelude::AsyncTask;
use napi::{Env, Task, Unknown};
use napi_derive::napi;

use crate::args;
use crate::errors::{self, Failure};
use crate::types::{NewFileContent, ResumeCacheStats};

/// The checked arguments of one call.
struct Call {
    diff: String,
    original: String,
    is_final: bool,
    version: Version,
}

impl Call {
    fn parse(
        diff: &Unknown<'_>,
        original: &Unknown<'_>,
        is_final: &Unknown<'_>,
        version: &Unknown<'_>,
    ) -> Result<Call, Failure> {
        let diff = args::string(diff, "diffContent")?;
        let original = args::string(original, "originalContent")?;
        let is_final = args::boolean(is_final, "isFinal")?;
        let version = match args::optional_string(version, "version")? {
            None => Version::V1,
            Some(v) => v.parse()?,
        };
        Ok(Call {
            diff,
            original,
            is_final,
            version,
        })
    }

    fn run(&self) -> Result<ResumedContent, Failure> {
        #[cfg(feature = "fault-injection")]
        crate::test_hooks::panic_if_armed(&crate::test_hooks::PANIC_IN_NEXT_CONSTRUCT);
        Ok(construct_new_file_content_resumed(
            &self.diff,
            &self.original,
            self.is_final,
            self.version,
        )?)
    }
}

/// The work of one `constructNewFileContent` call, run on libuv's thread pool. Argument errors
/// found on the JavaScript thread travel through it too, so they reject the Promise instead of
/// throwing.
pub struct ConstructTask {
    call: Option<Result<Call, Failure>>,
}

impl Task for ConstructTask {
    type Output = Result<ResumedContent, Failure>;
    type JsValue = NewFileContent;

    /// Runs on a libuv thread, outside every `#[napi(catch_unwind)]`: a panic here would
    /// abort the process, so it is caught and rejects the Promise (`internal_error`).
    fn compute(&mut self) -> napi::Result<Self::Output> {
        let call = self.call.take();
        Ok(errors::catch(|| match call {
            Some(Ok(call)) => call.run(),
            Some(Err(failure)) => Err(failure),
            None => Err(Failure::ArgType("the task ran twice".to_owned())),
        })
        .and_then(|result| result))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<NewFileContent> {
        output
            .map(NewFileContent::from)
            .map_err(|f| f.into_napi(&env))
    }
}

/// Cline's `constructNewFileContent(diffContent, originalContent, isFinal, version)`, byte for
/// byte: the same `newContent`, the same `matchIndices` (UTF-16 indices into the original) and
/// the same rejection messages, for final (`isFinal = true`) and partial calls alike.
///
/// The work runs off the JavaScript thread. A rejection is an `Error` whose `message` is
/// Cline's exact text and whose `code` is a stable snake_case code (`search_not_found`,
/// `empty_search_nonempty_file`, `malformed_block`, `match_before_previous_block`,
/// `invalid_state_transition`, `incomplete_at_finish`, `invalid_version`); an argument of the
/// wrong type rejects with a `TypeError` (`code === "ERR_INVALID_ARG_TYPE"`). A panic inside
/// hunkloom (a bug) rejects with an `Error` whose `code` is `internal_error`, as it throws from
/// every other function, instead of crashing the process.
///
/// Calls whose diff extends the previous call's diff for the same original and version (Cline's
/// pattern while a diff streams) resume from the previous call instead of starting over, and
/// pass only the new text: a call costs what is new in the diff, not the file. The same
/// original string (the same object, as an editor passes it) is copied into native memory
/// once. The results are identical either way. See `setResumeCacheCapacity`.
///
/// `newContent` is built from slices of `originalContent` and the replacement text (a string
/// V8 flattens when it is first read, as it does Cline's), so the original's text is kept
/// exactly. The diff crosses into Rust as UTF-8: a lone surrogate in it (half of a UTF-16 pair,
/// which a JavaScript string may hold) becomes U+FFFD; the SEARCH text is matched against the
/// original the same way.
///
/// @param diffContent The SEARCH/REPLACE blocks (a prefix of them for a partial call).
/// @param originalContent The file's content before the edit.
/// @param isFinal Whether `diffContent` is complete.
/// @param version `"v1"` (the default, what Cline's write handler uses) or `"v2"`.
/// @example
/// ```ts
/// import { constructNewFileContent } from "hunkloom"
/// const { newContent, matchIndices } = await constructNewFileContent(diff, original, true)
/// ```
#[napi(
    catch_unwind,
    ts_args_type = "diffContent: string, originalContent: string, isFinal: boolean, version?: 'v1' | 'v2'",
    ts_return_type = "Promise<NewFileContent>"
)]
pub fn construct_new_file_content(
    diff_content: Unknown<'_>,
    original_content: Unknown<'_>,
    is_final: Unknown<'_>,
    version: Unknown<'_>,
) -> AsyncTask<ConstructTask> {
    let call = Call::parse(&diff_content, &original_content, &is_final, &version);
    AsyncTask::new(ConstructTask { call: Some(call) })
}

/// `constructNewFileContent` on the calling thread: the same arguments and results, but it
/// returns the result and throws what the Promise would reject with.
#[napi(
    catch_unwind,
    ts_args_type = "diffContent: string, originalContent: string, isFinal: boolean, version?: 'v1' | 'v2'"
)]
pub fn construct_new_file_content_sync(
    env: &Env,
    diff_content: Unknown<'_>,
    original_content: Unknown<'_>,
    is_final: Unknown<'_>,
    version: Unknown<'_>,
) -> napi::Result<NewFileContent> {
    errors::run(env, || {
        let call = Call::parse(&diff_content, &original_content, &is_final, &version)?;
        Ok(NewFileContent::from(call.run()?))
    })
}

/// Cline's `getLineNumberFromCharIndex(content, charIndex)`: the 1-based line of a string index,
/// i.e. one more than the number of line feeds in `content.substring(0, charIndex)` (with
/// `substring`'s clamping: a negative or `NaN` index is 0, an index past the end is the end).
#[napi(catch_unwind, ts_args_type = "content: string, charIndex: number")]
pub fn get_line_number_from_char_index(
    env: &Env,
    content: Unknown<'_>,
    char_index: Unknown<'_>,
) -> napi::Result<u32> {
    errors::run(env, || {
        let content = args::string(&content, "content")?;
        let char_index = args::number(&char_index, "charIndex")?;
        // `substring` truncates towards zero and clamps to [0, length]; NaN is 0.
        let index = if char_index.is_nan() || char_index <= 0.0 {
            0
        } else if char_index >= usize::MAX as f64 {
            usize::MAX
        } else {
            char_index as usize
        };
        let line = hunkloom::text::line_number_from_utf16_index(&content, index);
        Ok(u32::try_from(line).unwrap_or(u32::MAX))
    })
}

/// Sets how many streams `constructNewFileContent` keeps to resume from (default 4, one per file
/// being edited at once), and how many originals it keeps in native memory. `0` turns resuming
/// off and frees every kept stream and original: each call then copies its original in and
/// re-parses its whole diff, as Cline's TypeScript does. Results are the same either way.
///
/// A kept original is one UTF-8 copy of the string (plus its line index once a fuzzy match
/// needed it); a kept stream holds the diff so far and the state of its blocks. A final call
/// (`isFinal = true`) releases its stream.
#[napi(catch_unwind, ts_args_type = "capacity: number")]
pub fn set_resume_cache_capacity(env: &Env, capacity: Unknown<'_>) -> napi::Result<()> {
    errors::run(env, || {
        let capacity = args::number(&capacity, "capacity")?;
        if !(capacity >= 0.0 && capacity.fract() == 0.0 && capacity <= f64::from(u32::MAX)) {
            return Err(Failure::OutOfRange(format!(
                "The \"capacity\" argument must be an integer from 0 to 2^32-1. Received {capacity}"
            )));
        }
        shared_resume_cache().set_capacity(capacity as usize);
        Ok(())
    })
}

/// The resume cache's counters: how many calls resumed a previous call (`hits`) and how many
/// started over (`misses`), and how many streams it keeps.
#[napi(catch_unwind)]
pub fn resume_cache_stats(env: &Env) -> napi::Result<ResumeCacheStats> {
    errors::run(env, || {
        let cache = shared_resume_cache();
        let stats = cache.stats();
        Ok(ResumeCacheStats {
            hits: stats.hits as f64,
            misses: stats.misses as f64,
            entries: u32::try_from(cache.len()).unwrap_or(u32::MAX),
            capacity: u32::try_from(cache.capacity()).unwrap_or(u32::MAX),
        })
    })
}

//! Multi-file patches in the `*** Begin Patch` format of Codex's `apply_patch` and Cline's
//! `apply_patch` tool: parsed while streaming, planned in memory, committed all or nothing by the
//! caller (the file layer).
//!
//! # The format
//!
//! ```text
//! patch        := begin hunk* end
//! begin        := "*** Begin Patch" LF
//! end          := "*** End Patch" LF?
//! hunk         := add | delete | update
//! add          := "*** Add File: " path LF ("+" text LF)*
//! delete       := "*** Delete File: " path LF
//! update       := "*** Update File: " path LF ("*** Move to: " path LF)? chunk+
//! chunk        := header? change+ ("*** End of File" LF)?
//! header       := "@@" LF | "@@ " context LF
//! change       := (" " | "-" | "+") text LF | LF          (an empty line is an empty context line)
//! ```
//!
//! `LF` is `\n`; a `\r` before it is dropped. Only the first chunk of an update may go without
//! its `@@` header. `@@ context` names one line (a class or function signature, usually) that
//! must appear before the chunk's lines; `*** End of File` anchors a chunk at the end of the file.
//!
//! Codex's lenient reading is built in ([`PatchParser`]):
//! - marker lines may be padded with whitespace (`  *** Update File: a`, `*** End Patch `);
//!   inside an update hunk only trailing whitespace is ignored, because a leading space starts a
//!   context line;
//! - blank lines before `*** Begin Patch` and after `*** End Patch` are ignored;
//! - a heredoc wrapper is accepted: a first line `<<EOF`, `<<'EOF'` or `<<"EOF"`, and a line
//!   ending in `EOF` after `*** End Patch`. The shell command a model writes around it,
//!   `apply_patch <<'EOF'` … `EOF`, is taken off by [`strip_invocation`].
//!
//! Parse errors carry a stable [`code`](crate::Error::code) — `invalid_patch` for the envelope,
//! `invalid_patch_hunk` for a hunk, with the 1-based line number of the input in the message.
//!
//! # Planning and dialects
//!
//! [`plan_patch`] turns a patch and a way to read the current files ([`FileSource`]) into a
//! [`Plan`]: every file's new content, nothing written. The dialect ([`PatchDialect`]) decides
//! how:
//! - [`Codex`](PatchDialect::Codex) (the default): hunks apply in order, each seeing the files
//!   as the hunks before it left them; chunks are located with the cascade documented in
//!   [`seek`](self#matching) below; line endings of untouched lines are kept.
//! - [`Cline`](PatchDialect::Cline): Cline v4.0.10's `apply_patch` handler and `PatchParser`,
//!   byte for byte: its fuzz score, its warnings for chunks it skips, its error messages.
//! - [`Udiff`](PatchDialect::Udiff) and [`UdiffStrict`](PatchDialect::UdiffStrict): not this
//!   format but a unified diff of any number of files (a git patch), each file's hunks applied
//!   as the `udiff` dialect of [`apply_diff`](crate::apply_diff) applies them, or exactly as
//!   `git apply` does (with `--recount` when [`PatchOptions::recount`] is set). `--- /dev/null`
//!   adds a file, `+++ /dev/null` deletes one, different names move one.
//!
//! A bare per-file body (what OpenAI's Responses-API `apply_patch` tool sends) is read by the
//! Codex dialect for one named file with [`plan_body`]; the [`v4a`] module applies the same
//! body as the OpenAI Agents SDK does.
//!
//! With [`Policy::AllOrNothing`] (the default) any failure is an error and the plan is not made;
//! with [`Policy::Partial`] the plan keeps the changes of the hunks before the first failure and
//! records it in [`Plan::failure`] — what Codex leaves on disk.
//!
//! # Matching
//!
//! An update chunk's old lines (context and `-` lines) are looked for at or after the end of the
//! previous chunk (after its `@@` context line, when it has one, which is found the same way).
//! Each tier scans every candidate position before the next, looser tier is tried, and the
//! first (lowest) position wins:
//! 1. exact;
//! 2. ignoring trailing whitespace;
//! 3. ignoring leading and trailing whitespace;
//! 4. ignoring surrounding whitespace, with typographic dashes, quotes and spaces folded to ASCII.
//!
//! A chunk marked `*** End of File` may only match at the end of the file. A chunk whose old
//! lines end in an empty line that is not found is retried without it (that line stands for the
//! file's final newline). A chunk with no old lines appends at the end of the file, as Codex does.
//!
//! Replacement lines take the file's first line ending (else `\n`), as Codex 0.171.0 writes
//! them when it preserves line endings (its scenarios 023 and 024, and every mixed-ending file of
//! the V4A and toolset vectors); unchanged lines keep theirs. An updated file always ends with a
//! line ending (Codex's scenario 014).
//!
//! # Example
//!
//! ```
//! use std::collections::BTreeMap;
//! use hunkloom::patch::{plan_patch, ChangeKind, PatchOptions};
//!
//! let mut files = BTreeMap::new();
//! files.insert("hello.txt".to_string(), "one\r\ntwo\r\n".to_string());
//! let patch = "*** Begin Patch\n*** Update File: hello.txt\n@@\n-two\n+TWO\n*** End Patch\n";
//! let plan = plan_patch(patch, &files, &PatchOptions::default())?;
//! match &plan.changes[0].kind {
//!     ChangeKind::Update { new_content, .. } => assert_eq!(new_content, "one\r\nTWO\r\n"),
//!     other => panic!("{other:?}"),
//! }
//! plan.apply_to(&mut files);
//! assert_eq!(files["hello.txt"], "one\r\nTWO\r\n");
//! # Ok::<(), hunkloom::Error>(())
//! ```

pub mod aider;
pub mod cline;
mod invocation;
mod lenient;
mod lines;
pub(crate) mod model;
pub mod native;
mod parse;
pub(crate) mod plan;
mod seek;
pub(crate) mod udiff;
pub mod v4a;

pub use invocation::strip_invocation;
pub use model::{Hunk, LineKind, Patch, PatchLine, UpdateChunk};
pub use parse::PatchParser;
pub(crate) use plan::Overlay;
pub use plan::{ChangeKind, FileChange, FileSource, HunkFailure, Plan, Warning, plan};

use crate::error::{Error, ErrorKind, Result};
use crate::policy::Policy;

/// Whose `apply_patch` a patch is read and applied like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PatchDialect {
    /// OpenAI Codex's `apply_patch` (the default), with line endings kept.
    #[default]
    Codex,
    /// Cline v4.0.10's `apply_patch` tool, byte for byte.
    Cline,
    /// A unified diff of any number of files (a git patch), each hunk placed as the model
    /// meant it, as the `udiff` dialect of [`apply_diff`](crate::apply_diff) does.
    Udiff,
    /// A unified diff of any number of files applied exactly as `git apply` does
    /// (`--recount` with [`PatchOptions::recount`]).
    UdiffStrict,
    /// An aider reply in its `diff` format: SEARCH/REPLACE blocks under file names, applied
    /// as aider 0.86 applies them ([`aider`] module).
    Aider,
    /// aider's `diff-fenced` format (the file name inside the fence); parsed as [`Aider`](Self::Aider).
    AiderFenced,
    /// aider's `whole` format: whole-file listings under file names.
    AiderWhole,
    /// aider's `diff` / `diff-fenced` replies read without aider's guesses: each block placed
    /// by the native engine's tolerant matching in exactly one place of the file it names, or
    /// the reply refused; line endings kept.
    AiderNative,
    /// The native reading of `*** Begin Patch` patches and bare V4A bodies: each section
    /// placed by its lines in exactly one place of the file, or the patch refused (see
    /// [`native`]).
    Native,
}

crate::names!(
    PatchDialect {
        Codex => "codex",
        Cline => "cline",
        Udiff => "udiff",
        UdiffStrict => "udiff-strict",
        Aider => "aider",
        AiderFenced => "aider-fenced",
        AiderWhole => "aider-whole",
        AiderNative => "aider-native",
        Native => "native",
    },
    parse: InvalidDialect,
    "patch dialect"
);

/// Options of [`plan_patch`].
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatchOptions {
    /// Whose behaviour to reproduce (default: [`PatchDialect::Codex`]).
    pub dialect: PatchDialect,
    /// What a failing hunk does to the others (default: all or nothing).
    pub policy: Policy,
    /// `udiff-strict` only: count each hunk's lines from its body instead of trusting its
    /// `@@` header, as `git apply --recount` does (default: off).
    pub recount: bool,
}

impl PatchOptions {
    /// The defaults: Codex, all or nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the dialect.
    pub fn dialect(mut self, dialect: PatchDialect) -> Self {
        self.dialect = dialect;
        self
    }

    /// Sets the failure policy.
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// Sets `udiff-strict`'s `--recount`.
    pub fn recount(mut self, recount: bool) -> Self {
        self.recount = recount;
        self
    }
}

/// Whether `text` is a patch in this format rather than some other edit: its first non-blank
/// line is `*** Begin Patch` (whitespace around it allowed), or opens Codex's heredoc wrapper
/// (`<<EOF`, `<<'EOF'`, `<<"EOF"`) and the next non-blank line is `*** Begin Patch`. Nothing
/// else is checked; [`parse_patch`] says whether the rest is valid.
///
/// ```
/// use hunkloom::patch::is_patch;
///
/// assert!(is_patch("*** Begin Patch\n*** Delete File: a\n*** End Patch\n"));
/// assert!(is_patch("\n<<'EOF'\n  *** Begin Patch\n*** End Patch\nEOF\n"));
/// assert!(!is_patch("------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n"));
/// ```
pub fn is_patch(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    match lines.next() {
        Some(lenient::BEGIN_PATCH) => true,
        Some(first) if lenient::is_heredoc_open(first) => {
            lines.next() == Some(lenient::BEGIN_PATCH)
        }
        _ => false,
    }
}

/// Parses a whole patch with the Codex grammar (leniently, see the [module docs](self)).
pub fn parse_patch(text: &str) -> Result<Patch> {
    let mut parser = PatchParser::new();
    parser.push(text)?;
    parser.finish()?;
    Ok(Patch {
        hunks: parser.into_hunks(),
    })
}

/// Parses a bare per-file body (a V4A body, as OpenAI's Responses-API `apply_patch` tool sends
/// it) for the one file `path` with the Codex grammar, as if it were wrapped in
/// `*** Begin Patch`, `*** Update File: <path>` (`*** Add File: <path>` in
/// [`V4aMode::Create`](v4a::V4aMode::Create)) and `*** End Patch` (see
/// [`PatchParser::for_body`]).
pub fn parse_body(path: &str, body: &str, mode: v4a::V4aMode) -> Result<Patch> {
    let mut parser = PatchParser::for_body(path, mode);
    parser.push(body)?;
    parser.finish()?;
    Ok(Patch {
        hunks: parser.into_hunks(),
    })
}

/// Plans a bare per-file body for the one file `path` in the Codex dialect ([`parse_body`],
/// then [`plan`]): Codex's reading of what the [`v4a`] module applies as the OpenAI Agents SDK
/// does (its module docs list the differences). A `*** Move to:` line in the body moves the
/// file, as it would inside the envelope.
///
/// ```
/// use std::collections::BTreeMap;
/// use hunkloom::Policy;
/// use hunkloom::patch::{plan_body, v4a::V4aMode};
///
/// let mut files = BTreeMap::from([("app.py".to_string(), "a = 1\r\nb = 2".to_string())]);
/// let plan = plan_body("app.py", "@@\n-b = 2\n+b = 3\n", V4aMode::Default, &files, Policy::AllOrNothing)?;
/// plan.apply_to(&mut files);
/// assert_eq!(files["app.py"], "a = 1\r\nb = 3\r\n"); // Codex ends the file with a newline
/// # Ok::<(), hunkloom::Error>(())
/// ```
pub fn plan_body<S: FileSource + ?Sized>(
    path: &str,
    body: &str,
    mode: v4a::V4aMode,
    files: &S,
    policy: Policy,
) -> Result<Plan> {
    plan(&parse_body(path, body, mode)?, files, policy)
}

/// What a binding's `apply_patch` plans: without `path`, the whole patch `text`
/// ([`plan_patch`]); with it, `text` is a bare body for that one file, read in `mode`
/// ([`plan_body`]; in the native dialect, [`native::apply_body`]'s reading). A body is read in
/// the Codex and native dialects only, and `mode` only applies to one: anything else is an
/// `invalid_dialect` error.
pub fn plan_patch_or_body<S: FileSource + ?Sized>(
    text: &str,
    path: Option<&str>,
    mode: v4a::V4aMode,
    files: &S,
    options: &PatchOptions,
) -> Result<Plan> {
    match path {
        None if mode == v4a::V4aMode::Default => plan_patch(text, files, options),
        None => Err(Error::new(
            ErrorKind::InvalidDialect,
            format!("mode '{mode}' applies to a bare body: give the path of its file"),
        )),
        Some(path) if options.dialect == PatchDialect::Codex => {
            plan_body(path, text, mode, files, options.policy)
        }
        Some(path) if options.dialect == PatchDialect::Native => {
            native::plan_body(path, text, mode, files, options.policy)
        }
        Some(_) => Err(Error::new(
            ErrorKind::InvalidDialect,
            format!(
                "a bare body for one file is read in the codex or native dialect only, not {}",
                options.dialect
            ),
        )),
    }
}

/// Parses `text` in `options.dialect` and plans it against `files`: every file's new content,
/// nothing written.
pub fn plan_patch<S: FileSource + ?Sized>(
    text: &str,
    files: &S,
    options: &PatchOptions,
) -> Result<Plan> {
    crate::memory::reserve(
        crate::memory::WORKING_COPIES.saturating_mul(text.len()),
        "the patch",
    )?;
    match options.dialect {
        PatchDialect::Codex => plan(&parse_patch(text)?, files, options.policy),
        PatchDialect::Cline => cline::plan(text, files, options.policy),
        PatchDialect::Udiff => crate::patch::udiff::plan::plan_lenient(text, files, options.policy),
        PatchDialect::UdiffStrict => {
            crate::patch::udiff::plan::plan_strict(text, files, options.recount)
        }
        PatchDialect::Aider
        | PatchDialect::AiderFenced
        | PatchDialect::AiderWhole
        | PatchDialect::AiderNative => aider::plan(text, files, options.dialect, options.policy),
        PatchDialect::Native => native::plan(text, files, options.policy),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_names_round_trip() {
        for &d in PatchDialect::ALL {
            assert_eq!(d.as_str().parse::<PatchDialect>(), Ok(d));
            assert_eq!(d.to_string(), d.as_str());
        }
        let err = "git".parse::<PatchDialect>().unwrap_err();
        assert_eq!(err.code(), "invalid_dialect");
    }

    #[test]
    fn bodies_are_for_the_codex_dialect_only() {
        let files = std::collections::BTreeMap::from([("a".to_string(), "x\n".to_string())]);
        let codex = PatchOptions::new();
        let plan = plan_patch_or_body("-x\n+y\n", Some("a"), v4a::V4aMode::Default, &files, &codex)
            .unwrap();
        assert_eq!(plan.changes[0].path, "a");
        let cline = PatchOptions::new().dialect(PatchDialect::Cline);
        let e = plan_patch_or_body("-x\n", Some("a"), v4a::V4aMode::Default, &files, &cline)
            .unwrap_err();
        assert_eq!(e.code(), "invalid_dialect");
        let e = plan_patch_or_body("+x\n", None, v4a::V4aMode::Create, &files, &codex).unwrap_err();
        assert_eq!(e.code(), "invalid_dialect");
    }

    #[test]
    fn boundary_types_are_send_sync_static() {
        fn check<T: Send + Sync + 'static>() {}
        check::<PatchParser>();
        check::<Patch>();
        check::<Plan>();
        check::<PatchOptions>();
    }

    #[test]
    fn patches_are_recognised_by_their_first_marker() {
        assert!(is_patch(" *** Begin Patch \n"));
        assert!(is_patch("<<EOF\n\n*** Begin Patch\n"));
        assert!(!is_patch("<<EOF\nhello\n*** Begin Patch\n"));
        assert!(!is_patch("note\n*** Begin Patch\n"));
        assert!(!is_patch(""));
    }

    #[test]
    fn paths_to_read_lists_sources_once() {
        let p = parse_patch(
            "*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: b\n*** Update File: c\n*** Move to: d\n@@\n-x\n+y\n*** Delete File: b\n*** End Patch\n",
        )
        .unwrap();
        assert_eq!(p.paths_to_read(), ["b", "c"]);
    }
}

//! The arguments of `hunkloom apply` and the texts of its failures, shared by the file edits
//! ([`crate::apply`]) and the multi-file patches ([`crate::patch`]).

use std::path::{Path, PathBuf};

use hunkloom::ErrorKind;
use hunkloom_fs::WorkspaceOptions;

use crate::Failure;

/// The arguments of `hunkloom apply`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The edit to apply; `-` reads it from standard input. An edit whose first line is
    /// `*** Begin Patch` (or a heredoc `<<'EOF'` around it) is applied as a patch.
    #[arg(
        long,
        value_name = "EDIT",
        conflicts_with_all = ["patch", "lazy"],
        required_unless_present_any = ["patch", "lazy"]
    )]
    pub(crate) diff: Option<PathBuf>,
    /// A multi-file patch in the `*** Begin Patch` format of Codex's and Cline's
    /// `apply_patch` (`-`: standard input); its paths are relative to the root.
    #[arg(long, value_name = "PATCH", conflicts_with = "lazy")]
    pub(crate) patch: Option<PathBuf>,
    /// A lazy edit of FILE (`-`: standard input): the changed code with a few unchanged
    /// lines around it and `// ... existing code ...` (or `# ...`) markers for the rest,
    /// merged where its unchanged lines are unique in the file, or refused if any part
    /// cannot be placed without guessing. A snippet without markers is the whole new file.
    #[arg(long, value_name = "SNIPPET")]
    pub(crate) lazy: Option<PathBuf>,
    /// For --lazy: the file's language (python, typescript, go, rust, java, or an
    /// extension such as py, js, kt, sh; default: from FILE's extension).
    #[arg(long, value_name = "LANG", requires = "lazy")]
    pub(crate) lang: Option<String>,
    /// How the edit is read. A diff: native (default; tolerant, refuses ambiguous or stale
    /// edits), cline-v1 or cline-v2 (byte-exact Cline), roo (byte-exact Roo Code), v4a
    /// (a per-file body of OpenAI's apply_patch tool, applied byte-exact as the OpenAI
    /// Agents SDK does, line endings normalized as it does), udiff (a unified diff placed
    /// by its text, refusing what is ambiguous) or udiff-strict (exactly as `git apply`).
    /// A patch: codex (default), cline, udiff or udiff-strict; a unified diff given without
    /// FILE is applied as a patch to the files its headers name; aider, aider-fenced or
    /// aider-whole for a model's reply in one of aider's edit formats.
    #[arg(long)]
    pub(crate) dialect: Option<String>,
    /// For udiff-strict: count each hunk's lines from its body, as `git apply --recount`.
    #[arg(long)]
    pub(crate) recount: bool,
    /// With `--dialect v4a`: the body creates FILE (only `+` lines; a FILE that exists is
    /// refused) instead of updating it.
    #[arg(long)]
    pub(crate) create: bool,
    /// For `--dialect roo`: the similarity a window needs to be replaced (Roo's
    /// fuzzyThreshold, default 1.0).
    #[arg(long, value_name = "T")]
    pub(crate) fuzzy_threshold: Option<f64>,
    /// Write what applies instead of nothing: for a diff in the native dialect, the blocks
    /// that matched (each failed block is reported); for a patch, the hunks before a failing
    /// one (Codex's behaviour). The command still fails when something was not applied.
    #[arg(long)]
    pub(crate) partial: bool,
    /// Print a unified diff of each change instead of writing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Write nothing; exit 1 if the edit would change any file and 0 if it would not (it is
    /// already applied): for a CI step that checks an edit is in.
    #[arg(long, conflicts_with = "dry_run")]
    pub(crate) check: bool,
    /// A glob (gitignore syntax, relative to the root; repeatable) of paths never written,
    /// besides `.git` (and the other version-control directories) and the ignore file.
    #[arg(long, value_name = "GLOB")]
    pub(crate) protect: Vec<String>,
    /// The workspace root: every file must lie inside it, and its `.hunkloomignore`
    /// applies (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub(crate) root: Option<PathBuf>,
    /// The file a diff or a lazy snippet edits (a patch names its own files).
    pub(crate) file: Option<PathBuf>,
}

impl Args {
    /// The workspace the edit goes through: the defaults, and the `--protect` globs.
    pub(crate) fn workspace_options(&self) -> WorkspaceOptions {
        WorkspaceOptions::new().protect(self.protect.iter().cloned())
    }
}

/// A usage error of `hunkloom apply` (exit status 2).
pub(crate) fn usage(message: impl Into<String>) -> Failure {
    Failure::Usage {
        subcommand: "apply",
        message: message.into(),
    }
}

/// `[code] message` for an error about `root`'s files; a path outside the root also says how to
/// choose another root.
pub(crate) fn explain(e: &hunkloom::Error, root: &Path) -> String {
    if e.kind() == ErrorKind::PathOutsideRoot {
        format!(
            "[{}] {e} Pass --root DIR to edit files under another directory (the root is {}; \
             FILE is taken relative to the current directory).",
            e.code(),
            root.display()
        )
    } else {
        format!("[{}] {e}", e.code())
    }
}

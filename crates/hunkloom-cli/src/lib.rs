//! `hunkloom`: apply model-written edits to files, serve the edit tools to MCP clients
//! (`hunkloom mcp`), or watch a streamed edit (`hunkloom demo`).
//!
//! The command is this library's [`run`], so that it is one program wherever it ships: the
//! `hunkloom` binary, the `hunkloom` command of the Python package (through its extension) and
//! of the npm package (through its addon).

mod apply;
mod demo;
mod mcp;
mod patch;

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand};
use hunkloom_tools::ToolsetProfile;

#[derive(Parser)]
#[command(
    name = "hunkloom",
    version,
    about = "Apply the edits language models write, exactly and fast."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Apply a SEARCH/REPLACE diff, a unified diff (`--dialect udiff`) or a V4A body
    /// (`--dialect v4a`) to FILE, a lazy snippet (`// ... existing code ...` markers) to FILE,
    /// or a multi-file patch (`*** Begin Patch`, or a git patch with `--dialect udiff`) to the
    /// files it names — atomically: every file is either old or new; encodings, BOMs and line
    /// endings are kept. Every file must lie inside the root.
    Apply {
        /// The edit to apply; `-` reads it from standard input. An edit whose first line is
        /// `*** Begin Patch` (or a heredoc `<<'EOF'` around it) is applied as a patch.
        #[arg(
            long,
            value_name = "EDIT",
            conflicts_with_all = ["patch", "lazy"],
            required_unless_present_any = ["patch", "lazy"]
        )]
        diff: Option<PathBuf>,
        /// A multi-file patch in the `*** Begin Patch` format of Codex's and Cline's
        /// `apply_patch` (`-`: standard input); its paths are relative to the root.
        #[arg(long, value_name = "PATCH", conflicts_with = "lazy")]
        patch: Option<PathBuf>,
        /// A lazy edit of FILE (`-`: standard input): the changed code with a few unchanged
        /// lines around it and `// ... existing code ...` (or `# ...`) markers for the rest,
        /// merged where its unchanged lines are unique in the file, or refused if any part
        /// cannot be placed without guessing. A snippet without markers is the whole new file.
        #[arg(long, value_name = "SNIPPET")]
        lazy: Option<PathBuf>,
        /// For --lazy: the file's language (python, typescript, go, rust, java, or an
        /// extension such as py, js, kt, sh; default: from FILE's extension).
        #[arg(long, value_name = "LANG", requires = "lazy")]
        lang: Option<String>,
        /// How the edit is read. A diff: native (default; tolerant, refuses ambiguous or stale
        /// edits), cline-v1 or cline-v2 (byte-exact Cline), roo (byte-exact Roo Code), v4a
        /// (a per-file body of OpenAI's apply_patch tool, applied byte-exact as the OpenAI
        /// Agents SDK does, line endings normalized as it does), udiff (a unified diff placed
        /// by its text, refusing what is ambiguous) or udiff-strict (exactly as `git apply`).
        /// A patch: codex (default), cline, udiff or udiff-strict; a unified diff given without
        /// FILE is applied as a patch to the files its headers name.
        #[arg(long)]
        dialect: Option<String>,
        /// For udiff-strict: count each hunk's lines from its body, as `git apply --recount`.
        #[arg(long)]
        recount: bool,
        /// With `--dialect v4a`: the body creates FILE (only `+` lines; a FILE that exists is
        /// refused) instead of updating it.
        #[arg(long)]
        create: bool,
        /// For `--dialect roo`: the similarity a window needs to be replaced (Roo's
        /// fuzzyThreshold, default 1.0).
        #[arg(long, value_name = "T")]
        fuzzy_threshold: Option<f64>,
        /// Write what applies instead of nothing: for a diff in the native dialect, the blocks
        /// that matched (each failed block is reported); for a patch, the hunks before a failing
        /// one (Codex's behaviour). The command still fails when something was not applied.
        #[arg(long)]
        partial: bool,
        /// Print a unified diff of each change instead of writing.
        #[arg(long)]
        dry_run: bool,
        /// Write nothing; exit 1 if the edit would change any file and 0 if it would not (it is
        /// already applied): for a CI step that checks an edit is in.
        #[arg(long, conflicts_with = "dry_run")]
        check: bool,
        /// A glob (gitignore syntax, relative to the root; repeatable) of paths never written,
        /// besides `.git` (and the other version-control directories) and the ignore file.
        #[arg(long, value_name = "GLOB")]
        protect: Vec<String>,
        /// The workspace root: every file must lie inside it, and its `.hunkloomignore`
        /// applies (default: the current directory).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// The file a diff or a lazy snippet edits (a patch names its own files).
        file: Option<PathBuf>,
    },
    /// Serve hunkloom's edit tools to an MCP client (Claude Code, Claude Desktop, Cursor, ...)
    /// over standard input and output: read_file, apply_diff, apply_lazy, apply_patch, undo_edit and the
    /// str_replace_based_edit_tool text editor, every path kept inside the root. Logs go to
    /// standard error (level: HUNKLOOM_LOG=error|warn|info|debug|trace|off); the server exits
    /// when its input ends.
    Mcp {
        /// The workspace root: every file must lie inside it, and its `.hunkloomignore`
        /// applies (default: the current directory).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// Whose tools to serve: native (hunkloom's own set: relative paths, read before edit),
        /// anthropic or openhands (that set with the reference text editor's exact texts as
        /// `str_replace_based_edit_tool`; absolute paths), or openai (only the Responses-API
        /// `apply_patch` tool, answered as the OpenAI Agents SDK answers it).
        #[arg(long, default_value = "native", value_parser = parse_toolset_profile)]
        profile: ToolsetProfile,
        /// Offer only the tools that never write (read_file).
        #[arg(long)]
        read_only: bool,
        /// A glob (gitignore syntax, relative to the root; repeatable) of paths the tools may
        /// read but never write, besides `.git` (and the other version-control directories)
        /// and the ignore file, which are always protected.
        #[arg(long, value_name = "GLOB")]
        protect: Vec<String>,
    },
    /// Stream a built-in edit into a built-in file and show the live preview.
    Demo {
        /// Characters per streamed chunk.
        #[arg(long, default_value_t = 4)]
        chunk: usize,
        /// Pause between chunks, in milliseconds (default: 12 on a terminal, 0 otherwise).
        #[arg(long)]
        delay_ms: Option<u64>,
    },
}

/// Runs the command with `args` (the program name first, as `std::env::args_os` gives them)
/// and returns its exit status: 0 done, 1 refused or failed (the reason on standard error), 2
/// a usage error (the message and the usage line on standard error, as clap reports them).
/// `--help` and `--version` print to standard output and return 0. Standard output and error
/// are flushed before it returns, so a host process that goes on (or exits without Rust's
/// clean-up) loses nothing of what was printed.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let status = match Cli::try_parse_from(args) {
        Ok(cli) => execute(cli),
        Err(e) => report(&e),
    };
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    status
}

/// Prints a clap error (or `--help`/`--version`) where clap would, and gives its exit status.
fn report(e: &clap::Error) -> u8 {
    let _ = e.print();
    u8::try_from(e.exit_code()).unwrap_or(2)
}

fn execute(cli: Cli) -> u8 {
    let result = match cli.command {
        Command::Apply {
            diff,
            patch,
            lazy,
            lang,
            dialect,
            create,
            fuzzy_threshold,
            recount,
            partial,
            dry_run,
            check,
            protect,
            root,
            file,
        } => apply::run(&apply::Args {
            diff,
            patch,
            lazy,
            lang,
            dialect,
            create,
            fuzzy_threshold,
            recount,
            partial,
            dry_run,
            check,
            protect,
            root,
            file,
        }),
        Command::Mcp {
            root,
            profile,
            read_only,
            protect,
        } => mcp::run(&mcp::Args {
            root,
            profile,
            read_only,
            protect,
        })
        .map_err(Failure::Refused),
        Command::Demo { chunk, delay_ms } => {
            demo::run(chunk.max(1), delay_ms).map_err(Failure::Refused)
        }
    };
    match result {
        Ok(()) => 0,
        Err(Failure::Usage {
            subcommand,
            message,
        }) => {
            // Reported as clap reports its own usage errors: the message, the usage line, and
            // exit status 2.
            let mut cli = Cli::command();
            cli.build();
            let kind = clap::error::ErrorKind::ArgumentConflict;
            match cli.find_subcommand_mut(subcommand) {
                Some(command) => report(&command.error(kind, message)),
                None => report(&Cli::command().error(kind, message)),
            }
        }
        Err(Failure::Refused(message)) => {
            eprintln!("hunkloom: {message}");
            1
        }
    }
}

/// Why a command failed, which decides its exit status.
pub(crate) enum Failure {
    /// The arguments do not make a valid command (exit status 2, with the usage, like clap's own
    /// usage errors).
    Usage {
        /// The subcommand whose usage is shown.
        subcommand: &'static str,
        /// What is wrong with the arguments.
        message: String,
    },
    /// The command ran and something was refused or failed (exit status 1).
    Refused(String),
}

/// A text-editor profile by name.
fn parse_toolset_profile(name: &str) -> Result<ToolsetProfile, String> {
    name.parse().map_err(|e: hunkloom::Error| e.to_string())
}

/// A unified diff of `old` → `new` for `path`.
fn unified_diff(path: &str, old: &str, new: &str) -> String {
    unified_diff_between(&format!("a/{path}"), &format!("b/{path}"), old, new)
}

/// A unified diff of `old` → `new` under the headers `from` and `to`.
fn unified_diff_between(from: &str, to: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(from, to)
        .to_string()
}

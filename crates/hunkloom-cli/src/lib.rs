//! `hunkloom`: apply model-written edits to files, serve the edit tools to MCP clients
//! (`hunkloom mcp`), or watch a streamed edit (`hunkloom demo`).
//!
//! The command is this library's [`run`], so that it is one program wherever it ships: the
//! `hunkloom` binary, the `hunkloom` command of the Python package (through its extension) and
//! of the npm package (through its addon).

mod apply;
mod apply_args;
mod demo;
mod mcp;
mod patch;

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand};
use hunkloom_tools::{Durability, Semantics, ToolsetProfile};

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
    Apply(apply_args::Args),
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
        /// `str_replace_based_edit_tool` — Anthropic's answering as text_editor_20250728;
        /// absolute paths), or another family's tools as its reference answers them: openai,
        /// codex, gemini, claude-code, copilot.
        #[arg(long, default_value = "native", value_parser = parse_toolset_profile)]
        profile: ToolsetProfile,
        /// Offer only the tools that never write (read_file; the profile's reading tools).
        #[arg(long)]
        read_only: bool,
        /// A glob (gitignore syntax, relative to the root; repeatable) of paths the tools may
        /// read but never write, besides `.git` (and the other version-control directories)
        /// and the ignore file, which are always protected.
        #[arg(long, value_name = "GLOB")]
        protect: Vec<String>,
        /// The most characters of a file the text editor's `view` shows (Anthropic's
        /// text_editor_20250728 `max_characters`; default 16000).
        #[arg(long, value_name = "N")]
        max_characters: Option<usize>,
        /// Whose rules the tools follow: reference (the default: the profile's reference) or
        /// native (hunkloom's matching and refusals behind the profile's tool names; for
        /// --profile anthropic, openhands, openai, codex and claude-code).
        #[arg(long, default_value = "reference", value_parser = parse_semantics)]
        semantics: Semantics,
        /// Whether each write waits for the disk: full (the default: every file and directory
        /// flushed before the call answers) or none (scratch trees, tests, benchmarks; a power
        /// cut may lose the last writes, never tear a file).
        #[arg(long, default_value = "full", value_parser = parse_durability)]
        durability: Durability,
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
        Command::Apply(args) => apply::run(&args),
        Command::Mcp {
            root,
            profile,
            read_only,
            protect,
            max_characters,
            semantics,
            durability,
        } => mcp::run(&mcp::Args {
            root,
            profile,
            read_only,
            protect,
            max_characters,
            semantics,
            durability,
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

/// Tool semantics by name.
fn parse_semantics(name: &str) -> Result<Semantics, String> {
    name.parse().map_err(|e: hunkloom::Error| e.to_string())
}

/// A durability by name.
fn parse_durability(name: &str) -> Result<Durability, String> {
    name.parse().map_err(|e: hunkloom::Error| e.to_string())
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

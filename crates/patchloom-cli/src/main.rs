//! `patchloom`: apply model-written edits to files, or watch a streamed edit (`patchloom demo`).

mod apply;
mod demo;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use patchloom::Dialect;

#[derive(Parser)]
#[command(
    name = "patchloom",
    version,
    about = "Apply the edits language models write, exactly and fast."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Apply a SEARCH/REPLACE diff to FILE (atomically: the file is either old or new; its
    /// encoding, BOM and line endings are kept). FILE must lie inside the root.
    Apply {
        /// The diff to apply; `-` reads it from standard input.
        #[arg(long, value_name = "EDIT")]
        diff: PathBuf,
        /// How the diff is read: native (tolerant, refuses ambiguous or stale edits),
        /// cline-v1 or cline-v2 (byte-exact Cline).
        #[arg(long, default_value = "native", value_parser = parse_dialect)]
        dialect: Dialect,
        /// Print a unified diff of the change instead of writing FILE.
        #[arg(long)]
        dry_run: bool,
        /// The workspace root: FILE must lie inside it, and its `.patchloomignore` applies
        /// (default: the current directory).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// The file to edit.
        file: PathBuf,
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

fn parse_dialect(s: &str) -> Result<Dialect, String> {
    s.parse().map_err(|e: patchloom::Error| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Apply {
            diff,
            dialect,
            dry_run,
            root,
            file,
        } => apply::run(&diff, dialect, dry_run, &file, root.as_deref()),
        Command::Demo { chunk, delay_ms } => demo::run(chunk.max(1), delay_ms),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("patchloom: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A unified diff of `old` → `new` for `path`.
fn unified_diff(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

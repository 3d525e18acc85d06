//! The `hunkloom` binary: [`hunkloom_cli::run`] with the process's arguments.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(hunkloom_cli::run(std::env::args_os()))
}

//! The `hunkloom` command run in this process, for the npm package's `hunkloom` bin script (so
//! `npx hunkloom mcp` needs nothing but the installed packages).

use napi_derive::napi;

/// Runs the command with `args` (the arguments after the program name) and returns its exit
/// status; the bin script exits with it. A bug inside hunkloom is reported on standard error
/// with status 101, as a crashed Rust program exits. Internal: the bin script's entry point.
#[napi(js_name = "__runCli", skip_typescript)]
pub fn run_cli(args: Vec<String>) -> u32 {
    let argv = std::iter::once("hunkloom".to_owned()).chain(args);
    match hunkloom_handle::catch(|| hunkloom_cli::run(argv)) {
        Ok(status) => u32::from(status),
        Err(e) => {
            eprintln!("hunkloom: {}", e.message());
            101
        }
    }
}

//! `hunkloom mcp`: a Model Context Protocol server on standard input and output, built on the
//! official Rust SDK (`rmcp`), that gives any MCP client hunkloom's edit tools over one root.
//!
//! - [`tools`]: the tool names, descriptions, input schemas and annotations;
//! - [`handlers`]: what each tool does, as calls of the file layer and the text editor (and how
//!   the two share the root);
//! - [`render`]: the texts of results and refusals;
//! - [`reply`]: a call's answer and the reading of its arguments;
//! - [`server`]: the SDK's handler; [`stdio`]: the transport; and this module the process
//!   around them (logging, runtime, exit).
//!
//! Standard output carries only protocol messages; logs go to standard error (level from
//! `HUNKLOOM_LOG`: `error`, `warn`, `info` (the default), `debug`, `trace` or `off`). The
//! server exits with status 0 when its input ends.
//!
//! Bytes that are not JSON at all get no answer (there is no request id to answer; the SDK
//! ignores them, as the other official SDKs do, so a peer echoing errors cannot start an
//! error storm); well-formed JSON that is not a JSON-RPC message gets `-32600`, an unknown
//! method `-32601`, and bad `tools/call` parameters `-32602`. A line longer than the SDK's
//! limit (16 MiB) is dropped unanswered.

mod handlers;
mod order;
mod render;
mod reply;
mod server;
mod stdio;
mod tools;
mod toolset_server;

/// What the `mcp` fuzz target (fuzz/fuzz_targets/mcp.rs, which compiles this module from its
/// sources) drives: the session behind `tools/call` and the tool names.
#[cfg(fuzzing)]
pub(crate) mod fuzzing {
    pub(crate) use super::handlers::Session;
    pub(crate) use super::tools::ToolName;
}

use std::path::PathBuf;
use std::str::FromStr;

use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;
use tracing_subscriber::filter::LevelFilter;

/// The arguments of `hunkloom mcp`.
pub(crate) struct Args {
    pub(crate) root: Option<PathBuf>,
    pub(crate) profile: hunkloom_tools::ToolsetProfile,
    pub(crate) read_only: bool,
    pub(crate) protect: Vec<String>,
}

/// Serves MCP on stdin/stdout until stdin ends.
pub(crate) fn run(args: &Args) -> Result<(), String> {
    init_logging();
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot find the current directory: {e}"))?;
    let root = args.root.as_deref().unwrap_or(&cwd);
    let Some(profile) = args.profile.text_editor() else {
        return serve_toolset(root, args);
    };
    let session = handlers::Session::open(root, profile, args.read_only, &args.protect)
        .map_err(|e| format!("cannot serve {}: [{}] {e}", root.display(), e.code()))?;
    let definitions = tools::definitions(session.root(), profile, args.read_only);
    tracing::info!(
        root = %session.root().display(),
        profile = profile.as_str(),
        read_only = args.read_only,
        tools = definitions.len(),
        "hunkloom mcp serving on stdio"
    );
    serve(server::Server::new(session, definitions, args.read_only))
}

/// Serves a toolset profile's tools (`--profile openai`) until stdin ends.
fn serve_toolset(root: &std::path::Path, args: &Args) -> Result<(), String> {
    if args.read_only {
        return Err(format!(
            "--read-only has no tools to offer with --profile {}: its tools all write",
            args.profile
        ));
    }
    let options = hunkloom_tools::ToolsetOptions::new()
        .profile(args.profile)
        .protect(args.protect.iter().cloned());
    let toolset = hunkloom_tools::Toolset::new(root, options)
        .map_err(|e| format!("cannot serve {}: [{}] {e}", root.display(), e.code()))?;
    tracing::info!(
        root = %toolset.root().display(),
        profile = args.profile.as_str(),
        "hunkloom mcp serving a toolset on stdio"
    );
    let server = toolset_server::ToolsetServer::new(toolset);
    serve(server)
}

/// Runs `server` on stdin/stdout until stdin ends: one thread reads requests and takes their
/// order; each call runs on a blocking thread.
fn serve<S: rmcp::ServerHandler>(server: S) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let running = match server.serve(stdio::transport()).await {
            Ok(running) => running,
            // Input ended before the handshake: a client that went away, not a failure.
            Err(ServerInitializeError::ConnectionClosed(_)) => {
                tracing::info!("input ended before initialize");
                return Ok(());
            }
            Err(e) => return Err(format!("the MCP session did not start: {e}")),
        };
        let reason = running
            .waiting()
            .await
            .map_err(|e| format!("the MCP session failed: {e}"))?;
        tracing::info!(?reason, "hunkloom mcp done");
        Ok(())
    })
}

/// Logs to standard error, at the level `HUNKLOOM_LOG` names (default `info`).
fn init_logging() {
    let level = std::env::var("HUNKLOOM_LOG")
        .ok()
        .and_then(|l| LevelFilter::from_str(l.trim()).ok())
        .unwrap_or(LevelFilter::INFO);
    // Only fails if a subscriber is already set, which leaves logging as it is.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .try_init();
}

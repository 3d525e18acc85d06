//! `hunkloom mcp`: a Model Context Protocol server on standard input and output, built on the
//! official Rust SDK (`rmcp`), that gives any MCP client hunkloom's edit tools over one root.
//!
//! The tools are a [`Toolset`](hunkloom_tools::Toolset) (`native` by default: read_file,
//! apply_diff, apply_lazy, apply_patch, undo_edit and the text editor; `--profile P` another
//! family's tools); what they do and say lives there.
//!
//! - [`server`]: the SDK's handler (tool definitions as MCP tools, calls on blocking threads);
//! - [`order`]: calls on the same file in their order of arrival;
//! - [`stdio`]: the transport; and this module the process around them (logging, runtime,
//!   exit).
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

mod order;
mod server;
mod stdio;

use std::path::PathBuf;
use std::str::FromStr;

use hunkloom_tools::{Toolset, ToolsetOptions, ToolsetProfile};
use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;
use tracing_subscriber::filter::LevelFilter;

/// The arguments of `hunkloom mcp`.
pub(crate) struct Args {
    pub(crate) root: Option<PathBuf>,
    pub(crate) profile: hunkloom_tools::ToolsetProfile,
    pub(crate) read_only: bool,
    pub(crate) protect: Vec<String>,
    pub(crate) max_characters: Option<usize>,
    pub(crate) semantics: hunkloom_tools::Semantics,
    pub(crate) durability: hunkloom_tools::Durability,
}

/// Serves MCP on stdin/stdout until stdin ends.
pub(crate) fn run(args: &Args) -> Result<(), String> {
    init_logging();
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot find the current directory: {e}"))?;
    let root = args.root.as_deref().unwrap_or(&cwd);
    let mut options = ToolsetOptions::new()
        .read_only(args.read_only)
        .semantics(args.semantics)
        .durability(args.durability)
        .protect(args.protect.iter().cloned());
    options = match args.profile.text_editor() {
        // The native set with that reference's text editor as `str_replace_based_edit_tool`.
        Some(editor) => options
            .profile(ToolsetProfile::Native)
            .editor(match args.semantics {
                // hunkloom's own rules under the editor's name: the native editor.
                hunkloom_tools::Semantics::Native => hunkloom_tools::Profile::Native,
                _ => editor,
            }),
        None => options.profile(args.profile),
    };
    if let Some(characters) = args.max_characters {
        options = options.max_characters(characters);
    }
    let toolset = Toolset::new(root, options)
        .map_err(|e| format!("cannot serve {}: [{}] {e}", root.display(), e.code()))?;
    let tools = toolset.tools().len();
    if tools == 0 {
        return Err(format!(
            "--read-only has no tools to offer with --profile {}: its tools all write",
            args.profile
        ));
    }
    tracing::info!(
        root = %toolset.root().display(),
        profile = args.profile.as_str(),
        read_only = args.read_only,
        tools,
        "hunkloom mcp serving on stdio"
    );
    serve(server::Server::new(toolset, args.read_only))
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

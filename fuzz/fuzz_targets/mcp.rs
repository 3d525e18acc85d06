//! The MCP server's inputs (`crates/hunkloom-cli/src/mcp`, compiled into this target from its
//! sources): arbitrary JSON-RPC lines through the SDK's message parsing, and arbitrary
//! `tools/call` tool names and argument objects through the server's [`Session`], on a
//! temporary root in every profile, read-only or not. Every call is answered with a reply
//! (a refusal carries a code), never a panic, and no file outside the root changes.

#![no_main]
#![allow(dead_code, unreachable_pub, missing_docs)]

#[path = "../../crates/hunkloom-cli/src/mcp/mod.rs"]
mod mcp;

use arbitrary::Arbitrary;
use hunkloom_tools::Profile;
use libfuzzer_sys::fuzz_target;
use mcp::fuzzing::{Session, ToolName};

#[derive(Arbitrary, Debug)]
struct Call<'a> {
    tool: u8,
    /// An unknown tool name instead, when set.
    name: Option<&'a str>,
    /// The arguments, as JSON text (an object, or anything else).
    arguments: &'a str,
    /// A whole JSON-RPC line for the SDK's parser.
    line: Option<&'a str>,
}

fuzz_target!(|input: (u8, bool, Vec<Call<'_>>)| {
    let (profile, read_only, calls) = input;
    let outer = tempfile::tempdir().expect("tempdir");
    let root = outer.path().join("root");
    std::fs::create_dir_all(root.join("sub")).expect("mkdir");
    std::fs::write(root.join("a.txt"), "one\ntwo\nthree\n").expect("write");
    std::fs::write(outer.path().join("escape.txt"), "outside\n").expect("write");
    let profile = Profile::ALL[usize::from(profile) % Profile::ALL.len()];
    let session = Session::open(&root, profile, read_only, &[]).expect("open");
    for call in calls.into_iter().take(16) {
        if let Some(line) = call.line {
            let _ = serde_json::from_str::<rmcp::model::ClientJsonRpcMessage>(line);
        }
        let tool = match call.name {
            Some(name) => match ToolName::from_name(name) {
                Some(t) => t,
                None => continue,
            },
            None => ToolName::ALL[usize::from(call.tool) % ToolName::ALL.len()],
        };
        let arguments = match serde_json::from_str::<serde_json::Value>(call.arguments) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        };
        let reply = session.call(tool, &arguments);
        let _ = reply.is_error();
    }
    assert_eq!(
        std::fs::read(outer.path().join("escape.txt")).expect("read"),
        b"outside\n",
        "a file outside the root changed"
    );
});

//! The MCP server's inputs: arbitrary JSON-RPC lines through the SDK's message parsing, and
//! arbitrary `tools/call` tool names and argument objects through the [`Toolset`] the server
//! answers with, on a temporary root in every profile, read-only or not. Every call is answered
//! with a result (a refusal carries a code), never a panic, and no file outside the root
//! changes.

#![no_main]
#![allow(dead_code, unreachable_pub, missing_docs)]

use arbitrary::Arbitrary;
use hunkloom_tools::{Toolset, ToolsetOptions, ToolsetProfile};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Call<'a> {
    tool: u8,
    /// Another tool name instead, when set.
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
    let profile = ToolsetProfile::ALL[usize::from(profile) % ToolsetProfile::ALL.len()];
    let options = ToolsetOptions::new().profile(profile).read_only(read_only);
    let toolset = Toolset::new(&root, options).expect("open");
    let names: Vec<String> = toolset.tools().into_iter().map(|t| t.name).collect();
    for call in calls.into_iter().take(16) {
        if let Some(line) = call.line {
            let _ = serde_json::from_str::<rmcp::model::ClientJsonRpcMessage>(line);
        }
        let name = match (call.name, names.is_empty()) {
            (Some(name), _) => name.to_owned(),
            (None, true) => continue,
            (None, false) => names[usize::from(call.tool) % names.len()].clone(),
        };
        let arguments = match serde_json::from_str::<serde_json::Value>(call.arguments) {
            Ok(object @ serde_json::Value::Object(_)) => object,
            _ => serde_json::json!({}),
        };
        let _ = toolset.files(&name, &arguments);
        // An object is always answered with a result; only a panic would fail here.
        let _answer = toolset.call(&name, &arguments).expect("an object is answered");
    }
    assert_eq!(
        std::fs::read(outer.path().join("escape.txt")).expect("read"),
        b"outside\n",
        "a file outside the root changed"
    );
});

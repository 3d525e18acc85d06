//! The protocol: revisions, listing, malformed input, logs, a storm of calls, the end of input.

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use crate::client::{CURRENT, Mcp, block, read, snapshot, tree};

#[test]
fn initialize_negotiates_the_current_and_older_revisions() {
    let dir = tree(&[]);
    for (asked, answered) in [
        (CURRENT, CURRENT),
        ("2025-06-18", "2025-06-18"),
        ("2024-11-05", "2024-11-05"),
        // Unknown, or without an initialize handshake: the newest with one.
        ("2099-01-01", CURRENT),
        ("2026-07-28", CURRENT),
    ] {
        let mut mcp = Mcp::spawn(dir.path(), &["mcp"]);
        let init = mcp.initialize(asked);
        assert_eq!(init["protocolVersion"], answered, "{asked}: {init}");
        assert_eq!(init["serverInfo"]["name"], "hunkloom");
        assert_eq!(init["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
        assert!(init["capabilities"]["tools"].is_object(), "{init}");
        assert!(
            init["instructions"]
                .as_str()
                .is_some_and(|i| i.contains("read_file")),
            "{init}"
        );
        assert_eq!(mcp.tools().len(), 6);
        let status = mcp.close();
        assert!(status.success(), "{status:?}");
    }
}

#[test]
fn the_stateless_revision_needs_no_handshake() {
    let dir = tree(&[("a.txt", b"x\n")]);
    let mut mcp = Mcp::spawn(dir.path(), &["mcp"]);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let discover = mcp.request("server/discover", json!({"_meta": meta}));
    assert!(
        discover["result"]["supportedVersions"]
            .as_array()
            .is_some_and(|v| v.contains(&json!(CURRENT)) && v.contains(&json!("2024-11-05"))),
        "{discover}"
    );
    let call = mcp.request(
        "tools/call",
        json!({"name": "read_file", "arguments": {"path": "a.txt"}, "_meta": meta}),
    );
    assert_eq!(
        call["result"]["content"][0]["text"], "     1\tx\n",
        "{call}"
    );
    assert!(mcp.close().success());
}

#[test]
fn tools_list_gives_object_schemas_and_read_only_lists_only_reads() {
    let dir = tree(&[("a.txt", b"a\n")]);
    for profile in ["native", "anthropic", "openhands"] {
        let mut mcp = Mcp::start(dir.path(), &["--profile", profile]);
        let tools = mcp.tools();
        let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        assert_eq!(
            names,
            [
                "str_replace_based_edit_tool",
                "apply_diff",
                "apply_lazy",
                "apply_patch",
                "read_file",
                "undo_edit"
            ]
        );
        for tool in &tools {
            let schema = &tool["inputSchema"];
            assert_eq!(schema["type"], "object", "{tool}");
            let properties = schema["properties"].as_object().expect("properties");
            for (name, property) in properties {
                assert!(property["type"].is_string(), "{name}: {property}");
                assert!(property["description"].is_string(), "{name}: {property}");
            }
            for required in schema["required"].as_array().expect("required") {
                let required = required.as_str().expect("a name");
                assert!(properties.contains_key(required), "{required}");
            }
            let description = tool["description"].as_str().expect("description");
            assert!(description.len() > 100, "{description}");
            let root = dir.path().canonicalize().expect("canonical");
            assert!(
                description.contains(&root.display().to_string()),
                "{description}"
            );
            assert_eq!(
                tool["annotations"]["readOnlyHint"],
                tool["name"] == "read_file",
                "{tool}"
            );
        }
        let editor = &tools[0]["inputSchema"]["properties"]["command"]["enum"];
        let undo = profile != "anthropic";
        assert_eq!(
            editor
                .as_array()
                .expect("commands")
                .contains(&json!("undo_edit")),
            undo,
            "{profile}: {editor}"
        );
        assert!(mcp.close().success());
    }

    let before = snapshot(dir.path());
    let mut mcp = Mcp::start(dir.path(), &["--read-only"]);
    let tools = mcp.tools();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["name"], "read_file");
    assert_eq!(mcp.ok("read_file", json!({"path": "a.txt"})), "     1\ta\n");
    for (tool, arguments) in [
        (
            "apply_diff",
            json!({"path": "a.txt", "diff": block("a\n", "b\n")}),
        ),
        (
            "apply_lazy",
            json!({"path": "a.txt", "snippet": "# ...\na\nb\n"}),
        ),
        (
            "apply_patch",
            json!({"patch": "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n"}),
        ),
        ("undo_edit", json!({"path": "a.txt"})),
        (
            "str_replace_based_edit_tool",
            json!({"command": "create", "path": "b.txt", "file_text": "b"}),
        ),
    ] {
        let response = mcp.request("tools/call", json!({"name": tool, "arguments": arguments}));
        assert_eq!(response["error"]["code"], -32602, "{tool}: {response}");
    }
    assert!(mcp.close().success());
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn malformed_messages_get_errors_and_the_server_keeps_serving() {
    let dir = tree(&[("a.txt", b"a\n")]);
    let mut mcp = Mcp::spawn(dir.path(), &["mcp"]);
    // Before the handshake: a stray notification is ignored, a request is answered.
    mcp.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let early = mcp.request("tools/list", json!({}));
    assert!(early["error"]["code"].is_i64(), "{early}");
    assert_eq!(mcp.initialize(CURRENT)["protocolVersion"], CURRENT);

    // Not JSON: nothing to answer (no id), and the next request is served.
    mcp.send_raw("{\"jsonrpc\": \"2.0\", \"id\": 99, \"method\": \n");
    mcp.send_raw("not json at all\n");
    assert!(mcp.silent_for(Duration::from_millis(200)));
    assert_eq!(mcp.ok("read_file", json!({"path": "a.txt"})), "     1\ta\n");

    // JSON that is no JSON-RPC message, or a request whose params are no object: Invalid
    // Request, without an id (the SDK leaves it out).
    for line in [
        r#"{"hello": "world"}"#,
        r#"{"jsonrpc": "2.0", "id": 50, "method": "tools/call", "params": "read_file"}"#,
    ] {
        mcp.send_raw(&format!("{line}\n"));
        let invalid = mcp.next();
        assert_eq!(invalid["error"]["code"], -32600, "{invalid}");
        assert_eq!(invalid["id"], Value::Null, "{invalid}");
    }

    // Unknown method; tools/call without a name, with arguments that are no object, with an
    // unknown tool.
    let unknown = mcp.request("tools/delete_everything", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    for params in [
        json!({"arguments": {}}),
        json!({"name": "read_file", "arguments": [1, 2]}),
        json!({"name": 7}),
        json!({"name": "rm", "arguments": {}}),
    ] {
        let response = mcp.request("tools/call", params.clone());
        assert_eq!(response["error"]["code"], -32602, "{params}: {response}");
    }
    // No arguments at all is a call with none: a result saying what is missing.
    let response = mcp.request("tools/call", json!({"name": "read_file"}));
    assert_eq!(
        response["result"]["_meta"]["hunkloom/code"],
        "missing_parameter"
    );
    let ping = mcp.request("ping", json!({}));
    assert_eq!(ping["result"], json!({}), "{ping}");
    assert!(mcp.close().success());
}

#[test]
fn logs_go_to_stderr_and_stdout_carries_only_messages() {
    let dir = tree(&[("a.txt", b"a\n")]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    mcp.ok("read_file", json!({"path": "a.txt"}));
    mcp.refused("read_file", json!({"path": "b.txt"}), "file_not_found");
    drop(mcp.stdin.take());
    // Every stdout line was parsed as a JSON-RPC message by `next`; nothing else is left.
    assert!(mcp.wait().success());
    assert!(mcp.lines.recv_timeout(Duration::from_secs(5)).is_err());
    let logs = mcp.logs();
    assert!(logs.contains("hunkloom mcp serving on stdio"), "{logs}");
    assert!(logs.contains("tool call"), "{logs}");
}

#[test]
fn a_thousand_calls_in_a_row_run_in_the_order_sent() {
    let dir = tree(&[("counter.txt", b"n = 0\r\n")]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    mcp.ok("read_file", json!({"path": "counter.txt"}));
    // All 1,000 requests are written before any answer is read; edits and reads alternate,
    // so each edit only applies if the calls run in the order they were sent.
    let mut batch = String::new();
    for i in 0..1000u64 {
        let id = 1000 + i;
        let call = if i % 2 == 0 {
            let k = i / 2;
            json!({"name": "apply_diff", "arguments": {
                "path": "counter.txt",
                "diff": block(&format!("n = {k}\n"), &format!("n = {}\n", k + 1))
            }})
        } else {
            json!({"name": "read_file", "arguments": {"path": "counter.txt"}})
        };
        let message = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": call});
        batch.push_str(&format!("{message}\n"));
    }
    mcp.send_raw(&batch);
    // Answers may come in any order (JSON-RPC matches them by id); what each read saw shows
    // the order the calls ran in.
    let mut answers = BTreeMap::new();
    while answers.len() < 1000 {
        let message = mcp.next();
        if let Some(id) = message["id"].as_u64() {
            assert!(
                answers.insert(id - 1000, message).is_none(),
                "one answer per id"
            );
        }
    }
    for (i, message) in &answers {
        let result = &message["result"];
        assert_eq!(result["isError"], false, "{message}");
        if i % 2 == 1 {
            let k = i / 2 + 1;
            assert_eq!(result["content"][0]["text"], format!("     1\tn = {k}\n"));
        }
    }
    assert_eq!(read(dir.path().join("counter.txt")), b"n = 500\r\n");
    assert!(mcp.close().success());
}

#[test]
fn closing_stdin_ends_the_server_cleanly() {
    let dir = tree(&[("a.txt", b"a\n")]);

    // Before anything was sent.
    let mcp = Mcp::spawn(dir.path(), &["mcp"]);
    assert!(mcp.close().success());

    // In the middle of a request: the partial line is dropped, nothing is written.
    let mut mcp = Mcp::start(dir.path(), &[]);
    mcp.ok("read_file", json!({"path": "a.txt"}));
    let call = json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call", "params": {
        "name": "apply_diff",
        "arguments": {"path": "a.txt", "diff": block("a\n", "b\n")}
    }})
    .to_string();
    mcp.send_raw(&call[..call.len() / 2]);
    assert!(mcp.close().success());
    assert_eq!(read(dir.path().join("a.txt")), b"a\n");

    // Right after a whole request: it is carried out and answered before the exit.
    let mut mcp = Mcp::start(dir.path(), &[]);
    mcp.ok("read_file", json!({"path": "a.txt"}));
    mcp.send_raw(&format!("{call}\n"));
    drop(mcp.stdin.take());
    let answer = mcp.next();
    assert_eq!(answer["id"], 77);
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert!(mcp.wait().success());
    assert_eq!(read(dir.path().join("a.txt")), b"b\n");
}

#[test]
fn a_root_that_is_no_directory_is_refused_at_start() {
    let dir = tree(&[("file.txt", b"x\n")]);
    for root in ["missing", "file.txt"] {
        let out = Command::new(env!("CARGO_BIN_EXE_hunkloom"))
            .args(["mcp", "--root", root])
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .expect("run");
        assert!(!out.status.success(), "{root}");
        assert!(out.stdout.is_empty(), "{root}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("hunkloom: cannot serve"), "{stderr}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_hunkloom"))
        .args(["mcp", "--profile", "vim"])
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown toolset profile 'vim'"), "{stderr}");
}

#[test]
fn the_help_names_every_tool_the_server_lists() {
    let dir = tree(&[]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    let names: Vec<String> = mcp
        .tools()
        .iter()
        .map(|t| t["name"].as_str().expect("name").to_owned())
        .collect();
    assert!(mcp.close().success());
    for args in [&["--help"][..], &["mcp", "--help"][..]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hunkloom"))
            .args(args)
            .output()
            .expect("help");
        let help = String::from_utf8_lossy(&out.stdout);
        for name in &names {
            assert!(
                help.contains(name.as_str()),
                "`hunkloom {args:?}` does not name {name}"
            );
        }
    }
}

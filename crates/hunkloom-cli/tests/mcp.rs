//! `hunkloom mcp` as a client sees it: the binary spawned, JSON-RPC over its stdin and stdout,
//! files checked byte for byte.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long any one answer may take before the test fails instead of hanging.
const TIMEOUT: Duration = Duration::from_secs(20);
const CURRENT: &str = "2025-11-25";

/// A running `hunkloom mcp` and the client end of its stdio.
struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
    stderr: PathBuf,
    _logs: tempfile::TempDir,
}

impl Mcp {
    /// `hunkloom mcp ARGS` started in `cwd`, not yet initialized.
    fn spawn(cwd: &Path, args: &[&str]) -> Mcp {
        Mcp::spawn_program(env!("CARGO_BIN_EXE_hunkloom"), cwd, args)
    }

    fn spawn_program(program: &str, cwd: &Path, args: &[&str]) -> Mcp {
        let logs = tempfile::tempdir().expect("tempdir");
        let stderr = logs.path().join("stderr.log");
        let mut child = Command::new(program)
            .args(args)
            .current_dir(cwd)
            .env("HUNKLOOM_LOG", "debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).expect("stderr file"))
            .spawn()
            .expect("spawn hunkloom mcp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Mcp {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 1,
            stderr,
            _logs: logs,
        }
    }

    /// Started in `root` with `--root root` and initialized at the current revision.
    fn start(root: &Path, extra: &[&str]) -> Mcp {
        let root_arg = root.to_str().expect("utf-8 path");
        let mut args = vec!["mcp", "--root", root_arg];
        args.extend_from_slice(extra);
        let mut mcp = Mcp::spawn(root, &args);
        let init = mcp.initialize(CURRENT);
        assert_eq!(init["protocolVersion"], CURRENT, "{init}");
        mcp
    }

    fn send_raw(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).expect("write");
        stdin.flush().expect("flush");
    }

    fn send(&mut self, message: &Value) {
        self.send_raw(&format!("{message}\n"));
    }

    /// The next message on stdout (each must be one JSON-RPC 2.0 message on one line).
    fn next(&mut self) -> Value {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => {
                let message: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
                assert_eq!(message["jsonrpc"], "2.0", "{line}");
                message
            }
            Err(e) => panic!("no message from the server ({e}); stderr:\n{}", self.logs()),
        }
    }

    /// Nothing arrives on stdout within `wait`.
    fn silent_for(&mut self, wait: Duration) -> bool {
        matches!(
            self.lines.recv_timeout(wait),
            Err(RecvTimeoutError::Timeout)
        )
    }

    /// Sends a request and returns its response (result or error object), skipping
    /// notifications.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next();
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
            assert!(
                message.get("id").is_none(),
                "answer to another request: {message}"
            );
        }
    }

    fn initialize(&mut self, version: &str) -> Value {
        let response = self.request(
            "initialize",
            json!({
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "hunkloom-tests", "version": "1.0"}
            }),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        response["result"].clone()
    }

    fn tools(&mut self) -> Vec<Value> {
        let response = self.request("tools/list", json!({}));
        response["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{response}"))
            .clone()
    }

    /// A `tools/call`'s result (the test fails on a JSON-RPC error).
    fn call(&mut self, tool: &str, arguments: Value) -> Outcome {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let result = response
            .get("result")
            .unwrap_or_else(|| panic!("{tool}: not a result: {response}"));
        Outcome(result.clone())
    }

    /// A call that must succeed; its text.
    fn ok(&mut self, tool: &str, arguments: Value) -> String {
        let outcome = self.call(tool, arguments);
        assert!(!outcome.is_error(), "{tool}: {}", outcome.text());
        outcome.text().to_owned()
    }

    /// A call that must be refused with `code`; its text.
    fn refused(&mut self, tool: &str, arguments: Value, code: &str) -> String {
        let outcome = self.call(tool, arguments);
        assert!(
            outcome.is_error(),
            "{tool} was not refused: {}",
            outcome.text()
        );
        assert_eq!(outcome.code(), code, "{tool}: {}", outcome.text());
        outcome.text().to_owned()
    }

    /// Closes stdin and waits for the exit.
    fn close(mut self) -> ExitStatus {
        drop(self.stdin.take());
        self.wait()
    }

    fn wait(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn logs(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `tools/call` result.
struct Outcome(Value);

impl Outcome {
    fn text(&self) -> &str {
        let content = self.0["content"].as_array().expect("content");
        assert_eq!(content.len(), 1, "{}", self.0);
        assert_eq!(content[0]["type"], "text");
        content[0]["text"].as_str().expect("text")
    }

    fn is_error(&self) -> bool {
        self.0["isError"] == true
    }

    fn code(&self) -> &str {
        self.0["_meta"]["hunkloom/code"].as_str().unwrap_or("")
    }
}

/// A temporary root with `files`.
fn tree(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, bytes) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    dir
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            let rel = path
                .strip_prefix(root)
                .expect("inside")
                .display()
                .to_string();
            let meta = std::fs::symlink_metadata(&path).expect("meta");
            if meta.is_symlink() {
                let target = std::fs::read_link(&path).expect("link");
                out.insert(rel, format!("-> {}", target.display()).into_bytes());
            } else if meta.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn read(path: impl AsRef<Path>) -> Vec<u8> {
    std::fs::read(path).expect("read")
}

fn block(search: &str, replace: &str) -> String {
    format!("<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n")
}

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
        assert_eq!(mcp.tools().len(), 5);
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
fn read_file_shows_numbered_lines_and_refuses_mistakes() {
    let mut lines = String::new();
    for i in 1..=2100 {
        lines.push_str(&format!("line {i}\r\n"));
    }
    let dir = tree(&[
        ("src/app.py", b"def f():\r\n    return 1\r\n"),
        ("long.txt", lines.as_bytes()),
        ("empty.txt", b""),
        ("secret.env", b"KEY=1\n"),
        (".hunkloomignore", b"*.env\n"),
        ("bin.dat", b"\xff\xfe\x00\xd8garbage\xff"),
    ]);
    let before = snapshot(dir.path());
    let mut mcp = Mcp::start(dir.path(), &[]);
    assert_eq!(
        mcp.ok("read_file", json!({"path": "src/app.py"})),
        "     1\tdef f():\n     2\t    return 1\n"
    );
    let abs = dir.path().join("src/app.py");
    assert_eq!(
        mcp.ok("read_file", json!({"path": abs, "start_line": 2})),
        "     2\t    return 1\n"
    );
    let long = mcp.ok("read_file", json!({"path": "long.txt"}));
    assert!(long.starts_with("     1\tline 1\n"));
    assert!(long.contains("  2000\tline 2000\n"));
    assert!(!long.contains("\tline 2001"));
    assert!(
        long.ends_with("(long.txt has 2100 lines; this shows lines 1-2000. Call read_file with start_line 2001 to read on.)"),
        "{long}"
    );
    assert_eq!(
        mcp.ok(
            "read_file",
            json!({"path": "long.txt", "start_line": 2099, "end_line": 5000})
        ),
        "  2099\tline 2099\n  2100\tline 2100\n"
    );
    assert_eq!(
        mcp.ok("read_file", json!({"path": "empty.txt"})),
        "empty.txt is empty."
    );

    let text = mcp.refused("read_file", json!({"path": "src/ap.py"}), "file_not_found");
    assert!(text.contains("Did you mean src/app.py?"), "{text}");
    mcp.refused("read_file", json!({"path": "src"}), "io_error");
    mcp.refused("read_file", json!({"path": "secret.env"}), "path_ignored");
    mcp.refused(
        "read_file",
        json!({"path": "bin.dat"}),
        "unsupported_encoding",
    );
    mcp.refused(
        "read_file",
        json!({"path": "long.txt", "start_line": 3000}),
        "invalid_view_range",
    );
    mcp.refused(
        "read_file",
        json!({"path": "long.txt", "start_line": 5, "end_line": 4}),
        "invalid_view_range",
    );
    mcp.refused("read_file", json!({}), "missing_parameter");
    mcp.refused("read_file", json!({"path": ""}), "invalid_parameter");
    mcp.refused("read_file", json!({"path": ["a"]}), "invalid_parameter");
    mcp.refused(
        "read_file",
        json!({"path": "src/app.py", "start_line": "2"}),
        "invalid_parameter",
    );
    let text = mcp.refused(
        "read_file",
        json!({"file_path": "src/app.py"}),
        "invalid_parameter",
    );
    assert!(
        text.contains("read_file has no argument `file_path`"),
        "{text}"
    );
    assert!(mcp.close().success());
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn apply_diff_reports_each_block_and_refuses_what_it_cannot_place() {
    let original: &[u8] =
        b"def greet():\r\n    print('hi')\r\n\r\ndef part():\r\n    print('bye')\r\n";
    let dir = tree(&[("app.py", original), ("twice.txt", b"x = 1\ny\nx = 1\n")]);
    let mut mcp = Mcp::start(dir.path(), &[]);

    // An edit of a file not read yet.
    let diff = block("    print('hi')\n", "    print('hello')\n");
    let text = mcp.refused(
        "apply_diff",
        json!({"path": "app.py", "diff": diff}),
        "not_read",
    );
    assert!(text.contains("Call read_file on it first"), "{text}");
    assert!(
        text.ends_with("Nothing was written: app.py is unchanged."),
        "{text}"
    );
    assert_eq!(read(dir.path().join("app.py")), original);

    mcp.ok("read_file", json!({"path": "app.py"}));
    // Two blocks: one exact, one indented differently (LF text into a CRLF file).
    let diff = block("    print('hi')\n", "    print('hello')\n")
        + &block("print('bye')\n", "print('ciao')\n");
    let text = mcp.ok("apply_diff", json!({"path": "app.py", "diff": diff}));
    assert!(text.starts_with("Applied 2 blocks to app.py:\n"), "{text}");
    assert!(
        text.contains("- block 1: replaced line 2 (strategy: exact)"),
        "{text}"
    );
    assert!(
        text.contains(
            "- block 2: replaced line 5 (strategy: indentation; tolerated: indentation; the \
             replacement was re-indented by +4 columns to match the file)"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("app.py now has 5 lines. undo_edit takes this edit back."),
        "{text}"
    );
    let edited: &[u8] =
        b"def greet():\r\n    print('hello')\r\n\r\ndef part():\r\n    print('ciao')\r\n";
    assert_eq!(read(dir.path().join("app.py")), edited);

    // Refusals leave the file as it is.
    let refusals = [
        (block("    nothing('here')\n", "x\n"), "search_not_found"),
        (
            "<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n".to_owned(),
            "malformed_block",
        ),
        (
            block("    print('hello')\n", "    a()\n")
                + &block("    print('hello')\n", "    b()\n"),
            "overlapping_blocks",
        ),
    ];
    for (diff, code) in refusals {
        let text = mcp.refused("apply_diff", json!({"path": "app.py", "diff": diff}), code);
        assert!(
            text.ends_with("Nothing was written: app.py is unchanged."),
            "{text}"
        );
        assert_eq!(read(dir.path().join("app.py")), edited);
    }
    mcp.ok("read_file", json!({"path": "twice.txt"}));
    let text = mcp.refused(
        "apply_diff",
        json!({"path": "twice.txt", "diff": block("x = 1\n", "x = 2\n")}),
        "ambiguous_match",
    );
    assert!(text.contains("matches 2 places: line 1, line 3."), "{text}");

    // Someone else changes the file: the next edit is refused until it is read again.
    let theirs: &[u8] = b"def greet():\r\n    print('HELLO')\r\n";
    std::fs::write(dir.path().join("app.py"), theirs).expect("write");
    let diff = block("def greet():\n", "def welcome():\n");
    let text = mcp.refused(
        "apply_diff",
        json!({"path": "app.py", "diff": diff}),
        "stale_file",
    );
    assert!(text.contains("Call read_file on it"), "{text}");
    assert_eq!(read(dir.path().join("app.py")), theirs);
    mcp.ok("read_file", json!({"path": "app.py"}));
    mcp.ok("apply_diff", json!({"path": "app.py", "diff": diff}));
    assert_eq!(
        read(dir.path().join("app.py")),
        b"def welcome():\r\n    print('HELLO')\r\n"
    );

    // An empty SEARCH creates a file; a non-empty one on a missing file is refused.
    let text = mcp.ok(
        "apply_diff",
        json!({"path": "pkg/new.py", "diff": block("", "x = 1\n")}),
    );
    assert!(text.starts_with("Created pkg/new.py:"), "{text}");
    assert_eq!(read(dir.path().join("pkg/new.py")), b"x = 1\n");
    let text = mcp.refused(
        "apply_diff",
        json!({"path": "pkg/other.py", "diff": block("y\n", "z\n")}),
        "file_not_found",
    );
    assert!(text.contains("empty SEARCH"), "{text}");
    assert!(!dir.path().join("pkg/other.py").exists());

    mcp.refused("apply_diff", json!({"path": "app.py"}), "missing_parameter");
    mcp.refused(
        "apply_diff",
        json!({"path": "app.py", "diff": 3}),
        "invalid_parameter",
    );
    assert!(mcp.close().success());
}

/// Files for the patch tests: a CRLF file, a UTF-16 one, one to delete, one to move.
fn patch_tree() -> tempfile::TempDir {
    tree(&[
        ("src/app.py", b"def greet():\r\n    print('hi')\r\n"),
        ("src/util.py", b"A = 1\nB = 2\n"),
        ("old.txt", b"gone\n"),
        ("utf16.txt", b"\xff\xfea\x00\n\x00"),
    ])
}

const PATCH: &str = "*** Begin Patch
*** Update File: src/app.py
@@ def greet():
-    print('hi')
+    print('hello')
*** Add File: docs/notes.md
+notes
*** Delete File: old.txt
*** Update File: src/util.py
*** Move to: src/helpers.py
@@
 A = 1
-B = 2
+B = 3
*** Update File: utf16.txt
-a
+b
*** End Patch
";

#[test]
fn apply_patch_changes_every_file_or_none() {
    let dir = patch_tree();
    let before = snapshot(dir.path());
    let mut mcp = Mcp::start(dir.path(), &[]);

    // The last hunk fails: nothing is written.
    let failing = PATCH.replace(
        "+b\n",
        "+b\n*** Update File: src/app.py\n@@\n-not there\n+x\n",
    );
    let text = mcp.refused(
        "apply_patch",
        json!({"patch": failing}),
        "patch_context_not_found",
    );
    assert!(
        text.ends_with("Nothing was written: no file has changed."),
        "{text}"
    );
    assert_eq!(snapshot(dir.path()), before);
    for (patch, code) in [
        ("*** Update File: a\n", "invalid_patch"),
        ("*** Begin Patch\n*** End Patch\n", "empty_patch"),
        (
            "*** Begin Patch\n*** Update File: nope.txt\n@@\n-a\n+b\n*** End Patch\n",
            "patch_file_not_found",
        ),
        (
            "*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch\n",
            "path_outside_root",
        ),
    ] {
        mcp.refused("apply_patch", json!({"patch": patch}), code);
        assert_eq!(snapshot(dir.path()), before);
    }

    let text = mcp.ok("apply_patch", json!({"patch": PATCH}));
    assert_eq!(
        text,
        "Patch applied: 5 files changed.\n\
         - updated src/app.py (2 lines)\n\
         - created docs/notes.md (1 line)\n\
         - deleted old.txt\n\
         - moved src/util.py -> src/helpers.py (2 lines)\n\
         - updated utf16.txt (1 line)\n\
         undo_edit takes back each file's change (for a move, undo both paths)."
    );
    let after = snapshot(dir.path());
    let expected: BTreeMap<String, Vec<u8>> = [
        ("docs/notes.md", b"notes\n".to_vec()),
        (
            "src/app.py",
            b"def greet():\r\n    print('hello')\r\n".to_vec(),
        ),
        ("src/helpers.py", b"A = 1\nB = 3\n".to_vec()),
        ("utf16.txt", b"\xff\xfeb\x00\n\x00".to_vec()),
    ]
    .into_iter()
    .map(|(p, b)| (p.to_owned(), b))
    .collect();
    assert_eq!(after, expected);

    // Each file's change is taken back by undo_edit (a move: both paths).
    for path in [
        "src/app.py",
        "docs/notes.md",
        "old.txt",
        "src/helpers.py",
        "src/util.py",
        "utf16.txt",
    ] {
        mcp.ok("undo_edit", json!({"path": path}));
    }
    assert_eq!(snapshot(dir.path()), before);
    mcp.refused("apply_patch", json!({}), "missing_parameter");
    assert!(mcp.close().success());
}

#[test]
fn undo_edit_takes_back_the_last_edit_unless_the_file_changed() {
    let dir = tree(&[("a.txt", b"one\r\ntwo\r\n")]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    mcp.refused("undo_edit", json!({"path": "a.txt"}), "nothing_to_undo");
    mcp.ok("read_file", json!({"path": "a.txt"}));
    mcp.ok(
        "apply_diff",
        json!({"path": "a.txt", "diff": block("two\n", "2\n")}),
    );
    mcp.ok(
        "apply_diff",
        json!({"path": "a.txt", "diff": block("one\n", "1\n")}),
    );
    assert_eq!(read(dir.path().join("a.txt")), b"1\r\n2\r\n");
    let text = mcp.ok("undo_edit", json!({"path": "a.txt"}));
    assert_eq!(
        text,
        "Undid the last edit of a.txt: its previous content is back (2 lines)."
    );
    assert_eq!(read(dir.path().join("a.txt")), b"one\r\n2\r\n");

    // Changed behind the server's back: the undo is refused and the change kept.
    std::fs::write(dir.path().join("a.txt"), b"theirs\n").expect("write");
    let text = mcp.refused("undo_edit", json!({"path": "a.txt"}), "stale_file");
    assert!(text.ends_with("Nothing was undone."), "{text}");
    assert_eq!(read(dir.path().join("a.txt")), b"theirs\n");

    // A created file is removed again.
    mcp.ok(
        "apply_diff",
        json!({"path": "b.txt", "diff": block("", "b\n")}),
    );
    let text = mcp.ok("undo_edit", json!({"path": "b.txt"}));
    assert_eq!(text, "Undid the creation of b.txt: the file is removed.");
    assert!(!dir.path().join("b.txt").exists());
    assert!(mcp.close().success());
}

#[test]
fn the_text_editor_answers_in_each_profile() {
    let dir = tree(&[("a.txt", b"alpha\r\nbeta\r\n")]);
    let root = dir.path().canonicalize().expect("canonical");
    let abs = root.join("a.txt").display().to_string();
    let tool = "str_replace_based_edit_tool";

    // native: relative paths, view before edit, the file's line endings kept.
    let mut mcp = Mcp::start(&root, &[]);
    let edit =
        json!({"command": "str_replace", "path": "a.txt", "old_str": "beta", "new_str": "BETA"});
    mcp.refused(tool, edit.clone(), "not_read");
    let view = mcp.ok(tool, json!({"command": "view", "path": "a.txt"}));
    assert!(view.contains("     1\talpha\n     2\tbeta"), "{view}");
    mcp.ok(tool, edit);
    assert_eq!(read(root.join("a.txt")), b"alpha\r\nBETA\r\n");
    mcp.refused(
        tool,
        json!({"command": "view", "path": "../x"}),
        "path_outside_root",
    );
    mcp.refused(
        tool,
        json!({"command": "fly", "path": "a.txt"}),
        "unknown_command",
    );
    mcp.refused(tool, json!({"path": "a.txt"}), "missing_parameter");
    mcp.ok(tool, json!({"command": "undo_edit", "path": "a.txt"}));
    assert_eq!(read(root.join("a.txt")), b"alpha\r\nbeta\r\n");

    // The editor and the workspace tools share the root but not their records: an edit by
    // one makes the file stale for the other.
    mcp.ok("read_file", json!({"path": "a.txt"}));
    mcp.ok(tool, json!({"command": "view", "path": "a.txt"}));
    mcp.ok(
        "apply_diff",
        json!({"path": "a.txt", "diff": block("alpha\n", "ALPHA\n")}),
    );
    mcp.refused(
        tool,
        json!({"command": "str_replace", "path": "a.txt", "old_str": "beta", "new_str": "b"}),
        "stale_file",
    );
    assert_eq!(read(root.join("a.txt")), b"ALPHA\r\nbeta\r\n");
    assert!(mcp.close().success());

    // anthropic: absolute paths, the reference's texts.
    let mut mcp = Mcp::start(&root, &["--profile", "anthropic"]);
    mcp.refused(
        tool,
        json!({"command": "view", "path": "a.txt"}),
        "relative_path",
    );
    let created = root.join("new.txt").display().to_string();
    let text = mcp.ok(
        tool,
        json!({"command": "create", "path": created, "file_text": "n\n"}),
    );
    assert_eq!(text, format!("File created successfully at: {created}"));
    mcp.ok(
        tool,
        json!({"command": "str_replace", "path": abs, "old_str": "ALPHA", "new_str": "alpha"}),
    );
    assert_eq!(read(root.join("a.txt")), b"alpha\r\nbeta\r\n");
    assert_eq!(read(root.join("new.txt")), b"n\n");
    assert!(mcp.close().success());
}

#[cfg(unix)]
#[test]
fn no_path_leaves_the_root() {
    let outside = tree(&[("secret.txt", b"secret\n")]);
    let dir = tree(&[("a.txt", b"a\n")]);
    std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).expect("symlink");
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        dir.path().join("link.txt"),
    )
    .expect("symlink");
    let outside_before = snapshot(outside.path());
    let inside_before = snapshot(dir.path());
    let secret = outside.path().join("secret.txt").display().to_string();
    let elsewhere = outside.path().join("new.txt").display().to_string();
    let editor = "str_replace_based_edit_tool";

    let mut mcp = Mcp::start(dir.path(), &[]);
    for path in [
        "../x.txt",
        "sub/../../x.txt",
        &secret,
        "out/secret.txt",
        "link.txt",
    ] {
        mcp.refused("read_file", json!({"path": path}), "path_outside_root");
        mcp.refused(
            "apply_diff",
            json!({"path": path, "diff": block("", "x\n")}),
            "path_outside_root",
        );
        mcp.refused("undo_edit", json!({"path": path}), "path_outside_root");
        mcp.refused(
            editor,
            json!({"command": "view", "path": path}),
            "path_outside_root",
        );
    }
    for path in ["../new.txt", &elsewhere, "out/new.txt"] {
        mcp.refused(
            "apply_diff",
            json!({"path": path, "diff": block("", "x\n")}),
            "path_outside_root",
        );
        mcp.refused(
            "apply_patch",
            json!({"patch": format!("*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch\n")}),
            "path_outside_root",
        );
        mcp.refused(
            editor,
            json!({"command": "create", "path": path, "file_text": "x"}),
            "path_outside_root",
        );
    }
    mcp.refused(
        "apply_patch",
        json!({"patch": "*** Begin Patch\n*** Update File: a.txt\n*** Move to: ../moved.txt\n@@\n-a\n+b\n*** End Patch\n"}),
        "path_outside_root",
    );
    assert!(mcp.close().success());
    assert_eq!(snapshot(outside.path()), outside_before);
    assert_eq!(snapshot(dir.path()), inside_before);
    assert!(
        !dir.path()
            .parent()
            .expect("parent")
            .join("new.txt")
            .exists()
    );
}

#[test]
fn a_10_mb_file_is_read_in_windows_and_edited_exactly() {
    let mut text = String::with_capacity(10_500_000);
    let mut n = 0;
    while text.len() < 10_000_000 {
        n += 1;
        text.push_str(&format!(
            "{n:>8} the quick brown fox jumps over the lazy dog\r\n"
        ));
    }
    let dir = tree(&[("big.txt", text.as_bytes())]);
    let mut mcp = Mcp::start(dir.path(), &[]);
    let first = mcp.ok("read_file", json!({"path": "big.txt"}));
    assert_eq!(
        first.lines().count(),
        2002,
        "2000 lines, a blank line and the note"
    );
    assert!(
        first.contains(&format!("(big.txt has {n} lines;")),
        "{}",
        &first[first.len() - 200..]
    );
    let last = mcp.ok(
        "read_file",
        json!({"path": "big.txt", "start_line": n, "end_line": n}),
    );
    assert_eq!(
        last,
        format!("{n:>6}\t{n:>8} the quick brown fox jumps over the lazy dog\n")
    );
    let search = format!("{n:>8} the quick brown fox jumps over the lazy dog\n");
    let text_after = mcp.ok(
        "apply_diff",
        json!({"path": "big.txt", "diff": block(&search, "the end\n")}),
    );
    assert!(
        text_after.contains(&format!("block 1: replaced line {n} (strategy: exact)")),
        "{text_after}"
    );
    let expected = format!("{}the end\r\n", &text[..text.len() - search.len() - 1]);
    assert!(read(dir.path().join("big.txt")) == expected.as_bytes());
    mcp.ok("undo_edit", json!({"path": "big.txt"}));
    assert!(read(dir.path().join("big.txt")) == text.as_bytes());
    assert!(mcp.close().success());
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

/// The README's `## MCP server` section.
fn readme_section() -> String {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let text = std::fs::read_to_string(readme).expect("README.md");
    let start = text
        .find("\n## MCP server\n")
        .expect("a ## MCP server section");
    let rest = &text[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    rest[..end].to_owned()
}

/// The bodies of the section's code blocks fenced as `lang`.
fn fenced(section: &str, lang: &str) -> Vec<String> {
    let open = format!("```{lang}\n");
    section
        .split(&open)
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap_or_default().to_owned())
        .collect()
}

/// Runs `hunkloom ARGS` in `cwd` as a client would and checks that it serves `a.txt`.
fn serves(cwd: &Path, args: &[String]) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut mcp = Mcp::spawn(cwd, &args);
    assert_eq!(mcp.initialize(CURRENT)["protocolVersion"], CURRENT);
    assert_eq!(mcp.tools().len(), 5);
    assert_eq!(mcp.ok("read_file", json!({"path": "a.txt"})), "     1\ta\n");
    assert!(mcp.close().success());
}

#[test]
fn the_readme_registration_snippets_work_as_written() {
    let section = readme_section();
    let dir = tree(&[("a.txt", b"a\n")]);
    let project = dir.path().display().to_string();

    // `claude mcp add hunkloom -- COMMAND`: COMMAND runs as written in the project directory.
    let one_liner = fenced(&section, "sh")
        .iter()
        .flat_map(|b| b.lines().map(str::to_owned).collect::<Vec<_>>())
        .find(|l| l.starts_with("claude mcp add hunkloom -- "))
        .expect("a `claude mcp add hunkloom -- ...` line");
    let command: Vec<String> = one_liner["claude mcp add hunkloom -- ".len()..]
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    assert_eq!(command[0], "hunkloom");
    serves(dir.path(), &command[1..]);

    // Each JSON block parses and names `hunkloom mcp ...`, which runs with the placeholders
    // filled in.
    let blocks = fenced(&section, "json");
    assert!(blocks.len() >= 2, "{section}");
    for block in blocks {
        let config: Value = serde_json::from_str(&block)
            .unwrap_or_else(|e| panic!("README JSON does not parse ({e}):\n{block}"));
        let servers = config
            .get("mcpServers")
            .or_else(|| config.get("servers"))
            .unwrap_or_else(|| panic!("no servers in {config}"));
        let server = &servers["hunkloom"];
        assert_eq!(server["command"], "hunkloom", "{config}");
        let args: Vec<String> = server["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(|a| {
                a.as_str()
                    .expect("string args")
                    .replace("/path/to/project", &project)
                    .replace("${workspaceFolder}", &project)
            })
            .collect();
        assert_eq!(args[0], "mcp", "{config}");
        serves(Path::new("/"), &args);
    }

    // The TOML block names the same command; its args array is JSON too.
    let toml = fenced(&section, "toml").concat();
    assert!(toml.contains("command = \"hunkloom\"\n"), "{toml}");
    let args_line = toml
        .lines()
        .find_map(|l| l.strip_prefix("args = "))
        .expect("an args line");
    let args: Vec<String> = serde_json::from_str::<Vec<String>>(args_line)
        .expect("a string array")
        .into_iter()
        .map(|a| a.replace("/path/to/project", &project))
        .collect();
    serves(Path::new("/"), &args);
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
    assert!(
        stderr.contains("unknown text-editor profile 'vim'"),
        "{stderr}"
    );
}

//! The client end: `hunkloom mcp` spawned, JSON-RPC over its stdio, and file helpers.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long any one answer may take before the test fails instead of hanging.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(20);
pub(crate) const CURRENT: &str = "2025-11-25";

/// A running `hunkloom mcp` and the client end of its stdio.
pub(crate) struct Mcp {
    child: Child,
    pub(crate) stdin: Option<ChildStdin>,
    pub(crate) lines: Receiver<String>,
    next_id: u64,
    stderr: PathBuf,
    _logs: tempfile::TempDir,
}

impl Mcp {
    /// `hunkloom mcp ARGS` started in `cwd`, not yet initialized.
    pub(crate) fn spawn(cwd: &Path, args: &[&str]) -> Mcp {
        Mcp::spawn_program(env!("CARGO_BIN_EXE_hunkloom"), cwd, args)
    }

    pub(crate) fn spawn_program(program: &str, cwd: &Path, args: &[&str]) -> Mcp {
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
    pub(crate) fn start(root: &Path, extra: &[&str]) -> Mcp {
        let root_arg = root.to_str().expect("utf-8 path");
        let mut args = vec!["mcp", "--root", root_arg];
        args.extend_from_slice(extra);
        let mut mcp = Mcp::spawn(root, &args);
        let init = mcp.initialize(CURRENT);
        assert_eq!(init["protocolVersion"], CURRENT, "{init}");
        mcp
    }

    pub(crate) fn send_raw(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).expect("write");
        stdin.flush().expect("flush");
    }

    pub(crate) fn send(&mut self, message: &Value) {
        self.send_raw(&format!("{message}\n"));
    }

    /// The next message on stdout (each must be one JSON-RPC 2.0 message on one line).
    pub(crate) fn next(&mut self) -> Value {
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
    pub(crate) fn silent_for(&mut self, wait: Duration) -> bool {
        matches!(
            self.lines.recv_timeout(wait),
            Err(RecvTimeoutError::Timeout)
        )
    }

    /// Sends a request and returns its response (result or error object), skipping
    /// notifications.
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
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

    pub(crate) fn initialize(&mut self, version: &str) -> Value {
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

    pub(crate) fn tools(&mut self) -> Vec<Value> {
        let response = self.request("tools/list", json!({}));
        response["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{response}"))
            .clone()
    }

    /// A `tools/call`'s result (the test fails on a JSON-RPC error).
    pub(crate) fn call(&mut self, tool: &str, arguments: Value) -> Outcome {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let result = response
            .get("result")
            .unwrap_or_else(|| panic!("{tool}: not a result: {response}"));
        Outcome(result.clone())
    }

    /// A call that must succeed; its text.
    pub(crate) fn ok(&mut self, tool: &str, arguments: Value) -> String {
        let outcome = self.call(tool, arguments);
        assert!(!outcome.is_error(), "{tool}: {}", outcome.text());
        outcome.text().to_owned()
    }

    /// A call that must be refused with `code`; its text.
    pub(crate) fn refused(&mut self, tool: &str, arguments: Value, code: &str) -> String {
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
    pub(crate) fn close(mut self) -> ExitStatus {
        drop(self.stdin.take());
        self.wait()
    }

    pub(crate) fn wait(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub(crate) fn logs(&self) -> String {
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
pub(crate) struct Outcome(Value);

impl Outcome {
    pub(crate) fn text(&self) -> &str {
        let content = self.0["content"].as_array().expect("content");
        assert_eq!(content.len(), 1, "{}", self.0);
        assert_eq!(content[0]["type"], "text");
        content[0]["text"].as_str().expect("text")
    }

    pub(crate) fn is_error(&self) -> bool {
        self.0["isError"] == true
    }

    pub(crate) fn code(&self) -> &str {
        self.0["_meta"]["hunkloom/code"].as_str().unwrap_or("")
    }
}

/// A temporary root with `files`.
pub(crate) fn tree(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, bytes) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    dir
}

/// Every file under `dir` with its bytes.
pub(crate) fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    pub(crate) fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
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

pub(crate) fn read(path: impl AsRef<Path>) -> Vec<u8> {
    std::fs::read(path).expect("read")
}

pub(crate) fn block(search: &str, replace: &str) -> String {
    format!("<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n")
}

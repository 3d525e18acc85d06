//! The README's registration snippets, run as written.

use std::path::Path;

use serde_json::{Value, json};

use crate::client::{CURRENT, Mcp, tree};

/// The README's `## MCP server: use it from your agent` section.
fn readme_section() -> String {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let text = std::fs::read_to_string(readme).expect("README.md");
    let start = text
        .find("\n## MCP server: use it from your agent\n")
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

/// The `hunkloom` arguments of a launcher command as the README writes it: `uvx hunkloom ARGS`
/// or `npx -y hunkloom ARGS` run the package's `hunkloom` command with ARGS (test-dist starts
/// those launchers themselves from the built packages; here the command is the built binary).
fn hunkloom_args(command: &str, args: &[String]) -> Vec<String> {
    let rest = match command {
        "uvx" => args.strip_prefix(&["hunkloom".to_owned()][..]),
        "npx" => args.strip_prefix(&["-y".to_owned(), "hunkloom".to_owned()][..]),
        _ => None,
    };
    rest.unwrap_or_else(|| panic!("not `uvx hunkloom` or `npx -y hunkloom`: {command} {args:?}"))
        .to_vec()
}

/// Runs `hunkloom ARGS` in `cwd` as a client would and checks that it serves `a.txt`.
fn serves(cwd: &Path, args: &[String]) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut mcp = Mcp::spawn(cwd, &args);
    assert_eq!(mcp.initialize(CURRENT)["protocolVersion"], CURRENT);
    assert_eq!(mcp.tools().len(), 6);
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
    serves(dir.path(), &hunkloom_args(&command[0], &command[1..]));

    // Each JSON block parses and names `hunkloom mcp ...`, which runs with the placeholders
    // filled in.
    let blocks = fenced(&section, "json");
    assert!(blocks.len() >= 3, "{section}");
    for block in blocks {
        let config: Value = serde_json::from_str(&block)
            .unwrap_or_else(|e| panic!("README JSON does not parse ({e}):\n{block}"));
        let servers = config
            .get("mcpServers")
            .or_else(|| config.get("servers"))
            .or_else(|| config.get("context_servers"))
            .unwrap_or_else(|| panic!("no servers in {config}"));
        let server = &servers["hunkloom"];
        let command = server["command"].as_str().expect("a command");
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
        let args = hunkloom_args(command, &args);
        assert_eq!(args[0], "mcp", "{config}");
        serves(Path::new("/"), &args);
    }

    // The TOML block names the same command; its args array is JSON too.
    let toml = fenced(&section, "toml").concat();
    assert!(toml.contains("command = \"uvx\"\n"), "{toml}");
    let args_line = toml
        .lines()
        .find_map(|l| l.strip_prefix("args = "))
        .expect("an args line");
    let args: Vec<String> = serde_json::from_str::<Vec<String>>(args_line)
        .expect("a string array")
        .into_iter()
        .map(|a| a.replace("/path/to/project", &project))
        .collect();
    serves(Path::new("/"), &hunkloom_args("uvx", &args));
}

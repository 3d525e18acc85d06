//! A toolset's `tools()` are the declarations its reference sent to the model, as recorded
//! in `tests/vectors/toolsets/<profile>-tools.json`.

use hunkloom_tools::{Toolset, ToolsetOptions, ToolsetProfile};
use serde_json::{Value, json};

fn recorded(profile: &str) -> Vec<Value> {
    let path = format!(
        "{}/../../tests/vectors/toolsets/{profile}-tools.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let parsed: Value = serde_json::from_str(&text).expect("JSON");
    parsed["tools"].as_array().expect("a tools array").clone()
}

fn declared(profile: ToolsetProfile) -> Vec<Value> {
    let dir = tempfile::tempdir().expect("tempdir");
    let toolset =
        Toolset::new(dir.path(), ToolsetOptions::new().profile(profile)).expect("toolset");
    toolset
        .tools()
        .into_iter()
        .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}))
        .collect()
}

#[test]
fn gemini_declares_what_the_gemini_cli_sends() {
    let want: Vec<Value> = recorded("gemini")
        .into_iter()
        .map(|t| json!({"name": t["name"], "description": t["description"], "input_schema": t["input_schema"]}))
        .collect();
    assert_eq!(declared(ToolsetProfile::Gemini), want);
}

#[test]
fn openai_declares_the_recorded_call_input() {
    let want: Vec<Value> = recorded("openai")
        .into_iter()
        .map(|t| json!({"name": t["name"], "description": t["description"], "input_schema": t["input_schema"]}))
        .collect();
    let got = declared(ToolsetProfile::OpenAi);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["name"], want[0]["name"]);
    assert_eq!(got[0]["description"], want[0]["description"]);
}

#[test]
fn copilot_declares_what_copilot_chat_sends() {
    let want: Vec<Value> = recorded_list("copilot")
        .into_iter()
        .map(|t| json!({"name": t["name"], "description": t["description"], "input_schema": t["input_schema"]}))
        .collect();
    assert_eq!(declared(ToolsetProfile::Copilot), want);
}

/// `<profile>-tools.json` when it is a plain list of tools.
fn recorded_list(profile: &str) -> Vec<Value> {
    let path = format!(
        "{}/../../tests/vectors/toolsets/{profile}-tools.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).expect("JSON")
}

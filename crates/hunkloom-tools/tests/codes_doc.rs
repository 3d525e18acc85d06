//! docs/error-codes.md's "Tool codes" table against `ToolCode`: one row per code, in declaration
//! order, with the code's description (intra-doc links as plain code).

use hunkloom_tools::ToolCode;

const DOC: &str = include_str!("../../../docs/error-codes.md");

#[test]
fn every_tool_code_is_documented_in_order_with_its_meaning() {
    let section = DOC
        .split("\n## Tool codes\n")
        .nth(1)
        .expect("a `## Tool codes` section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let rows: Vec<&str> = section.lines().filter(|l| l.starts_with("| `")).collect();
    let expected: Vec<String> = ToolCode::ALL
        .iter()
        .map(|c| format!("| `{}` | {} |", c.as_str(), c.description()))
        .collect();
    assert_eq!(rows, expected, "regenerate the table from ToolCode");
}

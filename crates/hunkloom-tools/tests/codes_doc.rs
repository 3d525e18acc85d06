//! docs/error-codes.md's "Tool codes" table, generated from `ToolCode`: one row per code, in
//! declaration order, with the code's description. `HUNKLOOM_BLESS=1` (`make gen-docs`)
//! rewrites the table; otherwise the test fails when the document and `ToolCode` disagree.

use hunkloom_tools::ToolCode;

const DOC: &str = include_str!("../../../docs/error-codes.md");

/// Where the document is, for `HUNKLOOM_BLESS=1` to rewrite it.
const DOC_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/error-codes.md");

/// `doc` with the rows of its `## Tool codes` table rebuilt from `ToolCode`.
fn regenerated(doc: &str) -> String {
    let rows: Vec<String> = ToolCode::ALL
        .iter()
        .map(|code| format!("| `{}` | {} |", code.as_str(), code.description()))
        .collect();
    hunkloom_testkit::docs::replace_rows(doc, "Tool codes", &rows)
}

#[test]
fn the_tool_codes_table_is_generated_from_tool_code() {
    hunkloom_testkit::docs::bless_or_check(
        std::path::Path::new(DOC_PATH),
        DOC,
        regenerated,
        "run `make gen-docs`",
    );
}

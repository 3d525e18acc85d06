//! docs/error-codes.md's "Tool codes" table, generated from `ToolCode`: one row per code, in
//! declaration order, with the code's description. `HUNKLOOM_BLESS=1` (`make gen-docs`)
//! rewrites the table; otherwise the test fails when the document and `ToolCode` disagree.

use hunkloom_tools::ToolCode;

const DOC: &str = include_str!("../../../docs/error-codes.md");

/// Where the document is, for `HUNKLOOM_BLESS=1` to rewrite it.
const DOC_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/error-codes.md");

/// `doc` with the rows of its `## Tool codes` table rebuilt from `ToolCode`.
fn regenerated(doc: &str) -> String {
    let (head, rest) = doc
        .split_once("\n## Tool codes\n")
        .expect("a `## Tool codes` section");
    let (section, tail) = match rest.split_once("\n## ") {
        Some((section, tail)) => (section, Some(tail)),
        None => (rest, None),
    };
    let mut out = format!("{head}\n## Tool codes\n");
    let mut rows_written = false;
    for line in section.split_inclusive('\n') {
        if line.starts_with("| `") {
            if !rows_written {
                for code in ToolCode::ALL {
                    out.push_str(&format!(
                        "| `{}` | {} |\n",
                        code.as_str(),
                        code.description()
                    ));
                }
                rows_written = true;
            }
        } else {
            out.push_str(line);
        }
    }
    if let Some(tail) = tail {
        out.push_str("\n## ");
        out.push_str(tail);
    }
    out
}

#[test]
fn the_tool_codes_table_is_generated_from_tool_code() {
    if std::env::var_os("HUNKLOOM_BLESS").is_some() {
        let current = std::fs::read_to_string(DOC_PATH).expect("docs/error-codes.md");
        let fresh = regenerated(&current);
        if fresh != current {
            std::fs::write(DOC_PATH, fresh).expect("rewrite docs/error-codes.md");
        }
        return;
    }
    assert!(
        regenerated(DOC) == DOC,
        "docs/error-codes.md's Tool codes table is not what ToolCode generates: run `make gen-docs`"
    );
}

//! Tables of a Markdown document generated from code (docs/error-codes.md's code tables): the
//! rows under a heading rebuilt, and the check-or-rewrite step (`HUNKLOOM_BLESS=1` rewrites the
//! file, as `make gen-docs` runs it; otherwise the document must already be what the code
//! generates).

use std::path::Path;

/// `doc` with the table rows (lines starting with `` | ` ``) of its `## heading` section
/// replaced by `rows`, in place of the first such row; everything else kept.
///
/// # Panics
/// When `doc` has no such section.
pub fn replace_rows(doc: &str, heading: &str, rows: &[String]) -> String {
    let marker = format!("\n## {heading}\n");
    let (head, rest) = doc
        .split_once(&marker)
        .unwrap_or_else(|| panic!("no `## {heading}` section"));
    let (section, tail) = match rest.split_once("\n## ") {
        Some((section, tail)) => (section, Some(tail)),
        None => (rest, None),
    };
    let mut out = format!("{head}{marker}");
    let mut rows_written = false;
    for line in section.split_inclusive('\n') {
        if line.starts_with("| `") {
            if !rows_written {
                for row in rows {
                    out.push_str(row);
                    out.push('\n');
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

/// With `HUNKLOOM_BLESS` set, rewrites the file at `path` as `regenerate` makes it from the
/// file's current text; otherwise asserts that `compiled` (the text the test was built with)
/// is already what `regenerate` makes of it, telling to run `hint` if not.
///
/// # Panics
/// When the document is stale, or the file cannot be read or written.
pub fn bless_or_check(
    path: &Path,
    compiled: &str,
    regenerate: impl Fn(&str) -> String,
    hint: &str,
) {
    if std::env::var_os("HUNKLOOM_BLESS").is_some() {
        let current =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let fresh = regenerate(&current);
        if fresh != current {
            std::fs::write(path, fresh).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        return;
    }
    assert!(
        regenerate(compiled) == compiled,
        "{} is not what the code generates: {hint}",
        path.display()
    );
}

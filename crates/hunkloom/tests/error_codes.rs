//! docs/error-codes.md, the error-code reference, against `ErrorKind`: one row per code, in
//! declaration order, with the kind's family and its description, and advice in every row; one
//! family row per `ErrorFamily`. (The bindings' own tests check the family table's Python
//! classes and C statuses.)

use hunkloom::{ErrorFamily, ErrorKind};

const DOC: &str = include_str!("../../../docs/error-codes.md");

/// Where the document is, for `HUNKLOOM_BLESS=1` (`make gen-docs`) to rewrite it.
const DOC_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/error-codes.md");

/// `doc` with the rows of its `## Codes` table rebuilt from `ErrorKind`, in declaration order;
/// each row keeps the advice the document gives for its code (a new code gets a placeholder the
/// check below refuses).
fn regenerated(doc: &str) -> String {
    let rows = table_in(doc, "Codes");
    let advice_of = |code: &str| {
        rows.iter()
            .find(|cells| cells.first().map(String::as_str) == Some(&format!("`{code}`")))
            .and_then(|cells| cells.get(3).cloned())
            .unwrap_or_default()
    };
    let fresh: Vec<String> = ErrorKind::ALL
        .iter()
        .map(|&kind| expected_row(kind, &advice_of(kind.code())))
        .collect();
    hunkloom_testkit::docs::replace_rows(doc, "Codes", &fresh)
}

#[test]
fn the_codes_table_is_generated_from_error_kind() {
    hunkloom_testkit::docs::bless_or_check(
        std::path::Path::new(DOC_PATH),
        DOC,
        regenerated,
        "run `make gen-docs`",
    );
}

/// The cells of every table row under the heading `## title`.
fn table(title: &str) -> Vec<Vec<String>> {
    table_in(DOC, title)
}

/// The cells of every table row under the heading `## title` of `doc`.
fn table_in(doc: &str, title: &str) -> Vec<Vec<String>> {
    let section = doc
        .split(&format!("\n## {title}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("docs/error-codes.md has no `## {title}` section"));
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .skip(1) // the header
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

/// `text` as Markdown renders outside rustdoc: an intra-doc link `` [`name`](path) `` or
/// `` [`name`] `` becomes the plain `` `name` `` (a path like `crate::lazy::apply_lazy` is no
/// link on a web page).
fn rendered(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("[`") {
        let Some(close) = rest[start..].find("`]").map(|i| start + i) else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str(&rest[start + 1..close + 1]);
        rest = &rest[close + 2..];
        if rest.starts_with('(')
            && let Some(end) = rest.find(')')
        {
            rest = &rest[end + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// The row this kind should have; `advice` is kept from the document when it has one.
fn expected_row(kind: ErrorKind, advice: &str) -> String {
    format!(
        "| `{}` | {:?} | {} | {} |",
        kind.code(),
        kind.family(),
        rendered(kind.description()),
        if advice.is_empty() {
            "<what a model or host should do>"
        } else {
            advice
        }
    )
}

#[test]
fn every_code_is_documented_in_order_with_its_family_meaning_and_advice() {
    let rows = table("Codes");
    let documented: Vec<&str> = rows.iter().map(|r| r[0].trim_matches('`')).collect();
    let mut problems = Vec::new();
    for (i, &kind) in ErrorKind::ALL.iter().enumerate() {
        let row = rows.iter().find(|r| r[0] == format!("`{}`", kind.code()));
        let advice = row.and_then(|r| r.get(3)).map_or("", String::as_str);
        let fine = row.is_some_and(|r| {
            r.len() == 4
                && r[1] == format!("{:?}", kind.family())
                && r[2] == rendered(kind.description())
                && !advice.is_empty()
                && documented.get(i) == Some(&kind.code())
        });
        if !fine {
            problems.push(format!(
                "row {} should be:\n{}",
                i + 1,
                expected_row(kind, advice)
            ));
        }
    }
    for code in &documented {
        if !ErrorKind::ALL.iter().any(|k| k.code() == *code) {
            problems.push(format!("`{code}` is not an ErrorKind code: remove its row"));
        }
    }
    assert!(
        problems.is_empty(),
        "docs/error-codes.md disagrees with ErrorKind:\n{}",
        problems.join("\n")
    );
    assert_eq!(documented.len(), ErrorKind::ALL.len());
}

#[test]
fn every_family_has_a_row() {
    let families: Vec<String> = table("Families")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    let expected: Vec<String> = ErrorFamily::ALL.iter().map(|f| format!("{f:?}")).collect();
    assert_eq!(families, expected);
}

#[test]
fn rendered_descriptions_have_no_intra_doc_links() {
    assert_eq!(
        rendered(
            "A lazy edit ([`apply_lazy`](crate::lazy::apply_lazy)) fails; [`Error::matches`] lists."
        ),
        "A lazy edit (`apply_lazy`) fails; `Error::matches` lists."
    );
}

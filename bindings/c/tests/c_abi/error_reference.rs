//! docs/error-codes.md's family table against the C layer: each code's family row names the
//! status (`HL_STATUS_...`) that functions return for it.

use engine::ErrorKind;

use hunkloom_c::testing::status_of;

const DOC: &str = include_str!("../../../../docs/error-codes.md");

/// The cells of every table row under the heading `## title`.
fn table(title: &str) -> Vec<Vec<String>> {
    let section = DOC
        .split(&format!("\n## {title}\n"))
        .nth(1)
        .expect("the section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .skip(1)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().trim_matches('`').to_owned())
                .collect()
        })
        .collect()
}

/// `EditRejected` as `HL_STATUS_EDIT_REJECTED`.
fn constant(status: hunkloom_c::hl_status) -> String {
    let mut name = String::from("HL_STATUS");
    for c in format!("{status:?}").chars() {
        if c.is_ascii_uppercase() {
            name.push('_');
        }
        name.push(c.to_ascii_uppercase());
    }
    name
}

#[test]
fn every_code_returns_the_status_its_family_row_names() {
    let statuses: Vec<(String, String)> = table("Families")
        .into_iter()
        .map(|r| (r[0].clone(), r[2].clone()))
        .collect();
    assert!(statuses.len() >= 10);
    for &kind in ErrorKind::ALL {
        let family = format!("{:?}", kind.family());
        let documented = statuses.iter().find(|(f, _)| *f == family);
        assert_eq!(
            documented.map(|(_, s)| s.clone()),
            Some(constant(status_of(kind))),
            "{} ({family})",
            kind.code()
        );
    }
    // And each is a constant of the header.
    let header = include_str!("../../../../include/hunkloom.h");
    for (_, status) in &statuses {
        assert!(header.contains(&format!("    {status} = ")), "{status}");
    }
}

//! Undoing the API's sanitisation of tag-like text.
//!
//! Some model APIs shorten strings that look like their own control tags before the model sees
//! the file, so the model quotes `<fnr>` where the file says `<function_results>`. When an old
//! text is not found as given, [`str_replace`](super::str_replace) maps these short forms back and
//! tries again, and applies the same substitutions to the new text.

/// The substitutions, `(short form, file form)`, applied in this order. The one place they are
/// listed.
pub const DESANITIZATIONS: &[(&str, &str)] = &[
    ("<fnr>", "<function_results>"),
    ("<n>", "<name>"),
    ("</n>", "</name>"),
    ("<o>", "<output>"),
    ("</o>", "</output>"),
    ("<e>", "<error>"),
    ("</e>", "</error>"),
    ("<s>", "<system>"),
    ("</s>", "</system>"),
    ("<r>", "<result>"),
    ("</r>", "</result>"),
    ("\n\nH:", "\n\nHuman:"),
    ("\n\nA:", "\n\nAssistant:"),
];

/// `text` with every table entry replaced (all occurrences, entry by entry), and the indices of
/// the entries that changed something; `None` when nothing changed.
pub(crate) fn desanitize(text: &str) -> Option<(String, Vec<usize>)> {
    let mut out = text.to_owned();
    let mut applied = Vec::new();
    for (i, (from, to)) in DESANITIZATIONS.iter().enumerate() {
        if out.contains(from) {
            out = out.replace(from, to);
            applied.push(i);
        }
    }
    (!applied.is_empty()).then_some((out, applied))
}

/// `text` with the table entries numbered in `applied` replaced, in table order.
pub(crate) fn apply(text: &str, applied: &[usize]) -> String {
    let mut out = text.to_owned();
    for &i in applied {
        let (from, to) = DESANITIZATIONS[i];
        out = out.replace(from, to);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_only_entries_that_changed_something() {
        let (out, applied) = desanitize("<n>x</n>").unwrap();
        assert_eq!(out, "<name>x</name>");
        assert_eq!(applied, [1, 2]);
        assert_eq!(apply("<n>y</n> <e>", &applied), "<name>y</name> <e>");
        assert!(desanitize("<name>").is_none());
    }

    #[test]
    fn short_forms_are_unique_and_expand() {
        for (i, (from, to)) in DESANITIZATIONS.iter().enumerate() {
            assert!(to.len() > from.len());
            assert!(DESANITIZATIONS[..i].iter().all(|(f, _)| f != from));
        }
    }
}

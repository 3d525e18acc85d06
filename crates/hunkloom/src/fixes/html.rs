//! Undoing HTML escaping that some models apply to code.

/// The entities, in the order Cline replaces them (the order matters: `&amp;lt;` becomes
/// `&lt;`, not `<`).
const ENTITIES: &[(&str, &str)] = &[
    ("&gt;", ">"),
    ("&lt;", "<"),
    ("&quot;", "\""),
    ("&amp;", "&"),
    ("&apos;", "'"),
];

/// Cline's `fixModelHtmlEscaping`: replaces every `&gt;`, then `&lt;`, `&quot;`, `&amp;` and
/// `&apos;` (lowercase only; numeric entities are left alone).
pub fn fix_model_html_escaping(text: &str) -> String {
    let mut out = text.to_owned();
    for (entity, plain) in ENTITIES {
        if out.contains(entity) {
            out = out.replace(entity, plain);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_in_cline_order() {
        assert_eq!(fix_model_html_escaping("&amp;lt; &amp;apos;"), "&lt; '");
        assert_eq!(fix_model_html_escaping("&GT; &#62;"), "&GT; &#62;");
    }
}

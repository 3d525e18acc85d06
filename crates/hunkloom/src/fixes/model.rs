//! Cline's `applyModelContentFixes`: the model- and path-dependent part of the pipeline.

use super::{fix_model_html_escaping, remove_invalid_chars};

/// Whether the fixes apply to output of `model_id`: Claude models do not escape HTML, so Cline
/// skips them (the test is case-sensitive, as Cline's is: `Claude-3` is fixed).
pub(crate) fn fixes_model(model_id: Option<&str>) -> bool {
    !model_id.is_some_and(|m| m.contains("claude"))
}

/// Whether HTML unescaping applies to `file_path`: not to XML, where entities are meant (the
/// `.xml` test ignores case).
pub(crate) fn unescapes_path(file_path: Option<&str>) -> bool {
    !file_path.is_some_and(|p| {
        let b = p.as_bytes();
        b.len() >= 4 && b[b.len() - 4..].eq_ignore_ascii_case(b".xml")
    })
}

/// Cline's `applyModelContentFixes(text, model_id, file_path)`: unless `model_id` contains
/// `claude`, [`fix_model_html_escaping`] (skipped for `.xml` paths) and then
/// [`remove_invalid_chars`]. `None` stands for an omitted argument.
pub fn apply_model_content_fixes(
    text: &str,
    model_id: Option<&str>,
    file_path: Option<&str>,
) -> String {
    if !fixes_model(model_id) {
        return text.to_owned();
    }
    let unescaped = if unescapes_path(file_path) {
        fix_model_html_escaping(text)
    } else {
        text.to_owned()
    };
    remove_invalid_chars(&unescaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_and_path_tests() {
        assert!(fixes_model(None));
        assert!(fixes_model(Some("")));
        assert!(fixes_model(Some("CLAUDE")));
        assert!(!fixes_model(Some("anthropic/claude-3")));
        assert!(!unescapes_path(Some("a.XmL")));
        assert!(unescapes_path(Some("a.xmlx")));
        assert!(unescapes_path(Some("xml")));
        assert!(unescapes_path(None));
    }
}

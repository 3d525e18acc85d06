//! The `write_to_file` pipeline with each fix named and switchable.

use super::model::{fixes_model, unescapes_path};
use super::{fix_model_html_escaping, remove_invalid_chars, strip_markdown_fences};

/// One named content fix of the write pipeline.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fix {
    /// [`strip_markdown_fences`].
    StripMarkdownFences,
    /// [`fix_model_html_escaping`] (only for non-Claude models and non-`.xml` paths).
    FixModelHtmlEscaping,
    /// [`remove_invalid_chars`] (only for non-Claude models).
    RemoveInvalidChars,
}

crate::names!(
    Fix {
        StripMarkdownFences => "strip_markdown_fences",
        FixModelHtmlEscaping => "fix_model_html_escaping",
        RemoveInvalidChars => "remove_invalid_chars",
    },
    parse: InvalidFix,
    "content fix"
);

/// The content to write, and which fixes changed it.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The cleaned-up file content.
    pub new_content: String,
    /// The names of the fixes that changed something, in pipeline order.
    pub fixes_applied: Vec<&'static str>,
}

/// Cline's `write_to_file` content pipeline on `model_content`: [`strip_markdown_fences`], then
/// [`apply_model_content_fixes`](super::apply_model_content_fixes) for `model_id` and `path`
/// (`None` = not given). Byte-identical with Cline v4.0.10.
pub fn write(model_content: &str, path: Option<&str>, model_id: Option<&str>) -> Written {
    write_with(model_content, path, model_id, Fix::ALL)
}

/// [`write()`] running only the fixes in `enabled` (each still under its own conditions).
pub fn write_with(
    model_content: &str,
    path: Option<&str>,
    model_id: Option<&str>,
    enabled: &[Fix],
) -> Written {
    let mut text = model_content.to_owned();
    let mut fixes_applied = Vec::new();
    let model_fixes = fixes_model(model_id);
    for &fix in Fix::ALL {
        if !enabled.contains(&fix) {
            continue;
        }
        let fixed = match fix {
            Fix::StripMarkdownFences => strip_markdown_fences(&text),
            Fix::FixModelHtmlEscaping if model_fixes && unescapes_path(path) => {
                fix_model_html_escaping(&text)
            }
            Fix::RemoveInvalidChars if model_fixes => remove_invalid_chars(&text),
            _ => continue,
        };
        if fixed != text {
            fixes_applied.push(fix.as_str());
            text = fixed;
        }
    }
    Written {
        new_content: text,
        fixes_applied,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_only_fixes_that_changed_something() {
        let w = write("x\u{FFFD}", Some("a.xml"), None);
        assert_eq!(w.new_content, "x");
        assert_eq!(w.fixes_applied, ["remove_invalid_chars"]);
        let w = write("```\n&lt;\n```", Some("a.js"), Some("claude-x"));
        assert_eq!(w.new_content, "&lt;");
        assert_eq!(w.fixes_applied, ["strip_markdown_fences"]);
    }

    #[test]
    fn fixes_can_be_switched_off() {
        let w = write_with(
            "```\n&lt;\u{FFFD}\n```",
            None,
            None,
            &[Fix::RemoveInvalidChars],
        );
        assert_eq!(w.new_content, "```\n&lt;\n```");
        assert_eq!(w.fixes_applied, ["remove_invalid_chars"]);
    }

    #[test]
    fn fix_names_parse() {
        for fix in Fix::ALL {
            assert_eq!(fix.as_str().parse::<Fix>(), Ok(*fix));
        }
        let e = "html".parse::<Fix>().unwrap_err();
        assert_eq!(e.code(), "invalid_fix");
        assert_eq!(
            e.message(),
            "unknown content fix 'html': expected one of strip_markdown_fences, \
             fix_model_html_escaping, remove_invalid_chars"
        );
    }

    #[test]
    fn types_cross_threads() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Written>();
        check::<Fix>();
    }
}

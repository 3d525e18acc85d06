//! Removing the Markdown fence a model wrapped a whole file in.

use crate::text::js_trim;

/// Cline's `write_to_file` pre-processing: if the text starts with ```` ``` ````, drop its first
/// line (the fence, with any language tag) and trim; then, if it ends with ```` ``` ````, drop its
/// last line and trim. Lines are split on `\n` and trimmed with JavaScript's `trim`, as Cline
/// does; text without a fence at either end is returned unchanged.
pub fn strip_markdown_fences(text: &str) -> String {
    let mut s = text;
    if s.starts_with("```") {
        s = js_trim(s.split_once('\n').map_or("", |(_, rest)| rest));
    }
    if s.ends_with("```") {
        s = js_trim(s.rsplit_once('\n').map_or("", |(head, _)| head));
    }
    s.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_both_ends_or_nothing() {
        assert_eq!(strip_markdown_fences("```py\nx\n```"), "x");
        assert_eq!(strip_markdown_fences("  x  "), "  x  ");
        assert_eq!(strip_markdown_fences("```"), "");
        assert_eq!(strip_markdown_fences("a\nb```"), "a");
        assert_eq!(strip_markdown_fences("  ```js\nx\n```"), "```js\nx");
    }
}

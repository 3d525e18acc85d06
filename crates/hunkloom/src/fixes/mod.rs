//! Content fixes for whole-file writes: Cline's `write_to_file` pipeline, byte-identical with
//! Cline v4.0.10.
//!
//! Models wrap files in Markdown fences, HTML-escape `<` and `>` (some non-Claude models do this
//! consistently), and emit U+FFFD where a byte sequence broke. Cline cleans the content up before
//! writing it; [`write()`] runs the same pipeline and names each fix that changed something:
//!
//! 1. [`strip_markdown_fences`] (`"strip_markdown_fences"`),
//! 2. [`apply_model_content_fixes`]: for model ids without `claude`,
//!    [`fix_model_html_escaping`] (`"fix_model_html_escaping"`, skipped for `.xml` paths) then
//!    [`remove_invalid_chars`] (`"remove_invalid_chars"`).
//!
//! Each fix can be switched off with [`write_with`].
//!
//! # Example
//!
//! ```
//! use hunkloom::fixes;
//!
//! let written = fixes::write("```js\nif (a &lt; b) go();\n```", Some("src/a.js"), Some("gpt-4o"));
//! assert_eq!(written.new_content, "if (a < b) go();");
//! assert_eq!(written.fixes_applied, ["strip_markdown_fences", "fix_model_html_escaping"]);
//! ```

mod fences;
mod html;
mod invalid_chars;
mod model;
mod write;

pub use fences::strip_markdown_fences;
pub use html::fix_model_html_escaping;
pub use invalid_chars::remove_invalid_chars;
pub use model::apply_model_content_fixes;
pub use write::{Fix, Written, write, write_with};

//! Guards of the tool-call edits: checks that refuse an edit rather than change it, switched on
//! by default in hunkloom's own operations and off in the Cline drop-ins.
//!
//! The one guard so far is the omission-placeholder guard: a new text that stands in for code of
//! the old one with a placeholder line (`// ... existing code ...`, `# (rest unchanged)`,
//! `/* ... */`, a bare `...`) would delete that code, so it is refused with error
//! `omission_placeholder`, whose message asks the model to write the code out. The rule is the
//! `native` dialect's, with the old text in the place of the SEARCH text: a placeholder line
//! that is no line of the old text, and at least three non-blank old lines missing from the new
//! text. [`str_replace`](super::str_replace()) checks `new` against `old` (its options'
//! [`guards`](super::StrReplaceOptions::guards)); [`write()`] checks a whole-file write against
//! the file's current content.

use crate::error::{Error, ErrorKind, Result};
use crate::fixes::{self, Fix, Written};
use crate::native::omission;

/// Which guards an operation runs.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guards {
    /// Refuse a new text that elides code of the old one with a placeholder line (error
    /// `omission_placeholder`).
    pub omission_placeholders: bool,
}

impl Guards {
    /// hunkloom's own operations: every guard on (the default).
    pub const NATIVE: Guards = Guards {
        omission_placeholders: true,
    };

    /// The Cline drop-ins: no guard, so the output is Cline's byte for byte.
    pub const NONE: Guards = Guards {
        omission_placeholders: false,
    };

    /// Sets [`omission_placeholders`](Self::omission_placeholders).
    pub fn omission_placeholders(mut self, on: bool) -> Self {
        self.omission_placeholders = on;
        self
    }

    /// Runs the guards on an edit that turns `old` into `new`; `what` names the new text in
    /// the message (`"new_string"`, `"the new content"`).
    pub(super) fn check(self, old: &str, new: &str, what: &str) -> Result<()> {
        if !self.omission_placeholders {
            return Ok(());
        }
        match omission::elided(old, new) {
            Some(placeholder) => Err(Error::new(
                ErrorKind::OmissionPlaceholder,
                omission::message(what, &placeholder),
            )),
            None => Ok(()),
        }
    }
}

impl Guards {
    /// Runs the guards on a whole-file write of `content` over a file whose current content is
    /// `existing` (as [`write()`] does after its content fixes), for hosts that write files
    /// themselves: error `omission_placeholder` if `content` elides code of `existing`.
    pub fn check_write(self, existing: &str, content: &str) -> Result<()> {
        self.check(existing, content, "the new content")
    }
}

impl Default for Guards {
    /// [`Guards::NATIVE`].
    fn default() -> Self {
        Guards::NATIVE
    }
}

/// Whether `new` elides code of `old` with a placeholder line: error `omission_placeholder`
/// if it does (the guard of [`Guards::omission_placeholders`], for hosts that apply edits
/// themselves).
pub fn check_omission(old: &str, new: &str) -> Result<()> {
    Guards::NATIVE.check(old, new, "the new text")
}

/// Options of [`write()`].
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The file's path (decides the `.xml` rule of the model content fixes).
    pub path: Option<String>,
    /// The model's id (decides whether the model content fixes run: not for `claude` models).
    pub model_id: Option<String>,
    /// The content fixes to run (default: all, see [`fixes::write_with`]).
    pub fixes: Vec<Fix>,
    /// The guards (default [`Guards::NATIVE`]).
    pub guards: Guards,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            path: None,
            model_id: None,
            fixes: Fix::ALL.to_vec(),
            guards: Guards::NATIVE,
        }
    }
}

impl WriteOptions {
    /// The defaults: every fix, every guard.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cline's `write_to_file`: every fix and no guard, so the content is
    /// [`fixes::write`]'s byte for byte.
    pub fn cline() -> Self {
        WriteOptions {
            guards: Guards::NONE,
            ..Self::default()
        }
    }

    /// Sets the [`path`](Self::path).
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets the [`model_id`](Self::model_id).
    pub fn model_id(mut self, model_id: impl Into<String>) -> Self {
        self.model_id = Some(model_id.into());
        self
    }

    /// Sets the [`fixes`](Self::fixes) to run.
    pub fn fixes(mut self, fixes: &[Fix]) -> Self {
        self.fixes = fixes.to_vec();
        self
    }

    /// Sets the [`guards`](Self::guards).
    pub fn guards(mut self, guards: Guards) -> Self {
        self.guards = guards;
        self
    }
}

/// A whole-file write: the model's content cleaned up by the write-path content fixes
/// ([`fixes::write_with`]), then, when the file exists (`existing` is its current content), the
/// guards against it: with [`Guards::omission_placeholders`], content that elides the file's
/// code with a placeholder is refused with `omission_placeholder`. With
/// [`WriteOptions::cline`] this is [`fixes::write`] exactly.
pub fn write(
    existing: Option<&str>,
    model_content: &str,
    options: &WriteOptions,
) -> Result<Written> {
    let written = fixes::write_with(
        model_content,
        options.path.as_deref(),
        options.model_id.as_deref(),
        &options.fixes,
    );
    if let Some(existing) = existing {
        options.guards.check_write(existing, &written.new_content)?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "def a():\n    one()\n    two()\n    three()\n    four()\n";
    const ELIDED: &str = "def a():\n    # ... existing code ...\n    five()\n";

    #[test]
    fn write_refuses_an_elision_of_an_existing_file_only_when_guarded() {
        let err = write(Some(FILE), ELIDED, &WriteOptions::new()).unwrap_err();
        assert_eq!(err.code(), "omission_placeholder");
        assert!(
            err.message()
                .starts_with("the new content contains the placeholder `# ... existing code ...`"),
            "{}",
            err.message()
        );
        let new_file = write(None, ELIDED, &WriteOptions::new()).expect("a new file");
        assert_eq!(new_file.new_content, ELIDED);
        let cline = write(Some(FILE), ELIDED, &WriteOptions::cline()).expect("unguarded");
        assert_eq!(cline, fixes::write(ELIDED, None, None));
        let full = "def a():\n    one()\n    two()\n    three()\n    four()\n    five()\n";
        assert!(write(Some(FILE), full, &WriteOptions::new()).is_ok());
    }

    #[test]
    fn str_replace_refuses_an_elision_when_guarded() {
        use crate::ops::{MatchMode, StrReplaceOptions, str_replace, str_replace_with};
        let old = "    one()\n    two()\n    three()\n    four()\n";
        let new = "    # ...\n    five()\n";
        let err = str_replace(Some(FILE), old, new, false, None).unwrap_err();
        assert_eq!(err.code(), "omission_placeholder");
        assert!(
            err.message()
                .starts_with("new_string contains the placeholder `# ...`")
        );
        let off = StrReplaceOptions::new().guards(Guards::NONE);
        let edit = str_replace_with(Some(FILE), old, new, &off).expect("unguarded");
        assert_eq!(edit.new_content, "def a():\n    # ...\n    five()\n");
        let literal = StrReplaceOptions::new().mode(MatchMode::Literal);
        let err = str_replace_with(Some(FILE), old, new, &literal).unwrap_err();
        assert_eq!(err.code(), "omission_placeholder");
        // Not found comes first.
        let err = str_replace(Some(FILE), "nowhere", new, false, None).unwrap_err();
        assert_eq!(err.code(), "not_found");
        assert_eq!(
            check_omission(old, new).unwrap_err().code(),
            "omission_placeholder"
        );
        assert!(check_omission(old, "    one()\n    two()\n    # ...\n    four()\n").is_ok());
    }

    #[test]
    fn types_cross_threads() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Guards>();
        check::<WriteOptions>();
    }
}

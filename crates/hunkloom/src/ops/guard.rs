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
//!
//! A whole-file write that the guard refuses may be a lazy edit: the changed code with
//! `// ... existing code ...` markers for the rest. With [`Guards::lazy_merge`] (on by default)
//! it is merged into the file by [`apply_lazy`](crate::lazy::apply_lazy) when that is certain
//! (every part of it placed where its unchanged lines are unique), and refused as before
//! otherwise, with the reason the merge failed added to the message.

use std::borrow::Cow;

use crate::error::{Error, ErrorKind, Result};
use crate::fixes::{self, Fix, Written};
use crate::lazy::{LazyOptions, apply_lazy};
use crate::native::omission;

use super::damage;

/// Which guards an operation runs.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guards {
    /// Refuse a new text that elides code of the old one with a placeholder line (error
    /// `omission_placeholder`).
    pub omission_placeholders: bool,
    /// A whole-file write that the omission guard refuses is merged as a lazy edit instead
    /// when the merge is certain ([`Guards::guard_write`]).
    pub lazy_merge: bool,
    /// The damaged-call rules of [`damage`](super::damage) in the file layer's edits: a
    /// cut-off write refused (`suspected_truncation`), a view's line-number prefixes removed
    /// when certain (else `line_number_prefixes`), clipping notices refused
    /// (`truncation_notice`), and a replayed `str_replace` or `insert` answered as already
    /// applied.
    pub damaged_calls: bool,
}

impl Guards {
    /// hunkloom's own operations: every guard on (the default).
    pub const NATIVE: Guards = Guards {
        omission_placeholders: true,
        lazy_merge: true,
        damaged_calls: true,
    };

    /// The Cline drop-ins: no guard, so the output is Cline's byte for byte.
    pub const NONE: Guards = Guards {
        omission_placeholders: false,
        lazy_merge: false,
        damaged_calls: false,
    };

    /// Sets [`omission_placeholders`](Self::omission_placeholders).
    pub fn omission_placeholders(mut self, on: bool) -> Self {
        self.omission_placeholders = on;
        self
    }

    /// Sets [`lazy_merge`](Self::lazy_merge).
    pub fn lazy_merge(mut self, on: bool) -> Self {
        self.lazy_merge = on;
        self
    }

    /// Sets [`damaged_calls`](Self::damaged_calls).
    pub fn damaged_calls(mut self, on: bool) -> Self {
        self.damaged_calls = on;
        self
    }

    /// The damaged-call rules on a new text `new` that replaces `old` (the old string of an
    /// edit, or the file's text for a write or an insert); `what` names it in messages. The
    /// text to write: `new` itself, or `new` without a view's line-number prefixes (`true`
    /// then); error `line_number_prefixes` or `truncation_notice` when it cannot be written.
    pub fn screen<'t>(self, old: &str, new: &'t str, what: &str) -> Result<(Cow<'t, str>, bool)> {
        if !self.damaged_calls {
            return Ok((Cow::Borrowed(new), false));
        }
        let (new, stripped) = match damage::strip_view_prefixes(new) {
            damage::ViewPrefixes::None => (Cow::Borrowed(new), false),
            damage::ViewPrefixes::Stripped(text) => (Cow::Owned(text), true),
            damage::ViewPrefixes::Uncertain => return Err(damage::prefixes_error(what)),
        };
        if let Some(line) = damage::clipping_notice(old, &new) {
            return Err(damage::notice_error(what, line));
        }
        Ok((new, stripped))
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

    /// Runs the guards on a whole-file write of `content` over a file whose current content is
    /// `existing` (at `path`, whose extension gives the language of a lazy edit): the text to
    /// write. That is `content` itself, unless the omission guard refuses it; then, with
    /// [`lazy_merge`](Self::lazy_merge), `content` merged into `existing` as a lazy edit
    /// ([`apply_lazy`]) when that is certain ([`Cow::Owned`]), and otherwise error
    /// `omission_placeholder`, whose message also says why the merge was refused.
    pub fn guard_write<'c>(
        self,
        existing: &str,
        content: &'c str,
        path: Option<&str>,
    ) -> Result<Cow<'c, str>> {
        if !self.omission_placeholders {
            return Ok(Cow::Borrowed(content));
        }
        let Some(placeholder) = omission::elided(existing, content) else {
            return Ok(Cow::Borrowed(content));
        };
        let mut message = omission::message("the new content", &placeholder);
        if self.lazy_merge {
            let options = LazyOptions {
                path: path.map(str::to_owned),
                language: None,
            };
            match apply_lazy(content, existing, &options) {
                // A snippet the lazy rules read as the whole file has no markers of its
                // language: nothing was merged.
                Ok(merged) if merged != content => return Ok(Cow::Owned(merged)),
                Ok(_) => {}
                Err(e) => {
                    message.push_str(&format!(
                        " It was not merged as a lazy edit either ({}): {}",
                        e.code(),
                        e.message()
                    ));
                }
            }
        }
        Err(Error::new(ErrorKind::OmissionPlaceholder, message))
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
/// guards against it ([`Guards::guard_write`]): with [`Guards::omission_placeholders`], content
/// that elides the file's code with a placeholder is merged into it as a lazy edit when that is
/// certain ([`Guards::lazy_merge`]) and refused with `omission_placeholder` otherwise. With
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
    let Some(existing) = existing else {
        return Ok(written);
    };
    let content =
        options
            .guards
            .guard_write(existing, &written.new_content, options.path.as_deref())?;
    if let Cow::Owned(merged) = content {
        return Ok(Written {
            new_content: merged,
            ..written
        });
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
    fn a_lazy_write_is_merged_when_certain_and_refused_otherwise() {
        let file = "def a():\n    one()\n    two()\n\ndef b():\n    three()\n    four()\n";
        let lazy = "# ... existing code ...\ndef b():\n    three()\n    five()\n    four()\n";
        let merged = write(Some(file), lazy, &WriteOptions::new().path("m.py")).expect("merged");
        assert_eq!(
            merged.new_content,
            file.replace("three()\n", "three()\n    five()\n")
        );
        let off = WriteOptions::new()
            .path("m.py")
            .guards(Guards::NATIVE.lazy_merge(false));
        assert_eq!(
            write(Some(file), lazy, &off).unwrap_err().code(),
            "omission_placeholder"
        );
        // Not certain: the second segment's anchors are nowhere in the file.
        let err = write(Some(FILE), ELIDED, &WriteOptions::new().path("a.py")).unwrap_err();
        assert_eq!(err.code(), "omission_placeholder");
        assert!(
            err.message()
                .contains("It was not merged as a lazy edit either (lazy_no_anchor): segment 2"),
            "{}",
            err.message()
        );
        assert_eq!(
            Guards::NATIVE.guard_write(file, lazy, Some("m.py")),
            Ok(Cow::Owned(merged.new_content))
        );
        assert_eq!(
            Guards::NATIVE.guard_write(file, file, Some("m.py")),
            Ok(Cow::Borrowed(file))
        );
    }

    #[test]
    fn types_cross_threads() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Guards>();
        check::<WriteOptions>();
    }
}

//! One file's patch as `git apply` reads it ([`FilePatch`], its [`Fragment`]s) and git's error
//! text ([`git_error`]): what the header names, the fragment parser and the application share.

use crate::error::{Error, ErrorKind};

/// One file's patch: its names and fragments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FilePatch {
    /// The path before (`None` for a file the patch creates).
    pub(crate) old_name: Option<String>,
    /// The path after (`None` for a file the patch deletes).
    pub(crate) new_name: Option<String>,
    /// The patch creates the file.
    pub(crate) is_new: bool,
    /// The patch deletes the file.
    pub(crate) is_delete: bool,
    /// A `diff --git` header changes the file's mode (a patch in itself).
    pub(crate) mode_change: bool,
    /// The fragments, in patch order.
    pub(crate) fragments: Vec<Fragment>,
}

impl FilePatch {
    /// The name git reports failures under: the old name, else the new one.
    pub(crate) fn name(&self) -> &str {
        self.old_name
            .as_deref()
            .or(self.new_name.as_deref())
            .unwrap_or("")
    }
}

/// One `@@` fragment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Fragment {
    pub(crate) oldpos: usize,
    pub(crate) oldlines: usize,
    pub(crate) newpos: usize,
    pub(crate) newlines: usize,
    /// Context lines before the first change, and after the last one.
    pub(crate) leading: usize,
    pub(crate) trailing: usize,
    /// The body lines after the header, each with its `\n` (and any `\ No newline` line).
    pub(crate) body: Vec<String>,
}

/// git's error: the `error: ` line of its standard error, control characters shown as `?` as
/// git's `vreportf` does.
pub(crate) fn git_error(kind: ErrorKind, message: &str) -> Error {
    let shown: String = message
        .chars()
        .map(|c| {
            if c.is_ascii_control() && c != '\t' && c != '\n' {
                '?'
            } else {
                c
            }
        })
        .collect();
    Error::new(kind, format!("error: {shown}"))
}

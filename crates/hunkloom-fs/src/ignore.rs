//! The workspace's ignore file: paths it matches are refused.
//!
//! The file (default `.hunkloomignore`; `.clineignore` works the same way) sits at the
//! workspace root and uses gitignore syntax, matched by the `ignore` crate (ripgrep's): globs,
//! `!` negation, a leading `/` anchoring to the root, a trailing `/` for directories, and a
//! directory's pattern covering everything below it. It is read once, when the workspace opens.
//! Like git, lines that are not valid globs are skipped.

use std::path::Path;

use ::ignore::gitignore::{Gitignore, GitignoreBuilder};

/// The compiled rules of one ignore file (none if the file does not exist).
#[derive(Clone, Debug)]
pub(crate) struct IgnoreRules {
    matcher: Gitignore,
}

impl IgnoreRules {
    /// Reads `root/name`, if it exists.
    pub(crate) fn load(root: &Path, name: &str) -> IgnoreRules {
        let mut builder = GitignoreBuilder::new(root);
        let file = root.join(name);
        if !name.is_empty() && file.is_file() {
            // A partial error names lines that were skipped; the rest of the file applies.
            let _skipped = builder.add(file);
        }
        let matcher = builder.build().unwrap_or_else(|_| Gitignore::empty());
        IgnoreRules { matcher }
    }

    /// Whether `path` (absolute, inside the root) or one of its parent directories is ignored.
    pub(crate) fn is_ignored(&self, root: &Path, path: &Path) -> bool {
        match path.strip_prefix(root) {
            Ok(rel) if !rel.as_os_str().is_empty() => self
                .matcher
                .matched_path_or_any_parents(rel, false)
                .is_ignore(),
            _ => false,
        }
    }
}

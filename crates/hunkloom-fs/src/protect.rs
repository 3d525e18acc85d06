//! Protected paths: files that can be read but never written through a workspace.
//!
//! A model talked into editing `.git/config` (a `hooksPath` that runs a program on the next
//! `git commit`) or the workspace's own ignore file (the fence that holds it) must be refused
//! whatever else it asks. So every write (an edit, a create, a delete, both ends of a move, an
//! undo, each file of a patch) checks its path here before anything else, with `path_protected`:
//!
//! - by default, anything inside a version-control directory (a path component `.git`, `.hg`,
//!   `.svn` or `.jj`; also the `.git` *file* of a worktree) and the ignore file at the root;
//! - any path matched by the workspace's `protect` globs (gitignore syntax, relative to the
//!   root, e.g. `.env*`, `secrets/**`).
//!
//! [`WorkspaceOptions::protect_defaults`](crate::WorkspaceOptions::protect_defaults) set to
//! false turns the defaults off explicitly (the globs still apply).

use std::path::{Component, Path};

use ::ignore::gitignore::{Gitignore, GitignoreBuilder};
use hunkloom::{Error, ErrorKind};

/// The directories of version-control systems, protected by default.
pub(crate) const VCS_DIRS: &[&str] = &[".git", ".hg", ".svn", ".jj"];

/// The protected set of one workspace.
#[derive(Clone, Debug)]
pub(crate) struct Protected {
    defaults: bool,
    ignore_file: String,
    globs: Gitignore,
}

impl Protected {
    /// The set for a workspace at `root` (canonical) with these options. A glob that is not
    /// valid gitignore syntax is an `invalid_glob` error: a fence with a hole in it must not
    /// be accepted quietly.
    pub(crate) fn new(
        root: &Path,
        defaults: bool,
        ignore_file: &str,
        globs: &[String],
    ) -> Result<Protected, Error> {
        let mut builder = GitignoreBuilder::new(root);
        for glob in globs {
            builder.add_line(None, glob).map_err(|e| {
                Error::with_message(
                    ErrorKind::InvalidGlob,
                    format!("the protect glob {glob:?} is not valid gitignore syntax: {e}"),
                )
            })?;
        }
        let globs = builder.build().map_err(|e| {
            Error::with_message(
                ErrorKind::InvalidGlob,
                format!("the protect globs cannot be used: {e}"),
            )
        })?;
        Ok(Protected {
            defaults,
            ignore_file: ignore_file.to_owned(),
            globs,
        })
    }

    /// `path_protected` if `resolved` (absolute, inside `root`) may not be written; `given`
    /// names it in the message.
    pub(crate) fn check(&self, root: &Path, resolved: &Path, given: &Path) -> Result<(), Error> {
        let Ok(rel) = resolved.strip_prefix(root) else {
            return Ok(());
        };
        if rel.as_os_str().is_empty() {
            return Ok(());
        }
        let why = if self.defaults
            && let Some(dir) = vcs_component(rel)
        {
            format!(
                "it is inside the version-control directory {dir} (a change there can run \
                 programs or rewrite history); edit the project's files, not {dir}"
            )
        } else if self.defaults
            && !self.ignore_file.is_empty()
            && rel == Path::new(&self.ignore_file)
        {
            "it is the workspace's ignore file, which decides what may be edited".to_owned()
        } else if self
            .globs
            .matched_path_or_any_parents(rel, false)
            .is_ignore()
        {
            "it matches the workspace's protect globs".to_owned()
        } else {
            return Ok(());
        };
        Err(Error::with_message(
            ErrorKind::PathProtected,
            format!(
                "{} is protected and cannot be written: {why}. Reading it is allowed.",
                given.display()
            ),
        ))
    }
}

/// The first component of `rel` that is a version-control directory (or a worktree's `.git`
/// file).
fn vcs_component(rel: &Path) -> Option<&str> {
    rel.components().find_map(|c| match c {
        Component::Normal(name) => name
            .to_str()
            .and_then(|n| VCS_DIRS.iter().copied().find(|d| *d == n)),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_globs_and_the_switch() {
        let root = Path::new("/r");
        let p = Protected::new(
            root,
            true,
            ".hunkloomignore",
            &[".env*".into(), "secrets/**".into()],
        )
        .expect("valid");
        let code = |rel: &str| match p.check(root, &root.join(rel), Path::new(rel)) {
            Ok(()) => "ok".to_owned(),
            Err(e) => e.code().to_owned(),
        };
        for rel in [
            ".git/config",
            ".git",
            "sub/.git",
            "a/.hg/hgrc",
            ".svn/x",
            ".jj/repo/store",
        ] {
            assert_eq!(code(rel), "path_protected", "{rel}");
        }
        for rel in [".hunkloomignore", ".env", ".env.local", "secrets/key.pem"] {
            assert_eq!(code(rel), "path_protected", "{rel}");
        }
        for rel in [
            "src/main.rs",
            ".github/workflows/ci.yml",
            "sub/.hunkloomignore",
            "git/x",
            "env",
        ] {
            assert_eq!(code(rel), "ok", "{rel}");
        }
        let message = p
            .check(root, &root.join(".git/config"), Path::new(".git/config"))
            .expect_err("protected")
            .message()
            .to_owned();
        assert!(
            message.contains(".git/config is protected")
                && message.contains("Reading it is allowed")
        );
        let off =
            Protected::new(root, false, ".hunkloomignore", &["*.lock".into()]).expect("valid");
        assert!(
            off.check(root, &root.join(".git/config"), Path::new(".git/config"))
                .is_ok()
        );
        assert!(
            off.check(root, &root.join("Cargo.lock"), Path::new("Cargo.lock"))
                .is_err()
        );
    }
}

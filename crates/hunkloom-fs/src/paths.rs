//! Resolving a path given by a caller to the file it names inside the workspace root.
//!
//! Relative paths join the root; absolute paths must lie inside it. The path is walked one
//! component at a time from the (canonical) root: `.` is skipped, `..` goes up one directory
//! of the *resolved* path, and every symlink met on the way is replaced by its target (at most
//! [`MAX_LINKS`] of them), also when the target does not exist yet. Components that do not
//! exist are taken as they are. The result must lie inside the root; so a symlink inside the
//! root that leads outside is refused, and one that leads to another file inside it resolves to
//! that file (edits then write the target and leave the link alone).

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use hunkloom::Error;

use crate::errors;

/// How many symlinks one path may pass through (Linux's own limit).
const MAX_LINKS: usize = 40;

/// Whether `given` is a UNC path (`\\server\share`, `//server/share`, `\\?\...`).
pub(crate) fn is_unc(given: &Path) -> bool {
    let s = given.as_os_str().as_encoded_bytes();
    s.len() >= 2 && matches!(s[0], b'\\' | b'/') && matches!(s[1], b'\\' | b'/')
}

/// Whether `path` names a Jupyter notebook.
pub(crate) fn is_notebook(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ipynb"))
}

/// The file `given` names, as an absolute path inside `root` (which is canonical).
pub(crate) fn resolve(root: &Path, given: &Path) -> Result<PathBuf, Error> {
    if is_unc(given) {
        return Err(errors::unc_path(given));
    }
    let mut pending: VecDeque<OsString> = VecDeque::new();
    let mut current = if given.is_absolute() {
        PathBuf::new()
    } else {
        root.to_path_buf()
    };
    push_components(&mut pending, &mut current, given, true);
    let mut links = 0;
    let mut missing = false;
    while let Some(part) = pending.pop_front() {
        match part.to_str() {
            Some(".") => continue,
            Some("..") => {
                current.pop();
                continue;
            }
            _ => {}
        }
        let next = current.join(&part);
        if !missing {
            match std::fs::symlink_metadata(&next) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    links += 1;
                    if links > MAX_LINKS {
                        return Err(errors::io(
                            "resolve",
                            given,
                            &std::io::Error::other("too many levels of symbolic links"),
                        ));
                    }
                    let target =
                        std::fs::read_link(&next).map_err(|e| errors::io("resolve", given, &e))?;
                    // The target's components go first, then what was left of the path.
                    let rest: Vec<OsString> = pending.drain(..).collect();
                    push_components(&mut pending, &mut current, &target, target.is_absolute());
                    pending.extend(rest);
                    continue;
                }
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => missing = true,
                Err(e) => return Err(errors::io("resolve", given, &e)),
            }
        }
        current = next;
    }
    if current.starts_with(root) {
        Ok(current)
    } else {
        Err(errors::outside_root(given, root))
    }
}

/// Appends the components of `path` to `pending`; an absolute `path` first resets `current`
/// to its root (`reset`).
fn push_components(
    pending: &mut VecDeque<OsString>,
    current: &mut PathBuf,
    path: &Path,
    reset: bool,
) {
    for component in path.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => {
                if reset {
                    current.push(component.as_os_str());
                }
            }
            Component::CurDir => {}
            Component::ParentDir => pending.push_back(OsString::from("..")),
            Component::Normal(name) => pending.push_back(name.to_os_string()),
        }
    }
}

/// `path` relative to `root`, with `/` separators, for messages and suggestions.
pub(crate) fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// The Levenshtein distance over chars, `cap + 1` once it is known to exceed `cap`.
pub(crate) fn distance(a: &str, b: &str, cap: usize) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    hunkloom::text::edit_distance_within(&a, &b, cap).unwrap_or(cap + 1)
}

/// How alike a requested path and an existing one are (lower is closer), if close enough to
/// suggest: the edit distance of the whole relative paths, or of the file names alone plus one
/// (so `utils.py` finds `src/utils.py`).
pub(crate) fn closeness(wanted: &str, existing: &str) -> Option<usize> {
    let cap = (wanted.chars().count() / 3).max(2);
    let whole = distance(wanted, existing, cap);
    let name = |s: &str| s.rsplit('/').next().unwrap_or(s).to_owned();
    let by_name = distance(&name(wanted), &name(existing), cap).saturating_add(1);
    let best = whole.min(by_name);
    (best <= cap).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unc_paths_are_recognised() {
        for p in [r"\\server\share\a", "//server/share/a", r"\\?\C:\a", r"/\x"] {
            assert!(is_unc(Path::new(p)), "{p}");
        }
        for p in ["/a", "a", r"\a", "./a"] {
            assert!(!is_unc(Path::new(p)), "{p}");
        }
    }

    #[test]
    fn distance_is_levenshtein() {
        assert_eq!(distance("kitten", "sitting", 10), 3);
        assert_eq!(distance("", "abc", 10), 3);
        assert_eq!(distance("abc", "abc", 0), 0);
        assert!(distance("aaaaaa", "bbbbbb", 2) > 2);
    }

    #[test]
    fn closeness_prefers_the_same_name() {
        assert_eq!(closeness("utils.py", "src/utils.py"), Some(1));
        assert_eq!(closeness("src/utls.py", "src/utils.py"), Some(1));
        assert_eq!(closeness("src/main.rs", "docs/guide.md"), None);
    }

    #[test]
    fn notebooks_are_recognised() {
        assert!(is_notebook(Path::new("a/b.IPYNB")));
        assert!(!is_notebook(Path::new("a/ipynb")));
    }
}

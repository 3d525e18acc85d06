//! Paths as the Gemini CLI resolves and admits them: relative to the root, a leading `@`
//! dropped when the literal path does not exist, symlinks resolved, `replace`'s search for a
//! unique file by the path's tail, and the workspace check with its blocked names.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// Names refused in any component of a path (compared case-insensitively).
const BLOCKED: &[&str] = &[".env", ".git", "node_modules"];
/// Directories `replace`'s search looks through at most (`bfsFileSearchSync`'s `maxDirs`).
const SEARCH_DIRS: usize = 50;

/// `resolveDefensiveToolPath`: the path with NULs removed and a leading `@` dropped when the
/// literal path does not exist (and no `@`-named first folder does).
pub(super) fn defensive(root: &Path, given: &str) -> String {
    let clean = given.replace('\0', "");
    if root.join(&clean).exists() {
        return clean;
    }
    let Some(after) = clean.strip_prefix('@').filter(|a| !a.is_empty()) else {
        return clean;
    };
    let stripped = after.trim_start_matches(['/', '\\']);
    if after.starts_with(['/', '\\']) {
        return if stripped.is_empty() {
            clean.clone()
        } else {
            stripped.to_owned()
        };
    }
    match stripped.split(['/', '\\']).next() {
        Some(first) if !first.is_empty() => {
            if root.join(format!("@{first}")).exists() {
                clean
            } else {
                stripped.to_owned()
            }
        }
        _ => clean,
    }
}

/// `decodeURIComponent`, or the text unchanged where it would throw.
fn decode_uri_component(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok());
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(b) => {
                    out.push(b);
                    i += 3;
                    continue;
                }
                None => return text.to_owned(),
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// `path.resolve(base, p)`: absolute, `.` and `..` applied lexically.
pub(super) fn lexical(base: &Path, p: &str) -> PathBuf {
    let joined = base.join(p);
    let mut out = PathBuf::from("/");
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// `resolveToRealPath(path.resolve(root, p))`: the longest existing prefix with its
/// symlinks resolved, the rest appended.
pub(super) fn real(root: &Path, p: &str) -> PathBuf {
    let absolute = lexical(root, &decode_uri_component(p));
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(real) = std::fs::canonicalize(at) {
            return rest.iter().rev().fold(real, |acc, part| acc.join(part));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                at = parent;
            }
            _ => return absolute,
        }
    }
}

/// `replace`'s path: `root/<p>` if it exists, else the one file under the root whose name
/// is the path's base name and whose path ends with it, else `root/<p>`.
pub(super) fn for_replace(root: &Path, given: &str) -> PathBuf {
    if Path::new(given).is_absolute() {
        return real(root, given);
    }
    let sanitized = defensive(root, given);
    if root.join(&sanitized).exists() {
        return real(root, &sanitized);
    }
    let target = sanitized.replace('\\', "/");
    let base = Path::new(&sanitized).file_name().map(|n| n.to_owned());
    if let Some(base) = base {
        let found: Vec<PathBuf> = search(root, &base)
            .into_iter()
            .filter(|f| f.to_string_lossy().ends_with(target.as_str()))
            .collect();
        if let [only] = found.as_slice() {
            return real(root, &only.to_string_lossy());
        }
    }
    real(root, &sanitized)
}

/// `bfsFileSearchSync(root, {fileName, maxDirs: 50})`: files named `name`, breadth first.
fn search(root: &Path, name: &std::ffi::OsStr) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut queue = vec![root.to_path_buf()];
    let mut visited = HashSet::new();
    let (mut head, mut scanned) = (0, 0);
    while head < queue.len() && scanned < SEARCH_DIRS {
        let dir = queue[head].clone();
        head += 1;
        if !visited.insert(dir.clone()) {
            continue;
        }
        scanned += 1;
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                queue.push(path);
            } else if kind.is_file() && entry.file_name() == name {
                found.push(path);
            }
        }
    }
    found
}

/// Whether a component is one of the blocked names: compared case-insensitively after
/// cutting an NTFS stream suffix (`:…`) and trailing dots and spaces; `gha-creds-*.json`;
/// and the 8.3 short forms of the blocked names (`GIT~1`).
fn blocked(component: &str) -> bool {
    let name = component.split(':').next().unwrap_or_default();
    let name = name.trim_end_matches(['.', ' ']).to_lowercase();
    if BLOCKED.contains(&name.as_str()) {
        return true;
    }
    if name.starts_with("gha-creds-") && name.ends_with(".json") {
        return true;
    }
    if let Some((stem, digits)) = name.split_once('~')
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        return BLOCKED.iter().any(|b| {
            let short: String = b.trim_start_matches('.').chars().take(6).collect();
            stem == short
        });
    }
    false
}

/// Whether `resolved` is inside the root and names nothing blocked.
pub(super) fn admitted(root: &Path, resolved: &Path) -> bool {
    match resolved.strip_prefix(root) {
        Ok(rel) => !rel
            .components()
            .any(|c| blocked(&c.as_os_str().to_string_lossy())),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_names_are_found_in_their_disguises() {
        for name in [
            ".env",
            ".ENV.",
            ".git",
            "node_modules",
            ".env:x",
            "GIT~1",
            "gha-creds-1.json",
        ] {
            assert!(blocked(name), "{name}");
        }
        for name in [".envrc", ".env.local", "git", "modules", ".github"] {
            assert!(!blocked(name), "{name}");
        }
    }

    #[test]
    fn lexical_resolution_is_path_resolve() {
        let root = Path::new("/r/work");
        assert_eq!(lexical(root, "a/./b/../c"), Path::new("/r/work/a/c"));
        assert_eq!(lexical(root, "../x"), Path::new("/r/x"));
        assert_eq!(lexical(root, "/etc//hosts"), Path::new("/etc/hosts"));
    }

    #[test]
    fn uri_escapes_are_decoded_unless_malformed() {
        assert_eq!(decode_uri_component("a%20b"), "a b");
        assert_eq!(decode_uri_component("100%"), "100%");
    }
}

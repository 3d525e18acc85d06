//! Paths as edit formats name them: `/`-separated and relative to a root. Lexical only (the
//! file layer resolves symlinks and refuses what leaves the root on disk); every reading that
//! turns a named path into a key of its files goes through here.

/// The relative `/`-separated `path` with `.` and empty parts dropped and each `..` taking back
/// the part before it; `None` when it is absolute or a `..` would leave the root.
///
/// ```
/// use hunkloom::paths::relative_key;
///
/// assert_eq!(relative_key("./src//a/../b.py").as_deref(), Some("src/b.py"));
/// assert_eq!(relative_key("../x"), None);
/// assert_eq!(relative_key("/etc/passwd"), None);
/// ```
pub fn relative_key(path: &str) -> Option<String> {
    if path.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

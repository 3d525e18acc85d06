//! Replacing a file so that a crash leaves either the old or the new content, never a mix.

use std::io::Write;
use std::path::Path;

/// Writes `content` to a temporary file next to `path`, flushes it to disk, gives it `path`'s
/// permissions and renames it over `path`.
pub(crate) fn write_atomically(path: &Path, content: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    temp.write_all(content)?;
    temp.as_file().sync_all()?;
    if let Ok(meta) = std::fs::metadata(path) {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

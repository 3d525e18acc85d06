//! `view` of a directory: its entries two levels deep, hidden ones excluded, in each profile's
//! format ([`ListingStyle`]).
//!
//! Entries are read without following symbolic links (a link is listed, never entered), so a
//! listing shows only names inside the root.

use std::path::Path;

use crate::profile::{ListingStyle, Style};
use crate::render;

/// One entry under the listed directory.
struct Entry {
    /// The path relative to the listed directory, `/`-separated.
    relative: String,
    is_dir: bool,
}

/// The entries of `dir` to depth 2, depth first, siblings in byte order of their names.
fn walk(dir: &Path) -> std::io::Result<Vec<Entry>> {
    let mut out = Vec::new();
    for (name, is_dir) in children(dir)? {
        let sub = dir.join(&name);
        out.push(Entry {
            relative: name.clone(),
            is_dir,
        });
        if is_dir {
            // A subdirectory that cannot be read is listed without its entries.
            for (child, child_is_dir) in children(&sub).unwrap_or_default() {
                out.push(Entry {
                    relative: format!("{name}/{child}"),
                    is_dir: child_is_dir,
                });
            }
        }
    }
    Ok(out)
}

/// The names of `dir`'s entries in byte order, and whether each is a directory (not following
/// links).
fn children(dir: &Path) -> std::io::Result<Vec<(String, bool)>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        names.push((entry.file_name().to_string_lossy().into_owned(), is_dir));
    }
    names.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(names)
}

/// Whether a relative path has a component starting with `.`.
fn hidden(relative: &str) -> bool {
    relative.split('/').any(|c| c.starts_with('.'))
}

/// The listing of the directory `dir`, shown as `shown` (the path as the call gave it,
/// normalised).
pub(crate) fn list(style: &Style, dir: &Path, shown: &str) -> std::io::Result<String> {
    let entries = walk(dir)?;
    let header = format!(
        "Here's the files and directories up to 2 levels deep in {shown}, excluding hidden items:\n"
    );
    Ok(match style.listing {
        ListingStyle::Find => {
            // `find <shown> -maxdepth 2 -not -path '*/\.*'`: the whole printed path is matched,
            // so a `/.` anywhere in it (the listed directory's own path included) hides it.
            let mut stdout = String::new();
            let lines = std::iter::once(shown.to_owned())
                .chain(entries.iter().map(|e| format!("{shown}/{}", e.relative)));
            for line in lines.filter(|l| !l.contains("/.")) {
                stdout.push_str(&line);
                stdout.push('\n');
            }
            let stdout = render::truncate(&stdout, style.directory_truncation_notice);
            format!("{header}{stdout}\n")
        }
        ListingStyle::Sorted => {
            let hidden_count = entries
                .iter()
                .filter(|e| !e.relative.contains('/') && e.relative.starts_with('.'))
                .count();
            let mut lines: Vec<(String, bool)> = std::iter::once((shown.to_owned(), true))
                .chain(
                    entries
                        .iter()
                        .filter(|e| !hidden(&e.relative))
                        .map(|e| (format!("{shown}/{}", e.relative), e.is_dir)),
                )
                .collect();
            lines.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            let mut stdout = String::new();
            for (line, _) in &lines {
                stdout.push_str(line);
                stdout.push('\n');
            }
            let cut = render::truncate(&stdout, style.directory_truncation_notice);
            let formatted: Vec<String> = cut
                .trim()
                .split('\n')
                .map(|line| {
                    let is_dir = lines.iter().any(|(l, d)| *d && l == line);
                    if is_dir {
                        format!("{line}/")
                    } else {
                        line.to_owned()
                    }
                })
                .collect();
            let mut out = format!("{header}{}", formatted.join("\n"));
            if hidden_count > 0 {
                out.push_str(&format!(
                    "\n\n{hidden_count} hidden files/directories in this directory are excluded. \
                     You can use 'ls -la {shown}' to see them."
                ));
            }
            out
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Profile;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in [
            ("b.txt", "b"),
            ("a/x.txt", "x"),
            ("a/deep/y.txt", "y"),
            ("a/.h", "h"),
            (".env", "e"),
            ("a-b", "z"),
        ] {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        }
        dir
    }

    #[test]
    fn find_style_lists_depth_first_with_siblings_in_byte_order() {
        let dir = tree();
        let got = list(Profile::Anthropic.style(), dir.path(), "/R").expect("list");
        assert_eq!(
            got,
            "Here's the files and directories up to 2 levels deep in /R, excluding hidden \
             items:\n/R\n/R/a\n/R/a/deep\n/R/a/x.txt\n/R/a-b\n/R/b.txt\n\n"
        );
        // A hidden directory hides everything, itself included.
        let got = list(Profile::Anthropic.style(), dir.path(), "/R/.c").expect("list");
        assert!(got.ends_with("excluding hidden items:\n\n"), "{got:?}");
    }

    #[test]
    fn sorted_style_marks_directories_and_counts_hidden_entries() {
        let dir = tree();
        let got = list(Profile::OpenHands.style(), dir.path(), "/R").expect("list");
        assert_eq!(
            got,
            "Here's the files and directories up to 2 levels deep in /R, excluding hidden \
             items:\n/R/\n/R/a/\n/R/a-b\n/R/a/deep/\n/R/a/x.txt\n/R/b.txt\n\n1 hidden \
             files/directories in this directory are excluded. You can use 'ls -la /R' to see \
             them."
        );
    }
}

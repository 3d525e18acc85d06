//! Codex's lenient reading of the patch envelope: markers padded with whitespace and the heredoc
//! wrapper (`<<'EOF'` … `EOF`) that models sometimes pass as a literal argument.

pub(super) const BEGIN_PATCH: &str = "*** Begin Patch";
pub(super) const END_PATCH: &str = "*** End Patch";
pub(super) const ADD_FILE: &str = "*** Add File: ";
pub(super) const DELETE_FILE: &str = "*** Delete File: ";
pub(super) const UPDATE_FILE: &str = "*** Update File: ";
pub(super) const MOVE_TO: &str = "*** Move to: ";
pub(super) const END_OF_FILE: &str = "*** End of File";
pub(super) const CHUNK_HEADER: &str = "@@";

/// A hunk marker line, read from a line already trimmed as the parser's state requires.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Marker<'a> {
    Add(&'a str),
    Delete(&'a str),
    Update(&'a str),
    EndPatch,
}

/// The marker `line` is, if any. `line` must already be trimmed (fully between hunks, only at
/// the end inside an update hunk, where a leading space starts a context line).
pub(super) fn marker(line: &str) -> Option<Marker<'_>> {
    if line == END_PATCH {
        Some(Marker::EndPatch)
    } else if let Some(path) = line.strip_prefix(ADD_FILE) {
        Some(Marker::Add(path))
    } else if let Some(path) = line.strip_prefix(DELETE_FILE) {
        Some(Marker::Delete(path))
    } else {
        line.strip_prefix(UPDATE_FILE).map(Marker::Update)
    }
}

/// Whether `trimmed` opens a heredoc wrapper (`<<EOF`, `<<'EOF'`, `<<"EOF"`).
pub(super) fn is_heredoc_open(trimmed: &str) -> bool {
    matches!(trimmed, "<<EOF" | "<<'EOF'" | "<<\"EOF\"")
}

/// Whether `trimmed` closes a heredoc wrapper (Codex accepts any line ending in `EOF`).
pub(super) fn is_heredoc_close(trimmed: &str) -> bool {
    trimmed.ends_with("EOF")
}

/// Whether `line` (trailing whitespace removed) is a chunk header, and its context text.
pub(super) fn chunk_header(line: &str) -> Option<Option<&str>> {
    if line == CHUNK_HEADER {
        Some(None)
    } else {
        line.strip_prefix("@@ ").map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_and_headers() {
        assert_eq!(marker("*** Add File: a b"), Some(Marker::Add("a b")));
        assert_eq!(marker("*** Delete File: x"), Some(Marker::Delete("x")));
        assert_eq!(marker("*** Update File: y"), Some(Marker::Update("y")));
        assert_eq!(marker("*** End Patch"), Some(Marker::EndPatch));
        assert_eq!(marker("*** Frobnicate File: foo"), None);
        assert_eq!(chunk_header("@@"), Some(None));
        assert_eq!(chunk_header("@@ def f():"), Some(Some("def f():")));
        assert_eq!(chunk_header("@@@"), None);
        assert!(is_heredoc_open("<<'EOF'") && is_heredoc_open("<<EOF"));
        assert!(!is_heredoc_open("<<'PATCH'"));
        assert!(is_heredoc_close("EOF") && !is_heredoc_close("EOF x"));
    }
}

//! `undo_edit`: per file, a stack of the texts it held before each edit made through the editor.
//!
//! As in both references, `create` pushes the text it wrote, so an undo right after a create
//! writes that same text again and leaves the file in place; `str_replace` and `insert` push the
//! text they replaced. Entries are the file's decoded text with its own line endings, so an undo
//! gives back the exact bytes (the encoding is kept by the write). The history lives in memory:
//! nothing of it is ever written under the root. Its keys are chosen by the editor (see
//! `Target::history_key`).

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

/// Each file's texts, newest last.
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    depth: Option<usize>,
    files: HashMap<PathBuf, VecDeque<String>>,
}

impl History {
    /// A history keeping at most `depth` texts per file (`None`: all of them).
    pub(crate) fn new(depth: Option<usize>) -> Self {
        History {
            depth,
            files: HashMap::new(),
        }
    }

    /// Records the text `path` held before an edit.
    pub(crate) fn push(&mut self, path: &Path, text: String) {
        if self.depth == Some(0) {
            return;
        }
        let stack = self.files.entry(path.to_path_buf()).or_default();
        stack.push_back(text);
        if let Some(depth) = self.depth {
            while stack.len() > depth {
                stack.pop_front();
            }
        }
    }

    /// The newest text of `path`, without removing it.
    pub(crate) fn last(&self, path: &Path) -> Option<&str> {
        self.files
            .get(path)
            .and_then(VecDeque::back)
            .map(String::as_str)
    }

    /// Removes the newest text of `path`.
    pub(crate) fn pop(&mut self, path: &Path) -> Option<String> {
        let stack = self.files.get_mut(path)?;
        let text = stack.pop_back();
        if stack.is_empty() {
            self.files.remove(path);
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stack_per_file_bounded_by_depth() {
        let mut h = History::new(Some(2));
        let (a, b) = (Path::new("/r/a"), Path::new("/r/b"));
        for t in ["1", "2", "3"] {
            h.push(a, t.to_owned());
        }
        h.push(b, "x".to_owned());
        assert_eq!(h.last(a), Some("3"));
        assert_eq!(h.pop(a).as_deref(), Some("3"));
        assert_eq!(h.pop(a).as_deref(), Some("2"));
        assert_eq!(h.pop(a), None);
        assert_eq!(h.pop(b).as_deref(), Some("x"));
        let mut unbounded = History::new(None);
        for i in 0..100 {
            unbounded.push(a, i.to_string());
        }
        assert_eq!(unbounded.files[a].len(), 100);
        let mut none = History::new(Some(0));
        none.push(a, "x".to_owned());
        assert_eq!(none.pop(a), None);
    }
}

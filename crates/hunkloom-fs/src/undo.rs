//! Undo: a bounded history per file of what it held before each edit made here.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

/// What one committed change did to one file, so it can be reversed.
#[derive(Clone, Debug)]
pub(crate) struct UndoEntry {
    /// The bytes before the change (`None`: the file did not exist).
    pub(crate) before: Option<Vec<u8>>,
    /// The permissions before the change, to restore a deleted file with them.
    pub(crate) permissions: Option<std::fs::Permissions>,
    /// The hash of the bytes the change left (`None`: it left no file).
    pub(crate) after: Option<u128>,
}

/// Each file's history, newest last, at most `depth` entries per file.
#[derive(Clone, Debug, Default)]
pub(crate) struct UndoHistory {
    depth: usize,
    files: HashMap<PathBuf, VecDeque<UndoEntry>>,
}

impl UndoHistory {
    pub(crate) fn new(depth: usize) -> UndoHistory {
        UndoHistory {
            depth,
            files: HashMap::new(),
        }
    }

    /// Records a change of `path`, dropping the oldest entry beyond the depth.
    pub(crate) fn push(&mut self, path: &Path, entry: UndoEntry) {
        if self.depth == 0 {
            return;
        }
        let history = self.files.entry(path.to_path_buf()).or_default();
        if history.len() == self.depth {
            history.pop_front();
        }
        history.push_back(entry);
    }

    /// The newest entry of `path`.
    pub(crate) fn last(&self, path: &Path) -> Option<&UndoEntry> {
        self.files.get(path).and_then(VecDeque::back)
    }

    /// Removes the newest entry of `path`.
    pub(crate) fn pop(&mut self, path: &Path) -> Option<UndoEntry> {
        let history = self.files.get_mut(path)?;
        let entry = history.pop_back();
        if history.is_empty() {
            self.files.remove(path);
        }
        entry
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_is_bounded() {
        let mut h = UndoHistory::new(2);
        let p = Path::new("/r/a");
        for i in 0..3u8 {
            h.push(
                p,
                UndoEntry {
                    before: Some(vec![i]),
                    permissions: None,
                    after: None,
                },
            );
        }
        assert_eq!(h.pop(p).and_then(|e| e.before), Some(vec![2]));
        assert_eq!(h.pop(p).and_then(|e| e.before), Some(vec![1]));
        assert!(h.pop(p).is_none());
    }
}

//! Read tracking: what each file looked like when it was last read (or written) here.
//!
//! A [`Fingerprint`] holds the modification time, the size and a content hash. Staleness is
//! decided by the hash alone: a touch that changes only the time is not an edit, and a change
//! within one timestamp tick (or with the time set back) is still caught.
//!
//! The hash is XXH3-128 (`xxhash-rust`): no dependencies, pure Rust, about memory bandwidth
//! (tens of GB/s), and 128 bits make an accidental collision between two versions of a file
//! negligible. It guards against accidents, not adversaries, so a cryptographic hash (BLAKE3,
//! with its C/assembly build) would buy nothing here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

/// The content hash of `bytes`.
pub(crate) fn hash(bytes: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

/// A file's state when it was read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fingerprint {
    /// Modification time (informative; not used to decide staleness).
    pub(crate) modified: Option<SystemTime>,
    /// Size in bytes.
    pub(crate) size: u64,
    /// XXH3-128 of the bytes.
    pub(crate) hash: u128,
}

impl Fingerprint {
    /// The fingerprint of `bytes` with `meta`'s time.
    pub(crate) fn of(bytes: &[u8], modified: Option<SystemTime>) -> Fingerprint {
        Fingerprint {
            modified,
            size: bytes.len() as u64,
            hash: hash(bytes),
        }
    }
}

/// What is remembered of a file read (or written) here: its fingerprint, and its decoded text
/// when the file was no larger than the kept-read limit (for [merging](crate::merge) an edit
/// around changes made since). Cheap to clone (the text is shared), so a call can take the
/// record it is based on when it starts and keep it while it waits for its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReadRecord {
    pub(crate) fingerprint: Fingerprint,
    pub(crate) text: Option<Arc<str>>,
}

impl std::ops::Deref for ReadRecord {
    type Target = Fingerprint;

    fn deref(&self) -> &Fingerprint {
        &self.fingerprint
    }
}

/// The files read through one workspace, by resolved path.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tracker {
    files: HashMap<PathBuf, ReadRecord>,
}

impl Tracker {
    /// Records `fingerprint`, with `text` kept if the file is at most `keep` bytes.
    pub(crate) fn record(&mut self, path: &Path, fingerprint: Fingerprint, text: &str, keep: u64) {
        let text = (fingerprint.size <= keep).then(|| Arc::from(text));
        self.files
            .insert(path.to_path_buf(), ReadRecord { fingerprint, text });
    }

    pub(crate) fn forget(&mut self, path: &Path) {
        self.files.remove(path);
    }

    pub(crate) fn get(&self, path: &Path) -> Option<&ReadRecord> {
        self.files.get(path)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_hashed_in_pieces_hashes_as_its_bytes() {
        let dir = tempfile::tempdir().expect("tempdir");
        for len in [0, 1, 240, 65_536, 65_537, 1 << 20] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            let path = dir.path().join(format!("f{len}"));
            std::fs::write(&path, &bytes).expect("write");
            assert_eq!(
                crate::reading::hash_regular(&path),
                Some(super::hash(&bytes)),
                "{len}"
            );
        }
        assert_eq!(crate::reading::hash_regular(dir.path()), None);
        assert_eq!(crate::reading::hash_regular(&dir.path().join("none")), None);
    }
}

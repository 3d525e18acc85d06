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

/// The files read through one workspace, by resolved path.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tracker {
    files: HashMap<PathBuf, Fingerprint>,
}

impl Tracker {
    pub(crate) fn record(&mut self, path: &Path, fingerprint: Fingerprint) {
        self.files.insert(path.to_path_buf(), fingerprint);
    }

    pub(crate) fn forget(&mut self, path: &Path) {
        self.files.remove(path);
    }

    pub(crate) fn get(&self, path: &Path) -> Option<&Fingerprint> {
        self.files.get(path)
    }
}

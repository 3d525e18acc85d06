//! Memory a call needs, asked for before the call needs it.
//!
//! Rust's global allocator aborts the process when an allocation fails, which in a Python or
//! Node host kills the host with it. The allocations hunkloom makes in proportion to its input
//! (a file's bytes and text, a diff, the new content) are preceded by [`reserve`], which asks
//! the allocator for that much memory with a fallible reservation and gives it back at once: a
//! request the system cannot meet becomes error `out_of_memory` (Python `MemoryError`, Node
//! `RangeError`, C `HL_STATUS_OUT_OF_MEMORY`) with nothing written, instead of an abort. A
//! file's bytes are also read into a buffer reserved fallibly.

use crate::error::{Error, ErrorKind, Result};

/// How many bytes of working memory a call needs per byte of its input, for the copies it makes
/// (decoded text, the `\n` view, the new text, its encoding).
pub const WORKING_COPIES: usize = 4;

/// Below this, a request is not checked: an allocation that small failing leaves the process
/// nothing to go on with anyway, and the check would cost a system call per call.
const CHECKED_FROM: usize = 1 << 20;

/// Error `out_of_memory` unless `bytes` bytes can be allocated now (checked with a fallible
/// reservation that is released at once, from 1 MiB up); `what` names what they are for in the
/// message.
pub fn reserve(bytes: usize, what: &str) -> Result<()> {
    if bytes < CHECKED_FROM {
        return Ok(());
    }
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(bytes)
        .map_err(|_| out_of_memory(bytes, what))
}

/// Error `out_of_memory` for `bytes` bytes needed for `what`.
pub fn out_of_memory(bytes: usize, what: &str) -> Error {
    Error::new(
        ErrorKind::OutOfMemory,
        format!(
            "Out of memory: {what} needs about {:.1} MB that could not be allocated; nothing \
             was written. Free memory, or raise the process's memory limit.",
            bytes as f64 / 1e6
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_reservation_is_an_error_not_an_abort() {
        assert!(reserve(1 << 20, "a test").is_ok());
        let e = reserve(usize::MAX / 2, "a huge file").expect_err("impossible");
        assert_eq!(e.code(), "out_of_memory");
        assert!(e.message().contains("a huge file"), "{e}");
    }
}

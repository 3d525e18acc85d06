//! Reading a file without hanging, without reading forever, and without being fooled by a swap.
//!
//! Every read of the file layer goes through [`read_regular`]: the file is opened without
//! blocking (opening a FIFO that has no writer blocks until one comes, which could be never),
//! the *opened* handle is checked to be a regular file (so a FIFO, device or directory put in
//! place after a check by path is still refused), and at most the size limit plus one byte is
//! read (so a file that grows while it is read, or a device that never ends, costs at most the
//! limit). [`read_edit_input`] is the same for the edit a command reads, which may also come
//! through a pipe (`--diff <(…)`).

use std::fs::{File, Metadata, OpenOptions};
use std::io::Read;
use std::path::Path;

use hunkloom::{Error, ErrorKind, Result};

use crate::errors;

/// A regular file's bytes and the metadata of the handle they were read through.
pub(crate) struct RegularFile {
    pub(crate) bytes: Vec<u8>,
    pub(crate) meta: Metadata,
}

/// Opens `path` for reading; a FIFO opens at once even without a writer.
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Reads at most `limit` bytes of `file`; `Err(size)` with the size seen when it holds more.
/// The buffer is reserved fallibly, and `read_to_end` grows it fallibly: a file the memory
/// cannot hold is an `OutOfMemory` I/O error, not an abort.
fn read_bounded(file: impl Read, hint: u64, limit: u64) -> std::io::Result<Result<Vec<u8>, u64>> {
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(usize::try_from(hint.min(limit)).unwrap_or(usize::MAX))
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::OutOfMemory))?;
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Ok(Err(bytes.len() as u64));
    }
    Ok(Ok(bytes))
}

/// Why `meta` is not a regular file, in words, or `None` if it is one.
fn not_regular(meta: &Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("it is a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("it is a FIFO (named pipe), not a regular file");
        }
        if t.is_char_device() || t.is_block_device() {
            return Some("it is a device, not a regular file");
        }
        if t.is_socket() {
            return Some("it is a socket, not a regular file");
        }
    }
    Some("it is not a regular file")
}

/// The bytes of the regular file at `path` (`None` if nothing is there), refusing anything
/// else (`io_error`) and more than `limit` bytes (`file_too_large`), checked on the opened
/// handle; `given` is the path shown in messages.
pub(crate) fn read_regular(path: &Path, given: &Path, limit: u64) -> Result<Option<RegularFile>> {
    let Some((file, meta)) = open_regular(path, given, limit)? else {
        return Ok(None);
    };
    let read = read_bounded(file, meta.len(), limit).map_err(|e| {
        if e.kind() == std::io::ErrorKind::OutOfMemory {
            hunkloom::memory::out_of_memory(
                usize::try_from(meta.len()).unwrap_or(usize::MAX),
                "reading the file",
            )
        } else {
            errors::io("read", given, &e)
        }
    })?;
    // Decoding and editing copy the text a few times: ask for that memory now.
    hunkloom::memory::reserve(
        read.as_ref()
            .map_or(0, Vec::len)
            .saturating_mul(hunkloom::memory::WORKING_COPIES),
        "the file's text",
    )?;
    match read {
        Ok(bytes) => Ok(Some(RegularFile { bytes, meta })),
        Err(size) => Err(errors::too_large(given, size, limit)),
    }
}

/// The regular file at `path` opened for reading, with its handle's metadata (`None` if nothing
/// is there), checked as [`read_regular`] checks it: anything but a regular file is
/// `io_error`, one larger than `limit` bytes `file_too_large`.
pub(crate) fn open_regular(
    path: &Path,
    given: &Path,
    limit: u64,
) -> Result<Option<(File, Metadata)>> {
    let file = match open_nonblocking(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(errors::io("read", given, &e)),
    };
    let meta = file.metadata().map_err(|e| errors::io("read", given, &e))?;
    if let Some(why) = not_regular(&meta) {
        return Err(errors::io("read", given, &std::io::Error::other(why)));
    }
    if meta.len() > limit {
        return Err(errors::too_large(given, meta.len(), limit));
    }
    Ok(Some((file, meta)))
}

/// The content hash ([`tracking::hash`](crate::tracking::hash)) of the regular file at `path`,
/// read in pieces so that checking a large file costs no memory; `None` if nothing readable
/// and regular is there (a commit then treats it as changed).
pub(crate) fn hash_regular(path: &Path) -> Option<u128> {
    use std::io::Read;
    let mut file = open_nonblocking(path).ok()?;
    let meta = file.metadata().ok()?;
    if not_regular(&meta).is_some() {
        return None;
    }
    let mut hasher = xxhash_rust::xxh3::Xxh3Default::new();
    let mut buffer = vec![0; 1 << 16];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => return Some(hasher.digest128()),
            Ok(n) => hasher.update(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// The text of an edit (a diff or a patch) read from `path`: a regular file, or a pipe or FIFO
/// (as `--diff <(command)` gives), at most `limit` bytes, in UTF-8.
///
/// Why not `std::fs::read`: opening a FIFO nobody writes to blocks forever, a device such as
/// `/dev/zero` never ends, and a directory is no edit. Here a FIFO opens at once and reads to
/// the end of what its writers send (nothing, if it has none); a device, socket or directory
/// is refused with `io_error`; more than `limit` bytes is `file_too_large`; bytes that are not
/// UTF-8 are `unsupported_encoding`.
pub fn read_edit_input(path: &Path, limit: u64) -> Result<String> {
    let file = open_nonblocking(path).map_err(|e| errors::io("read", path, &e))?;
    let meta = file.metadata().map_err(|e| errors::io("read", path, &e))?;
    let pipe = {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            meta.file_type().is_fifo()
        }
        #[cfg(not(unix))]
        false
    };
    if !pipe && let Some(why) = not_regular(&meta) {
        return Err(errors::io("read", path, &std::io::Error::other(why)));
    }
    // A pipe stays non-blocking: reads wait for its writers in short sleeps (see [`Waiting`]).
    let bytes = match read_bounded(Waiting(file), meta.len(), limit) {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(size)) => return Err(errors::too_large(path, size, limit)),
        Err(e) => return Err(errors::io("read", path, &e)),
    };
    String::from_utf8(bytes).map_err(|e| {
        Error::with_message(
            ErrorKind::UnsupportedEncoding,
            format!(
                "{} is not UTF-8 text (invalid byte at offset {}).",
                errors::shown(path),
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// A file opened non-blocking, read as if it blocked: a pipe whose writers have sent nothing
/// yet answers "would block", so the read sleeps a moment and tries again, until they send or
/// all close it (the end). (Turning `O_NONBLOCK` off would need `unsafe` `fcntl`.)
struct Waiting(File);

impl Read for Waiting {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match self.0.read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                other => return other,
            }
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn mkfifo(path: &Path) {
        let status = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
    }

    #[test]
    fn refuses_what_is_not_a_regular_file_at_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let e = read_regular(&fifo, &fifo, 100).err().expect("refused");
        assert_eq!(e.code(), "io_error");
        assert!(e.message().contains("FIFO"), "{e}");
        let e = read_regular(dir.path(), dir.path(), 100)
            .err()
            .expect("refused");
        assert!(e.message().contains("directory"), "{e}");
        let zero = Path::new("/dev/zero");
        let e = read_regular(zero, zero, 100).err().expect("refused");
        assert!(e.message().contains("device"), "{e}");
        let e = read_edit_input(zero, 100).expect_err("refused");
        assert!(e.message().contains("device"), "{e}");
        assert!(read_regular(&dir.path().join("none"), dir.path(), 1).is_ok_and(|r| r.is_none()));
    }

    #[test]
    fn an_edit_comes_through_a_fifo_or_finds_it_empty() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        // No writer: an empty edit, at once.
        assert_eq!(read_edit_input(&fifo, 100).expect("read"), "");
        // A writer (opened read-write, which Linux allows without a reader) sends the text
        // and closes a second later: the reader waits for it, as for any pipe.
        let mut writer = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&fifo)
            .expect("open");
        std::io::Write::write_all(&mut writer, b"diff text").expect("write");
        let closer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(1));
            drop(writer);
        });
        assert_eq!(read_edit_input(&fifo, 100).expect("read"), "diff text");
        closer.join().expect("closer");
    }

    #[test]
    fn limits_and_encoding() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("f");
        std::fs::write(&f, b"0123456789").expect("write");
        assert_eq!(read_edit_input(&f, 10).expect("read"), "0123456789");
        assert_eq!(
            read_edit_input(&f, 9).expect_err("big").code(),
            "file_too_large"
        );
        assert_eq!(
            read_regular(&f, &f, 9).err().expect("big").code(),
            "file_too_large"
        );
        std::fs::write(&f, b"ok\xff").expect("write");
        assert_eq!(
            read_edit_input(&f, 10).expect_err("bytes").code(),
            "unsupported_encoding"
        );
    }
}

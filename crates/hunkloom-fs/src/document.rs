//! A file's bytes as text and back, byte for byte: its encoding and BOM, and its line endings.
//!
//! # Encodings
//!
//! A file is UTF-8 (no BOM), UTF-8 with a BOM (`EF BB BF`), UTF-16 LE (`FF FE`) or UTF-16 BE
//! (`FE FF`) with a BOM; the rest of the bytes must decode without a single replacement. Any
//! other file (Latin-1, UTF-32, unpaired surrogates, an odd UTF-16 length) is refused: decoding
//! it would lose bytes. Decoding then encoding a supported file gives back its exact bytes.
//!
//! # Line endings
//!
//! A text is a sequence of lines, each ended by `\r\n` or `\n` except possibly the last (a lone
//! `\r` is content). Its `\n` view replaces every `\r\n` with `\n`. [`restore_endings`] maps an
//! edited `\n` view back: the lines of the view that the edit left alone (found by a line diff)
//! are written with their own original ending, and the lines of each changed region with the
//! ending most common among the lines that region replaces, or, for lines inserted between
//! untouched ones, the file's most common ending (`\n` if it has none). Whether the text ends
//! with a line ending follows the edited view, so it is kept unless the edit changed the last line.

use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp};

/// How a file's text is stored.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// UTF-8 without a byte-order mark (also every new file).
    #[default]
    Utf8,
    /// UTF-8 with a byte-order mark.
    Utf8Bom,
    /// UTF-16 little-endian with a byte-order mark.
    Utf16Le,
    /// UTF-16 big-endian with a byte-order mark.
    Utf16Be,
}

impl Encoding {
    /// A stable name: `"utf-8"`, `"utf-8-bom"`, `"utf-16le"` or `"utf-16be"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf8Bom => "utf-8-bom",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
        }
    }
}

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decodes `bytes`, or `None` if they are not in a supported encoding.
pub(crate) fn decode(bytes: &[u8]) -> Option<(Encoding, String)> {
    if let Some(rest) = bytes.strip_prefix(UTF8_BOM) {
        return Some((Encoding::Utf8Bom, String::from_utf8(rest.to_vec()).ok()?));
    }
    // `FF FE 00 00` is the UTF-32 LE mark: refused rather than read as UTF-16 with a NUL.
    if bytes.starts_with(b"\xFF\xFE\x00\x00") {
        return None;
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return Some((Encoding::Utf16Le, utf16(rest, u16::from_le_bytes)?));
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return Some((Encoding::Utf16Be, utf16(rest, u16::from_be_bytes)?));
    }
    Some((Encoding::Utf8, String::from_utf8(bytes.to_vec()).ok()?))
}

fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Option<String> {
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    let units = bytes.chunks_exact(2).map(|p| unit([p[0], p[1]]));
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .ok()
}

/// `text` in `encoding`, with its BOM.
pub(crate) fn encode(encoding: Encoding, text: &str) -> Vec<u8> {
    match encoding {
        Encoding::Utf8 => text.as_bytes().to_vec(),
        Encoding::Utf8Bom => [UTF8_BOM, text.as_bytes()].concat(),
        Encoding::Utf16Le => bom_and_units(b"\xFF\xFE", text, u16::to_le_bytes),
        Encoding::Utf16Be => bom_and_units(b"\xFE\xFF", text, u16::to_be_bytes),
    }
}

fn bom_and_units(bom: &[u8], text: &str, bytes: fn(u16) -> [u8; 2]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bom.len() + 2 * text.len());
    out.extend_from_slice(bom);
    for unit in text.encode_utf16() {
        out.extend_from_slice(&bytes(unit));
    }
    out
}

/// A line of the original text: its content and its ending (`"\r\n"`, `"\n"` or `""`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Line<'a> {
    content: &'a str,
    ending: &'a str,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    text.split_inclusive('\n')
        .map(|whole| {
            let ending_len = if whole.ends_with("\r\n") {
                2
            } else if whole.ends_with('\n') {
                1
            } else {
                0
            };
            let (content, ending) = whole.split_at(whole.len() - ending_len);
            Line { content, ending }
        })
        .collect()
}

/// The `\n` view of `text`: every `\r\n` written `\n`.
pub(crate) fn normalize(text: &str) -> String {
    if memchr::memchr(b'\r', text.as_bytes()).is_none() {
        return text.to_owned();
    }
    text.replace("\r\n", "\n")
}

/// The ending most common among `lines` that have one (ties: the one seen first).
fn most_common<'a>(lines: &[Line<'a>]) -> Option<&'a str> {
    let crlf = lines.iter().filter(|l| l.ending == "\r\n").count();
    let lf = lines.iter().filter(|l| l.ending == "\n").count();
    match (crlf, lf) {
        (0, 0) => None,
        _ if crlf > lf => Some("\r\n"),
        _ if lf > crlf => Some("\n"),
        _ => lines.iter().map(|l| l.ending).find(|e| !e.is_empty()),
    }
}

/// How long the line diff may search before it settles for coarser regions (which only widens
/// the regions whose lines take one ending; the text itself is always exact).
const DIFF_BUDGET: Duration = Duration::from_secs(2);

/// The edited `\n` view `new_view` of `original`, written back with `original`'s line endings
/// (see the module documentation).
pub(crate) fn restore_endings(original: &str, new_view: &str) -> String {
    let old = lines(original);
    if old.iter().all(|l| l.ending != "\r\n") {
        // Only `\n` endings: the view is the text.
        return new_view.to_owned();
    }
    let file_default = most_common(&old).unwrap_or("\n");
    let old_view: Vec<String> = old
        .iter()
        .map(|l| {
            let mut s = String::with_capacity(l.content.len() + 1);
            s.push_str(l.content);
            if !l.ending.is_empty() {
                s.push('\n');
            }
            s
        })
        .collect();
    let old_keys: Vec<&str> = old_view.iter().map(String::as_str).collect();
    let new_keys: Vec<&str> = new_view.split_inclusive('\n').collect();
    let deadline = Instant::now().checked_add(DIFF_BUDGET);
    let ops =
        similar::capture_diff_slices_deadline(Algorithm::Myers, &old_keys, &new_keys, deadline);

    let mut out = String::with_capacity(new_view.len() + new_view.len() / 16);
    // The pending changed region: old lines [old_start, old_end), new lines [new_start, new_end).
    let mut region: Option<(usize, usize, usize, usize)> = None;
    let flush = |out: &mut String, region: &mut Option<(usize, usize, usize, usize)>| {
        if let Some((os, oe, ns, ne)) = region.take() {
            let ending = most_common(&old[os..oe]).unwrap_or(file_default);
            for line in &new_keys[ns..ne] {
                match line.strip_suffix('\n') {
                    Some(content) => {
                        out.push_str(content);
                        out.push_str(ending);
                    }
                    None => out.push_str(line),
                }
            }
        }
    };
    for op in ops {
        let (old_range, new_range) = (op.old_range(), op.new_range());
        if let DiffOp::Equal { old_index, len, .. } = op {
            flush(&mut out, &mut region);
            for line in &old[old_index..old_index + len] {
                out.push_str(line.content);
                out.push_str(line.ending);
            }
        } else {
            region = Some(match region {
                Some((os, _, ns, _)) => (os, old_range.end, ns, new_range.end),
                None => (
                    old_range.start,
                    old_range.end,
                    new_range.start,
                    new_range.end,
                ),
            });
        }
    }
    flush(&mut out, &mut region);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_round_trip() {
        for (bytes, encoding) in [
            (&b"a\r\nb"[..], Encoding::Utf8),
            (b"\xEF\xBB\xBFa\n", Encoding::Utf8Bom),
            (b"\xFF\xFEa\x00\n\x00", Encoding::Utf16Le),
            (b"\xFE\xFF\x00a\x00\n", Encoding::Utf16Be),
            (b"\xFF\xFE", Encoding::Utf16Le),
            (b"", Encoding::Utf8),
        ] {
            let (got, text) = decode(bytes).expect("supported");
            assert_eq!(got, encoding);
            assert_eq!(encode(encoding, &text), bytes);
        }
    }

    #[test]
    fn lossy_encodings_are_refused() {
        for bytes in [
            &b"caf\xE9\n"[..],
            b"\xFF\xFE\x00\x00a\x00\x00\x00",
            b"\xFF\xFEa",
            b"\xFF\xFE\x00\xD8",
            b"\xEF\xBB\xBF\xFF",
        ] {
            assert_eq!(decode(bytes), None, "{bytes:?}");
        }
    }

    #[test]
    fn untouched_lines_keep_their_endings() {
        let original = "a\r\nb\nc\r\nd";
        let view = normalize(original);
        assert_eq!(view, "a\nb\nc\nd");
        assert_eq!(restore_endings(original, &view), original);
        assert_eq!(restore_endings(original, "a\nB\nc\nd"), "a\r\nB\nc\r\nd");
        // An inserted line between untouched ones takes the file's most common ending.
        assert_eq!(
            restore_endings(original, "a\nb\nx\nc\nd"),
            "a\r\nb\nx\r\nc\r\nd"
        );
        // Editing the last line may add a final line ending.
        assert_eq!(
            restore_endings(original, "a\nb\nc\nD\n"),
            "a\r\nb\nc\r\nD\r\n"
        );
        assert_eq!(restore_endings("a\r\nb\r\n", "a\nb"), "a\r\nb");
    }
}

//! A file's bytes as text and back, byte for byte: its encoding and BOM, and its line endings.
//!
//! # Encodings
//!
//! A file is UTF-8 (no BOM), UTF-8 with a BOM (`EF BB BF`), UTF-16 LE (`FF FE`) or UTF-16 BE
//! (`FE FF`) with a BOM; the rest of the bytes must decode without a single replacement.
//!
//! Any other file, when legacy encodings are allowed, is given to Firefox's detector
//! (`chardetng`): a single-byte or multi-byte legacy encoding it names (windows-125x, ISO-8859-x,
//! KOI8, Shift_JIS, EUC-JP, EUC-KR, Big5, GBK/GB18030) is decoded with `encoding_rs` when every
//! byte decodes and encoding the text again gives back the exact bytes; the file is then edited
//! as text and written back in that encoding, so the bytes of the lines an edit leaves alone stay
//! identical. New text the encoding cannot represent is refused (`unrepresentable_text`) rather
//! than switching the file to UTF-8. Binary-looking bytes (a NUL, or many control characters),
//! UTF-32, unpaired surrogates, an odd UTF-16 length and the stateful ISO-2022-JP are refused:
//! decoding them would lose bytes or misread a binary file as text.
//!
//! Decoding then encoding a supported file gives back its exact bytes.
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

use std::borrow::Cow;
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
    /// A legacy (non-Unicode) encoding the file was detected to be in.
    Legacy(LegacyEncoding),
}

impl Encoding {
    /// A stable name: `"utf-8"`, `"utf-8-bom"`, `"utf-16le"`, `"utf-16be"`, or a legacy
    /// encoding's WHATWG name (`"windows-1251"`, `"Shift_JIS"`, `"gb18030"`, …; each is also a
    /// name Python's codecs and Node's `TextDecoder` accept).
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf8Bom => "utf-8-bom",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
            Encoding::Legacy(legacy) => legacy.name(),
        }
    }

    /// Whether the encoding is a legacy (non-Unicode) one, which cannot store every character.
    pub fn is_legacy(self) -> bool {
        matches!(self, Encoding::Legacy(_))
    }
}

/// A legacy encoding (one `encoding_rs` decodes and encodes without loss for the file it was
/// detected in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LegacyEncoding(&'static encoding_rs::Encoding);

impl LegacyEncoding {
    /// The encoding's WHATWG name, e.g. `"windows-1252"`.
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// The legacy encoding a WHATWG label names (`"cp1251"`, `"latin1"`, `"shift_jis"`, …), or
    /// `None` for a Unicode encoding, a stateful one (ISO-2022-JP) or an unknown label.
    pub fn for_label(label: &str) -> Option<LegacyEncoding> {
        let found = encoding_rs::Encoding::for_label(label.trim().as_bytes())?;
        editable_legacy(found).then_some(LegacyEncoding(found))
    }
}

/// Whether `encoding` is one a file can be edited in: a legacy, stateless encoding that
/// `encoding_rs` can write (not UTF-8/16, not ISO-2022-JP, not the replacement encoding).
fn editable_legacy(encoding: &'static encoding_rs::Encoding) -> bool {
    encoding != encoding_rs::UTF_8
        && encoding != encoding_rs::UTF_16LE
        && encoding != encoding_rs::UTF_16BE
        && encoding != encoding_rs::ISO_2022_JP
        && encoding != encoding_rs::REPLACEMENT
        && encoding.output_encoding() == encoding
}

/// How files in encodings other than UTF-8/UTF-16 are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Legacy {
    /// Refused (`unsupported_encoding`).
    Refuse,
    /// Detected with `chardetng`.
    #[default]
    Detect,
    /// In the encoding the file had when it was last read or written here, if its bytes still
    /// decode in it without loss (so an edit that changes the detector's guess does not change
    /// how the file is read); detected otherwise.
    Known(LegacyEncoding),
}

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decodes `bytes`, or `None` if they are not in a supported encoding; files in no Unicode
/// encoding are detected as `legacy` says.
pub(crate) fn decode(bytes: &[u8], legacy: Legacy) -> Option<(Encoding, String)> {
    if let Some(decoded) = decode_unicode(bytes) {
        return Some(decoded);
    }
    // A Unicode byte-order mark says what the file is meant to be; one that does not decode is
    // damaged, not legacy text.
    if [UTF8_BOM, b"\xFF\xFE", b"\xFE\xFF"]
        .iter()
        .any(|bom| bytes.starts_with(bom))
    {
        return None;
    }
    match legacy {
        Legacy::Refuse => None,
        Legacy::Detect => decode_legacy(bytes),
        Legacy::Known(known) => decode_in(bytes, known).or_else(|| decode_legacy(bytes)),
    }
}

/// [`decode`] of a file's bytes without copying them, for the usual file: UTF-8 without a
/// byte-order mark. Any other file gets its bytes back, for [`decode`].
pub(crate) fn decode_plain_utf8(bytes: Vec<u8>) -> Result<String, Vec<u8>> {
    if bytes.starts_with(UTF8_BOM) {
        return Err(bytes);
    }
    // (The other marks start with `FF` or `FE`, which UTF-8 never has.)
    String::from_utf8(bytes).map_err(std::string::FromUtf8Error::into_bytes)
}

/// [`decode`]'s text, borrowed from `bytes` when they are plain UTF-8 (no byte-order mark).
pub(crate) fn decode_borrowed(bytes: &[u8], legacy: Legacy) -> Option<Cow<'_, str>> {
    if !bytes.starts_with(UTF8_BOM)
        && let Ok(text) = std::str::from_utf8(bytes)
    {
        return Some(Cow::Borrowed(text));
    }
    decode(bytes, legacy).map(|(_, text)| Cow::Owned(text))
}

/// Decodes `bytes` in a Unicode encoding (by its BOM, else UTF-8).
fn decode_unicode(bytes: &[u8]) -> Option<(Encoding, String)> {
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

/// Decodes `bytes` in the legacy encoding the detector names, if they look like text and make
/// the round trip exactly.
fn decode_legacy(bytes: &[u8]) -> Option<(Encoding, String)> {
    if looks_binary(bytes) {
        return None;
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let guessed = detector.guess(None, chardetng::Utf8Detection::Deny);
    decode_in(bytes, LegacyEncoding::for_label(guessed.name())?)
}

/// Decodes `bytes` in `legacy` when every byte decodes and the text encodes back to them.
fn decode_in(bytes: &[u8], legacy: LegacyEncoding) -> Option<(Encoding, String)> {
    let text = legacy
        .0
        .decode_without_bom_handling_and_without_replacement(bytes)?
        .into_owned();
    let encoding = Encoding::Legacy(legacy);
    (encode(encoding, &text).ok()? == bytes).then_some((encoding, text))
}

/// Whether `bytes` look like a binary file rather than text: a NUL byte, or more than one
/// control character (other than tab, line feed, form feed, carriage return and escape) in 20.
fn looks_binary(bytes: &[u8]) -> bool {
    if memchr::memchr(0, bytes).is_some() {
        return true;
    }
    let controls = bytes
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | 0x1B))
        .count();
    controls * 20 > bytes.len()
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

/// `text` in `encoding`, with its BOM; `Err` with the first character a legacy encoding cannot
/// represent.
pub(crate) fn encode(encoding: Encoding, text: &str) -> Result<Vec<u8>, char> {
    Ok(match encoding {
        Encoding::Utf8 => text.as_bytes().to_vec(),
        Encoding::Utf8Bom => [UTF8_BOM, text.as_bytes()].concat(),
        Encoding::Utf16Le => bom_and_units(b"\xFF\xFE", text, u16::to_le_bytes),
        Encoding::Utf16Be => bom_and_units(b"\xFE\xFF", text, u16::to_be_bytes),
        Encoding::Legacy(legacy) => encode_legacy(legacy, text)?,
    })
}

/// `text` in a legacy encoding, or the first character it cannot represent.
fn encode_legacy(legacy: LegacyEncoding, text: &str) -> Result<Vec<u8>, char> {
    use encoding_rs::EncoderResult;
    let mut encoder = legacy.0.new_encoder();
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    let mut piece = [0u8; 8192];
    loop {
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(rest, &mut piece, true);
        out.extend_from_slice(&piece[..written]);
        rest = &rest[read..];
        match result {
            EncoderResult::InputEmpty => return Ok(out),
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(c) => return Err(c),
        }
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

/// The `\n` view of `text`: every `\r\n` written `\n` (`text` itself when it has no `\r`: no
/// copy of a large file for the common case).
pub(crate) fn normalize(text: &str) -> Cow<'_, str> {
    if memchr::memchr(b'\r', text.as_bytes()).is_none() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.replace("\r\n", "\n"))
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
pub(crate) fn restore_endings(original: &str, new_view: String) -> String {
    if memchr::memmem::find(original.as_bytes(), b"\r\n").is_none() {
        // Only `\n` endings: the view is the text.
        return new_view;
    }
    let old = lines(original);
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
            let (got, text) = decode(bytes, Legacy::Detect).expect("supported");
            assert_eq!(got, encoding);
            assert_eq!(encode(encoding, &text), Ok(bytes.to_vec()));
        }
    }

    #[test]
    fn lossy_encodings_are_refused() {
        for bytes in [
            &b"\xFF\xFE\x00\x00a\x00\x00\x00"[..],
            b"\xFF\xFEa",
            b"\xFF\xFE\x00\xD8",
            b"\xEF\xBB\xBF\xFF",
            // Binary: a NUL, or many control bytes.
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            b"\x01\x02\x03\x04\xE9\x05\x06",
        ] {
            assert_eq!(decode(bytes, Legacy::Detect), None, "{bytes:?}");
        }
        assert_eq!(decode(b"caf\xE9\n", Legacy::Refuse), None);
    }

    fn legacy(label: &str) -> Encoding {
        Encoding::Legacy(LegacyEncoding::for_label(label).expect(label))
    }

    #[test]
    fn legacy_encodings_are_detected_and_round_trip() {
        let cases: [(&[u8], &str); 5] = [
            (b"caf\xE9 cr\xE8me br\xFBl\xE9e\n", "windows-1252"),
            (
                "// Привет, мир! Это пример текста в кодировке windows-1251.\nfn main() {}\n"
                    .as_bytes(),
                "windows-1251",
            ),
            (
                "# 日本語のコメントです。これはテストファイルです。\nprint('こんにちは')\n"
                    .as_bytes(),
                "Shift_JIS",
            ),
            (
                "// 这是一个简体中文的注释，用于测试编码检测。\nint main() { return 0; }\n"
                    .as_bytes(),
                "GBK",
            ),
            ("plain ascii\n".as_bytes(), "utf-8"),
        ];
        for (utf8, name) in cases {
            let text = std::str::from_utf8(utf8).unwrap_or("");
            let bytes: Vec<u8> = if name == "windows-1252" || name == "utf-8" {
                utf8.to_vec()
            } else {
                encode(legacy(name), text).expect("representable")
            };
            let (encoding, decoded) = decode(&bytes, Legacy::Detect).expect(name);
            assert_eq!(encoding.as_str(), name);
            assert_eq!(encode(encoding, &decoded), Ok(bytes.clone()));
            if name != "windows-1252" {
                assert_eq!(decoded, text);
            }
        }
    }

    #[test]
    fn unrepresentable_characters_are_named() {
        assert_eq!(encode(legacy("cp1251"), "ok ✓ x"), Err('✓'));
        assert_eq!(encode(legacy("latin1"), "é"), Ok(vec![0xE9]));
        assert!(LegacyEncoding::for_label("utf-8").is_none());
        assert!(LegacyEncoding::for_label("iso-2022-jp").is_none());
        assert!(LegacyEncoding::for_label("no such").is_none());
        assert_eq!(legacy("cp1251").as_str(), "windows-1251");
    }

    #[test]
    fn untouched_lines_keep_their_endings() {
        let original = "a\r\nb\nc\r\nd";
        let view = normalize(original);
        assert_eq!(view, "a\nb\nc\nd");
        assert_eq!(restore_endings(original, view.into_owned()), original);
        assert_eq!(
            restore_endings(original, "a\nB\nc\nd".to_owned()),
            "a\r\nB\nc\r\nd"
        );
        // An inserted line between untouched ones takes the file's most common ending.
        assert_eq!(
            restore_endings(original, "a\nb\nx\nc\nd".to_owned()),
            "a\r\nb\nx\r\nc\r\nd"
        );
        // Editing the last line may add a final line ending.
        assert_eq!(
            restore_endings(original, "a\nb\nc\nD\n".to_owned()),
            "a\r\nb\nc\r\nD\r\n"
        );
        assert_eq!(restore_endings("a\r\nb\r\n", "a\nb".to_owned()), "a\r\nb");
    }
}

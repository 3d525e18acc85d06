//! Line keys of the `native` tiers: what each tier ignores, as functions of one line.
//!
//! Every key is a function of the stricter ones, so lines equal under a strict tier are equal
//! under every looser tier; the loosest, [`loose_hash`], is what the file index stores, and
//! its candidates are a superset of every line-preserving tier's matches.

use std::hash::Hasher;

use rustc_hash::FxHasher;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// The typographic stand-in of `c`, folded to ASCII: curly quotes, dashes, the ellipsis and
/// exotic spaces. `None` for a zero-width character, which folds to nothing.
fn fold_char(c: char) -> Option<Folded> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{FF07}' => {
            Folded::Char('\'')
        }
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{FF02}' => {
            Folded::Char('"')
        }
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => {
            Folded::Char('-')
        }
        '\u{2026}' => Folded::Str("..."),
        '\u{00A0}'
        | '\u{1680}'
        | '\u{2000}'..='\u{200A}'
        | '\u{202F}'
        | '\u{205F}'
        | '\u{3000}' => Folded::Char(' '),
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => return None,
        c => Folded::Char(c),
    })
}

enum Folded {
    Char(char),
    Str(&'static str),
}

/// Appends `s` in Unicode normalization form C (so precomposed and decomposed accents are the
/// same: `é` and `e` + U+0301), with typographic punctuation folded to ASCII and every run of
/// dashes (ASCII or typographic) collapsed to one `-`, since models write `—` as `-` or `--`
/// and back. With `drop_space`, whitespace is dropped too (the loose key).
pub(crate) fn fold_into(s: &str, drop_space: bool, out: &mut String) {
    let mut in_dashes = false;
    let mut push = |c: char, out: &mut String| {
        if c == '-' {
            if in_dashes {
                return;
            }
            in_dashes = true;
        } else {
            in_dashes = false;
        }
        if !(drop_space && c.is_whitespace()) {
            out.push(c);
        }
    };
    let mut fold = |c: char| match fold_char(c) {
        None => {}
        Some(Folded::Char(c)) => push(c, out),
        Some(Folded::Str(t)) => t.chars().for_each(|c| push(c, out)),
    };
    if s.is_ascii() || is_nfc_quick(s.chars()) == IsNormalized::Yes {
        s.chars().for_each(&mut fold);
    } else {
        s.nfc().for_each(&mut fold);
    }
}

/// `fold(trim(line))`: the key of the punctuation tier (indentation is compared separately).
pub(crate) fn fold_trimmed(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    fold_into(line.trim(), false, &mut out);
    out
}

/// The loosest line key: folded, dash runs collapsed, all whitespace removed. Blank lines hash
/// to [`BLANK`]. ASCII lines (the common case) are hashed in one pass without copying.
pub(crate) fn loose_hash(line: &str, buf: &mut String) -> u64 {
    let mut h = KeyHasher::default();
    if line.is_ascii() {
        let mut in_dashes = false;
        for &b in line.as_bytes() {
            if b == b'-' {
                if in_dashes {
                    continue;
                }
                in_dashes = true;
            } else {
                in_dashes = false;
            }
            if !b.is_ascii_whitespace() && b != b'\x0b' {
                h.push(b);
            }
        }
    } else {
        buf.clear();
        fold_into(line, true, buf);
        buf.bytes().for_each(|b| h.push(b));
    }
    h.finish()
}

/// A hash of a byte string fed one byte at a time, mixing eight bytes at once (FxHash's mix).
#[derive(Default)]
struct KeyHasher {
    h: u64,
    word: u64,
    filled: u32,
    len: u64,
}

impl KeyHasher {
    #[inline]
    fn push(&mut self, b: u8) {
        self.word |= u64::from(b) << (8 * self.filled);
        self.filled += 1;
        if self.filled == 8 {
            self.mix();
        }
    }

    #[inline]
    fn mix(&mut self) {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        self.h = (self.h.rotate_left(26) ^ self.word).wrapping_mul(K);
        self.len += u64::from(self.filled);
        self.word = 0;
        self.filled = 0;
    }

    fn finish(mut self) -> u64 {
        if self.filled > 0 {
            self.mix();
        }
        if self.len == 0 {
            return BLANK;
        }
        let mut h = FxHasher::default();
        h.write_u64(self.h);
        h.write_u64(self.len);
        h.finish() | 1
    }
}

/// The loose hash of a blank line (every other hash is odd).
pub(crate) const BLANK: u64 = 0;

/// The leading run of spaces and tabs of a line.
pub(crate) fn indent_of(line: &str) -> &str {
    let n = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..n]
}

/// A read-tool line-number prefix (`12 | `, `  12 | `, `cat -n`'s `    12\t`, `12→`): the
/// number and the rest of the line.
pub(crate) fn split_line_number(line: &str) -> Option<(usize, &str)> {
    let rest = line.trim_start_matches(' ');
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 9 {
        return None;
    }
    let number = rest[..digits].parse().ok()?;
    let after = &rest[digits..];
    let content = if let Some(c) = after.strip_prefix(" | ") {
        c
    } else if after == " |" {
        ""
    } else if let Some(c) = after.strip_prefix('\t') {
        c
    } else {
        after.strip_prefix('→')?
    };
    Some((number, content))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loose(s: &str) -> u64 {
        loose_hash(s, &mut String::new())
    }

    #[test]
    fn loose_key_ignores_whitespace_and_typography() {
        assert_eq!(loose("  a = “b” — c…"), loose("a=\"b\" -- c..."));
        assert_eq!(loose("it’s\u{A0}x"), loose("it's x"));
        assert_eq!(loose("a - b"), loose("a — b"));
        assert_ne!(loose("a == b"), loose("a != b"));
        assert_eq!(loose(" \t "), BLANK);
        assert_eq!(loose("\u{A0}"), BLANK);
        assert_ne!(loose("x"), BLANK);
        assert_eq!(loose("# café"), loose("# cafe\u{301}"));
        assert_eq!(
            fold_trimmed(" Ångström "),
            fold_trimmed("A\u{30A}ngstro\u{308}m")
        );
    }

    #[test]
    fn ascii_fast_path_agrees_with_folding() {
        for s in [
            "a -- b",
            "  x\t= y ",
            "---",
            "a-b--c",
            "a fairly long line of code();",
        ] {
            let mut slow = String::new();
            fold_into(s, true, &mut slow);
            let mut h = KeyHasher::default();
            slow.bytes().for_each(|b| h.push(b));
            assert_eq!(loose(s), h.finish(), "{s:?}");
        }
        assert_ne!(loose("abcdefgh"), loose("abcdefgh\0"));
    }

    #[test]
    fn line_number_prefixes() {
        assert_eq!(split_line_number("  12 | \tx"), Some((12, "\tx")));
        assert_eq!(split_line_number("12 | "), Some((12, "")));
        assert_eq!(split_line_number("12 |"), Some((12, "")));
        assert_eq!(split_line_number("    12\tfoo"), Some((12, "foo")));
        assert_eq!(split_line_number("    7→  bar"), Some((7, "  bar")));
        assert_eq!(split_line_number("12. item"), None);
        assert_eq!(split_line_number("x | y"), None);
    }
}

//! [`Narrowing`]: a `str_replace`'s `old_str` looked for while it streams. Once enough of it
//! has arrived that it occurs in few places, those places are kept and each push drops the
//! ones the new text rules out, so the push that completes `old_str` places the edit without
//! searching the file (a large file's search happens once, early, on a shorter prefix).
//!
//! It gives exactly what [`place_replacement`](super::editor) gives the complete `old_str`:
//! every occurrence (overlapping ones too) of `old_str`, written with `\r\n`s in a file whose
//! lines end so and when `old_str` has no `\r`; one occurrence places the edit.

use memchr::memmem;

use super::args::{ArgsReader, MemberCursor};

/// How long the received part of `old_str` must be before the file is searched for it.
const FIRST_SEARCH: usize = 16;
/// How many places are kept; more and the search waits until the part is twice as long.
const MOST_PLACES: usize = 64;

/// `old_str` while it streams, and the places in the file where it may be.
#[derive(Debug)]
pub(super) struct Narrowing {
    /// The file, read when `old_str` started.
    text: String,
    /// `old_str`'s member, and how much of it was taken.
    cursor: MemberCursor,
    /// The file's lines end in `\r\n`: `old_str`'s `\n`s are looked for as `\r\n`.
    crlf: bool,
    /// What was received of `old_str`, as it is looked for.
    needle: String,
    /// Where `needle` starts in `text` (every place), once it was searched for.
    places: Option<Vec<usize>>,
    /// How long `needle` must be for the next search.
    search_at: usize,
    /// The places cannot be trusted (`old_str` has a `\r` in a `\r\n` file, so it is looked
    /// for as it is, or its key came twice): the complete `old_str` is searched for instead.
    lost: bool,
}

/// Where a complete `old_str` is.
pub(super) enum Found {
    /// At these bytes of the file, its only place.
    Once { text: String, at: usize, end: usize },
    /// Nowhere, or in more than one place.
    NotOnce,
    /// Not known from the places kept: search the file.
    Search(String),
}

impl Narrowing {
    /// Starts looking for the member `key` in `text`, the file (`crlf`: its lines end in
    /// `\r\n`).
    pub(super) fn new(text: String, crlf: bool, key: &'static [&'static str]) -> Narrowing {
        Narrowing {
            text,
            cursor: MemberCursor::new(key),
            crlf,
            needle: String::new(),
            places: None,
            search_at: FIRST_SEARCH,
            lost: false,
        }
    }

    /// Takes in what `old_str` gained: appends it to the needle and drops the places it rules
    /// out (or, once the needle is long enough, searches the file for it).
    pub(super) fn feed(&mut self, args: &ArgsReader) {
        if self.lost {
            return;
        }
        let Some(piece) = self.cursor.take(args) else {
            self.lost = true;
            return;
        };
        if piece.is_empty() {
            return;
        }
        if self.crlf && piece.contains('\r') {
            self.lost = true;
            return;
        }
        let from = self.needle.len();
        if self.crlf {
            self.needle.push_str(&piece.replace('\n', "\r\n"));
        } else {
            self.needle.push_str(piece);
        }
        match &mut self.places {
            Some(places) => {
                let added = &self.needle.as_bytes()[from..];
                let text = self.text.as_bytes();
                places.retain(|&at| text.get(at + from..at + from + added.len()) == Some(added));
            }
            None if self.needle.len() >= self.search_at => {
                let places = occurrences(&self.text, &self.needle, MOST_PLACES);
                match places {
                    Some(places) => self.places = Some(places),
                    None => self.search_at = 2 * self.needle.len(),
                }
            }
            None => {}
        }
    }

    /// Whether the next piece may make it search the file (its places are not known yet).
    pub(super) fn searching(&self) -> bool {
        !self.lost && self.places.is_none()
    }

    /// Where `old`, the complete `old_str`, is, from the places kept.
    pub(super) fn found(self, old: &str) -> Found {
        let unchanged = !self.lost && {
            let written = if self.crlf {
                old.replace('\n', "\r\n")
            } else {
                old.to_owned()
            };
            written == self.needle
        };
        match self.places {
            Some(places) if unchanged => match places.as_slice() {
                [at] => {
                    let end = at + self.needle.len();
                    Found::Once {
                        at: *at,
                        end,
                        text: self.text,
                    }
                }
                _ => Found::NotOnce,
            },
            _ => Found::Search(self.text),
        }
    }
}

/// Every start of `needle` in `text`, overlapping ones included, or `None` if there are more
/// than `most`.
fn occurrences(text: &str, needle: &str, most: usize) -> Option<Vec<usize>> {
    let finder = memmem::Finder::new(needle.as_bytes());
    let bytes = text.as_bytes();
    let mut places = Vec::new();
    let mut from = 0;
    while let Some(found) = finder.find(&bytes[from..]) {
        if places.len() == most {
            return None;
        }
        places.push(from + found);
        // The next place may overlap this one: it starts at this one's next character.
        from += found
            + text[from + found..]
                .chars()
                .next()
                .map_or(1, char::len_utf8);
    }
    Some(places)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `file` and the call `{"old_str": old}` pushed one byte at a time: the narrowing's
    /// answer, and whether it had searched before `old_str` was complete.
    fn follow(file: &str, old: &str) -> (Found, bool) {
        let json = serde_json::json!({ "old_str": old }).to_string();
        let mut args = ArgsReader::default();
        let crlf = file.contains("\r\n");
        let mut narrowing = Narrowing::new(file.to_owned(), crlf, &["old_str"]);
        let mut searched_early = false;
        for i in 0..json.len() {
            if !json.is_char_boundary(i) {
                continue;
            }
            let next = (i + 1..=json.len())
                .find(|&j| json.is_char_boundary(j))
                .unwrap_or(json.len());
            args.push(&json[i..next]);
            narrowing.feed(&args);
            if !args.is_complete() && narrowing.places.is_some() && !narrowing.lost {
                searched_early = true;
            }
        }
        (narrowing.found(old), searched_early)
    }

    fn once(found: Found) -> Option<(usize, usize)> {
        match found {
            Found::Once { at, end, .. } => Some((at, end)),
            _ => None,
        }
    }

    #[test]
    fn a_long_old_str_is_placed_from_the_places_kept() {
        let file =
            "fn a() {\n    let value = compute(1);\n}\nfn b() {\n    let value = compute(2);\n}\n";
        let (found, early) = follow(file, "    let value = compute(2);\n");
        assert!(early);
        let at = file.find("    let value = compute(2)").unwrap();
        assert_eq!(
            once(found),
            Some((at, at + "    let value = compute(2);\n".len()))
        );
        // Two places left: not placed; none: not placed.
        let (found, _) = follow(file, "    let value = compute(");
        assert!(matches!(found, Found::NotOnce));
        let (found, _) = follow(file, "    let value = compute(3);");
        assert!(matches!(found, Found::NotOnce));
    }

    #[test]
    fn crlf_files_short_old_strs_and_stray_returns_take_the_search() {
        let crlf = "first line here\r\nsecond line here\r\nthird line here\r\n";
        let (found, _) = follow(crlf, "first line here\nsecond line here\n");
        assert_eq!(
            once(found),
            Some((0, "first line here\r\nsecond line here\r\n".len()))
        );
        // A `\r` in `old_str`: looked for as it is, by the search at completion.
        let (found, _) = follow(crlf, "first line here\r\nsecond");
        assert!(matches!(found, Found::Search(_)));
        // Too short to have searched: the search at completion.
        let (found, early) = follow(crlf, "third");
        assert!(!early && matches!(found, Found::Search(_)));
    }

    #[test]
    fn a_prefix_in_too_many_places_waits_for_more() {
        let file: String = (0..200)
            .map(|i| format!("    value = compute({i}, request)\n"))
            .collect();
        let old = "    value = compute(150, request)\n";
        let (found, early) = follow(&file, old);
        assert!(early);
        let at = file.find(old).unwrap();
        assert_eq!(once(found), Some((at, at + old.len())));
    }

    #[test]
    fn overlapping_places_count_and_too_many_wait() {
        assert_eq!(occurrences("aaaa", "aa", 8), Some(vec![0, 1, 2]));
        assert_eq!(occurrences("éaéa", "éa", 8), Some(vec![0, 3]));
        assert_eq!(occurrences("abc", "x", 8), Some(vec![]));
        assert_eq!(occurrences("aaaa", "a", 3), None);
    }
}

//! Recognising SEARCH/REPLACE marker lines incrementally.
//!
//! Cline's grammar, tested against a whole line split on `\n` only (so a `\r` makes a line a
//! non-marker):
//!
//! ```text
//! search-start  = ( "-"{3,} | "<"{3,} ) " SEARCH" [">"]
//! separator     = "="{3,}
//! replace-end   = ( "+"{3,} | ">"{3,} ) " REPLACE" [">"]
//! canonical     = "------- SEARCH" | "=======" | "+++++++ REPLACE"
//! ```
//!
//! A [`MarkerScanner`] is fed a line in pieces of any size (a streamed line arrives a few bytes
//! at a time) and answers at any point which marker the text so far is, in constant time per
//! byte; it stops looking once the line can no longer be a marker.

/// The three marker lines of a SEARCH/REPLACE block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Marker {
    /// `------- SEARCH`: a block starts.
    SearchStart,
    /// `=======`: the SEARCH part ends and the REPLACE part starts.
    Separator,
    /// `+++++++ REPLACE`: the block ends.
    ReplaceEnd,
}

impl Marker {
    fn word(self) -> &'static [u8] {
        match self {
            Marker::SearchStart => b" SEARCH",
            Marker::Separator => b"",
            Marker::ReplaceEnd => b" REPLACE",
        }
    }
}

/// Where the scanner is in the grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum State {
    /// Nothing fed yet.
    #[default]
    Empty,
    /// A run of `count` copies of `ch`.
    Run { ch: u8, count: usize },
    /// After the run, `matched` bytes of the marker's word (` SEARCH` / ` REPLACE`).
    Word {
        marker: Marker,
        ch: u8,
        count: usize,
        matched: usize,
    },
    /// A complete word followed by `>`.
    Closed { marker: Marker },
    /// The text can no longer be a marker.
    Dead,
}

/// Incremental recogniser of one line against the marker grammar.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MarkerScanner {
    state: State,
    first: Option<u8>,
}

impl MarkerScanner {
    /// Scans a whole line at once.
    #[cfg(test)]
    pub(crate) fn of(line: &str) -> Self {
        let mut scanner = MarkerScanner::default();
        scanner.feed(line);
        scanner
    }

    /// Feeds the next piece of the line (which must not contain `\n`).
    pub(crate) fn feed(&mut self, piece: &str) {
        for &b in piece.as_bytes() {
            if self.state == State::Dead {
                return;
            }
            self.step(b);
        }
    }

    fn step(&mut self, b: u8) {
        self.state = match self.state {
            State::Empty => {
                self.first = Some(b);
                match b {
                    b'-' | b'<' | b'=' | b'+' | b'>' => State::Run { ch: b, count: 1 },
                    _ => State::Dead,
                }
            }
            State::Run { ch, count } if b == ch => State::Run {
                ch,
                count: count + 1,
            },
            State::Run { ch, count } if b == b' ' && count >= 3 && ch != b'=' => State::Word {
                marker: if ch == b'-' || ch == b'<' {
                    Marker::SearchStart
                } else {
                    Marker::ReplaceEnd
                },
                ch,
                count,
                matched: 1,
            },
            State::Word {
                marker,
                ch,
                count,
                matched,
            } => {
                let word = marker.word();
                if matched < word.len() && word[matched] == b {
                    State::Word {
                        marker,
                        ch,
                        count,
                        matched: matched + 1,
                    }
                } else if matched == word.len() && b == b'>' {
                    State::Closed { marker }
                } else {
                    State::Dead
                }
            }
            _ => State::Dead,
        };
    }

    /// The marker the text so far is, by Cline's regular expressions.
    pub(crate) fn marker(&self) -> Option<Marker> {
        match self.state {
            State::Run { ch: b'=', count } if count >= 3 => Some(Marker::Separator),
            State::Word {
                marker, matched, ..
            } if matched == marker.word().len() => Some(marker),
            State::Closed { marker } => Some(marker),
            _ => None,
        }
    }

    /// The marker the text so far is, if it is exactly one of the canonical spellings (Cline v2
    /// decides whether to drop an incomplete last line this way).
    pub(crate) fn canonical_marker(&self) -> Option<Marker> {
        match self.state {
            State::Run { ch: b'=', count: 7 } => Some(Marker::Separator),
            State::Word {
                marker,
                ch,
                count: 7,
                matched,
            } if matched == marker.word().len()
                && (ch == b'-' && marker == Marker::SearchStart
                    || ch == b'+' && marker == Marker::ReplaceEnd) =>
            {
                Some(marker)
            }
            _ => None,
        }
    }

    /// Whether the line starts with a character that begins some marker (`-`, `<`, `=`, `+`,
    /// `>`): Cline drops such an incomplete last line unless it is a marker.
    pub(crate) fn starts_like_marker(&self) -> bool {
        matches!(self.first, Some(b'-' | b'<' | b'=' | b'+' | b'>'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(line: &str) -> Option<Marker> {
        MarkerScanner::of(line).marker()
    }

    #[test]
    fn recognises_cline_spellings() {
        use Marker::*;
        for (line, want) in [
            ("------- SEARCH", Some(SearchStart)),
            ("--- SEARCH>", Some(SearchStart)),
            ("<<<<<<< SEARCH", Some(SearchStart)),
            ("-- SEARCH", None),
            ("------- SEARCH ", None),
            ("------- SEARCH\r", None),
            ("------- search", None),
            ("-------  SEARCH", None),
            ("------- SEARCH>>", None),
            ("-<- SEARCH", None),
            ("===", Some(Separator)),
            ("==", None),
            ("=======\r", None),
            ("==== SEARCH", None),
            ("+++++++ REPLACE", Some(ReplaceEnd)),
            (">>> REPLACE>", Some(ReplaceEnd)),
            ("+++ SEARCH", None),
            ("--- REPLACE", None),
            ("", None),
        ] {
            assert_eq!(marker(line), want, "{line:?}");
        }
    }

    #[test]
    fn canonical_only_for_the_exact_strings() {
        assert_eq!(
            MarkerScanner::of("------- SEARCH").canonical_marker(),
            Some(Marker::SearchStart)
        );
        assert_eq!(
            MarkerScanner::of("=======").canonical_marker(),
            Some(Marker::Separator)
        );
        assert_eq!(
            MarkerScanner::of("+++++++ REPLACE").canonical_marker(),
            Some(Marker::ReplaceEnd)
        );
        for line in [
            "<<<<<<< SEARCH",
            "------- SEARCH>",
            "======",
            ">>>>>>> REPLACE",
            "+++++++ REPLACE>",
        ] {
            assert_eq!(MarkerScanner::of(line).canonical_marker(), None, "{line}");
        }
    }

    #[test]
    fn piecewise_feeding_equals_whole() {
        let line = "<<<<<<< SEARCH>";
        for split in 0..=line.len() {
            let mut s = MarkerScanner::default();
            s.feed(&line[..split]);
            s.feed(&line[split..]);
            assert_eq!(s.marker(), marker(line));
        }
    }
}

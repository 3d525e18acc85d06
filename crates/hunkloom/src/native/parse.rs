//! Reading a `native` diff, one complete line at a time.
//!
//! ```text
//! block        = search-start preamble* content* separator content* replace-end
//! search-start = ( "-"{3,} | "<"{3,} ) " SEARCH" [">"]        Cline, aider, Roo
//! separator    = "="{3,}
//! replace-end  = ( "+"{3,} | ">"{3,} ) " REPLACE" [">"]
//! preamble     = ":start_line:" N | ":end_line:" N | "-------"  Roo, right after search-start
//! ```
//!
//! Marker lines may end in `\r` (CRLF diffs) and trailing whitespace. A content line that is a
//! marker (or a Roo preamble line) preceded by `\` is Roo's escape: the backslash is dropped.
//! Lines outside blocks (chatter, code fences, file names) are ignored; a separator or
//! REPLACE marker outside a block, or markers out of order inside one, make the block malformed.
//! A diff that ends inside a block (a response cut off) makes that block incomplete.

use crate::blocks::{Marker, MarkerScanner};

use super::search_text::SearchText;

/// What a complete diff line did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// Block `block`'s SEARCH part is complete.
    SearchReady {
        block: usize,
        search: SearchText,
        hint: Option<usize>,
    },
    /// A line of block `block`'s REPLACE part.
    ReplaceLine { block: usize, line: String },
    /// Block `block` ended with its REPLACE marker.
    BlockEnd { block: usize },
    /// Block `block` cannot be read.
    Malformed { block: usize, why: String },
    /// The diff ended inside block `block` (a response cut off): `why` says where.
    Incomplete { block: usize, why: String },
}

#[derive(Clone, Debug, Default)]
enum State {
    #[default]
    Outside,
    Search {
        block: usize,
        /// Still right after the SEARCH marker, where Roo's preamble lines may appear.
        preamble: bool,
        hinted: bool,
        hint: Option<usize>,
        search: SearchText,
    },
    Replace {
        block: usize,
    },
}

/// The block structure of a diff, fed complete lines.
#[derive(Clone, Debug, Default)]
pub(crate) struct Parser {
    state: State,
    blocks: usize,
    line_no: usize,
}

impl Parser {
    /// The block whose REPLACE part is open, if any.
    pub(crate) fn replacing(&self) -> Option<usize> {
        match self.state {
            State::Replace { block } => Some(block),
            _ => None,
        }
    }

    /// Feeds one complete line without its `\n`.
    pub(crate) fn line(&mut self, raw: &str) -> Option<Event> {
        self.line_no += 1;
        let (line, eol) = match raw.strip_suffix('\r') {
            Some(l) => (l, "\r\n"),
            None => (raw, "\n"),
        };
        let marker = marker(line);
        match std::mem::take(&mut self.state) {
            State::Outside => match marker {
                Some(Marker::SearchStart) => {
                    self.start_block();
                    None
                }
                Some(m) => {
                    self.blocks += 1;
                    Some(
                        self.malformed(self.blocks - 1, format!("{} outside a block", describe(m))),
                    )
                }
                None => None,
            },
            State::Search {
                block,
                preamble,
                hinted,
                hint,
                mut search,
            } => {
                if preamble && marker.is_none() {
                    let t = line.trim_end();
                    if let Some(n) = number_after(t, ":start_line:") {
                        self.state = State::Search {
                            block,
                            preamble,
                            hinted: true,
                            hint: Some(n),
                            search,
                        };
                        return None;
                    }
                    if number_after(t, ":end_line:").is_some() {
                        self.state = State::Search {
                            block,
                            preamble,
                            hinted: true,
                            hint,
                            search,
                        };
                        return None;
                    }
                    let dashes = !t.is_empty() && t.bytes().all(|b| b == b'-');
                    if dashes && (t.len() == 7 || hinted && t.len() >= 3) {
                        self.state = State::Search {
                            block,
                            preamble: false,
                            hinted,
                            hint,
                            search,
                        };
                        return None;
                    }
                }
                match marker {
                    Some(Marker::Separator) => {
                        self.state = State::Replace { block };
                        Some(Event::SearchReady {
                            block,
                            search,
                            hint,
                        })
                    }
                    Some(Marker::SearchStart) => {
                        self.start_block();
                        Some(self.malformed(block, "a new SEARCH marker before \"=======\"".into()))
                    }
                    Some(Marker::ReplaceEnd) => {
                        Some(self.malformed(block, "the REPLACE marker before \"=======\"".into()))
                    }
                    None => {
                        search.lines.push(unescape(line).to_owned());
                        search.eols.push(eol);
                        self.state = State::Search {
                            block,
                            preamble: false,
                            hinted,
                            hint,
                            search,
                        };
                        None
                    }
                }
            }
            State::Replace { block } => match marker {
                Some(Marker::ReplaceEnd) => Some(Event::BlockEnd { block }),
                Some(Marker::SearchStart) => {
                    self.start_block();
                    Some(self.malformed(
                        block,
                        "a new SEARCH marker before its REPLACE marker".into(),
                    ))
                }
                Some(Marker::Separator) => {
                    Some(self.malformed(block, "a second \"=======\" in the block".into()))
                }
                None => {
                    self.state = State::Replace { block };
                    Some(Event::ReplaceLine {
                        block,
                        line: unescape(line).to_owned(),
                    })
                }
            },
        }
    }

    /// Ends the diff: an open block is incomplete.
    pub(crate) fn finish(&mut self) -> Option<Event> {
        let (block, why) = match std::mem::take(&mut self.state) {
            State::Outside => return None,
            State::Search { block, .. } => (block, "before its \"=======\""),
            State::Replace { block } => (block, "before its REPLACE marker"),
        };
        Some(Event::Incomplete {
            block,
            why: format!("{why} (diff line {})", self.line_no),
        })
    }

    fn start_block(&mut self) {
        self.state = State::Search {
            block: self.blocks,
            preamble: true,
            hinted: false,
            hint: None,
            search: SearchText::default(),
        };
        self.blocks += 1;
    }

    fn malformed(&self, block: usize, what: String) -> Event {
        Event::Malformed {
            block,
            why: format!("{what} (diff line {})", self.line_no),
        }
    }
}

/// The marker a line is (any spelling, trailing whitespace allowed).
pub(crate) fn marker(line: &str) -> Option<Marker> {
    let mut scanner = MarkerScanner::default();
    scanner.feed(line.trim_end());
    scanner.marker()
}

fn describe(marker: Marker) -> &'static str {
    match marker {
        Marker::SearchStart => "a SEARCH marker",
        Marker::Separator => "\"=======\"",
        Marker::ReplaceEnd => "a REPLACE marker",
    }
}

/// `N` from `<prefix>N` (spaces allowed around `N`).
fn number_after(line: &str, prefix: &str) -> Option<usize> {
    line.strip_prefix(prefix)?.trim().parse().ok()
}

/// Roo's escaped marker lines (`\=======`, `\<<<<<<< SEARCH`, `\:start_line:`, `\-------`)
/// without the backslash; every other line as it is.
fn unescape(line: &str) -> &str {
    match line.strip_prefix('\\') {
        Some(rest)
            if marker(rest).is_some()
                || rest.starts_with(":start_line:")
                || rest.starts_with(":end_line:")
                || rest.trim_end() == "-------" =>
        {
            rest
        }
        _ => line,
    }
}

/// Whether an incomplete line could still turn out to be a marker (or an escaped one), so a
/// preview does not show it yet.
pub(crate) fn could_be_marker(partial: &str) -> bool {
    let p = partial.strip_prefix('\\').unwrap_or(partial);
    let Some(c) = p.chars().next() else {
        return partial.starts_with('\\');
    };
    if !matches!(c, '-' | '<' | '=' | '+' | '>') {
        return false;
    }
    let rest = p.trim_start_matches(c).trim_end();
    if rest.is_empty() {
        return true;
    }
    match c {
        '-' | '<' => " SEARCH>".starts_with(rest),
        '+' | '>' => " REPLACE>".starts_with(rest),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(diff: &str) -> Vec<Event> {
        let mut p = Parser::default();
        let mut out: Vec<Event> = diff.lines().filter_map(|l| p.line(l)).collect();
        out.extend(p.finish());
        out
    }

    #[test]
    fn every_marker_spelling() {
        for diff in [
            "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n",
            "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n",
            "<<<<< SEARCH>\r\na\r\n=========\r\nb\r\n>>>>>>>>> REPLACE>\r\n",
            "chatter\n```rust\n<<<<<<< SEARCH\n:start_line:3\n-------\na\n=======\nb\n>>>>>>> REPLACE\n```\n",
        ] {
            let ev = events(diff);
            assert_eq!(ev.len(), 3, "{diff:?}: {ev:?}");
            let Event::SearchReady { search, .. } = &ev[0] else {
                panic!("{ev:?}")
            };
            assert_eq!(search.lines, vec!["a"]);
            assert_eq!(
                ev[1],
                Event::ReplaceLine {
                    block: 0,
                    line: "b".into()
                }
            );
        }
    }

    #[test]
    fn hints_escapes_and_errors() {
        let ev = events(
            "<<<<<<< SEARCH\n:start_line:12\n-------\n\\=======\n=======\n\\>>>>>>> REPLACE\n>>>>>>> REPLACE\n",
        );
        assert_eq!(
            ev[0],
            Event::SearchReady {
                block: 0,
                search: SearchText {
                    lines: vec!["=======".into()],
                    eols: vec!["\n"]
                },
                hint: Some(12)
            }
        );
        assert!(matches!(&ev[1], Event::ReplaceLine { line, .. } if line == ">>>>>>> REPLACE"));
        let ev = events("=======\n------- SEARCH\na\n+++++++ REPLACE\n------- SEARCH\nb\n");
        assert!(matches!(ev[0], Event::Malformed { block: 0, .. }));
        assert!(matches!(ev[1], Event::Malformed { block: 1, .. }));
        assert!(matches!(ev[2], Event::Incomplete { block: 2, .. }));
        assert_eq!(ev.len(), 3);
    }

    #[test]
    fn yaml_document_start_is_content() {
        let ev = events("------- SEARCH\n---\na: 1\n=======\n---\na: 2\n+++++++ REPLACE\n");
        assert!(
            matches!(&ev[0], Event::SearchReady { search, .. } if search.lines == ["---", "a: 1"])
        );
    }

    #[test]
    fn partial_markers() {
        for p in [
            "-",
            "<<<<",
            "=====",
            "+++++++ REP",
            "\\>>",
            ">>>>>>> REPLACE>",
            "\\",
        ] {
            assert!(could_be_marker(p), "{p:?}");
        }
        for p in ["- item", "<div>", "a", "==x", "+++ foo", "\\n"] {
            assert!(!could_be_marker(p), "{p:?}");
        }
    }
}

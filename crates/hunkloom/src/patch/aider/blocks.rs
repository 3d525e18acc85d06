//! Finding the edits in an aider reply: `find_original_update_blocks` and `find_filename` for
//! the SEARCH/REPLACE formats, `WholeFileCoder.get_edits` for file listings, and the fence
//! aider chooses from the chat files.

use super::difflib::closest_match;
use super::py;

/// A fence pair: what opens and what closes a listing.
pub(crate) type Fence = (&'static str, &'static str);

/// aider's fences, in the order it tries them.
const FENCES: &[Fence] = &[
    ("```", "```"),
    ("````", "````"),
    ("<source>", "</source>"),
    ("<code>", "</code>"),
    ("<pre>", "</pre>"),
    ("<codeblock>", "</codeblock>"),
    ("<sourcecode>", "</sourcecode>"),
];

const TRIPLE_BACKTICKS: &str = "```";

/// Fence openings of a shell block (commands for the user, not edits).
const SHELL_STARTS: &[&str] = &[
    "```bash",
    "```sh",
    "```shell",
    "```cmd",
    "```batch",
    "```powershell",
    "```ps1",
    "```zsh",
    "```fish",
    "```ksh",
    "```csh",
    "```tcsh",
];

/// `choose_fence`: the first fence no line of the chat files starts with.
pub(crate) fn choose_fence<'a>(contents: impl Iterator<Item = &'a str>) -> Fence {
    let mut all = String::new();
    for content in contents {
        all.push_str(content);
        all.push('\n');
    }
    let lines = py::splitlines(&all);
    FENCES
        .iter()
        .copied()
        .find(|(open, close)| {
            !lines
                .iter()
                .any(|l| l.starts_with(open) || l.starts_with(close))
        })
        .unwrap_or(FENCES[0])
}

/// `^<{5,9} SEARCH>?\s*$` on a stripped line.
fn is_head(stripped: &str) -> bool {
    let rest = stripped.trim_start_matches('<');
    let n = stripped.len() - rest.len();
    (5..=9).contains(&n) && matches!(rest, " SEARCH" | " SEARCH>")
}

/// `^={5,9}\s*$` on a stripped line.
fn is_divider(stripped: &str) -> bool {
    (5..=9).contains(&stripped.len()) && stripped.bytes().all(|b| b == b'=')
}

/// `^>{5,9} REPLACE\s*$` on a stripped line.
fn is_updated(stripped: &str) -> bool {
    let rest = stripped.trim_start_matches('>');
    let n = stripped.len() - rest.len();
    (5..=9).contains(&n) && rest == " REPLACE"
}

/// One SEARCH/REPLACE block: the file it names and its two sections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    pub(crate) path: String,
    pub(crate) search: String,
    pub(crate) replace: String,
}

/// A reply that does not parse: aider's text (`<reply so far>\n^^^ <what was expected>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParseError(pub(crate) String);

/// How a block's file name is matched against the chat files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Naming {
    /// aider's: exact, then the first chat file with that base name, then the closest name
    /// (`difflib`, cutoff 0.8).
    Aider,
    /// No guesses: exact, or the one chat file with that base name.
    Strict,
}

/// `find_original_update_blocks(reply, fence, chat_files)`, shell blocks left out.
pub(crate) fn find_blocks(
    reply: &str,
    fence: Fence,
    chat_files: &[String],
) -> Result<Vec<Block>, ParseError> {
    find_blocks_named(reply, fence, chat_files, Naming::Aider)
}

/// [`find_blocks`] with file names matched by `naming`.
pub(crate) fn find_blocks_named(
    reply: &str,
    fence: Fence,
    chat_files: &[String],
    naming: Naming,
) -> Result<Vec<Block>, ParseError> {
    let mut scanner = Scanner::new(fence, chat_files.to_vec(), naming);
    let mut blocks = Vec::new();
    for line in py::splitlines_keepends(reply) {
        scanner.feed(line.to_owned());
    }
    scanner.run(true, &mut blocks)?;
    Ok(blocks)
}

/// Where the scanner is in the reply.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    /// Between blocks.
    Between,
    /// In a shell block: lines up to its closing fence are skipped.
    Shell,
    /// In a SEARCH section of a block for `path`.
    Search { path: String, search: String },
    /// In its REPLACE section.
    Replace {
        path: String,
        search: String,
        replace: String,
    },
}

/// `find_original_update_blocks` as a machine fed one complete line at a time, so a streamed
/// reply is read once: [`run`](Scanner::run) reads as far as the lines fed allow (a line is
/// read once the two after it are there, as aider looks two lines ahead for a block that
/// follows a shell fence) and emits each block when its closing marker is read.
#[derive(Clone, Debug)]
pub(crate) struct Scanner {
    fence: Fence,
    chat_files: Vec<String>,
    naming: Naming,
    lines: Vec<String>,
    /// The next line to read.
    at: usize,
    /// The file of the last block (a block without a name edits it again).
    current: Option<String>,
    state: State,
    /// A parse error, once met (sticky).
    error: Option<ParseError>,
}

impl Scanner {
    pub(crate) fn new(fence: Fence, chat_files: Vec<String>, naming: Naming) -> Scanner {
        Scanner {
            fence,
            chat_files,
            naming,
            lines: Vec::new(),
            at: 0,
            current: None,
            state: State::Between,
            error: None,
        }
    }

    /// Adds one complete line (with its line break; the last line of a reply may have none).
    pub(crate) fn feed(&mut self, line: String) {
        self.lines.push(line);
    }

    fn stripped(&self, i: usize) -> &str {
        py::strip(&self.lines[i])
    }

    /// `<the reply up to line i>\n^^^ <what>`.
    fn fail(&mut self, i: usize, what: &str) -> ParseError {
        let processed: String = self.lines[..(i + 1).min(self.lines.len())].concat();
        let error = ParseError(format!("{processed}\n^^^ {what}"));
        self.error = Some(error.clone());
        error
    }

    /// Reads what the lines fed so far allow (all of them when `at_end`), pushing the blocks
    /// completed onto `out`. At the end, a block left open is the error aider raises.
    pub(crate) fn run(&mut self, at_end: bool, out: &mut Vec<Block>) -> Result<(), ParseError> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        while self.at < self.lines.len() {
            let i = self.at;
            match &mut self.state {
                State::Between => {
                    if !at_end && i + 2 >= self.lines.len() {
                        break;
                    }
                    let ahead =
                        |k: usize| i + k < self.lines.len() && is_head(self.stripped(i + k));
                    let next_is_block = ahead(1) || ahead(2);
                    let line = self.stripped(i);
                    if SHELL_STARTS.iter().any(|s| line.starts_with(s)) && !next_is_block {
                        self.state = State::Shell;
                    } else if is_head(line) {
                        let above: Vec<&str> = self.lines[i.saturating_sub(3)..i]
                            .iter()
                            .map(String::as_str)
                            .collect();
                        let new_file = i + 1 < self.lines.len() && is_divider(self.stripped(i + 1));
                        let chat: &[String] = if new_file { &[] } else { &self.chat_files };
                        let named = find_filename(&above, self.fence, chat, self.naming);
                        let Some(path) = named.or_else(|| self.current.clone()) else {
                            let what = format!(
                                "Bad/missing filename. The filename must be alone on the line \
                                 before the opening fence {}",
                                self.fence.0
                            );
                            return Err(self.fail(i, &what));
                        };
                        self.current = Some(path.clone());
                        self.state = State::Search {
                            path,
                            search: String::new(),
                        };
                    }
                }
                State::Shell => {
                    if py::strip(&self.lines[i]).starts_with(TRIPLE_BACKTICKS) {
                        self.state = State::Between;
                    }
                }
                State::Search { path, search } => {
                    if is_divider(py::strip(&self.lines[i])) {
                        self.state = State::Replace {
                            path: std::mem::take(path),
                            search: std::mem::take(search),
                            replace: String::new(),
                        };
                    } else {
                        search.push_str(&self.lines[i]);
                    }
                }
                State::Replace {
                    path,
                    search,
                    replace,
                } => {
                    let line = py::strip(&self.lines[i]);
                    if is_updated(line) || is_divider(line) {
                        out.push(Block {
                            path: std::mem::take(path),
                            search: std::mem::take(search),
                            replace: std::mem::take(replace),
                        });
                        self.state = State::Between;
                    } else {
                        replace.push_str(&self.lines[i]);
                    }
                }
            }
            self.at += 1;
        }
        if at_end {
            let end = self.lines.len();
            match self.state {
                State::Search { .. } => return Err(self.fail(end, "Expected `=======`")),
                State::Replace { .. } => {
                    return Err(self.fail(end, "Expected `>>>>>>> REPLACE` or `=======`"));
                }
                State::Between | State::Shell => {}
            }
        }
        Ok(())
    }
}

/// `strip_filename`: the name a line gives, if any.
fn strip_filename(line: &str, fence: Fence) -> Option<String> {
    let name = py::strip(line);
    if name == "..." {
        return None;
    }
    for opening in [fence.0, TRIPLE_BACKTICKS] {
        if let Some(candidate) = name.strip_prefix(opening) {
            return (!candidate.is_empty() && (candidate.contains('.') || candidate.contains('/')))
                .then(|| candidate.to_owned());
        }
    }
    let name = name.trim_end_matches(':');
    let name = name.trim_start_matches('#');
    let name = py::strip(name);
    let name = name.trim_matches('`');
    let name = name.trim_matches('*');
    Some(name.to_owned())
}

/// `find_filename`: the name in the (up to) three lines above a block, walking up through
/// fence lines only, matched against the chat files.
fn find_filename(
    above: &[&str],
    fence: Fence,
    chat_files: &[String],
    naming: Naming,
) -> Option<String> {
    let mut names: Vec<String> = Vec::new();
    for line in above.iter().rev().take(3) {
        if let Some(name) = strip_filename(line, fence).filter(|n| !n.is_empty()) {
            names.push(name);
        }
        if !line.starts_with(fence.0) && !line.starts_with(TRIPLE_BACKTICKS) {
            break;
        }
    }
    if let Some(exact) = names.iter().find(|n| chat_files.contains(n)) {
        return Some(exact.clone());
    }
    for name in &names {
        let mut same_base = chat_files.iter().filter(|f| *name == py::path_name(f));
        match (same_base.next(), naming) {
            (Some(file), Naming::Aider) => return Some(file.clone()),
            (Some(file), Naming::Strict) if same_base.next().is_none() => {
                return Some(file.clone());
            }
            _ => {}
        }
    }
    if naming == Naming::Aider {
        for name in &names {
            if let Some(close) = closest_match(name, chat_files, 0.8) {
                return Some(close.to_owned());
            }
        }
    }
    if let Some(dotted) = names.iter().find(|n| n.contains('.')) {
        return Some(dotted.clone());
    }
    names.into_iter().next()
}

/// How a listing's file name was found, most reliable first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    Block,
    Saw,
    Chat,
}

/// One file listing of the `whole` format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Listing {
    pub(crate) path: String,
    pub(crate) content: String,
}

/// `WholeFileCoder.get_edits()`'s reading as a machine fed one complete line at a time: each
/// listing is returned when its closing fence is read (a streamed reply is read once).
#[derive(Clone, Debug)]
pub(crate) struct ListingScanner {
    fence: Fence,
    chat_files: Vec<String>,
    /// The line before the current one.
    previous: Option<String>,
    /// A chat file named in backticks since the last listing.
    saw: Option<String>,
    open: Option<(String, Source)>,
    body: String,
    /// Every listing so far, with how its name was found.
    edits: Vec<(String, Source, String)>,
}

impl ListingScanner {
    pub(crate) fn new(fence: Fence, chat_files: Vec<String>) -> ListingScanner {
        ListingScanner {
            fence,
            chat_files,
            previous: None,
            saw: None,
            open: None,
            body: String::new(),
            edits: Vec::new(),
        }
    }

    /// Reads one line; whether it closed a listing.
    pub(crate) fn feed(&mut self, line: &str) -> Result<bool, ParseError> {
        let closed = self.read(line);
        self.previous = Some(line.to_owned());
        closed
    }

    fn read(&mut self, line: &str) -> Result<bool, ParseError> {
        let (fence, chat_files) = (self.fence, &self.chat_files);
        if line.starts_with(fence.0) || line.starts_with(fence.1) {
            if let Some((name, source)) = self.open.take() {
                self.saw = None;
                self.edits
                    .push((name, source, std::mem::take(&mut self.body)));
                return Ok(true);
            }
            let mut named = String::new();
            if let Some(previous) = &self.previous {
                let name = py::strip(previous).trim_matches('*').trim_end_matches(':');
                let name = name.trim_matches('`').trim_start_matches('#');
                let mut name = py::strip(name).to_owned();
                if name.chars().count() > 250 {
                    name.clear();
                }
                if !name.is_empty() && !chat_files.contains(&name) {
                    let base = py::path_name(&name);
                    if chat_files.iter().any(|f| f == base) {
                        name = base.to_owned();
                    }
                }
                named = name;
            }
            self.open = Some(if !named.is_empty() {
                (named, Source::Block)
            } else if let Some(seen) = &self.saw {
                (seen.clone(), Source::Saw)
            } else if chat_files.len() == 1 {
                (chat_files[0].clone(), Source::Chat)
            } else {
                return Err(ParseError(format!(
                    "No filename provided before {} in file listing",
                    fence.0
                )));
            });
        } else if self.open.is_some() {
            self.body.push_str(line);
        } else {
            for word in py::strip(line)
                .split(py::is_space)
                .filter(|w| !w.is_empty())
            {
                let word = word.trim_end_matches(['.', ':', ',', ';', '!']);
                for file in chat_files {
                    if word.strip_prefix('`').and_then(|w| w.strip_suffix('`'))
                        == Some(file.as_str())
                    {
                        self.saw = Some(file.clone());
                    }
                }
            }
        }
        Ok(false)
    }

    /// The listings so far, one per file: a name from the line above the fence wins over one
    /// seen in backticks earlier, which wins over the only chat file; a listing left open counts.
    pub(crate) fn listings(&self) -> Vec<Listing> {
        let open = self
            .open
            .as_ref()
            .map(|(name, source)| (name, *source, &self.body));
        let edits: Vec<_> = self
            .edits
            .iter()
            .map(|(name, source, content)| (name, *source, content))
            .chain(open)
            .collect();
        let mut seen: Vec<&String> = Vec::new();
        let mut listings = Vec::new();
        for wanted in [Source::Block, Source::Saw, Source::Chat] {
            for &(name, source, content) in &edits {
                if source != wanted || seen.contains(&name) {
                    continue;
                }
                seen.push(name);
                listings.push(Listing {
                    path: name.clone(),
                    content: content.clone(),
                });
            }
        }
        listings
    }
}

/// Every whole-file listing in a reply, scanned line by line.
pub(crate) fn find_listings(
    reply: &str,
    fence: Fence,
    chat_files: &[String],
) -> Result<Vec<Listing>, ParseError> {
    let mut scanner = ListingScanner::new(fence, chat_files.to_vec());
    for line in py::splitlines_keepends(reply) {
        scanner.feed(line)?;
    }
    Ok(scanner.listings())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENCE: Fence = ("```", "```");

    #[test]
    fn markers_take_five_to_nine_characters() {
        assert!(is_head("<<<<< SEARCH") && is_head("<<<<<<<<< SEARCH>"));
        assert!(!is_head("<<<< SEARCH") && !is_head("<<<<<<<<<< SEARCH"));
        assert!(is_divider("=====") && !is_divider("===="));
        assert!(is_updated(">>>>>>> REPLACE") && !is_updated(">>>> REPLACE"));
    }

    #[test]
    fn blocks_find_their_files() {
        let chat = vec!["src/app.py".to_owned()];
        let reply =
            "app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n";
        let blocks = find_blocks(reply, FENCE, &chat).expect("parses");
        assert_eq!(
            blocks,
            [Block {
                path: "src/app.py".into(),
                search: "x = 1\n".into(),
                replace: "x = 2\n".into()
            }]
        );
        let err = find_blocks("<<<<<<< SEARCH\nx\n", FENCE, &chat).unwrap_err();
        assert!(err.0.ends_with("\n^^^ Bad/missing filename. The filename must be alone on the line before the opening fence ```"), "{}", err.0);
    }

    #[test]
    fn fences_avoid_the_files_own() {
        assert_eq!(choose_fence(["x\n```\n"].into_iter()), ("````", "````"));
        assert_eq!(choose_fence(["x\n"].into_iter()), ("```", "```"));
    }
}

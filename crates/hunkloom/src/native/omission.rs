//! The omission-placeholder guard: a replacement that elides code with a placeholder line
//! (`// ... existing code ...`, `# (rest unchanged)`, `/* ... */`, `<!-- existing content -->`,
//! `[...]`, a bare `...`) would delete the code it stands for, so it is refused
//! (`omission_placeholder`) and the model is asked to write the code out.
//!
//! # The rule
//!
//! A new text elides code when
//!
//! 1. one of its lines is a **placeholder** (below) whose trimmed text is no line of the old
//!    text (a placeholder the file already has is content, not an elision), and
//! 2. at least [`MIN_MISSING`] non-blank lines of the old text appear nowhere in the new text
//!    (compared trimmed), so code really went missing.
//!
//! A line is a placeholder when, with its indentation and one comment wrapper removed (`//`,
//! `#`, `--`, `;`, `*`, `/* … */`, `<!-- … -->`, `{/* … */}`):
//!
//! - what is left is an ellipsis (`...` or `…`), optionally in brackets: `...`, `[...]`,
//!   `(…)`, `// ...`, `/* ... */`, `<!-- ... -->`; except a bare `...` right after a line
//!   ending in `:`, which is a Python stub body (`def f(self):` / `    ...`);
//! - or, in a comment, its words are all [`VOCABULARY`] words and either one of them is a
//!   [`KEY_WORDS`] word and there is an ellipsis or a second word (`# ... rest of the code
//!   unchanged ...`, `// (other methods unchanged)`, `// rest of code here`, `<!-- existing
//!   content -->`), or one is a [`WEAK_KEY_WORDS`] word and there is an ellipsis (`// ...
//!   other methods ...`; a Markdown heading `## Other options` is no placeholder).
//!
//! Code that uses an ellipsis (`Tuple[int, ...]`, `f(...)`, a string ending in `...`) or prose
//! ending in one has other words, so it is no placeholder.
//!
//! # Streaming
//!
//! [`OmissionCheck`] is fed the new text a line at a time (a block's REPLACE lines as they
//! complete) and gives its verdict at the end, with work linear in the two texts.

use rustc_hash::FxHashMap;

/// The fewest non-blank old lines missing from the new text for a placeholder to be an elision.
pub(crate) const MIN_MISSING: usize = 3;

/// Words a placeholder comment is made of.
pub(super) const VOCABULARY: &[&str] = &[
    "a",
    "all",
    "and",
    "are",
    "as",
    "as-is",
    "before",
    "body",
    "brevity",
    "case",
    "cases",
    "class",
    "classes",
    "code",
    "config",
    "content",
    "contents",
    "definitions",
    "elided",
    "else",
    "entries",
    "etc",
    "everything",
    "existing",
    "field",
    "fields",
    "file",
    "for",
    "function",
    "functions",
    "goes",
    "here",
    "implementation",
    "imports",
    "is",
    "it",
    "items",
    "keep",
    "keys",
    "kept",
    "lines",
    "logic",
    "markup",
    "method",
    "methods",
    "more",
    "of",
    "omitted",
    "options",
    "original",
    "other",
    "previous",
    "properties",
    "remain",
    "remaining",
    "remains",
    "rest",
    "same",
    "section",
    "sections",
    "settings",
    "stays",
    "steps",
    "stuff",
    "tests",
    "text",
    "that",
    "the",
    "things",
    "this",
    "unchanged",
    "untouched",
];

/// Words that make a comment of [`VOCABULARY`] words a placeholder, with or without an ellipsis.
pub(super) const KEY_WORDS: &[&str] = &[
    "elided",
    "existing",
    "omitted",
    "remaining",
    "rest",
    "unchanged",
    "untouched",
];

/// Words that make a comment of [`VOCABULARY`] words a placeholder only with an ellipsis.
pub(super) const WEAK_KEY_WORDS: &[&str] = &["original", "other", "previous", "same"];

/// Whether `line` is a placeholder; `after_colon`: the last non-blank line before it ends in `:`
/// (the Python stub rule).
pub(crate) fn is_placeholder(line: &str, after_colon: bool) -> bool {
    let t = line.trim();
    if t.is_empty() {
        return false;
    }
    let (inner, comment) = match uncomment(t) {
        Some(inner) => (inner.trim(), true),
        None => (t, false),
    };
    let bare = inner
        .trim_start_matches(['[', '(', '{'])
        .trim_end_matches([']', ')', '}'])
        .trim();
    if bare == "..." || bare == "…" {
        let stub = !comment && t == "..." && after_colon;
        return !stub;
    }
    if !comment {
        return false;
    }
    let ellipsis = inner.contains("...") || inner.contains('…');
    let mut words = 0;
    let (mut key, mut weak) = (false, false);
    for word in inner
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .map(|w| w.trim_matches('-'))
        .filter(|w| !w.is_empty())
    {
        let w = word.to_lowercase();
        if !VOCABULARY.contains(&w.as_str()) {
            return false;
        }
        words += 1;
        key |= KEY_WORDS.contains(&w.as_str());
        weak |= WEAK_KEY_WORDS.contains(&w.as_str());
    }
    (key && (ellipsis || words >= 2)) || (weak && ellipsis)
}

/// The text of a comment line (trimmed) without its comment markers, or `None` if it is not one.
fn uncomment(t: &str) -> Option<&str> {
    for (open, close) in [("{/*", "*/}"), ("/*", "*/"), ("<!--", "-->")] {
        if let Some(rest) = t.strip_prefix(open) {
            return Some(rest.strip_suffix(close).unwrap_or(rest));
        }
    }
    ["//", "#", "--", ";", "*"]
        .into_iter()
        .find_map(|open| t.strip_prefix(open))
        .map(|rest| rest.trim_start_matches(['/', '#', ';', '!']))
}

/// Whether an old line appeared in the new text yet, per distinct trimmed old line.
#[derive(Clone, Debug, Default)]
struct OldLine {
    /// How many non-blank old lines have this text.
    count: usize,
    seen: bool,
}

/// The guard fed a new text line by line against an old text (a block's SEARCH text, or a
/// file's current content).
#[derive(Clone, Debug, Default)]
pub(crate) struct OmissionCheck {
    /// The old text's non-blank lines, trimmed.
    old: FxHashMap<String, OldLine>,
    /// Non-blank old lines not yet seen in the new text.
    missing: usize,
    /// The first placeholder line of the new text that is no old line.
    placeholder: Option<String>,
    /// Whether the last non-blank new line ends in `:`.
    after_colon: bool,
}

impl OmissionCheck {
    /// A check against the old text's `lines`.
    pub(crate) fn new<'l>(lines: impl IntoIterator<Item = &'l str>) -> Self {
        let mut old: FxHashMap<String, OldLine> = FxHashMap::default();
        let mut missing = 0;
        for l in lines {
            let t = l.trim();
            if !t.is_empty() {
                old.entry(t.to_owned()).or_default().count += 1;
                missing += 1;
            }
        }
        OmissionCheck {
            old,
            missing,
            placeholder: None,
            after_colon: false,
        }
    }

    /// Feeds the next line of the new text.
    pub(crate) fn line(&mut self, line: &str) {
        let t = line.trim();
        if t.is_empty() {
            return;
        }
        match self.old.get_mut(t) {
            Some(old) => {
                if !old.seen {
                    old.seen = true;
                    self.missing -= old.count;
                }
            }
            None => {
                if self.placeholder.is_none() && is_placeholder(line, self.after_colon) {
                    self.placeholder = Some(t.to_owned());
                }
            }
        }
        self.after_colon = t.ends_with(':');
    }

    /// The placeholder line, if the new text fed so far elides code of the old one.
    pub(crate) fn verdict(&self) -> Option<&str> {
        self.placeholder
            .as_deref()
            .filter(|_| self.missing >= MIN_MISSING)
    }
}

/// The placeholder line through which `new` elides code of `old`, if it does (both whole
/// texts, split into lines at `\n`).
pub(crate) fn elided(old: &str, new: &str) -> Option<String> {
    if !changed_lines_hold_a_placeholder(old, new) {
        return None;
    }
    let mut check = OmissionCheck::new(old.split('\n'));
    new.split('\n').for_each(|l| check.line(l));
    check.verdict().map(str::to_owned)
}

/// Whether a line of `new` outside the lines it shares with `old` at both ends reads as a
/// placeholder. Only such a line can be one the full check reports (a shared line is an old
/// line), so a write that changes a few lines of a large file — an insert, most whole-file
/// writes — is cleared after comparing bytes, without indexing every line of the old text.
fn changed_lines_hold_a_placeholder(old: &str, new: &str) -> bool {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    // Whole lines shared at the start: up to the last `\n` of the common prefix.
    let prefix = common_prefix(o, n);
    let start = memchr::memrchr(b'\n', &n[..prefix]).map_or(0, |i| i + 1);
    // Whole lines shared at the end: from the first `\n` of the common suffix (past `start`).
    let suffix = common_suffix(&o[start..], &n[start..]);
    let tail = n.len() - suffix;
    let end = match memchr::memchr(b'\n', &n[tail..]) {
        Some(i) if suffix > 0 => tail + i + 1,
        _ => n.len(),
    };
    // `after_colon` as the full check has it when it reaches the first changed line.
    let mut after_colon = new[..start]
        .split('\n')
        .map(str::trim)
        .rfind(|t| !t.is_empty())
        .is_some_and(|t| t.ends_with(':'));
    for line in new[start..end].split('\n') {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if is_placeholder(line, after_colon) {
            return true;
        }
        after_colon = t.ends_with(':');
    }
    false
}

/// How many bytes `a` and `b` share at their start (compared a block at a time).
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let len = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= len && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..len]
        .iter()
        .zip(&b[at..len])
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many bytes `a` and `b` share at their end.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let len = a.len().min(b.len());
    let (a, b) = (&a[a.len() - len..], &b[b.len() - len..]);
    let mut n = 0;
    while n + BLOCK <= len && a[len - n - BLOCK..len - n] == b[len - n - BLOCK..len - n] {
        n += BLOCK;
    }
    n + a[..len - n]
        .iter()
        .rev()
        .zip(b[..len - n].iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// The message for a refused elision: `what` names the text ("block 2: the REPLACE text",
/// "the new content").
pub(crate) fn message(what: &str, placeholder: &str) -> String {
    let quoted: String = placeholder.chars().take(80).collect();
    format!(
        "{what} contains the placeholder `{quoted}` where code of the original should be. \
         Writing it would delete that code. Write the code out in full instead of eliding it \
         (no `...`, `existing code` or `unchanged` placeholders), or use smaller edits that \
         leave it out."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_lines_decide_as_the_whole_texts_do() {
        let base: Vec<String> = (0..40).map(|i| format!("    line_{i} = {i}")).collect();
        let old = base.join("\n") + "\n";
        let mut cases: Vec<String> = Vec::new();
        for at in [0, 1, 20, 39, 40] {
            for inserted in [
                "    # ... existing code ...",
                "x = 1",
                "",
                "    // ...",
                "def f():",
            ] {
                let mut lines = base.clone();
                lines.insert(at, inserted.to_owned());
                cases.push(lines.join("\n") + "\n");
                // The placeholder standing in for removed lines.
                let mut cut = base.clone();
                cut.splice(at.min(30)..at.min(30) + 10, [inserted.to_owned()]);
                cases.push(cut.join("\n"));
            }
        }
        cases.push(String::new());
        cases.push(old.clone());
        cases.push("...".into());
        for new in &cases {
            let mut full = OmissionCheck::new(old.split('\n'));
            new.split('\n').for_each(|l| full.line(l));
            assert_eq!(elided(&old, new).as_deref(), full.verdict(), "{new:?}");
        }
    }

    #[test]
    fn placeholders() {
        for l in [
            "// ... existing code ...",
            "    # ... rest of the function unchanged",
            "/* ... */",
            "/* ... existing code ... */",
            "<!-- existing content -->",
            "<!-- ... -->",
            "// (other methods unchanged)",
            "// rest of code here",
            "# (rest unchanged)",
            "# (other keys unchanged)",
            "[...]",
            "...",
            "  …",
            "// … unchanged …",
            "# ... keep the existing logic ...",
            "# ... existing steps ...",
            "// ...",
            "{/* ... rest of the markup ... */}",
        ] {
            assert!(is_placeholder(l, false), "{l:?}");
        }
        for l in [
            "Tuple[int, ...] = ()",
            "def sync(self) -> None: ...",
            "on_port: Optional[Callable[..., None]] = None",
            "// Token read fast key check will setting invalid start also retry batch update...",
            "1. Need 1-17 default soon parse...",
            "| event | 10005 | Field valid only after... |",
            "this.logger.error(\"Call stop later won't 64 KB invalid...\", { err });",
            "\"\"\"Worker value empty should skip 34-683 give...\"\"\"",
            "// other",
            "## Other options",
            "x = y",
            "",
        ] {
            assert!(!is_placeholder(l, false), "{l:?}");
        }
        assert!(!is_placeholder("    ...", true));
        assert!(is_placeholder("    // ...", true));
    }

    #[test]
    fn elision_needs_missing_code_and_a_new_placeholder() {
        let old = "fn a() {\n    one();\n    two();\n    three();\n}\n";
        let elides = "fn a() {\n    // ... existing code ...\n    four();\n}\n";
        assert_eq!(
            elided(old, elides).as_deref(),
            Some("// ... existing code ...")
        );
        let keeps = "fn a() {\n    one();\n    two();\n    // ...\n    three();\n}\n";
        assert_eq!(elided(old, keeps), None);
        let already = "fn a() {\n    // ...\n    one();\n    two();\n    three();\n}\n";
        assert_eq!(elided(already, "fn a() {\n    // ...\n}\n"), None);
        assert!(message("the new content", "// ...").contains("Write the code out in full"));
    }
}

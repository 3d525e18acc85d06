//! Definition headers: the lines that open a function, method, class or type, and the name
//! each defines. A segment may not drop one silently, and a deletion comment removes one by
//! name.
//!
//! Matched against the trimmed line:
//!
//! | language | headers |
//! |---|---|
//! | Python | `def NAME(`, `async def NAME(`, `class NAME` |
//! | TypeScript | `[export] [default] [async] function NAME`; `[export] [default] [abstract] class\|interface\|enum NAME`; a method: optional `public private protected static async readonly override`, then `NAME(…)`, an optional `: type`, and `{` or `{}` at the end (not `if`, `for`, `while`, `switch`, `catch`, `return`, …) |
//! | Go | `func [(receiver)] NAME`, `type NAME struct\|interface` |
//! | Rust | `[pub[(…)]] [async\|const\|unsafe] fn NAME`, `[pub] struct\|enum\|trait\|mod NAME`, `impl [<…>] [Trait for] NAME` |
//! | Java | `[modifiers] class\|interface\|enum\|record NAME`; a method with at least one modifier, a return type, `NAME(…)` and `{`; a constructor `public\|private\|protected NAME(…) {` |
//!
//! Other languages use all five rule sets.

use super::language::Language;
use super::markers::is_identifier;

/// The name the definition headed by `line` defines, or `None` if `line` heads none.
pub(super) fn definition(lang: Language, line: &str) -> Option<&str> {
    let t = line.trim();
    match lang {
        Language::Python => python(t),
        Language::TypeScript => typescript(t),
        Language::Go => go(t),
        Language::Rust => rust(t),
        Language::Java => java(t),
        _ => python(t)
            .or_else(|| typescript(t))
            .or_else(|| go(t))
            .or_else(|| rust(t))
            .or_else(|| java(t)),
    }
}

/// The identifier at the start of `s` (letters, digits, `_`, `$`), and the rest.
fn ident(s: &str) -> Option<(&str, &str)> {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(s.len());
    let name = &s[..end];
    is_identifier(name).then(|| (name, &s[end..]))
}

/// `s` without the keyword `word` and the spaces after it, if it starts with that word.
fn keyword<'a>(s: &'a str, word: &str) -> Option<&'a str> {
    let rest = s.strip_prefix(word)?;
    rest.starts_with(char::is_whitespace)
        .then(|| rest.trim_start())
}

/// `s` without any of `words` (each a keyword) at its start, in any number and order.
fn skip_keywords<'a>(mut s: &'a str, words: &[&str]) -> (&'a str, usize) {
    let mut skipped = 0;
    'outer: loop {
        for w in words {
            if let Some(rest) = keyword(s, w) {
                s = rest;
                skipped += 1;
                continue 'outer;
            }
        }
        return (s, skipped);
    }
}

/// `s` without the first of `words` it starts with (as a keyword), if any.
fn optional<'a>(s: &'a str, words: &[&str]) -> &'a str {
    words.iter().find_map(|w| keyword(s, w)).unwrap_or(s)
}

/// The text after the `)` that closes the `(` at the start of `s`.
fn after_parens(s: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(&s[i + 1..]);
                }
            }
            _ => {}
        }
    }
    None
}

fn python(t: &str) -> Option<&str> {
    if let Some(rest) = keyword(t, "class") {
        return ident(rest).map(|(name, _)| name);
    }
    let rest = keyword(t, "async").unwrap_or(t);
    let (name, rest) = ident(keyword(rest, "def")?)?;
    rest.starts_with('(').then_some(name)
}

/// Words that may stand before `(` and `{` without heading a method.
const TS_NOT_METHODS: &[&str] = &[
    "if", "for", "while", "switch", "catch", "return", "function", "else", "do", "with", "new",
    "typeof", "await", "yield", "super", "this", "throw", "case", "delete", "void",
];

fn typescript(t: &str) -> Option<&str> {
    let s = optional(t, &["export"]);
    let s = optional(s, &["default"]);
    if let Some(rest) = keyword(optional(s, &["async"]), "function") {
        return ident(rest.trim_start_matches('*').trim_start()).map(|(name, _)| name);
    }
    let decl = optional(s, &["abstract"]);
    for kind in ["class", "interface", "enum"] {
        if let Some(rest) = keyword(decl, kind) {
            return ident(rest).map(|(name, _)| name);
        }
    }
    let (s, _) = skip_keywords(
        t,
        &[
            "public",
            "private",
            "protected",
            "static",
            "async",
            "readonly",
            "override",
        ],
    );
    let (name, rest) = ident(s)?;
    if TS_NOT_METHODS.contains(&name) || !rest.starts_with('(') {
        return None;
    }
    let tail = after_parens(rest)?.trim();
    let body = tail
        .strip_suffix("{}")
        .or_else(|| tail.strip_suffix('{'))?
        .trim();
    (body.is_empty() || body.starts_with(':')).then_some(name)
}

fn go(t: &str) -> Option<&str> {
    if let Some(rest) = keyword(t, "type") {
        let (name, rest) = ident(rest)?;
        let rest = rest.trim_start();
        return (keyword(rest, "struct").is_some()
            || keyword(rest, "interface").is_some()
            || rest == "struct{}"
            || rest.starts_with("struct{")
            || rest.starts_with("interface{"))
        .then_some(name);
    }
    let mut rest = t.strip_prefix("func")?;
    if !rest.starts_with([' ', '(']) {
        return None;
    }
    rest = rest.trim_start();
    if rest.starts_with('(') {
        rest = after_parens(rest)?.trim_start();
    }
    ident(rest).map(|(name, _)| name)
}

fn rust(t: &str) -> Option<&str> {
    let mut s = t;
    if let Some(rest) = s.strip_prefix("pub") {
        if let Some(paren) = rest.strip_prefix('(') {
            s = paren.split_once(')')?.1.trim_start();
        } else if rest.starts_with(char::is_whitespace) {
            s = rest.trim_start();
        } else {
            return None;
        }
    }
    if let Some(rest) = keyword(optional(s, &["async", "const", "unsafe"]), "fn") {
        return ident(rest).map(|(name, _)| name);
    }
    for kind in ["struct", "enum", "trait", "mod"] {
        if let Some(rest) = keyword(s, kind) {
            return ident(rest).map(|(name, _)| name);
        }
    }
    let rest = t.strip_prefix("impl")?;
    let rest = if let Some(generics) = rest.strip_prefix('<') {
        skip_generics(generics)?.trim_start()
    } else if rest.starts_with(char::is_whitespace) {
        rest.trim_start()
    } else {
        return None;
    };
    let (first, after) = ident(rest)?;
    let after = skip_type_arguments(after).trim_start();
    match keyword(after, "for") {
        Some(target) => ident(target).map(|(name, _)| name),
        None => Some(first),
    }
}

/// The text after the `>` closing generics whose `<` was just consumed.
fn skip_generics(s: &str) -> Option<&str> {
    let mut depth = 1usize;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[i + 1..]);
                }
            }
            _ => {}
        }
    }
    None
}

/// `s` without type arguments (`<…>`, or a path `::…`) at its start.
fn skip_type_arguments(s: &str) -> &str {
    let mut s = s;
    loop {
        if let Some(generics) = s.strip_prefix('<') {
            match skip_generics(generics) {
                Some(rest) => s = rest,
                None => return s,
            }
        } else if let Some(path) = s.strip_prefix("::") {
            match ident(path) {
                Some((_, rest)) => s = rest,
                None => return s,
            }
        } else {
            return s;
        }
    }
}

const JAVA_MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "static",
    "final",
    "abstract",
    "sealed",
    "non-sealed",
    "strictfp",
    "synchronized",
    "native",
    "default",
    "transient",
    "volatile",
];

fn java(t: &str) -> Option<&str> {
    let (s, modifiers) = skip_keywords(t, JAVA_MODIFIERS);
    for kind in ["class", "interface", "enum", "record", "@interface"] {
        if let Some(rest) = keyword(s, kind) {
            return ident(rest).map(|(name, _)| name);
        }
    }
    if modifiers == 0 || !t.ends_with('{') {
        return None;
    }
    let open = s.find('(')?;
    let before = s[..open].trim_end();
    let name_start = before
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .map_or(0, |i| i + 1);
    let name = &before[name_start..];
    if !is_identifier(name) {
        return None;
    }
    let return_type = before[..name_start].trim();
    let constructor = return_type.is_empty()
        && ["public", "private", "protected"]
            .iter()
            .any(|m| keyword(t, m).is_some());
    let method = !return_type.is_empty()
        && return_type
            .chars()
            .all(|c| c.is_alphanumeric() || "_$<>[],.? ".contains(c));
    (constructor || method).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_per_language() {
        use Language::*;
        for (lang, line, name) in [
            (Python, "def load(self, x):", "load"),
            (Python, "    async def fetch(url) -> bytes:", "fetch"),
            (Python, "class Cart(Base):", "Cart"),
            (Python, "class Cart:", "Cart"),
            (TypeScript, "export default async function main() {", "main"),
            (TypeScript, "export abstract class Store<T> {", "Store"),
            (TypeScript, "interface Props {", "Props"),
            (TypeScript, "export enum Mode {", "Mode"),
            (
                TypeScript,
                "  private async load(id: string): Promise<Row | null> {",
                "load",
            ),
            (TypeScript, "constructor(private db: Db) {}", "constructor"),
            (TypeScript, "static of(x: (a: number) => void) {", "of"),
            (
                Go,
                "func (s *Server) Handle(w http.ResponseWriter) error {",
                "Handle",
            ),
            (Go, "func main() {", "main"),
            (Go, "type Config struct {", "Config"),
            (Go, "type Store interface {", "Store"),
            (
                Rust,
                "pub(crate) async fn run(&self) -> Result<()> {",
                "run",
            ),
            (Rust, "const fn size() -> usize {", "size"),
            (Rust, "pub struct Cache<K, V> {", "Cache"),
            (Rust, "impl<T: Clone> Display for Wrapper<T> {", "Wrapper"),
            (Rust, "impl Cache {", "Cache"),
            (Rust, "mod tests {", "tests"),
            (Java, "public final class AccountClient {", "AccountClient"),
            (
                Java,
                "    public Optional<Account> sendAccount(String id) {",
                "sendAccount",
            ),
            (
                Java,
                "private static Map<String, List<Integer>> index(int[] xs) throws IOException {",
                "index",
            ),
            (
                Java,
                "public AccountClient(Database db, Logger logger) {",
                "AccountClient",
            ),
            (Java, "record Point(int x, int y) {", "Point"),
        ] {
            assert_eq!(definition(lang, line), Some(name), "{lang:?} {line:?}");
        }
        for (lang, line) in [
            (Python, "x = define(1)"),
            (Python, "classes = []"),
            (TypeScript, "if (x) {"),
            (TypeScript, "} else if (y) {"),
            (TypeScript, "foo(bar);"),
            (TypeScript, "describe(\"x\", () => {"),
            (TypeScript, "return load(x) {"),
            (Go, "if err != nil {"),
            (Go, "funcs := 1"),
            (Rust, "let f = fn_ptr;"),
            (Rust, "implement();"),
            (Java, "sendAccount(id) {"),
            (
                Java,
                "private final Map<String, Event> events = new HashMap<>();",
            ),
            (Java, "private static final Foo X = new Foo() {"),
            (Java, "if (x) {"),
        ] {
            assert_eq!(definition(lang, line), None, "{lang:?} {line:?}");
        }
        assert_eq!(definition(Other, "def f(x):"), Some("f"));
        assert_eq!(definition(Other, "func main() {"), Some("main"));
    }
}

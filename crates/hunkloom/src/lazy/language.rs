//! The language of a lazy edit: which whole-line comments can be markers and deletion comments,
//! and which lines head a definition.
//!
//! Taken from [`LazyOptions::language`](super::LazyOptions::language), else from the path's
//! extension ([`Language::from_path`]), else [`Language::Other`].

use crate::error::{Error, ErrorKind, Result};

/// The language of the file a lazy edit applies to.
///
/// | language | marker comments | definition headers |
/// |---|---|---|
/// | `python` | `#`, and a line holding only `...` | `def`, `async def`, `class` |
/// | `typescript` (also JavaScript) | `//`, `/* … */` on one line | functions, classes, interfaces, enums, methods |
/// | `go` | `//`, `/* … */` | `func`, `type … struct\|interface` |
/// | `rust` | `//`, `/* … */` | `fn`, `struct`, `enum`, `trait`, `mod`, `impl` |
/// | `java` | `//`, `/* … */` | classes, interfaces, enums, records, methods, constructors |
/// | `slash_comments` (C, C++, C#, Kotlin, Swift, …) | `//`, `/* … */` | those of all five above |
/// | `hash_comments` (shell, Ruby, YAML, TOML, …) | `#` | those of all five above |
/// | `other` (any other extension, or no path) | `//`, `/* … */` and `#` | those of all five above |
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// Python.
    Python,
    /// TypeScript and JavaScript.
    TypeScript,
    /// Go.
    Go,
    /// Rust.
    Rust,
    /// Java.
    Java,
    /// Another language whose comments start with `//` (or are `/* … */`).
    SlashComments,
    /// Another language whose comments start with `#`.
    HashComments,
    /// A language not known: comments starting with `//`, `#`, or `/* … */` on one line.
    Other,
}

crate::names!(Language {
    Python => "python",
    TypeScript => "typescript",
    Go => "go",
    Rust => "rust",
    Java => "java",
    SlashComments => "slash_comments",
    HashComments => "hash_comments",
    Other => "other",
});

/// Other names of each language: short names, and the file extensions that select it.
const ALIASES: &[(&str, Language)] = {
    use Language::*;
    &[
        ("py", Python),
        ("pyi", Python),
        ("pyw", Python),
        ("ts", TypeScript),
        ("tsx", TypeScript),
        ("mts", TypeScript),
        ("cts", TypeScript),
        ("js", TypeScript),
        ("jsx", TypeScript),
        ("mjs", TypeScript),
        ("cjs", TypeScript),
        ("javascript", TypeScript),
        ("golang", Go),
        ("rs", Rust),
        ("c", SlashComments),
        ("h", SlashComments),
        ("cc", SlashComments),
        ("cpp", SlashComments),
        ("cxx", SlashComments),
        ("hh", SlashComments),
        ("hpp", SlashComments),
        ("hxx", SlashComments),
        ("cs", SlashComments),
        ("kt", SlashComments),
        ("kts", SlashComments),
        ("swift", SlashComments),
        ("scala", SlashComments),
        ("dart", SlashComments),
        ("php", SlashComments),
        ("m", SlashComments),
        ("mm", SlashComments),
        ("zig", SlashComments),
        ("groovy", SlashComments),
        ("gradle", SlashComments),
        ("proto", SlashComments),
        ("sol", SlashComments),
        ("css", SlashComments),
        ("scss", SlashComments),
        ("less", SlashComments),
        ("jsonc", SlashComments),
        ("sh", HashComments),
        ("bash", HashComments),
        ("zsh", HashComments),
        ("fish", HashComments),
        ("rb", HashComments),
        ("pl", HashComments),
        ("pm", HashComments),
        ("r", HashComments),
        ("jl", HashComments),
        ("ex", HashComments),
        ("exs", HashComments),
        ("nix", HashComments),
        ("yaml", HashComments),
        ("yml", HashComments),
        ("toml", HashComments),
        ("ps1", HashComments),
        ("cmake", HashComments),
        ("mk", HashComments),
        ("conf", HashComments),
        ("makefile", HashComments),
        ("dockerfile", HashComments),
        ("gemfile", HashComments),
        ("rakefile", HashComments),
    ]
};

impl Language {
    /// The language called `name`: a [`name`](Language::as_str) (`python`, `typescript`, ...),
    /// a short name (`py`, `ts`, `js`, `rs`, `golang`, `javascript`) or a file extension
    /// (`tsx`, `kt`, `sh`, ...), in any case. Error `invalid_language` otherwise.
    pub fn from_name(name: &str) -> Result<Language> {
        let lower = name.trim().to_ascii_lowercase();
        lookup(&lower).ok_or_else(|| {
            let names: Vec<&str> = Language::ALL.iter().map(|l| l.as_str()).collect();
            Error::new(
                ErrorKind::InvalidLanguage,
                format!(
                    "unknown language '{name}': expected one of {}, or a file extension \
                         such as py, ts, js, rs, kt, sh",
                    names.join(", ")
                ),
            )
        })
    }

    /// The language of a file, from its extension (or its name, for `Makefile`, `Dockerfile`,
    /// `Gemfile` and `Rakefile`); [`Language::Other`] when neither is known.
    pub fn from_path(path: &str) -> Language {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let lower = name.to_ascii_lowercase();
        let ext = match lower.rsplit_once('.') {
            Some((stem, ext)) if !stem.is_empty() => ext,
            _ => lower.as_str(),
        };
        lookup(ext).unwrap_or(Language::Other)
    }

    /// Whether `//` comments (and `/* … */` on one line) are comments here.
    pub(super) fn slash(self) -> bool {
        !matches!(self, Language::Python | Language::HashComments)
    }

    /// Whether `#` comments are comments here.
    pub(super) fn hash(self) -> bool {
        matches!(
            self,
            Language::Python | Language::HashComments | Language::Other
        )
    }
}

/// The language whose name or alias is `lower`.
fn lookup(lower: &str) -> Option<Language> {
    Language::ALL
        .iter()
        .copied()
        .find(|l| l.as_str() == lower)
        .or_else(|| ALIASES.iter().find(|(a, _)| *a == lower).map(|&(_, l)| l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_aliases_and_paths() {
        assert_eq!(Language::from_name("Python"), Ok(Language::Python));
        assert_eq!(Language::from_name("js"), Ok(Language::TypeScript));
        assert_eq!(Language::from_name("rs"), Ok(Language::Rust));
        assert_eq!(Language::from_name("kt"), Ok(Language::SlashComments));
        let err = Language::from_name("cobol").unwrap_err();
        assert_eq!(err.code(), "invalid_language");
        assert!(err.message().contains("python, typescript"), "{err}");
        assert_eq!(Language::from_path("src/app.tsx"), Language::TypeScript);
        assert_eq!(Language::from_path("a\\b\\Main.JAVA"), Language::Java);
        assert_eq!(
            Language::from_path("build/Makefile"),
            Language::HashComments
        );
        assert_eq!(Language::from_path("notes.txt"), Language::Other);
        assert_eq!(Language::from_path(".bashrc"), Language::Other);
        assert_eq!(Language::from_path("main.go"), Language::Go);
    }
}

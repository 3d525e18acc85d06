//! The tool-call edits (`str_replace`, `insert` in both conventions, Roo's `insert_content` and
//! `insert_groups`) and every `write_to_file` content fix, on arbitrary arguments: line numbers
//! of any size, and any float (NaN, infinities) for `insert_content`.

#![no_main]

use arbitrary::Arbitrary;
use hunkloom::fixes::{self, Fix};
use hunkloom::ops::roo::{InsertGroup, insert_groups};
use hunkloom::ops::{Convention, LineArg, insert, insert_content, str_replace};
use hunkloom_fuzz::check;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Line<'a> {
    Text(&'a str),
    Number(f64),
    Missing,
}

#[derive(Arbitrary, Debug)]
enum Call<'a> {
    StrReplace {
        content: Option<&'a str>,
        old: &'a str,
        new: &'a str,
        replace_all: bool,
        path: Option<&'a str>,
    },
    /// `str_replace` with `old` cut out of the file, so the match tiers run.
    StrReplaceSlice {
        content: &'a str,
        from: u16,
        len: u16,
        new: &'a str,
        replace_all: bool,
        markdown: bool,
    },
    Insert {
        content: &'a str,
        line: usize,
        text: &'a str,
        after: bool,
    },
    InsertContent {
        original: Option<&'a str>,
        line: Line<'a>,
        content: Option<&'a str>,
    },
    InsertGroups {
        original: Vec<&'a str>,
        groups: Vec<(i64, Vec<&'a str>)>,
    },
    Fixes {
        text: &'a str,
        path: Option<&'a str>,
        model: Option<&'a str>,
        enabled: u8,
    },
}

/// The longest prefix of `s` at most `at` bytes long that ends on a character boundary.
fn floor(s: &str, at: usize) -> usize {
    (0..=at.min(s.len()))
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0)
}

fuzz_target!(|call: Call<'_>| match call {
    Call::StrReplace {
        content,
        old,
        new,
        replace_all,
        path,
    } => {
        check(
            "str_replace",
            &str_replace(content, old, new, replace_all, path),
        );
    }
    Call::StrReplaceSlice {
        content,
        from,
        len,
        new,
        replace_all,
        markdown,
    } => {
        let start = floor(content, usize::from(from));
        let end = floor(content, start + usize::from(len));
        let path = if markdown { "a.md" } else { "a.rs" };
        let old = &content[start..end];
        check(
            "str_replace",
            &str_replace(Some(content), old, new, replace_all, Some(path)),
        );
    }
    Call::Insert {
        content,
        line,
        text,
        after,
    } => {
        let convention = if after {
            Convention::After
        } else {
            Convention::Before
        };
        check("insert", &insert(content, line, text, convention));
    }
    Call::InsertContent {
        original,
        line,
        content,
    } => {
        let line = match line {
            Line::Text(s) => LineArg::from(s),
            Line::Number(n) => LineArg::from(n),
            Line::Missing => LineArg::Missing,
        };
        check("insert_content", &insert_content(original, line, content));
    }
    Call::InsertGroups { original, groups } => {
        let groups: Vec<InsertGroup> = groups
            .into_iter()
            .map(|(index, elements)| InsertGroup {
                index,
                elements: elements.into_iter().map(str::to_owned).collect(),
            })
            .collect();
        let _ = insert_groups(&original, &groups);
    }
    Call::Fixes {
        text,
        path,
        model,
        enabled,
    } => {
        let _ = fixes::strip_markdown_fences(text);
        let _ = fixes::fix_model_html_escaping(text);
        let _ = fixes::remove_invalid_chars(text);
        let _ = fixes::apply_model_content_fixes(text, model, path);
        let _ = fixes::write(text, path, model);
        let enabled: Vec<Fix> = Fix::ALL
            .iter()
            .enumerate()
            .filter(|(i, _)| enabled & (1 << i) != 0)
            .map(|(_, &f)| f)
            .collect();
        let _ = fixes::write_with(text, path, model, &enabled);
    }
});

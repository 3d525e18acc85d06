//! What a `native` match tolerated: every kind of difference between the SEARCH text and the
//! region it matched, found once per placed block after the cascade has decided (so it never
//! changes which region matches or the tier that reports it).
//!
//! The cascade classifies each line by the first relaxation that makes it match, which hides
//! the others (a de-indented LF line with trailing spaces against a CRLF line is "indentation"
//! alone). Here each SEARCH line is compared with its file line under every rule on its own:
//!
//! - **line endings** — the two line endings differ (a last file line without one included);
//! - **trailing whitespace** — the runs of whitespace at the ends differ (a whitespace-only
//!   line is all trailing whitespace);
//! - **indentation** — both lines have content and their leading whitespace differs;
//! - **punctuation** — the trimmed lines differ and are equal once typography is folded; on the
//!   typo tier's line, the trimmed lines are not a typo of each other without folding;
//!
//! and three relaxations are properties of the deciding tier: **line-number prefixes** (the
//! SEARCH lines compared are the stripped ones), **blank lines** (only the non-blank lines are
//! paired, in order; blank lines were ignored, so their number or place differs) and **typo**.
//! Linear in the region and the SEARCH text.

use super::normalize::{BLANK, fold_trimmed, loose_hash};
use super::search_text::{SearchText, Tier};
use super::typo::is_typo;

/// The differences tolerated between `search` (the SEARCH text as the deciding tier compared
/// it: without line-number prefixes on that tier) and `region` (the matched whole lines, with
/// their endings), decided by `tier`: one bit per [`Tier`] (`1 << tier`), the exact bit never
/// set.
pub(crate) fn tolerated(region: &str, search: &SearchText, tier: Tier) -> u8 {
    let mut set = match tier {
        Tier::Exact => return 0,
        Tier::LineNumberPrefix | Tier::BlankLines | Tier::Typo => tier.bit(),
        _ => 0,
    };
    let file = region_lines(region);
    let searched = search
        .lines
        .iter()
        .map(String::as_str)
        .zip(search.eols.iter().copied());
    if tier == Tier::BlankLines {
        let mut buf = String::new();
        let mut nonblank = |&(l, _): &(&str, &str)| loose_hash(l, &mut buf) != BLANK;
        let file: Vec<_> = file.filter(&mut nonblank).collect();
        let searched = searched.filter(&mut nonblank);
        for (f, s) in file.into_iter().zip(searched) {
            set |= line_differences(f, s);
        }
    } else {
        for (f, s) in file.zip(searched) {
            set |= line_differences(f, s);
        }
    }
    set
}

/// The whole lines of a matched region: content and line ending (`""` for a last line
/// without one).
fn region_lines(region: &str) -> impl Iterator<Item = (&str, &str)> {
    region.split_inclusive('\n').map(|raw| {
        if let Some(c) = raw.strip_suffix("\r\n") {
            (c, "\r\n")
        } else if let Some(c) = raw.strip_suffix('\n') {
            (c, "\n")
        } else {
            (raw, "")
        }
    })
}

/// The rules of the module doc for one (file line, SEARCH line) pair, each with its ending.
fn line_differences((f, f_eol): (&str, &str), (s, s_eol): (&str, &str)) -> u8 {
    let bit = Tier::bit;
    let mut set = 0;
    if f_eol != s_eol {
        set |= bit(Tier::LineEndings);
    }
    if f == s {
        return set;
    }
    let (f_end, s_end) = (f.trim_end(), s.trim_end());
    if f[f_end.len()..] != s[s_end.len()..] {
        set |= bit(Tier::TrailingWhitespace);
    }
    let (f_core, s_core) = (f_end.trim_start(), s_end.trim_start());
    let lead = |end: &'_ str, core: &str| end.len() - core.len();
    if !f_core.is_empty()
        && !s_core.is_empty()
        && f_end[..lead(f_end, f_core)] != s_end[..lead(s_end, s_core)]
    {
        set |= bit(Tier::Indentation);
    }
    if f_core != s_core {
        let folded_equal = fold_trimmed(f) == fold_trimmed(s);
        // Otherwise this is the typo tier's line: punctuation was folded only if the raw lines
        // are not already a typo of each other.
        if folded_equal || !is_typo(f_core, s_core) {
            set |= bit(Tier::Punctuation);
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Normalization;
    use crate::stream::{ApplierOptions, Dialect, StreamingApplier};
    use crate::{ApplyOptions, Strategy, apply_diff};

    fn search(lines: &[&str], eol: &'static str) -> SearchText {
        SearchText {
            lines: lines.iter().map(|l| (*l).to_owned()).collect(),
            eols: vec![eol; lines.len()],
        }
    }

    #[test]
    fn each_rule_on_its_own() {
        let bits =
            |region: &str, lines: &[&str], tier| tolerated(region, &search(lines, "\n"), tier);
        let bit = Tier::bit;
        assert_eq!(bits("a\n", &["a"], Tier::Exact), 0);
        assert_eq!(bits("a", &["a"], Tier::LineEndings), bit(Tier::LineEndings));
        assert_eq!(
            bits("a \n", &["a"], Tier::TrailingWhitespace),
            bit(Tier::TrailingWhitespace)
        );
        // A whitespace-only line is all trailing whitespace, never indentation.
        assert_eq!(
            bits("   \n", &[""], Tier::TrailingWhitespace),
            bit(Tier::TrailingWhitespace)
        );
        assert_eq!(
            bits("\tx\n", &["    x"], Tier::Indentation),
            bit(Tier::Indentation)
        );
        assert_eq!(
            bits("\u{A0}x\n", &["x"], Tier::Indentation),
            bit(Tier::Indentation)
        );
        assert_eq!(
            bits("x—y\n", &["x--y"], Tier::Punctuation),
            bit(Tier::Punctuation)
        );
        assert_eq!(
            bits("  x—y \r\n", &["x--y"], Tier::Punctuation),
            bit(Tier::LineEndings)
                | bit(Tier::TrailingWhitespace)
                | bit(Tier::Indentation)
                | bit(Tier::Punctuation)
        );
        // The typo line: punctuation only when the raw lines need folding to be a typo.
        let typo = ["alpha();", "process(items);", "gamma();"];
        let region = "alpha();\nproces(items);\ngamma();\n";
        assert_eq!(bits(region, &typo, Tier::Typo), bit(Tier::Typo));
        let curly = ["alpha();", "process(“items”);", "gamma();"];
        let region = "alpha();\nproces(\"items\");\ngamma();\n";
        assert_eq!(
            bits(region, &curly, Tier::Typo),
            bit(Tier::Typo) | bit(Tier::Punctuation)
        );
        // Blank lines: only the non-blank lines are paired.
        let region = "a\n\n\n  b\n";
        assert_eq!(
            bits(region, &["a", "b"], Tier::BlankLines),
            bit(Tier::BlankLines) | bit(Tier::Indentation)
        );
    }

    /// The report of the only block of `diff`, one-shot, after checking that streaming the
    /// diff a character at a time reports the same.
    fn report(diff: &str, original: &str) -> (Strategy, Vec<&'static str>) {
        let outcome = apply_diff(diff, original, &ApplyOptions::default()).expect("applies");
        let mut applier =
            StreamingApplier::new(original, ApplierOptions::new().dialect(Dialect::Native));
        let mut buf = [0; 4];
        for c in diff.chars() {
            applier.push(c.encode_utf8(&mut buf));
        }
        let streamed = applier.finish().expect("applies when streamed");
        assert_eq!(streamed, outcome, "streaming and one-shot agree");
        let [block] = outcome.blocks.as_slice() else {
            panic!("one block");
        };
        let names = block.normalizations.iter().map(|n| n.as_str()).collect();
        (block.strategy, names)
    }

    fn diff(search: &str, replace: &str) -> String {
        format!("------- SEARCH\n{search}=======\n{replace}+++++++ REPLACE\n")
    }

    #[test]
    fn indentation_trailing_whitespace_and_line_endings() {
        let original = "fn main() {\r\n    let a = 1;\r\n    let b = 2;\r\n}\r\n";
        let d = diff("let a = 1;  \nlet b = 2;\n", "let a = 3;\nlet b = 4;\n");
        assert_eq!(
            report(&d, original),
            (
                Strategy::Indentation,
                vec!["line_endings", "trailing_whitespace", "indentation"]
            )
        );
        let outcome = apply_diff(&d, original, &ApplyOptions::default()).expect("applies");
        assert_eq!(
            outcome.new_content,
            "fn main() {\r\n    let a = 3;\r\n    let b = 4;\r\n}\r\n"
        );
    }

    #[test]
    fn punctuation_and_indentation() {
        let original = "fn f() {\n    say(\"hi\");\n    done();\n}\n";
        let d = diff("say(“hi”);\ndone();\n", "say(\"bye\");\n");
        assert_eq!(
            report(&d, original),
            (Strategy::Punctuation, vec!["indentation", "punctuation"])
        );
    }

    #[test]
    fn blank_lines_and_line_number_prefixes() {
        // Prefixes are stripped, and the numbered blank line is whitespace in the file.
        let original = "a()\n  \nb()\nc()\n";
        let d = diff("1 | a()\n2 | \n3 | b()\n", "x()\n");
        assert_eq!(
            report(&d, original),
            (
                Strategy::LineNumberPrefix,
                vec!["trailing_whitespace", "line_number_prefixes"]
            )
        );
        // Blank-line drift with a CRLF file and de-indented SEARCH text.
        let original = "fn f() {\r\n    a();\r\n\r\n\r\n    b();\r\n}\r\n";
        let d = diff("a();\nb();\n", "c();\n");
        assert_eq!(
            report(&d, original),
            (
                Strategy::BlankLines,
                vec!["line_endings", "indentation", "blank_lines"]
            )
        );
        // The blank-line tier does not strip prefixes (tier 6 is tiers 1-5 on stripped lines),
        // so the two are never reported together: such a block is not found.
        let err = apply_diff(
            &diff("1 | a()\n2 | b()\n", "x()\n"),
            "a()\n\nb()\n",
            &ApplyOptions::default(),
        )
        .unwrap_err();
        assert_eq!(err.code(), "search_not_found");
    }

    #[test]
    fn typo_with_other_differences() {
        let original = "  alpha();\r\n  proces(items);\r\n  gamma();\r\n";
        let d = diff("alpha();\nprocess(items);\ngamma();\n", "x();\n");
        assert_eq!(
            report(&d, original),
            (Strategy::Typo, vec!["line_endings", "indentation", "typo"])
        );
    }

    #[test]
    fn exact_reports_nothing() {
        let original = "fn main() {\n    let a = 1;\n}\n";
        let d = diff("    let a = 1;\n", "    let a = 2;\n");
        assert_eq!(report(&d, original), (Strategy::Exact, vec![]));
        let original = "fn main() {\r\n    let a = 1;\r\n}\r\n";
        let crlf = "------- SEARCH\r\n    let a = 1;\r\n=======\r\nx\r\n+++++++ REPLACE\r\n";
        assert_eq!(report(crlf, original), (Strategy::Exact, vec![]));
        // Only the line ending of a last line without one.
        let d = diff("}\n", "};\n");
        assert_eq!(
            report(&d, "fn main() {\n}"),
            (Strategy::LineEndings, vec!["line_endings"])
        );
    }

    #[test]
    fn order_is_the_enums() {
        let all = [
            Normalization::LineEndings,
            Normalization::TrailingWhitespace,
            Normalization::Indentation,
            Normalization::Punctuation,
        ];
        let original = "{\r\n    say(\"a — b\");\r\n}\r\n";
        let d = diff("say(“a -- b”);  \n", "x\n");
        let outcome = apply_diff(&d, original, &ApplyOptions::default()).expect("applies");
        assert_eq!(outcome.blocks[0].normalizations, all);
    }
}

//! The fast cascade ([`tiers::locate`]) against its naive oracle ([`naive::locate`]) on small
//! generated files and SEARCH texts built to reach every tier: the same region, tier, candidate
//! count, hint use, indentation map and set of tolerated differences (each side computing it
//! from its own rule definitions), or the same refusal.

use proptest::prelude::*;

use super::diagnose;
use super::file_index::FileIndex;
use super::loose_lines::LooseLineIndex;
use super::naive::{self, NaiveMiss};
use super::search_text::{SearchText, Tier};
use super::tiers::{self, Miss};

/// Code-like lines with near-duplicates: indentation, tabs, trailing space, typography, typos,
/// blank and whitespace-only lines, dashes and dots, a zero-width space.
pub(super) fn file_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("fn main() {"),
        Just("    let value = 1;"),
        Just("  let value = 1;"),
        Just("\tlet value = 1;"),
        Just("    let value = 1;  "),
        Just("        return value;"),
        Just("    }"),
        Just("}"),
        Just(""),
        Just(""),
        Just("   "),
        Just("\tif ready {"),
        Just("\t\tsay(\"now\");"),
        Just("    say(“now”);"),
        Just("    // a — b..."),
        Just("    // a -- b…"),
        Just("x = a - b"),
        Just("  process(items);"),
        Just("  proces(items);"),
        Just("  procsess(items);"),
        Just("it’s\u{A0}done"),
        Just("it's done"),
        Just("zero\u{200B}width"),
        Just("  \u{200B}"),
        Just("12 | value"),
        Just("    // café ñu"),
        Just("    // cafe\u{301} ñu"),
        Just("\tsay(\"Ångström\");"),
    ]
    .prop_map(str::to_owned)
}

fn file_text(lines: &[String], crlf: &[bool], final_newline: bool) -> String {
    let mut s = String::new();
    for (i, l) in lines.iter().enumerate() {
        s.push_str(l);
        if i + 1 < lines.len() || final_newline {
            s.push_str(if crlf[i % crlf.len()] { "\r\n" } else { "\n" });
        }
    }
    s
}

/// How a copied window is spoiled, the way models spoil them.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    None,
    Indent(bool),
    TabsSpaces,
    TrailingSpace(usize),
    Typography,
    Ascii,
    LineNumbers(usize, u8),
    InsertBlank(usize),
    RemoveBlank,
    Typo(usize),
    Replace(usize),
    /// Precomposed accents decomposed (NFD), or decomposed ones composed (NFC).
    Normalize(bool),
    /// A blank line added at the start (1), the end (2) or both ends (3).
    EdgeBlank(u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        2 => Just(Mutation::None),
        1 => any::<bool>().prop_map(Mutation::Indent),
        1 => Just(Mutation::TabsSpaces),
        1 => (0usize..8).prop_map(Mutation::TrailingSpace),
        1 => Just(Mutation::Typography),
        1 => Just(Mutation::Ascii),
        1 => (0usize..3, 0u8..4).prop_map(|(o, s)| Mutation::LineNumbers(o, s)),
        1 => (0usize..8).prop_map(Mutation::InsertBlank),
        1 => Just(Mutation::RemoveBlank),
        2 => (0usize..8).prop_map(Mutation::Typo),
        1 => (0usize..8).prop_map(Mutation::Replace),
        1 => any::<bool>().prop_map(Mutation::Normalize),
        1 => (1u8..4).prop_map(Mutation::EdgeBlank),
    ]
}

fn mutate(lines: &mut Vec<String>, first: usize, m: Mutation) {
    let k = lines.len();
    if k == 0 {
        return;
    }
    match m {
        Mutation::None => {}
        Mutation::Indent(add) => {
            for l in lines.iter_mut().filter(|l| !l.trim().is_empty()) {
                if add {
                    l.insert_str(0, "  ");
                } else if l.starts_with(' ') || l.starts_with('\t') {
                    l.remove(0);
                }
            }
        }
        Mutation::TabsSpaces => {
            for l in lines.iter_mut() {
                *l = if l.starts_with('\t') {
                    l.replacen('\t', "    ", 1)
                } else {
                    l.replacen("    ", "\t", 1)
                };
            }
        }
        Mutation::TrailingSpace(j) => lines[j % k].push_str(" \t"),
        Mutation::Typography => {
            for l in lines.iter_mut() {
                *l = l
                    .replace('"', "”")
                    .replace('\'', "’")
                    .replace("--", "—")
                    .replace("...", "…");
            }
        }
        Mutation::Ascii => {
            for l in lines.iter_mut() {
                *l = l
                    .replace(['“', '”'], "\"")
                    .replace('’', "'")
                    .replace('—', "--")
                    .replace('…', "...")
                    .replace('\u{A0}', " ");
            }
        }
        Mutation::LineNumbers(offset, style) => {
            for (j, l) in lines.iter_mut().enumerate() {
                let n = first + 1 + j + offset / 2;
                *l = match style {
                    0 => format!("{n} | {l}"),
                    1 => format!("{n:>6}\t{l}"),
                    2 => format!("{n}→{l}"),
                    _ if l.is_empty() && j > 0 => String::new(),
                    _ => format!("  {n} | {l}"),
                };
            }
        }
        Mutation::InsertBlank(j) => lines.insert(j % (k + 1), String::new()),
        Mutation::RemoveBlank => {
            if let Some(j) = lines.iter().position(|l| l.trim().is_empty()) {
                lines.remove(j);
            }
        }
        Mutation::Typo(j) => {
            let l = &mut lines[j % k];
            if let Some(i) = l.find("value").or_else(|| l.find("items")) {
                l.replace_range(
                    i + 1..i + 3,
                    &l[i + 1..i + 3].chars().rev().collect::<String>(),
                );
            }
        }
        Mutation::Replace(j) => lines[j % k] = "totally different();".to_owned(),
        Mutation::Normalize(decompose) => {
            use unicode_normalization::UnicodeNormalization;
            for l in lines.iter_mut() {
                *l = if decompose {
                    l.nfd().collect()
                } else {
                    l.nfc().collect()
                };
            }
        }
        Mutation::EdgeBlank(ends) => {
            if ends & 1 != 0 {
                lines.insert(0, String::new());
            }
            if ends & 2 != 0 {
                lines.push("  ".to_owned());
            }
        }
    }
}

fn search_text(lines: Vec<String>, crlf: bool) -> SearchText {
    let eols = vec![if crlf { "\r\n" } else { "\n" }; lines.len()];
    SearchText { lines, eols }
}

/// A file, a SEARCH text cut from it (or from anywhere) and spoiled, and a hint.
fn case() -> impl Strategy<Value = (String, SearchText, Option<usize>)> {
    (
        proptest::collection::vec(file_line(), 1..24),
        proptest::collection::vec(any::<bool>(), 1..3),
        any::<bool>(),
        (any::<prop::sample::Index>(), 1usize..6),
        proptest::collection::vec(mutation(), 0..3),
        any::<bool>(),
        proptest::option::weighted(0.3, 0usize..30),
        proptest::collection::vec(file_line(), 1..5),
        0u8..8,
    )
        .prop_map(
            |(lines, crlf, final_nl, (at, len), muts, s_crlf, hint, foreign, pick)| {
                let text = file_text(&lines, &crlf, final_nl);
                let first = at.index(lines.len());
                let mut search: Vec<String> = if pick == 0 {
                    foreign
                } else {
                    lines[first..(first + len).min(lines.len())].to_vec()
                };
                for m in muts {
                    mutate(&mut search, first, m);
                }
                if search.is_empty() {
                    search.push("}".to_owned());
                }
                (text, search_text(search, s_crlf), hint)
            },
        )
}

/// The fast result in the oracle's terms.
fn fast(
    text: &str,
    index: &FileIndex,
    search: &SearchText,
    hint: Option<usize>,
) -> Result<naive::Found, NaiveMiss> {
    match tiers::locate(text, index, search, hint) {
        Ok(l) => Ok(naive::Found {
            start: l.start,
            end: l.end,
            tier: l.tier,
            candidates: l.candidates,
            hinted: l.hinted,
            indent: l.indent,
            relaxed: l.relaxed,
        }),
        Err(Miss::NotFound) => Err(NaiveMiss::NotFound),
        Err(Miss::Ambiguous { tier, windows, .. }) => Err(NaiveMiss::Ambiguous { tier, windows }),
        Err(Miss::TooRepetitive) => panic!("the budget ran out on a small input"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn cascade_agrees_with_naive_oracle((text, search, hint) in case()) {
        let want = naive::locate(&text, &search, hint);
        if let Ok(found) = &want {
            // The set never has the exact bit and always has the deciding tier's kind.
            prop_assert_eq!(found.relaxed & Tier::Exact.bit(), 0);
            prop_assert!(found.tier == Tier::Exact || found.relaxed & found.tier.bit() != 0);
        }
        // Without an index (the engine's state before its first tolerant match) ...
        let fresh = FileIndex::default();
        prop_assert_eq!(&fast(&text, &fresh, &search, hint), &want, "fresh index");
        // ... with the whole-file index already built by an earlier block ...
        let built = FileIndex::warmed(&text, true);
        prop_assert_eq!(&fast(&text, &built, &search, hint), &want, "built index");
        // ... and with the exact lines indexed after many blocks, but not the loose ones.
        let exact = FileIndex::warmed(&text, false);
        prop_assert_eq!(&fast(&text, &exact, &search, hint), &want, "exact lines indexed");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The not-found message built from the anchors' neighbourhoods is the whole-index one.
    #[test]
    fn sparse_diagnostics_agree((text, search, _) in case(), replace in proptest::collection::vec(file_line(), 0..3)) {
        if let Some(sparse) = diagnose::not_found_sparse(&text, 0, &search, &replace) {
            let whole = diagnose::not_found(&text, &LooseLineIndex::new(&text), 0, &search, &replace);
            prop_assert_eq!(sparse, whole);
        }
    }
}

/// The generator reaches every tier, with and without a hint, and ambiguity; and every kind of
/// difference a line can hide (line endings, trailing whitespace, indentation, punctuation)
/// under a looser deciding tier.
#[test]
fn generated_cases_reach_every_tier() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut found = std::collections::BTreeSet::new();
    let mut hidden = std::collections::BTreeSet::new();
    let (mut hinted, mut ambiguous, mut not_found) = (0, 0, 0);
    for _ in 0..1000 {
        let (text, search, hint) = case().new_tree(&mut runner).expect("case").current();
        match naive::locate(&text, &search, hint) {
            Ok(f) => {
                found.insert(f.tier);
                hinted += usize::from(f.hinted);
                let kinds = [
                    Tier::LineEndings,
                    Tier::TrailingWhitespace,
                    Tier::Indentation,
                    Tier::Punctuation,
                ];
                hidden.extend(
                    kinds
                        .into_iter()
                        .filter(|&k| k < f.tier && f.relaxed & k.bit() != 0),
                );
            }
            Err(NaiveMiss::NotFound) => not_found += 1,
            Err(NaiveMiss::Ambiguous { .. }) => ambiguous += 1,
        }
    }
    assert_eq!(found.len(), Tier::Typo as usize + 1, "{found:?}");
    assert_eq!(hidden.len(), 4, "{hidden:?}");
    assert!(hinted > 0 && ambiguous > 0 && not_found > 0);
}

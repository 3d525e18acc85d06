use crate::text::original::Indexes;

use proptest::prelude::*;

use super::trimmed_lines::{Haystack, SearchLines};
use super::{block_anchor, line_trimmed, naive};

/// Lines drawn from a small alphabet so that trimmed equality, duplicates and near misses are
/// common.
fn text_strategy() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        Just(""),
        Just("a"),
        Just(" a"),
        Just("a\t"),
        Just("\u{A0}a\r"),
        Just("b"),
        Just("  b  "),
        Just("\u{FEFF}c"),
        Just("c\u{85}"),
        Just("ab"),
    ];
    proptest::collection::vec(line, 0..14).prop_map(|lines| lines.join("\n"))
}

fn search_strategy() -> impl Strategy<Value = String> {
    text_strategy().prop_map(|s| s + "\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn line_trimmed_agrees_with_oracle(original in text_strategy(), search in search_strategy(), from in 0usize..60) {
        let cell = Indexes::default();
        let hay = Haystack::new(&original, &cell);
        let from = from.min(original.len() + 1);
        let got = line_trimmed::find(&hay, &SearchLines::new(&search), from);
        prop_assert_eq!(got, naive::line_trimmed(&original, &search, from));
    }

    #[test]
    fn block_anchor_agrees_with_oracle(original in text_strategy(), search in search_strategy(), from in 0usize..60) {
        let cell = Indexes::default();
        let hay = Haystack::new(&original, &cell);
        let from = from.min(original.len() + 1);
        let got = block_anchor::find(&hay, &SearchLines::new(&search), from);
        prop_assert_eq!(got, naive::block_anchor(&original, &search, from));
    }
}

#[test]
fn spans_run_one_past_a_last_line_without_newline() {
    let cell = Indexes::default();
    let hay = Haystack::new("a\nb", &cell);
    assert_eq!(
        line_trimmed::find(&hay, &SearchLines::new("b\n"), 0),
        Some((2, 4))
    );
    assert_eq!(
        line_trimmed::find(&hay, &SearchLines::new(" a \n"), 0),
        Some((0, 2))
    );
    assert_eq!(line_trimmed::find(&hay, &SearchLines::new("a\n"), 1), None);
}

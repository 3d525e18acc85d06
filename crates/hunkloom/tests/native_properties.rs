//! Property tests of the `native` dialect: an exact unique SEARCH is a plain splice, a SEARCH
//! that occurs twice is refused, and chunking never changes the previews, the splices or the
//! outcome (placeholders, over-escaped lines and cut-off diffs included).

use hunkloom::{
    ApplierOptions, ApplyOptions, Dialect, ErrorKind, StreamingApplier, TextOffset, apply_diff,
};
use hunkloom_testkit::Chunking;
use proptest::prelude::*;

/// Code-like lines, some near-duplicates of others (indentation, trailing space, quotes).
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("fn main() {".to_owned()),
        Just("    let x = 1;".to_owned()),
        Just("  let x = 1;".to_owned()),
        Just("    let x = 1; ".to_owned()),
        Just("    say(\"hi\");".to_owned()),
        Just("    say(“hi”);".to_owned()),
        Just("}".to_owned()),
        Just("".to_owned()),
        Just("\t🚀 é".to_owned()),
        "[a-d]{1,3}( [a-d]{1,3})?",
    ]
}

fn lines(max: usize) -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(line(), 1..max)
}

fn text(lines: &[String], crlf: bool, final_newline: bool) -> String {
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut s = lines.join(eol);
    if final_newline {
        s.push_str(eol);
    }
    s
}

fn block(search: &[String], replace: &[String]) -> String {
    let mut d = String::from("------- SEARCH\n");
    for l in search {
        d.push_str(l);
        d.push('\n');
    }
    d.push_str("=======\n");
    for l in replace {
        d.push_str(l);
        d.push('\n');
    }
    d.push_str("+++++++ REPLACE\n");
    d
}

/// Lines a streamed diff is made of: every marker spelling, Roo's preamble and escapes,
/// near-markers and content.
fn diff_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just("------- SEARCH".to_owned()),
        3 => Just("=======".to_owned()),
        3 => Just("+++++++ REPLACE".to_owned()),
        1 => Just("<<<<<<< SEARCH".to_owned()),
        1 => Just(">>>>>>> REPLACE".to_owned()),
        1 => Just(":start_line:2".to_owned()),
        1 => Just("-------".to_owned()),
        1 => Just("\\=======".to_owned()),
        1 => Just("- item".to_owned()),
        1 => Just("=======\r".to_owned()),
        1 => Just("// ... existing code ...".to_owned()),
        1 => Just("a\\nb c\\n\\tx".to_owned()),
        1 => Just("    let x = 1;\\n}".to_owned()),
        8 => line(),
    ]
}

fn pushes(diff: &str, seed: u64) -> Vec<&str> {
    Chunking::Random(seed).split(diff)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A SEARCH text that occurs exactly once (line endings aside) is replaced as a plain splice.
    #[test]
    fn exact_unique_search_is_a_plain_splice(
        file in lines(14),
        from in 0usize..14,
        len in 1usize..5,
        replace in proptest::collection::vec(line(), 0..4),
    ) {
        let from = from % file.len();
        let to = (from + len).min(file.len());
        let search = &file[from..to];
        let original = text(&file, false, true);
        let occurs = (0..=file.len() - search.len())
            .filter(|&i| file[i..i + search.len()] == *search)
            .count();
        prop_assume!(occurs == 1);
        let start: usize = file[..from].iter().map(|l| l.len() + 1).sum();
        let end: usize = start + search.iter().map(|l| l.len() + 1).sum::<usize>();
        let mut want = original[..start].to_owned();
        for l in &replace {
            want.push_str(l);
            want.push('\n');
        }
        want.push_str(&original[end..]);
        let outcome = apply_diff(&block(search, &replace), &original, &ApplyOptions::default())
            .expect("an exact unique SEARCH applies");
        prop_assert_eq!(outcome.new_content, want);
        prop_assert_eq!(outcome.blocks[0].strategy.as_str(), "exact");
        prop_assert_eq!(outcome.blocks[0].start.bytes, start);
    }

    /// A SEARCH text that occurs twice exactly, with no line hint, is always refused.
    #[test]
    fn search_occurring_twice_is_refused(
        before in proptest::collection::vec(line(), 0..5),
        middle in proptest::collection::vec(line(), 0..5),
        after in proptest::collection::vec(line(), 0..5),
        search in lines(4),
        crlf in any::<bool>(),
        final_newline in any::<bool>(),
        replace in proptest::collection::vec(line(), 0..3),
    ) {
        prop_assume!(search.iter().any(|l| !l.trim().is_empty()));
        let all: Vec<String> = [&before, &search, &middle, &search, &after]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        // Without a final newline, a blank last line is no line at all.
        prop_assume!(final_newline || all.last().is_some_and(|l| !l.is_empty()));
        let original = text(&all, crlf, final_newline);
        let err = apply_diff(&block(&search, &replace), &original, &ApplyOptions::default())
            .expect_err("a duplicated SEARCH is refused");
        prop_assert_eq!(err.kind(), ErrorKind::AmbiguousMatch, "{}", err.message());
    }

    /// Chunking never changes the preview at a given prefix, the splices rebuild the preview
    /// in every unit, the preview's pieces join into the preview, the outcome equals the
    /// one-shot outcome and its pieces join into its content.
    #[test]
    fn chunking_never_changes_the_result(
        file in lines(10),
        crlf in any::<bool>(),
        final_newline in any::<bool>(),
        diff_lines in proptest::collection::vec(diff_line(), 0..16),
        diff_newline in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let original = text(&file, crlf, final_newline);
        let mut diff = diff_lines.join("\n");
        if diff_newline {
            diff.push('\n');
        }
        let options = ApplierOptions::new().dialect(Dialect::Native);
        let mut applier = StreamingApplier::new(original.clone(), options.clone());
        let mut mirror = original.clone();
        let mut pushed = 0;
        for piece in pushes(&diff, seed) {
            let update = applier.push(piece).into_owned();
            pushed += piece.len();
            prop_assert_eq!(update.start, TextOffset::of(&mirror[..update.start.bytes]));
            let end = update.start.bytes + update.removed.bytes;
            prop_assert_eq!(update.removed, TextOffset::of(&mirror[update.start.bytes..end]));
            update.apply_to(&mut mirror);
            prop_assert_eq!(mirror.as_str(), applier.preview());
            prop_assert_eq!(applier.preview_len(), TextOffset::of(applier.preview()));
            let joined: String = applier
                .preview_pieces()
                .iter()
                .map(|p| p.text(&original).to_owned())
                .collect();
            prop_assert_eq!(joined.as_str(), applier.preview());
            let mut whole = StreamingApplier::new(original.clone(), options.clone());
            whole.push(&diff[..pushed]);
            prop_assert_eq!(whole.preview(), applier.preview(), "prefix {:?}", &diff[..pushed]);
            prop_assert_eq!(whole.error(), applier.error());
        }
        let as_pieces = applier.clone().finish_pieces().map(|o| o.content.to_string(&original));
        let streamed = applier.finish();
        prop_assert_eq!(as_pieces, streamed.clone().map(|o| o.new_content));
        let one_shot = apply_diff(&diff, &original, &ApplyOptions::default());
        prop_assert_eq!(streamed, one_shot);
    }
}

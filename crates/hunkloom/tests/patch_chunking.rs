//! The streaming patch parser gives the same hunks (and the same errors) however the patch is
//! cut: whole, per line, per character, at seeded random points, and at any proptest chunking.
//! The hunks each push reports, concatenated, are exactly the final hunks.

use hunkloom::patch::{Hunk, PatchParser, parse_patch};
use hunkloom_testkit::Chunking;
use hunkloom_testkit::codex::scenario_dirs;
use proptest::prelude::*;

/// Every scenario patch, plus patches that exercise the lenient reading and the errors.
fn corpus() -> Vec<String> {
    let mut out: Vec<String> = scenario_dirs()
        .into_iter()
        .map(|dir| dir.join("patch.txt"))
        .filter(|p| p.is_file())
        .map(|p| std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    out.extend(
        [
            "<<'EOF'\r\n*** Begin Patch\r\n*** Add File: a\r\n+é ✅\r\n*** Update File: b\r\n import x\r\n\r\n+y\r\n@@ fn f()\r\n-z\r\n*** End of File\r\n*** End Patch\r\nEOF\r\n",
            "\n\n *** Begin Patch \n*** Delete File: x\n  *** Update File: y\n*** Move to: z\n@@\n-a\n+b\n *** End Patch",
            "*** Begin Patch\n*** Update File: y\n@@\n@@\n*** End Patch\n",
            "*** Begin Patch\n*** Add File: y\nno plus\n*** End Patch\n",
            "*** Begin Patch\n*** Add File: y\n+x\n",
            "garbage",
        ]
        .map(str::to_string),
    );
    out
}

/// Parses `pieces` one push at a time; returns the hunks (each push's delta, concatenated) or
/// the error's code and message.
fn streamed(pieces: &[&str]) -> Result<Vec<Hunk>, (String, String)> {
    let mut parser = PatchParser::new();
    let mut seen = Vec::new();
    let err = |e: hunkloom::Error| (e.code().to_string(), e.message().to_string());
    for piece in pieces {
        seen.extend_from_slice(parser.push(piece).map_err(err)?);
    }
    seen.extend_from_slice(parser.finish().map_err(err)?);
    assert_eq!(seen, parser.hunks(), "the deltas add up to the hunks");
    Ok(seen)
}

fn whole(text: &str) -> Result<Vec<Hunk>, (String, String)> {
    parse_patch(text)
        .map(|p| p.hunks)
        .map_err(|e| (e.code().to_string(), e.message().to_string()))
}

#[test]
fn every_chunking_gives_the_same_hunks() {
    for text in corpus() {
        let expected = whole(&text);
        for chunking in [
            Chunking::Whole,
            Chunking::Line,
            Chunking::Char,
            Chunking::Random(7),
            Chunking::Random(20250601),
        ] {
            let pieces = chunking.split(&text);
            assert_eq!(
                streamed(&pieces),
                expected,
                "{} of {text:?}",
                chunking.name()
            );
        }
    }
}

#[test]
fn one_character_at_a_time_reports_each_hunk_once_it_completes() {
    let text = "*** Begin Patch\n*** Add File: a\n+1\n*** Delete File: b\n*** End Patch\n";
    let mut parser = PatchParser::new();
    let mut completed_at = Vec::new();
    for (i, c) in text.char_indices() {
        let done = parser
            .push(&text[i..i + c.len_utf8()])
            .unwrap_or_else(|e| panic!("{e}"));
        if !done.is_empty() {
            completed_at.push((i, done.len()));
        }
    }
    // The Add completes at the `\n` ending `*** Delete File: b`, the Delete at `*** End Patch`.
    let delete_end = text.find("*** End Patch").unwrap_or_default() - 1;
    assert_eq!(completed_at, [(delete_end, 1), (text.len() - 1, 1)]);
}

proptest! {
    #[test]
    fn random_cuts_never_change_the_result(
        index in 0usize..31,
        cuts in proptest::collection::vec(0usize..400, 0..12),
    ) {
        let corpus = corpus();
        let text = &corpus[index % corpus.len()];
        let mut bounds: Vec<usize> = cuts
            .into_iter()
            .map(|c| c % (text.len() + 1))
            .filter(|&c| text.is_char_boundary(c))
            .collect();
        bounds.push(0);
        bounds.push(text.len());
        bounds.sort_unstable();
        bounds.dedup();
        let pieces: Vec<&str> = bounds.windows(2).map(|w| &text[w[0]..w[1]]).collect();
        prop_assert_eq!(streamed(&pieces), whole(text));
    }
}

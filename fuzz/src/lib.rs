//! Helpers shared by the fuzz targets: cutting a text into pushes, and the checks every call
//! must pass (a failure is a crash libFuzzer records).

use hunkloom::StreamingApplier;

/// `text` cut at character boundaries into runs of `1 + cut % 16` characters, taking the cut
/// lengths from `cuts` in turn; the whole text in one piece when `cuts` is empty.
pub fn pieces<'a>(text: &'a str, cuts: &[u8]) -> Vec<&'a str> {
    if cuts.is_empty() {
        return vec![text];
    }
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    for &cut in cuts.iter().cycle() {
        if at + 1 >= bounds.len() {
            break;
        }
        let next = (at + 1 + usize::from(cut % 16)).min(bounds.len() - 1);
        out.push(&text[bounds[at]..bounds[next]]);
        at = next;
    }
    out
}

/// Panics unless `result` is `Ok` or an error with a non-empty code.
pub fn check<T>(what: &str, result: &hunkloom::Result<T>) {
    if let Err(e) = result {
        assert!(!e.code().is_empty(), "{what}: empty error code in {e:?}");
    }
}

/// Pushes `pieces` into `applier`, checking after each push that the splice rebuilds the
/// preview and that every accessor answers; returns the applier for `finish`.
pub fn stream(mut applier: StreamingApplier, pieces: &[&str]) -> StreamingApplier {
    let mut mirror = applier.preview().to_owned();
    for piece in pieces {
        applier.push(piece).apply_to(&mut mirror);
        assert_eq!(mirror, applier.preview(), "the splices rebuild the preview");
        assert_eq!(applier.preview_len().bytes, mirror.len());
        let _ = (applier.blocks_completed(), applier.match_indices());
        if let Some(e) = applier.error() {
            assert!(!e.code().is_empty(), "empty error code in {e:?}");
        }
    }
    applier
}

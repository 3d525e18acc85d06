//! Every Cline conformance vector through the C ABI only: `hl_construct_new_file_content`
//! (stateless: the resume cache off), `hl_applier_*` (streamed whole, per line, per character,
//! per byte, and at seeded random split points on character and on byte boundaries), and
//! `hl_construct_new_file_content` as Cline calls it (growing prefixes at seeded random character
//! cuts, the resume cache on), each prefix checked against the core's stateless call.
//!
//! Prints `<corpus> <mode>: <passed>/<total> passed` per corpus and mode (visible with
//! `--nocapture`, as `make test-c` runs it). No vector is skipped.

use engine::cline::{Version, construct_new_file_content};
use hunkloom_testkit::{
    CLINE_CORPORA, Chunking, ClineVector, SEED, load_cline_corpus, split_random_bytes,
};

use super::ffi::{
    Applier, CacheCapacity, Observed, cache_stats, construct, observed, take_outcome,
};
use hunkloom_c::*;

/// The seed of the growing-prefix cuts (the Node runner's).
const PREFIX_SEED: u64 = 0xC11E;

/// How the diff reaches the library.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Stateless,
    /// The core runner's chunkings: whole, line, char, random (character boundaries).
    Streamed(Chunking),
    /// One byte per push: multi-byte characters split across pushes.
    Bytes,
    /// Seeded random splits at any byte, so also inside characters.
    RandomBytes(u64),
    /// Cline's calling pattern: a call per growing prefix, then the vector's own call.
    GrowingPrefix,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Stateless => "stateless",
            Mode::Streamed(c) => c.name(),
            Mode::Bytes => "byte",
            Mode::RandomBytes(_) => "random-byte",
            Mode::GrowingPrefix => "growing-prefix",
        }
    }

    fn pieces(self, diff: &str) -> Vec<&[u8]> {
        let bytes = diff.as_bytes();
        match self {
            Mode::Stateless | Mode::GrowingPrefix => vec![bytes],
            Mode::Streamed(c) => c.split(diff).into_iter().map(str::as_bytes).collect(),
            Mode::Bytes => bytes.chunks(1).collect(),
            Mode::RandomBytes(seed) => split_random_bytes(bytes, seed),
        }
    }
}

const MODES: [Mode; 8] = [
    Mode::Stateless,
    Mode::Streamed(Chunking::Whole),
    Mode::Streamed(Chunking::Line),
    Mode::Streamed(Chunking::Char),
    Mode::Bytes,
    Mode::Streamed(Chunking::Random(SEED)),
    Mode::RandomBytes(SEED),
    Mode::GrowingPrefix,
];

fn version(v: &ClineVector) -> (hl_cline_version, hl_dialect) {
    match v.version.as_str() {
        "v1" => (HL_CLINE_V1, HL_DIALECT_CLINE_V1),
        "v2" => (HL_CLINE_V2, HL_DIALECT_CLINE_V2),
        other => panic!("vector {} has version {other}", v.id),
    }
}

fn stateless(v: &ClineVector) -> Result<Observed, String> {
    let (status, result, error) = construct(
        v.diff.as_bytes(),
        v.original.as_bytes(),
        v.is_final,
        version(v).0,
    );
    observed(take_outcome(status, result, error, &v.original)?)
}

/// The core's stateless `construct_new_file_content`, as the vectors see it.
pub(super) fn core_stateless(
    diff: &str,
    original: &str,
    is_final: bool,
    version: &str,
) -> Observed {
    let version: Version = version.parse().expect("a vector's version");
    match construct_new_file_content(diff, original, is_final, version) {
        Ok(r) => Observed::Content {
            match_indices: r.match_indices_utf16(),
            new_content: r.new_content,
        },
        Err(e) => Observed::Error(e.message().to_owned()),
    }
}

/// `hl_construct_new_file_content` on every growing prefix (cut at seeded random characters),
/// each equal to the core's stateless call, then the vector's own call.
fn growing_prefix(v: &ClineVector) -> Result<Observed, String> {
    let pieces = Chunking::Random(PREFIX_SEED).split(&v.diff);
    let mut end = 0;
    for piece in pieces.iter().take(pieces.len().saturating_sub(1)) {
        end += piece.len();
        let prefix = &v.diff[..end];
        let (status, result, error) = construct(
            prefix.as_bytes(),
            v.original.as_bytes(),
            false,
            version(v).0,
        );
        let got = observed(take_outcome(status, result, error, &v.original)?)?;
        let want = core_stateless(prefix, &v.original, false, &v.version);
        if got != want {
            return Err(format!(
                "prefix of {end} bytes:\n  want {want:?}\n  got  {got:?}"
            ));
        }
    }
    stateless(v)
}

fn streamed(v: &ClineVector, mode: Mode) -> Result<Observed, String> {
    let mut applier = Applier::new(v.original.as_bytes(), version(v).1)
        .map_err(|s| format!("hl_applier_new: {s:?}"))?;
    // The host's copy of the preview, kept only through the splices.
    let mut mirror = String::new();
    let check_every_push = matches!(mode, Mode::Streamed(Chunking::Line));
    for piece in mode.pieces(&v.diff) {
        let (start, removed, inserted, _) = applier.push(piece)?;
        if start + removed > mirror.len() || !mirror.is_char_boundary(start) {
            return Err(format!("splice {start}+{removed} outside {}", mirror.len()));
        }
        mirror.replace_range(start..start + removed, &inserted);
        if check_every_push && applier.preview().map_err(|s| format!("{s:?}"))? != mirror {
            return Err("a splice does not rebuild the preview".into());
        }
    }
    let preview = applier.preview().map_err(|s| format!("preview: {s:?}"))?;
    if preview != mirror {
        return Err("splices do not rebuild the preview".into());
    }
    let (status, result, error) = applier.end(v.is_final);
    let outcome = take_outcome(status, result, error, &v.original)?;
    if !v.is_final {
        if let Ok((content, _)) = &outcome
            && *content != preview
        {
            return Err("snapshot content differs from the preview".into());
        }
        return observed(outcome);
    }
    // Finished: the handle stays valid and refuses further work.
    let after = applier.push(b"x").err();
    if after.as_deref() != Some("push: AlreadyFinished") {
        return Err(format!("push after finish gave {after:?}"));
    }
    observed(outcome)
}

#[test]
fn every_vector_through_the_c_abi() {
    // The stateless mode turns the resume cache off; the growing-prefix mode counts its hits.
    let _lock = super::resume_cache_lock();
    let mut failures = Vec::new();
    for corpus in CLINE_CORPORA {
        let vectors = load_cline_corpus(corpus);
        assert!(!vectors.is_empty(), "{corpus} is empty");
        for mode in MODES {
            let mut passed = 0;
            let _off = matches!(mode, Mode::Stateless).then(|| CacheCapacity::set(0));
            let hits_before = cache_stats().hits;
            for v in &vectors {
                let want = v.expected();
                let got = match mode {
                    Mode::Stateless => stateless(v),
                    Mode::GrowingPrefix => growing_prefix(v),
                    _ => streamed(v, mode),
                };
                match got {
                    Ok(got) if got == want => passed += 1,
                    Ok(got) => failures.push(format!(
                        "{corpus} {}: {}\n  want {want:?}\n  got  {got:?}",
                        mode.name(),
                        v.id
                    )),
                    Err(why) => failures.push(format!("{corpus} {}: {}: {why}", mode.name(), v.id)),
                }
            }
            println!(
                "{corpus} {}: {passed}/{} passed",
                mode.name(),
                vectors.len()
            );
            // The exact count is `resume::every_prefix_resumes_and_equals_the_stateless_core`'s
            // (other tests' concurrent calls may make one of these count as neither).
            if matches!(mode, Mode::GrowingPrefix) {
                assert!(
                    cache_stats().hits > hits_before,
                    "{corpus}: nothing resumed"
                );
            }
        }
    }
    hunkloom_testkit::assert_no_failures(&failures, 20, "failures");
}

#[test]
fn random_byte_splits_do_cut_characters() {
    let diff = "------- SEARCH\n\u{1F680}\u{e9}\u{20ac}\n=======\n\u{4e2d}\n+++++++ REPLACE\n";
    hunkloom_testkit::assert_cuts_a_character(&Mode::RandomBytes(SEED).pieces(diff), diff);
}

//! Runs every Cline vector through the stateless function and through `StreamingApplier` in four
//! chunkings, keeping the preview as one string and as pieces (the form the JavaScript binding
//! builds its result from), and prints one line per corpus and mode:
//! `<corpus> <mode>: <passed>/<total> passed`.
//!
//! No vector is skipped.

use hunkloom::cline::{Version, construct_new_file_content};
use hunkloom::{ApplierOptions, Dialect, PreviewForm, StreamingApplier, TextOffset};
use hunkloom_testkit::{CLINE_CORPORA, Chunking, ClineOutcome as Observed, ClineVector, SEED};

fn stateless(v: &ClineVector) -> Observed {
    let version: Version = v.version.parse().expect("version");
    match construct_new_file_content(&v.diff, &v.original, v.is_final, version) {
        Ok(r) => Observed::Content {
            match_indices: r.match_indices_utf16(),
            new_content: r.new_content,
        },
        Err(e) => Observed::Error(e.message().to_owned()),
    }
}

fn streamed(v: &ClineVector, chunking: Chunking, form: PreviewForm) -> Result<Observed, String> {
    let dialect = match v.version.as_str() {
        "v1" => Dialect::ClineV1,
        _ => Dialect::ClineV2,
    };
    let options = ApplierOptions::new().dialect(dialect).preview(form);
    let mut applier = StreamingApplier::new(v.original.clone(), options);
    // The UI's copy of the preview, kept only through the splices.
    let mut mirror = String::new();
    for piece in chunking.split(&v.diff) {
        let update = match form {
            PreviewForm::Pieces => {
                let u = applier.push_pieces(piece);
                let inserted: String = u.inserted.iter().map(|p| p.text(&v.original)).collect();
                hunkloom::Update {
                    start: u.start,
                    removed: u.removed,
                    inserted: inserted.into(),
                    blocks_completed: u.blocks_completed,
                    completed: u.completed,
                }
            }
            _ => applier.push(piece),
        };
        if chunking == Chunking::Line {
            let start = TextOffset::of(&mirror[..update.start.bytes]);
            let removed = TextOffset::of(
                &mirror[update.start.bytes..update.start.bytes + update.removed.bytes],
            );
            if start != update.start || removed != update.removed {
                return Err(format!(
                    "splice offsets {:?}/{:?}, want {start:?}/{removed:?}",
                    update.start, update.removed
                ));
            }
        }
        update.apply_to(&mut mirror);
    }
    if mirror != applier.preview() {
        return Err("splices do not rebuild the preview".into());
    }
    if v.is_final && form == PreviewForm::Pieces {
        return Ok(match applier.finish_pieces() {
            Ok(o) => Observed::Content {
                new_content: o.content.to_string(&v.original),
                match_indices: o.match_indices.iter().map(|p| p.utf16).collect(),
            },
            Err(e) => Observed::Error(e.message().to_owned()),
        });
    }
    if v.is_final {
        return Ok(match applier.finish() {
            Ok(o) => Observed::Content {
                new_content: o.new_content,
                match_indices: o.match_indices.iter().map(|p| p.utf16).collect(),
            },
            Err(e) => Observed::Error(e.message().to_owned()),
        });
    }
    Ok(match applier.error() {
        Some(e) => Observed::Error(e.message().to_owned()),
        None => Observed::Content {
            new_content: applier.preview().to_owned(),
            match_indices: applier.match_indices().iter().map(|p| p.utf16).collect(),
        },
    })
}

fn main() {
    let chunkings = [
        Chunking::Whole,
        Chunking::Line,
        Chunking::Char,
        Chunking::Random(SEED),
    ];
    let modes = std::iter::once(None).chain(
        [PreviewForm::Text, PreviewForm::Pieces]
            .into_iter()
            .flat_map(|form| chunkings.map(|c| Some((c, form)))),
    );
    let mut failures = Vec::new();
    for corpus in CLINE_CORPORA {
        let vectors = hunkloom_testkit::load_cline_corpus(corpus);
        for mode in modes.clone() {
            let mut passed = 0;
            for v in &vectors {
                let want = v.expected();
                let got = match mode {
                    None => Ok(stateless(v)),
                    Some((chunking, form)) => streamed(v, chunking, form),
                };
                match got {
                    Ok(got) if got == want => passed += 1,
                    Ok(got) => failures.push(format!(
                        "{corpus} {}: {}\n  want {want:?}\n  got  {got:?}",
                        mode_name(mode),
                        v.id
                    )),
                    Err(why) => {
                        failures.push(format!("{corpus} {}: {}: {why}", mode_name(mode), v.id))
                    }
                }
            }
            println!(
                "{corpus} {}: {passed}/{} passed",
                mode_name(mode),
                vectors.len()
            );
        }
    }
    hunkloom_testkit::exit_on_failures(&failures, 20, "failures");
}

fn mode_name(mode: Option<(Chunking, PreviewForm)>) -> String {
    match mode {
        None => "stateless".to_owned(),
        Some((chunking, PreviewForm::Pieces)) => format!("{} pieces", chunking.name()),
        Some((chunking, _)) => chunking.name().to_owned(),
    }
}

//! The native reading of V4A bodies (`hunkloom::patch::native::apply_body`) on every row of
//! `openai-v4a/v4a.jsonl` with an intended result: counts correct / refused / wrong per
//! family, beside the OpenAI Agents SDK's reading (the row's `expect`) and Codex's (its
//! `codex`), printed one line per family and a total line. Fails on any wrong file, or below
//! 80% correct. Every body is also pushed through `NativeBodyApplier` per line, per char and
//! in random pieces, which must give the one-shot result (or its error), its preview rebuilt
//! from the splices of `preview_update` after each piece.

#[path = "support/splices.rs"]
mod splices;

use std::collections::BTreeMap;

use hunkloom::patch::native::{NativeBodyApplier, NativeOutcome, apply_body};
use hunkloom::patch::v4a::V4aMode;
use hunkloom::patch::{PatchDialect, PatchOptions, plan_patch};
use hunkloom_testkit::v4a::{self, Verdict, codex_path};
use hunkloom_testkit::{Chunking, SEED};

/// The body pushed in `chunking`'s pieces; after each, the splices of `preview_update` must
/// rebuild `preview`.
fn streamed(row: &v4a::Row, mode: V4aMode, chunking: Chunking) -> hunkloom::Result<NativeOutcome> {
    let mut applier = NativeBodyApplier::new(row.input.as_str(), mode);
    let mut shown = applier.preview();
    for piece in chunking.split(&row.diff) {
        let pushed = applier.push(piece).map(drop);
        let update = applier.preview_update();
        let what = format!("row {} ({chunking:?})", row.id);
        splices::follow(
            &mut shown,
            update,
            pushed.is_err(),
            || applier.preview(),
            what,
        );
        pushed?;
    }
    applier.finish()
}

/// Correct, refused and wrong counts.
#[derive(Clone, Copy, Default)]
struct Counts([usize; 3]);

impl Counts {
    fn add(&mut self, v: Verdict) {
        self.0[v as usize] += 1;
    }
    fn total(&self) -> usize {
        self.0.iter().sum()
    }
    fn show(&self) -> String {
        format!("{:>4} / {:>3} / {:>3}", self.0[0], self.0[1], self.0[2])
    }
}

fn main() {
    let mut families: BTreeMap<String, [Counts; 3]> = BTreeMap::new();
    let mut wrong = Vec::new();
    let mut envelope = Counts::default();
    let mut stream_mismatch = Vec::new();
    for row in v4a::load() {
        let Some(intended) = row.intended.as_deref() else {
            continue;
        };
        let mode: V4aMode = row.mode.parse().expect("mode");
        let got = apply_body(&row.input, &row.diff, mode);
        for chunking in [Chunking::Line, Chunking::Char, Chunking::Random(SEED)] {
            let again = streamed(&row, mode, chunking);
            let same = match (&got, &again) {
                (Ok(a), Ok(b)) => a == b,
                (Err(a), Err(b)) => a.message() == b.message(),
                _ => false,
            };
            if !same {
                stream_mismatch.push(format!("{} ({chunking:?})", row.id));
            }
        }
        let got = got
            .as_ref()
            .map(|o| o.new_content.as_str())
            .map_err(|e| e.message());
        let verdict = Verdict::of(intended, got);
        if verdict == Verdict::Wrong {
            wrong.push(format!("{} ({})", row.id, row.family));
            if std::env::var_os("HUNKLOOM_V4A_SHOW").is_some() {
                show(&row, intended, got.unwrap_or_default());
            }
        }
        if verdict == Verdict::Refused
            && std::env::var("HUNKLOOM_V4A_REFUSED").is_ok_and(|f| f == row.family)
        {
            println!(
                "---- {} {:?}\n{}\n  refused: {}",
                row.id,
                row.mode,
                row.diff,
                got.err().unwrap_or_default()
            );
        }
        // The same body inside a `*** Begin Patch` envelope, through the native patch dialect.
        let wrapped = wrapped(&row, mode);
        let file = codex_path(&row.mode);
        let tree = BTreeMap::from([(file.to_owned(), row.input.clone())]);
        let tree = if mode == V4aMode::Create {
            BTreeMap::new()
        } else {
            tree
        };
        let options = PatchOptions::new().dialect(PatchDialect::Native);
        let enveloped = plan_patch(&wrapped, &tree, &options).map(|plan| {
            let mut after = tree.clone();
            plan.apply_to(&mut after);
            // A body that starts with `*** Move to:` moves the file in an envelope: its text
            // is wherever it went.
            match (after.get(file), after.len()) {
                (Some(text), _) => text.clone(),
                (None, 1) => after.into_values().next().unwrap_or_default(),
                (None, _) => String::new(),
            }
        });
        let enveloped = Verdict::of(intended, enveloped.as_deref().map_err(|e| e.message()));
        envelope.add(enveloped);
        if enveloped == Verdict::Wrong {
            wrong.push(format!("{} ({}) in an envelope", row.id, row.family));
        }
        let counts = families.entry(row.family.clone()).or_default();
        counts[0].add(verdict);
        counts[1].add(Verdict::of_reference(&row, intended));
        counts[2].add(Verdict::of_codex(&row, intended));
    }
    let mut all = [Counts::default(); 3];
    println!("v4a-native: correct / refused / wrong — native | Agents SDK | Codex");
    for (family, counts) in &families {
        for (total, c) in all.iter_mut().zip(counts) {
            for (t, n) in total.0.iter_mut().zip(c.0) {
                *t += n;
            }
        }
        println!(
            "  {family:<18} {} | {} | {}",
            counts[0].show(),
            counts[1].show(),
            counts[2].show()
        );
    }
    let total = all[0].total();
    println!(
        "v4a-native: {} of {total} correct ({:.1}%), {} refused, {} wrong; Agents SDK {} correct, {} wrong; Codex {} correct, {} wrong",
        all[0].0[0],
        100.0 * all[0].0[0] as f64 / total as f64,
        all[0].0[1],
        all[0].0[2],
        all[1].0[0],
        all[1].0[2],
        all[2].0[0],
        all[2].0[2]
    );
    println!(
        "v4a-native in a *** Begin Patch envelope: {} of {total} correct, {} refused, {} wrong",
        envelope.0[0], envelope.0[1], envelope.0[2]
    );
    for w in &wrong {
        println!("  wrong: {w}");
    }
    println!(
        "v4a-native streamed (line, char, random pieces): {} of {} differ from the one-shot result",
        stream_mismatch.len(),
        3 * total
    );
    for m in stream_mismatch.iter().take(5) {
        println!("  streamed differently: {m}");
    }
    let correct_share = all[0].0[0] as f64 / total as f64;
    if !wrong.is_empty() || correct_share < 0.80 || !stream_mismatch.is_empty() {
        eprintln!(
            "v4a-native: {} wrong, {:.1}% correct (need 0 and 80%)",
            wrong.len(),
            100.0 * correct_share
        );
        std::process::exit(1);
    }
}

/// Prints a wrong row: its body and the first lines where the result leaves the intent.
fn show(row: &v4a::Row, intended: &str, got: &str) {
    println!(
        "==== {} {} {:?}\n{}",
        row.id, row.family, row.mode, row.diff
    );
    let (want, have): (Vec<&str>, Vec<&str>) = (intended.lines().collect(), got.lines().collect());
    let first = want
        .iter()
        .zip(&have)
        .position(|(a, b)| a != b)
        .unwrap_or(want.len().min(have.len()));
    for i in first.saturating_sub(2)..(first + 4) {
        println!("  want {:?}\n  got  {:?}", want.get(i), have.get(i));
    }
}

/// The row's body inside the envelope codex-rs was given (see the corpus README).
fn wrapped(row: &v4a::Row, mode: V4aMode) -> String {
    let header = match mode {
        V4aMode::Create => "*** Add File: src/new.txt",
        _ => "*** Update File: src/app.txt",
    };
    let newline = if row.diff.ends_with('\n') || row.diff.is_empty() {
        ""
    } else {
        "\n"
    };
    format!(
        "*** Begin Patch\n{header}\n{}{newline}*** End Patch\n",
        row.diff
    )
}

//! Runs Roo's `apply_diff` corpora (`tests/vectors/roo-multi-search-replace*`):
//!
//! - `drop-in`: `roo::apply_diff`, the whole `DiffResult` compared as JSON with `expect`;
//! - `whole`, `line`, `char`, `random`: the `roo` dialect through `StreamingApplier` fed the diff
//!   in that chunking (with the row's threshold and buffer lines), its `Outcome` or error
//!   compared with what `expect` means for the dialect; `apply`: the same through `apply_diff`;
//! - `roo-msr-markers`: `roo::validate_marker_sequencing` on every row.
//!
//! Prints `<corpus> <mode>: <passed>/<total> passed` per mode and `<corpus>: <passed>/<total>
//! passed` (rows that passed in every mode). No row is skipped. Exits non-zero on any failure.

use hunkloom::roo::{self, RooOptions};
use hunkloom::{ApplierOptions, ApplyOptions, BlockStatus, Dialect, StreamingApplier};
use hunkloom_testkit::roo::{
    DialectOutcome, ModeTally, ROO_MSR_CORPORA, ROO_MSR_MARKERS, RooMarkersRow, RooMsrRow,
    check_diff_result, diff_result_json, load_roo_msr,
};
use hunkloom_testkit::{Chunking, SEED};

fn options(row: &RooMsrRow) -> RooOptions {
    RooOptions::new()
        .fuzzy_threshold(row.fuzzy_threshold())
        .buffer_lines(row.buffer_lines())
}

fn drop_in(row: &RooMsrRow) -> Result<(), String> {
    let result = roo::apply_diff(&row.original, &row.diff, &options(row));
    let parts: Vec<&str> = result.fail_parts().iter().map(|e| e.message()).collect();
    let got = match &result {
        roo::DiffResult::Invalid { error } => {
            diff_result_json(false, None, Some(error.message()), &[])
        }
        _ => diff_result_json(result.success(), result.content(), None, &parts),
    };
    check_diff_result(row, &got)
}

fn observed(result: hunkloom::Result<hunkloom::Outcome>) -> DialectOutcome {
    match result {
        Ok(o) => DialectOutcome::Applied {
            failed: o
                .blocks
                .iter()
                .filter(|b| b.status == BlockStatus::Failed)
                .map(|b| b.error.as_ref().map_or("", |e| e.message()).to_owned())
                .collect(),
            content: o.new_content,
        },
        Err(e) => DialectOutcome::Refused(e.message().to_owned()),
    }
}

fn compare(row: &RooMsrRow, got: DialectOutcome) -> Result<(), String> {
    let want = row.expected_dialect();
    if got == want {
        Ok(())
    } else {
        Err(format!("\n  want {want:?}\n  got  {got:?}"))
    }
}

fn streamed(row: &RooMsrRow, chunking: Chunking) -> Result<(), String> {
    let opts = ApplierOptions::new()
        .dialect(Dialect::Roo)
        .roo(options(row));
    let mut applier = StreamingApplier::new(row.original.clone(), opts);
    for piece in chunking.split(&row.diff) {
        let update = applier.push(piece);
        if !update.is_noop() {
            return Err("a push changed the preview".into());
        }
    }
    if applier.preview() != row.original {
        return Err("the preview is not the original before finish".into());
    }
    compare(row, observed(applier.finish()))
}

fn one_shot(row: &RooMsrRow) -> Result<(), String> {
    let opts = ApplyOptions::new().dialect(Dialect::Roo).roo(options(row));
    compare(
        row,
        observed(hunkloom::apply_diff(&row.diff, &row.original, &opts)),
    )
}

fn main() {
    let chunkings = [
        Chunking::Whole,
        Chunking::Line,
        Chunking::Char,
        Chunking::Random(SEED),
    ];
    let mut failures = Vec::new();
    for &(corpus, file) in ROO_MSR_CORPORA {
        let rows = load_roo_msr(file);
        let mut tally = ModeTally::new(rows.len());
        for (i, row) in rows.iter().enumerate() {
            tally.record(corpus, "drop-in", i, &row.id, drop_in(row));
            tally.record(corpus, "apply", i, &row.id, one_shot(row));
            for c in chunkings {
                tally.record(corpus, c.name(), i, &row.id, streamed(row, c));
            }
        }
        tally.print(corpus);
        failures.append(&mut tally.failures);
    }

    let (corpus, file) = ROO_MSR_MARKERS;
    let rows: Vec<RooMarkersRow> = hunkloom_testkit::load_jsonl(file);
    let mut tally = ModeTally::new(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let got = roo::validate_marker_sequencing(&row.diff).err();
        let got = got.as_ref().map(|e| e.message());
        let r = if got == row.expected_error() {
            Ok(())
        } else {
            Err(format!("want {:?}, got {got:?}", row.expected_error()))
        };
        tally.record(corpus, "validate", i, &row.id, r);
    }
    tally.print(corpus);
    failures.append(&mut tally.failures);
    hunkloom_testkit::exit_on_failures(&failures, 10, "failures");
}

//! The V4A corpus (`openai-v4a/v4a.jsonl`) through `hl_apply_v4a`, judged as the core's runner
//! judges it (`hunkloom-testkit`'s `v4a` module): the reference's text, or an engine error
//! (`HL_STATUS_EDIT_REJECTED`) with its exact message. Prints `v4a c-abi: <passed>/<total>
//! passed` (visible with `--nocapture`, as `make test-c` runs it). No row is skipped.

use hunkloom_testkit::Tally;
use hunkloom_testkit::v4a::{self, CORPUS};

use super::ops_ffi::apply_v4a;
use crate::*;

#[test]
fn v4a_vectors_through_hl_apply_v4a() {
    let mut tally = Tally::default();
    for row in v4a::load() {
        let mode = match row.mode.as_str() {
            "create" => HL_V4A_MODE_CREATE,
            _ => HL_V4A_MODE_DEFAULT,
        };
        let outcome = match apply_v4a(row.input.as_bytes(), row.diff.as_bytes(), mode) {
            Ok(Ok(text)) => v4a::judge(&row, Ok(&text)),
            Ok(Err(e)) if e.status == hl_status::EditRejected => v4a::judge(&row, Err(&e.message)),
            Ok(Err(e)) => Err(format!("{e:?}")),
            Err(status) => Err(format!("binding status {status:?}")),
        };
        tally.record("c-abi", &row.id, outcome);
    }
    tally.print_parts(CORPUS);
    hunkloom_testkit::assert_no_failures(&tally.failures, 5, "failures");
}

//! Roo's `apply_diff` corpora (`roo-multi-search-replace*`) through `hl_apply_diff` with
//! `HL_DIALECT_ROO` and each row's threshold and buffer lines (0 selecting Roo's defaults), read
//! back whole and compared as the core's runner compares the `roo` dialect: the content and
//! the failed blocks' messages, or the refusal's message. Prints `<corpus> c: <passed>/<total>
//! passed` per corpus. No row is skipped.

use hunkloom_testkit::roo::{DialectOutcome, ROO_MSR_CORPORA, RooMsrRow, load_roo_msr};

use super::ffi::{apply, take_full};
use hunkloom_c::*;

fn options(row: &RooMsrRow) -> hl_apply_options {
    hl_apply_options {
        dialect: HL_DIALECT_ROO,
        fuzzy_threshold: row.constructor_args[0].unwrap_or(0.0),
        buffer_lines: match row.constructor_args[1] {
            None => 0,
            Some(n) if n < 1.0 => HL_ROO_BUFFER_LINES_NONE,
            Some(n) => n as u32,
        },
        ..Default::default()
    }
}

fn through_c(row: &RooMsrRow) -> Result<DialectOutcome, String> {
    let opts = options(row);
    let (status, result, error) = apply(row.diff.as_bytes(), row.original.as_bytes(), Some(&opts));
    Ok(match take_full(status, result, error, &row.original)? {
        Ok((content, _, blocks)) => DialectOutcome::Applied {
            content,
            failed: blocks
                .iter()
                .filter(|b| b.status == HL_BLOCK_FAILED)
                .map(|b| b.error.as_ref().map_or(String::new(), |e| e.1.clone()))
                .collect(),
        },
        Err(e) => DialectOutcome::Refused(e.message),
    })
}

#[test]
fn roo_corpora_through_hl_apply_diff() {
    let mut failures = Vec::new();
    for &(corpus, file) in ROO_MSR_CORPORA {
        let rows = load_roo_msr(file);
        let mut passed = 0;
        for row in &rows {
            match through_c(row) {
                Ok(got) if got == row.expected_dialect() => passed += 1,
                Ok(got) => failures.push(format!(
                    "{corpus} {}: want {:?}, got {got:?}",
                    row.id,
                    row.expected_dialect()
                )),
                Err(why) => failures.push(format!("{corpus} {}: {why}", row.id)),
            }
        }
        println!("{corpus} c: {passed}/{} passed", rows.len());
    }
    hunkloom_testkit::assert_no_failures(&failures, 10, "roo rows failed through the C ABI");
}

//! `patchloom apply`.

use std::io::Read;
use std::path::Path;

use patchloom::{ApplierOptions, Dialect, StreamingApplier};

use crate::atomic::write_atomically;

pub(crate) fn run(
    diff_path: &Path,
    dialect: Dialect,
    dry_run: bool,
    file: &Path,
) -> Result<(), String> {
    let diff = if diff_path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read the diff from standard input: {e}"))?;
        text
    } else {
        read_text(diff_path)?
    };
    let original = read_text(file)?;
    let mut applier = StreamingApplier::new(original, ApplierOptions::new().dialect(dialect));
    applier.push(&diff);
    let original = applier.original().to_owned();
    let outcome = applier
        .finish()
        .map_err(|e| format!("{} left unchanged: [{}] {e}", file.display(), e.code()))?;
    if dry_run {
        print!(
            "{}",
            crate::unified_diff(&file.display().to_string(), &original, &outcome.new_content)
        );
        return Ok(());
    }
    if outcome.new_content != original {
        write_atomically(file, outcome.new_content.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    eprintln!(
        "patchloom: {}: {} block(s) applied",
        file.display(),
        outcome.blocks.len()
    );
    Ok(())
}

fn read_text(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes)
        .map_err(|_| format!("{} is not UTF-8 text; nothing was changed", path.display()))
}

//! `patchloom apply`, through the file layer: the file must lie inside the root (the current
//! directory or `--root`), and its encoding, BOM and line endings, the atomic replacement and
//! the refusals all come from `patchloom-fs`.

use std::io::Read;
use std::path::Path;

use patchloom::{ApplyOptions, Dialect, ErrorKind};
use patchloom_fs::{Op, Report, Workspace, WorkspaceOptions};

pub(crate) fn run(
    diff_path: &Path,
    dialect: Dialect,
    dry_run: bool,
    file: &Path,
    root: Option<&Path>,
) -> Result<(), String> {
    let diff = if diff_path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read the diff from standard input: {e}"))?;
        text
    } else {
        let bytes = std::fs::read(diff_path)
            .map_err(|e| format!("cannot read {}: {e}", diff_path.display()))?;
        String::from_utf8(bytes)
            .map_err(|_| format!("{} is not UTF-8 text", diff_path.display()))?
    };
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot find the current directory: {e}"))?;
    // FILE is relative to the current directory, whatever the root.
    let target = cwd.join(file);
    let unchanged =
        |e: patchloom::Error| format!("{} left unchanged: [{}] {e}", file.display(), e.code());
    let mut workspace = Workspace::open(root.unwrap_or(&cwd), WorkspaceOptions::new())
        .map_err(|e| format!("[{}] {e}", e.code()))?;
    // The person running the command has the file in front of them: it counts as read.
    match workspace.read(&target) {
        Err(e) if e.kind() != ErrorKind::FileNotFound => return Err(unchanged(e)),
        _ => {}
    }
    let op = Op::Diff {
        diff,
        options: ApplyOptions::new().dialect(dialect),
    };
    let change = workspace.plan(&target, &op).map_err(unchanged)?;
    if dry_run {
        print!(
            "{}",
            crate::unified_diff(
                &file.display().to_string(),
                change.old_text().unwrap_or(""),
                change.new_text().unwrap_or("")
            )
        );
        return Ok(());
    }
    let blocks = match change.report() {
        Report::Diff(outcome) => outcome.blocks.len(),
        _ => 0,
    };
    workspace.commit(vec![change]).map_err(unchanged)?;
    eprintln!("patchloom: {}: {blocks} block(s) applied", file.display());
    Ok(())
}

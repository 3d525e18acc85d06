//! `hunkloom apply`, through the file layer: the file must lie inside the root (the current
//! directory or `--root`), and its encoding, BOM and line endings, the atomic replacement and
//! the refusals all come from `hunkloom-fs`. A multi-file patch (`--patch`, or a `--diff`
//! that starts like one) goes to [`crate::patch`].

use std::io::Read;
use std::path::{Path, PathBuf};

use hunkloom::{ApplyOptions, Dialect, ErrorKind};
use hunkloom_fs::{Op, Report, Workspace, WorkspaceOptions};

/// The arguments of `hunkloom apply`.
pub(crate) struct Args {
    pub(crate) diff: Option<PathBuf>,
    pub(crate) patch: Option<PathBuf>,
    pub(crate) dialect: Option<String>,
    pub(crate) partial: bool,
    pub(crate) dry_run: bool,
    pub(crate) root: Option<PathBuf>,
    pub(crate) file: Option<PathBuf>,
}

pub(crate) fn run(args: &Args) -> Result<(), String> {
    let (source, forced_patch) = match (&args.patch, &args.diff) {
        (Some(patch), _) => (patch, true),
        (None, Some(diff)) => (diff, false),
        (None, None) => return Err("give --diff EDIT or --patch PATCH".to_owned()),
    };
    let text = read_input(source)?;
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot find the current directory: {e}"))?;
    let root = args.root.as_deref().unwrap_or(&cwd);
    if forced_patch || hunkloom::patch::is_patch(&text) {
        if let Some(file) = &args.file {
            return Err(format!(
                "a patch names its own files; remove the FILE argument ({})",
                file.display()
            ));
        }
        return crate::patch::run(&text, args, root);
    }
    if args.partial {
        return Err("--partial applies to patches only".to_owned());
    }
    let Some(file) = &args.file else {
        return Err("FILE is required: the file the diff edits".to_owned());
    };
    let dialect: Dialect = args
        .dialect
        .as_deref()
        .unwrap_or("native")
        .parse()
        .map_err(|e: hunkloom::Error| e.to_string())?;
    apply_diff(text, dialect, args.dry_run, file, root, &cwd)
}

/// The text of `path`, or of standard input for `-`, at most the file layer's default size
/// limit. A FIFO with no writer reads as empty and a device or directory is refused (see
/// [`hunkloom_fs::read_edit_input`]), so the command never hangs on its input.
fn read_input(path: &Path) -> Result<String, String> {
    let limit = WorkspaceOptions::new().max_file_size;
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| format!("[io_error] cannot read the edit from standard input: {e}"))?;
        if bytes.len() as u64 > limit {
            return Err(format!(
                "[file_too_large] the edit on standard input is more than {limit} bytes"
            ));
        }
        String::from_utf8(bytes)
            .map_err(|_| "[unsupported_encoding] standard input is not UTF-8 text".to_owned())
    } else {
        hunkloom_fs::read_edit_input(path, limit).map_err(|e| format!("[{}] {e}", e.code()))
    }
}

/// A SEARCH/REPLACE diff on one file.
fn apply_diff(
    diff: String,
    dialect: Dialect,
    dry_run: bool,
    file: &Path,
    root: &Path,
    cwd: &Path,
) -> Result<(), String> {
    // FILE is relative to the current directory, whatever the root.
    let target = cwd.join(file);
    let unchanged =
        |e: hunkloom::Error| format!("{} left unchanged: [{}] {e}", file.display(), e.code());
    let mut workspace = Workspace::open(root, WorkspaceOptions::new())
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
    eprintln!("hunkloom: {}: {blocks} block(s) applied", file.display());
    Ok(())
}

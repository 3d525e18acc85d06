//! `hunkloom apply`, through the file layer: the file must lie inside the root (the current
//! directory or `--root`), and its encoding, BOM and line endings, the atomic replacement and
//! the refusals all come from `hunkloom-fs`. A multi-file patch (`--patch`, or a `--diff`
//! that starts like one, bare or inside the `apply_patch <<'EOF'` command a model writes) goes
//! to [`crate::patch`].

use std::io::Read;
use std::path::{Path, PathBuf};

use hunkloom::{ApplyOptions, BlockStatus, Dialect, ErrorKind, Policy};
use hunkloom_fs::{Op, Report, Workspace, WorkspaceOptions};

use crate::Failure;

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

/// A usage error of `hunkloom apply` (exit status 2).
pub(crate) fn usage(message: impl Into<String>) -> Failure {
    Failure::Usage {
        subcommand: "apply",
        message: message.into(),
    }
}

pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let (source, forced_patch) = match (&args.patch, &args.diff) {
        (Some(patch), _) => (patch, true),
        (None, Some(diff)) => (diff, false),
        (None, None) => return Err(usage("give --diff EDIT or --patch PATCH")),
    };
    let mut text = read_input(source).map_err(Failure::Refused)?;
    // A model's shell call, `apply_patch <<'EOF'` ... `EOF`, piped on as it is.
    if let Some(body) = hunkloom::patch::strip_invocation(&text) {
        text = body.to_owned();
    }
    let cwd = std::env::current_dir()
        .map_err(|e| Failure::Refused(format!("cannot find the current directory: {e}")))?;
    let root = args.root.as_deref().unwrap_or(&cwd);
    if forced_patch || hunkloom::patch::is_patch(&text) {
        if let Some(file) = &args.file {
            return Err(usage(format!(
                "a patch names its own files; remove the FILE argument ({})",
                file.display()
            )));
        }
        return crate::patch::run(&text, args, root);
    }
    let Some(file) = &args.file else {
        return Err(usage(
            "FILE is required: the file the diff edits (a `*** Begin Patch` patch names its own)",
        ));
    };
    let dialect: Dialect = args
        .dialect
        .as_deref()
        .unwrap_or("native")
        .parse()
        .map_err(|e: hunkloom::Error| usage(e.to_string()))?;
    if args.partial && dialect != Dialect::Native {
        return Err(usage(format!(
            "--partial applies to the native dialect and to patches; {dialect} applies every \
             block or fails as Cline does"
        )));
    }
    apply_diff(text, dialect, args, file, root, &cwd).map_err(Failure::Refused)
}

/// `[code] message` for an error about `root`'s files; a path outside the root also says how to
/// choose another root.
pub(crate) fn explain(e: &hunkloom::Error, root: &Path) -> String {
    if e.kind() == ErrorKind::PathOutsideRoot {
        format!(
            "[{}] {e} Pass --root DIR to edit files under another directory (the root is {}; \
             FILE is taken relative to the current directory).",
            e.code(),
            root.display()
        )
    } else {
        format!("[{}] {e}", e.code())
    }
}

/// The text of `path`, or of standard input for `-`.
fn read_input(path: &Path) -> Result<String, String> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read the edit from standard input: {e}"))?;
        Ok(text)
    } else {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", path.display()))
    }
}

/// A SEARCH/REPLACE diff on one file; with `--partial` (native dialect), the blocks that
/// matched are written and each failed one is reported, and the command fails if any did.
fn apply_diff(
    diff: String,
    dialect: Dialect,
    args: &Args,
    file: &Path,
    root: &Path,
    cwd: &Path,
) -> Result<(), String> {
    // FILE is relative to the current directory, whatever the root.
    let target = cwd.join(file);
    let unchanged =
        |e: hunkloom::Error| format!("{} left unchanged: {}", file.display(), explain(&e, root));
    let mut workspace =
        Workspace::open(root, WorkspaceOptions::new()).map_err(|e| explain(&e, root))?;
    // The person running the command has the file in front of them: it counts as read.
    match workspace.read(&target) {
        Err(e) if e.kind() != ErrorKind::FileNotFound => return Err(unchanged(e)),
        _ => {}
    }
    let policy = if args.partial {
        Policy::Partial
    } else {
        Policy::AllOrNothing
    };
    let op = Op::Diff {
        diff,
        options: ApplyOptions::new().dialect(dialect).policy(policy),
    };
    let change = workspace.plan(&target, &op).map_err(unchanged)?;
    let (applied, failed) = match change.report() {
        Report::Diff(outcome) => {
            let failed: Vec<_> = outcome
                .blocks
                .iter()
                .filter(|b| b.status == BlockStatus::Failed)
                .map(|b| match &b.error {
                    Some(e) => format!("block {} not applied: [{}] {e}", b.index + 1, e.code()),
                    None => format!("block {} not applied", b.index + 1),
                })
                .collect();
            (outcome.blocks.len() - failed.len(), failed)
        }
        _ => (0, Vec::new()),
    };
    if args.dry_run {
        print!(
            "{}",
            crate::unified_diff(
                &file.display().to_string(),
                change.old_text().unwrap_or(""),
                change.new_text().unwrap_or("")
            )
        );
    } else {
        workspace.commit(vec![change]).map_err(unchanged)?;
        eprintln!("hunkloom: {}: {applied} block(s) applied", file.display());
    }
    if failed.is_empty() {
        return Ok(());
    }
    for line in &failed {
        eprintln!("hunkloom: {}: {line}", file.display());
    }
    Err(format!(
        "{}: {} of {} block(s) not applied",
        file.display(),
        failed.len(),
        applied + failed.len()
    ))
}

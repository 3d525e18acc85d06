//! `hunkloom apply`, through the file layer: the file must lie inside the root (the current
//! directory or `--root`), and its encoding, BOM and line endings, the atomic replacement and
//! the refusals all come from `hunkloom-fs`. A unified diff (`--dialect udiff` or
//! `udiff-strict`) applies to FILE like a diff, or without FILE as a patch of the files it
//! names. A lazy snippet (`--lazy`) and a V4A body
//! (`--dialect v4a`) go the same way as a diff. A multi-file patch (`--patch`, or a `--diff`
//! that starts like one, bare or inside the `apply_patch <<'EOF'` command a model writes) goes
//! to [`crate::patch`]. Its arguments are [`crate::apply_args`].

use std::io::Read;
use std::path::Path;

use hunkloom::lazy::Language;
use hunkloom::patch::v4a::V4aMode;
use hunkloom::roo::RooOptions;
use hunkloom::{ApplyOptions, BlockStatus, Dialect, ErrorKind, Policy};
use hunkloom_fs::{Op, Report, Workspace, WorkspaceOptions};

use crate::Failure;
use crate::apply_args::{Args, explain, usage};

/// Runs `hunkloom apply`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let cwd = std::env::current_dir()
        .map_err(|e| Failure::Refused(format!("cannot find the current directory: {e}")))?;
    let root = args.root.as_deref().unwrap_or(&cwd);
    if let Some(lazy) = &args.lazy {
        return apply_lazy(args, lazy, root, &cwd);
    }
    let (source, forced_patch) = match (&args.patch, &args.diff) {
        (Some(patch), _) => (patch, true),
        (None, Some(diff)) => (diff, false),
        (None, None) => return Err(usage("give --diff EDIT, --lazy SNIPPET or --patch PATCH")),
    };
    let mut text = read_input(source).map_err(Failure::Refused)?;
    let v4a = args.dialect.as_deref() == Some(V4A);
    // A model's shell call, `apply_patch <<'EOF'` ... `EOF`, piped on as it is.
    if !v4a && let Some(body) = hunkloom::patch::strip_invocation(&text) {
        text = body.to_owned();
    }
    // A unified diff without FILE is a git patch: it names its own files.
    let unified = matches!(args.dialect.as_deref(), Some("udiff" | "udiff-strict"));
    // A V4A body is applied as the reference applies it, even one that starts like a patch.
    if forced_patch
        || (!v4a && hunkloom::patch::is_patch(&text))
        || (unified && args.file.is_none())
    {
        if let Some(file) = &args.file {
            return Err(usage(format!(
                "a patch names its own files; remove the FILE argument ({})",
                file.display()
            )));
        }
        if args.create {
            return Err(usage(format!("--create applies to --dialect {V4A} only")));
        }
        return crate::patch::run(&text, args, root);
    }
    let Some(file) = &args.file else {
        return Err(usage(
            "FILE is required: the file the diff edits (a `*** Begin Patch` patch names its own)",
        ));
    };
    let op = if v4a {
        if args.recount {
            return Err(usage("--recount applies to --dialect udiff-strict only"));
        }
        if args.partial {
            return Err(usage("--partial does not apply to --dialect v4a"));
        }
        let mode = if args.create {
            V4aMode::Create
        } else {
            V4aMode::Default
        };
        Op::V4a { diff: text, mode }
    } else {
        if args.create {
            return Err(usage(format!("--create applies to --dialect {V4A} only")));
        }
        let dialect: Dialect = args
            .dialect
            .as_deref()
            .unwrap_or("native")
            .parse()
            .map_err(|e: hunkloom::Error| usage(format!("{e} (or {V4A} for a V4A body)")))?;
        if args.partial && !matches!(dialect, Dialect::Native | Dialect::Udiff) {
            return Err(usage(format!(
                "--partial applies to the native and udiff dialects and to patches; {dialect} \
                 applies every block or fails as it does"
            )));
        }
        if args.recount && dialect != Dialect::UdiffStrict {
            return Err(usage("--recount applies to --dialect udiff-strict only"));
        }
        let policy = if args.partial {
            Policy::Partial
        } else {
            Policy::AllOrNothing
        };
        let mut options = ApplyOptions::new()
            .dialect(dialect)
            .policy(policy)
            .recount(args.recount);
        if let Some(threshold) = args.fuzzy_threshold {
            if dialect != Dialect::Roo {
                return Err(usage("--fuzzy-threshold applies to --dialect roo only"));
            }
            options = options.roo(RooOptions::new().fuzzy_threshold(threshold));
        }
        Op::Diff {
            diff: text,
            options,
        }
    };
    apply_op(&op, args, file, root, &cwd).map_err(Failure::Refused)
}

/// The `--dialect` of a V4A body.
const V4A: &str = "v4a";

/// `--lazy SNIPPET FILE`: a lazy edit of one file.
fn apply_lazy(args: &Args, source: &Path, root: &Path, cwd: &Path) -> Result<(), Failure> {
    if args.partial
        || args.create
        || args.recount
        || args.dialect.is_some()
        || args.fuzzy_threshold.is_some()
    {
        return Err(usage(
            "--partial, --create, --recount, --dialect and --fuzzy-threshold do not apply to \
             --lazy (see --lang)",
        ));
    }
    let Some(file) = &args.file else {
        return Err(usage("FILE is required: the file the lazy snippet edits"));
    };
    let language = match &args.lang {
        Some(name) => Some(Language::from_name(name).map_err(|e| usage(e.to_string()))?),
        None => None,
    };
    let op = Op::Lazy {
        snippet: read_input(source).map_err(Failure::Refused)?,
        language,
    };
    apply_op(&op, args, file, root, cwd).map_err(Failure::Refused)
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

/// A diff, a V4A body or a lazy edit of one file. A diff that applied only some blocks (the
/// native dialect with `--partial`, or Roo's, which applies what it can) writes them, reports
/// each failed one, and fails.
fn apply_op(op: &Op, args: &Args, file: &Path, root: &Path, cwd: &Path) -> Result<(), String> {
    // FILE is relative to the current directory, whatever the root.
    let target = cwd.join(file);
    let unchanged =
        |e: hunkloom::Error| format!("{} left unchanged: {}", file.display(), explain(&e, root));
    let workspace =
        Workspace::open(root, args.workspace_options()).map_err(|e| explain(&e, root))?;
    // The person running the command has the file in front of them: it counts as read.
    match workspace.read(&target) {
        Err(e) if e.kind() != ErrorKind::FileNotFound => return Err(unchanged(e)),
        _ => {}
    }
    let change = workspace.plan(&target, op).map_err(unchanged)?;
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
    let done = match change.report() {
        Report::Diff(_) => format!("{applied} block(s) applied"),
        Report::Lazy => "lazy edit merged".to_owned(),
        Report::V4a(_)
            if matches!(
                op,
                Op::V4a {
                    mode: V4aMode::Create,
                    ..
                }
            ) =>
        {
            "created".to_owned()
        }
        Report::V4a(outcome) => format!("{} section(s) applied", outcome.sections.len()),
        _ => "written".to_owned(),
    };
    if change.is_noop() && failed.is_empty() {
        // Nothing to write: the edit is in the file already (a diff applied twice).
        eprintln!("hunkloom: {}: unchanged (already applied)", file.display());
        return Ok(());
    }
    if args.check {
        return Err(format!("{}: would change ({done})", file.display()));
    }
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
        eprintln!("hunkloom: {}: {done}", file.display());
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

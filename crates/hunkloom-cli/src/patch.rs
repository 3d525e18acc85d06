//! `hunkloom apply --patch`: a multi-file patch (`*** Begin Patch`, or a git patch in the
//! `udiff` dialects) applied through
//! [`Workspace::apply_patch`], all files or none; `--dry-run` prints a unified diff per file.

use std::path::Path;

use hunkloom::Policy;
use hunkloom::patch::{PatchDialect, PatchOptions};
use hunkloom_fs::{ChangeKind, PatchedFile, Workspace};

use crate::Failure;
use crate::apply_args::{Args, explain, usage};

/// Applies (or, with `--dry-run`, previews) the patch `text` under `root`. Its paths are
/// relative to the root; the files need no prior read (the person running the command has
/// them in front of them).
pub(crate) fn run(text: &str, args: &Args, root: &Path) -> Result<(), Failure> {
    let dialect: PatchDialect = args
        .dialect
        .as_deref()
        .unwrap_or("codex")
        .parse()
        .map_err(|e: hunkloom::Error| usage(e.to_string()))?;
    if args.recount && dialect != PatchDialect::UdiffStrict {
        return Err(usage("--recount applies to --dialect udiff-strict only"));
    }
    apply(text, dialect, args, root).map_err(Failure::Refused)
}

/// Plans (`--dry-run`) or applies the patch.
fn apply(text: &str, dialect: PatchDialect, args: &Args, root: &Path) -> Result<(), String> {
    let policy = if args.partial {
        Policy::Partial
    } else {
        Policy::AllOrNothing
    };
    let options = PatchOptions::new()
        .dialect(dialect)
        .policy(policy)
        .recount(args.recount);
    let refused = |e: hunkloom::Error| format!("patch not applied: {}", explain(&e, root));
    let workspace = Workspace::open(root, args.workspace_options()).map_err(refused)?;
    if args.check {
        let plan = workspace.plan_patch(text, &options).map_err(refused)?;
        let changing: Vec<_> = plan.files.iter().filter(|f| f.changed).collect();
        if plan.failure.is_none() && changing.is_empty() {
            eprintln!("hunkloom: unchanged (already applied)");
            return Ok(());
        }
        return Err(format!(
            "{} file(s) would change{}",
            changing.len(),
            if plan.failure.is_some() {
                ", and a hunk does not apply"
            } else {
                ""
            }
        ));
    }
    let (files, warnings, failure) = if args.dry_run {
        let plan = workspace.plan_patch(text, &options).map_err(refused)?;
        for file in plan.files.iter().filter(|f| f.changed) {
            print!("{}", diff(file));
        }
        (plan.files, plan.warnings, plan.failure)
    } else {
        let outcome = workspace.apply_patch(text, &options).map_err(refused)?;
        for file in &outcome.files {
            eprintln!("hunkloom: {}", summary(file));
        }
        (outcome.files, outcome.warnings, outcome.failure)
    };
    for warning in &warnings {
        eprintln!("hunkloom: warning: {}: {}", warning.path, warning.message);
    }
    match failure {
        Some(failure) => Err(format!(
            "hunk {} failed, so it and the hunks after it were not applied ({} file(s) {}): [{}] {}",
            failure.hunk + 1,
            files.len(),
            if args.dry_run {
                "would change"
            } else {
                "changed"
            },
            failure.error.code(),
            failure.error
        )),
        None => Ok(()),
    }
}

/// One line about what happened to `file`.
fn summary(file: &PatchedFile) -> String {
    match (&file.kind, &file.moved_from) {
        (ChangeKind::Move, Some(from)) => format!("moved {from} -> {}", file.path),
        (ChangeKind::Create, _) => format!("created {}", file.path),
        (ChangeKind::Delete, _) => format!("deleted {}", file.path),
        _ if !file.changed => format!("unchanged {}", file.path),
        _ => format!("updated {}", file.path),
    }
}

/// The unified diff of `file`'s change (`/dev/null` for the missing side of a create or
/// delete; a move without a content change shows just its headers).
fn diff(file: &PatchedFile) -> String {
    let from = match (&file.kind, &file.moved_from) {
        (ChangeKind::Create, _) => "/dev/null".to_owned(),
        (_, Some(source)) => format!("a/{source}"),
        _ => format!("a/{}", file.path),
    };
    let to = match file.kind {
        ChangeKind::Delete => "/dev/null".to_owned(),
        _ => format!("b/{}", file.path),
    };
    let old = file.old_content.as_deref().unwrap_or("");
    let new = file.new_content.as_deref().unwrap_or("");
    let text = crate::unified_diff_between(&from, &to, old, new);
    if text.is_empty() {
        format!("--- {from}\n+++ {to}\n")
    } else {
        text
    }
}

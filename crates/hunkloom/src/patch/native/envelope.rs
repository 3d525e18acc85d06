//! `*** Begin Patch` patches in the native reading: the envelope split into its file
//! operations, each update's body applied by [`apply_body`](super::apply_body) to the file as
//! the operations before it left it, all files or none.

use super::apply_body;
use crate::error::{Error, ErrorKind, Result};
use crate::patch::lenient::is_heredoc_open;
use crate::patch::v4a::V4aMode;
use crate::patch::{ChangeKind, FileChange, FileSource, HunkFailure, Overlay, Plan};
use crate::policy::Policy;

/// One file operation of a patch and its body.
#[derive(Debug)]
enum Operation<'a> {
    Add {
        path: &'a str,
        body: String,
    },
    Delete {
        path: &'a str,
    },
    Update {
        path: &'a str,
        move_to: Option<&'a str>,
        body: String,
    },
}

/// The operation a header line opens, if it is one.
fn header(line: &str) -> Option<Operation<'_>> {
    let t = line.trim();
    let path = |prefix: &str| {
        t.strip_prefix(prefix)
            .map(str::trim)
            .filter(|p| !p.is_empty())
    };
    if let Some(path) = path("*** Add File:") {
        return Some(Operation::Add {
            path,
            body: String::new(),
        });
    }
    if let Some(path) = path("*** Delete File:") {
        return Some(Operation::Delete { path });
    }
    path("*** Update File:").map(|path| Operation::Update {
        path,
        move_to: None,
        body: String::new(),
    })
}

/// Splits a patch into its operations. Before `*** Begin Patch` (and before the first file
/// line without it) blank lines, code fences and a heredoc's opening line are passed over;
/// `*** End Patch` ends the patch. A line outside every file operation is refused.
fn operations(text: &str) -> Result<Vec<Operation<'_>>> {
    let mut ops: Vec<Operation<'_>> = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let t = line.trim();
        if t == "*** End Patch" {
            break;
        }
        if let Some(op) = header(line) {
            ops.push(op);
            continue;
        }
        if let Some(to) = t.strip_prefix("*** Move to:").map(str::trim)
            && let Some(Operation::Update {
                move_to: m @ None,
                body,
                ..
            }) = ops.last_mut()
            && body.is_empty()
            && !to.is_empty()
        {
            *m = Some(to);
            continue;
        }
        match ops.last_mut() {
            Some(Operation::Add { body, .. } | Operation::Update { body, .. }) => {
                // As written: a new file takes the body's line endings.
                body.push_str(raw);
                body.push('\n');
            }
            _ if t.is_empty() => {}
            None if t == "*** Begin Patch" || t.starts_with("```") || is_heredoc_open(t) => {}
            _ => {
                return Err(Error::new(
                    ErrorKind::InvalidPatch,
                    format!(
                        "line {} of the patch, {line:?}, belongs to no file: each file's lines \
                         follow its `*** Add File:`, `*** Update File:` or `*** Delete File:` line",
                        i + 1
                    ),
                ));
            }
        }
    }
    if let Some(Operation::Update { path, .. }) = ops.iter().find(
        |op| matches!(op, Operation::Update { move_to: None, body, .. } if body.trim().is_empty()),
    ) {
        return Err(Error::new(
            ErrorKind::InvalidPatch,
            format!(
                "`*** Update File: {path}` has no lines: give the changes below it (`-`, `+` \
                 and context lines), or a `*** Move to:` line"
            ),
        ));
    }
    if ops.is_empty() {
        return Err(Error::new(
            ErrorKind::EmptyPatch,
            "the patch names no file: give each file an `*** Add File:`, `*** Update File:` or \
             `*** Delete File:` line",
        ));
    }
    Ok(ops)
}

/// Plans a whole patch in the native reading.
pub(crate) fn plan<S: FileSource + ?Sized>(text: &str, source: &S, policy: Policy) -> Result<Plan> {
    let ops = operations(text)?;
    let mut files = Overlay::new(source);
    for (hunk, op) in ops.into_iter().enumerate() {
        match change(&files, op) {
            Ok(c) => files.record(c),
            Err(error) if policy == Policy::Partial => {
                return Ok(Plan {
                    changes: files.into_changes(),
                    failure: Some(HunkFailure { hunk, error }),
                    ..Plan::default()
                });
            }
            Err(error) => return Err(error),
        }
    }
    Ok(Plan {
        changes: files.into_changes(),
        ..Plan::default()
    })
}

/// One operation planned against the files as they are now.
fn change<S: FileSource + ?Sized>(files: &Overlay<'_, S>, op: Operation<'_>) -> Result<FileChange> {
    match op {
        Operation::Add { path, body } => {
            let (content, _) = apply(None, &body, V4aMode::Create, path)?;
            if let Some(existing) = files.read(path)?
                && existing != content
            {
                return Err(Error::new(
                    ErrorKind::PatchFileExists,
                    format!(
                        "{path} exists: `*** Add File:` would replace its content; change it \
                         with `*** Update File:`, or delete it first"
                    ),
                ));
            }
            Ok(FileChange {
                path: path.to_owned(),
                kind: ChangeKind::Add { content },
            })
        }
        Operation::Delete { path } => {
            if files.read(path)?.is_none() {
                return Err(missing(path));
            }
            Ok(FileChange {
                path: path.to_owned(),
                kind: ChangeKind::Delete,
            })
        }
        Operation::Update {
            path,
            move_to,
            body,
        } => {
            let Some(old) = files.read(path)? else {
                return Err(missing(path));
            };
            let (new_content, start_lines) = apply(Some(&old), &body, V4aMode::Default, path)?;
            if let Some(to) = move_to
                && to != path
                && files.read(to)?.is_some()
            {
                return Err(Error::new(
                    ErrorKind::PatchFileExists,
                    format!("{to} exists: `*** Move to:` would replace it; choose another path"),
                ));
            }
            Ok(FileChange {
                path: path.to_owned(),
                kind: ChangeKind::Update {
                    new_content,
                    move_to: move_to.filter(|to| *to != path).map(str::to_owned),
                    start_lines,
                },
            })
        }
    }
}

/// A body applied to a file's text, its failure naming the file.
fn apply(old: Option<&str>, body: &str, mode: V4aMode, path: &str) -> Result<(String, Vec<usize>)> {
    // A move without changes is an update with an empty body.
    if mode == V4aMode::Default && body.trim().is_empty() {
        return Ok((old.unwrap_or_default().to_owned(), Vec::new()));
    }
    let outcome = apply_body(old.unwrap_or_default(), body, mode)
        .map_err(|e| Error::new(e.kind(), format!("{path}: {}", e.message())))?;
    let lines = outcome.chunks.iter().map(|c| c.line).collect();
    Ok((outcome.new_content, lines))
}

fn missing(path: &str) -> Error {
    Error::new(
        ErrorKind::PatchFileNotFound,
        format!("{path} does not exist: check the path, or create it with `*** Add File:`"),
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::patch::{PatchDialect, PatchOptions, plan_patch};

    fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(p, t)| ((*p).to_owned(), (*t).to_owned()))
            .collect()
    }

    fn run(text: &str, tree: &mut BTreeMap<String, String>, policy: Policy) -> Result<Plan> {
        let options = PatchOptions::new()
            .dialect(PatchDialect::Native)
            .policy(policy);
        let plan = plan_patch(text, &*tree, &options)?;
        plan.apply_to(tree);
        Ok(plan)
    }

    #[test]
    fn several_files_all_or_none() {
        let mut tree = files(&[("a.py", "x = 1\ny = 2\n"), ("old.txt", "o\n")]);
        let patch = "```\n*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n x = 1\n-y = 2\n+y = 3\n*** Add File: c.txt\n+c\n*** Delete File: old.txt\n*** End Patch\n```\n";
        run(patch, &mut tree, Policy::AllOrNothing).expect("plan");
        assert_eq!(tree, files(&[("b.py", "x = 1\ny = 3\n"), ("c.txt", "c\n")]));

        let mut tree = files(&[("a.py", "x = 1\n"), ("c.txt", "mine\n")]);
        let before = tree.clone();
        let patch = "*** Begin Patch\n*** Update File: a.py\n-x = 1\n+x = 2\n*** Add File: c.txt\n+theirs\n*** End Patch\n";
        let e = run(patch, &mut tree, Policy::AllOrNothing).expect_err("c.txt exists");
        assert_eq!(e.code(), "patch_file_exists");
        assert_eq!(tree, before);
        let plan = run(patch, &mut tree, Policy::Partial).expect("partial");
        assert_eq!(plan.failure.as_ref().map(|f| f.hunk), Some(1));
        assert_eq!(tree["a.py"], "x = 2\n");
    }

    #[test]
    fn failures_name_the_file_and_stray_lines_are_refused() {
        let mut tree = files(&[("a.py", "x = 1\n")]);
        let e = run(
            "*** Begin Patch\n*** Update File: a.py\n-x = 9\n+x = 2\n*** End Patch\n",
            &mut tree,
            Policy::AllOrNothing,
        )
        .expect_err("not found");
        assert!(e.message().starts_with("a.py: chunk 1"), "{}", e.message());
        let e = run(
            "*** Begin Patch\nhello\n*** End Patch\n",
            &mut tree,
            Policy::AllOrNothing,
        )
        .expect_err("stray");
        assert_eq!(e.code(), "invalid_patch");
        let e = run(
            "*** Begin Patch\n*** Delete File: nope\n*** End Patch\n",
            &mut tree,
            Policy::AllOrNothing,
        )
        .expect_err("missing");
        assert_eq!(e.code(), "patch_file_not_found");
    }

    #[test]
    fn a_file_without_a_final_newline_keeps_it_where_the_patch_does_not_reach() {
        let mut tree = files(&[("a.txt", "one\ntwo\nthree\nfour")]);
        run(
            "*** Begin Patch\n*** Update File: a.txt\n one\n-two\n+2\n three\n*** End Patch\n",
            &mut tree,
            Policy::AllOrNothing,
        )
        .expect("plan");
        assert_eq!(tree["a.txt"], "one\n2\nthree\nfour");
    }
}

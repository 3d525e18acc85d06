//! Runs the text-editor corpora (`tests/vectors/text-editor/`, format in its README) through
//! [`TextEditor`] and prints one line per corpus file: `text-editor-<name>: <passed>/<total>
//! passed`.
//!
//! Each case's tree is written into a fresh root, its calls are made in order on one editor with
//! `{root}` substituted, and after every call the output (with the root written `{root}` again),
//! the error flag and the whole tree (every regular file, hidden ones included) are compared.
//! A case stops at its first mismatch.
//!
//! - Main sets: exact, every call.
//! - `*-crashes`: the calls before the one the reference crashed on are exact; that call must
//!   give an error result and leave the tree as it was.
//! - `*-differences`: the documented behaviour instead of the reference's (see
//!   `differences_check`): bytes the model did not ask to change are kept.
//!
//! `HUNKLOOM_TE_CASE=<id>` runs one case and prints every call; exits non-zero on any failure.

use std::path::Path;

use hunkloom_testkit::text_editor::{
    CorpusSet, Files, TEXT_EDITOR_CORPORA, TextEditorCase, fresh_root, load_text_editor_corpus,
    materialize, read_tree, tree_difference, with_root, without_root,
};
use hunkloom_tools::{EditorOptions, Profile, TextEditor, ToolResult};

/// What one call gave, with the root written `{root}`.
struct Got {
    result: ToolResult,
    output: String,
    tree: Files,
}

fn call(editor: &mut TextEditor, root: &Path, input: &serde_json::Value) -> Got {
    let root_text = root.to_string_lossy();
    let input = with_root(input, &root_text);
    let result = editor
        .call(&input)
        .unwrap_or_else(|e| panic!("call returned an error for {input}: {e}"));
    Got {
        output: without_root(&result.output, &root_text),
        result,
        tree: read_tree(root),
    }
}

/// `Err(why)` at the first call that does not give what the case records.
fn run_case(case: &TextEditorCase, set: CorpusSet, verbose: bool) -> Result<(), String> {
    let profile: Profile = case.profile.parse().map_err(|e| format!("{e}"))?;
    let (_dir, root) = fresh_root();
    materialize(&root, &case.tree);
    let mut editor = TextEditor::new(&root, EditorOptions::new().profile(profile))
        .map_err(|e| format!("TextEditor::new: {e}"))?;
    let mut before = case.tree.clone();
    for (i, expected) in case.calls.iter().enumerate() {
        let got = call(&mut editor, &root, &expected.input);
        if verbose {
            println!(
                "#{i} {} {}\n  is_error {} code {:?}\n  output {:?}",
                expected.kind, expected.input, got.result.is_error, got.result.code, got.output
            );
        }
        let at = format!("#{i} ({})", expected.kind);
        let crashed = case.crash_call == Some(i);
        match set {
            _ if crashed => {
                if !got.result.is_error || got.output.is_empty() {
                    return Err(format!("{at}: not an error result: {:?}", got.output));
                }
                if let Some(diff) = tree_difference(&before, &got.tree) {
                    return Err(format!("{at}: the tree changed: {diff}"));
                }
                return Ok(());
            }
            CorpusSet::Main | CorpusSet::Crashes => {
                exact(expected, &got).map_err(|e| format!("{at}: {e}"))?
            }
            CorpusSet::Differences => {
                differences_check(case, i, &before, &got).map_err(|e| format!("{at}: {e}"))?
            }
        }
        before = got.tree;
    }
    Ok(())
}

/// The recorded output, error flag and tree, exactly.
fn exact(
    expected: &hunkloom_testkit::text_editor::TextEditorCall,
    got: &Got,
) -> Result<(), String> {
    let want_output = expected.output.as_deref().unwrap_or_default();
    if got.output != want_output {
        return Err(format!(
            "output\n  want {want_output:?}\n  got  {:?}",
            got.output
        ));
    }
    if Some(got.result.is_error) != expected.is_error {
        return Err(format!(
            "is_error: want {:?}, got {}",
            expected.is_error, got.result.is_error
        ));
    }
    if got.result.is_error == got.result.code.is_empty() {
        return Err(format!(
            "code {:?} does not fit is_error {}",
            got.result.code, got.result.is_error
        ));
    }
    if let Some(diff) = tree_difference(&expected.tree, &got.tree) {
        return Err(format!("tree: {diff}"));
    }
    Ok(())
}

/// Differences sets: not compared with the reference; see the module documentation.
fn differences_check(
    _case: &TextEditorCase,
    _call: usize,
    _before: &Files,
    _got: &Got,
) -> Result<(), String> {
    Ok(())
}

fn main() {
    let only = std::env::var("HUNKLOOM_TE_CASE").ok();
    let mut failures = Vec::new();
    for name in TEXT_EDITOR_CORPORA {
        let set = CorpusSet::of(name);
        let cases = load_text_editor_corpus(name);
        if set == CorpusSet::Differences {
            let label = name
                .trim_start_matches("text-editor/")
                .trim_end_matches(".jsonl");
            println!(
                "text-editor-{label}: {} not run (checks of the documented behaviour pending)",
                cases.len()
            );
            continue;
        }
        let (mut passed, mut total) = (0, 0);
        for case in &cases {
            if only.as_ref().is_some_and(|id| *id != case.id) {
                continue;
            }
            total += 1;
            match run_case(case, set, only.is_some()) {
                Ok(()) => passed += 1,
                Err(why) => failures.push(format!("{} {why}", case.id)),
            }
        }
        let label = name
            .trim_start_matches("text-editor/")
            .trim_end_matches(".jsonl");
        if total > 0 {
            println!("text-editor-{label}: {passed}/{total} passed");
        }
    }
    let shown = std::env::var("HUNKLOOM_TE_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    hunkloom_testkit::exit_on_failures(&failures, shown, "failures");
}

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
//! Then every case again with each call's argument JSON streamed through
//! [`TextEditor::stream`](hunkloom_tools::TextEditor::stream), in every chunking (whole, one
//! character, random) with non-ASCII characters as they are and as `\uXXXX` escapes: the same
//! checks, and besides, the splices rebuild the preview and the preview before `finish` is the
//! text the call leaves (`None` for a failure, `view` and `undo_edit`). By default each case is
//! streamed in one of the six forms, in turn; `HUNKLOOM_TE_STREAM=all` streams every case in all
//! six.
//!
//! `HUNKLOOM_TE_CASE=<id>` runs one case and prints every call; exits non-zero on any failure.
//! `HUNKLOOM_TE_REPLAY_AS=<profile>` replays every case with another profile (reads not
//! required) and only counts the identical ones: a measurement of how far that profile is from
//! the references, never a failure.

use std::path::Path;

use hunkloom_testkit::text_editor::{
    CorpusSet, Files, TEXT_EDITOR_CORPORA, TextEditorCase, fresh_root, load_text_editor_corpus,
    materialize, read_tree, tree_difference, with_root, without_root,
};
use hunkloom_testkit::{Chunking, SEED, json_text};
use hunkloom_tools::{EditorOptions, Profile, TextEditor, ToolResult};

/// How a case's calls are made: [`TextEditor::call`], or streamed in a chunking, with
/// non-ASCII characters escaped or not.
#[derive(Clone, Copy, Debug)]
enum Via {
    Call,
    Stream(Chunking, bool),
}

impl Via {
    const ALL: [Via; 7] = [
        Via::Call,
        Via::Stream(Chunking::Whole, false),
        Via::Stream(Chunking::Whole, true),
        Via::Stream(Chunking::Char, false),
        Via::Stream(Chunking::Char, true),
        Via::Stream(Chunking::Random(SEED), false),
        Via::Stream(Chunking::Random(SEED), true),
    ];

    fn name(self) -> String {
        match self {
            Via::Call => "call".to_owned(),
            Via::Stream(c, ascii) => {
                format!("streamed {}{}", c.name(), if ascii { " ascii" } else { "" })
            }
        }
    }
}

/// The call made through a stream: the result of `finish`, after checking the preview.
fn streamed(
    editor: &TextEditor,
    input: &serde_json::Value,
    chunking: Chunking,
    ascii: bool,
) -> Result<ToolResult, String> {
    let text = json_text(input, ascii);
    let mut stream = editor.stream();
    let mut rebuilt = String::new();
    for piece in chunking.split(&text) {
        stream.push(editor, piece).apply_to(&mut rebuilt);
    }
    let preview = stream.preview().map(str::to_owned);
    if preview.as_deref().unwrap_or_default() != rebuilt {
        return Err(format!(
            "the splices give {rebuilt:?}, the preview is {preview:?}"
        ));
    }
    let result = stream.finish(editor);
    let command = input["command"].as_str().unwrap_or_default();
    let edit = matches!(command, "create" | "str_replace" | "insert");
    let left = match (&result.new_content, result.is_error || !edit) {
        (_, true) => None,
        (Some(text), false) => Some(text.clone()),
        // A native edit already in the file: the file as it is.
        (None, false) => input["path"]
            .as_str()
            .and_then(|p| std::fs::read_to_string(editor.root().join(p)).ok()),
    };
    if preview != left {
        return Err(format!(
            "the preview before finish is {preview:?}, the call left {left:?}"
        ));
    }
    Ok(result)
}

/// What one call gave, with the root written `{root}`.
struct Got {
    result: ToolResult,
    output: String,
    tree: Files,
}

fn call(
    editor: &TextEditor,
    root: &Path,
    input: &serde_json::Value,
    via: Via,
) -> Result<Got, String> {
    let root_text = root.to_string_lossy();
    let input = with_root(input, &root_text);
    let result = match via {
        Via::Call => editor
            .call(&input)
            .unwrap_or_else(|e| panic!("call returned an error for {input}: {e}")),
        Via::Stream(chunking, ascii) => streamed(editor, &input, chunking, ascii)?,
    };
    Ok(Got {
        output: without_root(&result.output, &root_text),
        result,
        tree: read_tree(root),
    })
}

/// `Err(why)` at the first call that does not give what the case records.
fn run_case(
    case: &TextEditorCase,
    set: CorpusSet,
    verbose: bool,
    replay_as: Option<Profile>,
    via: Via,
) -> Result<(), String> {
    let profile: Profile = case.profile.parse().map_err(|e| format!("{e}"))?;
    let (_dir, root) = fresh_root();
    materialize(&root, &case.tree);
    let options = match replay_as {
        Some(other) => EditorOptions::new().profile(other).require_read(false),
        None => EditorOptions::new().profile(profile),
    };
    let editor = TextEditor::new(&root, options).map_err(|e| format!("TextEditor::new: {e}"))?;
    let mut before = case.tree.clone();
    let mut diverged = false;
    for (i, expected) in case.calls.iter().enumerate() {
        let at = format!("#{i} ({})", expected.kind);
        let got = call(&editor, &root, &expected.input, via).map_err(|e| format!("{at}: {e}"))?;
        if verbose {
            println!(
                "#{i} {} {}\n  is_error {} code {:?}\n  output {:?}",
                expected.kind, expected.input, got.result.is_error, got.result.code, got.output
            );
        }
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
            CorpusSet::Differences => differences_check(case, i, &before, &got, &mut diverged)
                .map_err(|e| format!("{at}: {e}"))?,
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

/// The file a call's input names, relative to the root, `//`, `/./` and `dir/..` resolved;
/// `None` for a path outside `{root}/`.
fn target_of(input: &serde_json::Value) -> Option<String> {
    let path = input["path"].as_str()?.strip_prefix("{root}/")?;
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// A file's text with the differences hunkloom keeps on purpose taken out: the BOM and every
/// U+FEFF, `\r\n` and lone `\r` as `\n`, runs of spaces and tabs as one space, line ends
/// trimmed.
fn comparable(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes).replace('\u{feff}', "");
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    text.split('\n')
        .map(|line| {
            line.split([' ', '\t'])
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn lines_with_tabs(bytes: &[u8]) -> usize {
    String::from_utf8_lossy(bytes)
        .split('\n')
        .filter(|l| l.contains('\t'))
        .count()
}

fn has_lone_cr(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
}

fn has_bare_lf(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\n' && (i == 0 || bytes[i - 1] != b'\r'))
}

/// Differences sets: hunkloom's documented behaviour, not the reference's bytes.
///
/// 1. An error result leaves every file as it was; a call changes no file but its target.
/// 2. What a reference rewrites, hunkloom keeps: after an edit, a file with a BOM still starts
///    with it, a CRLF file has no bare LF, tab-indented lines keep their tabs (Anthropic expands
///    all of them), lone CRs stay; a file in a legacy encoding (cp1252, Latin-1) is refused
///    (`unsupported_encoding`) and left as it was by the `anthropic` profile (its reference
///    reads strict UTF-8), and edited in its own encoding by the others: a successful edit
///    leaves the file in no UTF-8 form unless it removed every non-ASCII byte, and a refusal
///    (such as `unrepresentable_text`, where OpenHands truncates the file) changes nothing.
/// 3. Otherwise the result is the reference's: the same error flag, the same output (the BOM
///    character, which the Anthropic reference shows, left out; not checked for lone-CR files,
///    whose lines the references split), and, when both started from equivalent files, the same
///    edit (compared without BOMs, line endings and whitespace runs). Exempt from the error flag:
///    an `old_str` that holds the BOM character or spans lone-CR line breaks, as the references
///    showed them; after such a call only 1 and 2 are checked, the histories having diverged.
fn differences_check(
    case: &TextEditorCase,
    call: usize,
    before: &Files,
    got: &Got,
    diverged: &mut bool,
) -> Result<(), String> {
    let expected = &case.calls[call];
    let has = |p: &str| case.properties.iter().any(|q| q == p);
    let legacy = has("cp1252") || has("latin1");
    let target = target_of(&expected.input);
    // 1.
    for (path, bytes) in before {
        let changed = got.tree.get(path) != Some(bytes);
        if changed && (got.result.is_error || target.as_deref() != Some(path.as_str())) {
            return Err(format!("{path} changed (is_error {})", got.result.is_error));
        }
    }
    if got.result.is_error && got.tree.len() != before.len() {
        return Err("an error result created a file".to_owned());
    }
    let command = expected.input["command"].as_str().unwrap_or_default();
    let edit = matches!(command, "str_replace" | "insert" | "undo_edit");
    let old = target.as_ref().and_then(|t| before.get(t));
    let new = target.as_ref().and_then(|t| got.tree.get(t));
    // 2.
    if let (Some(old), Some(new), true, false) = (old, new, edit, got.result.is_error) {
        if old.starts_with(b"\xEF\xBB\xBF") && !new.starts_with(b"\xEF\xBB\xBF") {
            return Err("the BOM was dropped".to_owned());
        }
        if has_lone_cr(old) && !has_lone_cr(new) {
            return Err("the lone CRs were rewritten".to_owned());
        }
        if old.windows(2).any(|w| w == b"\r\n") && !has_bare_lf(old) && has_bare_lf(new) {
            return Err("a CRLF file got LF lines".to_owned());
        }
        let spanned = expected.input["old_str"]
            .as_str()
            .map_or(0, |o| o.matches('\n').count() + 1);
        if lines_with_tabs(new) + spanned < lines_with_tabs(old) {
            return Err(format!(
                "tabs were expanded: {} tab lines before, {} after",
                lines_with_tabs(old),
                lines_with_tabs(new)
            ));
        }
    }
    let legacy_file = legacy && old.is_some_and(|o| std::str::from_utf8(o).is_err());
    if legacy_file && command != "create" && case.profile != "anthropic" {
        if let (Some(new), false) = (new, got.result.is_error) {
            let utf8 = std::str::from_utf8(new).is_ok();
            if edit && utf8 && new.iter().any(|b| !b.is_ascii()) {
                return Err("a legacy-encoded file was rewritten as UTF-8".to_owned());
            }
        }
        return Ok(());
    }
    if legacy_file && command != "create" {
        if !got.result.is_error || got.result.code != "unsupported_encoding" {
            return Err(format!(
                "a legacy-encoded file was not refused: {:?} {:?}",
                got.result.code, got.output
            ));
        }
        if case.profile == "anthropic" && expected.output.as_deref() != Some(got.output.as_str()) {
            return Err(format!(
                "output\n  want {:?}\n  got  {:?}",
                expected.output, got.output
            ));
        }
        return Ok(());
    }
    // 3.
    if *diverged {
        return Ok(());
    }
    let exempt = (has("bom")
        && expected.input["old_str"]
            .as_str()
            .is_some_and(|o| o.contains('\u{feff}')))
        || (has("lone_cr") && command == "str_replace");
    if !exempt && Some(got.result.is_error) != expected.is_error {
        return Err(format!(
            "is_error: want {:?}, got {} ({:?})",
            expected.is_error, got.result.is_error, got.output
        ));
    }
    if Some(got.result.is_error) != expected.is_error {
        // From here on the two histories differ (an undo has one edit less or more).
        *diverged = true;
        return Ok(());
    }
    if !has("lone_cr") {
        let want = expected
            .output
            .as_deref()
            .unwrap_or_default()
            .replace('\u{feff}', "");
        if got.output.replace('\u{feff}', "") != want {
            return Err(format!("output\n  want {want:?}\n  got  {:?}", got.output));
        }
    }
    let reference_before = match call {
        0 => &case.tree,
        n => &case.calls[n - 1].tree,
    };
    if let Some(t) = &target {
        let same_start =
            reference_before.get(t).map(|b| comparable(b)) == before.get(t).map(|b| comparable(b));
        let (want, got_file) = (expected.tree.get(t), got.tree.get(t));
        if same_start && want.map(|b| comparable(b)) != got_file.map(|b| comparable(b)) {
            return Err(format!(
                "{t}: not the reference's edit\n  want {:?}\n  got  {:?}",
                want.map(|b| String::from_utf8_lossy(b).into_owned()),
                got_file.map(|b| String::from_utf8_lossy(b).into_owned())
            ));
        }
    }
    Ok(())
}

fn main() {
    let only = std::env::var("HUNKLOOM_TE_CASE").ok();
    // A measurement, not a test: how many cases another profile answers identically.
    let replay_as: Option<Profile> = std::env::var("HUNKLOOM_TE_REPLAY_AS").ok().map(|p| {
        p.parse()
            .unwrap_or_else(|e| panic!("HUNKLOOM_TE_REPLAY_AS: {e}"))
    });
    let mut failures = Vec::new();
    let every_form = std::env::var("HUNKLOOM_TE_STREAM").is_ok_and(|v| v == "all");
    // `None`: each case streamed in the next of the six forms.
    let passes: Vec<Option<Via>> = match (replay_as, every_form) {
        (Some(_), _) => vec![Some(Via::Call)],
        (None, true) => Via::ALL.iter().copied().map(Some).collect(),
        (None, false) => vec![Some(Via::Call), None],
    };
    for pass in passes {
        for name in TEXT_EDITOR_CORPORA {
            let set = CorpusSet::of(name);
            let cases = load_text_editor_corpus(name);
            let (mut passed, mut total) = (0, 0);
            for (n, case) in cases.iter().enumerate() {
                if only.as_ref().is_some_and(|id| *id != case.id) {
                    continue;
                }
                let via = pass.unwrap_or(Via::ALL[1 + n % (Via::ALL.len() - 1)]);
                total += 1;
                match run_case(case, set, only.is_some(), replay_as, via) {
                    Ok(()) => passed += 1,
                    Err(why) => failures.push(format!("{} ({}) {why}", case.id, via.name())),
                }
            }
            let label = name
                .trim_start_matches("text-editor/")
                .trim_end_matches(".jsonl");
            let how = pass.map_or_else(|| "streamed (each form in turn)".to_owned(), Via::name);
            match (total, replay_as) {
                (0, _) => {}
                (_, None) => println!("text-editor-{label} {how}: {passed}/{total} passed"),
                (_, Some(p)) => {
                    println!("text-editor-{label} replayed as {p}: {passed}/{total} identical")
                }
            }
        }
    }
    if replay_as.is_some() {
        for f in failures.iter().take(5) {
            println!("differs: {f}");
        }
        return;
    }
    let shown = std::env::var("HUNKLOOM_TE_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    hunkloom_testkit::exit_on_failures(&failures, shown, "failures");
}

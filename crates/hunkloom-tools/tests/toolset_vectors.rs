//! The toolset corpora (`tests/vectors/toolsets/`, format in its README) through [`Toolset`],
//! printing one line per corpus file: `toolset-<name>: <passed>/<total> passed`.
//!
//! Each case runs in a fresh private parent `P` with the root `P/work`: its tree is written,
//! one toolset made, and after every call the output (placeholders put back, volatile values
//! matched by form), the error flag, the files under the root, its empty directories and the
//! files outside it are compared. Main sets: exact, every call. `*-crashes`: the calls before
//! the one the reference crashed on are exact; that call must give an error result and change
//! nothing (the reference gave the model no answer; see the profile's deliberate differences).
//! Then every case again with each call streamed through `Toolset::stream` (the call's JSON
//! pushed whole, a character at a time or in seeded random pieces, non-ASCII escaped or not, one
//! form per case in turn): the same checks, and besides, the preview (of the text-editor tools,
//! the native set's `apply_diff` and `apply_lazy`, the `openai` set's one-operation
//! `apply_patch`) rebuilt by the splices and, before finish, the text the call leaves; the run
//! counts the calls that had a preview.
//! `HUNKLOOM_TS_CASE=<id>` runs one case.

use std::cell::Cell;

use hunkloom_testkit::assert_no_failures;
use hunkloom_testkit::toolsets::{
    Answer, Replayed, TOOLSET_CORPORA, ToolsetCase, load_toolset_corpus, replay,
};
use hunkloom_testkit::{Chunking, SEED, json_text};
use hunkloom_tools::{ToolResult, Toolset, ToolsetOptions, ToolsetProfile};

/// The six ways of streaming a call: a chunking, and whether non-ASCII characters are escaped.
const FORMS: [(Chunking, bool); 6] = [
    (Chunking::Whole, false),
    (Chunking::Whole, true),
    (Chunking::Char, false),
    (Chunking::Char, true),
    (Chunking::Random(SEED), false),
    (Chunking::Random(SEED), true),
];

/// The call streamed in `form`, its preview checked; `previewed` counts the calls that had one.
fn streamed(
    toolset: &Toolset,
    tool: &str,
    input: &serde_json::Value,
    (chunking, ascii): (Chunking, bool),
    previewed: &Cell<usize>,
) -> Result<ToolResult, String> {
    let text = json_text(input, ascii);
    let mut stream = toolset.stream(tool);
    let mut rebuilt = String::new();
    for piece in chunking.split(&text) {
        stream.push(toolset, piece).apply_to(&mut rebuilt);
    }
    let preview = stream.preview().map(str::to_owned);
    if preview.as_deref().unwrap_or_default() != rebuilt {
        return Err(format!(
            "the splices give {rebuilt:?}, the preview is {preview:?}"
        ));
    }
    let result = stream.finish(toolset);
    previewed.set(previewed.get() + usize::from(preview.is_some()));
    if preview.is_some() && (result.is_error || preview != result.new_content) {
        return Err(format!(
            "the preview before finish is {preview:?}, the call left {:?} (is_error {})",
            result.new_content, result.is_error
        ));
    }
    Ok(result)
}

fn run_case(
    case: &ToolsetCase,
    form: Option<(Chunking, bool)>,
    previewed: &Cell<usize>,
) -> Result<Replayed, String> {
    replay(
        case,
        |root| {
            let profile: ToolsetProfile = case.profile.parse().map_err(|e| format!("{e}"))?;
            Toolset::new(root, ToolsetOptions::new().profile(profile)).map_err(|e| format!("{e}"))
        },
        |toolset, tool, input| {
            let result = match form {
                None => toolset.call(tool, input).map_err(|e| format!("Err {e}"))?,
                Some(form) => streamed(toolset, tool, input, form, previewed)
                    .map_err(|e| format!("streamed {form:?}: {e}"))?,
            };
            Ok(Answer {
                output: result.output,
                is_error: result.is_error,
                code: result.code,
            })
        },
    )
}

fn main() {
    let only = std::env::var("HUNKLOOM_TS_CASE").ok();
    let mut failures = Vec::new();
    for streaming in [false, true] {
        for name in TOOLSET_CORPORA {
            let cases = load_toolset_corpus(name);
            let (mut passed, mut deviated, mut total) = (0, 0, 0);
            let previewed = Cell::new(0);
            for (n, case) in cases.iter().enumerate() {
                if only.as_ref().is_some_and(|id| *id != case.id) {
                    continue;
                }
                total += 1;
                let form = streaming.then(|| FORMS[n % FORMS.len()]);
                match run_case(case, form, &previewed) {
                    Ok(Replayed::Passed) => passed += 1,
                    Ok(Replayed::Deviated) => deviated += 1,
                    Err(why) => failures.push(format!("{} {why}", case.id)),
                }
            }
            let label = name
                .trim_start_matches("toolsets/")
                .trim_end_matches(".jsonl");
            let how = if streaming { " streamed" } else { "" };
            if total > 0 {
                let previews = if streaming {
                    format!("; {} calls previewed", previewed.get())
                } else {
                    String::new()
                };
                println!(
                    "toolset-{label}{how}: {}/{total} passed ({deviated} of them at a documented deviation{previews})",
                    passed + deviated
                );
            }
        }
    }
    let shown = std::env::var("HUNKLOOM_TS_SHOW")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(8);
    assert_no_failures(&failures, shown, "toolset case");
}

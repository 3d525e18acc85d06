//! The aider corpora (`tests/vectors/aider/*.jsonl`, format in its README): a chat's files, a
//! model's reply in one of aider's formats, and what aider 0.86 (`Aider-AI/aider@5dc9490`)
//! left on disk and said.
//!
//! A case passes when the dialect (`aider`, `aider-fenced`, `aider-whole` for the formats
//! `diff`, `diff-fenced`, `whole`) gives: for `ok`, exactly `expect.files`; for `error`, an
//! error whose message is exactly `expect.error`, and with the `partial` policy exactly
//! `expect.files` (what aider left: the blocks that matched, the empty files it created);
//! for `exception` (aider itself crashed), an error, nothing changed.

use std::collections::BTreeMap;

use serde::Deserialize;

/// The corpus files, relative to `tests/vectors/`.
pub const AIDER_CORPORA: &[&str] = &["aider/aider.jsonl", "aider/aider-differences.jsonl"];

/// What aider did.
#[derive(Clone, Debug, Deserialize)]
pub struct Expect {
    /// `ok`, `error` or `exception`.
    pub outcome: String,
    /// Every file afterwards.
    pub files: BTreeMap<String, String>,
    /// The text aider sent back to the model (`error` only).
    pub error: Option<String>,
}

/// One record.
#[derive(Clone, Debug, Deserialize)]
pub struct AiderCase {
    /// `aider-s1-NNNN`, `aider-d2-NNNN` or `aider-unit-NNNN`.
    pub id: String,
    /// `diff`, `diff-fenced` or `whole`.
    pub format: String,
    /// The chat files before.
    pub files: BTreeMap<String, String>,
    /// The model's reply.
    pub reply: String,
    /// What aider did.
    pub expect: Expect,
}

impl AiderCase {
    /// The dialect name for this record's format.
    pub fn dialect(&self) -> &'static str {
        match self.format.as_str() {
            "diff-fenced" => "aider-fenced",
            "whole" => "aider-whole",
            _ => "aider",
        }
    }
}

/// What a dialect gave for one policy: the files after, or the error's message.
pub type Answer = Result<BTreeMap<String, String>, String>;

/// Checks one case from its answers under `all_or_nothing` and `partial`.
///
/// # Errors
/// What differs from aider.
pub fn check(case: &AiderCase, all_or_nothing: &Answer, partial: &Answer) -> Result<(), String> {
    let want = &case.expect;
    match want.outcome.as_str() {
        "ok" => {
            for (policy, answer) in [("all_or_nothing", all_or_nothing), ("partial", partial)] {
                match answer {
                    Ok(files) if *files == want.files => {}
                    Ok(files) => {
                        return Err(format!(
                            "{policy}: files differ: {}",
                            first_difference(&want.files, files)
                        ));
                    }
                    Err(e) => return Err(format!("{policy}: error {e:?}")),
                }
            }
            Ok(())
        }
        "error" => {
            let text = want.error.as_deref().unwrap_or_default();
            match all_or_nothing {
                Err(message) if message == text => {}
                Err(message) => {
                    return Err(format!("message\n  want {text:?}\n  got  {message:?}"));
                }
                Ok(_) => return Err("applied where aider refused".to_owned()),
            }
            match partial {
                Ok(files) if *files == want.files => Ok(()),
                Ok(files) => Err(format!(
                    "partial: files differ: {}",
                    first_difference(&want.files, files)
                )),
                Err(e) => Err(format!("partial: error {e:?}")),
            }
        }
        _ => match all_or_nothing {
            Err(_) => Ok(()),
            Ok(_) => Err("applied where aider crashed".to_owned()),
        },
    }
}

fn first_difference(want: &BTreeMap<String, String>, got: &BTreeMap<String, String>) -> String {
    for (path, text) in want {
        match got.get(path) {
            Some(g) if g == text => {}
            Some(g) => {
                // From a little before the first difference.
                let at = text
                    .bytes()
                    .zip(g.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                let mut from = at.saturating_sub(60);
                while !text.is_char_boundary(from) || !g.is_char_boundary(from) {
                    from -= 1;
                }
                return format!(
                    "{path} (from byte {from})\n  want {:?}\n  got  {:?}",
                    &text[from..],
                    &g[from..]
                );
            }
            None => return format!("{path} missing"),
        }
    }
    got.keys()
        .find(|p| !want.contains_key(*p))
        .map(|p| format!("{p} should not exist"))
        .unwrap_or_default()
}

/// How the `aider-native` reading did on one case, against what aider did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NativeVerdict {
    /// aider applied the reply and the native reading gave the same files.
    Correct,
    /// The native reading refused a reply aider applied.
    Refused,
    /// aider refused (or crashed) and so did the native reading.
    BothRefused,
    /// aider refused but the native reading applied it: nothing to compare with.
    Unscored,
    /// aider applied the reply and the native reading gave other files: a silent wrong.
    Wrong(String),
}

/// Scores the `aider-native` answer (all or nothing) of a `diff`/`diff-fenced` case. Files are
/// compared as aider reads and writes them: `\r\n` and `\r` as `\n`, and a final newline
/// (aider gives every file it edits one; the native reading keeps a file's own line endings
/// and its missing final newline).
pub fn native_verdict(case: &AiderCase, native: &Answer) -> NativeVerdict {
    let lf = |files: &BTreeMap<String, String>| -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(k, v)| {
                let mut text = v.replace("\r\n", "\n").replace('\r', "\n");
                if !text.is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                (k.clone(), text)
            })
            .collect()
    };
    match (case.expect.outcome.as_str(), native) {
        ("ok", Ok(files)) if lf(files) == lf(&case.expect.files) => NativeVerdict::Correct,
        ("ok", Ok(files)) => {
            NativeVerdict::Wrong(first_difference(&lf(&case.expect.files), &lf(files)))
        }
        ("ok", Err(_)) => NativeVerdict::Refused,
        (_, Ok(_)) => NativeVerdict::Unscored,
        (_, Err(_)) => NativeVerdict::BothRefused,
    }
}

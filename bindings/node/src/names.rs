//! `names()`: the core's lists of the names it reports, so programs (and the tests that check
//! `index.d.ts`) can enumerate them instead of copying them.

use napi_derive::napi;

/// Every name a field of a report can take, in the core's order.
#[napi(object)]
pub struct Names {
    /// Every `BlockReport.strategy`.
    pub strategies: Vec<String>,
    /// Every member of `BlockReport.normalizations`.
    pub normalizations: Vec<String>,
    /// Every `BlockReport.status`.
    pub block_statuses: Vec<String>,
    /// Every `PatchChange.kind`.
    pub patch_change_kinds: Vec<String>,
}

/// The names the engine reports, listed by the core itself (new versions may add names).
#[napi(catch_unwind)]
pub fn names() -> Names {
    fn all<T: Copy>(values: &[T], name: fn(T) -> &'static str) -> Vec<String> {
        values.iter().map(|&v| name(v).to_owned()).collect()
    }
    Names {
        strategies: all(hunkloom::Strategy::ALL, hunkloom::Strategy::as_str),
        normalizations: all(
            hunkloom::Normalization::ALL,
            hunkloom::Normalization::as_str,
        ),
        block_statuses: all(hunkloom::BlockStatus::ALL, hunkloom::BlockStatus::as_str),
        patch_change_kinds: hunkloom::patch::ChangeKind::ALL_NAMES
            .iter()
            .map(|&n| n.to_owned())
            .collect(),
    }
}

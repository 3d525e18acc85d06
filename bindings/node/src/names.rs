//! `names()`: the core's lists of the names it reports and accepts, so programs (and the tests
//! that check `index.d.ts`'s unions, of outputs and of inputs) can enumerate them instead of
//! copying them.

use napi_derive::napi;

/// Every name a field of a report, or an option, can take, in the core's order.
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
    /// Every `dialect` of `applyDiff` and `StreamingApplier`.
    pub dialects: Vec<String>,
    /// Every `dialect` of `applyPatch`.
    pub patch_dialects: Vec<String>,
    /// Every `policy`.
    pub policies: Vec<String>,
    /// Every fix `write` can run.
    pub fixes: Vec<String>,
    /// Every `convention` of an insert.
    pub conventions: Vec<String>,
    /// Every `mode` of a V4A body.
    #[napi(js_name = "v4aModes")]
    pub v4a_modes: Vec<String>,
    /// Every `TextEditor` profile.
    pub profiles: Vec<String>,
    /// Every `Toolset` profile.
    pub toolset_profiles: Vec<String>,
    /// Every `semantics` of a `Toolset`.
    pub semantics: Vec<String>,
    /// Every `durability`.
    pub durabilities: Vec<String>,
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
        dialects: all(hunkloom::Dialect::ALL, hunkloom::Dialect::as_str),
        patch_dialects: all(
            hunkloom::patch::PatchDialect::ALL,
            hunkloom::patch::PatchDialect::as_str,
        ),
        policies: all(hunkloom::Policy::ALL, hunkloom::Policy::as_str),
        fixes: all(hunkloom::fixes::Fix::ALL, hunkloom::fixes::Fix::as_str),
        conventions: all(
            hunkloom::ops::Convention::ALL,
            hunkloom::ops::Convention::as_str,
        ),
        v4a_modes: all(
            hunkloom::patch::v4a::V4aMode::ALL,
            hunkloom::patch::v4a::V4aMode::as_str,
        ),
        profiles: all(
            hunkloom_tools::Profile::ALL,
            hunkloom_tools::Profile::as_str,
        ),
        toolset_profiles: all(
            hunkloom_tools::ToolsetProfile::ALL,
            hunkloom_tools::ToolsetProfile::as_str,
        ),
        semantics: all(
            hunkloom_tools::Semantics::ALL,
            hunkloom_tools::Semantics::as_str,
        ),
        durabilities: all(
            hunkloom_fs::Durability::ALL,
            hunkloom_fs::Durability::as_str,
        ),
    }
}

//! A check shared by the streaming-body corpus runs: the preview rebuilt from the splices a
//! streaming applier reports.

use hunkloom::Update;

/// Applies `update` to `shown` (the preview as the splices so far rebuild it); when it changed
/// something, or the push `failed`, checks `shown` against the applier's `preview()`.
pub(crate) fn follow(
    shown: &mut String,
    update: Update<'_>,
    failed: bool,
    preview: impl FnOnce() -> String,
    what: impl std::fmt::Display,
) {
    let changed = update.removed.bytes > 0 || !update.inserted.is_empty();
    update.apply_to(shown);
    if changed || failed {
        assert_eq!(
            *shown,
            preview(),
            "{what}: the splices of preview_update rebuild preview"
        );
    }
}

//! The stateful streaming applier, the one-shot [`apply_diff`], and what they report.

mod applier;
mod dialect;
mod oneshot;
mod report;

pub use applier::{ApplierOptions, Policy, PreviewForm, StreamingApplier};
pub use dialect::Dialect;
pub use oneshot::{ApplyOptions, apply_diff};
pub use report::{
    BlockReport, BlockStatus, Normalization, Outcome, PieceOutcome, PieceUpdate, Update,
};

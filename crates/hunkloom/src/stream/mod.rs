//! The stateful streaming applier and the one-shot [`apply_diff`], which dispatch to the
//! dialects (what they report is [`crate::report`]).

mod applier;
mod dialect;
mod oneshot;
mod options;

pub use applier::StreamingApplier;
pub use dialect::Dialect;
pub use oneshot::apply_diff;
pub use options::{ApplierOptions, ApplyOptions};

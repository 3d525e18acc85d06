//! The stateful streaming applier and the one-shot [`apply_diff`], which dispatch to the
//! dialects (what they report is [`crate::report`]).

mod applier;
mod dialect;
mod oneshot;

pub use applier::{ApplierOptions, StreamingApplier};
pub use dialect::Dialect;
pub use oneshot::{ApplyOptions, apply_diff};

//! The stateful streaming applier and what it reports.

mod applier;
mod dialect;
mod report;

pub use applier::{ApplierOptions, StreamingApplier};
pub use dialect::Dialect;
pub use report::{BlockReport, BlockStatus, Outcome, Update};

//! A work counter for the cost tests: timing cannot show that locating sections stays close
//! to linear in the file, so [`locate`](super::locate) counts its index entries and line
//! comparisons here and the tests bound the count. Outside tests [`charge`] compiles to
//! nothing.

#[cfg(test)]
use std::cell::Cell;

#[cfg(test)]
thread_local! {
    /// Work done on this thread since the last [`take`].
    static WORK: Cell<usize> = const { Cell::new(0) };
}

/// Counts `units` of work done on this thread.
#[cfg(test)]
pub(super) fn charge(units: usize) {
    WORK.with(|w| w.set(w.get() + units));
}

/// Counts nothing outside tests.
#[cfg(not(test))]
#[inline(always)]
pub(super) fn charge(_: usize) {}

/// The work counted on this thread since the last call, resetting the count.
#[cfg(test)]
pub(super) fn take() -> usize {
    WORK.with(|w| w.replace(0))
}

//! A work counter for the cost test: a lazy edit must cost O(file + snippet), which timing
//! cannot check reliably, so the loops of the merge count their steps here and a test bounds
//! the count. Outside tests [`charge`] compiles to nothing.

#[cfg(test)]
use std::cell::Cell;

#[cfg(test)]
thread_local! {
    /// Steps taken on this thread since the last [`take`].
    static WORK: Cell<usize> = const { Cell::new(0) };
}

/// Counts `units` steps on this thread.
#[cfg(test)]
pub(super) fn charge(units: usize) {
    WORK.with(|w| w.set(w.get() + units));
}

/// Counts nothing outside tests.
#[cfg(not(test))]
#[inline(always)]
pub(super) fn charge(_: usize) {}

/// The steps counted on this thread since the last call, resetting the count.
#[cfg(test)]
pub(super) fn take() -> usize {
    WORK.with(|w| w.replace(0))
}

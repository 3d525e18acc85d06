//! Work counters for the cost tests.
//!
//! Streaming must cost O(chunk) per push, which timing cannot check reliably; so the code that
//! copies preview text or walks regions and tree nodes counts that work here, and tests assert
//! bounds on the count. Outside tests [`charge`] compiles to nothing.

#[cfg(test)]
use std::cell::Cell;

#[cfg(test)]
thread_local! {
    /// Work done on this thread since the last [`take`]: bytes copied into splices and
    /// previews, regions and tree nodes visited, reports cloned.
    static WORK: Cell<usize> = const { Cell::new(0) };
}

#[cfg(test)]
thread_local! {
    /// Bytes and places a block's search read on this thread since the last [`take_search`]
    /// (kept apart from [`WORK`]: streaming bounds are per push, search bounds per block).
    static SEARCH: Cell<usize> = const { Cell::new(0) };
}

/// Counts `units` of searching (bytes scanned, places checked) done on this thread.
#[cfg(test)]
pub(super) fn charge_search(units: usize) {
    SEARCH.with(|w| w.set(w.get() + units));
}

/// Counts nothing outside tests.
#[cfg(not(test))]
#[inline(always)]
pub(super) fn charge_search(_: usize) {}

/// The searching counted on this thread since the last call, resetting the count.
#[cfg(test)]
pub(super) fn take_search() -> usize {
    SEARCH.with(|w| w.replace(0))
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

/// Appends `s` to a splice or a preview being built, counting each byte copied.
pub(super) fn append(out: &mut String, s: &str) {
    charge(s.len());
    out.push_str(s);
}

//! [`Work`]: the work counters of the cost tests.
//!
//! Streaming must cost O(chunk) per push, locating a block or a section close to linear in the
//! file, a lazy merge O(file + snippet): bounds timing cannot check reliably. So the code that
//! copies text, visits regions and tree nodes, scans bytes or compares lines counts that work
//! here, per thread, and the tests bound the counts. Outside tests counting compiles to nothing.

/// One kind of work the cost tests count, kept apart because each is bounded per its own unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Work {
    /// `native` streaming: bytes copied into splices and previews, regions and tree nodes
    /// visited, reports cloned (bounded per push).
    Stream,
    /// `native` searching: bytes and places a block's search read (bounded per block).
    Search,
    /// Steps of a lazy edit's merge (bounded by file plus snippet).
    Lazy,
    /// Index entries and line comparisons of locating V4A sections (bounded by the file).
    V4a,
}

#[cfg(test)]
thread_local! {
    /// The counts on this thread, one per [`Work`] kind.
    static COUNTS: [std::cell::Cell<usize>; 4] =
        const { [const { std::cell::Cell::new(0) }; 4] };
}

impl Work {
    /// Counts `units` of this work on this thread (nothing outside tests).
    #[inline(always)]
    pub(crate) fn charge(self, units: usize) {
        #[cfg(test)]
        COUNTS.with(|counts| {
            let count = &counts[self as usize];
            count.set(count.get() + units);
        });
        #[cfg(not(test))]
        let _ = units;
    }

    /// The work of this kind counted on this thread since the last call, resetting the count.
    #[cfg(test)]
    pub(crate) fn take(self) -> usize {
        COUNTS.with(|counts| counts[self as usize].replace(0))
    }
}

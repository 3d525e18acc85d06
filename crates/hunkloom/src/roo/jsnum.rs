//! The JavaScript number semantics Roo's arithmetic on line numbers relies on: `Array.prototype
//! .slice`'s index rules (its messages print numbers with
//! [`js_number_to_string`](crate::text::js_number_to_string)).
//!
//! Roo computes line indices as JavaScript numbers, which may be negative (a `:start_line:` hint
//! shifted by earlier deletions) or past the end; `slice` then counts from the end or clamps.
//! Reproducing that arithmetic in `f64` keeps every such case identical.

/// The `[start, end)` range `array.slice(start, end)` takes from an array of `len` elements.
pub(super) fn slice_range(len: usize, start: f64, end: f64) -> (usize, usize) {
    let from = relative_index(len, start);
    let to = relative_index(len, end);
    (from, to.max(from))
}

/// The `[start, len)` range `array.slice(start)` takes.
pub(super) fn slice_from(len: usize, start: f64) -> (usize, usize) {
    (relative_index(len, start), len)
}

/// `slice`'s reading of one index: truncated towards zero (NaN is 0), negative counts from the
/// end, clamped to `[0, len]`.
fn relative_index(len: usize, index: f64) -> usize {
    let len_f = len as f64;
    let i = if index.is_nan() { 0.0 } else { index.trunc() };
    if i < 0.0 {
        let from_end = len_f + i;
        if from_end <= 0.0 {
            0
        } else {
            from_end as usize
        }
    } else if i >= len_f {
        len
    } else {
        i as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_counts_negative_indices_from_the_end_and_clamps() {
        assert_eq!(slice_range(5, 1.0, 3.0), (1, 3));
        assert_eq!(slice_range(5, -2.0, 5.0), (3, 5));
        assert_eq!(slice_range(5, -9.0, 2.0), (0, 2));
        assert_eq!(slice_range(5, 4.0, 2.0), (4, 4));
        assert_eq!(slice_range(5, 7.0, 9.0), (5, 5));
        assert_eq!(slice_range(5, 0.0, -1.0), (0, 4));
        assert_eq!(slice_range(5, 1.5, 3.9), (1, 3));
        assert_eq!(slice_from(5, -1.0), (4, 5));
    }
}

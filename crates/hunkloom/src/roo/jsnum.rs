//! The JavaScript number semantics Roo's arithmetic on line numbers relies on: `Array.prototype
//! .slice`'s index rules and `String(n)` for the integers its messages print.
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

/// `String(n)` for a number that is an integer, infinite or NaN (what Roo's messages print:
/// line numbers and floored percentages).
pub(super) fn format_integer(n: f64) -> String {
    if n.is_nan() {
        return "NaN".to_owned();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    if n == 0.0 {
        return "0".to_owned(); // also -0
    }
    if n.abs() < 1e21 && n.fract() == 0.0 {
        return format!("{n:.0}");
    }
    // Exponent form, as JavaScript writes it: shortest digits, `e+21`.
    let s = format!("{n:e}");
    match s.split_once('e') {
        Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
        _ => s,
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

    #[test]
    fn integers_print_as_javascript_prints_them() {
        assert_eq!(format_integer(90.0), "90");
        assert_eq!(format_integer(-5.0), "-5");
        assert_eq!(format_integer(-0.0), "0");
        assert_eq!(format_integer(1e20), "100000000000000000000");
        assert_eq!(format_integer(1e21), "1e+21");
        assert_eq!(format_integer(f64::NAN), "NaN");
        assert_eq!(format_integer(f64::NEG_INFINITY), "-Infinity");
    }
}

//! Writing a placed segment: its anchors as the file has them, its new lines as the snippet
//! has them, re-indented when the anchors say how.
//!
//! - The first `lead` and last `trail` lines are anchors: they are written as the file lines
//!   they matched, whatever whitespace drift the snippet had.
//! - The lines in between are new, written as the snippet has them. Blank ones are written
//!   empty.
//! - When the segment was placed ignoring leading whitespace (tiers t2 and t3) and the
//!   non-blank anchors' indentation differs from the file's, the new lines are re-indented by
//!   the one mapping every anchor agrees on:
//!   - every anchor's indentation is the file's with each tab turned into k spaces (k tried in
//!     the order 2, 4, 8, 3, 1): each k leading spaces of a new line become one tab;
//!   - otherwise every anchor is shifted by the same d spaces (both sides indented with
//!     spaces): d spaces are removed from (or added to) every new line;
//!   - otherwise the segment is refused (`lazy_indentation`), as it is when a new line has
//!     fewer than d spaces to remove.

use super::index::Tier;
use super::place::Range;
use crate::text::Work;

/// A line of a written segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Written<'s> {
    /// File line `i`, as the file has it (with its own line ending).
    Kept(usize),
    /// A new line (without a line ending).
    New(std::borrow::Cow<'s, str>),
}

/// How the anchors' indentation maps the snippet's to the file's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mapping {
    /// Equal: new lines are written as they are.
    Same,
    /// Each `k` leading spaces of the snippet are a tab in the file.
    Tabs(usize),
    /// The snippet is indented `d` spaces deeper (negative: shallower) than the file.
    Shift(isize),
}

/// Why new lines cannot be re-indented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unindentable {
    /// The anchors agree on no mapping.
    Inconsistent,
    /// New line `line` (0-based in the segment) has fewer than `d` spaces to remove.
    Shallow {
        /// The segment line.
        line: usize,
        /// The spaces that should be removed.
        d: usize,
    },
}

/// The leading spaces and tabs of `s`.
pub(super) fn indent_of(s: &str) -> &str {
    &s[..s.len() - s.trim_start_matches([' ', '\t']).len()]
}

/// The lines of `segment`, placed at `range` in the file `file`.
pub(super) fn render<'s>(
    segment: &[&'s str],
    range: Range,
    file: &[&str],
) -> Result<Vec<Written<'s>>, Unindentable> {
    let m = segment.len();
    let anchor = |i: usize| {
        if i < range.lead {
            Some(range.start + i)
        } else if i + range.trail >= m {
            Some(range.end + i - m)
        } else {
            None
        }
    };
    let mapping = if range.tier == Tier::Trailing {
        Mapping::Same
    } else {
        let pairs: Vec<(&str, &str)> = (0..m)
            .filter_map(|i| anchor(i).map(|o| (segment[i], file[o])))
            .filter(|(s, _)| !s.trim().is_empty())
            .map(|(s, o)| (indent_of(s), indent_of(o)))
            .collect();
        mapping(&pairs)?
    };
    Work::Lazy.charge(m);
    let mut out = Vec::with_capacity(m);
    for (i, line) in segment.iter().enumerate() {
        if let Some(o) = anchor(i) {
            out.push(Written::Kept(o));
            continue;
        }
        if line.trim().is_empty() {
            out.push(Written::New("".into()));
            continue;
        }
        let new = match mapping {
            Mapping::Same => (*line).into(),
            Mapping::Tabs(k) => {
                let spaces = line.len() - line.trim_start_matches(' ').len();
                let mut s = "\t".repeat(spaces / k);
                s.push_str(&" ".repeat(spaces % k));
                s.push_str(&line[spaces..]);
                s.into()
            }
            Mapping::Shift(d) if d >= 0 => {
                let d = d as usize;
                match line.get(..d) {
                    Some(cut) if cut.bytes().all(|b| b == b' ') => line[d..].into(),
                    _ => return Err(Unindentable::Shallow { line: i, d }),
                }
            }
            Mapping::Shift(d) => format!("{}{line}", " ".repeat(d.unsigned_abs())).into(),
        };
        out.push(Written::New(new));
    }
    Ok(out)
}

/// The mapping every `(snippet, file)` indentation pair agrees on.
fn mapping(pairs: &[(&str, &str)]) -> Result<Mapping, Unindentable> {
    if pairs.iter().all(|(s, o)| s == o) {
        return Ok(Mapping::Same);
    }
    for k in [2, 4, 8, 3, 1] {
        let spaces = " ".repeat(k);
        if pairs.iter().all(|(s, o)| *s == o.replace('\t', &spaces)) {
            return Ok(Mapping::Tabs(k));
        }
    }
    let spaces_only = |s: &str| s.bytes().all(|b| b == b' ');
    let mut shift = None;
    for (s, o) in pairs {
        if !spaces_only(s) || !spaces_only(o) {
            return Err(Unindentable::Inconsistent);
        }
        let d = s.len() as isize - o.len() as isize;
        if *shift.get_or_insert(d) != d {
            return Err(Unindentable::Inconsistent);
        }
    }
    shift.map(Mapping::Shift).ok_or(Unindentable::Inconsistent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(start: usize, end: usize, lead: usize, trail: usize, tier: Tier) -> Range {
        Range {
            start,
            end,
            lead,
            trail,
            tier,
        }
    }

    #[test]
    fn anchors_come_from_the_file_and_new_lines_are_reindented() {
        let file = ["\tif x {", "\t\told()", "\t}"];
        let segment = ["    if x {", "        new()", "", "    }"];
        let out = render(&segment, range(0, 3, 1, 1, Tier::Edges), &file).expect("tabs");
        assert_eq!(
            out,
            vec![
                Written::Kept(0),
                Written::New("\t\tnew()".into()),
                Written::New("".into()),
                Written::Kept(2)
            ]
        );
        let file = ["  a:", "    b", "  c"];
        let segment = ["a:", "  x", "c"];
        let out = render(&segment, range(0, 3, 1, 1, Tier::Edges), &file).expect("shift");
        assert_eq!(out[1], Written::New("    x".into()));
        let segment = ["      a:", " x", "      c"];
        assert_eq!(
            render(&segment, range(0, 3, 1, 1, Tier::Edges), &file),
            Err(Unindentable::Shallow { line: 1, d: 4 })
        );
        let segment = ["a:", "x", "      c"];
        assert_eq!(
            render(&segment, range(0, 3, 1, 1, Tier::Edges), &file),
            Err(Unindentable::Inconsistent)
        );
        // At t1 the snippet's new lines are kept as they are.
        let segment = ["  a:", "x  ", "  c"];
        let out = render(&segment, range(0, 3, 1, 1, Tier::Trailing), &file).expect("t1");
        assert_eq!(out[1], Written::New("x  ".into()));
    }
}

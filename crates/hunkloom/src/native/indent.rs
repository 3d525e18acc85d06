//! Uniform indentation changes: how a SEARCH text's indentation maps onto the file's, and the
//! same map applied to a replacement that carries the SEARCH text's indentation.

use std::borrow::Cow;

/// How the SEARCH text's indentation relates to the matched region's, for every non-blank line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IndentMap {
    /// The file's indentation is the SEARCH's plus `delta` copies of one character (negative:
    /// minus), the character being a tab when `tab`.
    Shift { delta: isize, tab: bool },
    /// Tabs and spaces differ: measured with tabs `tab_width` columns wide, the file's
    /// indentation is the SEARCH's plus `delta` columns, written with tabs when `to_tabs`.
    Convert {
        tab_width: usize,
        delta: isize,
        to_tabs: bool,
    },
}

/// Tab widths tried when tabs and spaces are mixed, most common first.
const TAB_WIDTHS: [usize; 4] = [4, 2, 8, 3];

impl IndentMap {
    /// No change at all.
    pub(crate) const IDENTITY: IndentMap = IndentMap::Shift {
        delta: 0,
        tab: false,
    };

    /// Finds the map that turns every SEARCH indentation into the file's, given `(file,
    /// search)` indentation pairs of the non-blank lines; `None` when no uniform map exists.
    pub(crate) fn infer<'a>(pairs: &[(&'a str, &'a str)]) -> Option<IndentMap> {
        if pairs.iter().all(|(f, s)| f == s) {
            return Some(IndentMap::IDENTITY);
        }
        if let Some(map) = shift(pairs) {
            return Some(map);
        }
        let to_tabs = pairs.iter().any(|(f, _)| f.contains('\t'));
        TAB_WIDTHS.into_iter().find_map(|tab_width| {
            let delta =
                |(f, s): &(&str, &str)| width(f, tab_width) as isize - width(s, tab_width) as isize;
            let d = delta(&pairs[0]);
            pairs
                .iter()
                .all(|p| delta(p) == d)
                .then_some(IndentMap::Convert {
                    tab_width,
                    delta: d,
                    to_tabs,
                })
        })
    }

    /// Whether the map changes nothing.
    pub(crate) fn is_identity(&self) -> bool {
        matches!(self, IndentMap::Shift { delta: 0, .. })
    }

    /// The change in columns, a tab counting as 4 columns unless the map measured tabs at
    /// another width.
    pub(crate) fn columns(&self) -> isize {
        match *self {
            IndentMap::Shift { delta, tab } => delta * if tab { 4 } else { 1 },
            IndentMap::Convert { delta, .. } => delta,
        }
    }

    /// A replacement line's indentation mapped the way the SEARCH text's maps onto the file.
    pub(crate) fn apply<'a>(&self, indent: &'a str) -> Cow<'a, str> {
        match *self {
            IndentMap::Shift { delta, tab } => {
                let unit = if tab { '\t' } else { ' ' };
                if delta >= 0 {
                    let mut s: String = std::iter::repeat_n(unit, delta as usize).collect();
                    s.push_str(indent);
                    Cow::Owned(s)
                } else {
                    let strip = indent
                        .chars()
                        .take(delta.unsigned_abs())
                        .take_while(|&c| c == unit)
                        .count();
                    Cow::Borrowed(&indent[strip..])
                }
            }
            IndentMap::Convert {
                tab_width,
                delta,
                to_tabs,
            } => {
                let w = (width(indent, tab_width) as isize + delta).max(0) as usize;
                Cow::Owned(if to_tabs {
                    "\t".repeat(w / tab_width) + &" ".repeat(w % tab_width)
                } else {
                    " ".repeat(w)
                })
            }
        }
    }
}

/// A shift by copies of one character, when every indentation on both sides is made of it.
fn shift(pairs: &[(&str, &str)]) -> Option<IndentMap> {
    let mut unit = None;
    for c in pairs.iter().flat_map(|(f, s)| f.chars().chain(s.chars())) {
        match unit {
            None => unit = Some(c),
            Some(u) if u != c => return None,
            _ => {}
        }
    }
    let d = pairs[0].0.len() as isize - pairs[0].1.len() as isize;
    pairs
        .iter()
        .all(|(f, s)| f.len() as isize - s.len() as isize == d)
        .then_some(IndentMap::Shift {
            delta: d,
            tab: unit == Some('\t'),
        })
}

/// The width of an indentation in columns, each tab `tab_width` wide.
fn width(indent: &str, tab_width: usize) -> usize {
    indent
        .bytes()
        .map(|b| if b == b'\t' { tab_width } else { 1 })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_and_conversions() {
        let map = IndentMap::infer(&[("    ", ""), ("        ", "    ")]).unwrap();
        assert_eq!(
            map,
            IndentMap::Shift {
                delta: 4,
                tab: false
            }
        );
        assert_eq!(map.apply("  "), "      ");
        let map = IndentMap::infer(&[("\t", "    "), ("\t\t", "        ")]).unwrap();
        assert_eq!(map.apply("        "), "\t\t");
        let map = IndentMap::infer(&[("  ", "\t"), ("    ", "\t\t")]).unwrap();
        assert_eq!(map.apply("\t\t\t"), "      ");
        let map = IndentMap::infer(&[("\t", "\t\t\t")]).unwrap();
        assert_eq!(map.apply("\t\t\t\t"), "\t\t");
        assert_eq!(IndentMap::infer(&[("    ", ""), ("    ", "    ")]), None);
        assert!(IndentMap::infer(&[("\t", "\t")]).unwrap().is_identity());
    }
}

//! Anthropic's tab handling without rewriting the file's tabs.
//!
//! The Anthropic reference expands every tab (8-column stops) in the file, in `old_str` and in
//! `new_str` before matching, and writes the whole file back expanded; its listings show tabs
//! expanded too, so a model copies spaces. The `anthropic` profile matches the same way — the
//! expanded `old_str` in the expanded file — but maps the match back to the file's own text and
//! replaces only that: every other tab stays a tab. A tab that the match starts or ends inside
//! (an `old_str` beginning with four of a tab's eight spaces) is the only one written as spaces,
//! so the line reads exactly as the reference would write it.

use crate::render::expand_tabs;

/// A text with its tabs expanded, and where each tab went.
pub(crate) struct Expanded {
    /// The expanded text.
    pub(crate) text: String,
    /// Per tab: its offset in the expanded text, its width there, its offset in the original.
    tabs: Vec<(usize, usize, usize)>,
}

/// An offset of the expanded text in the original: exact, or inside a tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Point {
    Exact(usize),
    /// Inside the tab at this original offset, after this many of its spaces (of `width`).
    InTab {
        at: usize,
        spaces: usize,
        width: usize,
    },
}

impl Expanded {
    pub(crate) fn new(original: &str) -> Expanded {
        let mut text = String::with_capacity(original.len() + 16);
        let mut tabs = Vec::new();
        let mut column = 0usize;
        for (at, c) in original.char_indices() {
            match c {
                '\t' => {
                    let width = 8 - column % 8;
                    tabs.push((text.len(), width, at));
                    text.extend(std::iter::repeat_n(' ', width));
                    column += width;
                }
                '\n' | '\r' => {
                    text.push(c);
                    column = 0;
                }
                c => {
                    text.push(c);
                    column += 1;
                }
            }
        }
        Expanded { text, tabs }
    }

    /// Where expanded offset `x` is in the original.
    fn point(&self, x: usize) -> Point {
        let i = self.tabs.partition_point(|&(e, _, _)| e <= x);
        let Some(&(e, width, at)) = i.checked_sub(1).and_then(|i| self.tabs.get(i)) else {
            return Point::Exact(x);
        };
        if x == e {
            Point::Exact(at)
        } else if x < e + width {
            Point::InTab {
                at,
                spaces: x - e,
                width,
            }
        } else {
            Point::Exact(at + 1 + (x - (e + width)))
        }
    }

    /// `original` with the expanded span `start..end` replaced by `new`: the original's bytes
    /// outside the span kept, a tab cut by the span written as the spaces left of it.
    pub(crate) fn replace(&self, original: &str, start: usize, end: usize, new: &str) -> String {
        let (from, before) = match self.point(start) {
            Point::Exact(o) => (o, 0),
            Point::InTab { at, spaces, .. } => (at, spaces),
        };
        let (to, after) = match self.point(end) {
            Point::Exact(o) => (o, 0),
            Point::InTab {
                at, spaces, width, ..
            } => (at + 1, width - spaces),
        };
        let mut out = String::with_capacity(original.len() + new.len() + before + after);
        out.push_str(&original[..from]);
        out.extend(std::iter::repeat_n(' ', before));
        out.push_str(new);
        out.extend(std::iter::repeat_n(' ', after));
        out.push_str(&original[to..]);
        out
    }
}

/// `text` with its tabs expanded (owned).
pub(crate) fn expanded(text: &str) -> String {
    expand_tabs(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacing_keeps_other_tabs() {
        let original = "\tif x:\n\t\treturn 1\n";
        let e = Expanded::new(original);
        assert_eq!(e.text, "        if x:\n                return 1\n");
        let old = "                return 1";
        let at = e.text.find(old).expect("found");
        let got = e.replace(original, at, at + old.len(), "                return 2");
        // The matched line is written as the model gave it; the other line keeps its tab.
        assert_eq!(got, "\tif x:\n                return 2\n");
        // A match that starts at a tab boundary keeps the tabs before it.
        let at = e.text.find("return 1").expect("found");
        let got = e.replace(original, at, at + 8, "return 2");
        assert_eq!(got, "\tif x:\n\t\treturn 2\n");
    }

    #[test]
    fn a_cut_tab_becomes_the_spaces_it_keeps() {
        let original = "\tx\n";
        let e = Expanded::new(original);
        // Four of the tab's eight spaces and the x.
        let got = e.replace(original, 4, 9, "y");
        assert_eq!(got, "    y\n");
        // Inside one tab only.
        let got = e.replace(original, 2, 5, "-");
        assert_eq!(got, "  -   x\n");
        assert_eq!(expand_tabs(&got), "  -   x\n");
    }

    /// Up to the replacement, the result reads (expanded) as the reference's; the lines after
    /// the replaced ones are the original's, tabs and all. (Later on the replacement's own
    /// line, a kept tab re-aligns to its stop where the reference's spaces do not.)
    #[test]
    fn results_agree_with_the_reference_up_to_the_replacement() {
        let original = "a\tb\t\tc\n\td\te\n\tf\n";
        let e = Expanded::new(original);
        for start in 0..=e.text.len() {
            for end in start..=e.text.len() {
                let ours = e.replace(original, start, end, "Z");
                let reference = format!("{}Z{}", &e.text[..start], &e.text[end..]);
                let ours_expanded = expanded(&ours);
                assert_eq!(
                    ours_expanded[..=start],
                    reference[..=start],
                    "{start}..{end}"
                );
                let tail =
                    |s: &str, from: usize| s[from..].split_once('\n').map(|(_, t)| t.to_owned());
                let z = ours.find('Z').expect("Z");
                let rest_of_original = match e.point(end) {
                    Point::Exact(o) => o,
                    Point::InTab { at, .. } => at,
                };
                assert_eq!(
                    tail(&ours, z),
                    tail(original, rest_of_original),
                    "{start}..{end}"
                );
            }
        }
    }
}

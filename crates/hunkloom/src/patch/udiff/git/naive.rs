//! The oracle of [`apply`](super::apply): git's own walk, written plainly. After each fragment
//! the image is rebuilt; a fragment is tried at its hint, then one line after, one before, two
//! after, ... and matches where every preimage line has git's hash, no line was written by an
//! earlier fragment, and the preimage's bytes follow.

use super::file_patch::FilePatch;

/// git's line hash (24 bits of `h = h * 3 + byte` over the non-whitespace bytes).
fn hash(line: &str) -> u32 {
    let mut h: u32 = 0;
    for b in line.bytes() {
        if !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            h = h.wrapping_mul(3).wrapping_add(u32::from(b));
        }
    }
    h & 0x00ff_ffff
}

/// Applies every fragment of `patch` to `original`; `None` at the first that does not apply.
pub(super) fn apply(original: &str, patch: &FilePatch) -> Option<String> {
    // (line, written by a fragment)
    let mut image: Vec<(String, bool)> = original
        .split_inclusive('\n')
        .map(|l| (l.to_owned(), false))
        .collect();
    for f in &patch.fragments {
        let (mut old, mut new) = (Vec::new(), Vec::new());
        for (i, line) in f.body.iter().enumerate() {
            let cut = f.body.get(i + 1).is_some_and(|n| n.starts_with('\\'));
            let content = |l: &str| l[1..l.len() - usize::from(cut)].to_owned();
            match line.as_bytes()[0] {
                b'\n' if !cut => {
                    old.push("\n".to_owned());
                    new.push("\n".to_owned());
                }
                b' ' => {
                    old.push(content(line));
                    new.push(content(line));
                }
                b'-' => old.push(content(line)),
                b'+' => new.push(content(line)),
                _ => {}
            }
        }
        let (nr, k) = (image.len(), old.len());
        let (begin, end) = (f.oldpos <= 1, f.trailing == 0);
        let line = if begin {
            0
        } else if end {
            nr.checked_sub(k).unwrap_or(nr)
        } else {
            f.newpos.saturating_sub(1)
        }
        .min(nr);
        let text: String = image.iter().map(|(l, _)| l.as_str()).collect();
        let pre: String = old.concat();
        let fits = |p: usize| {
            if p + k > nr || (end && p + k != nr) || (begin && p != 0) {
                return false;
            }
            if (0..k).any(|j| image[p + j].1 || hash(&image[p + j].0) != hash(&old[j])) {
                return false;
            }
            let at: usize = image[..p].iter().map(|(l, _)| l.len()).sum();
            let room = if end {
                at + pre.len() == text.len()
            } else {
                at + pre.len() <= text.len()
            };
            room && text.as_bytes()[at..].starts_with(pre.as_bytes())
        };
        let mut order = vec![line];
        for d in 1..=nr {
            if line + d <= nr {
                order.push(line + d);
            }
            if d <= line {
                order.push(line - d);
            }
        }
        let p = order.into_iter().find(|&p| fits(p))?;
        image.splice(p..p + k, new.into_iter().map(|l| (l, true)));
    }
    Some(image.into_iter().map(|(l, _)| l).collect())
}

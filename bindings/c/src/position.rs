//! [`hl_position`]: a place in a text in every unit at once, as every result and error reports
//! it.

use engine::Position;

/// A position in the original text, in every unit at once.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hl_position {
    /// UTF-8 byte offset.
    pub bytes: usize,
    /// UTF-16 code-unit offset.
    pub utf16: usize,
    /// Unicode code-point offset.
    pub code_points: usize,
    /// 1-based line number.
    pub line: usize,
}

impl From<Position> for hl_position {
    fn from(p: Position) -> Self {
        hl_position {
            bytes: p.bytes,
            utf16: p.utf16,
            code_points: p.chars,
            line: p.line,
        }
    }
}

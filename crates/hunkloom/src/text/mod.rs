//! Text primitives: JavaScript string semantics that Cline relies on, edit distances, offsets
//! in every unit a caller may index by (UTF-8 bytes, UTF-16 code units, Unicode scalars,
//! 1-based lines), the lines of a streamed text, and the work counters of the cost tests.

mod changed;
mod distance;
pub(crate) mod js;
mod lines;
mod offsets;
pub(crate) mod original;
pub(crate) mod pieces;
pub mod py;
pub(crate) mod tracked;
pub(crate) mod trimmed_lines;
mod work;

pub use changed::{ChangedSpan, changed_span};
pub use distance::{edit_distance, edit_distance_within, osa_distance};
pub use js::{
    is_js_whitespace, js_edit_distance, js_number_to_string, js_split_lines, js_trim, js_trim_end,
    js_trim_start,
};
pub(crate) use lines::StreamedLines;
pub(crate) use offsets::OffsetCursor;
pub use offsets::{
    Position, TextOffset, line_number_from_byte_index, line_number_from_char_index,
    line_number_from_utf16_index,
};
pub use original::OriginalText;
pub use pieces::{Piece, PieceText};
pub(crate) use work::Work;

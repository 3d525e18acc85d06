//! Tool calls applied while their argument JSON streams in: [`EditStream`] for the text
//! editor, [`ToolStream`] for a toolset's tools, over [`args::ArgsReader`], which reads the JSON as it arrives.

mod args;
mod editor;
mod toolset;

pub use editor::EditStream;
pub use toolset::ToolStream;

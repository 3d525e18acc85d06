//! Tool calls applied while their argument JSON streams in: [`EditStream`] for the text
//! editor, over [`args::ArgsReader`], which reads the JSON as it arrives.

mod args;
mod editor;

pub use editor::EditStream;

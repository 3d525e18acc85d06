//! Tool calls applied while their argument JSON streams in: [`EditStream`], answered by the
//! [`TextEditor`](crate::TextEditor) or [`Toolset`](crate::Toolset) that made it, over
//! [`args::ArgsReader`], which reads the JSON as it arrives, and `editor::EditorCall`, the
//! preview of a call that edits a file (a text editor's, or the native set's `apply_diff`
//! through `applying::Applying`, the `openai` set's `apply_patch` operation through
//! `patching::Patching`; a `str_replace`'s `old_str` looked for as it streams through
//! `narrowing::Narrowing`).

mod applying;
mod args;
mod call;
mod editor;
mod narrowing;
mod patching;

pub use call::{EditStream, ToolHost};

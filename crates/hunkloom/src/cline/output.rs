//! Where a Cline dialect writes its output: one string, or pieces of the original and new text
//! ([`PreviewForm`]).

use crate::matching::Haystack;
use crate::policy::PreviewForm;
use crate::text::TextOffset;
use crate::text::pieces::PieceText;
use crate::text::tracked::TrackedText;

/// Cline's `result` as it is built.
#[derive(Clone, Debug)]
pub(crate) enum Output {
    Text(TrackedText),
    Pieces(PieceText),
}

impl Output {
    /// An empty output in `form`; `capacity` sizes a string once.
    pub(crate) fn new(form: PreviewForm, capacity: usize) -> Self {
        match form {
            PreviewForm::Text => Output::Text(TrackedText::with_capacity(capacity)),
            PreviewForm::Pieces => Output::Pieces(PieceText::default()),
        }
    }

    /// The form this output is kept in.
    pub(crate) fn form(&self) -> PreviewForm {
        match self {
            Output::Text(_) => PreviewForm::Text,
            Output::Pieces(_) => PreviewForm::Pieces,
        }
    }

    /// Appends new text.
    pub(crate) fn push_str(&mut self, text: &str) {
        match self {
            Output::Text(t) => t.push_str(text),
            Output::Pieces(p) => p.push_new(text),
        }
    }

    /// Appends the original from `start` to `end` (bytes, clamped as JavaScript's `slice`
    /// clamps: Cline slices with offsets one past the end).
    pub(crate) fn push_original(&mut self, hay: &Haystack<'_>, start: usize, end: usize) {
        let text = hay.text();
        let (start, end) = (start.min(text.len()), end.min(text.len()));
        if start >= end {
            return;
        }
        match self {
            Output::Text(t) => t.push_str(&text[start..end]),
            Output::Pieces(p) => p.push_original(hay.offset_at(start), hay.offset_at(end)),
        }
    }

    /// The length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.end().bytes
    }

    /// The end as an offset in every unit.
    pub(crate) fn end(&self) -> TextOffset {
        match self {
            Output::Text(t) => t.end(),
            Output::Pieces(p) => p.len(),
        }
    }

    /// The output as one string (a copy when it is kept as pieces).
    pub(crate) fn into_string(self, hay: &Haystack<'_>) -> String {
        match self {
            Output::Text(t) => t.into_string(),
            Output::Pieces(p) => p.to_string(hay.text()),
        }
    }

    /// The output as pieces (one new piece when it is kept as one string).
    pub(crate) fn into_pieces(self) -> PieceText {
        match self {
            Output::Text(t) => {
                let mut p = PieceText::default();
                p.push_new(t.as_str());
                p
            }
            Output::Pieces(p) => p,
        }
    }

    /// The text, when it is kept as one string.
    pub(crate) fn as_text(&self) -> Option<&str> {
        match self {
            Output::Text(t) => Some(t.as_str()),
            Output::Pieces(_) => None,
        }
    }

    /// Cuts back to `len` bytes.
    pub(crate) fn truncate(&mut self, len: usize, hay: &Haystack<'_>) {
        match self {
            Output::Text(t) => t.truncate(len),
            Output::Pieces(p) => p.truncate(len, |b| hay.offset_at(b)),
        }
    }
}

//! Cline v2 (`NewFileContentConstructor`), line by line.
//!
//! A strict state machine: Idle → Search → Search|Replace → Idle. Lines outside blocks are
//! buffered; at the next SEARCH marker, trailing blank ones are dropped and any that remain are
//! an error (text before a block must end with a REPLACE marker). Cline's "repair" paths look in
//! that buffer for a marker line, but the buffer only ever holds lines that are not markers, so
//! every repair attempt ends in its error; this module models the buffer by what those errors
//! depend on (whether it is empty, and whether it holds a non-blank line).

use super::messages;
use super::output::Output;
use super::sink::{BlockRecord, Sink};
use crate::blocks::Marker;
use crate::error::Result;
use crate::matching::{Found, Haystack, cline_cascade};
use crate::report::Strategy;
use crate::text::js_trim;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Idle,
    Search,
    /// Cline ORs the flags together: both are set in the REPLACE part.
    SearchReplace,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct V2 {
    state: State,
    /// Lines outside blocks since the last block: does it hold any, and any non-blank one?
    buffered_any: bool,
    buffered_text: bool,
    search: String,
    found: Option<Found>,
    /// End of the last block (`lastProcessedIndex`).
    last_end: usize,
}

impl V2 {
    pub(crate) fn marker(
        &mut self,
        marker: Marker,
        hay: &Haystack<'_>,
        sink: &mut Sink<'_>,
    ) -> Result<()> {
        match (marker, self.state) {
            (Marker::SearchStart, State::Idle) => {
                if self.buffered_text {
                    return Err(messages::missing_closing_replace());
                }
                self.buffered_any = false;
                self.state = State::Search;
                self.search.clear();
            }
            (Marker::SearchStart, _) => return Err(messages::invalid_state_transition()),
            (Marker::Separator, State::Idle) => {
                return Err(if self.buffered_any {
                    messages::separator_without_search()
                } else {
                    messages::separator_without_lines()
                });
            }
            (Marker::Separator, State::Search) => {
                self.state = State::SearchReplace;
                let found = self.locate(hay)?;
                if found.start < self.last_end {
                    return Err(messages::matched_incorrect_content(&self.search));
                }
                self.found = Some(found);
                sink.emit_original(hay, self.last_end, found.start);
            }
            (Marker::Separator, State::SearchReplace) => {
                return Err(messages::invalid_state_transition());
            }
            (Marker::ReplaceEnd, State::Idle) => {
                return Err(if self.buffered_any {
                    messages::replace_without_separator()
                } else {
                    messages::replace_without_lines()
                });
            }
            (Marker::ReplaceEnd, State::Search) => return Err(messages::replace_without_lines()),
            (Marker::ReplaceEnd, State::SearchReplace) => {
                if let Some(found) = self.found.take() {
                    sink.blocks.push(BlockRecord {
                        start: found.start,
                        end: found.end,
                        strategy: found.strategy,
                        replacement: String::new(),
                    });
                    self.last_end = found.end;
                }
                self.state = State::Idle;
                self.search.clear();
            }
        }
        Ok(())
    }

    fn locate(&self, hay: &Haystack<'_>) -> Result<Found> {
        let text = hay.text();
        if self.search.is_empty() {
            return Ok(if text.is_empty() {
                Found {
                    start: 0,
                    end: 0,
                    strategy: Strategy::EmptySearchNewFile,
                }
            } else {
                Found {
                    start: 0,
                    end: text.len(),
                    strategy: Strategy::EmptySearchWholeFile,
                }
            });
        }
        cline_cascade(hay, &self.search, self.last_end)
            .ok_or_else(|| messages::search_not_found(&self.search))
    }

    pub(crate) fn content(&mut self, line: &str) -> bool {
        match self.state {
            State::SearchReplace => {}
            State::Search => {
                self.search.push_str(line);
                self.search.push('\n');
            }
            State::Idle => {
                self.buffered_any = true;
                self.buffered_text |= !js_trim(line).is_empty();
            }
        }
        self.emits_content()
    }

    pub(crate) fn emits_content(&self) -> bool {
        self.state == State::SearchReplace && self.found.is_some()
    }

    /// The rest of the original follows the output; a block still open is an error.
    pub(crate) fn finish(self, hay: &Haystack<'_>, mut out: Output) -> Result<Output> {
        if self.state != State::Idle {
            return Err(messages::incomplete_at_finish());
        }
        out.push_original(hay, self.last_end, usize::MAX);
        Ok(out)
    }
}

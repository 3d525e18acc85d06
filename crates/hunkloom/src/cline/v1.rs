//! Cline v1 (`constructNewFileContentV1`), line by line.
//!
//! Flags rather than a state machine, so markers act in any state: a separator inside the
//! REPLACE part searches again and writes the gap a second time; a SEARCH marker inside a block
//! restarts the SEARCH text but keeps the previous match and the out-of-order flag. A block found
//! only by the last-resort exact search from offset 0 may lie before the previous block: it is
//! not streamed and is applied in the final rebuild, which sorts all blocks by start.

use super::messages;
use super::output::Output;
use super::sink::{BlockRecord, Sink};
use crate::blocks::Marker;
use crate::error::Result;
use crate::matching::{Found, Haystack, cline_cascade, find_exact};
use crate::policy::PreviewForm;
use crate::report::Strategy;

#[derive(Clone, Debug)]
pub(crate) struct V1 {
    in_search: bool,
    in_replace: bool,
    search: String,
    replace: String,
    /// The current block's match (`searchMatchIndex`/`searchEndIndex`; `None` is Cline's -1).
    found: Option<Found>,
    /// End of the last in-order block (`lastProcessedIndex`).
    last_end: usize,
    /// The current block lies before `last_end` (`pendingOutOfOrderReplacement`).
    out_of_order: bool,
    /// Whether the partial output is still the final content up to the last block's end. True
    /// until a quirk makes them differ (an out-of-order block, a second separator in a block, a
    /// SEARCH marker inside the REPLACE part); while true the final call appends the rest of the
    /// original to the partial output instead of rebuilding the file.
    output_is_prefix: bool,
}

impl Default for V1 {
    fn default() -> Self {
        V1 {
            in_search: false,
            in_replace: false,
            search: String::new(),
            replace: String::new(),
            found: None,
            last_end: 0,
            out_of_order: false,
            output_is_prefix: true,
        }
    }
}

impl V1 {
    pub(crate) fn marker(
        &mut self,
        marker: Marker,
        hay: &Haystack<'_>,
        sink: &mut Sink<'_>,
    ) -> Result<()> {
        match marker {
            Marker::SearchStart => {
                self.output_is_prefix &= !self.in_replace;
                self.in_search = true;
                self.search.clear();
                self.replace.clear();
            }
            Marker::Separator => {
                self.in_search = false;
                self.in_replace = true;
                let found = self.locate(hay)?;
                if found.start < self.last_end {
                    self.out_of_order = true;
                }
                self.output_is_prefix &= self.found.is_none() && !self.out_of_order;
                self.found = Some(found);
                if !self.out_of_order {
                    sink.emit_original(hay, self.last_end, found.start);
                }
            }
            Marker::ReplaceEnd => {
                let Some(found) = self.found else {
                    return Err(messages::search_malformatted(&self.search));
                };
                sink.blocks.push(BlockRecord {
                    start: found.start,
                    end: found.end,
                    strategy: found.strategy,
                    replacement: std::mem::take(&mut self.replace),
                });
                if !self.out_of_order {
                    self.last_end = found.end;
                }
                self.reset_block();
            }
        }
        Ok(())
    }

    fn locate(&self, hay: &Haystack<'_>) -> Result<Found> {
        let text = hay.text();
        if self.search.is_empty() {
            return if text.is_empty() {
                Ok(Found {
                    start: 0,
                    end: 0,
                    strategy: Strategy::EmptySearchNewFile,
                })
            } else {
                Err(messages::empty_search_nonempty_file())
            };
        }
        if let Some(found) = cline_cascade(hay, &self.search, self.last_end) {
            return Ok(found);
        }
        match find_exact(text, &self.search, 0) {
            Some(start) => Ok(Found {
                start,
                end: start + self.search.len(),
                strategy: Strategy::ExactAnywhere,
            }),
            None => Err(messages::search_not_found(&self.search)),
        }
    }

    fn reset_block(&mut self) {
        self.in_search = false;
        self.in_replace = false;
        self.search.clear();
        self.replace.clear();
        self.found = None;
        self.out_of_order = false;
    }

    pub(crate) fn content(&mut self, line: &str) -> bool {
        let emits = self.emits_content();
        if self.in_search {
            self.search.push_str(line);
            self.search.push('\n');
        } else if self.in_replace {
            self.replace.push_str(line);
            self.replace.push('\n');
        }
        emits
    }

    pub(crate) fn emits_content(&self) -> bool {
        !self.in_search && self.in_replace && self.found.is_some() && !self.out_of_order
    }

    /// The final rebuild: an unterminated block whose separator was reached is applied, then all
    /// blocks are applied to the original in order of their start (a stable sort, as
    /// JavaScript's). Returns the content and the block order (Cline's final `matchIndices`).
    ///
    /// `output` is the partial output if it was built; when it is still a prefix of the final
    /// content, the rest of the original is appended to it instead. A rebuilt content is made
    /// in `form`.
    pub(crate) fn finish(
        mut self,
        hay: &Haystack<'_>,
        output: Option<Output>,
        form: PreviewForm,
        blocks: &mut Vec<BlockRecord>,
    ) -> (Output, Vec<usize>) {
        if let Some(found) = self.found.filter(|_| self.in_replace) {
            blocks.push(BlockRecord {
                start: found.start,
                end: found.end,
                strategy: found.strategy,
                replacement: std::mem::take(&mut self.replace),
            });
        }
        let mut order: Vec<usize> = (0..blocks.len()).collect();
        order.sort_by_key(|&i| blocks[i].start);
        if let Some(output) = output.filter(|_| self.output_is_prefix) {
            debug_assert!(order.iter().copied().eq(0..blocks.len()));
            let mut content = output;
            let cursor = blocks.last().map_or(0, |b| b.end);
            content.push_original(hay, cursor, usize::MAX);
            return (content, order);
        }
        let size = hay.text().len() + blocks.iter().map(|b| b.replacement.len()).sum::<usize>();
        let mut content = Output::new(form, size);
        let mut cursor = 0;
        for &i in &order {
            let block = &blocks[i];
            content.push_original(hay, cursor, block.start);
            content.push_str(&block.replacement);
            cursor = block.end;
        }
        content.push_original(hay, cursor, usize::MAX);
        (content, order)
    }
}

//! A Parquet batch made into games: `TableRows`, rows of a decoded batch, each made into
//! a game by `TableRows::next_game` (its tag lines written as PGN text with their spans,
//! its movetext split by the one `Splitter` into the game that starts with them), with
//! the buffers of a `RowMaker`.

use std::sync::Arc;

use super::cells::{ColumnCells, Values, value_at};
use super::text::push_tag_value;
use super::{Limits, Wanted};
use crate::input::split::{Splitter, keep_spares};
use crate::pgn::{InputProblem, InputProblemKind, RawGame, RawTag, Span};

/// Rows of a batch, to be made into games (`next_game`) where the caller wants it: the
/// reading turn only decodes them. They share the batch's cells with the other pieces cut
/// from it.
pub struct TableRows {
    pub(super) file: Arc<str>,
    pub(super) limits: Limits,
    pub(super) wanted: Arc<[Wanted]>,
    pub(super) batch: Arc<Vec<ColumnCells>>,
    /// The next row in the batch, and the row after the last one.
    pub(super) row: usize,
    pub(super) end: usize,
    /// Each column's index of the value of the next row (nulls hold no value).
    pub(super) values: Vec<usize>,
    /// The row number of the next row in the file (1-based).
    pub(super) number: u64,
    /// The bytes of the rows' string cells.
    pub(super) bytes: usize,
}

/// The buffers a row's game is made with, kept from row to row, and spare games whose
/// buffers are reused.
#[derive(Default)]
pub struct RowMaker {
    /// The tag lines of the row being made and a blank line, as PGN text, and their
    /// spans; its movetext and a line end, for the splitter.
    tags: Vec<u8>,
    raw_tags: Vec<RawTag>,
    moves: Vec<u8>,
    spare: Vec<RawGame>,
}

impl RowMaker {
    /// Takes back games that have been used, to reuse their buffers.
    pub fn recycle(&mut self, games: &mut Vec<RawGame>) {
        keep_spares(&mut self.spare, games);
    }

    /// Hands over the spare games, as `Splitter::into_spares`.
    pub fn take_spares(&mut self) -> Vec<RawGame> {
        std::mem::take(&mut self.spare)
    }

    /// Takes spare games from elsewhere (a worker's, kept between its pieces).
    pub fn give_spares(&mut self, spares: Vec<RawGame>) {
        if self.spare.is_empty() {
            self.spare = spares;
        } else {
            let mut spares = spares;
            self.recycle(&mut spares);
        }
    }
}

impl TableRows {
    /// The bytes of the rows' string cells (what a piece of them holds in flight).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The file the rows are from; `file` takes its place in the games made (a worker's
    /// own copy of the name).
    pub fn file(&self) -> &Arc<str> {
        &self.file
    }

    pub fn set_file(&mut self, file: Arc<str>) {
        self.file = file;
    }

    /// The next row's game; `None` after the last row of the piece.
    pub fn next_game(&mut self, maker: &mut RowMaker) -> Option<RawGame> {
        if self.row >= self.end {
            return None;
        }
        let game = self.make_game(maker);
        self.row += 1;
        self.number += 1;
        Some(game)
    }

    /// The game of the next row: its tag lines, and its movetext split as a file of one
    /// game.
    fn make_game(&mut self, maker: &mut RowMaker) -> RawGame {
        let RowMaker {
            tags,
            raw_tags,
            moves,
            spare,
        } = maker;
        tags.clear();
        raw_tags.clear();
        let row = self.row;
        let mut movetext = None;
        let last = self.wanted.len().saturating_sub(1);
        for (i, ((wanted, cells), value)) in self
            .wanted
            .iter()
            .zip(self.batch.iter())
            .zip(&mut self.values)
            .enumerate()
        {
            let Some(value) = value_at(cells, wanted.max_def, row, value) else {
                continue;
            };
            if i == last {
                movetext = Some(value);
                continue;
            }
            tags.push(b'[');
            let name_start = tags.len();
            tags.extend_from_slice(wanted.name.as_bytes());
            let name_end = tags.len();
            tags.extend_from_slice(b" \"");
            let value_start = tags.len();
            push_tag_value(tags, &cells.values, value, wanted.kind);
            let value_end = tags.len();
            tags.extend_from_slice(b"\"]\n");
            raw_tags.push(RawTag {
                name: Span::new(name_start, name_end),
                value: Span::new(value_start, value_end),
                line: 0,
            });
        }
        tags.push(b'\n');
        let movetext = match (self.batch.last().map(|cells| &cells.values), movetext) {
            (Some(Values::Text(values)), Some(value)) => {
                values.get(value).map_or(&[][..], |v| v.data())
            }
            _ => &[],
        };
        // The tags are known: only the movetext is split, into a game that starts with
        // the tag lines (`with_head`). Tags past the game size limit go through the
        // splitter with the movetext, which cuts them there.
        let head = tags.len();
        let tags_inside = head <= self.limits.max_game_bytes;
        moves.clear();
        if !tags_inside {
            moves.extend_from_slice(tags);
            raw_tags.clear();
        }
        // One buffer, the line end with the movetext: the splitter takes whole lines from
        // its buffer (a line split between two buffers goes the slow way).
        moves.extend_from_slice(movetext);
        moves.push(b'\n');
        let mut splitter =
            Splitter::for_part(&moves[..], self.file.clone(), self.limits, 1, false, true)
                .with_spares(std::mem::take(spare));
        // A row with no tag (every tag cell null) is its movetext alone.
        let with_tags = tags_inside && !raw_tags.is_empty();
        if with_tags {
            splitter = splitter.with_head(tags, raw_tags);
        }
        // Reading a slice cannot fail.
        let first = splitter.next_game().ok().flatten();
        let more = splitter.next_game().ok().flatten().is_some();
        *spare = splitter.into_spares();
        let mut game = match first {
            Some(mut game) => {
                if with_tags && game.bytes.len() < head {
                    // The movetext's lines that belong to no game were dropped, and with
                    // them the blank line after the tags: it stays (ends the tags).
                    game.bytes.clear();
                    game.bytes.extend_from_slice(tags);
                }
                game
            }
            None => {
                // No moves: the tags alone, without the blank line after them, which ends
                // nothing.
                let mut game = spare.pop().unwrap_or_else(|| empty_game(&self.file));
                game.reset(self.file.clone(), 1);
                if with_tags {
                    game.bytes
                        .extend_from_slice(tags.get(..head - 1).unwrap_or_default());
                    game.tags.extend_from_slice(raw_tags);
                }
                game
            }
        };
        game.index = self.number;
        game.line = self.number;
        // Every line of the row's game is the row.
        for tag in &mut game.tags {
            tag.line = 0;
        }
        for token in &mut game.tokens {
            token.line = 0;
        }
        for problem in &mut game.problems {
            problem.line = 0;
        }
        if more {
            game.problems.push(InputProblem {
                kind: InputProblemKind::Unreadable,
                line: 0,
                detail: "the movetext cell holds more than one game; only the first is read".into(),
            });
        }
        game
    }
}

fn empty_game(file: &Arc<str>) -> RawGame {
    RawGame {
        file: file.clone(),
        index: 0,
        global_index: 0,
        line: 1,
        bytes: Vec::new(),
        tags: Vec::new(),
        tokens: Vec::new(),
        problems: Vec::new(),
    }
}

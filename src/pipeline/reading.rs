//! The inputs as the workers read them, in turns: each source opened in turn and cut into
//! chunks of whole games, or, where no safe cut is found, split in the reading turn.

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use super::batch::{BATCH_BYTES, BATCH_GAMES, Batch, InputError};
use super::parallel::Work;
use crate::input::{
    CHUNK_BYTES, Chunker, Decompression, Limits, MAX_CHUNK_BYTES, Opened, Piece, Source, Splitter,
    TableGames, open_source_with,
};
use crate::pgn::RawGame;

/// The inputs, read by the workers in turns: a worker takes the next piece under the
/// lock, so the bytes it reads are in its own core's cache when it splits them, and no
/// reader thread competes with the workers for the cores.
pub(super) struct Input<'a> {
    sources: std::slice::Iter<'a, Source>,
    limits: Limits,
    counter: Arc<AtomicU64>,
    reading: Reading<'a>,
    /// The number of the next piece, in reading order.
    seq: u64,
    /// Sources opened or tried.
    pub(super) sources_reached: u64,
    /// What stopped the reading (an interrupt), reported when the run ends.
    pub(super) failure: Option<anyhow::Error>,
}

/// The bytes read while looking for a cut, then the rest of the source.
type RestOfFile = std::io::Chain<std::io::Cursor<Vec<u8>>, Box<dyn BufRead + Send>>;

/// Where the reading stands.
enum Reading<'a> {
    /// Between sources.
    Idle,
    /// Cutting a source into chunks.
    Chunks {
        source: &'a Source,
        file: Arc<str>,
        chunker: Chunker<Box<dyn BufRead + Send>>,
    },
    /// Splitting the rest of a source where no safe cut was found.
    Rest {
        source: &'a Source,
        splitter: Box<Splitter<RestOfFile>>,
        starts_file: bool,
    },
    /// Reading the rows of a Parquet table as games, in batches.
    Table {
        source: &'a Source,
        table: Box<TableGames>,
        starts_file: bool,
    },
    /// A read error, reported after the games read before it.
    Failed(InputError),
    Done,
}

impl<'a> Input<'a> {
    pub(super) fn new(sources: &'a [Source], limits: Limits, counter: Arc<AtomicU64>) -> Input<'a> {
        Input {
            sources: sources.iter(),
            limits,
            counter,
            reading: Reading::Idle,
            seq: 0,
            sources_reached: 0,
            failure: None,
        }
    }

    /// The next piece of work and its number (a chunk is built in `buffer`); `None` at
    /// the end of the inputs or after an interrupt.
    pub(super) fn next(&mut self, buffer: Vec<u8>) -> Option<(u64, Work)> {
        if let Err(err) = crate::interrupt::check() {
            self.reading = Reading::Done;
            self.failure.get_or_insert(err.into());
        }
        let mut buffer = Some(buffer);
        let work = loop {
            match std::mem::replace(&mut self.reading, Reading::Idle) {
                Reading::Done => {
                    self.reading = Reading::Done;
                    return None;
                }
                Reading::Failed(text) => break Work::InputError(text),
                Reading::Idle => {
                    let Some(source) = self.sources.next() else {
                        self.reading = Reading::Done;
                        return None;
                    };
                    self.sources_reached += 1;
                    // Several threads (this is the parallel path): a compressed source
                    // is decompressed ahead, on a thread of its own.
                    let opened = open_source_with(
                        source,
                        self.limits,
                        self.counter.clone(),
                        Decompression::Ahead,
                    );
                    match opened {
                        Ok(Opened::Table(table)) => {
                            super::batch::say_warnings(&table.warnings);
                            self.reading = Reading::Table {
                                source,
                                table,
                                starts_file: true,
                            };
                        }
                        // The same chunk size from a decompressor: larger chunks from
                        // one (256 KiB) cost a `.zst` 15% more time at two threads.
                        Ok(Opened::Text(reader)) => {
                            self.reading = Reading::Chunks {
                                source,
                                file: Arc::from(source.name()),
                                chunker: Chunker::with_sizes(
                                    reader,
                                    self.limits,
                                    CHUNK_BYTES,
                                    MAX_CHUNK_BYTES,
                                ),
                            }
                        }
                        Err(err) => {
                            break Work::InputError(InputError::open(source, err));
                        }
                    }
                }
                Reading::Chunks {
                    source,
                    file,
                    mut chunker,
                } => match chunker.next_piece(buffer.take().unwrap_or_default()) {
                    Ok(Some(Piece::Chunk(chunk))) => {
                        let work = Work::Chunk {
                            file: file.clone(),
                            chunk,
                        };
                        self.reading = Reading::Chunks {
                            source,
                            file,
                            chunker,
                        };
                        break work;
                    }
                    Ok(Some(Piece::Rest(rest))) => {
                        let starts_file = rest.starts_file;
                        let splitter = rest.splitter(chunker.into_reader(), file, self.limits);
                        self.reading = Reading::Rest {
                            source,
                            splitter: Box::new(splitter),
                            starts_file,
                        };
                    }
                    Ok(None) => {}
                    Err(err) => {
                        break Work::InputError(InputError::read(source, err));
                    }
                },
                Reading::Table {
                    source,
                    mut table,
                    starts_file,
                } => {
                    // Only decoded here: the rows become games on the worker.
                    match table.next_rows(BATCH_GAMES, BATCH_BYTES) {
                        Ok(Some(rows)) => {
                            self.reading = Reading::Table {
                                source,
                                table,
                                starts_file: false,
                            };
                            break Work::Rows {
                                rows: Box::new(rows),
                                starts_file,
                            };
                        }
                        Ok(None) => {}
                        Err(err) => break Work::InputError(InputError::read(source, err)),
                    }
                }
                Reading::Rest {
                    source,
                    mut splitter,
                    starts_file,
                } => {
                    let (games, failed) = next_batch(|| splitter.next_game());
                    self.reading = match failed {
                        Some(err) => Reading::Failed(InputError::read(source, err)),
                        None if games.is_empty() => Reading::Idle,
                        None => Reading::Rest {
                            source,
                            splitter,
                            starts_file: false,
                        },
                    };
                    if !games.is_empty() {
                        break Work::Games { games, starts_file };
                    }
                }
            }
        };
        let seq = self.seq;
        self.seq += 1;
        Some((seq, work))
    }
}

/// The next batch of games from a splitter; a read error ends it.
fn next_batch(
    mut next_game: impl FnMut() -> std::io::Result<Option<RawGame>>,
) -> (Vec<RawGame>, Option<std::io::Error>) {
    let mut batch = Batch::new();
    while !batch.is_full() {
        match next_game() {
            Ok(Some(game)) => batch.push(game),
            Ok(None) => break,
            Err(err) => return (batch.into_games(), Some(err)),
        }
    }
    (batch.into_games(), None)
}

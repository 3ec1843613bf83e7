//! The inputs as the workers read them, in turns: each source opened in turn and read in
//! the pieces `input` cuts it into (`PieceStream`), each piece numbered in reading order.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use super::batch::{BATCH_BYTES, BATCH_GAMES, InputError};
use super::parallel::Work;
use crate::input::{Limits, PieceBounds, PieceStream, Source};

/// The pieces whose size the reading turn decides (rather than the source's text) hold
/// a batch's games at most.
pub const BOUNDS: PieceBounds = PieceBounds {
    games: BATCH_GAMES,
    bytes: BATCH_BYTES,
};

/// The inputs, read by the workers in turns: a worker takes the next piece under the
/// lock, so the bytes it reads are in its own core's cache when it makes them into games, and no
/// reader thread competes with the workers for the cores.
pub(super) struct Input<'a> {
    sources: std::slice::Iter<'a, Source>,
    limits: Limits,
    counter: Arc<AtomicU64>,
    /// The workers that read in turns (a table decodes ahead for them).
    workers: usize,
    reading: Reading<'a>,
    /// The number of the next piece, in reading order.
    seq: u64,
    /// Sources opened or tried.
    pub(super) sources_reached: u64,
    /// What stopped the reading (an interrupt), reported when the run ends.
    pub(super) failure: Option<anyhow::Error>,
}

/// Where the reading stands.
enum Reading<'a> {
    /// Between sources.
    Idle,
    /// Reading a source in pieces.
    Source {
        source: &'a Source,
        pieces: Box<PieceStream>,
    },
    Done,
}

impl<'a> Input<'a> {
    pub(super) fn new(
        sources: &'a [Source],
        limits: Limits,
        counter: Arc<AtomicU64>,
        workers: usize,
    ) -> Input<'a> {
        Input {
            sources: sources.iter(),
            limits,
            counter,
            workers,
            reading: Reading::Idle,
            seq: 0,
            sources_reached: 0,
            failure: None,
        }
    }

    /// The next piece of work and its number (a chunk is built in `buffer`, the worker's
    /// spent one); `None` at the end of the inputs or after an interrupt.
    pub(super) fn next(&mut self, buffer: &mut Vec<u8>) -> Option<(u64, Work)> {
        if let Err(err) = crate::interrupt::check() {
            self.reading = Reading::Done;
            self.failure.get_or_insert(err.into());
        }
        let work = loop {
            match std::mem::replace(&mut self.reading, Reading::Idle) {
                Reading::Done => {
                    self.reading = Reading::Done;
                    return None;
                }
                Reading::Idle => {
                    let Some(source) = self.sources.next() else {
                        self.reading = Reading::Done;
                        return None;
                    };
                    self.sources_reached += 1;
                    match PieceStream::open(source, self.limits, self.counter.clone(), self.workers)
                    {
                        Ok(pieces) => {
                            super::batch::say_warnings(pieces.warnings());
                            self.reading = Reading::Source {
                                source,
                                pieces: Box::new(pieces),
                            };
                        }
                        Err(err) => break Work::InputError(InputError::open(source, err)),
                    }
                }
                // An error ends the source (after the pieces before it).
                Reading::Source { source, mut pieces } => match pieces.next_piece(buffer, BOUNDS) {
                    Ok(Some(piece)) => {
                        self.reading = Reading::Source { source, pieces };
                        break Work::Piece(piece);
                    }
                    Ok(None) => {}
                    Err(err) => break Work::InputError(InputError::read(source, err)),
                },
            }
        };
        let seq = self.seq;
        self.seq += 1;
        Some((seq, work))
    }
}

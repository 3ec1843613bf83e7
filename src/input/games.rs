//! A source read game by game on one thread (`--threads 1`, a `--games` range): PGN text
//! split by one splitter, or a Parquet table's rows made into games as they are decoded.

use std::io;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use super::Source;
use super::decompress::{Decoded, Opened, open_source};
use super::split::{Limits, Splitter};
use super::table::TableGames;
use crate::pgn::RawGame;

/// A source opened to be read game by game.
pub struct GameStream {
    games: Games,
    /// Said once per source by the caller (a Parquet table's skipped columns).
    warnings: Vec<String>,
}

enum Games {
    Text(Box<Splitter<Decoded>>),
    Table(Box<TableGames>),
}

impl GameStream {
    /// Opens the source; a compressed one is decompressed in line.
    pub fn open(source: &Source, limits: Limits, counter: Arc<AtomicU64>) -> io::Result<Self> {
        Ok(match open_source(source, limits, counter)? {
            Opened::Text(reader) => GameStream {
                games: Games::Text(Box::new(Splitter::new(
                    reader,
                    Arc::from(source.name()),
                    limits,
                ))),
                warnings: Vec::new(),
            },
            Opened::Table(mut table) => GameStream {
                warnings: std::mem::take(&mut table.warnings),
                games: Games::Table(table),
            },
        })
    }

    /// Warnings about the source, which is still read.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The next game; `Ok(None)` at the end of the source.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        match &mut self.games {
            Games::Text(splitter) => splitter.next_game(),
            Games::Table(table) => table.next_game(),
        }
    }

    /// Takes back games that have been used, to reuse their buffers.
    pub fn recycle(&mut self, games: &mut Vec<RawGame>) {
        match &mut self.games {
            Games::Text(splitter) => splitter.recycle(games),
            Games::Table(table) => table.recycle(games),
        }
    }
}

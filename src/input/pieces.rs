//! A source as the workers read it, in pieces: the reading turn only takes the next piece
//! (a chunk of whole games of PGN text, or rows of a Parquet table's decoded batch), and
//! the piece makes its own games on the worker that took it (`Piece::make_games`), with
//! that worker's buffers (`Workbench`). Whatever the format, the pipeline sees pieces.

use std::io::{self, BufRead};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use super::Source;
use super::chunk::{CHUNK_BYTES, Chunk, Chunker, Cut, MAX_CHUNK_BYTES};
use super::decompress::{Decoded, Decompression, Opened, open_source_with};
use super::split::{Limits, Splitter, keep_spares};
use super::table::{RowMaker, TableGames, TableRows};
use crate::pgn::RawGame;

/// The largest chunk buffer a worker keeps for the next chunk (and the largest piece whose
/// games go back to their worker for reuse): ordinary chunks are a few times
/// `CHUNK_BYTES`; one that grew to hold a large game is freed.
pub const MAX_REUSED_BUFFER: usize = 16 * CHUNK_BYTES;

/// How many games, and bytes of them, a piece the reading turn makes itself holds (rows
/// of a table, games split where no safe cut was found): the pipeline's batch.
#[derive(Debug, Clone, Copy)]
pub struct PieceBounds {
    pub games: usize,
    pub bytes: usize,
}

/// The bytes read while looking for a cut, then the rest of the source.
type RestOfFile = io::Chain<io::Cursor<Vec<u8>>, Decoded>;

/// A source opened to be read in pieces.
pub struct PieceStream {
    file: Arc<str>,
    limits: Limits,
    reading: Reading,
    /// Said once per source by the caller (a Parquet table's skipped columns).
    warnings: Vec<String>,
}

/// Where the reading of the source stands.
enum Reading {
    /// Cutting PGN text into chunks.
    Chunks(Box<Chunker<Decoded>>),
    /// Splitting the rest of the text where no safe cut was found, in the reading turn.
    Rest {
        splitter: Box<Splitter<RestOfFile>>,
        starts_file: bool,
    },
    /// Decoding a Parquet table's rows in batches.
    Table {
        table: Box<TableGames>,
        starts_file: bool,
    },
    /// A read error, reported after the games read before it.
    Failed(io::Error),
    Done,
}

/// A piece of a source: made into games by the worker that takes it.
pub struct Piece {
    kind: Kind,
    /// The first games of their file (their numbering starts again).
    starts_file: bool,
}

enum Kind {
    /// Whole games of PGN text, to split.
    Chunk {
        file: Arc<str>,
        limits: Limits,
        chunk: Chunk,
    },
    /// Games split in the reading turn (text where no safe cut was found).
    Games(Vec<RawGame>),
    /// Rows of a table's decoded batch, to make into games.
    Rows(Box<TableRows>),
}

impl PieceStream {
    /// Opens the source for `workers` workers: a compressed one is decompressed ahead,
    /// on a thread of its own (several threads read it), a table's row groups decoded
    /// ahead, several at once (`table_decoders`).
    pub fn open(
        source: &Source,
        limits: Limits,
        counter: Arc<AtomicU64>,
        workers: usize,
    ) -> io::Result<Self> {
        let opened = open_source_with(source, limits, counter, Decompression::Ahead)?;
        let (reading, warnings) = match opened {
            Opened::Table(mut table) => {
                let warnings = std::mem::take(&mut table.warnings);
                table.decode_ahead(table_decoders(workers));
                let reading = Reading::Table {
                    table,
                    starts_file: true,
                };
                (reading, warnings)
            }
            // The same chunk size from a decompressor: larger chunks from one (256 KiB)
            // cost a `.zst` 15% more time at two threads.
            Opened::Text(reader) => {
                let chunker = Chunker::with_sizes(reader, limits, CHUNK_BYTES, MAX_CHUNK_BYTES);
                (Reading::Chunks(Box::new(chunker)), Vec::new())
            }
        };
        Ok(PieceStream {
            file: Arc::from(source.name()),
            limits,
            reading,
            warnings,
        })
    }

    /// Warnings about the source, which is still read.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The next piece; a chunk is built in `buffer` (a spent chunk's, taken from it).
    /// `Ok(None)` at the end of the source; an error ends it, after the games before it.
    pub fn next_piece(
        &mut self,
        buffer: &mut Vec<u8>,
        bounds: PieceBounds,
    ) -> io::Result<Option<Piece>> {
        loop {
            match std::mem::replace(&mut self.reading, Reading::Done) {
                Reading::Done => return Ok(None),
                Reading::Failed(err) => return Err(err),
                Reading::Chunks(mut chunker) => match chunker.next_piece(std::mem::take(buffer))? {
                    Some(Cut::Chunk(chunk)) => {
                        self.reading = Reading::Chunks(chunker);
                        let starts_file = chunk.starts_file;
                        let kind = Kind::Chunk {
                            file: self.file.clone(),
                            limits: self.limits,
                            chunk,
                        };
                        return Ok(Some(Piece { kind, starts_file }));
                    }
                    Some(Cut::Rest(rest)) => {
                        let starts_file = rest.starts_file;
                        let splitter =
                            rest.splitter(chunker.into_reader(), self.file.clone(), self.limits);
                        self.reading = Reading::Rest {
                            splitter: Box::new(splitter),
                            starts_file,
                        };
                    }
                    None => return Ok(None),
                },
                Reading::Rest {
                    mut splitter,
                    starts_file,
                } => {
                    let (games, failed) = next_batch(&mut splitter, bounds);
                    self.reading = match failed {
                        Some(err) if games.is_empty() => return Err(err),
                        Some(err) => Reading::Failed(err),
                        None if games.is_empty() => return Ok(None),
                        None => Reading::Rest {
                            splitter,
                            starts_file: false,
                        },
                    };
                    let kind = Kind::Games(games);
                    return Ok(Some(Piece { kind, starts_file }));
                }
                Reading::Table {
                    mut table,
                    starts_file,
                } => {
                    // Only decoded here: the rows become games on the worker.
                    let Some(rows) = table.next_rows(bounds.games, bounds.bytes)? else {
                        return Ok(None);
                    };
                    self.reading = Reading::Table {
                        table,
                        starts_file: false,
                    };
                    let kind = Kind::Rows(Box::new(rows));
                    return Ok(Some(Piece { kind, starts_file }));
                }
            }
        }
    }
}

/// The row groups of a table decoded at once for `workers` workers. Decoding is about a
/// fifth of a table run's work (BENCHMARKS.md), so one decoder per three workers keeps
/// them fed with room to spare, without threads that only wait on a small machine.
pub fn table_decoders(workers: usize) -> usize {
    workers.div_ceil(3).max(1)
}

/// The next batch of games from a splitter; a read error ends it.
fn next_batch(
    splitter: &mut Splitter<impl BufRead>,
    bounds: PieceBounds,
) -> (Vec<RawGame>, Option<io::Error>) {
    let mut games = Vec::with_capacity(bounds.games);
    let mut bytes = 0;
    while games.len() < bounds.games && bytes < bounds.bytes {
        match splitter.next_game() {
            Ok(Some(game)) => {
                bytes += game.bytes.len();
                games.push(game);
            }
            Ok(None) => break,
            Err(err) => return (games, Some(err)),
        }
    }
    (games, None)
}

impl Piece {
    /// Whether the piece holds the first games of its file.
    pub fn starts_file(&self) -> bool {
        self.starts_file
    }

    /// The bytes of the games the piece holds (what it counts in flight; for rows, their
    /// string cells).
    pub fn bytes(&self) -> usize {
        match &self.kind {
            Kind::Chunk { chunk, .. } => chunk.bytes().len(),
            Kind::Games(games) => games.iter().map(|game| game.bytes.len()).sum(),
            Kind::Rows(rows) => rows.bytes(),
        }
    }

    /// Makes the piece's games, in order, into `games` (empty), with the worker's buffers.
    pub fn make_games(self, bench: &mut Workbench, games: &mut Vec<RawGame>) {
        match self.kind {
            Kind::Chunk {
                file,
                limits,
                chunk,
            } => {
                let file = bench.own_name.of(file);
                let mut splitter = chunk
                    .splitter(file, limits)
                    .with_spares(std::mem::take(&mut bench.spares));
                // Reading a slice cannot fail.
                while let Ok(Some(game)) = splitter.next_game() {
                    games.push(game);
                }
                bench.spares = splitter.into_spares();
                bench.buffer = chunk.into_buffer();
                if bench.buffer.capacity() > MAX_REUSED_BUFFER {
                    // A chunk of one large game: its bytes are the game's now; not kept
                    // (while the game is processed, nor after).
                    bench.buffer = Vec::new();
                }
            }
            Kind::Games(split) => *games = split,
            Kind::Rows(mut rows) => {
                let file = bench.own_name.of(rows.file().clone());
                rows.set_file(file);
                bench.rows.give_spares(std::mem::take(&mut bench.spares));
                while let Some(game) = rows.next_game(&mut bench.rows) {
                    games.push(game);
                }
                bench.spares = bench.rows.take_spares();
            }
        }
    }
}

/// A worker's own buffers, kept from piece to piece: the chunk buffer the next chunk is
/// read into, the spare games whose buffers new games reuse, a table row's buffers, and
/// its copy of the file name.
#[derive(Default)]
pub struct Workbench {
    buffer: Vec<u8>,
    spares: Vec<RawGame>,
    rows: RowMaker,
    own_name: OwnName,
}

impl Workbench {
    /// The buffer the next chunk is built in (`PieceStream::next_piece` takes it).
    pub fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.buffer
    }

    /// Takes back games that have been used (`games` is left empty), to reuse their
    /// buffers.
    pub fn recycle(&mut self, games: &mut Vec<RawGame>) {
        keep_spares(&mut self.spares, games);
    }
}

/// The file name as a worker's own `Arc`. Every game holds the name, and so does every
/// game's report: with one `Arc` for all workers, its reference count would move between
/// the cores' caches at every game.
#[derive(Default)]
struct OwnName {
    /// The name as the reading turn gave it, and this worker's copy.
    last: Option<(Arc<str>, Arc<str>)>,
}

impl OwnName {
    fn of(&mut self, shared: Arc<str>) -> Arc<str> {
        match &self.last {
            Some((seen, own)) if Arc::ptr_eq(seen, &shared) => own.clone(),
            _ => {
                let own: Arc<str> = Arc::from(&*shared);
                self.last = Some((shared, own.clone()));
                own
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use std::sync::Arc;
    use std::sync::atomic::AtomicU64;

    use super::{PieceBounds, PieceStream, Workbench};
    use crate::input::{GameStream, Limits, Source};
    use crate::pgn::RawGame;

    fn source(name: &str) -> Source {
        Source::File {
            name: name.to_string(),
            path: [env!("CARGO_MANIFEST_DIR"), "testdata/parquet", name]
                .iter()
                .collect(),
        }
    }

    /// A game as both doors must give it; the index is the pipeline's to number.
    fn shown(mut game: RawGame) -> String {
        game.index = 0;
        format!("{game:?}")
    }

    /// The games of a source read game by game, and made from its pieces on one
    /// workbench (as a worker makes them), with the most games a piece held.
    fn both_ways(
        source: &Source,
        bounds: PieceBounds,
        workers: usize,
    ) -> (Vec<String>, Vec<String>, usize) {
        let counter = Arc::new(AtomicU64::new(0));
        let limits = Limits::default();
        let mut stream = GameStream::open(source, limits, counter.clone()).unwrap();
        let mut whole = Vec::new();
        while let Some(game) = stream.next_game().unwrap() {
            whole.push(shown(game));
        }
        let mut pieces = PieceStream::open(source, limits, counter, workers).unwrap();
        let mut bench = Workbench::default();
        let (mut made, mut count, mut most) = (Vec::new(), 0, 0);
        let mut buffer = Vec::new();
        while let Some(piece) = pieces.next_piece(&mut buffer, bounds).unwrap() {
            assert_eq!(piece.starts_file(), count == 0);
            count += 1;
            let mut games = Vec::new();
            piece.make_games(&mut bench, &mut games);
            assert!(!games.is_empty());
            most = games.len().max(most);
            made.extend(games.drain(..).map(shown));
            buffer = std::mem::take(bench.buffer());
        }
        (whole, made, most)
    }

    /// A table's rows made into games on a workbench, piece by piece, are the games it
    /// reads as on one thread; a piece holds the bounds' rows at most.
    #[test]
    fn pieces_of_a_table_make_the_games_of_the_whole() {
        let bounds = PieceBounds {
            games: 7,
            bytes: usize::MAX,
        };
        // 2 workers: one row group decoded at a time, ahead; 12: four at once (the file
        // has four).
        for workers in [2, 12] {
            let (whole, made, most) = both_ways(&source("lichess.parquet"), bounds, workers);
            assert!(whole.len() > 20, "{}", whole.len());
            assert_eq!(made, whole, "{workers} workers");
            assert_eq!(most, 7);
        }
    }

    /// A table that fails in a row group gives the games before it and the same error,
    /// its row groups decoded ahead, several at once, as read game by game.
    #[test]
    fn a_table_error_comes_after_the_same_games_when_decoded_ahead() {
        let bounds = PieceBounds {
            games: 5,
            bytes: usize::MAX,
        };
        for name in ["bad-dictionary-page.parquet", "truncated.parquet"] {
            let source = source(name);
            let counter = Arc::new(AtomicU64::new(0));
            let limits = Limits::default();
            let (mut whole, mut whole_error) = (0, None);
            match GameStream::open(&source, limits, counter.clone()) {
                Ok(mut stream) => loop {
                    match stream.next_game() {
                        Ok(Some(_)) => whole += 1,
                        Ok(None) => break,
                        Err(err) => {
                            whole_error = Some(err.to_string());
                            break;
                        }
                    }
                },
                Err(err) => whole_error = Some(err.to_string()),
            }
            for workers in [2, 12] {
                let (mut made, mut error) = (0, None);
                match PieceStream::open(&source, limits, counter.clone(), workers) {
                    Ok(mut pieces) => {
                        let (mut bench, mut buffer) = (Workbench::default(), Vec::new());
                        loop {
                            match pieces.next_piece(&mut buffer, bounds) {
                                Ok(Some(piece)) => {
                                    let mut games = Vec::new();
                                    piece.make_games(&mut bench, &mut games);
                                    made += games.len();
                                }
                                Ok(None) => break,
                                Err(err) => {
                                    error = Some(err.to_string());
                                    break;
                                }
                            }
                        }
                    }
                    Err(err) => error = Some(err.to_string()),
                }
                assert!(whole_error.is_some(), "{name}");
                assert_eq!((made, &error), (whole, &whole_error), "{name}, {workers}");
            }
        }
    }

    /// The same for PGN text cut into chunks.
    #[test]
    fn pieces_of_text_make_the_games_of_the_whole() {
        let bounds = PieceBounds {
            games: 7,
            bytes: usize::MAX,
        };
        let (whole, made, most) = both_ways(&source("lichess.pgn"), bounds, 2);
        assert!(whole.len() > 20, "{}", whole.len());
        assert_eq!(made, whole);
        assert!(most >= 1);
    }
}

//! The parallel pipeline: a reader cuts the inputs into chunks of whole games; worker
//! threads split and process the chunks, each on its own core, and take turns only to
//! number the games; the calling thread writes the results in input order. Output never
//! depends on the number of threads. With one thread, games are split and processed in
//! batches on the calling thread.

use std::collections::BTreeMap;
use std::io::{BufRead, Read};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use anyhow::anyhow;
use crossbeam_channel::SendError;

use crate::cli::{GameRange, Shard};
use crate::input::{Chunk, Chunker, Limits, Piece, RawGame, Source, Splitter, open_decoded};
use crate::progress::Progress;

/// Games per batch, and bytes per batch: large enough to amortise the hand-over, small
/// enough to keep every worker busy and memory bounded.
const BATCH_GAMES: usize = 24;
const BATCH_BYTES: usize = 64 * 1024;

/// How to read and spread the work.
#[derive(Debug, Clone)]
pub struct Pipeline {
    pub threads: usize,
    pub limits: Limits,
    pub shard: Option<Shard>,
    /// `--game N` / `--games A..B`: reading stops after the range's last game.
    pub games: Option<GameRange>,
    pub show_progress: bool,
}

/// What the reader hands on, in input order.
enum Message {
    Games(Vec<RawGame>),
    /// An input that could not be opened or read to its end.
    InputError(String),
}

/// Counts of a whole run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Totals {
    /// Inputs that were opened.
    pub files: u64,
    /// Games processed (after `--shard` and `--games`).
    pub games: u64,
    /// Games found in the input, picked or not (the ones before a `--games` range stopped
    /// the reading).
    pub games_found: u64,
    /// Inputs that could not be opened or read.
    pub input_errors: u64,
}

impl Pipeline {
    /// Whether `--shard` and `--games` both let the game with this 0-based index through.
    fn picks(&self, game_index: u64) -> bool {
        self.shard.is_none_or(|shard| shard.contains(game_index))
            && self.games.is_none_or(|range| range.contains(game_index))
    }

    /// Reads every source, applies `process` to each game (in parallel), and hands the
    /// results to `sink` in input order. Input errors are printed on stderr as they come
    /// and counted; an error from `sink` (a closed pipe, a full disk) stops the run.
    pub fn run<T, P, S>(
        &self,
        sources: &[Source],
        process: P,
        mut sink: S,
    ) -> anyhow::Result<Totals>
    where
        T: Send,
        P: Fn(&RawGame) -> T + Sync,
        S: FnMut(&RawGame, &T) -> anyhow::Result<()>,
    {
        let total_bytes = sources.iter().map(Source::size).sum();
        let progress = Progress::new(total_bytes, self.show_progress);
        let counter = Arc::new(AtomicU64::new(0));
        let mut totals = Totals::default();
        // Hands a batch's results to the sink; returns the games and results, for their
        // buffers' reuse.
        let mut deliver = |message: Message,
                           results: Option<Vec<T>>,
                           totals: &mut Totals|
         -> anyhow::Result<Option<Spent<T>>> {
            match message {
                Message::InputError(text) => {
                    eprintln!("pgnkit: {text}");
                    totals.input_errors += 1;
                    Ok(None)
                }
                Message::Games(games) => {
                    let results = results.unwrap_or_default();
                    for (game, result) in games.iter().zip(&results) {
                        crate::interrupt::check()?;
                        totals.games += 1;
                        sink(game, result)?;
                    }
                    progress.update(counter.load(Ordering::Relaxed), totals.games);
                    Ok(Some((games, results)))
                }
            }
        };

        // A `--games` range is read by one thread, which stops at the range's end.
        let outcome = if self.threads <= 1 || self.games.is_some() {
            let reader_counter = counter.clone();
            read_all(sources, self, reader_counter, &mut |message| {
                let results = match &message {
                    Message::Games(games) => Some(games.iter().map(&process).collect()),
                    Message::InputError(_) => None,
                };
                let spent = deliver(message, results, &mut totals)?;
                Ok(spent.map(|(games, _)| games))
            })
        } else {
            self.run_parallel(sources, &process, counter.clone(), |message, results| {
                deliver(message, results, &mut totals)
            })
        };
        match outcome {
            Ok(_) => progress.finish(),
            Err(_) => progress.abandon(),
        }
        outcome.map(|read| Totals {
            files: read.sources - totals.input_errors.min(read.sources),
            games_found: read.games,
            ..totals
        })
    }

    /// Reads in chunks of whole games that the workers split and replay on their own
    /// core (so that a game's bytes and tokens stay in one core's cache); the workers take
    /// turns only to number the games they split.
    fn run_parallel<T, P, D>(
        &self,
        sources: &[Source],
        process: &P,
        counter: Arc<AtomicU64>,
        mut deliver: D,
    ) -> anyhow::Result<ReadCounts>
    where
        T: Send,
        P: Fn(&RawGame) -> T + Sync,
        D: FnMut(Message, Option<Vec<T>>) -> anyhow::Result<Option<Spent<T>>>,
    {
        // Plain threads blocked on channels: idle workers sleep instead of spinning for
        // work (rayon's idle spin took CPU from the reader on 2 cores).
        let workers = self.threads.max(1);
        // Pieces read but not yet written; the reader waits for a ticket before each one,
        // so memory stays bounded even when one piece is slow.
        let max_in_flight = workers * 2 + 1;
        let (ticket_tx, ticket_rx) = crossbeam_channel::bounded::<()>(max_in_flight);
        let (work_tx, work_rx) = crossbeam_channel::bounded::<(u64, Work)>(workers);
        let (done_tx, done_rx) = crossbeam_channel::bounded::<Done<T>>(max_in_flight);
        // Games written go back to the worker that split them, whose splitters reuse their
        // buffers (memory is allocated and freed on one thread), and chunks split go back
        // to the reader: nothing is allocated per game or chunk.
        let (spent_txs, spent_rxs): (Vec<_>, Vec<_>) = (0..workers)
            .map(|_| crossbeam_channel::bounded::<Spent<T>>(max_in_flight))
            .unzip();
        let (free_tx, free_rx) = crossbeam_channel::bounded::<Vec<u8>>(max_in_flight);
        let numbering = Numbering::default();

        std::thread::scope(|scope| {
            let reader = std::thread::Builder::new()
                .name("pgnkit-reader".to_string())
                .spawn_scoped(scope, move || {
                    let mut seq = 0u64;
                    read_chunks(sources, self.limits, counter, &free_rx, &mut |work| {
                        ticket_tx
                            .send(())
                            .and_then(|()| work_tx.send((seq, work)).map_err(|_| SendError(())))
                            .map_err(|_| anyhow!("the writer stopped"))?;
                        seq += 1;
                        Ok(())
                    })
                })?;
            for (i, spent) in spent_rxs.into_iter().enumerate() {
                let links = WorkerLinks {
                    work: work_rx.clone(),
                    done: done_tx.clone(),
                    spent,
                    free_chunks: free_tx.clone(),
                };
                let numbering = &numbering;
                std::thread::Builder::new()
                    .name(format!("pgnkit-worker-{i}"))
                    .spawn_scoped(scope, move || work(i, self, process, numbering, links))?;
            }
            drop((work_rx, done_tx, free_tx));
            let written = write_in_order(done_rx, ticket_rx, &mut |worker, message, results| {
                let spent = deliver(message, results)?;
                if let (Some(spent), Some(spent_tx)) = (spent, spent_txs.get(worker)) {
                    // A full channel only means the worker has enough spares.
                    let _ = spent_tx.try_send(spent);
                }
                Ok(())
            });
            // When the writer stopped early, its receivers are gone: the workers and the
            // reader find their channels closed and stop.
            if written.is_err() {
                numbering.close();
            }
            let sources = reader
                .join()
                .map_err(|_| anyhow!("the reader thread panicked"))?;
            written?;
            Ok(ReadCounts {
                sources: sources?,
                games: numbering.total(),
            })
        })
    }
}

/// Games and their results after writing, back to the worker that made them: they are
/// freed or reused on the thread that allocated them.
type Spent<T> = (Vec<RawGame>, Vec<T>);

/// A worker's channels.
struct WorkerLinks<T> {
    work: crossbeam_channel::Receiver<(u64, Work)>,
    done: crossbeam_channel::Sender<Done<T>>,
    spent: crossbeam_channel::Receiver<Spent<T>>,
    free_chunks: crossbeam_channel::Sender<Vec<u8>>,
}

/// One worker: splits each chunk into games, numbers them in its turn and processes them.
fn work<T, P>(
    worker: usize,
    pipeline: &Pipeline,
    process: &P,
    numbering: &Numbering,
    links: WorkerLinks<T>,
) where
    P: Fn(&RawGame) -> T,
{
    // Whatever ends this thread early also wakes the others waiting for their turn.
    let mut guard = CloseOnDrop(Some(numbering));
    let mut spares = Vec::new();
    let mut containers: Vec<Spent<T>> = Vec::new();
    for (seq, piece) in links.work {
        while let Ok((mut games, mut results)) = links.spent.try_recv() {
            spares.append(&mut games);
            results.clear();
            containers.push((games, results));
        }
        let (mut games, mut results) = containers.pop().unwrap_or_default();
        let starts_file = match piece {
            Work::Chunk { file, chunk } => {
                split_chunk(&chunk, file, pipeline.limits, &mut spares, &mut games);
                let _ = links.free_chunks.try_send(chunk.bytes);
                chunk.starts_file
            }
            Work::Games {
                games: split,
                starts_file,
            } => {
                games = split;
                starts_file
            }
            Work::InputError(text) => {
                if !numbering.number(seq, false, &mut [])
                    || links
                        .done
                        .send((seq, worker, Message::InputError(text), None))
                        .is_err()
                {
                    break;
                }
                continue;
            }
        };
        if !numbering.number(seq, starts_file, &mut games) {
            break;
        }
        games.retain(|game| pipeline.picks(game.global_index));
        results.extend(games.iter().map(process));
        let done = (seq, worker, Message::Games(games), Some(results));
        if links.done.send(done).is_err() {
            break;
        }
    }
    guard.0 = None;
}

/// What the reader hands to the workers, in reading order.
enum Work {
    /// Whole games of a file, for a worker to split.
    Chunk { file: Arc<str>, chunk: Chunk },
    /// Games the reader split itself (a file where no safe cut was found); the first
    /// games of their file when `starts_file`.
    Games {
        games: Vec<RawGame>,
        starts_file: bool,
    },
    /// An input that could not be opened or read to its end.
    InputError(String),
}

/// Splits a chunk into `games`, reusing the buffers of `spares`.
fn split_chunk(
    chunk: &Chunk,
    file: Arc<str>,
    limits: Limits,
    spares: &mut Vec<RawGame>,
    games: &mut Vec<RawGame>,
) {
    let mut splitter = Splitter::for_part(
        chunk.bytes.as_slice(),
        file,
        limits,
        chunk.first_line,
        chunk.starts_file,
        chunk.ends_file,
    )
    .with_spares(std::mem::take(spares));
    // Reading a slice cannot fail.
    while let Ok(Some(game)) = splitter.next_game() {
        games.push(game);
    }
    *spares = splitter.into_spares();
}

/// Numbers the games in reading order although the workers split them in parallel: each
/// piece of work waits for the ones before it to be counted.
#[derive(Default)]
struct Numbering {
    state: Mutex<Numbered>,
    turn: Condvar,
}

#[derive(Default)]
struct Numbered {
    /// The piece of work whose turn it is.
    next_seq: u64,
    /// Games numbered so far, and those of the current file.
    total: u64,
    in_file: u64,
    /// A thread stopped early: nobody waits for a turn any more.
    closed: bool,
}

impl Numbering {
    /// Gives the games of piece `seq` their index in the file and in the whole input, once
    /// the pieces before it are numbered. False when the run was stopped.
    fn number(&self, seq: u64, starts_file: bool, games: &mut [RawGame]) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while state.next_seq != seq && !state.closed {
            state = self
                .turn
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.closed {
            return false;
        }
        if starts_file {
            state.in_file = 0;
        }
        for game in games {
            state.in_file += 1;
            game.index = state.in_file;
            game.global_index = state.total;
            state.total += 1;
        }
        state.next_seq += 1;
        self.turn.notify_all();
        true
    }

    fn close(&self) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .closed = true;
        self.turn.notify_all();
    }

    fn total(&self) -> u64 {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .total
    }
}

/// Closes the numbering when a worker ends early (a closed channel, a panic).
struct CloseOnDrop<'a>(Option<&'a Numbering>);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        if let Some(numbering) = self.0 {
            numbering.close();
        }
    }
}

/// The reader of the parallel run: cuts each source into chunks of whole games. Returns
/// the number of sources it tried to open.
fn read_chunks(
    sources: &[Source],
    limits: Limits,
    counter: Arc<AtomicU64>,
    free_chunks: &crossbeam_channel::Receiver<Vec<u8>>,
    send: &mut impl FnMut(Work) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    for source in sources {
        let reader = match open_decoded(source, counter.clone()) {
            Ok(reader) => reader,
            Err(err) => {
                send(Work::InputError(format!(
                    "cannot open {}: {err}",
                    source.name()
                )))?;
                continue;
            }
        };
        let file: Arc<str> = Arc::from(source.name());
        let mut chunker = Chunker::new(reader);
        loop {
            crate::interrupt::check()?;
            let buffer = free_chunks.try_recv().unwrap_or_default();
            match chunker.next_piece(buffer) {
                Ok(Some(Piece::Chunk(chunk))) => send(Work::Chunk {
                    file: file.clone(),
                    chunk,
                })?,
                Ok(Some(Piece::Rest {
                    bytes,
                    first_line,
                    starts_file,
                })) => {
                    let rest = std::io::Cursor::new(bytes).chain(chunker.into_reader());
                    let splitter = Splitter::for_part(
                        rest,
                        file.clone(),
                        limits,
                        first_line,
                        starts_file,
                        true,
                    );
                    split_rest(splitter, starts_file, source, send)?;
                    break;
                }
                Ok(None) => break,
                Err(err) => {
                    send(Work::InputError(format!(
                        "cannot read {}: {err}",
                        source.name()
                    )))?;
                    break;
                }
            }
        }
    }
    Ok(sources.len() as u64)
}

/// Splits the rest of a file on the reader, in batches.
fn split_rest(
    mut splitter: Splitter<impl BufRead>,
    mut starts_file: bool,
    source: &Source,
    send: &mut impl FnMut(Work) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut batch = Vec::with_capacity(BATCH_GAMES);
    let mut batch_bytes = 0;
    let failed = loop {
        crate::interrupt::check()?;
        match splitter.next_game() {
            Ok(Some(game)) => {
                batch_bytes += game.bytes.len();
                batch.push(game);
                if batch.len() >= BATCH_GAMES || batch_bytes >= BATCH_BYTES {
                    let games = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_GAMES));
                    send(Work::Games { games, starts_file })?;
                    starts_file = false;
                    batch_bytes = 0;
                }
            }
            Ok(None) => break None,
            Err(err) => break Some(err),
        }
    };
    if !batch.is_empty() {
        send(Work::Games {
            games: batch,
            starts_file,
        })?;
    }
    if let Some(err) = failed {
        send(Work::InputError(format!(
            "cannot read {}: {err}",
            source.name()
        )))?;
    }
    Ok(())
}

/// A piece back from a worker: its sequence number, the worker, the games and their
/// results.
type Done<T> = (u64, usize, Message, Option<Vec<T>>);

/// Hands the pieces to `deliver` in reading order (with the worker each came from),
/// returning a ticket for each.
fn write_in_order<T, D>(
    done_rx: crossbeam_channel::Receiver<Done<T>>,
    ticket_rx: crossbeam_channel::Receiver<()>,
    deliver: &mut D,
) -> anyhow::Result<()>
where
    D: FnMut(usize, Message, Option<Vec<T>>) -> anyhow::Result<()>,
{
    let mut waiting: BTreeMap<u64, (usize, Message, Option<Vec<T>>)> = BTreeMap::new();
    let mut next = 0u64;
    for (seq, worker, message, results) in done_rx {
        waiting.insert(seq, (worker, message, results));
        while let Some((worker, message, results)) = waiting.remove(&next) {
            deliver(worker, message, results)?;
            next += 1;
            let _ = ticket_rx.try_recv();
        }
    }
    Ok(())
}

/// What the reader got through before the end of the input or of a `--games` range.
#[derive(Debug, Clone, Copy)]
struct ReadCounts {
    /// Sources it tried to open.
    sources: u64,
    /// Games it found in them, picked or not.
    games: u64,
}

/// The reader: opens each source in turn, splits it into games and emits batches of the
/// games picked. `emit` may hand back games already written, for their buffers' reuse.
fn read_all(
    sources: &[Source],
    pipeline: &Pipeline,
    counter: Arc<AtomicU64>,
    emit: &mut impl FnMut(Message) -> anyhow::Result<Option<Vec<RawGame>>>,
) -> anyhow::Result<ReadCounts> {
    let mut global_index = 0u64;
    let mut sources_reached = 0u64;
    let mut batch: Vec<RawGame> = Vec::with_capacity(BATCH_GAMES);
    let mut batch_bytes = 0usize;
    'sources: for source in sources {
        if pipeline
            .games
            .is_some_and(|range| range.is_past(global_index))
        {
            break;
        }
        sources_reached += 1;
        let reader = match open_decoded(source, counter.clone()) {
            Ok(reader) => reader,
            Err(err) => {
                if !batch.is_empty() {
                    emit(Message::Games(std::mem::take(&mut batch)))?;
                    batch_bytes = 0;
                }
                emit(Message::InputError(format!(
                    "cannot open {}: {err}",
                    source.name()
                )))?;
                continue;
            }
        };
        let mut splitter = Splitter::new(reader, Arc::from(source.name()), pipeline.limits);
        loop {
            crate::interrupt::check()?;
            match splitter.next_game() {
                Ok(Some(mut game)) => {
                    if pipeline
                        .games
                        .is_some_and(|range| range.is_past(global_index))
                    {
                        break 'sources;
                    }
                    game.global_index = global_index;
                    global_index += 1;
                    if !pipeline.picks(game.global_index) {
                        continue;
                    }
                    batch_bytes += game.bytes.len();
                    batch.push(game);
                    if batch.len() >= BATCH_GAMES || batch_bytes >= BATCH_BYTES {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_GAMES));
                        if let Some(mut spent) = emit(Message::Games(full))? {
                            splitter.recycle(&mut spent);
                        }
                        batch_bytes = 0;
                    }
                }
                Ok(None) => break,
                Err(err) => {
                    if !batch.is_empty() {
                        emit(Message::Games(std::mem::take(&mut batch)))?;
                        batch_bytes = 0;
                    }
                    emit(Message::InputError(format!(
                        "cannot read {}: {err}",
                        source.name()
                    )))?;
                    break;
                }
            }
        }
    }
    if !batch.is_empty() {
        emit(Message::Games(batch))?;
    }
    Ok(ReadCounts {
        sources: sources_reached,
        games: global_index,
    })
}

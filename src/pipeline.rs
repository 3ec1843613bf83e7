//! The parallel pipeline: worker threads take turns reading the inputs in chunks of whole
//! games, split and process their chunks each on its own core, take turns to number the
//! games, and whichever finishes the next piece in input order writes it. Output never
//! depends on the number of threads. With one thread, games are split and processed in
//! batches on the calling thread.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use crate::cli::{GameRange, Shard};
use crate::input::{
    CHUNK_BYTES, COMPRESSED_CHUNK_BYTES, Chunk, Chunker, Decoded, Limits, MAX_CHUNK_BYTES, Piece,
    RawGame, Source, Splitter, keep_spares, open_decoded,
};
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

/// What is handed to the writing, in input order.
enum Message {
    Games(Vec<RawGame>),
    /// An input that could not be opened or read to its end.
    InputError(String),
}

/// Counts of a whole run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Totals {
    /// Inputs that were opened (also those whose reading failed later, such as a damaged
    /// compressed file).
    pub files: u64,
    /// Games processed (after `--shard` and `--games`).
    pub games: u64,
    /// Games found in the input, picked or not (the ones before a `--games` range stopped
    /// the reading).
    pub games_found: u64,
    /// Inputs that could not be opened or read.
    pub input_errors: u64,
    /// Inputs that could not be opened.
    pub unopened: u64,
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
        S: FnMut(&RawGame, &T) -> anyhow::Result<()> + Send,
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
                    crate::say!("pgnkit: {}", crate::output::terminal::visible(&text));
                    totals.input_errors += 1;
                    totals.unopened += u64::from(text.starts_with("cannot open "));
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
            files: read.sources - totals.unopened.min(read.sources),
            games_found: read.games,
            ..totals
        })
    }

    /// Workers read chunks of whole games in turns and split and replay them on their own
    /// core (so that a chunk's bytes, and its games' tokens, stay in one core's cache).
    fn run_parallel<T, P, D>(
        &self,
        sources: &[Source],
        process: &P,
        counter: Arc<AtomicU64>,
        deliver: D,
    ) -> anyhow::Result<ReadCounts>
    where
        T: Send,
        P: Fn(&RawGame) -> T + Sync,
        D: FnMut(Message, Option<Vec<T>>) -> anyhow::Result<Option<Spent<T>>> + Send,
    {
        // Plain threads that sleep when they wait (rayon's idle spin took CPU on 2 cores).
        let workers = self.threads.max(1);
        // Pieces read but not yet written; a worker takes a ticket before reading one, so
        // memory stays bounded even when one piece is slow.
        let max_in_flight = workers * 2 + 1;
        let (ticket_tx, ticket_rx) = crossbeam_channel::bounded::<()>(max_in_flight);
        // Games written go back to the worker that split them, whose splitters reuse their
        // buffers: memory is allocated and freed on one thread.
        let (spent_txs, spent_rxs): (Vec<_>, Vec<_>) = (0..workers)
            .map(|_| crossbeam_channel::bounded::<Spent<T>>(max_in_flight))
            .unzip();
        let numbering = Numbering::default();
        let input = Mutex::new(Input::new(sources, self.limits, counter));
        let output = Mutex::new(InOrder {
            next: 0,
            waiting: BTreeMap::new(),
            deliver,
            spent: spent_txs,
            tickets: Some(ticket_rx),
            failure: None,
        });

        std::thread::scope(|scope| {
            for (i, spent) in spent_rxs.into_iter().enumerate() {
                let links = WorkerLinks {
                    tickets: ticket_tx.clone(),
                    spent,
                };
                let shared = Shared {
                    numbering: &numbering,
                    input: &input,
                    output: &output,
                };
                std::thread::Builder::new()
                    .name(format!("pgnkit-worker-{i}"))
                    .spawn_scoped(scope, move || work(i, self, process, shared, links))?;
            }
            drop(ticket_tx);
            anyhow::Ok(())
        })?;
        let input = input.into_inner().unwrap_or_else(PoisonError::into_inner);
        let output = output.into_inner().unwrap_or_else(PoisonError::into_inner);
        if let Some(err) = output.failure.or(input.failure) {
            return Err(err);
        }
        Ok(ReadCounts {
            sources: input.sources_reached,
            games: numbering.total(),
        })
    }
}

/// The results waiting to be written in input order. Whichever worker finishes the next
/// piece writes it, and the pieces after it that are waiting: no writer thread competes
/// with the workers for the cores.
struct InOrder<T, D> {
    /// The number of the next piece to write.
    next: u64,
    waiting: BTreeMap<u64, (usize, Message, Option<Vec<T>>)>,
    deliver: D,
    /// Where the games and results written go back to, by worker.
    spent: Vec<crossbeam_channel::Sender<Spent<T>>>,
    /// A ticket is given back for every piece written; dropped when the writing fails,
    /// so that workers waiting for a ticket stop.
    tickets: Option<crossbeam_channel::Receiver<()>>,
    /// What stopped the writing (a closed pipe, a full disk).
    failure: Option<anyhow::Error>,
}

impl<T, D> InOrder<T, D>
where
    D: FnMut(Message, Option<Vec<T>>) -> anyhow::Result<Option<Spent<T>>>,
{
    /// Adds a finished piece and writes every piece that is now next. False once the
    /// writing failed.
    fn add(&mut self, seq: u64, worker: usize, message: Message, results: Option<Vec<T>>) -> bool {
        if self.failure.is_some() {
            return false;
        }
        self.waiting.insert(seq, (worker, message, results));
        while let Some((worker, message, results)) = self.waiting.remove(&self.next) {
            match (self.deliver)(message, results) {
                Ok(spent) => {
                    if let (Some(spent), Some(to)) = (spent, self.spent.get(worker)) {
                        // A full channel only means the worker has enough spares.
                        let _ = to.try_send(spent);
                    }
                }
                Err(err) => {
                    self.failure = Some(err);
                    self.tickets = None;
                    return false;
                }
            }
            self.next += 1;
            if let Some(tickets) = &self.tickets {
                let _ = tickets.try_recv();
            }
        }
        true
    }
}

/// Games and their results after writing, back to the worker that made them: they are
/// freed or reused on the thread that allocated them.
type Spent<T> = (Vec<RawGame>, Vec<T>);

/// A worker's channels.
struct WorkerLinks<T> {
    tickets: crossbeam_channel::Sender<()>,
    spent: crossbeam_channel::Receiver<Spent<T>>,
}

/// What the workers share, each behind its own lock.
struct Shared<'s, 'a, T, D> {
    numbering: &'s Numbering,
    input: &'s Mutex<Input<'a>>,
    output: &'s Mutex<InOrder<T, D>>,
}

/// One worker: reads the next piece of the input in its turn, splits it into games,
/// numbers them in its turn and processes them.
fn work<T, P, D>(
    worker: usize,
    pipeline: &Pipeline,
    process: &P,
    shared: Shared<'_, '_, T, D>,
    links: WorkerLinks<T>,
) where
    P: Fn(&RawGame) -> T,
    D: FnMut(Message, Option<Vec<T>>) -> anyhow::Result<Option<Spent<T>>>,
{
    let Shared {
        numbering,
        input,
        output,
    } = shared;
    // False once the writing failed: the workers waiting for their turn to number stop.
    let write = |seq, message, results| {
        let written = output
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .add(seq, worker, message, results);
        if !written {
            numbering.close();
        }
        written
    };
    // Whatever ends this thread early also wakes the others waiting for their turn.
    let mut guard = CloseOnDrop(Some(numbering));
    let mut spares = Vec::new();
    let mut containers: Vec<Spent<T>> = Vec::new();
    let mut buffer = Vec::new();
    let mut own_name = OwnName::default();
    loop {
        if links.tickets.send(()).is_err() {
            break; // the writer stopped
        }
        let next = input
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next(std::mem::take(&mut buffer));
        let Some((seq, piece)) = next else {
            break;
        };
        while let Ok((mut games, mut results)) = links.spent.try_recv() {
            keep_spares(&mut spares, &mut games);
            results.clear();
            containers.push((games, results));
        }
        let (mut games, mut results) = containers.pop().unwrap_or_default();
        let starts_file = match piece {
            Work::Chunk { file, chunk } => {
                let file = own_name.of(file);
                split_chunk(&chunk, file, pipeline.limits, &mut spares, &mut games);
                let starts_file = chunk.starts_file;
                buffer = chunk.into_buffer();
                starts_file
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
                    || !write(seq, Message::InputError(text), None)
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
        if !write(seq, Message::Games(games), Some(results)) {
            break;
        }
    }
    guard.0 = None;
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

/// A piece of work, as a worker's reading turn gives it.
enum Work {
    /// Whole games of a file, for a worker to split.
    Chunk { file: Arc<str>, chunk: Chunk },
    /// Games split in the reading turn itself (a file where no safe cut was found); the
    /// first games of their file when `starts_file`.
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
    let mut splitter = chunk
        .splitter(file, limits)
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
    /// Threads waiting for their turn.
    waiting: usize,
}

impl Numbering {
    /// Gives the games of piece `seq` their index in the file and in the whole input, once
    /// the pieces before it are numbered. False when the run was stopped.
    fn number(&self, seq: u64, starts_file: bool, games: &mut [RawGame]) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while state.next_seq != seq && !state.closed {
            state.waiting += 1;
            state = self
                .turn
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
            state.waiting -= 1;
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
        // Waking costs a system call even when nobody waits, which is most of the time.
        if state.waiting > 0 {
            self.turn.notify_all();
        }
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

/// The inputs, read by the workers in turns: a worker takes the next piece under the
/// lock, so the bytes it reads are in its own core's cache when it splits them, and no
/// reader thread competes with the workers for the cores.
struct Input<'a> {
    sources: std::slice::Iter<'a, Source>,
    limits: Limits,
    counter: Arc<AtomicU64>,
    reading: Reading<'a>,
    /// The number of the next piece, in reading order.
    seq: u64,
    /// Sources opened or tried.
    sources_reached: u64,
    /// What stopped the reading (an interrupt), reported when the run ends.
    failure: Option<anyhow::Error>,
}

/// The bytes read while looking for a cut, then the rest of the source.
type RestOfFile = std::io::Chain<std::io::Cursor<Vec<u8>>, Box<dyn BufRead + Send>>;

/// `cannot open NAME: ERROR`, `cannot read NAME: ERROR`.
fn input_error(what: &str, source: &Source, err: impl std::fmt::Display) -> String {
    format!("cannot {what} {}: {err}", source.name())
}

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
    /// A read error, reported after the games read before it.
    Failed(String),
    Done,
}

impl<'a> Input<'a> {
    fn new(sources: &'a [Source], limits: Limits, counter: Arc<AtomicU64>) -> Input<'a> {
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
    fn next(&mut self, buffer: Vec<u8>) -> Option<(u64, Work)> {
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
                    match open_decoded(source, self.counter.clone()) {
                        Ok(Decoded { reader, compressed }) => {
                            let chunk_bytes = if compressed {
                                COMPRESSED_CHUNK_BYTES
                            } else {
                                CHUNK_BYTES
                            };
                            self.reading = Reading::Chunks {
                                source,
                                file: Arc::from(source.name()),
                                chunker: Chunker::with_sizes(reader, chunk_bytes, MAX_CHUNK_BYTES),
                            }
                        }
                        Err(err) => {
                            break Work::InputError(input_error("open", source, err));
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
                        break Work::InputError(input_error("read", source, err));
                    }
                },
                Reading::Rest {
                    source,
                    mut splitter,
                    starts_file,
                } => {
                    let (games, failed) = next_batch(&mut splitter);
                    self.reading = match failed {
                        Some(err) => Reading::Failed(input_error("read", source, err)),
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
fn next_batch(splitter: &mut Splitter<impl BufRead>) -> (Vec<RawGame>, Option<std::io::Error>) {
    let mut batch = Vec::with_capacity(BATCH_GAMES);
    let mut batch_bytes = 0;
    while batch.len() < BATCH_GAMES && batch_bytes < BATCH_BYTES {
        match splitter.next_game() {
            Ok(Some(game)) => {
                batch_bytes += game.bytes.len();
                batch.push(game);
            }
            Ok(None) => break,
            Err(err) => return (batch, Some(err)),
        }
    }
    (batch, None)
}

/// What the reading got through before the end of the input or of a `--games` range.
#[derive(Debug, Clone, Copy)]
struct ReadCounts {
    /// Sources it tried to open.
    sources: u64,
    /// Games it found in them, picked or not.
    games: u64,
}

/// The reading with one thread: opens each source in turn, splits it into games and emits
/// batches of the games picked. `emit` may hand back games already written, for their
/// buffers' reuse.
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
            Ok(decoded) => decoded.reader,
            Err(err) => {
                if !batch.is_empty() {
                    emit(Message::Games(std::mem::take(&mut batch)))?;
                    batch_bytes = 0;
                }
                emit(Message::InputError(input_error("open", source, err)))?;
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
                    emit(Message::InputError(input_error("read", source, err)))?;
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

//! The parallel pipeline: one reader splits the inputs into games and sends them in
//! batches; rayon workers process the batches; the calling thread writes the results in
//! input order. Output never depends on the number of threads.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::anyhow;

use crate::cli::{GameRange, Shard};
use crate::input::{Limits, RawGame, Source, Splitter, open_decoded};
use crate::progress::Progress;

/// Games per batch, and bytes per batch: large enough to amortise the hand-over, small
/// enough to keep every worker busy and memory bounded.
const BATCH_GAMES: usize = 128;
const BATCH_BYTES: usize = 512 * 1024;

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
    Games(Arc<Vec<RawGame>>),
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
        S: FnMut(&RawGame, T) -> anyhow::Result<()>,
    {
        let total_bytes = sources.iter().map(Source::size).sum();
        let progress = Progress::new(total_bytes, self.show_progress);
        let counter = Arc::new(AtomicU64::new(0));
        let mut totals = Totals::default();
        let mut deliver = |message: Message,
                           results: Option<Vec<T>>,
                           totals: &mut Totals|
         -> anyhow::Result<()> {
            match message {
                Message::InputError(text) => {
                    eprintln!("pgnkit: {text}");
                    totals.input_errors += 1;
                }
                Message::Games(games) => {
                    let results = results.unwrap_or_default();
                    for (game, result) in games.iter().zip(results) {
                        crate::interrupt::check()?;
                        totals.games += 1;
                        sink(game, result)?;
                    }
                    progress.update(counter.load(Ordering::Relaxed), totals.games);
                }
            }
            Ok(())
        };

        let outcome = if self.threads <= 1 {
            let reader_counter = counter.clone();
            read_all(sources, self, reader_counter, &mut |message| {
                let results = match &message {
                    Message::Games(games) => Some(games.iter().map(&process).collect()),
                    Message::InputError(_) => None,
                };
                deliver(message, results, &mut totals)
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
        D: FnMut(Message, Option<Vec<T>>) -> anyhow::Result<()>,
    {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .thread_name(|i| format!("pgnkit-worker-{i}"))
            .build()?;
        let max_in_flight = self.threads * 4;
        let (batch_tx, batch_rx) = crossbeam_channel::bounded::<Message>(self.threads * 2);
        let (done_tx, done_rx) = crossbeam_channel::unbounded::<(u64, Option<Vec<T>>)>();

        std::thread::scope(|scope| {
            let reader = scope.spawn(move || {
                read_all(sources, self, counter, &mut |message| {
                    batch_tx
                        .send(message)
                        .map_err(|_| anyhow!("the writer stopped"))
                })
            });
            let written = pool.in_place_scope(|workers| -> anyhow::Result<()> {
                // Owned here so that it closes when the writer stops early (a closed pipe):
                // the reader, blocked on a full channel, then sees it closed and ends.
                let batch_rx = batch_rx;
                // Messages wait here, by sequence number, until their results are in.
                let mut waiting: BTreeMap<u64, Message> = BTreeMap::new();
                let mut finished: BTreeMap<u64, Option<Vec<T>>> = BTreeMap::new();
                let mut next_seq = 0u64;
                let mut next_to_write = 0u64;
                let mut write_ready = |waiting: &mut BTreeMap<u64, Message>,
                                       finished: &mut BTreeMap<u64, Option<Vec<T>>>,
                                       next_to_write: &mut u64|
                 -> anyhow::Result<()> {
                    while let Some(results) = finished.remove(next_to_write) {
                        if let Some(message) = waiting.remove(next_to_write) {
                            deliver(message, results)?;
                        }
                        *next_to_write += 1;
                    }
                    Ok(())
                };
                for message in batch_rx.iter() {
                    let seq = next_seq;
                    next_seq += 1;
                    match &message {
                        Message::Games(games) => {
                            // The batch stays with the writer, which hands the games to the
                            // sink beside their results; the worker shares it.
                            let games = Arc::clone(games);
                            let done_tx = done_tx.clone();
                            workers.spawn(move |_| {
                                let results: Vec<T> = games.iter().map(process).collect();
                                let _ = done_tx.send((seq, Some(results)));
                            });
                        }
                        Message::InputError(_) => {
                            finished.insert(seq, None);
                        }
                    }
                    waiting.insert(seq, message);
                    while next_seq - next_to_write > max_in_flight as u64 {
                        match done_rx.recv() {
                            Ok((s, results)) => {
                                finished.insert(s, results);
                            }
                            Err(_) => break,
                        }
                        write_ready(&mut waiting, &mut finished, &mut next_to_write)?;
                    }
                    while let Ok((s, results)) = done_rx.try_recv() {
                        finished.insert(s, results);
                    }
                    write_ready(&mut waiting, &mut finished, &mut next_to_write)?;
                }
                while next_to_write < next_seq {
                    write_ready(&mut waiting, &mut finished, &mut next_to_write)?;
                    if next_to_write == next_seq {
                        break;
                    }
                    match done_rx.recv() {
                        Ok((s, results)) => {
                            finished.insert(s, results);
                        }
                        Err(_) => break,
                    }
                }
                Ok(())
            });
            let read = reader
                .join()
                .map_err(|_| anyhow!("the reader thread panicked"))?;
            written?;
            read
        })
    }
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
/// games picked.
fn read_all(
    sources: &[Source],
    pipeline: &Pipeline,
    counter: Arc<AtomicU64>,
    emit: &mut impl FnMut(Message) -> anyhow::Result<()>,
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
                    emit(Message::Games(Arc::new(std::mem::take(&mut batch))))?;
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
                        emit(Message::Games(Arc::new(std::mem::take(&mut batch))))?;
                        batch_bytes = 0;
                    }
                }
                Ok(None) => break,
                Err(err) => {
                    if !batch.is_empty() {
                        emit(Message::Games(Arc::new(std::mem::take(&mut batch))))?;
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
        emit(Message::Games(Arc::new(batch)))?;
    }
    Ok(ReadCounts {
        sources: sources_reached,
        games: global_index,
    })
}

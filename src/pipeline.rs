//! The parallel pipeline: one reader splits the inputs into games and sends them in
//! batches; worker threads process the batches; the calling thread writes the results in
//! input order. Output never depends on the number of threads.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::anyhow;
use crossbeam_channel::SendError;

use crate::cli::{GameRange, Shard};
use crate::input::{Limits, RawGame, Source, Splitter, open_decoded};
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
        S: FnMut(&RawGame, T) -> anyhow::Result<()>,
    {
        let total_bytes = sources.iter().map(Source::size).sum();
        let progress = Progress::new(total_bytes, self.show_progress);
        let counter = Arc::new(AtomicU64::new(0));
        let mut totals = Totals::default();
        // Hands a batch's results to the sink; returns the games for their buffers' reuse.
        let mut deliver = |message: Message,
                           results: Option<Vec<T>>,
                           totals: &mut Totals|
         -> anyhow::Result<Option<Vec<RawGame>>> {
            match message {
                Message::InputError(text) => {
                    eprintln!("pgnkit: {text}");
                    totals.input_errors += 1;
                    Ok(None)
                }
                Message::Games(games) => {
                    let results = results.unwrap_or_default();
                    for (game, result) in games.iter().zip(results) {
                        crate::interrupt::check()?;
                        totals.games += 1;
                        sink(game, result)?;
                    }
                    progress.update(counter.load(Ordering::Relaxed), totals.games);
                    Ok(Some(games))
                }
            }
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
        D: FnMut(Message, Option<Vec<T>>) -> anyhow::Result<Option<Vec<RawGame>>>,
    {
        // Plain threads blocked on channels: idle workers sleep instead of spinning for
        // work (rayon's idle spin took CPU from the reader on 2 cores).
        let workers = self.threads.max(1);
        // Batches read but not yet written; the reader waits for a ticket before each one,
        // so memory stays bounded even when one batch is slow.
        let max_in_flight = workers * 2 + 1;
        let (ticket_tx, ticket_rx) = crossbeam_channel::bounded::<()>(max_in_flight);
        let (work_tx, work_rx) = crossbeam_channel::bounded::<(u64, Message)>(workers);
        let (done_tx, done_rx) = crossbeam_channel::bounded::<Done<T>>(max_in_flight);
        // Games written go back to the reader, whose splitter reuses their buffers: memory
        // is allocated and freed on the reader's thread, not handed across threads.
        let (spent_tx, spent_rx) = crossbeam_channel::bounded::<Vec<RawGame>>(max_in_flight);

        std::thread::scope(|scope| {
            let reader = std::thread::Builder::new()
                .name("pgnkit-reader".to_string())
                .spawn_scoped(scope, move || {
                    let mut seq = 0u64;
                    read_all(sources, self, counter, &mut |message| {
                        ticket_tx
                            .send(())
                            .and_then(|()| work_tx.send((seq, message)).map_err(|_| SendError(())))
                            .map_err(|_| anyhow!("the writer stopped"))?;
                        seq += 1;
                        Ok(spent_rx.try_recv().ok())
                    })
                })?;
            for i in 0..workers {
                let work_rx = work_rx.clone();
                let done_tx = done_tx.clone();
                std::thread::Builder::new()
                    .name(format!("pgnkit-worker-{i}"))
                    .spawn_scoped(scope, move || {
                        for (seq, message) in work_rx {
                            let results = match &message {
                                Message::Games(games) => Some(games.iter().map(process).collect()),
                                Message::InputError(_) => None,
                            };
                            if done_tx.send((seq, message, results)).is_err() {
                                break;
                            }
                        }
                    })?;
            }
            drop((work_rx, done_tx));
            let written = write_in_order(done_rx, ticket_rx, &mut |message, results| {
                let spent = deliver(message, results)?;
                if let Some(games) = spent {
                    // A full channel only means the reader has enough spares.
                    let _ = spent_tx.try_send(games);
                }
                Ok(())
            });
            // When the writer stopped early, its receivers are gone: the workers and the
            // reader find their channels closed and stop.
            let read = reader
                .join()
                .map_err(|_| anyhow!("the reader thread panicked"))?;
            written?;
            read
        })
    }
}

/// A batch back from a worker: its sequence number, the batch and its results.
type Done<T> = (u64, Message, Option<Vec<T>>);

/// Hands the batches to `deliver` in reading order, returning a ticket for each.
fn write_in_order<T, D>(
    done_rx: crossbeam_channel::Receiver<Done<T>>,
    ticket_rx: crossbeam_channel::Receiver<()>,
    deliver: &mut D,
) -> anyhow::Result<()>
where
    D: FnMut(Message, Option<Vec<T>>) -> anyhow::Result<()>,
{
    let mut waiting: BTreeMap<u64, (Message, Option<Vec<T>>)> = BTreeMap::new();
    let mut next = 0u64;
    for (seq, message, results) in done_rx {
        waiting.insert(seq, (message, results));
        while let Some((message, results)) = waiting.remove(&next) {
            deliver(message, results)?;
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

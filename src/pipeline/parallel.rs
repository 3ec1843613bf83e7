//! The parallel run: workers that read pieces in turns (`reading`), make them into games
//! and process them on their own core, number the games in turns, and write in input
//! order.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use super::batch::InputError;
use super::reading::Input;
use super::{Message, Pipeline, ReadCounts};
use crate::input::{MAX_REUSED_BUFFER, Piece, Source, Workbench};
use crate::pgn::RawGame;

impl Pipeline {
    /// Workers read pieces of the input in turns and make them into games and replay them
    /// on their own core (so that a chunk's bytes, and its games' tokens, stay in one
    /// core's cache).
    pub(super) fn run_parallel<T, P, D>(
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
        // Pieces read but not yet written, bounded by number and by bytes, so memory stays
        // bounded even when one piece is slow or every piece is one large game.
        let in_flight = InFlight::new(workers, self.limits.max_game_bytes);
        // Games written go back to the worker that made them, which reuses their buffers:
        // memory is allocated and freed on one thread.
        let (spent_txs, spent_rxs): (Vec<_>, Vec<_>) = (0..workers)
            .map(|_| crossbeam_channel::bounded::<Spent<T>>(in_flight.max_pieces))
            .unzip();
        let numbering = Numbering::default();
        let input = Mutex::new(Input::new(sources, self.limits, counter, workers));
        let output = Mutex::new(InOrder {
            next: 0,
            waiting: BTreeMap::new(),
            deliver,
            spent: spent_txs,
            in_flight: &in_flight,
            failure: None,
        });

        std::thread::scope(|scope| {
            let mut running = Vec::with_capacity(workers);
            for (i, spent) in spent_rxs.into_iter().enumerate() {
                let shared = Shared {
                    numbering: &numbering,
                    input: &input,
                    in_flight: &in_flight,
                    output: &output,
                };
                running.push(
                    std::thread::Builder::new()
                        .name(format!("pgnkit-worker-{i}"))
                        .spawn_scoped(scope, move || work(i, self, process, shared, spent))?,
                );
            }
            // Each worker joined, not left to the scope: a join also waits for the
            // thread's own buffers (the replay's, kept per thread) to be freed, where the
            // scope's wait ends before them, so no memory of the run outlives it (the
            // pipeline fuzz target's leak check saw them once in 1,650 runs).
            for worker in running {
                if let Err(panicked) = worker.join() {
                    std::panic::resume_unwind(panicked);
                }
            }
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
struct InOrder<'s, T, D> {
    /// The number of the next piece to write.
    next: u64,
    waiting: BTreeMap<u64, (Admitted, Message, Option<Vec<T>>)>,
    deliver: D,
    /// Where the games and results written go back to, by worker.
    spent: Vec<crossbeam_channel::Sender<Spent<T>>>,
    /// Each piece written leaves it; closed when the writing fails, so that workers
    /// waiting for room stop.
    in_flight: &'s InFlight,
    /// What stopped the writing (a closed pipe, a full disk).
    failure: Option<anyhow::Error>,
}

impl<T, D> InOrder<'_, T, D>
where
    D: FnMut(Message, Option<Vec<T>>) -> anyhow::Result<Option<Spent<T>>>,
{
    /// Adds a finished piece and writes every piece that is now next. False once the
    /// writing failed. Never inlined, so that a profile shows the writing turn's share
    /// (scripts/scaling.py); it runs once a piece.
    #[inline(never)]
    fn add(&mut self, piece: Admitted, message: Message, results: Option<Vec<T>>) -> bool {
        if self.failure.is_some() {
            return false;
        }
        self.waiting.insert(piece.seq, (piece, message, results));
        while let Some((piece, message, results)) = self.waiting.remove(&self.next) {
            match (self.deliver)(message, results) {
                Ok(spent) => {
                    // A piece of large games is freed here and now: in a channel, it would
                    // be held (and not counted in flight) until its worker's next turn.
                    let small = piece.bytes <= MAX_REUSED_BUFFER;
                    if let (Some(spent), Some(to), true) =
                        (spent, self.spent.get(piece.worker), small)
                    {
                        // A full channel only means the worker has enough spares.
                        let _ = to.try_send(spent);
                    }
                }
                Err(err) => {
                    self.failure = Some(err);
                    self.in_flight.close();
                    return false;
                }
            }
            self.next += 1;
            self.in_flight.leave(piece.bytes);
        }
        true
    }
}

/// A piece of work let in: its number, its worker and its bytes.
#[derive(Debug, Clone, Copy)]
struct Admitted {
    seq: u64,
    worker: usize,
    bytes: usize,
}

/// The pieces read and not yet written. A piece is let in after it is read, in the reading
/// turn (so in reading order, and every piece in flight was read before the one waiting:
/// they all get written, and waiting cannot deadlock). There is room while fewer than
/// `max_pieces` are in flight and their bytes stay within `max_bytes`; a piece alone is
/// always let in. Splitting and replaying a game takes a small multiple of its bytes, so
/// the bytes bound the memory: an archive of 8 MiB games keeps about one game per thread
/// in flight, not 2 x threads + 1 of them.
struct InFlight {
    max_pieces: usize,
    max_bytes: usize,
    state: Mutex<Load>,
    room: Condvar,
}

#[derive(Default)]
struct Load {
    pieces: usize,
    bytes: usize,
    /// The writing failed: nobody is let in any more.
    closed: bool,
    /// Threads waiting for room.
    waiting: usize,
}

impl InFlight {
    /// Room for 2 x `workers` + 1 pieces, and for one game of the size limit per worker.
    fn new(workers: usize, max_game_bytes: usize) -> InFlight {
        InFlight {
            max_pieces: workers * 2 + 1,
            max_bytes: workers.saturating_mul(max_game_bytes),
            state: Mutex::new(Load::default()),
            room: Condvar::new(),
        }
    }

    /// Waits for room for a piece of `bytes`; false once the writing failed.
    fn enter(&self, bytes: usize) -> bool {
        let mut load = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while !load.closed
            && load.pieces > 0
            && (load.pieces >= self.max_pieces || load.bytes.saturating_add(bytes) > self.max_bytes)
        {
            load.waiting += 1;
            load = self.room.wait(load).unwrap_or_else(PoisonError::into_inner);
            load.waiting -= 1;
        }
        if load.closed {
            return false;
        }
        load.pieces += 1;
        load.bytes = load.bytes.saturating_add(bytes);
        true
    }

    /// A piece written.
    fn leave(&self, bytes: usize) {
        let mut load = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        load.pieces = load.pieces.saturating_sub(1);
        load.bytes = load.bytes.saturating_sub(bytes);
        // Waking costs a system call even when nobody waits, which is most of the time
        // (a piece's worker is usually busy with its next piece when the piece is written).
        if load.waiting > 0 {
            self.room.notify_one();
        }
    }

    fn close(&self) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .closed = true;
        self.room.notify_all();
    }
}

/// Games and their results after writing, back to the worker that made them: they are
/// freed or reused on the thread that allocated them.
pub(super) type Spent<T> = (Vec<RawGame>, Vec<T>);

/// What the workers share, each behind its own lock.
struct Shared<'s, 'a, 'f, T, D> {
    numbering: &'s Numbering,
    input: &'s Mutex<Input<'a>>,
    in_flight: &'f InFlight,
    output: &'s Mutex<InOrder<'f, T, D>>,
}

/// One worker: reads the next piece of the input in its turn, makes it into games,
/// numbers them in its turn and processes them.
fn work<T, P, D>(
    worker: usize,
    pipeline: &Pipeline,
    process: &P,
    shared: Shared<'_, '_, '_, T, D>,
    spent: crossbeam_channel::Receiver<Spent<T>>,
) where
    P: Fn(&RawGame) -> T,
    D: FnMut(Message, Option<Vec<T>>) -> anyhow::Result<Option<Spent<T>>>,
{
    let Shared {
        numbering,
        input,
        in_flight,
        output,
    } = shared;
    // False once the writing failed: the workers waiting for their turn to number stop.
    let write = |piece, message, results| {
        let written = output
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .add(piece, message, results);
        if !written {
            numbering.close();
        }
        written
    };
    // Whatever ends this thread early also wakes the others waiting for their turn.
    let mut guard = CloseOnDrop(Some(numbering));
    let mut bench = Workbench::default();
    let mut containers: Vec<Spent<T>> = Vec::new();
    loop {
        let next = {
            let mut input = input.lock().unwrap_or_else(PoisonError::into_inner);
            // Let in while the reading turn is held, so pieces enter in reading order.
            input
                .next(bench.buffer())
                .map(|(seq, piece)| (seq, piece.bytes(), piece))
                .filter(|&(_, bytes, _)| in_flight.enter(bytes))
        };
        let Some((seq, bytes, piece)) = next else {
            break; // the end of the input, or the writing stopped
        };
        let admitted = Admitted { seq, worker, bytes };
        while let Ok((mut games, mut results)) = spent.try_recv() {
            bench.recycle(&mut games);
            results.clear();
            containers.push((games, results));
        }
        let (mut games, mut results) = containers.pop().unwrap_or_default();
        let piece = match piece {
            Work::Piece(piece) => piece,
            Work::InputError(text) => {
                if !numbering.number(seq, false, &mut [])
                    || !write(admitted, Message::InputError(text), None)
                {
                    break;
                }
                continue;
            }
        };
        let starts_file = piece.starts_file();
        piece.make_games(&mut bench, &mut games);
        if !numbering.number(seq, starts_file, &mut games) {
            break;
        }
        games.retain(|game| pipeline.picks(game.global_index));
        results.extend(games.iter().map(process));
        if !write(admitted, Message::Games(games), Some(results)) {
            break;
        }
    }
    guard.0 = None;
}

/// A piece of work, as a worker's reading turn gives it.
pub(super) enum Work {
    /// A piece of a source, which the worker makes into games.
    Piece(Piece),
    /// An input that could not be opened or read to its end.
    InputError(InputError),
}

impl Work {
    /// The bytes of the games the piece holds.
    fn bytes(&self) -> usize {
        match self {
            Work::Piece(piece) => piece.bytes(),
            Work::InputError(_) => 0,
        }
    }
}

/// Numbers the games in reading order although the workers make them in parallel: each
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use std::io::Write as _;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use crate::input::{Limits, Source};
    use crate::pipeline::Pipeline;

    /// Thread-local buffers made, and freed: a slow destructor, as a large buffer's may be.
    static MADE: AtomicUsize = AtomicUsize::new(0);
    static FREED: AtomicUsize = AtomicUsize::new(0);

    struct Buffer;

    impl Drop for Buffer {
        fn drop(&mut self) {
            std::thread::sleep(Duration::from_millis(100));
            FREED.fetch_add(1, Ordering::SeqCst);
        }
    }

    thread_local! {
        static BUFFER: Buffer = {
            MADE.fetch_add(1, Ordering::SeqCst);
            Buffer
        };
    }

    /// When a threaded run returns, every worker has ended, its thread-local buffers freed
    /// (the replay keeps some per thread): nothing of the run outlives it.
    #[test]
    fn a_run_returns_after_its_workers_freed_their_buffers() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        for i in 0..2000 {
            writeln!(file, "[Event \"{i}\"]\n\n1. e4 e5 *\n").unwrap();
        }
        let source = Source::File {
            name: "games.pgn".to_string(),
            path: file.path().to_path_buf(),
        };
        let pipeline = Pipeline {
            threads: 2,
            limits: Limits::default(),
            shard: None,
            games: None,
            show_progress: false,
        };
        let totals = pipeline
            .run(
                std::slice::from_ref(&source),
                |raw| BUFFER.with(|_| raw.index),
                |_, _| Ok(()),
            )
            .unwrap();
        assert_eq!(totals.games, 2000);
        let made = MADE.load(Ordering::SeqCst);
        assert!((1..=2).contains(&made), "{made}");
        assert_eq!(FREED.load(Ordering::SeqCst), made);
    }
}

//! The pipeline: reads the inputs as games, applies a command's work to each game and
//! hands the results on in input order. Output never depends on the number of threads.
//! With several threads the workers take turns reading the inputs in the pieces `input`
//! cuts them into (`reading`), make their pieces into games and process them each on its
//! own core, take turns to number the games, and whichever finishes the next piece in
//! input order writes it (`parallel`). With one thread, or a `--games` range, games are
//! read and processed in batches on the calling thread (`single`). Both group games in the
//! same batches and word input errors alike (`batch`); the games a run takes are `picks`.
//! Which format a source is, and how its pieces become games, is `input`'s alone.

mod batch;
mod parallel;
mod picks;
mod reading;
mod single;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub use picks::{GameRange, Shard};
/// The bounds of the pieces the reading turn cuts (`examples/feed_rate.rs` reads as it does).
pub use reading::BOUNDS as PIECE_BOUNDS;

use crate::input::{Limits, Source};
use crate::pgn::RawGame;
use crate::progress::Progress;
use batch::InputError;
use parallel::Spent;

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
    InputError(InputError),
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
    pub(super) fn picks(&self, game_index: u64) -> bool {
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
                Message::InputError(err) => {
                    crate::stderr::say!("pgnkit: {}", crate::terminal::visible(&err.to_string()));
                    totals.input_errors += 1;
                    totals.unopened += u64::from(err.is_unopened());
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
            single::read_all(sources, self, reader_counter, &mut |message| {
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
}

/// What the reading got through before the end of the input or of a `--games` range.
#[derive(Debug, Clone, Copy)]
pub(super) struct ReadCounts {
    /// Sources it tried to open.
    pub(super) sources: u64,
    /// Games it found in them, picked or not.
    pub(super) games: u64,
}

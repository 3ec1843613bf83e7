//! The bare parse-and-replay loop: the floor of the work `pgnkit validate` does, and the
//! yardstick of `scripts/bench.sh`. pgn-reader parses on one reader thread and sends games
//! in batches to N replay threads that play every main-line move with shakmaty; nothing
//! else (no diagnosis, no line numbers, no output per game). Modelled on pgn-reader's
//! `examples/parallel_validate.rs`, with pgnkit's thread count and batching.
//!
//! Usage: cargo run --release --example bare_replay -- [--threads N] FILE...
//! (`FILE` may end in `.zst`; N replay threads, default: all cores, plus the reader.)

use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;

use anyhow::{Context, bail};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Position};

/// Games handed to a replay thread at a time (as pgnkit's pipeline does).
const BATCH_GAMES: usize = 128;

/// One game as the reader hands it on: its FEN tag and its main-line moves.
struct Game {
    fen: Option<Vec<u8>>,
    sans: Vec<San>,
}

impl Game {
    /// Plays every move; the plies played, or `None` at the first bad move or setup.
    fn replay(&self) -> Option<u32> {
        let mut pos: Chess = match &self.fen {
            Some(fen) => Fen::from_ascii(fen)
                .ok()?
                .into_position(CastlingMode::Chess960)
                .ok()?,
            None => Chess::default(),
        };
        let mut plies = 0;
        for san in &self.sans {
            let m = san.to_move(&pos).ok()?;
            pos.play_unchecked(m);
            plies += 1;
        }
        Some(plies)
    }
}

/// Collects the FEN tag and the main-line SANs (variations are skipped by pgn-reader).
struct Collector;

impl Visitor for Collector {
    type Tags = Option<Vec<u8>>;
    type Movetext = Game;
    type Output = Game;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            *tags = Some(value.decode().into_owned());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(Game {
            fen: tags,
            sans: Vec::with_capacity(80),
        })
    }

    fn san(&mut self, game: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        game.sans.push(san_plus.san);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Self::Movetext) -> Self::Output {
        game
    }
}

/// Games, plies replayed and games that failed, summed over the replay threads.
#[derive(Default)]
struct Totals {
    games: u64,
    plies: u64,
    failed: u64,
}

fn open(path: &str) -> anyhow::Result<Box<dyn Read + Send>> {
    let file = File::open(path).with_context(|| format!("cannot open {path}"))?;
    Ok(if path.ends_with(".zst") {
        Box::new(zstd::Decoder::new(file)?)
    } else {
        Box::new(file)
    })
}

fn run(path: &str, threads: usize) -> anyhow::Result<Totals> {
    let input = open(path)?;
    let (send, recv) = crossbeam_channel::bounded::<Vec<Game>>(threads * 2);
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || -> io::Result<()> {
            let mut reader = Reader::new(input);
            let mut batch = Vec::with_capacity(BATCH_GAMES);
            for game in reader.read_games(&mut Collector) {
                batch.push(game?);
                if batch.len() >= BATCH_GAMES {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_GAMES));
                    if send.send(full).is_err() {
                        return Ok(());
                    }
                }
            }
            let _ = send.send(batch);
            Ok(())
        });
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let recv = recv.clone();
                scope.spawn(move || {
                    let mut totals = Totals::default();
                    for batch in recv {
                        for game in &batch {
                            totals.games += 1;
                            match game.replay() {
                                Some(plies) => totals.plies += u64::from(plies),
                                None => totals.failed += 1,
                            }
                        }
                    }
                    totals
                })
            })
            .collect();
        drop(recv);
        let mut totals = Totals::default();
        for worker in workers {
            let Ok(part) = worker.join() else {
                bail!("a replay thread panicked");
            };
            totals.games += part.games;
            totals.plies += part.plies;
            totals.failed += part.failed;
        }
        match reader.join() {
            Ok(read) => read.with_context(|| format!("cannot read {path}"))?,
            Err(_) => bail!("the reader thread panicked"),
        }
        Ok(totals)
    })
}

fn main() -> anyhow::Result<()> {
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" | "-j" => {
                let value = args.next().context("--threads needs a number")?;
                threads = value.parse::<usize>()?.max(1);
            }
            _ => paths.push(arg),
        }
    }
    if paths.is_empty() {
        bail!("usage: bare_replay [--threads N] FILE...");
    }
    for path in &paths {
        let totals = run(path, threads)?;
        println!(
            "{path}: {} games, {} plies, {} failed",
            totals.games, totals.plies, totals.failed
        );
    }
    Ok(())
}

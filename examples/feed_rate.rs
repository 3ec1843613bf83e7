//! The reading turn alone: how fast the part of a parallel run that works one thread at a
//! time can feed the workers. It opens each source as the workers do (`PieceStream`, a
//! compressed one decompressed ahead on a thread of its own, a table's row groups decoded
//! ahead for `--workers N`) and takes every piece, as the turn does, without making games
//! of them. `scripts/scaling.sh` divides the input's bytes by this time: the feed limit.
//!
//! Usage: cargo run --release --example feed_rate -- [--workers N] FILE...
//! Prints one line per file: `FILE FILE_BYTES TEXT_BYTES SECONDS FILE_MIB_S TEXT_MIB_S
//! PIECES`: the rate of the file's own bytes (compressed where it is) and of the text
//! handed to the workers (PGN text, or a table's cells).

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use anyhow::{Context, bail};
use pgnkit::input::{Limits, PieceStream, Source, expand_inputs};
use pgnkit::pipeline::PIECE_BOUNDS;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let mut workers = 2;
    let mut files = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--workers" {
            workers = args
                .next()
                .context("--workers needs a number")?
                .parse()
                .context("--workers needs a number")?;
        } else {
            files.push(arg);
        }
    }
    if files.is_empty() {
        bail!("usage: feed_rate [--workers N] FILE...");
    }
    let listing = expand_inputs(&files);
    for source in &listing.sources {
        let (seconds, text, pieces) = feed(source, workers)?;
        let bytes = source.size();
        let rate = |bytes: u64| bytes as f64 / seconds / (1024.0 * 1024.0);
        println!(
            "{} {bytes} {text} {seconds:.4} {:.1} {:.1} {pieces}",
            source.name(),
            rate(bytes),
            rate(text)
        );
    }
    Ok(())
}

/// Takes every piece of the source as the reading turn does: the seconds, the bytes of
/// text and the pieces.
fn feed(source: &Source, workers: usize) -> anyhow::Result<(f64, u64, u64)> {
    let start = Instant::now();
    let counter = Arc::new(AtomicU64::new(0));
    let mut pieces = PieceStream::open(source, Limits::default(), counter, workers)
        .with_context(|| format!("{}: cannot open", source.name()))?;
    let mut buffer = Vec::new();
    let (mut count, mut text) = (0, 0);
    while let Some(piece) = pieces
        .next_piece(&mut buffer, PIECE_BOUNDS)
        .with_context(|| format!("{}: cannot read", source.name()))?
    {
        count += 1;
        text += piece.bytes() as u64;
        // The piece is dropped where a worker would make it into games.
        drop(piece);
    }
    Ok((start.elapsed().as_secs_f64(), text, count))
}

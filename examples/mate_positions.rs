//! The cost of the mate analysis per position (SPEC.md "Who can still mate"): analyses
//! every position of a labelled file (`LABEL FEN` lines, as chasolver's `tests/*.txt`) once
//! at the level asked, in this one process, and prints the slowest first:
//! `microseconds<TAB>label<TAB>fen`. A single-process measurement of wall time: on a
//! loaded machine the figures are upper bounds. `scripts/mate_bench.sh` builds its
//! benchmark input from the slowest positions.
//!
//! Usage: cargo run --release --example mate_positions -- fast|full FILE [N]
//! (N: how many of the slowest to print, default 50.)

use std::time::Instant;

use anyhow::{Context, bail};
use pgnkit::rules::fen::check;
use pgnkit::rules::mate_check::{MateCheck, analyse};
use shakmaty::Position;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(level), Some(file)) = (args.first(), args.get(1)) else {
        bail!("usage: mate_positions fast|full FILE [N]");
    };
    let level = match level.as_str() {
        "fast" => MateCheck::Fast,
        "full" => MateCheck::Full,
        "material" => MateCheck::Material,
        other => bail!("unknown level `{other}`"),
    };
    let shown: usize = match args.get(2) {
        Some(n) => n.parse().context("N is not a number")?,
        None => 50,
    };
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
    let mut timings = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((label, fen)) = line.split_once(' ') else {
            continue;
        };
        // What a game's final position would be: legal, and neither mate nor stalemate.
        let Ok((pos, mode)) = check::position(fen, false) else {
            continue;
        };
        if pos.is_checkmate() || pos.is_stalemate() {
            continue;
        }
        let started = Instant::now();
        let verdict = analyse(&pos, mode, level);
        let micros = started.elapsed().as_micros();
        std::hint::black_box(verdict);
        timings.push((micros, label.to_string(), fen.to_string()));
    }
    timings.sort_by_key(|t| std::cmp::Reverse(t.0));
    for (micros, label, fen) in timings.iter().take(shown) {
        println!("{micros}\t{label}\t{fen}");
    }
    Ok(())
}
